"""Editorial notes (``yl:note``, ``conv/sphinx_ext/notes.py``): hand-written MyST notes attached to
passage anchors, shown at the passage (HTML disclosure, LaTeX footnote) and on the chapter's notes
page; a note on an anchor the edition does not have fails the build at the note's file:line; a
redirect recorded in the ledger carries the note to the new passage; regenerating the text never
touches a note file; editing one note rewrites only its notes page and its chapter."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, project_source
from notes_projects import notes_project

# line numbers matter: the dangling-note test names them
NOTES_XIANGSHE = """\
(notes-judou-xiangshe)=
# 乡射礼校注

:::{yl:note} judou-xiangshe-18
:author: 测试者
:date: 2026-11-30

执弦之弦底本*缺笔*，见脚注[^que]；参[私用区码表](https://www.unicode.org/charts/PDF/UE000.pdf)、{doc}`燕礼 <../../judou/yanli>`与{yl:cite}`judou-yanli-2`。

[^que]: 避康熙讳，玄字缺末笔。
:::

:::{yl:note} judou-xiangshe-3..judou-xiangshe-5
:author: 测试者

三至五段合注[^he]。

[^he]: 合注之脚注。
:::

:::{yl:note} judou-xiangshe-7
:to: judou-xiangshe-8

七八两段之注。
:::

:::{yl:note} judou-xiangshe-900
:author: 测试者

旧锚点之注。
:::
"""
@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return notes_project(tmp_path_factory.mktemp("notes"), {"judou/xiangshe.md": NOTES_XIANGSHE})


@pytest.fixture(scope="module")
def html(project, sphinx_build):
    return sphinx_build(project, "html")


def soup(build, docname: str) -> BeautifulSoup:
    return BeautifulSoup(build.html(docname), "html.parser")


# -- HTML -----------------------------------------------------------------------------------

def test_note_at_its_passage(html):
    page = soup(html, "judou/xiangshe")
    passage = page.select_one("#judou-xiangshe-18")
    ref = passage.select_one("details.yl-ednote-ref")
    assert ref is not None and "no-search" in ref["class"]
    assert ref.select_one("summary.yl-ednote-mark").get_text() == "〔四〕"
    # after the witness's words and notes
    assert ref.find_previous_sibling(class_="yl-run").select_one(".yl-note") is not None
    body = ref.select_one(".yl-ednote-body")
    assert body.select_one("em").get_text() == "缺笔"
    link = body.select_one("a.reference.external")
    assert link["href"] == "https://www.unicode.org/charts/PDF/UE000.pdf" and link.get_text() == "私用区码表"
    # the footnote comes along, with ids that cannot clash with the page's, numbered from 1
    fnref = body.select_one("a.footnote-reference")
    footnote = body.select_one("aside.footnote")
    assert fnref["href"] == "#" + footnote["id"] and footnote["id"].startswith("judou-xiangshe-18-")
    assert "避康熙讳" in footnote.get_text() and "1" in fnref.get_text()
    # references resolve from the chapter page, not from the notes page the note was written on
    hrefs = [a["href"] for a in body.select("a.reference.internal")]
    assert "yanli.html" in hrefs and "yanli.html#judou-yanli-2" in hrefs
    back = ref.select_one(".yl-ednote-foot a")
    assert back["href"] == "../notes/judou/xiangshe.html#note-judou-xiangshe-18"
    assert "测试者" in ref.select_one(".yl-ednote-foot").get_text()
    ids = [tag["id"] for tag in page.select("[id]")]
    assert len(ids) == len(set(ids))


def test_numbers_ranges_and_redirects(html):
    page = soup(html, "judou/xiangshe")
    marks = [(m.find_parent(class_="yl-passage")["id"], m.get_text())
             for m in page.select("summary.yl-ednote-mark")]
    # numbered in reading order; a range is noted at its last passage; -900 follows the ledger
    assert marks == [("judou-xiangshe-5", "〔一〕"), ("judou-xiangshe-8", "〔二〕"),
                     ("judou-xiangshe-13", "〔三〕"), ("judou-xiangshe-18", "〔四〕")]
    assert "三至五段合注" in page.select_one("#judou-xiangshe-5 .yl-ednote-body").get_text()
    assert "1" in page.select_one("#judou-xiangshe-5 a.footnote-reference").get_text()
    assert "旧锚点之注" in page.select_one("#judou-xiangshe-13 .yl-ednote-body").get_text()
    assert not soup(html, "judou/yanli").select(".yl-ednote-ref")


def test_notes_page_links_back(html):
    page = soup(html, "notes/judou/xiangshe")
    notes = page.select("div.yl-ednote")
    assert [n["id"] for n in notes] == ["note-judou-xiangshe-18", "note-judou-xiangshe-3",
                                        "note-judou-xiangshe-7", "note-judou-xiangshe-900"]
    first = notes[0]
    head = first.select_one(".yl-ednote-head")
    assert head.select_one(".yl-ednote-number").get_text() == "〔四〕"
    assert head.select_one("a")["href"] == "../../judou/xiangshe.html#judou-xiangshe-18"
    assert "卒射皆执弓不挟" in head.select_one(".yl-ednote-quote").get_text()
    assert "测试者　2026-11-30" in head.get_text()
    assert "避康熙讳" in first.select_one("aside.footnote").get_text()  # its footnote, in the note
    assert "../../judou/yanli.html#judou-yanli-2" in [a["href"] for a in first.select("a")]
    assert "judou-xiangshe-3 至 judou-xiangshe-5" in notes[1].select_one(".yl-ednote-head").get_text()
    assert "judou-xiangshe-7 至 judou-xiangshe-8" in notes[2].select_one(".yl-ednote-head").get_text()
    moved = notes[3].select_one(".yl-ednote-head")
    assert moved.select_one("a")["href"] == "../../judou/xiangshe.html#judou-xiangshe-13"
    assert "judou-xiangshe-900 已转至 judou-xiangshe-13" in moved.get_text()
    assert not page.select("hr.footnotes, .transition")  # no empty footnote separator left


@pytest.mark.browser
def test_marker_opens_the_note(html, http_server, page, browser, screenshots):
    site = http_server(html.outdir)
    page.goto(f"{site}/judou/xiangshe.html")
    passage = page.locator("#judou-xiangshe-18")
    mark = passage.locator("summary.yl-ednote-mark")
    text = passage.locator(".yl-ednote-body p").first
    mark.scroll_into_view_if_needed()
    assert mark.is_visible() and mark.inner_text() == "〔四〕"
    assert not text.is_visible()
    page.screenshot(path=str(screenshots / "notes-closed.png"))
    mark.focus()
    page.keyboard.press("Enter")  # a native disclosure: keyboard works
    assert text.is_visible() and "执弦之弦底本缺笔" in text.inner_text()
    assert passage.locator("em", has_text="缺笔").is_visible()
    page.screenshot(path=str(screenshots / "notes-open.png"))
    page.keyboard.press("Enter")
    assert not text.is_visible()
    # and without JavaScript
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        bare = context.new_page()
        bare.goto(f"{site}/judou/xiangshe.html")
        bare.locator("#judou-xiangshe-18 summary.yl-ednote-mark").click()
        assert bare.locator("#judou-xiangshe-18 .yl-ednote-body p").first.is_visible()
    finally:
        context.close()


# -- print and text -------------------------------------------------------------------------

def passage_tex(tex: str, anchor: str) -> str:
    start = tex.index("judou/xiangshe:%s}}" % anchor)
    return tex[start:tex.index(r"\end{ylpassage}", start)]


def test_note_is_a_footnote_at_its_passage_in_latex(project, sphinx_build):
    build = sphinx_build(project, "latex")
    tex = (build.outdir / "yili.tex").read_text(encoding="utf-8")
    block = passage_tex(tex, "judou-xiangshe-18")
    assert r"\footnote{" in block
    assert r"\sphinxstylestrong{〔四〕}执弦之弦底本\sphinxstyleemphasis{缺笔}" in block
    assert "避康熙讳，玄字缺末笔" in block  # its footnote, inside the note
    assert "私用区码表（" in block and "UE000.pdf" in block  # the URL inline, not a nested footnote
    assert r"\begin{footnote}" not in block
    assert "三至五段合注" in passage_tex(tex, "judou-xiangshe-5")
    assert "三至五段合注" not in passage_tex(tex, "judou-xiangshe-3")
    # the notes page in print: each note with a link to its passage
    assert r"\label{\detokenize{notes/judou/xiangshe:note-judou-xiangshe-18}}" in tex
    assert r"\hyperref[\detokenize{judou/xiangshe:judou-xiangshe-18}]" in tex


def test_text_builder(project, sphinx_build):
    build = sphinx_build(project, "text")
    chapter = (build.outdir / "judou" / "xiangshe.txt").read_text(encoding="utf-8").replace("\n", "")
    assert "卒射皆执弓不挟南面揖揖如升射【注：不挟亦右执弦如司射】〔四〕" in chapter
    notes = (build.outdir / "notes" / "judou" / "xiangshe.txt").read_text(encoding="utf-8")
    assert "〔四〕" in notes and "执弦之弦底本" in notes


# -- errors ---------------------------------------------------------------------------------

def test_dangling_anchor_fails_the_build(tmp_path, sphinx_build):
    notes = (
        "(notes-judou-xiangshe)=\n# 乡射礼校注\n\n"
        ":::{yl:note} judou-xiangshe-18\n好注。\n:::\n\n"      # line 4
        ":::{yl:note} judou-xiangshe-999\n:author: 某\n\n锚点有误。\n:::\n\n"  # line 8
        ":::{yl:note} judou-xiangshe-9..judou-xiangshe-4\n倒置之范围。\n:::\n"  # line 14
    )
    src = notes_project(tmp_path, {"judou/xiangshe.md": notes}, ledger=False)
    build = sphinx_build(src, "html", check=False)
    assert build.returncode != 0
    where = str(src / "notes" / "judou" / "xiangshe.md")
    assert re.search(re.escape(where) + r":8: WARNING: editorial note 'note-judou-xiangshe-999': "
                     r"anchor 'judou-xiangshe-999' does not exist", build.warnings), build.warnings
    assert "[yl.note]" in build.warnings
    assert re.search(re.escape(where) + r":14: WARNING: .*judou-xiangshe-9\.\.judou-xiangshe-4",
                     build.warnings), build.warnings
    assert build.warnings.count("WARNING") == 2, build.warnings


def test_chinese_numbers():
    from conv.sphinx_ext.refs.ednotes_resolve import cn_number, label

    assert [cn_number(n) for n in (1, 9, 10, 11, 20, 21, 99, 100, 105, 110, 120)] == [
        "一", "九", "十", "十一", "二十", "二十一", "九十九", "一百", "一百零五", "一百一十", "一百二十"]
    assert label(3) == "〔三〕"


# -- incremental builds -----------------------------------------------------------------------

def sphinx(src: Path, out: Path, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
                           "-d", str(out / "doctrees"), *args, str(src), str(out / "html")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc


def pages(src: Path, out: Path) -> dict[str, int]:
    """Output page → mtime, for the project's documents (not genindex, search, domain indices)."""
    html = out / "html"
    return {str(p.relative_to(src).with_suffix(".html")):
            (html / p.relative_to(src).with_suffix(".html")).stat().st_mtime_ns
            for p in src.rglob("*.md")}


def test_editing_a_note_rewrites_its_chapter_and_notes_page_only(tmp_path):
    src = notes_project(tmp_path, {"judou/xiangshe.md": NOTES_XIANGSHE})
    out = tmp_path / "out"
    sphinx(src, out, "-j", "2")
    before = pages(src, out)
    time.sleep(0.01)
    note = src / "notes" / "judou" / "xiangshe.md"
    note.write_text(NOTES_XIANGSHE.replace("七八两段之注", "七八两段之注，改"), encoding="utf-8")
    proc = sphinx(src, out, "-j", "2")
    after = pages(src, out)
    changed = {p for p in after if after[p] != before.get(p)}
    # the note's page and its chapter; Sphinx adds the page whose toctree lists the notes page
    # (read again: its title may have changed), not the chapter's (not read again)
    assert changed == {"judou/xiangshe.html", "notes/judou/xiangshe.html",
                       "notes/index.html"}, proc.stdout
    assert "1 changed" in proc.stdout and "reading sources... [100%] notes/judou/xiangshe" in proc.stdout
    assert "七八两段之注，改" in (out / "html" / "judou" / "xiangshe.html").read_text(encoding="utf-8")

    # moving a note to another chapter: both chapters and the notes page
    time.sleep(0.01)
    note.write_text(NOTES_XIANGSHE.replace("{yl:note} judou-xiangshe-7\n:to: judou-xiangshe-8",
                                           "{yl:note} judou-yanli-2"), encoding="utf-8")
    sphinx(src, out, "-j", "2")
    moved = pages(src, out)
    assert {p for p in moved if moved[p] != after[p]} == {
        "judou/xiangshe.html", "judou/yanli.html", "notes/judou/xiangshe.html",
        "notes/index.html"}
    yanli = BeautifulSoup((out / "html" / "judou" / "yanli.html").read_text(encoding="utf-8"), "html.parser")
    assert yanli.select_one("#judou-yanli-2 summary.yl-ednote-mark").get_text() == "〔一〕"
    chapter = BeautifulSoup((out / "html" / "judou" / "xiangshe.html").read_text(encoding="utf-8"), "html.parser")
    assert [m.get_text() for m in chapter.select("summary.yl-ednote-mark")] == ["〔一〕", "〔二〕", "〔三〕"]


# -- the real edition: notes and regeneration ---------------------------------------------------

SEED_000 = "000_065af0aba9fcdf9d.txt"
TEST_NOTE = """\
(notes-judou-test)=
# 测试校注

:::{yl:note} judou-xiangshe-50
:author: 测试者

释获者执鹿中之注。
:::
"""


def convert(src: Path, *args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "conv", "build", *args, "--out", str(src)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]


def edition_source(base: Path) -> Path:
    """conf.py, index.md and the real notes of source/, plus a test note on judou-xiangshe-50."""
    src = project_source(base)
    (src / "notes" / "judou" / "test.md").write_text(TEST_NOTE, encoding="utf-8")
    return src


def changed_seeds(base: Path) -> list[str]:
    """The seeds with one word of judou-xiangshe-50 changed (一人 → 二人)."""
    seeds = base / "seeds"
    seeds.mkdir()
    for seed in sorted((ROOT / "seeds").glob("*.txt")):
        shutil.copy(seed, seeds / seed.name)
    path = seeds / SEED_000
    text = path.read_text(encoding="utf-8")
    assert text.count("释获者执鹿中一人执算以从之") == 1
    path.write_text(text.replace("释获者执鹿中一人执算以从之", "释获者执鹿中二人执算以从之"), encoding="utf-8")
    return [str(p) for p in sorted(seeds.glob("*.txt"))]


def snapshot(notes: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(notes)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(notes.rglob("*")) if p.is_file()}


def test_regenerating_the_text_never_touches_notes(tmp_path):
    src = edition_source(tmp_path)
    notes = snapshot(src / "notes")
    convert(src)  # the whole edition, as make does
    convert(src, "--edition", "seeds")  # and again (the small edition: the same writer, quicker)
    assert snapshot(src / "notes") == notes
    convert(src, *changed_seeds(tmp_path))
    assert "二人执算" in (src / "judou" / "xiangshe.md").read_text(encoding="utf-8")
    assert snapshot(src / "notes") == notes
    subprocess.run([sys.executable, "-m", "conv", "clean", "--out", str(src)], cwd=ROOT, check=True,
                   capture_output=True)
    assert not (src / "judou").exists()
    assert snapshot(src / "notes") == notes


def test_notes_keep_their_passages_through_the_ledger(tmp_path, sphinx_build):
    """judou-xiangshe-50 changes. Before the editor decides, a note on it fails the build (the
    anchor was retired without a redirect); after ``conv anchors --redirect``, the note follows
    the redirect to the passage's new anchor. The real notes keep their passages throughout."""
    src = edition_source(tmp_path)
    seeds = changed_seeds(tmp_path)
    convert(src, *seeds)
    undecided = sphinx_build(src, "html", "-j", "2", check=False)
    assert undecided.returncode != 0
    where = re.escape(str(src / "notes" / "judou" / "test.md"))
    assert re.search(where + r":4: WARNING: editorial note 'note-judou-xiangshe-50': anchor "
                     r"'judou-xiangshe-50' does not exist: .*retired without a redirect.*"
                     r"python -m conv anchors --redirect judou-xiangshe-50 TARGET", undecided.warnings)
    assert undecided.warnings.count("WARNING") == 1, undecided.warnings

    ledger = tmp_path / "anchors.tsv"
    shutil.copy(ROOT / "conv" / "data" / "anchors.tsv", ledger)
    new = re.search(r"provisionally (judou-xiangshe-\d+)", subprocess.run(
        [sys.executable, "-m", "conv", "anchors", *seeds, "--ledger", str(ledger)],
        capture_output=True, text=True, cwd=ROOT).stderr)[1]
    subprocess.run([sys.executable, "-m", "conv", "anchors", *seeds, "--ledger", str(ledger),
                    "--redirect", "judou-xiangshe-50", new], cwd=ROOT, check=True, capture_output=True)
    src2 = edition_source(tmp_path / "decided")
    convert(src2, *seeds, "--ledger", str(ledger))
    build = sphinx_build(src2, "html", "-j", "2")
    page = soup(build, "judou/xiangshe")
    moved = page.select_one(f"#{new} details.yl-ednote-ref")
    assert "释获者执鹿中之注" in moved.get_text()
    assert "二人执算" in page.select_one(f"#{new}").get_text()
    head = soup(build, "notes/judou/test").select_one(".yl-ednote-head")
    assert f"judou-xiangshe-50 已转至 {new}" in head.get_text()
    # the real notes: still at their passages
    gong = page.select_one("#judou-xiangshe-51")
    assert gong.select_one(".yl-text").get_text().startswith("释获者坐设中南当楅西")
    assert "读为拱" in gong.select_one(".yl-ednote-body").get_text()
    yanli = soup(build, "judou/yanli").select_one("#judou-yanli-5")
    assert "避清圣祖玄烨之讳" in yanli.select_one(".yl-ednote-body").get_text()


@pytest.mark.parametrize("builder", ["html", "latex"])
def test_no_api_sphinx_removes(project, tmp_path, builder):
    """The transforms that place notes, parallels and table citations use no API Sphinx 9 has
    deprecated (``SphinxTransform.app``, ``BuildEnvironment.app``: removed in Sphinx 11): a build
    with those warnings as errors succeeds."""
    run = ("import sys, warnings\n"
           "from sphinx.deprecation import RemovedInSphinx10Warning, RemovedInSphinx11Warning\n"
           "warnings.simplefilter('error', RemovedInSphinx10Warning)\n"
           "warnings.simplefilter('error', RemovedInSphinx11Warning)\n"
           "from sphinx.cmd.build import main\n"
           "sys.exit(main(sys.argv[1:]))\n")
    command = [sys.executable, "-c", run, "-W", "--keep-going", "-b", builder, str(project), str(tmp_path / builder)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "RemovedInSphinx" not in proc.stderr
