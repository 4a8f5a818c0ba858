"""The 目録 of the 通解's 卷首 linked to its 篇 (issue #18, point 3): ``conv/edition/catalogue.py``
(the matching, ``conv/data/catalogue.toml``), the ``{yl:cite}`` the converter writes around each
title, the link on ``tongjie/juanshou.html``."""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conv.edition import catalogue
from conv.reader.mandoku_lex import chinese_number

#: 目録 line (as printed) → the 篇 it links to: across the five parts, the aliases included.
EXPECTED = {
    "士冠禮第一": "tongjie-shiguan",  # 家禮
    "昬義第四": "tongjie-hunyi",  # alias: the head prints 昏義
    "親屬記第八": "tongjie-qinshuji",
    "投壺第十一": "tongjie-touhu",  # 鄉禮; alias: the head prints 投壺禮
    "鄉飲酒禮第十二": "tongjie-xiangyinjiu",  # the chapter seed 003 is joined into
    "學記第二十七": "tongjie-xueji",  # 學禮
    "保傅傳第三十": "tongjie-baofu",  # alias: the head prints 保傅
    "五學第三十二": "tongjie-wuxue",
    "大射禮第三十五": "tongjie-dashe",  # 邦國禮; alias: the head prints 大射儀
    "諸侯相朝義第四十二": "tongjie-zhuhouxiangchaoyi",
    "覲禮": "tongjie-jinli",  # 王朝禮 (儀禮集傳集註目録: no numbers)
    "朝事義": "tongjie-chaoshiyi",  # its head prints 朝事義第四十四
    "王制之己": "tongjie-wangzhiji",  # alias: the head prints 王制之已
    "王制之癸": "tongjie-wangzhigui",
}


@pytest.fixture(scope="module")
def entries(whole_dump) -> list[dict]:
    return whole_dump["catalogue"]


def test_titles_link_to_their_chapters(entries):
    by_text = {}
    for entry in entries:
        by_text.setdefault(entry["text"], []).append(entry)
    for text, anchor in EXPECTED.items():
        assert [e["anchor"] for e in by_text[text]] == [anchor], text
        assert by_text[text][0]["passage"].startswith("tongjie-juanshou-")


def test_every_pian_named_once_in_the_books_order(entries):
    """All 60 篇 of the 目録, in its order, are the 通解's 60 篇 in theirs (tongjie_chapters.toml)."""
    assert len(entries) == 60
    assert [e["number"] for e in entries] == list(range(1, 61))
    assert all(e["anchor"] == f"tongjie-{e['chapter']}" and e["why"] is None for e in entries)


def test_lost_and_absent_pian_link_to_their_pages_which_say_so(entries):
    """書數 (此一篇原闕) and 卜筮 (printed nowhere) have pages that say they are lost: their
    titles in the 目録 lead there, as the navigation does."""
    lost = [(e["text"], e["anchor"], e["lost"]) for e in entries if e["lost"]]
    assert lost == [
        ("書數第二十六", "tongjie-shushu", "此一篇原闕"),
        ("卜筮", "tongjie-bushi", "目録列「卜筮(缺)」，正文无此篇"),
    ]


def test_aliases_carry_their_reason(entries):
    aliased = {e["text"]: e["alias"] for e in entries if e["alias"]}
    assert set(aliased) == {"昬義第四", "投壺第十一", "保傅傳第三十", "大射禮第三十五", "王制之己"}
    assert "昏義" in aliased["昬義第四"]


def test_link_text_is_the_witness_text(entries, whole_edition, whole_dump):
    """Conservation: the linked text is the start of its passage's text and exactly the witness's
    characters of its span; nothing is added."""
    passages = {p["id"]: p for w in whole_dump["works"] for c in w["chapters"] for s in c["sections"]
                for p in s["passages"]}
    for entry in entries:
        passage, at = passages[entry["passage"]], entry["at"]
        assert passage["text"][at:at + len(entry["text"])] == entry["text"]
        seed, start, end = entry["span"]
        assert seed == "KR1d0085_000.txt" and passage["span"][1] <= start < end <= passage["span"][2]
        raw = whole_edition.sources[seed].text[start:end]
        assert re.sub(r"[\s¶]", "", raw) == entry["text"]


def test_a_title_line_inside_a_passage(entries, whole_dump):
    """The prose before 士相見義第十 has no note to end its passage: the title line is inside it,
    and still found (it opens a line of the witness)."""
    entry = next(e for e in entries if e["text"] == "士相見義第十")
    assert entry["anchor"] == "tongjie-shixiangjianyi" and entry["at"] > 0
    assert entry["span"] == ["KR1d0085_000.txt", entry["span"][1], entry["span"][1] + 6]


def test_no_problems_on_the_whole_edition(whole_dump):
    assert [p for p in whole_dump["problems"] if p["kind"].startswith("catalogue-")] == []


# -- the matching on its own ----------------------------------------------------------------------

