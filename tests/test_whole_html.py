"""The whole edition as a reader sees it (全本网页): built once per session (``whole_html`` in
conftest.py, as ``make html`` builds it), every anchor of the ledger resolves, a 篇 from the 文渊阁
text alone reads whole with its pages and labels, the front page lists both works complete, and
search finds a passage in either form."""
from __future__ import annotations

import json
import posixpath
import re
from html import unescape
from pathlib import Path
from urllib.parse import unquote

import pytest

from conv import datafiles as data
from conv.anchors.ledger import Ledger
from front_page import marks_named_but_missing
from pagetext import page_soup
from search_helpers import search_index, search_results
from test_reader_pages import reader_pages

ROOT = Path(__file__).resolve().parents[1]
ID = re.compile(r'\bid="([^"]+)"')


def article(html: str) -> str:
    """The page itself (furo's article), without the site navigation."""
    return html[html.index("<article"):html.index("</article>")]


def text_of(html: str) -> str:
    """The text as the 底本 view shows it (a character's 规范 form, ``yl-n``, and a seed's 文渊阁 form
    for the 繁体 view, ``yl-t``, left out)."""
    html = re.sub(r'<span class="yl-t"[^>]*>.*?</span>', "", html)
    return unescape(re.sub(r"<[^>]+>", "", re.sub(r'<span class="yl-n">.*?</span>', "", html)))


@pytest.fixture(scope="module")
def ids(whole_html) -> dict[str, str]:
    """Every element id of the HTML pages → the page (the first one that has it)."""
    found: dict[str, str] = {}
    for page in sorted(whole_html.outdir.rglob("*.html")):
        rel = page.relative_to(whole_html.outdir)
        if rel.parts[0].startswith("_"):
            continue
        for anchor in ID.findall(page.read_text(encoding="utf-8")):
            found.setdefault(anchor, str(rel))
    return found


def test_every_anchor_of_the_ledger_resolves_in_the_whole_edition(ids):
    ledger = Ledger.load(ROOT / "conv" / "data" / "anchors.tsv")
    missing = [anchor for anchor in ledger.entries if anchor not in ids]
    assert len(ledger.entries) > 15000 and missing == []
    # … on its chapter's page; and every chapter of both works has its page and anchor
    assert ids["judou-xiangshe-1"] == ids["judou-xiangshe-218"] == ids["judou-xiangshe-s29"] == "judou/xiangshe.html"
    assert ids["tongjie-xiangyinjiu-45"] == "tongjie/xiangyinjiu.html"
    for work in ("judou", "tongjie"):
        for info in data.chapters_of(work):
            assert ids[f"{work}-{info['id']}"] == f"{work}/{info['id']}.html"


GLOSS = re.compile(r'<span ([^>]*class="yl-gloss"[^>]*)>')


def test_every_gloss_links_to_its_row_in_the_index(ids, whole_html):
    """Every 音义 of the text — those of a counterpart's copy and of the parallel pages too — links to
    its row of the 音义索引, on the page of its 摄. (1,402 of the chapters' 8,023 links, those in
    the counterparts' copies, named a row that did not exist: the copy's gloss took the anchor of
    the passage it was copied into.)"""
    rows = {row_id: Path(page).stem for row_id, page in ids.items()
            if row_id.startswith("yin-") and page.startswith("apparatus/glosses-")}
    assert len(rows) > 6000
    pages = [*whole_html.outdir.glob("judou/*.html"), *whole_html.outdir.glob("tongjie/*.html"),
             *whole_html.outdir.glob("apparatus/parallel-*.html")]
    glosses = [(page.stem, tag) for page in pages for tag in GLOSS.findall(page.read_text(encoding="utf-8"))]
    links = [re.search(r'data-entry="(?:\.\./apparatus/)?([^"#]*)\.html#([^"]+)"', tag) for _, tag in glosses]
    unlinked = [page for (page, _), link in zip(glosses, links) if link is None]
    wrong = [link.groups() for link in links if link and rows.get(link.group(2)) != link.group(1)]
    assert len(glosses) > 9000 and unlinked == [] and wrong == []
    assert ids[links[0].group(2)].startswith("apparatus/glosses-")


