"""Helpers for the tests of incremental builds (增量构建): the seeds' edition as a project of its own,
``sphinx-build`` as ``make html`` runs it, the edit the benchmark's (d) makes, and the comparison of
two output trees (``test_incremental.py``, ``test_parallel_write.py``, ``test_kept_indices.py``,
``test_indices_terms.py``).

Run alone as a script to compare two builds of a project of your own (e.g. the large corpus)::

    .venv/bin/python tests/incremental_project.py INCREMENTAL_HTML_DIR CLEAN_HTML_DIR
"""
from __future__ import annotations

import difflib
import re
import subprocess
import sys
from pathlib import Path

from conftest import project_source

ROOT = Path(__file__).resolve().parents[1]
#: Files Sphinx writes that record the build rather than the edition.
IGNORED = {".buildinfo", ".buildinfo.bak"}
NOTES_PAGE = Path("notes") / "judou" / "xiangshe.md"


def edition(base: Path) -> Path:
    """The seeds' edition: ``source/conf.py``, ``index.md`` and notes, the pages converted."""
    src = project_source(base)
    proc = subprocess.run([sys.executable, "-m", "conv", "build", "--edition", "seeds", "--out", str(src)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return src


def build(src: Path, out: Path, *args: str, env: dict | None = None, cwd: Path = ROOT) -> str:
    """``sphinx-build -W --keep-going -b html`` as ``make html`` runs it; its output."""
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
                           "-d", str(out / "doctrees"), *args, str(src), str(out / "html")],
                          capture_output=True, text=True, cwd=cwd, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return proc.stdout


def add_sentence(page: Path, sentence: str) -> None:
    """One more sentence in the page's last ``yl:note`` (as ``bench.projects.touch_note``)."""
    lines = page.read_text(encoding="utf-8").split("\n")
    opening = max(i for i, line in enumerate(lines) if re.match(r"^:{3,}\{yl:note\}", line))
    fence = re.match(r"^(:{3,})", lines[opening]).group(1)
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i].rstrip() == fence)
    lines.insert(closing, sentence)
    page.write_text("\n".join(lines), encoding="utf-8")


def outputs(html: Path) -> dict[str, bytes]:
    return {str(p.relative_to(html)): p.read_bytes() for p in sorted(html.rglob("*"))
            if p.is_file() and p.name not in IGNORED}


def differences(incremental: Path, clean: Path) -> list[str]:
    """What differs between two output trees: missing files, then a short diff per file."""
    mine, theirs = outputs(incremental), outputs(clean)
    found = [f"only in the incremental build: {name}" for name in sorted(set(mine) - set(theirs))]
    found += [f"only in the clean build: {name}" for name in sorted(set(theirs) - set(mine))]
    for name in sorted(set(mine) & set(theirs)):
        if mine[name] == theirs[name]:
            continue
        try:
            a = mine[name].decode("utf-8").splitlines()
            b = theirs[name].decode("utf-8").splitlines()
        except UnicodeDecodeError:
            found.append(f"{name}: binary files differ")
            continue
        diff = list(difflib.unified_diff(a, b, "incremental", "clean", lineterm="", n=0))
        found.append(f"{name}:\n" + "\n".join(line[:300] for line in diff[:12]))
    return found


if __name__ == "__main__":
    problems = differences(Path(sys.argv[1]), Path(sys.argv[2]))
    print("\n".join(problems) or "identical")
    sys.exit(1 if problems else 0)
