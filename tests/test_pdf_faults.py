"""The PDF is the edition's text, or there is no PDF (issue 21, points 3 and 10).

A seed holding ASCII that TeX would change (``"`` `` ` `` ``'`` ``<<`` ``,,``: ligatures; a long run:
hyphenated or run off the page) prints character for character (``pdftotext``); a control
character is refused before LaTeX (``make latexpdf`` fails with the character and the seed's
``file:line:col``); a LaTeX run that fails leaves no PDF. ``make latexpdf`` runs the project's
Makefile in a copy of the project, with the worktree's virtual environment.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.latex
TOOLS = ("xelatex", "latexmk", "make", "pdftotext")
ASCII_NOTE = "注云\"quoted\"and`back`and'single'<<>>,,fiflff``x''!`?`"
ASCII_RUN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" * 2 + "END"
SEED = f"仪礼郑注句读\n\n士冠礼第一\n\n士冠礼筮于庙门【{ASCII_NOTE}】\n\n主人玄冠朝服{ASCII_RUN}缁带素韠\n"


def project(base: Path, seed: str) -> Path:
    missing = [tool for tool in TOOLS if not shutil.which(tool)]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (see README: The PDF)")
    shutil.copytree(ROOT / "seeds", base / "seeds")
    (base / "seeds" / "005_test.txt").write_text(seed, encoding="utf-8")
    (base / "source").mkdir()
    for name in ("conf.py", "index.md"):
        shutil.copy(ROOT / "source" / name, base / "source" / name)
    shutil.copytree(ROOT / "source" / "notes", base / "source" / "notes")
    shutil.copy(ROOT / "Makefile", base / "Makefile")
    shutil.copy2(ROOT / "pyproject.toml", base / "pyproject.toml")  # older than the venv's stamp
    return base


def make_latexpdf(base: Path, *options: str) -> subprocess.CompletedProcess:
    venv = Path(sys.executable).parent
    opts = " ".join(["-W --keep-going -q", *options])
    return subprocess.run(["make", "latexpdf", f"BIN={venv}", f"INSTALLED={venv.parent / '.installed'}",
                           f"SPHINXOPTS={opts}", "EDITION=seeds"], cwd=base, capture_output=True, text=True)


def test_ascii_prints_character_for_character(tmp_path):
    base = project(tmp_path, SEED)
    done = make_latexpdf(base)
    assert done.returncode == 0, done.stderr[-3000:]
    pdf = str(base / "build" / "latex" / "yili.pdf")
    # the text block of the pages only (as tests/test_pdf.py's BODY): a run off the page is lost here
    body = subprocess.run(["pdftotext", "-enc", "UTF-8", "-x", "66", "-y", "70", "-W", "470", "-H", "712", pdf, "-"],
                          capture_output=True, text=True, check=True).stdout
    flat = re.sub(r"\s", "", body)
    assert f"士冠礼筮于庙门【{ASCII_NOTE}】" in flat
    assert f"主人玄冠朝服{ASCII_RUN}缁带素" in flat  # no hyphen added, nothing off the page


def test_a_control_character_is_refused_before_latex(tmp_path):
    base = project(tmp_path, SEED.replace("主人玄冠", "主人\x07玄冠"))
    (base / "build" / "latex").mkdir(parents=True)
    (base / "build" / "latex" / "yili.pdf").write_bytes(b"%PDF-1.5 an earlier build")
    failed = make_latexpdf(base)
    assert failed.returncode != 0
    assert re.search(r"WARNING: U\+0007 \(.*\) cannot be typeset \(seed 005_test\.txt:7:1\)", failed.stderr), \
        failed.stderr[-3000:]
    assert "make latexpdf failed: no PDF is left in build/latex/" in failed.stderr
    assert not list((base / "build" / "latex").glob("*.pdf"))
    assert not (base / "build" / "latex" / "yili.aux").exists()  # LaTeX never ran


def test_a_failed_latex_run_leaves_no_pdf(tmp_path):
    base = project(tmp_path, SEED)
    failed = make_latexpdf(base, r"-D latex_elements.atendofbody=\\ylnosuchmacro")  # the shell takes one \
    assert failed.returncode != 0
    assert (base / "build" / "latex" / "yili.log").is_file()  # LaTeX ran, and failed
    assert not list((base / "build" / "latex").glob("*.pdf"))