#: A link to a page of the edition (an ``href``, or a gloss's ``data-entry``), with its fragment.
LINK = re.compile(r'\b(?:href|data-entry)="([^"#:?]*\.html)?(?:#([^"]*))?"')


def test_every_link_of_the_whole_edition_lands(whole_html):
    """Every link of every page to a page of the edition lands on a page that exists and, with a
    fragment, on an element of that id there: the links Sphinx resolves and those the extension's
    writers compute (a gloss's row, an apparatus mark's entry, a counterpart's passage)."""
    out = whole_html.outdir
    pages = {page.relative_to(out).as_posix(): page.read_text(encoding="utf-8") for page in out.rglob("*.html")
             if not page.relative_to(out).parts[0].startswith("_")}
    ids = {name: set(ID.findall(html)) for name, html in pages.items()}
    checked, broken = 0, []
    for name, html in pages.items():
        for target, fragment in LINK.findall(html):
            page = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(target))) if target else name
            checked += 1
            if page not in ids or (fragment and unquote(fragment) not in ids[page]):
                broken.append((name, target, fragment))
    assert checked > 100_000 and broken[:10] == []


def test_every_search_result_lands(whole_html):
    """The links the search page's script makes (search-lzh.js: ``<page>.html#<anchor>`` of each
    unit of ``_search/<page>.json``) land: every page Sphinx's index names has its search data (a
    page without is skipped in silence: its passages would never be found), none is left over, and
    every unit's anchor is an element of that id on its page."""
    out = whole_html.outdir
    names = search_index(out)["docnames"]
    data = {path.relative_to(out / "_search").with_suffix("").as_posix(): path for path in (out / "_search").rglob("*.json")}
    assert len(names) > 100 and sorted(data) == sorted(names)
    units, missing = 0, []
    for name in names:
        on_page = set(ID.findall((out / f"{name}.html").read_text(encoding="utf-8")))
        for anchor, *_ in json.loads(data[name].read_text(encoding="utf-8"))["u"]:
            units += 1
            if anchor and anchor not in on_page:
                missing.append((name, anchor))
    assert units > 15000 and missing[:10] == []


@pytest.mark.parametrize("page, title, opening, line", [
    ("judou/sangfu", "丧服", "喪服斬衰裳", "本篇底本：文渊阁本（卷十一叶二a至叶四十六b）。"),
    ("tongjie/xueji", "学记", "發慮憲求善良", "本篇底本：文渊阁本（卷十六叶一a至叶九b）。"),
])
def test_a_witness_only_chapter_reads_whole(whole_html, page, title, opening, line):
    """A 篇 the seeds do not have: its text from first to last, its 文渊阁 pages, the line naming its
    witness, the traditional forms in the 底本 view; no file name, data path or English on it."""
    html = article(whole_html.html(page))
    text = text_of(html)
    assert f"<h1>{title}" in html
    assert opening in text
    witnesses = re.search(r'<p class="yl-meta yl-meta-witnesses"[^>]*>(.*?)</p>', html, re.S)
    assert witnesses and text_of(witnesses.group(1)) == line
    assert html.index("yl-meta-witnesses") < html.index("yl-passage")
    passages = re.findall(r'<div class="yl-passage[^"]*"[^>]*id="([a-z]+-[a-z]+-\d+)"', html)
    assert len(passages) > 50
    pages = re.findall(r'<span class="yl-page"[^>]*>(卷[^<]+)</span>', html)
    assert len(pages) == len(passages) and pages[0] == line.split("（")[1].split("至")[0]
    for leak in ("KR1d00", ".txt", "seeds/", "wenyuange", "kanripo"):
        assert leak not in text, leak


def test_a_joined_chapter_marks_its_joins(whole_html):
    html = article(whole_html.html("judou/xiangshe"))
    text = text_of(html)
    assert "本篇底本：卷五叶一a至叶十五a据文渊阁本；叶十五a至叶三十四b据录入本（简体，已与文渊阁本对校）；" in text
    assert text.count("〔以下据录入本〕") == 2 and text.count("〔以下据文渊阁本〕") == 1
    # the 底本 forms of each stretch: the witness traditional, the seed simplified
    assert "鄉射之禮主人戒賔" in text and "司马命获者执旌以负侯" in text


