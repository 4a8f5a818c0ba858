"""Incremental builds write what a clean build writes (增量构建与全量构建一致).

An editor changes a notes page and runs ``make html`` again: Sphinx reads only that page, and the
extension decides what else to write (``conv/sphinx_ext/notes.py``) and what it takes from the
last build instead of making it again (``conv/sphinx_ext/speed/``: the index of terms and its
page, the general index, the search index's entries, the navigation). Whatever
it skips or reuses, every output file must be the one a clean build of the same sources writes.

The seeds' edition (converted into a temporary project, with the real notes) is built, a note is
edited as the benchmark's (d) edits it (``bench/projects.py``: one more sentence in the last note of
``notes/judou/xiangshe.md``), and the project is built again (then again with an index entry in
the note, and once more with nothing changed); then a copy of the edited sources is built from
scratch and the two output trees are compared file by file (``.buildinfo`` aside). Sphinx itself
leaves the navigation of the pages it does not write as it was when a page's title changes: the
comparisons keep to changes that leave titles alone.

The helpers (the project, the build, the edit, the comparison) are ``incremental_project.py``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from incremental_project import NOTES_PAGE, ROOT, add_sentence, build, differences, edition


def written(stdout: str) -> str:
    match = re.search(r"writing output\.\.\. (.*)", stdout)
    return match.group(1) if match else ""


@pytest.mark.parametrize("jobs", ["2", "1"])
def test_notes_edit_incremental_equals_clean(tmp_path, jobs):
    src = edition(tmp_path / "inc")
    out = tmp_path / "inc-out"
    build(src, out, "-j", jobs)
    add_sentence(src / NOTES_PAGE, "校记补一：一事。")
    stdout = build(src, out, "-j", jobs)
    assert "0 added, 1 changed, 0 removed" in stdout, stdout
    # a second edit on top of the first, with an index entry: the general index and the search
    # index's entries change (the note, and so its entry, is shown on the chapter page too)
    add_sentence(src / NOTES_PAGE, "校记补二：又一事{index}`校记词`。")
    stdout = build(src, out, "-j", jobs)
    assert "0 added, 1 changed, 0 removed" in stdout, stdout
    clean_src = tmp_path / "clean" / "source"
    shutil.copytree(src, clean_src)
    clean_out = tmp_path / "clean-out"
    build(clean_src, clean_out, "-j", jobs)
    assert differences(out / "html", clean_out / "html") == []
    assert "校记补二：又一事" in (out / "html" / "judou" / "xiangshe.html").read_text(encoding="utf-8")
    assert "校记词" in (out / "html" / "genindex.html").read_text(encoding="utf-8")
    # nothing changed: nothing is written, and still the same output
    stdout = build(src, out, "-j", jobs)
    assert differences(out / "html", clean_out / "html") == []


def test_no_change_rebuild_equals_clean(tmp_path):
    """A rebuild with nothing changed, then one that reads a chapter page again (its source
    touched, its terms the same): what is reused equals a clean build's output."""
    src = edition(tmp_path / "inc")
    out = tmp_path / "inc-out"
    build(src, out, "-j", "2")
    build(src, out, "-j", "2")
    page = src / "judou" / "xiangshe.md"
    os.utime(page, ns=(time.time_ns(), time.time_ns()))  # read again; its terms stay
    build(src, out, "-j", "2")
    clean_src = tmp_path / "clean" / "source"
    shutil.copytree(src, clean_src)
    clean_out = tmp_path / "clean-out"
    build(clean_src, clean_out, "-j", "2")
    assert differences(out / "html", clean_out / "html") == []


def test_navigation_follows_a_changed_title(tmp_path):
    """The site's navigation is reused between builds (``conv/sphinx_ext/navcache.py``) only
    while every page's title and table of contents stay the same: a notes page retitled shows
    its new title in the navigation of every page written afterwards."""
    src = edition(tmp_path / "inc")
    out = tmp_path / "inc-out"
    build(src, out, "-j", "2")
    page = src / NOTES_PAGE
    text = page.read_text(encoding="utf-8")
    assert "# 乡射礼校注\n" in text
    page.write_text(text.replace("# 乡射礼校注\n", "# 乡射礼校注（改题）\n"), encoding="utf-8")
    build(src, out, "-j", "2")
    # the pages written (Sphinx leaves the others' navigation as it was, theme or no theme)
    for written in ("genindex.html", "search.html", "yl-terms.html", "notes/index.html",
                    "notes/judou/xiangshe.html"):
        assert "乡射礼校注（改题）" in (out / "html" / written).read_text(encoding="utf-8"), written