BOOK = catalogue.Book(
    titles={"士冠禮": ("shiguan",), "冠義": ("guanyi",), "鄉射禮": ("xiangshe", "other")},
    numbers={"shiguan": 1, "guanyi": 2, "xiangshe": 14, "other": 99},
    labels={"shiguan": "家禮一之上", "guanyi": "家禮一之下", "xiangshe": "鄉禮四之上", "other": ""},
    parts=("家禮", "鄉禮", "學禮", "邦國禮", "王朝禮"),
)


def test_read_a_line():
    assert catalogue.read_line("冠義第二家禮一之下", BOOK) == catalogue.Reading("冠義第二", "冠義", 2, "家禮一之下")
    assert catalogue.read_line("士冠禮第一", BOOK) == catalogue.Reading("士冠禮第一", "士冠禮", 1, "")
    assert catalogue.read_line("覲禮王朝禮一之上", BOOK) == catalogue.Reading("覲禮", "覲禮", None, "王朝禮一之上")
    assert catalogue.read_line("此小戴記第四十三篇葢漢儒所造", BOOK) is None
    assert catalogue.read_line("家禮一之上", BOOK) is None
    assert catalogue.read_line("目録", BOOK) is None


def test_two_pian_with_one_title_is_a_problem_not_a_guess():
    found = catalogue.match_line("鄉射禮第十四", BOOK)
    assert found.chapter is None and found.problem == "catalogue-ambiguous"
    assert "xiangshe" in found.message and "other" in found.message


def test_a_number_or_label_that_disagrees_is_a_problem():
    assert catalogue.match_line("冠義第三", BOOK).problem == "catalogue-number"
    assert catalogue.match_line("冠義第二家禮二之下", BOOK).problem == "catalogue-label"
    assert catalogue.match_line("冠義第二家禮一之下", BOOK).chapter == "guanyi"


def test_a_numbered_line_naming_no_pian_is_a_problem():
    found = catalogue.match_line("昬義第四家禮二之下", BOOK)
    assert found.chapter is None and found.problem == "catalogue-unmatched"
    assert catalogue.match_line("目録", BOOK) is None  # not a title line: nothing to report


def test_an_alias_naming_no_pian_stops_the_conversion(monkeypatch):
    from conv.errors import ConversionError
    from conv.model.tree import Work

    monkeypatch.setattr(catalogue.data, "catalogue_alias_lines", lambda: [40])
    table = {"alias": [{"printed": "昬義", "chapter": "hunyl", "reason": "a typo of the chapter id"}]}
    with pytest.raises(ConversionError) as error:
        catalogue.book_of(Work("tongjie", "儀禮經傳通解"), table)
    assert str(error.value).startswith("conv/data/catalogue.toml:40:1: an [[alias]] needs printed, chapter")


def test_pian_not_in_the_edition_are_known_but_link_nowhere():
    from conv.model.tree import Work

    book = catalogue.book_of(Work("tongjie", "儀禮經傳通解"), catalogue.data.catalogue())
    assert book.titles["士冠禮"] == ("shiguan",) and book.titles["昬義"] == ("hunyi",)
    assert book.unlinked["shiguan"] == "not in this edition" and len(book.unlinked) == 60
    assert catalogue.match_line("士冠禮第一", book).chapter == "shiguan"


#: Titles of made-up 篇: characters of real titles, none of them 第 or a numeral.
TITLES = st.text(alphabet="士冠昬鄉飲酒射燕聘覲朝事義記學大夫公食諸侯相王制甲乙丙", min_size=1, max_size=7)
LABELS = st.sampled_from(["", "家禮一之上", "鄉禮三之下", "學禮十五", "邦國禮二之上", "王朝禮十四"])


@given(st.lists(TITLES, min_size=1, max_size=6, unique=True), st.data())
def test_any_title_line_names_its_pian(titles, draw):
    """A line TITLE第N(LABEL) of a 篇 of the book names that 篇; the linked text is the line's own
    start (TITLE第N), whatever the titles."""
    numbers = {f"c{i}": i + 1 for i in range(len(titles))}
    chosen = draw.draw(st.integers(0, len(titles) - 1))
    label = draw.draw(LABELS)
    book = catalogue.Book({t: (f"c{i}",) for i, t in enumerate(titles)}, numbers,
                          {f"c{i}": label for i in range(len(titles))}, BOOK.parts)
    line = f"{titles[chosen]}第{chinese_number(chosen + 1)}{label}"
    found = catalogue.match_line(line, book)
    assert found.chapter == f"c{chosen}" and found.problem == ""
    assert found.reading.text == f"{titles[chosen]}第{chinese_number(chosen + 1)}" and line.startswith(found.reading.text)


@given(st.integers(1, 99))
def test_numbers_read_back(number):
    assert catalogue.number_value(chinese_number(number)) == number


# -- the page ---------------------------------------------------------------------------------------