def test_the_front_page_lists_both_works_complete(whole_html):
    html = article(whole_html.html("index"))
    for work in ("judou", "tongjie"):
        for info in data.chapters_of(work):
            assert f'href="{work}/{info["id"]}.html"' in html, info["id"]
    text = text_of(html)
    assert "第一　士冠礼、第二　士昏礼" in text and "第十七　有司彻" in text
    # the 句读 as the book has it: 提要 and 原序 before the 篇, 卷十八–十九 after them, not numbered as 篇
    assert "提要、原序" in text and text.index("原序") < text.index("第一　士冠礼")
    assert "第十七　有司彻、监本正误、石本误字" in text and "第十八　监本正误" not in text
    judou = article(whole_html.html("judou/index"))
    assert text_of(judou).index("原序") < text_of(judou).index("第一　士冠礼") and "第十九　石本误字" not in text_of(judou)
    assert "第二十六　书数（阙）" in text and "第四十六　卜筮（阙）" in text
    parts = [text.index(name + "　第") for name in ("家礼", "乡礼", "学礼", "邦国礼", "王朝礼")]
    assert parts == sorted(parts)
    index = article(whole_html.html("tongjie/index"))
    assert re.search(r'<span class="caption-text">王朝礼</span>', index)
    assert text_of(index).index("第一　士冠礼") < text_of(index).index("第六十　王制之癸（刑辟）")


def test_the_front_page_names_only_marks_the_whole_edition_shows(whole_html):
    """The reading notes told of 〔前阙〕〔后阙〕〔中阙〕, the seeds' excerpts' ends, which the whole edition (every
    篇 complete from the 文渊阁 text) never shows; they name its joins of the two witnesses."""
    assert marks_named_but_missing(whole_html.outdir) == []
    assert "〔以下据文渊阁本〕" in (whole_html.outdir / "index.html").read_text(encoding="utf-8")


# -- in a browser ---------------------------------------------------------------------------------

def test_notes_on_the_ji_mark_lack_no_words(whole_html):
    """士昏禮 右納采記(疏曰凡言記者…)今按…: the 疏 and 朱熹's 按 follow the 记 mark as the book prints them;
    the passage holding them has no words, and says no words of the 记 are lost (〔记文阙〕: that is
    for an excerpt that starts inside a note)."""
    page = article(whole_html.html("tongjie/shihun"))
    start = page.index('id="tongjie-shihun-18"')
    passage = page[start:page.index('id="tongjie-shihun-19"')]
    assert "yl-gap-nowords" not in passage and "记文阙" not in passage
    assert text_of(passage[passage.index(">") + 1:]).startswith("【〔疏〕疏曰凡言記者皆是記經不備")
    # the 记 mark right before it, after the title 右納采
    title = page.rindex('data-section="tongjie-shihun-s1"', 0, start)
    before = page[page.index(">", title) + 1:page.rindex("<div", 0, start)]
    assert re.sub(r"\s+", "", text_of(before)) == "右納采記" and 'data-kind="ji-marker"' in before


@pytest.mark.parametrize("page, anchor, opening", [
    ("judou/shaolao", "judou-shaolao-34", "優尊者若不為之戒"),  # seed 002 ends inside the 注 of 司宫尊兩甒
    ("tongjie/dashe", "tongjie-dashe-403", "而言入者射宫在郊"),  # seed 004 ends inside the notes of 公入驁
    ("judou/xiangshe", "judou-xiangshe-1", "出其位南北回适堂西者"),  # seed 000 starts inside a note
])
def test_notes_going_on_across_a_join_lack_no_words(whole_html, page, anchor, opening):
    """A passage without words right after a change of 底本 holds the rest of the notes of the passage
    before it, whose words are there: it says so (〔注接上段〕), not that its 经 is lost (〔经文阙〕,
    which the seeds' edition alone still shows at a seed's start)."""
    html = article(whole_html.html(page))
    start = html.index(f'id="{anchor}"')
    passage = html[start:html.index("</div>", start)]
    assert re.search(r'class="yl-lacuna yl-lacuna-join-(seed|kanripo)"[^>]*>〔以下据[^〕]+〕</div>\s*<div class="yl-passage [^>]*$',
                     html[:start])  # right after the change of 底本
    assert "〔注接上段〕" in passage and "经文阙" not in passage and "此段无经文" in passage
    assert opening in text_of(passage)


