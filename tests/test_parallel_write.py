"""Parallel writing (并行写出, ``conv/sphinx_ext/parallel.py``): with ``-j N`` every forked process
resolves, indexes and writes whole pages, and the main process merges their search index.

The output must be a serial build's byte for byte — every page, ``searchindex.js``, the indices —
for a clean build and for an incremental one that writes many pages; a warning logged while a
page is written in a forked process must still reach the main process and, with ``-W``, fail the
build. The seeds' edition is converted and built as in ``tests/test_incremental.py``.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from incremental_project import NOTES_PAGE, ROOT, add_sentence, build, differences, edition

#: What ``-v`` shows when the pages are written by the extension's processes.
PARALLEL_MESSAGE = "parallel writing:"


@pytest.fixture(scope="module")
def seeds(tmp_path_factory) -> Path:
    """The seeds' edition, converted once for the module (tests copy it before changing it)."""
    return edition(tmp_path_factory.mktemp("parallel-write"))


@pytest.fixture(scope="module")
def serial(seeds, tmp_path_factory) -> Path:
    """A ``-j 1`` build of the seeds' edition: the reference every parallel build must equal."""
    out = tmp_path_factory.mktemp("serial")
    build(seeds, out, "-j", "1")
    return out / "html"


def copy_of(seeds: Path, base: Path) -> Path:
    src = base / "source"
    shutil.copytree(seeds, src)
    return src


def test_parallel_build_equals_serial(seeds, serial, tmp_path):
    out = tmp_path / "out"
    stdout = build(seeds, out, "-j", "2", "-v")
    assert PARALLEL_MESSAGE in stdout, stdout[-3000:]
    assert (out / "html" / "searchindex.js").read_bytes() == (serial / "searchindex.js").read_bytes()
    assert differences(out / "html", serial) == []


def test_serial_build_does_not_fork(seeds, tmp_path):
    stdout = build(seeds, tmp_path / "out", "-j", "1", "-v")
    assert PARALLEL_MESSAGE not in stdout


def sphinx_html(src: Path, out: Path, *args: str) -> subprocess.CompletedProcess:
    """``sphinx-build -b html`` with only ``args``: it may fail (``build`` asserts it does not)."""
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-d", str(out / "doctrees"),
                           *args, str(src), str(out / "html")], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("keep_going", [True, False])
def test_warning_while_writing_in_a_process_fails_the_build(seeds, tmp_path, keep_going):
    """An unknown anchor is found when the page is resolved, in a forked process now: the
    warning names the page in the main process's output, and ``-W`` fails the build."""
    src = copy_of(seeds, tmp_path)
    page = src / "judou" / "xiangshe.md"  # a chapter page: never the one written before the fork
    page.write_text(page.read_text(encoding="utf-8") + "\n{yl:cite}`judou-xiangshe-999`\n",
                    encoding="utf-8")
    args = ["-W", "--keep-going"] if keep_going else ["-W"]
    proc = sphinx_html(src, tmp_path / "out", "-j", "2", "-v", *args)
    assert PARALLEL_MESSAGE in proc.stdout, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.returncode != 0
    assert "judou/xiangshe.md" in proc.stderr and "judou-xiangshe-999" in proc.stderr, proc.stderr[-3000:]
    # without -W the build goes on and reports the warning all the same
    proc = sphinx_html(src, tmp_path / "plain", "-j", "2")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "judou-xiangshe-999" in proc.stderr


def test_incremental_parallel_write_equals_clean(seeds, tmp_path):
    """A rebuild that reads and writes many pages in parallel (the search index loaded from the
    last build, the rewritten pages' entries replaced by the processes') equals a clean build."""
    src = copy_of(seeds, tmp_path / "inc")
    out = tmp_path / "inc-out"
    build(src, out, "-j", "2")
    add_sentence(src / NOTES_PAGE, "校记补一：一事{index}`校记词`。")
    now = time.time_ns()
    for page in sorted((src / "judou").glob("*.md")) + sorted((src / "tongjie").glob("*.md")):
        os.utime(page, ns=(now, now))  # read and written again, unchanged
    stdout = build(src, out, "-j", "2", "-v")
    assert PARALLEL_MESSAGE in stdout, stdout[-3000:]
    clean_src = copy_of(src, tmp_path / "clean")
    clean_out = tmp_path / "clean-out"
    build(clean_src, clean_out, "-j", "1")
    assert differences(out / "html", clean_out / "html") == []


def test_chunks_are_balanced_by_weight():
    from conv.sphinx_ext.speed.parallel import balanced_chunks, start_order

    weights = {"big": 90, "a": 30, "b": 30, "c": 30, "small": 1}
    chunks = balanced_chunks(list(weights), weights, 2)
    assert chunks == [["big", "small"], ["a", "b", "c"]]
    assert balanced_chunks(["a"], weights, 4) == [["a"]]
    assert start_order([[1], [2], [3], [4], [5]], 2) == [[1], [2], [5], [4], [3]]


BUILDERS = """
import gc
import sys
from sphinx.application import Sphinx

src, out = sys.argv[1:3]
for name in ("html", "dirhtml", "singlehtml", "latex"):
    app = Sphinx(src, src, f"{out}/{name}", f"{out}/doctrees-{name}", name, status=None,
                 warning=None, parallel=2)
    print(name, type(app.builder).__name__)
app = Sphinx(src, src, f"{out}/built", f"{out}/doctrees-built", "html", status=None, warning=None,
             parallel=2)
app.build()
print("frozen after the build:", gc.get_freeze_count())
"""


def test_only_the_html_builder_is_replaced(seeds, tmp_path):
    """``html`` is the extension's builder; ``dirhtml``, ``singlehtml`` and LaTeX are Sphinx's.
    After a parallel build the heap is the collector's again (a process may build again)."""
    proc = subprocess.run([sys.executable, "-c", BUILDERS, str(seeds), str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == [
        "html ParallelHTMLBuilder", "dirhtml DirectoryHTMLBuilder", "singlehtml SingleFileHTMLBuilder",
        "latex LaTeXBuilder", "frozen after the build: 0"]


def test_an_interrupted_build_leaves_no_process_behind():
    """Ctrl-C while the pages are written (``run_chunks``): the interrupt may reach the main process while it
    hands over a finished chunk's result, where ``ParallelTasks.terminate`` stops on a ``KeyError`` and leaves
    the other processes running — one of them, blocked sending back its own ``KeyboardInterrupt``, then held the
    interpreter's exit for ever (a hung ``test_interrupted`` run). Every process is gone when the error goes on."""
    import multiprocessing

    from conv.sphinx_ext.speed.parallel import run_chunks

    def work(chunk):
        if chunk == ["slow"]:
            time.sleep(60)
        return chunk

    def done(chunk, result):
        raise KeyboardInterrupt  # Ctrl-C while the first result is handed over

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_chunks(work, [["slow"], ["quick"]], done, 2)
    assert multiprocessing.active_children() == [] and time.monotonic() - started < 30