def test_writer_wraps_the_title_in_a_cite(whole_edition):
    from conv.myst.chapter import PageWriter

    work = next(w for w in whole_edition.works if w.id == "tongjie")
    front = next(c for c in work.chapters if c.id == "juanshou")
    page = PageWriter(whole_edition, work, front).page()
    assert "\n{yl:cite}`士冠禮第一 <tongjie-shiguan>`\n" in page
    assert "\n{yl:cite}`冠義第二 <tongjie-guanyi>`家禮一之下\n" in page
    assert "\n{yl:cite}`王制之己 <tongjie-wangzhiji>`\n" in page
    assert "附之{yl:cite}`士相見義第十 <tongjie-shixiangjianyi>`鄉禮一之下\n" in page  # inside a passage
    assert "禮樂之義{yl:cite}`書數第二十六 <tongjie-shushu>`\n" in page  # lost: its page says so
    assert "\n{yl:cite}`卜筮 <tongjie-bushi>`\n" in page  # absent: likewise
    assert page.count("{yl:cite}") == 60


def _links(html: str) -> dict[str, str]:
    """Link text (both forms of a folding character: the witness's kept) → href, on a page."""
    out = {}
    for href, inner in re.findall(r'<a class="reference internal" href="([^"]+)"[^>]*>(.*?)</a>', html, re.S):
        inner = re.sub(r'<span class="yl-n">.*?</span>|<span class="yl-t"[^>]*>.*?</span>', "", inner)
        out[re.sub(r"<[^>]+>", "", inner)] = href
    return out


def test_html_links(whole_html):
    links = _links(whole_html.html("tongjie/juanshou"))
    assert links["士冠禮第一"] == "shiguan.html#tongjie-shiguan"
    assert links["大射禮第三十五"] == "dashe.html#tongjie-dashe"
    assert links["王制之癸"] == "wangzhigui.html#tongjie-wangzhigui"
    assert links["書數第二十六"] == "shushu.html#tongjie-shushu" and links["卜筮"] == "bushi.html#tongjie-bushi"
    assert 'id="tongjie-shiguan"' in whole_html.html("tongjie/shiguan")
    assert "yl.markup" not in whole_html.warnings and "yl.cite" not in whole_html.warnings
    # the search's data of the page hold the passage's characters as before: the link adds none
    data = (whole_html.outdir / "_search" / "tongjie" / "juanshou.json").read_text(encoding="utf-8")
    # (「今｜出其見君者」, cut by the page break at 卷首叶十二a, is one passage: conv/data/page_joins.toml)
    assert '["front","今出其見君者數條入臣禮篇而取曲禮少儀玉藻諸篇言相見飲食之禮者附之士相見義第十鄉禮一之下"]' in data


#: How the link sits in its line: its size and line height against its text's, its colour.
STYLE = """e => {
  const own = getComputedStyle(e), text = getComputedStyle(e.closest('.yl-text'));
  return {size: own.fontSize === text.fontSize, height: own.lineHeight === text.lineHeight,
          display: getComputedStyle(e.parentElement).display, colour: own.color !== text.color};
}"""


@pytest.mark.browser
def test_a_reader_follows_a_title(page, whole_html, http_server, screenshots):
    site = http_server(whole_html.outdir)
    page.goto(f"{site}/tongjie/juanshou.html")
    link = page.locator('.yl-text a[href="dashe.html#tongjie-dashe"]')
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo({top: document.getElementById('tongjie-juanshou-116').getBoundingClientRect()"
                      ".top + window.scrollY - 120, behavior: 'instant'})")  # 五學第三十二 …, then 王朝禮
        assert link.is_visible()
        assert link.evaluate(STYLE) == {"size": True, "height": True, "display": "inline", "colour": True}
        page.screenshot(path=str(screenshots / f"catalogue-{width}.png"))
    link.click()
    page.wait_for_url("**/tongjie/dashe.html#tongjie-dashe")
    assert page.locator("h1").first.inner_text().startswith("大射仪")


def test_the_absent_pian_cites_the_catalogue_line_it_is_known_from(entries, whole_edition, whole_html):
    """卜筮 is printed nowhere: its page says where the book lists it — the 目録's line, with its
    page, one click away."""
    from conv.myst.chapter import PageWriter

    (bushi,) = [e for e in entries if e["chapter"] == "bushi"]
    assert (bushi["passage"], bushi["page"]) == ("tongjie-juanshou-131", {"juan": 0, "leaf": 20, "side": "b"})
    assert all(e["page"]["juan"] == 0 and 4 <= e["page"]["leaf"] <= 21 for e in entries)  # 卷首叶四b–二十一b
    work = next(w for w in whole_edition.works if w.id == "tongjie")
    chapter = next(c for c in work.chapters if c.id == "bushi")
    page = PageWriter(whole_edition, work, chapter).page()
    assert ":::{yl:lacuna} lost\n:::\n\n:::{yl:meta} witnesses\n" \
           "{yl:cite}`目录 <tongjie-juanshou-131>`有此篇（卷首叶二十b），正文无。\n:::\n" in page
    html = whole_html.html("tongjie/bushi")
    line = re.search(r'<p class="yl-meta yl-meta-witnesses"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert 'href="juanshou.html#tongjie-juanshou-131"' in line
    assert re.sub(r"<[^>]+>", "", line) == "目录有此篇（卷首叶二十b），正文无。"