def _search(page, site: str, query: str) -> set[str]:
    return set(search_results(page, site, query))


@pytest.mark.browser
def test_search_finds_both_witnesses_in_either_form(page, whole_site):
    """A 文渊阁 passage (traditional) and a seed passage (simplified) of the same 篇, each found by
    its printed form and by the other form."""
    assert "judou-xiangshe-218" in _search(page, whole_site, "鄉射之禮主人戒賔")
    assert "judou-xiangshe-218" in _search(page, whole_site, "乡射之礼主人戒宾")
    assert "judou-xiangshe-3" in _search(page, whole_site, "司马命获者执旌")
    assert "judou-xiangshe-3" in _search(page, whole_site, "司馬命獲者執旌")


@pytest.mark.browser
def test_the_views_show_each_stretch_in_its_forms(page, whole_site, screenshots):
    page.goto(f"{whole_site}/judou/xiangshe.html")
    page.locator(".yl-toolbar").wait_for()
    witness, seed = page.locator("#judou-xiangshe-218"), page.locator("#judou-xiangshe-3")
    assert page.get_by_role("radio", name="底本").is_checked()
    assert "鄉射之禮" in witness.inner_text() and "司马命获者" in seed.inner_text()
    for width, height in ((390, 844), (1366, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(screenshots / f"whole-judou-xiangshe-{width}.png"))
    page.get_by_role("radio", name="规范").check()
    assert "乡射之礼" in witness.inner_text() and "司马命获者" in seed.inner_text()


@pytest.mark.browser
def test_a_long_row_of_apparatus_marks_wraps_on_a_phone(browser, whole_site, screenshots):
    """Several entries at one place (乡射礼: 校1 校2 校3 …) break between marks, never inside
    one: the chapter is never wider than a phone."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(f"{whole_site}/judou/xiangshe.html")
    longest = page.evaluate("""() => Math.max(...[...document.querySelectorAll('.yl-appmark')]
        .map(e => e.querySelectorAll('a').length))""")
    assert longest >= 4
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") == 0
    pieces = page.evaluate("() => [...document.querySelectorAll('.yl-appmark a')].map(a => a.getClientRects().length)")
    assert set(pieces) == {1}  # no mark is itself cut across lines
    page.screenshot(path=str(screenshots / "whole-appmarks-390.png"))
    context.close()


MARK_TIP = re.compile(r'<sup class="yl-appmark[^"]*">(.*?)</sup>', re.S)
TIP = re.compile(r'title="([^"]*)"')


def test_every_apparatus_mark_names_its_kind_in_chinese(whole_html):
    """A mark's tip is 「校N　<kind>：<entry>」: the kind as the 校勘记 names it (张尔岐《监本正误》),
    never the converter's key (zhang-jianben) — every kind of entry the whole edition has."""
    kinds: dict[str, int] = {}
    for page in sorted(whole_html.outdir.rglob("*.html")):
        if page.relative_to(whole_html.outdir).parts[0].startswith("_"):
            continue
        for marks in MARK_TIP.findall(page.read_text(encoding="utf-8")):
            for tip in TIP.findall(marks):
                kind = unescape(tip).split("　", 1)[1].split("：", 1)[0]
                kinds[kind] = kinds.get(kind, 0) + 1
    assert [kind for kind in kinds if re.search(r"[A-Za-z]", kind)] == []
    assert {"张尔岐《监本正误》", "张尔岐《石本误字》", "对校", "句读本与通解本", "简体合并之字"} <= set(kinds)


def test_a_gloss_printed_after_its_character_names_it(whole_html):
    """學制: …以事有司告以樂闋¶(苦穴反)王乃命…: the reading glosses 闋, printed right before its note;
    the tip says so and the 广韵 position is 闋's (溪合四先入)."""
    page = (whole_html.outdir / "tongjie" / "wuxue.html").read_text(encoding="utf-8")
    (span,) = re.findall(r'<span[^>]*data-printed="苦穴反"[^>]*>', page)
    assert 'data-char="闋"' in span and 'data-before="1"' in span and 'data-position="溪合四先入"' in span
    assert "音义：苦穴反（闋之音，字在注前）" in unescape(span)


def test_a_misprinted_gloss_reads_the_right_form(whole_html):
    """鄉飲酒禮記 其他用觶 (conv/data/misprints.toml): the page prints 觶之鼔反 as the 文渊阁 text has it; its
    reading is 之豉反's (章開三支去, 觶's own) and the tip names the right form; the 校勘记 lists it."""
    page = (whole_html.outdir / "tongjie" / "xiangyinjiu.html").read_text(encoding="utf-8")
    (span,) = re.findall(r'<span[^>]*data-printed="觶之鼔反"[^>]*>', page)
    assert 'data-restored="觶之豉反"' in span and 'data-position="章開三支去"' in span and 'data-status="matches"' in span
    assert "音读据正字：觶之豉反" in unescape(span)
    apparatus = (whole_html.outdir / "apparatus" / "tongjie.html").read_text(encoding="utf-8")
    text = unescape(re.sub(r"<[^>]+>", "", apparatus))  # (both views of each body, one after the other)
    assert "“鼔”当作“豉”（觶之鼔反）：五宗篇“觶" in text and "形近而讹。底本照录，音读从正字。" in text
    # 讹字: misprints of like shape (形近), of like sound (明→名, 音同) and of a word above (涉上“執觶”而讹)
    assert re.search(r'<section id="apparatus-tongjie-misprints">\s*<span id="\w+"></span><h2>讹字<', apparatus)
    assert '<td data-label="类别"><p>讹字</p></td>' in apparatus and "形讹之字" not in text


def test_a_misprint_of_the_words_on_the_page(whole_html):
    """中庸章句's 故閒道有蚤莫行道有雖易 (conv/data/misprints.toml, ``words = true``): the 底本 view shows 閒 and 雖 as
    printed, marked; the 规范 view 闻 and 难; the tip says so and links to the 校勘记 entry; search finds the words
    either way; the page still offers no 繁体 view (its text is the witness's own)."""
    page = page_soup(whole_html.outdir, "tongjie/zhongyong")
    marks = page.select("a.yl-emend")
    assert [(m.select_one(".yl-w").get_text(), m.select_one(".yl-n").get_text(), m["title"]) for m in marks] == [
        ("問", "间", "底本作“問”，当作“間”，今改"), ("閒", "闻", "底本作“閒”，当作“聞”，今改"),
        ("雖", "难", "底本作“雖”，当作“難”，今改"), ("末", "未", "底本作“末”，当作“未”，今改")]
    entry = page_soup(whole_html.outdir, "apparatus/tongjie").find(id=marks[1]["href"].split("#")[1])
    assert "“閒”当作“聞”（故閒道有蚤）" in entry.get_text()
    assert [r["value"] for r in page.select(".yl-toolbar input[data-view]")] == ["diplomatic", "normalized"]
    index = search_index(whole_html.outdir)
    doc = index["docnames"].index("tongjie/zhongyong")
    for term in ("闻道", "难易", "虽易"):  # the terms are folded: 虽易 is the printed 雖易
        found = index["terms"].get(term, [])
        assert doc in (found if isinstance(found, list) else [found]), term


@pytest.mark.browser
def test_the_tip_of_a_gloss_printed_after_its_character(browser, whole_site, screenshots):
    """On a phone: tapping 苦穴反 (學制, after 樂闋) opens its tip, which names the character it glosses."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{whole_site}/tongjie/wuxue.html")
    gloss = page.locator('.yl-gloss[data-printed="苦穴反"]')
    gloss.scroll_into_view_if_needed()
    gloss.tap()
    page.wait_for_function("() => document.getElementById('yl-tip').matches(':popover-open')")
    text = page.locator("#yl-tip").inner_text()
    assert text.startswith("苦穴反") and "苦穴反（闋之音，字在注前）" in text
    page.screenshot(path=str(screenshots / "whole-gloss-before-390.png"))
    context.close()


@pytest.mark.browser
def test_a_cited_passage_deep_in_a_long_page_is_shown_at_once(page, whole_site):
    """A citation's link to a passage far down a long page (通解·聘礼, two megabytes) shows it as the page
    loads: the theme's smooth scrolling drew the reader through some 34,000 pixels of text for two
    seconds first."""
    page.goto(f"{whole_site}/tongjie/pinli.html#tongjie-pinli-400", wait_until="load")
    page.wait_for_timeout(200)
    top = page.evaluate("document.getElementById('tongjie-pinli-400').getBoundingClientRect().top")
    toolbar = page.evaluate("document.querySelector('.yl-toolbar').getBoundingClientRect().bottom")
    assert toolbar <= top < 300


@pytest.mark.browser
def test_a_search_result_names_its_work(page, whole_site):
    """Both works have a 士冠礼 (and nine more 篇 of one name): a result names its 篇 with its work, as
    a citation does (句读·士冠礼 › 醴宾), not by the 篇 alone, which left the work to the anchor's pinyin."""
    _search(page, whole_site, "宾介")
    links = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('#search-results ul.search li a')]"
                          ".map(a => [a.getAttribute('href').split('#')[1], a.textContent]))")
    assert links["judou-shiguan-78"] == "句读·士冠礼 › 醴宾"
    assert links["tongjie-shiguan-151"] == "通解·士冠礼 › 醴宾"


