"""The margins of the typeset edition (PDF): a passage's number and 文渊阁 page on the left, its
counterparts in the other work (互见) on the right. Built once from three 文渊阁 files whose
passages are short and many: the 句读's 公食大夫礼 (卷九) with the 通解's (each passage a
counterpart in the margin) and the 句读's 丧服 (卷十一, passages of a line or two)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from smallsite import needs, small_book

pytestmark = pytest.mark.latex
TOOLS = ("xelatex", "latexmk", "pdftotext")
FILES = ("seeds/wenyuange/KR1d0038/KR1d0038_009.txt", "seeds/wenyuange/KR1d0038/KR1d0038_011.txt",
         "seeds/wenyuange/KR1d0085/KR1d0085_022.txt")
# The text block's sides in PDF points (A4, 595 pt wide; 30 mm margins, conf.py's sphinxsetup):
# a word wholly outside them is in a margin; and the edges of the paper no word comes nearer than 8 mm.
TEXT_LEFT, TEXT_RIGHT = 85.0, 510.2
PAPER_EDGE = 8 * 72 / 25.4
Word = tuple[float, float, float, float, str]  # x0, y0, x1, y1 (points, from the top), the word


@pytest.fixture(scope="module")
def pdf(tmp_path_factory) -> Path:
    needs(*TOOLS)
    return small_book(tmp_path_factory.mktemp("margins"), FILES) / "yili.pdf"


def margins(pdf: Path) -> list[tuple[int, str, list[Word]]]:
    """The words of each page's two margins (``pdftotext -bbox``): (page, "left" or "right", words)."""
    xhtml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    xhtml = re.sub(r"<!DOCTYPE[^>]*>", "", xhtml).replace(' xmlns="http://www.w3.org/1999/xhtml"', "")
    found = []
    for number, page in enumerate(ElementTree.fromstring(xhtml).iter("page"), 1):
        words = [(float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")), float(w.get("yMax")), w.text)
                 for w in page.iter("word")]
        found.append((number, "left", [w for w in words if w[2] < TEXT_LEFT]))
        found.append((number, "right", [w for w in words if w[0] > TEXT_RIGHT]))
    return found


def overprinted(words: list[Word]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap (by more than a point each way)."""
    return [(one[4], other[4]) for i, one in enumerate(words) for other in words[i + 1:]
            if min(one[2], other[2]) - max(one[0], other[0]) > 1 and min(one[3], other[3]) - max(one[1], other[1]) > 1]


def test_the_margins_never_overprint(pdf):
    """A short passage's margin box never runs into the next passage's: the later box stands below."""
    pages = margins(pdf)
    found = [(page, side, pair) for page, side, words in pages for pair in overprinted(words)]
    assert found == []
    right = " ".join(w[4] for _, side, words in pages if side == "right" for w in words)
    assert right.count("通解·公食大夫礼") > 100 and right.count("句读·公食大夫礼") > 100  # counterparts both ways
    assert sum(len(words) for _, side, words in pages if side == "left") > 1000  # numbers and pages
    edges = [w[4] for _, _, words in pages for w in words if w[0] < PAPER_EDGE or w[2] > 595 - PAPER_EDGE]
    assert edges == []


def test_a_witness_page_in_the_margin_is_one_line(pdf):
    """卷十一叶三十七 b on one line (xeCJK's space before the side), never 卷十一叶三十七 over a lone b."""
    pages = 0
    for _, side, words in margins(pdf):
        if side != "left":
            continue
        for leaf, after in zip(words, words[1:]):
            if re.fullmatch(r"卷[一二三四五六七八九十]+叶[一二三四五六七八九十]+", leaf[4]):
                assert after[4] in ("a", "b") and abs(after[1] - leaf[1]) < 1 and after[0] > leaf[2], (leaf, after)
                pages += 1
    assert pages > 300
