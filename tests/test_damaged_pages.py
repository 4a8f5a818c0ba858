"""Damaged generated pages (残页): pages are written atomically, a damaged page is an error at its
first bad byte (not a codec traceback), and ``make clean`` never fails on what it cannot read
(issue 21, point 2)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conv import datafiles
from conv.edition import assemble, build
from conv.myst import writer

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
CHAPTER = Path("judou") / "yanli.md"


def conv(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conv", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def converted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("damaged") / "source"
    written = build.build(SEEDS, out, say=lambda line: None)
    build.mark_converted(out, written, "seeds")
    return out


def copy(converted: Path, tmp_path: Path) -> Path:
    out = tmp_path / "source"
    shutil.copytree(converted, out)
    return out


def cut_mid_character(page: Path) -> int:
    """Cut the page inside a 3-byte character after its header; returns the line of the cut."""
    raw = page.read_bytes()
    at = raw.index("燕".encode()) + 1
    page.write_bytes(raw[:at])
    return raw.count(b"\n", 0, at) + 1


def test_an_interrupted_write_leaves_no_half_page(converted, tmp_path, monkeypatch):
    """A conversion interrupted between writing a page's temporary file and the rename leaves the
    old pages as they were, no half-written page and no temporary file."""
    out = copy(converted, tmp_path)
    before = {p: p.read_bytes() for p in out.rglob("*.md")}
    (out / CHAPTER).unlink()  # this page is to be written again

    def interrupted(source, target):
        raise KeyboardInterrupt  # Ctrl-C between the temporary file and the rename

    monkeypatch.setattr(datafiles.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        writer.write(assemble.convert(SEEDS), out)
    assert not (out / CHAPTER).exists()
    assert all(p.read_bytes() == before[p] for p in out.rglob("*.md"))
    assert [p.name for p in out.rglob("*") if p.name.endswith(".tmp")] == []


def test_a_damaged_page_is_an_error_at_its_bad_byte(converted, tmp_path):
    out = copy(converted, tmp_path)
    line = cut_mid_character(out / CHAPTER)
    result = conv("build", *map(str, SEEDS), "--out", str(out))
    assert result.returncode == 2
    error = next(line for line in result.stderr.splitlines() if line.startswith("error: "))
    assert error.startswith(f"error: {out / CHAPTER}:{line}:")
    assert "not valid UTF-8" in result.stderr and "make clean" in result.stderr
    assert "Traceback" not in result.stderr


def test_sphinx_reports_a_damaged_page_instead_of_a_traceback(converted, tmp_path):
    out = copy(converted, tmp_path)
    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    for name in ("conf.py", "index.md"):
        shutil.copy(ROOT / "source" / name, out / name)
    line = cut_mid_character(out / CHAPTER)
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
                             "-D", "yl_seeds=../seeds", "-D", "yl_edition=seeds", str(out), str(tmp_path / "html")],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.startswith("error: ") and f"yanli.md:{line}:" in result.stderr
    assert "Traceback" not in result.stderr and "codec" not in result.stderr


def test_clean_removes_a_damaged_page_and_names_what_it_cannot_read(converted, tmp_path):
    out = copy(converted, tmp_path)
    cut_mid_character(out / CHAPTER)
    hand = out / "apparatus" / "mine.md"
    hand.write_bytes("# 我的校记\n".encode("gbk"))
    result = conv("clean", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert not (out / CHAPTER).exists()
    assert f"skipped {hand}: not UTF-8" in result.stderr
    assert hand.read_bytes() == "# 我的校记\n".encode("gbk")
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md")) == ["apparatus/mine.md"]


def test_write_atomically_replaces_whole(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("旧", encoding="utf-8")
    datafiles.write_atomically(path, "新\r\n文")
    assert path.read_bytes() == "新\r\n文".encode() and list(tmp_path.iterdir()) == [path]
