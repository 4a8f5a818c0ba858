"""The typeset edition (PDF): the real seeds converted into a copy of ``source/`` and built with
``sphinx-build -M latexpdf`` (xelatex) once per session; every test reads that one build.

What a reader of the PDF must be able to rely on: every passage's 经/记 text is there, no
character is a replacement character, a private-use code point or missing from the fonts, every
font is embedded, the layers are set apart as in a printed edition, passages are LaTeX labels
whose page numbers references print, and what follows the works is back matter.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest

from conftest import ROOT, without_index_entries
from smallsite import latexpdf, needs

pytestmark = pytest.mark.latex
PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")
TOOLS = ("xelatex", "latexmk", "make", "pdftotext", "pdffonts", "pdfinfo")
# The text block of a page (A4, 595 × 842 pt; margins from conf.py's sphinxsetup: 25 mm at the
# sides and top, 22 mm at the bottom), in the 72-dpi pixels of ``pdftotext -x -y -W -H``: leaves
# out the running heads, the page numbers and the passage numbers in the margin.
BODY = ("-x", "66", "-y", "70", "-W", "470", "-H", "712")
APPARATUS_MARK = re.compile(r"[校异]\d+")


@dataclass
class Edition:
    """One PDF build of the edition."""

    latex: Path  # build/latex
    returncode: int
    output: str

    @property
    def pdf(self) -> Path:
        return self.latex / "yili.pdf"

    @cached_property
    def tex(self) -> str:
        """The LaTeX source, without the term index's ``\\index`` entries."""
        return without_index_entries((self.latex / "yili.tex").read_text(encoding="utf-8"))

    @cached_property
    def log(self) -> str:
        return (self.latex / "yili.log").read_text(encoding="utf-8", errors="replace")

    def pdftotext(self, *args: str) -> str:
        return subprocess.run(["pdftotext", "-enc", "UTF-8", *args, str(self.pdf), "-"],
                              capture_output=True, text=True, check=True).stdout

    @cached_property
    def text(self) -> str:
        return self.pdftotext()

    @cached_property
    def body(self) -> str:
        """The text blocks of all pages, without any whitespace."""
        return re.sub(r"\s", "", self.pdftotext(*BODY))

    @cached_property
    def reading(self) -> str:
        """``body`` without the apparatus's marks (superscript 校3, 异5 after a word)."""
        return APPARATUS_MARK.sub("", self.body)

    def page(self, number: int, *args: str) -> str:
        return self.pdftotext("-f", str(number), "-l", str(number), *args)


@pytest.fixture(scope="session")
def edition(tmp_path_factory) -> Edition:
    """``sphinx-build -M latexpdf`` of the seeds converted into a copy of ``source/``."""
    needs(*TOOLS)
    base = tmp_path_factory.mktemp("pdf")
    source = base / "source"
    shutil.copytree(ROOT / "source", source, ignore=shutil.ignore_patterns(".converted"))
    for command in (["clean"], ["build", "--edition", "seeds"]):  # only the hand-written pages stay; the rest from the seeds
        subprocess.run([sys.executable, "-m", "conv", *command, "--out", str(source)], cwd=ROOT,
                       check=True, capture_output=True)
    proc = latexpdf(source, base / "build")
    built = Edition(base / "build" / "latex", proc.returncode, proc.stdout + proc.stderr)
    if proc.returncode != 0 or not built.pdf.is_file():
        pytest.fail(f"make latexpdf failed ({proc.returncode}):\n{built.output[-6000:]}",
                    pytrace=False)
    return built