def test_small_changes_are_read_and_written_in_the_main_process(tmp_path):
    """``conv/sphinx_ext/preload.py``: ``-j N`` reads one page, or a few small ones, without
    forking, and writes a handful of pages without forking either; ``-j N`` is back for writing
    otherwise, and in any case once writing has begun."""
    from types import SimpleNamespace

    from conv.sphinx_ext.refs import ednotes as notes

    from conv.sphinx_ext.speed import preload

    pages = {"small": 1_000, "big": preload.SERIAL_READ_BYTES, "other": 10}
    for name, size in pages.items():
        (tmp_path / f"{name}.md").write_bytes(b"x" * size)
    env = SimpleNamespace(doc2path=lambda docname: tmp_path / f"{docname}.md", files_to_rebuild={})

    def read(docnames: list[str], written: int = 0, outdated=()) -> tuple[int, int]:
        app = SimpleNamespace(parallel=2, env=env, builder=SimpleNamespace())
        if outdated is not None:
            preload.small_read(app.builder).outdated = set(outdated)
        notes.note_read_pages(app, env, docnames)
        notes.write_only(app.builder, [f"chapter{i}" for i in range(written)])
        preload.read_small_changes_serially(app, env, docnames)
        reading = app.parallel
        preload.restore_parallel_unless_few_pages(app, env)
        deciding = app.parallel  # what Sphinx sees when it decides how to write
        preload.restore_parallel(app, None)
        assert app.parallel == 2
        notes.spare_parents_of_unread_pages(app, app.builder)
        return reading, deciding

    assert read(["big"]) == (1, 1)  # one page: nothing to read in parallel
    assert read(["small", "other"]) == (1, 1)
    assert read(["small", "big"]) == (2, 2)
    assert read(["small"], written=preload.SERIAL_WRITE_PAGES) == (1, 2)
    assert read(["small"], outdated=[f"page{i}" for i in range(preload.SERIAL_WRITE_PAGES)]) == (1, 2)
    assert read(["small"], outdated=None) == (1, 2)  # all pages, or not known
    assert read([]) == (2, 2)


def latex(src: Path, doctrees: Path, out: Path) -> str:
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "latex",
                           "-d", str(doctrees), str(src), str(out)], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return (out / "yili.tex").read_text(encoding="utf-8")


def test_latex_with_kept_indices_equals_clean(tmp_path):
    """LaTeX builds that find the index of terms kept by earlier builds in their doctree
    directory (an HTML build's, then their own: ``sphinx-build -M`` shares it) print the index
    a clean LaTeX build prints."""
    src = edition(tmp_path / "inc")
    out = tmp_path / "out"
    build(src, out, "-j", "2")
    first = latex(src, out / "doctrees", out / "latex1")
    second = latex(src, out / "doctrees", out / "latex2")  # the index's content read back
    clean = latex(src, tmp_path / "clean" / "doctrees", tmp_path / "clean" / "latex")
    assert r"\renewcommand{\indexname}{名物索引}" in clean
    assert first == clean
    assert second == clean


def test_a_change_to_the_extension_s_code_writes_every_page_again(tmp_path):
    """A maintainer changes how a page is written (a visitor of ``conv.sphinx_ext``) and runs ``make html`` again:
    every page is read and written again, none is left as the old code wrote it; a change to a style sheet alone
    (copied at every build) reads nothing again. The extension is a copy of ``conv/`` found first on the path (run
    outside the project, whose own ``conv/`` the working directory would put first)."""
    package = tmp_path / "package"
    shutil.copytree(ROOT / "conv", package / "conv", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(package)}
    src = edition(tmp_path / "inc")
    out = tmp_path / "inc-out"
    first = build(src, out, "-j", "2", env=env, cwd=tmp_path)
    pages = int(re.search(r"updating environment: (?:\[[^\]]*\] )?(\d+) added", first).group(1))
    assert pages > 10 and str(package / "conv") in subprocess.run(
        [sys.executable, "-c", "import conv; print(conv.__file__)"], env=env, capture_output=True, text=True,
        cwd=tmp_path).stdout
    visitor = package / "conv" / "sphinx_ext" / "text" / "passage.py"
    visitor.write_text(visitor.read_text(encoding="utf-8").replace(
        'self.body.append(\'<span class="yl-end">\')', 'self.body.append(\'<span class="yl-end" data-changed="">\')'),
        encoding="utf-8")
    stdout = build(src, out, "-j", "2", env=env, cwd=tmp_path)
    assert f"{pages} added, 0 changed, 0 removed" in stdout, stdout
    assert 'class="yl-end" data-changed=""' in (out / "html" / "judou" / "xiangshe.html").read_text(encoding="utf-8")
    style = package / "conv" / "sphinx_ext" / "static" / "yili.css"
    style.write_text(style.read_text(encoding="utf-8") + "\n/* a change */\n", encoding="utf-8")
    stdout = build(src, out, "-j", "2", env=env, cwd=tmp_path)
    assert "0 added, 0 changed, 0 removed" in stdout, stdout
    assert "/* a change */" in (out / "html" / "_static" / "yili.css").read_text(encoding="utf-8")
