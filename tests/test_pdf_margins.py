"""The margins of the typeset edition (PDF): a passage's number and 文渊阁 page on the left, its
counterparts in the other work (互见) on the right. Built once from three 文渊阁 files whose
passages are short and many: the 句读's 公食大夫礼 (卷九) with the 通解's (each passage a
counterpart in the margin) and the 句读's 丧服 (卷十一, passages of a line or two)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from smallsite import ROOT, needs, small_book

if str(ROOT) not in sys.path:  # bench/ is run from the project root, not installed
    sys.path.insert(0, str(ROOT))

from bench.pdfcheck import margin_figures, margins, near_edge, overprinted  # noqa: E402

pytestmark = pytest.mark.latex
TOOLS = ("xelatex", "latexmk", "pdftotext")
FILES = ("seeds/wenyuange/KR1d0038/KR1d0038_009.txt", "seeds/wenyuange/KR1d0038/KR1d0038_011.txt",
         "seeds/wenyuange/KR1d0085/KR1d0085_022.txt")


@pytest.fixture(scope="module")
def pdf(tmp_path_factory) -> Path:
    needs(*TOOLS)
    return small_book(tmp_path_factory.mktemp("margins"), FILES) / "yili.pdf"


def test_the_margins_never_overprint(pdf):
    """A short passage's margin box never runs into the next passage's: the later box stands below."""
    pages = margins(pdf)
    found = [(page, side, pair) for page, side, words in pages for pair in overprinted(words)]
    assert found == []
    right = " ".join(w[4] for _, side, words in pages if side == "right" for w in words)
    assert right.count("通解·公食大夫礼") > 100 and right.count("句读·公食大夫礼") > 100  # counterparts both ways
    assert sum(len(words) for _, side, words in pages if side == "left") > 1000  # numbers and pages
    assert [word for _, _, words in pages for word in near_edge(words)] == []
    # the figures the benchmark reports of the whole book's PDF (bench/pdfcheck.py)
    assert margin_figures(pdf) == {"margin_overprinted": 0, "margin_near_edge": 0}


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
