"""Interrupted builds and departed pages (中断之构建): a ``sphinx-build`` killed at any moment and
followed by one more build gives a clean build's output, file for file; a page that leaves the
edition leaves the output and the search index (issue 21, points 1 and 6;
``conv/sphinx_ext/output/integrity.py``).

Each build is a ``sphinx-build`` subprocess run as ``make html`` runs it (``-W --keep-going -j
auto -D yl_seeds=../seeds``), on a copy of the project (its seeds, ``conf.py``, ``index.md``, the
notes). A build is killed when its log shows a marker: while converting, reading, writing,
making the indices, dumping the search index.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from search_helpers import search_index

ROOT = Path(__file__).resolve().parents[1]


def project(base: Path) -> Path:
    shutil.copytree(ROOT / "seeds", base / "seeds")
    (base / "source").mkdir()
    for name in ("conf.py", "index.md"):
        shutil.copy(ROOT / "source" / name, base / "source" / name)
    shutil.copytree(ROOT / "source" / "notes", base / "source" / "notes")
    return base


def command(base: Path) -> list[str]:
    return [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-j", "auto", "-b", "html",
            "-D", "yl_seeds=../seeds", "-D", "yl_edition=seeds", "source", "build/html"]


def build(base: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command(base), cwd=base, capture_output=True, text=True)


def killed(base: Path, marker: str, how: int = signal.SIGKILL, timeout: float = 120) -> str:
    """Run a build and kill it (its whole process group: ``-j`` workers too) as soon as its log
    shows ``marker``; returns the log. Fails if the build ends before the marker."""
    log = base / "killed.log"
    with log.open("w") as out:
        proc = subprocess.Popen(command(base), cwd=base, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    deadline = time.monotonic() + timeout
    try:
        while marker not in log.read_text(encoding="utf-8", errors="replace"):
            assert proc.poll() is None, f"the build ended before {marker!r}:\n" + log.read_text()[-2000:]
            assert time.monotonic() < deadline
            time.sleep(0.005)
        os.killpg(proc.pid, how)
    finally:
        try:
            proc.wait(timeout=timeout)  # a build that does not end once interrupted fails the test, never hangs it
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail(f"the build did not end {timeout} s after {signal.Signals(how).name}:\n" + log.read_text()[-2000:])
        if how != signal.SIGKILL:  # Ctrl-C: the workers may linger
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    return log.read_text(encoding="utf-8", errors="replace")


def output(base: Path) -> dict[str, bytes]:
    html = base / "build" / "html"
    return {p.relative_to(html).as_posix(): p.read_bytes() for p in sorted(html.rglob("*"))
            if p.is_file() and ".doctrees" not in p.relative_to(html).parts}


def same_output(base: Path, clean: dict[str, bytes]) -> None:
    mine = output(base)
    assert sorted(mine) == sorted(clean), (sorted(set(mine) ^ set(clean)))[:10]
    differ = [name for name in clean if mine[name] != clean[name]]
    assert differ == []


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> dict[str, bytes]:
    base = project(tmp_path_factory.mktemp("clean"))
    done = build(base)
    assert done.returncode == 0, done.stderr[-3000:]
    return output(base)


@pytest.mark.parametrize("marker, how", [
    ("conv: judou", signal.SIGKILL),                 # converting the seeds
    ("reading sources... [ 50%]", signal.SIGKILL),   # reading
    ("writing output... [ 50%]", signal.SIGKILL),    # writing the pages
    ("writing output... [ 50%]", signal.SIGINT),     # Ctrl-C while writing
    ("generating indices", signal.SIGKILL),          # the general index and the index of terms
    ("dumping search index", signal.SIGKILL),        # searchindex.js
])
def test_a_killed_build_is_followed_by_a_clean_one(tmp_path, clean, marker, how):
    base = project(tmp_path)
    killed(base, marker, how)
    again = build(base)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "index will be incomplete" not in again.stderr
    same_output(base, clean)


def test_a_temporary_file_left_by_a_killed_write_is_removed(tmp_path, clean):
    """A build killed inside an atomic write (``conv.datafiles.write_atomically``) leaves its
    temporary file ``.NAME.PID.tmp``: the next build removes it (found once under load:
    ``_search/apparatus/.glosses.json.<pid>.tmp``)."""
    base = project(tmp_path)
    assert build(base).returncode == 0
    html = base / "build" / "html"
    stray = html / "_search" / "apparatus" / ".glosses.json.4242.tmp"
    stray.write_text('{"half', encoding="utf-8")
    (html / ".doctrees" / "yl-build-incomplete").write_text("killed\n", encoding="utf-8")
    again = build(base)
    assert again.returncode == 0, again.stderr[-3000:]
    assert not stray.exists()
    same_output(base, clean)


def test_a_build_killed_after_an_edit(tmp_path, clean):
    """An incremental build (a notes page touched) killed while writing, then one more build."""
    base = project(tmp_path)
    assert build(base).returncode == 0
    note = next((base / "source" / "notes").rglob("xiangshe.md"))
    later = note.stat().st_mtime_ns + 2_000_000_000
    os.utime(note, ns=(later, later))
    killed(base, "writing output")
    again = build(base)
    assert again.returncode == 0, again.stderr[-3000:]
    same_output(base, clean)
    assert len(search_index(base / "build" / "html")["docnames"]) == 34


def test_a_departed_chapter_leaves_the_output(tmp_path, clean):
    """A chapter that the manifest creates and a later manifest no longer does: its page, its
    page source and its words leave the output; the output is then a clean build's."""
    base = project(tmp_path)
    manifest = base / "seeds" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('chapters = ["dashe"]', 'chapters = ["pinli"]'), encoding="utf-8")
    build(base)  # index.md's link to 大射仪 is a warning here: the output is written all the same
    html = base / "build" / "html"
    assert (html / "tongjie" / "pinli.html").is_file()
    index = search_index(html)
    assert "tongjie/pinli" in index["docnames"] and "聘礼" in index["titleterms"]
    manifest.write_text(text, encoding="utf-8")
    again = build(base)
    assert again.returncode == 0, again.stderr[-3000:]
    assert not (html / "tongjie" / "pinli.html").exists()
    index = search_index(html)
    assert "tongjie/pinli" not in index["docnames"] and "聘礼" not in index["titleterms"]
    same_output(base, clean)
