"""``make html`` converts inside ``sphinx-build`` (转换于构建之内): ``-D yl_seeds=../seeds``.

The conversion Sphinx runs (``conv.sphinx_ext.seeds``) writes exactly the pages ``python -m conv
build`` writes, touches ``source/.converted`` as ``make convert`` does, is skipped while the pages
are newer than every seed and every part of the converter, and fails the build with the file,
line and column when the converter refuses (here: a generated page edited by hand).

Every build is a ``sphinx-build`` subprocess, as ``make html`` runs it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = Path("judou") / "xiangshe.md"


def sphinx(src: Path, out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
                           "-D", "yl_seeds=../seeds", "-D", "yl_edition=seeds", *args, str(src), str(out)],
                          capture_output=True, text=True, cwd=ROOT)


def generated(src: Path) -> dict[str, bytes]:
    return {str(p.relative_to(src)): p.read_bytes() for p in sorted(src.rglob("*.md"))
            if p.relative_to(src).parts[0] in ("judou", "tongjie", "apparatus")}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """``base/seeds`` (a copy of the seeds) and ``base/source`` (conf.py, index.md and the
    notes: no generated page), built once by Sphinx with ``-D yl_seeds=../seeds``."""
    base = tmp_path_factory.mktemp("seeds-build")
    shutil.copytree(ROOT / "seeds", base / "seeds")
    src = base / "source"
    src.mkdir()
    for name in ("conf.py", "index.md"):
        shutil.copy(ROOT / "source" / name, src / name)
    shutil.copytree(ROOT / "source" / "notes", src / "notes")
    proc = sphinx(src, base / "html")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return base, proc


def test_sphinx_writes_the_converters_pages(project, tmp_path):
    base, proc = project
    cli = tmp_path / "cli"
    seeds = sorted(str(p) for p in (base / "seeds").glob("*.txt"))
    done = subprocess.run([sys.executable, "-m", "conv", "build", *seeds, "--out", str(cli)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    mine, theirs = generated(base / "source"), generated(cli)
    assert sorted(mine) == sorted(theirs) and len(mine) == 30
    assert all(mine[name] == theirs[name] for name in mine)
    assert (base / "source" / ".converted").is_file()
    assert (base / "html" / CHAPTER.with_suffix(".html")).is_file()
    # the progress lines, one per work and per chapter, and the converter's report of problems
    assert "conv: judou 仪礼郑注句读: 4 chapters, 310 passages from 3 seed files" in proc.stdout
    assert "conv: tongjie 仪礼经传通解: 2 chapters, 175 passages from 2 seed files" in proc.stdout
    assert "conv:   judou/xiangshe 乡射礼: 29 sections, 217 passages" in proc.stdout.splitlines()
    assert "conv:   tongjie/dashe 大射仪: 16 sections, 104 passages" in proc.stdout.splitlines()
    assert "conv: 30 pages written or unchanged under" in proc.stdout
    problems = [line for line in done.stderr.splitlines() if line.split(":")[0].endswith(".txt")]
    assert problems and all(line in proc.stdout.splitlines() for line in problems)


def test_up_to_date_pages_are_not_converted_again(project):
    base, _ = project
    page = base / "source" / CHAPTER
    before = page.stat().st_mtime_ns
    proc = sphinx(base / "source", base / "html")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "conv: the pages are up to date with ../seeds (seeds)" in proc.stdout
    assert "pages written or unchanged" not in proc.stdout
    assert page.stat().st_mtime_ns == before


def test_a_deleted_page_is_converted_again(project, tmp_path):
    base, _ = project
    src = tmp_path / "source"
    shutil.copytree(base / "source", src)
    shutil.copytree(base / "seeds", tmp_path / "seeds")
    assert (src / ".converted").read_text(encoding="utf-8").split("\n")[:3] == [
        "# edition: seeds", "apparatus/glossary.md", "apparatus/glosses-dang.md"]
    before = (src / CHAPTER).read_bytes()
    (src / CHAPTER).unlink()
    proc = sphinx(src, tmp_path / "html")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "conv: 30 pages written or unchanged under" in proc.stdout
    assert (src / CHAPTER).read_bytes() == before


def test_a_refused_conversion_fails_the_build_with_its_location(project, tmp_path):
    base, _ = project
    src = tmp_path / "source"
    shutil.copytree(base / "source", src)
    shutil.copytree(base / "seeds", tmp_path / "seeds")
    page = src / CHAPTER
    page.write_text(page.read_text(encoding="utf-8") + "\n编者手改\n", encoding="utf-8")
    seed = next((tmp_path / "seeds").glob("000_*.txt"))
    later = (src / ".converted").stat().st_mtime_ns + 1_000_000_000
    os.utime(seed, ns=(later, later))  # a seed changed: the pages are converted again
    proc = sphinx(src, tmp_path / "html")
    assert proc.returncode == 2
    assert f"{page}:1:1: this generated page was edited by hand" in proc.stderr
    assert "put your change in an editorial note under source/notes/" in proc.stderr
    assert "Traceback" not in proc.stderr and "reading sources" not in proc.stdout
    assert "编者手改" in page.read_text(encoding="utf-8")  # nothing overwritten


def test_a_missing_seed_directory_is_an_error(tmp_path):
    src = tmp_path / "source"
    src.mkdir()
    for name in ("conf.py", "index.md"):
        shutil.copy(ROOT / "source" / name, src / name)
    proc = sphinx(src, tmp_path / "html")
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: yl_seeds: {tmp_path / 'seeds'}: no such directory")