def test_a_pian_names_its_work_in_the_window_title(whole_html):
    """The window's title (a tab, a bookmark, the history) of a 篇 names its work, as a citation does:
    both works have a 士冠礼, and both tabs read 士冠礼 before. Other pages keep their title."""
    def title(page: str) -> str:
        html = (whole_html.outdir / page).read_text(encoding="utf-8")
        return unescape(re.search(r"<title>([^<]*)</title>", html)[1])
    assert title("judou/shiguan.html") == "句读·士冠礼 - 仪礼 · 数字校本"
    assert title("tongjie/shiguan.html") == "通解·士冠礼 - 仪礼 · 数字校本"
    assert title("judou/index.html") == "仪礼郑注句读 - 仪礼 · 数字校本"
    assert title("apparatus/glosses-yu.html") == "遇摄 - 仪礼 · 数字校本"


def test_every_page_credits_the_wenyuange_transcription_and_its_licence(whole_html):
    """The whole edition is for the most part the Kanseki Repository's transcription, licensed CC BY-SA 4.0, whose
    attribution travels with it; no page said so. Every page's foot names it and the licence and links to 底本与许可,
    which names both repositories at the commits the project holds (``seeds/wenyuange/LICENSE.md``)."""
    licence = (ROOT / "seeds" / "wenyuange" / "LICENSE.md").read_text(encoding="utf-8")
    commits = dict(re.findall(r"\[kanripo/(KR1d\d{4})\]\([^)]*\) \| `WYG` \| `([0-9a-f]{40})`", licence))
    assert sorted(commits) == ["KR1d0038", "KR1d0085"]
    pages = [page for _, page in reader_pages(whole_html.outdir)]
    assert len(pages) > 90
    for page in pages:
        html = page.read_text(encoding="utf-8")
        foot = html[html.index('<div class="copyright">'):]
        foot = foot[:foot.index("</div>")]
        link = re.search(r'<a href="([^"]*)">底本与许可</a>', foot)
        assert "漢籍リポジトリ" in foot and "CC BY-SA 4.0" in foot and link, (page, foot)
        target = page if link[1] == "#" else page.parent / link[1]  # the page itself: "#"
        assert target.resolve() == (whole_html.outdir / "copyright.html").resolve(), page
    credits = text_of(article((whole_html.outdir / "copyright.html").read_text(encoding="utf-8")))
    for repository, commit in commits.items():
        assert f"github.com/kanripo/{repository}" in credits and commit in credits, repository
    assert "https://creativecommons.org/licenses/by-sa/4.0/" in credits and "相同方式共享" in credits