@pytest.fixture(scope="session")
def passages() -> list[dict]:
    """Every passage of the seeds, from ``python -m conv dump --json``."""
    dump = subprocess.run([sys.executable, "-m", "conv", "dump", "--edition", "seeds", "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    return [passage
            for work in json.loads(dump)["works"]
            for chapter in work["chapters"]
            for section in chapter["sections"]
            for passage in section["passages"]]


# -- the text ---------------------------------------------------------------------------------

def test_every_passage_is_printed(edition, passages):
    opening = {p["id"]: "".join(p["normalized"].split())[:20] for p in passages}
    assert len([o for o in opening.values() if o]) > 400
    missing = {anchor: words for anchor, words in opening.items()
               if words not in edition.reading}
    assert not missing, f"{len(missing)} passages not in the PDF, e.g. {list(missing.items())[:5]}"


def test_no_replacement_or_private_use_characters(edition):
    assert "\ufffd" not in edition.text
    found = sorted({f"U+{ord(c):04X}" for c in PUA.findall(edition.text)})
    assert not found, found


def test_every_character_has_a_glyph(edition):
    missing = [line for line in edition.log.splitlines() if "Missing character" in line]
    assert not missing, missing[:10]


def test_fonts_are_embedded(edition):
    rows = subprocess.run(["pdffonts", str(edition.pdf)], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]
    assert rows
    # columns: name type encoding emb sub uni object ID (a type may hold spaces: count from the end)
    not_embedded = [row for row in rows if row.split()[-5] != "yes"]
    assert not not_embedded, not_embedded
    names = " ".join(row.split()[0] for row in rows)
    assert "NotoSerifCJK" in names and "NotoSansCJK" in names  # 经/注 and 音义


def test_no_row_of_the_gloss_index_stands_alone_under_its_header(edition):
    """A table broken at a page's foot has at least its first two rows there (the 通摄's table
    began at the foot of a page with one row under its header, then 续下页), and its continuation
    at least its last two (``\\\\*``, tables_print.row_ends)."""
    pages = edition.text.split("\f")
    loci = re.compile(r"\(第\d+页\)")
    for number, page in enumerate(pages, 1):
        if "广韵地位" not in page:
            continue
        layout = edition.page(number, "-layout")
        if "续下页" in layout:
            last_piece = layout.rsplit("广韵地位", 1)[1].split("续下页")[0]
            assert len(loci.findall(last_piece)) >= 2, (number, last_piece)
        if "接上页" in layout:
            continued = re.split(r"\n\s*\S+摄\s*\n", layout.split("接上页", 1)[1])[0]
            assert len(loci.findall(continued)) >= 2, (number, continued)


def test_a_heading_never_ends_a_page_with_its_table_overleaf(edition):
    """A back-matter heading that leads a table (its introduction between: 遇摄's 本摄音义 584 条…)
    is on the page where the table begins, with its header: longtable breaks the page before its
    header when the header and first row do not fit, which left 遇摄, 蟹摄, 宕摄, 流摄 and 未能推定
    音韵地位者 of the whole edition, and the seeds' 通摄, alone at a page's foot."""
    headings = _headings_before_tables(edition.tex)
    assert len(headings) >= 10 and ("遇摄", "广韵地位") in headings
    pages = [[line.strip() for line in page.splitlines()] for page in edition.text.split("\f")]
    number = 0
    for title, header in headings:
        number = next(n for n in range(number, len(pages)) if title in pages[n])
        lines = pages[number]
        assert header in lines[lines.index(title) + 1:], (number + 1, title, header)


def test_every_label_is_defined_once(edition):
    """A reference prints the page of its own target: no label is defined twice (the mark that keeps
    a heading with its table went between the heading and its label, which LaTeX then set twice)."""
    assert "multiply defined" not in edition.log


def test_the_indices_are_set_in_the_text_face_with_en_dashes(edition):
    """The indices' entries (the 名物索引's terms and places, 句读·士昏礼第44段; the general index's)
    are in the text face, not Sphinx's monospaced ones (FreeMono and Noto Sans Mono CJK before; headings stay 黑体); a
    range of pages reads 43–53, not the 43--53 makeindex writes (the Latin font has no TeX
    ligatures elsewhere)."""
    pages = edition.text.split("\f")
    first = next(number for number, page in enumerate(pages, 1) if "名物索引" in page and re.search(r"第\s*\d+[\d、\s]*段", page))
    rows = subprocess.run(["pdffonts", "-f", str(first), "-l", str(len(pages) - 1), str(edition.pdf)],
                          capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    faces = sorted({row.split()[0].split("+")[-1] for row in rows})
    assert "FreeSerif-Identity-H" in faces and [face for face in faces if "Mono" in face] == [], faces
    assert not re.search(r"\d--\d", edition.text) and re.search(r"\d–\d", "".join(pages[first - 1:]))


# -- the layers as printed ------------------------------------------------------------------------

def test_layers_read_as_in_the_book(edition):
    body = edition.reading
    # 注 unmarked right after its words, 按 and 疏 with their lead marks, all in one pair of 【】
    # (张尔岐's remark ends with a quotation of 贾疏: a 疏 segment of its own)
    assert ("司马命获者执旌以负侯【欲令射者见侯与旌深有志于中〔按〕上文命张侯倚旌〔疏〕疏云同是西阶前"
            "至此未有他事当亦西阶前命之也】") in body
    assert "〔疏〕疏云相左之时在西阶之西" in body
    assert "偃犹仆也仆音赴】" in body  # 音义 kept where the witness has it
    assert "卒射皆执弓不挟南面揖揖如升射【不挟亦右执弦如司射】" in body  # U+EB8E → 弦
    assert "右司射诱射" in body and "右三耦射" in body  # 章旨 as printed
    assert "燕礼第六【郑目录云诸侯无事若卿大夫有勤劳之功" in body
    assert "〔前阙〕" in body and "〔后阙〕" in body


def test_layers_are_told_apart_in_type(edition):
    """经 in the main size, notes smaller, 音义 in the sans face (its own font in the PDF)."""
    words = _words(edition, _page_of(edition, "司马命获者执旌以负侯"))
    jing = next(h for w, h in words if w.startswith("司马命获者执旌以负侯"))
    zhu = next(h for w, h in words if "欲令射者见侯与旌深有志于中" in w)
    assert zhu < 0.9 * jing, words
    assert r"{\ylnote{yin}{音义}仆音赴}" in edition.tex
    assert r"\ylnote@yin[1]{\sffamily" in (edition.latex / "yili.sty").read_text(encoding="utf-8")


def test_book_structure(edition):
    tex = edition.tex
    for work, chapters in (("仪礼郑注句读", ("乡射礼", "燕礼", "特牲馈食礼", "少牢馈食礼")),
                           ("仪礼经传通解", ("乡饮酒礼", "大射仪"))):
        assert f"\\part{{{work}}}" in tex
        for chapter in chapters:
            assert f"\\chapter{{{chapter}}}" in tex
    assert r"\section{司射诱射}" in tex
    # the front page's text: the 说明 after the contents; a work's opening lines: on its part page
    assert tex.index(r"\sphinxtableofcontents") < tex.index(r"\ylpreface") < tex.index("开源数字校本")
    assert re.search(r"\\part\{仪礼郑注句读\}[^\n]*\n(\\label[^\n]*\n)*\\begin\{ylpartintro\}"
                     r"\s*\\sphinxAtStartPar\s*张尔岐撰\s*\\end\{ylpartintro\}", tex)
    contents = edition.page(_page_of(edition, "目录"))
    for title in ("说明", "仪礼郑注句读", "乡射礼", "少牢馈食礼", "仪礼经传通解", "大射仪"):
        assert title in contents
    # running heads: the work on even pages, the 篇 on odd ones (above the text block)
    heads = {_head(edition, n) for n in range(1, _pages(edition) + 1)}
    assert {"乡射礼", "燕礼", "仪礼郑注句读", "仪礼经传通解", "大射仪"} <= heads, heads


def test_passages_are_labels_with_pages(edition):
    assert (r"\begin{ylpassage}{jing}\phantomsection\label{\detokenize{judou/xiangshe:"
            r"judou-xiangshe-3}}\ylnum{3}") in edition.tex
    aux = (edition.latex / "yili.aux").read_text(encoding="utf-8")
    page = re.search(r"\\newlabel\{judou/xiangshe:judou-xiangshe-3\}\{\{[^}]*\}\{(\d+)\}", aux)
    assert page, "no label for judou-xiangshe-3"
    # the front page's references to the works print their pages
    assert re.search(r"乡射礼\(第\d+页\)", edition.body)


def test_the_gloss_index_keeps_its_short_cells_and_loci_on_one_line(edition):
    """The 音义索引's columns in print are as wide as what their cells hold, alike in every 摄's table:
    a locus and its page (句读·乡射礼 3 (第12页)) stand on one line (nine in ten: the column is as
    wide as nine in ten of its cells), and 合于本字 never breaks in two. With the screen's proportions every page reference went to a line of its own and 合于本字
    broke 95 times here; the whole edition's index took 579 of its 2,724 pages, 12 rows a page
    (245 now, 27 rows a page)."""
    pages = [number for number, page in enumerate(edition.text.split("\f"), 1) if "广韵地位" in page]
    lines = [line for number in pages for line in edition.page(number, "-layout").splitlines()]
    loci = [line for line in lines if re.search(r"\(第\d+页\)", line) and "条" not in line]  # not the list of 摄
    apart = [line for line in loci if "·" not in line]  # a page reference without its locus
    assert len(loci) > 100 and len(apart) <= len(loci) // 10, apart  # nine in ten fit their column
    assert sum("合于本字" in line for line in lines) == sum("合于本" in line for line in lines) > 50


def test_after_the_works_comes_back_matter(edition):
    tex = edition.tex
    last_work = tex.index(r"\part{仪礼经传通解}")
    back = tex.index(r"\ylbackmatter")
    assert back > last_work
    parts_after = re.findall(r"\\part\{([^}]*)\}", tex[last_work + 1:])
    assert all(tex.index(f"\\part{{{p}}}") > back for p in parts_after)


def test_the_book_credits_the_wenyuange_transcription_and_its_licence(edition):
    """The 文渊阁 transcription's licence (CC BY-SA 4.0) asks that its attribution travel with the book: the front
    page says whose it is (the Kanseki Repository's KR1d0038 and KR1d0085) and under what licence."""
    front = re.sub(r"\s+", "", edition.text[:edition.text.index("阅读")])
    assert "文渊阁本录文出自漢籍リポジトリ（KansekiRepository，https://www.kanripo.org/，KR1d0038、KR1d0085）" in front
    assert "依CCBY-SA4.0许可（https://creativecommons.org/licenses/by-sa/4.0/）发布" in front


def test_html_widgets_degrade_in_print(edition):
    """The front page: its cards are titled blocks, the legend shows the print styles, and the
    reading notes speak of the page, not of the toolbar."""
    assert "工具栏" not in edition.text and "鼠标悬停" not in edition.text
    assert "页边数字为各段经文的编号" in edition.body
    assert "〔疏〕贾疏" in edition.body and "〔按〕按语" in edition.body


# -- helpers ------------------------------------------------------------------------------------

def _pages(edition: Edition) -> int:
    info = subprocess.run(["pdfinfo", str(edition.pdf)], capture_output=True, text=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info)[1])


def _page_of(edition: Edition, words: str) -> int:
    for number, page in enumerate(edition.text.split("\f"), 1):
        if words in re.sub(r"\s", "", page):
            return number
    raise AssertionError(f"{words!r} not in the PDF")


_HEADING = re.compile(r"\\(?:chapter|section|subsection|subsubsection)\{([^}]*)\}")
_HEADING_OR_TABLE = re.compile(_HEADING.pattern + r"|\\begin\{longtable\}")
_HEADER_CELL = re.compile(r"\\sphinxstyletheadfamily \\sphinxAtStartPar\n(.*)\n")


def _headings_before_tables(tex: str) -> list[tuple[str, str]]:
    """(title, the first header cell of its table) of each heading whose section's first structure
    is a longtable (text may stand between them)."""
    found = []
    for heading in _HEADING.finditer(tex):
        following = _HEADING_OR_TABLE.search(tex, heading.end())
        if following and following[0].startswith("\\begin"):
            found.append((heading[1], _HEADER_CELL.search(tex, following.end())[1]))
    return found


def _head(edition: Edition, number: int) -> str:
    """The running head's words of a page (without the page number)."""
    text = edition.page(number, "-y", "0", "-H", "66", "-W", "595", "-x", "0")
    return re.sub(r"[\s\d]", "", text)


def _words(edition: Edition, number: int) -> list[tuple[str, float]]:
    """(word, height) of the words of a page (``pdftotext -bbox`` splits words where the font
    changes)."""
    xml = edition.page(number, "-bbox")
    return [(m[3], float(m[2]) - float(m[1])) for m in re.finditer(
        r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', xml)]


def test_no_file_names_for_readers(edition):
    """The 校勘记 of the book names passages and witness pages, never a seed's file:line:col (the
    maintainers' listing has those: build/html/_maintainers/)."""
    assert "校1" in edition.text
    assert not re.findall(r"\w+\.txt:\d+:\d+", edition.text)


def test_each_chapter_head_names_its_witness(edition):
    """The line under each 篇's title names the witness of its text (issue 18): in the PDF of the
    seeds alone, the 录入本 for each of the six 篇, once each."""
    assert edition.body.count("本篇底本：录入本（简体）。") == 6
