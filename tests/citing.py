"""The whole edition converted with a ledger that holds redirects, plus hand-written pages that
cite passages: built once per session (``tests/test_domain.py``, ``tests/test_intersphinx.py``)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

#: Old anchors the test ledger redirects (the committed ledger has none yet), and where they land.
REDIRECTS = {
    "judou-xiangshe-900": "judou-xiangshe-12",  # a passage replaced by another
    "judou-xiangshe-901": "judou-xiangshe-900",  # a chain: lands on judou-xiangshe-12
    "judou-xiangshe-s900": "judou-xiangshe-s1",  # a section
    "judou-yanli-900": "judou-yanli",  # a passage gone: its chapter
}
FINAL = {
    "judou-xiangshe-900": "judou-xiangshe-12",
    "judou-xiangshe-901": "judou-xiangshe-12",
    "judou-xiangshe-s900": "judou-xiangshe-s1",
    "judou-yanli-900": "judou-yanli",
}

CITES = """\
---
orphan: true
---

(cites)=
# 引用测试

- 默认：{yl:cite}`judou-xiangshe-12`
- 自定：{yl:cite}`乡射之文 <judou-xiangshe-12>`
- 章：{yl:cite}`judou-xiangshe-s1`
- 篇：{yl:cite}`tongjie-dashe`
- 重定向：{yl:cite}`judou-xiangshe-900`
- 链式重定向：{yl:cite}`judou-xiangshe-901`
- 章重定向：{yl:cite}`judou-xiangshe-s900`
- 篇重定向：{yl:cite}`judou-yanli-900`
- std：{ref}`judou-xiangshe-12`
- std 旧锚：{ref}`judou-xiangshe-900`
- any：{any}`tongjie-dashe-3`
"""


def write_ledger(path: Path) -> Path:
    """The committed ledger with ``REDIRECTS`` added, written to ``path``."""
    from conv.anchors.ledger import Entry, Ledger

    ledger = Ledger.load()
    model = ledger.get("judou-xiangshe-12")
    for old, to in REDIRECTS.items():
        ledger.put(Entry(old, "redirect", to, model.fingerprint, model.seed, model.start, model.end, "旧", "test"))
    ledger.save(path)
    return path


def make_edition(base: Path, pages: dict[str, str], ledger: Path | None = None) -> Path:
    """A source directory: the project's ``source/`` (``conf.py``, the hand-written pages), the
    seeds converted again (with ``ledger``) and ``pages`` (relative path → MyST)."""
    src = base / "source"
    shutil.copytree(ROOT / "source", src, ignore=shutil.ignore_patterns(".converted", "_build", "__pycache__"))
    command = [sys.executable, "-m", "conv", "build", "--edition", "seeds", "--out", str(src)]
    if ledger is not None:
        command += ["--ledger", str(ledger)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        pytest.fail(f"conversion failed:\n{proc.stderr[-3000:]}", pytrace=False)
    for name, text in pages.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    return src


_CACHE: dict[str, Path] = {}


def cited_edition_source(tmp_path_factory) -> tuple[Path, Path]:
    """(source dir, ledger) of the edition with redirects and ``cites.md``; made once per session."""
    if "src" not in _CACHE:
        base = tmp_path_factory.mktemp("cited-edition")
        _CACHE["ledger"] = write_ledger(base / "anchors.tsv")
        _CACHE["src"] = make_edition(base, {"cites.md": CITES}, _CACHE["ledger"])
    return _CACHE["src"], _CACHE["ledger"]
