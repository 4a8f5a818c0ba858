"""The PDF's 目录 follows each work's own order (issue #18, point 3): the 通解's 卷首, then its five
parts (门: 家礼, 乡礼, 学礼, 邦国礼, 王朝礼) as headings of their own with their 篇 under them, each
篇 named as the navigation names it (``第十二　乡饮酒礼``, ``第二十六　书数（阙）``).

A small edition: the 句读's 乡射礼 (seed 000) and, of the 通解, its 卷首 (KR1d0085_000), 乡饮酒礼
(乡礼, seed 003), the lost 书数 (学礼, KR1d0085_014) and 大射仪 (邦国礼, seed 004), built once as a
PDF (about half a minute).
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from smallsite import needs, small_book

pytestmark = pytest.mark.latex
TOOLS = ("xelatex", "latexmk", "pdftotext")
WITNESSES = ("seeds/000_065af0aba9fcdf9d.txt", "seeds/wenyuange/KR1d0085/KR1d0085_000.txt",
             "seeds/003_888d6f7486f7550d.txt", "seeds/wenyuange/KR1d0085/KR1d0085_014.txt",
             "seeds/004_5ef5e70c2cb7984b.txt")
#: the 通解 in the 目录: (kind, text) in order
TONGJIE = [("part", "仪礼经传通解"), ("chapter", "卷首"),
           ("yldivision", "乡礼"), ("chapter", "第十二　乡饮酒礼"),
           ("yldivision", "学礼"), ("chapter", "第二十六　书数（阙）"),
           ("yldivision", "邦国礼"), ("chapter", "第三十五　大射仪")]


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The small edition's ``_build/latex`` after ``sphinx-build -M latexpdf``."""
    needs(*TOOLS)
    return small_book(tmp_path_factory.mktemp("parts"), WITNESSES)


def _toc(book: Path) -> list[tuple[str, str]]:
    """The ``.toc`` file's entries the 目录 prints (the 章 are bookmarks only): (kind, text)."""
    toc = (book / "yili.toc").read_text(encoding="utf-8")
    return re.findall(r"\\contentsline \{(part|yldivision|chapter)\}\{([^{}]*)\}", toc)


def test_the_parts_head_their_pian_in_the_tex(book):
    tex = (book / "yili.tex").read_text(encoding="utf-8")
    tongjie = tex.index(r"\part{仪礼经传通解}")
    order = [r"\part{仪礼郑注句读}", r"\ylcontentsname{第五　乡射礼}", r"\chapter{乡射礼}",
             r"\part{仪礼经传通解}", r"\ylcontentsname{卷首}", r"\chapter{卷首}",
             r"\yldivision{乡礼}", r"\ylcontentsname{第十二　乡饮酒礼}", r"\chapter{乡饮酒礼}",
             r"\yldivision{学礼}", r"\ylcontentsname{第二十六　书数（阙）}", r"\chapter{书数}",
             r"\yldivision{邦国礼}", r"\ylcontentsname{第三十五　大射仪}", r"\chapter{大射仪}",
             r"\ylbackmatter"]
    places = [tex.find(line) for line in order]
    assert -1 not in places, [line for line, at in zip(order, places) if at < 0]
    assert places == sorted(places)
    # the 句读 has no parts; each of the 通解's parts is headed once
    assert tex.count(r"\yldivision{") == 3 and tex.index(r"\yldivision{") > tongjie


def test_the_contents_list_the_parts_with_their_pian(book):
    entries = _toc(book)
    start = entries.index(("part", "仪礼经传通解"))
    assert entries[start:start + len(TONGJIE)] == TONGJIE
    assert ("chapter", "第五　乡射礼") in entries[:start]
    assert not any(kind == "yldivision" for kind, _ in entries[:start])


def test_the_contents_page_shows_the_parts_above_their_pian(book):
    """The 目录 as printed: the parts between the 通解 and its 篇, each 篇 indented under its part,
    the 卷首 level with the parts."""
    pdf = book / "yili.pdf"
    pages = subprocess.run(["pdftotext", "-enc", "UTF-8", "-layout", "-f", "1", "-l", "6", str(pdf), "-"],
                           capture_output=True, text=True, check=True).stdout.split("\f")
    contents = next(page for page in pages if re.search(r"^\s*目\s*录\s*$", page, re.M))
    lines = {text: next((line for line in contents.splitlines()
                         if re.search(r"\s+".join(text.split("\u3000")), line)), None)
             for _, text in TONGJIE}  # (pdftotext prints U+3000 as spaces)
    assert None not in lines.values(), contents
    positions = [contents.index(lines[text]) for _, text in TONGJIE]
    assert positions == sorted(positions), contents

    def indent(text: str) -> int:
        return len(lines[text]) - len(lines[text].lstrip())

    assert indent("乡礼") == indent("学礼") == indent("邦国礼") == indent("卷首")
    assert indent("第十二　乡饮酒礼") > indent("乡礼") > indent("仪礼经传通解")
    assert re.search(r"书数（阙）[\s.]*\d+\s*$", lines["第二十六　书数（阙）"]), lines


def test_the_juanshou_catalogue_links_the_pian_of_the_edition(book):
    """The 卷首's 目録 (conv/edition/catalogue.py) in the PDF: a title naming a 篇 of this edition is
    a link to its chapter (hyperref), followed by its page as every citation is, the lost 书数 too
    (its page says it is lost); the 篇 not in this small edition are plain text."""
    tex = (book / "yili.tex").read_text(encoding="utf-8")
    links = re.findall(r"\\hyperref\[\\detokenize\{tongjie/(\w+):tongjie-(\w+)\}\]\{\\sphinxcrossref\{"
                       r"(?:\\DUrole\{[\w-]+\}\{)+([^{}]+)\}", tex)
    assert [(page, text) for page, anchor, text in links if page == anchor] == [
        ("xiangyinjiu", "乡饮酒礼第十二"), ("shushu", "书数第二十六"), ("dashe", "大射礼第三十五")]
    assert "书数第二十六" in tex and "士冠礼第一" in tex
    pdf = book / "yili.pdf"
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    contents = re.search(r"第十二\s+乡饮酒礼[\s.]*(\d+)", text)
    cited = re.search(r"乡饮酒礼第十二\s*\(\D*(\d+)\D*\)\s*乡礼三之上", text)
    assert contents and cited and cited[1] == contents[1], (cited, contents)


def _bookmarks(book: Path) -> list[tuple[str, str, str]]:
    """hyperref's bookmarks (``yili.out``): (destination, title, parent destination), titles decoded
    from their UTF-16 octal escapes."""
    out = (book / "yili.out").read_text(encoding="utf-8")
    rows = re.findall(r"\\BOOKMARK \[-?\d+\]\[-\]\{([^{}]+)\}\{\\376\\377((?:\\\d{3})+)\}\{([^{}]*)\}", out)
    return [(dest, bytes(int(o, 8) for o in octal.split("\\")[1:]).decode("utf-16-be"), parent)
            for dest, octal, parent in rows]


def test_the_juanshou_parts_are_its_sections_in_the_bookmarks(book):
    """The 卷首's parts (提要, 舊序, 目録, 劄子) are its sections: in the PDF's bookmarks under 卷首."""
    marks = _bookmarks(book)
    # (the 校勘记 names the 卷首 too, a subsection of 注文录作大字: 是昏禮所起也, a 疏 over a column)
    (juanshou,) = [dest for dest, title, _ in marks if title == "卷首" and dest.startswith("chapter")]
    assert [title for _, title, parent in marks if parent == juanshou] == ["提要", "仪礼经传通解旧序", "目录", "乞修三礼劄子"]
