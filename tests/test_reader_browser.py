"""Reading on every screen (issue 22), in a real browser (headless Debian chromium under
playwright), on the fixture project: at desktop (1366×900), tablet (800 px) and phone (390×844,
touch) sizes. Screenshots go to build/screenshots/."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DESKTOP, PHONE, TABLET

pytestmark = pytest.mark.browser

CHAPTER = "judou/xiangshe.html"


# -- 3. saved choices before the first paint ------------------------------------------------------

#: Records, when the first 疏 note enters the document, whether it is already hidden (the
#: class on <html> that hides it is set), and every layout shift of the page.
WATCH = """
window.__yl = {hiddenWhenInserted: null, shifts: []};
new MutationObserver((records, observer) => {
  const note = document.querySelector('.yl-note.yl-shu');
  if (!note) return;
  window.__yl.hiddenWhenInserted = document.documentElement.classList.contains('yl-hide-shu');
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__yl.shifts.push(entry.value);
}).observe({type: 'layout-shift', buffered: true});
"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_saved_choice_applied_before_first_paint(open_page, fixture_site, viewport):
    page = open_page(viewport)
    page.goto(f"{fixture_site}/{CHAPTER}")
    page.evaluate("localStorage.setItem('yili.view', JSON.stringify({hide: ['shu'], view: 'normalized'}))")
    page.add_init_script(WATCH)
    page.goto(f"{fixture_site}/{CHAPTER}")
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    watch = page.evaluate("window.__yl")
    assert watch["hiddenWhenInserted"] is True, "疏 is hidden from the moment it exists"
    assert sum(watch["shifts"]) == 0, f"layout shifts after the first paint: {watch['shifts']}"
    assert not page.get_by_role("checkbox", name="疏").is_checked()
    assert page.get_by_role("radio", name="规范").is_checked()
    assert page.locator("#judou-xiangshe-21 .yl-fs").last.inner_text() == "告于宾"


def test_toolbar_is_in_the_page_not_added_later(open_page, fixture_site):
    page = open_page()
    page.add_init_script(WATCH)
    page.goto(f"{fixture_site}/{CHAPTER}")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__yl.shifts.reduce((a, b) => a + b, 0)") == 0
    first = page.evaluate("document.querySelector('article[role=main]').firstElementChild.className")
    assert first == "yl-toolbar"


# -- 4. the toolbar stays in view, furo's header and back-to-top do not cover it ------------------

@pytest.mark.parametrize("viewport,touch", [(PHONE, True), (TABLET, False), (DESKTOP, False)],
                         ids=["390", "800", "1366"])
def test_toolbar_sticky_below_the_header(open_page, fixture_site, screenshots, viewport, touch):
    page = open_page(viewport, touch)
    page.goto(f"{fixture_site}/{CHAPTER}")
    page.locator("#judou-xiangshe-20").scroll_into_view_if_needed()
    page.mouse.wheel(0, 1500)
    page.wait_for_timeout(400)
    assert page.evaluate("window.scrollY") > 1000
    bar = page.locator(".yl-toolbar").bounding_box()
    header = page.evaluate("""() => { const h = document.querySelector('.mobile-header');
        const r = h.getBoundingClientRect(); return getComputedStyle(h).display === 'none' ? 0 : r.bottom; }""")
    assert bar["y"] >= header - 0.5, "the toolbar is below furo's header, not over it"
    assert bar["y"] <= header + 2, f"the toolbar stays at the top: {bar['y']} (header {header})"
    # what is at the toolbar's middle is the toolbar itself (nothing covers it)
    covered = page.evaluate("""([x, y]) => !document.elementFromPoint(x, y).closest('.yl-toolbar')""",
                            [bar["x"] + 10, bar["y"] + bar["height"] / 2])
    assert not covered
    # it spans the text's width: no line of the text shows beside it as it scrolls under it (furo's
    # floated theme toggle narrowed it by its width and margin, 16 px on a phone, 36 on a desktop)
    article = page.locator("article").bounding_box()
    assert abs(bar["x"] - article["x"]) < 1 and abs(bar["width"] - article["width"]) < 1, (bar, article)
    page.mouse.wheel(0, -200)  # furo shows "back to top" when the reader scrolls up
    page.wait_for_timeout(400)
    back = page.locator(".back-to-top")
    if back.is_visible():
        box = back.bounding_box()
        assert box["y"] > viewport["height"] / 2, "back to top stays out of the text's top"
    else:
        assert viewport["width"] < 770, "hidden on phones only"
    page.screenshot(path=str(screenshots / f"reader-sticky-{viewport['width']}.png"))


# -- 5. print ------------------------------------------------------------------------------------

def test_print_has_no_skip_link_nor_toolbar(open_page, fixture_site):
    page = open_page()
    page.goto(f"{fixture_site}/{CHAPTER}")
    page.emulate_media(media="print")
    for selector in (".skip-to-content", ".yl-toolbar", ".back-to-top"):
        assert not page.locator(selector).is_visible(), selector
    page.keyboard.press("Tab")  # the skip link is focused: still not printed
    assert page.evaluate("getComputedStyle(document.querySelector('.skip-to-content')).display") == "none"


# -- 6. the interface in Chinese -----------------------------------------------------------------

def test_interface_in_chinese(open_page, fixture_site):
    page = open_page(TABLET)
    page.goto(f"{fixture_site}/{CHAPTER}")
    html = page.content()
    for english in ("Skip to content", "Back to top", "On this page", ">Next<", ">Previous<",
                    "Made with", "Copyright"):
        assert english not in html, english
    assert page.locator(".skip-to-content").inner_text() == "跳到正文"
    assert page.locator(".back-to-top span").inner_text() == "回到顶部"
    assert "本页目录" in page.locator(".toc-title").first.inner_text()
    assert page.locator(".related-pages .next-page .context").inner_text() == "下一篇"
    assert page.locator(".related-pages .prev-page .context").inner_text() == "上一篇"
    # furo's fixed names, for screen readers: Chinese once the page has loaded
    page.wait_for_load_state("load")
    labels = page.evaluate("[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label'))")
    assert "切换浅色、深色或随系统配色" in labels and "展开或收起全书目录" in labels
    assert not [label for label in labels if label.startswith("Toggle")]
    assert "展开或收起：" in page.locator(".sidebar-tree").inner_html()
    # the icons' titles (a tooltip, read aloud): furo's template through the message catalog
    titles = page.evaluate("[...document.querySelectorAll('svg symbol > title')].map(t => t.textContent)")
    assert "浅色" in titles and "随系统配色（当前深色）" in titles
    assert [title for title in titles if any("a" <= c.lower() <= "z" for c in title)] == []
    # the search page keeps Sphinx's own zh_CN strings beside the edition's search language
    page.goto(f"{fixture_site}/search.html?q=%E5%AE%BE")
    # Sphinx writes 正在搜索中 first and 搜索结果 when the search has run
    page.wait_for_function("() => document.querySelector('#search-results h2')?.innerText === '搜索结果'")


# -- 2. copy keeps the layers apart ---------------------------------------------------------------

def copied(page, selector: str) -> str:
    """Select ``selector``'s contents as a reader would and copy them (Ctrl+C); the clipboard."""
    page.evaluate("""(selector) => { const range = document.createRange();
        range.selectNodeContents(document.querySelector(selector));
        const selection = getSelection(); selection.removeAllRanges(); selection.addRange(range); }""",
                  selector)
    page.keyboard.press("Control+C")
    return page.evaluate("navigator.clipboard.readText()")


def test_copy_keeps_the_layers(open_page, fixture_site):
    page = open_page(permissions=("clipboard-read", "clipboard-write"))
    page.goto(f"{fixture_site}/{CHAPTER}")
    assert copied(page, "#judou-xiangshe-2") == (
        "遂适阶西取扑搢之以反位【扑所以挞犯教者书云扑作教刑○〔按〕反位所设中之西南东面也】")
    # 经 with 注, 疏 and 音义: as the PDF prints it (疏 with its lead mark)
    assert copied(page, "#judou-xiangshe-13") == (
        "司射进与司马交于阶前相左由堂下西阶之东北面视上射命曰无射获无猎获上射揖司射退反位"
        "【射获谓矢中人也猎矢从旁○〔疏〕疏云相左之时在西阶之西司马由北而西行司射由南而东行各以左相近故云相左也"
        "○无射之射食亦反】")
    # a hidden layer is not copied, and takes its separator along
    page.get_by_role("checkbox", name="注").uncheck()
    assert copied(page, "#judou-xiangshe-2") == "遂适阶西取扑搢之以反位【〔按〕反位所设中之西南东面也】"
    page.get_by_role("checkbox", name="按").uncheck()
    assert copied(page, "#judou-xiangshe-2") == "遂适阶西取扑搢之以反位"


# -- 10. a passage without 经, every layer hidden -------------------------------------------------

def test_passage_without_words_says_so(open_page, fixture_site, screenshots):
    page = open_page(PHONE, touch=True)
    page.goto(f"{fixture_site}/{CHAPTER}")
    first = page.locator("#judou-xiangshe-1")
    assert first.inner_text().startswith("〔前阙〕〔经文阙〕【〔按〕出其位南北回适堂西者")
    for name in ("注", "疏", "按", "音义"):
        page.get_by_role("checkbox", name=name).uncheck()
    assert first.inner_text() == "〔前阙〕〔经文阙〕"  # no lone 引, no empty 【】
    assert first.locator(".yl-gap-nowords").get_attribute("title").startswith("此段经文不在底本节录之内")
    page.screenshot(path=str(screenshots / "reader-all-hidden-390.png"))


# -- 9. contrast and targets; axe-core ------------------------------------------------------------

AXE = Path(__file__).resolve().parent / "fixtures" / "axe" / "axe.min.js"
#: WCAG 2.0–2.2 A and AA (2.2 brings the 24 px target size) and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                           "resultTypes: ['violations']})", AXE_TAGS)
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"][:3]],
             "why": v["nodes"][0]["failureSummary"][:300]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("path", ["judou/xiangshe.html", "search.html?q=%E5%AE%BE", "yl-terms.html",
                                  "apparatus/glosses-zhi.html", "apparatus/glossary.html", "apparatus/judou.html"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious(open_page, edition_site, path, viewport):
    page = open_page(viewport)
    page.goto(f"{edition_site}/{path}")
    if path.startswith("search"):
        page.locator("#search-results ul.search li").first.wait_for()
    assert axe_violations(page) == []


CONTRAST = """(selector) => {
  const el = document.querySelector(selector);
  const style = getComputedStyle(el, selector.includes('permalink') ? '::before' : null);
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const fg = lum(rgb(style.color)), bg = lum([255, 255, 255]);
  return {ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05), opacity: Number(getComputedStyle(el).opacity)};
}"""


def test_marks_are_readable_and_large_enough(open_page, fixture_site):
    page = open_page(PHONE, touch=True)
    page.goto(f"{fixture_site}/{CHAPTER}")
    for selector in (".yl-permalink", ".yl-gap", ".yl-toolbar legend", ".yl-br"):
        measured = page.evaluate(CONTRAST, selector)
        assert measured["ratio"] >= 4.5 and measured["opacity"] == 1, (selector, measured)
    for selector in (".yl-permalink", ".yl-toggle"):
        box = page.locator(selector).first.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, (selector, box)


def test_apparatus_marks_are_targets(open_page, edition_site):
    page = open_page(PHONE, touch=True)
    page.goto(f"{edition_site}/judou/xiangshe.html")
    mark = page.locator(".yl-appmark a").first
    assert float(mark.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 11.5
    box = mark.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24, box
    assert page.evaluate(CONTRAST, ".yl-appmark a")["ratio"] >= 4.5


# -- 11. justified lines are not spread wide ------------------------------------------------------

#: For every line of every passage: the widest step from one Han character to the next in the same run of
#: text, less the font size, in ems (0 where nothing is spread); with the line's characters.
SPREAD = r"""() => {
  const widest = [];
  for (const block of document.querySelectorAll('.yl-passage')) {
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    const lines = new Map();
    for (let node; (node = walker.nextNode());) {
      const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
      let last = null;
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (!rect.width) continue;
        const y = Math.round(rect.top), line = lines.get(y) || {step: 0, text: ''};
        if (last && last.y === y && /[㐀-鿿]/.test(last.c)) line.step = Math.max(line.step, (rect.left - last.x) / size - 1);
        line.text += node.data[i]; lines.set(y, line); last = {y, x: rect.left, c: node.data[i]};
      }
    }
    for (const line of lines.values()) widest.push([Math.round(line.step * 100) / 100, block.id, line.text.slice(0, 30)]);
  }
  return widest.sort((a, b) => b[0] - a[0]).slice(0, 5);
}"""


def spread_at(page, url: str, anchor: str, shot) -> list:
    """The page at ``url`` opened at the passage ``anchor`` (its screenshot in ``shot``): :data:`SPREAD` of its lines."""
    page.goto(f"{url}#{anchor}")
    page.wait_for_load_state("load")
    page.locator(f"#{anchor}").screenshot(path=str(shot))
    return page.evaluate(SPREAD)


def test_a_see_also_wraps_without_spreading_the_line_before(open_page, whole_site, screenshots):
    """鄉飲酒禮's 司正既舉觶而薦諸其位 (judou-xiangyinjiu-174) ends with 参见 and the 乡射礼 passage it has in
    common, on a desktop: the citation wraps inside, as text does, and the justified line before it keeps the
    characters' own widths (it spread them by a third of a character when the citation went whole to the next line)."""
    page = open_page(DESKTOP)
    widest = spread_at(page, f"{whole_site}/judou/xiangyinjiu.html", "judou-xiangyinjiu-174",
                       screenshots / "seealso-wraps-desktop.png")
    assert widest[0][0] <= 0.2, widest


# -- 8. the weight of a search --------------------------------------------------------------------

def test_search_for_bin_transfers_little_beyond_the_index(open_page, edition_html, edition_site, capsys):
    """宾 is on every chapter: the results come from each page's search data, never the pages."""
    fetched: dict[str, int] = {}
    page = open_page()
    page.on("requestfinished", lambda request: fetched.__setitem__(
        request.url.split("?")[0].removeprefix(edition_site + "/"), request.sizes()["responseBodySize"]))
    page.goto(f"{edition_site}/search.html?q=%E5%AE%BE")
    page.locator("#search-results p.search-summary").wait_for()
    results = page.locator("#search-results ul.search li").count()
    page.wait_for_timeout(300)
    data = {url: size for url, size in fetched.items() if url.startswith("_search/")}
    pages = [url for url in fetched if url.endswith(".html") and url != "search.html"]
    assert pages == [], "no page is downloaded to make the results"
    assert len(data) >= 5 and results > 100
    total = sum(data.values())
    html_instead = sum((edition_html.outdir / url.removeprefix("_search/").replace(".json", ".html")).stat().st_size
                       for url in data)
    with capsys.disabled():
        print(f"\n宾: {results} results from {len(data)} pages' search data, {total / 1024:.0f} KB "
              f"(their HTML: {html_instead / 1024:.0f} KB); searchindex.js "
              f"{fetched.get('searchindex.js', 0) / 1024:.0f} KB")
    assert total <= 300 * 1024


#: The passage's box, its last 】 and its end (the 文渊阁 page and 引), as the reader sees them.
END_BOXES = r"""(id) => {
  const passage = document.getElementById(id), box = (el) => el.getBoundingClientRect();
  const brackets = [...passage.querySelectorAll('.yl-br')];
  const style = getComputedStyle(passage);
  return {right: box(passage).right - parseFloat(style.paddingRight), close: box(brackets[brackets.length - 1]),
          page: box(passage.querySelector('.yl-page')), cite: box(passage.querySelector('.yl-permalink'))};
}"""


def test_a_passage_s_page_and_cite_mark_wrap_without_spreading_the_line_before(open_page, whole_site, screenshots):
    """On a phone, 通解 鄉飲酒禮: the 文渊阁 page (卷七叶二十一b) and 引 that end a passage stand together at the right of
    its last line, or of a line of their own when they do not fit: the justified line before them keeps the
    characters' own widths (it spread them by a third of a character when the two went to the next line)."""
    page = open_page(PHONE)
    widest = spread_at(page, f"{whole_site}/tongjie/xiangyinjiu.html", "tongjie-xiangyinjiu-34",
                       screenshots / "passage-end-phone.png")
    assert widest[0][0] <= 0.2, widest
    boxes = page.evaluate(END_BOXES, "tongjie-xiangyinjiu-34")
    assert boxes["page"]["right"] <= boxes["cite"]["left"] + 1  # the page, then 引
    assert abs(boxes["cite"]["right"] - boxes["right"]) <= 2, boxes  # at the right of the passage
    assert boxes["page"]["top"] >= boxes["close"]["top"] - 2, boxes  # after the last note, never above it


ROW_BOXES = """(selector) => {
  const table = document.querySelector(selector);
  const wrapper = table.closest('.table-wrapper');
  const rows = [...table.querySelectorAll('tbody tr')].slice(0, 40);
  const lines = (td) => Math.round(td.getBoundingClientRect().height / parseFloat(getComputedStyle(td).lineHeight));
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {page: document.documentElement.scrollWidth, window: window.innerWidth,
          scrolls: wrapper.scrollWidth > wrapper.clientWidth,
          rows: rows.map((tr) => ({row: box(tr), cells: [...tr.cells].map(box), texts: [...tr.cells].map((td) => td.innerText),
                                   lines: [...tr.cells].map(lines),
                                   labels: [...tr.cells].map((td) => getComputedStyle(td, '::before').content)})),
          header: [...table.querySelectorAll('thead th')].map((th) => th.innerText)};
}"""


def test_the_gloss_index_on_a_phone_shows_each_gloss_whole_without_scrolling_sideways(open_page, edition_site,
                                                                                          screenshots):
    """On a phone the seven columns of the index of glosses scrolled sideways in their wrapper: the place (出处) of
    a gloss was a swipe away from the gloss. Each gloss is a card the width of the screen: all seven cells in
    view, none over another, the gloss on one or two lines and 合于本字 on one; nothing scrolls sideways."""
    page = open_page(PHONE)
    page.goto(f"{edition_site}/apparatus/glosses-zhi.html")
    found = page.evaluate(ROW_BOXES, "table.yl-gloss-index")
    page.screenshot(path=str(screenshots / "gloss-index-phone.png"))
    assert_cards(found, 7)
    for row in found["rows"]:
        assert row["lines"][1] <= 2 and row["lines"][5] == 1, row


def assert_cards(found: dict, columns: int) -> None:
    """Rows as cards: nothing scrolls sideways, every cell in view and in its card, none over another."""
    assert found["page"] <= found["window"] and not found["scrolls"], found
    for row in found["rows"]:
        cells = row["cells"]
        assert len(cells) == columns and all(t.strip() for t in row["texts"]), row
        assert all(0 <= c[0] and c[2] <= found["window"] for c in cells), row  # in view
        assert all(row["row"][1] - 1 <= c[1] and c[3] <= row["row"][3] + 1 for c in cells), row  # in its card
        overlaps = [(i, j) for i, a in enumerate(cells) for j, b in enumerate(cells[i + 1:], i + 1)
                    if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1]
        assert not overlaps, row


@pytest.mark.parametrize("page_name,selector", [("glossary", "table.yl-glossary"),
                                                ("glosses-doubtful", "table.yl-gloss-mismatches")])
def test_the_glossary_and_the_doubtful_readings_on_a_phone_are_cards_that_name_their_fields(
        open_page, edition_site, screenshots, page_name, selector):
    """On a phone the six columns of 郑注训诂 and of 音韵地位存疑 were a few characters wide: a locus in three lines
    (句读· / 士昏礼 / 7), 体例 and 小韵 a character a line. Each row is a card, each field under its column's name."""
    page = open_page(PHONE)
    page.goto(f"{edition_site}/apparatus/{page_name}.html")
    found = page.evaluate(ROW_BOXES, selector)
    page.screenshot(path=str(screenshots / f"{page_name}-phone.png"))
    assert_cards(found, 6)
    for row in found["rows"]:
        assert row["labels"] == [f'"{name}"' for name in found["header"]], row


#: How many lines an element's text is set in (the tops of its text's boxes).
TEXT_LINES = """const textLines = (element) => {
  const range = document.createRange();
  range.selectNodeContents(element);
  return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
};"""
#: The cells of two characters or more set a character a line (each on a line of its own).
A_CHARACTER_A_LINE = "() => { " + TEXT_LINES + """
  return [...document.querySelectorAll('article th, article td')].filter((cell) => {
    const length = [...cell.innerText.trim()].length;
    const lines = textLines(cell);
    return length >= 2 && lines > 1 && lines >= length;
  }).map((cell) => cell.innerText.trim()); }"""


@pytest.mark.parametrize("page_name", ["judou", "glossary", "glosses-doubtful", "glosses-zhi"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_table_cell_of_the_back_matter_stands_a_character_a_line(open_page, edition_site, page_name, viewport):
    """The 校勘记's 总览 set its heads 条目 and 底本处数 a character a line on a phone, 郑注训诂 its 体例; 音韵地位存疑
    its head 小韵 on every screen (a column a character wide)."""
    page = open_page(viewport)
    page.goto(f"{edition_site}/apparatus/{page_name}.html")
    assert page.evaluate(A_CHARACTER_A_LINE) == []


CELL_LINES = "() => { " + TEXT_LINES + """
  return [...document.querySelectorAll('table.yl-gloss-index tbody tr')].map((tr) =>
    [...tr.cells].map((td) => [td.innerText.trim(), textLines(td)])); }"""


def test_the_gloss_index_on_a_desktop_keeps_kinds_and_short_loci_on_one_line(open_page, whole_site):
    """On a desktop the 音义索引 gave 广韵地位 a quarter of the width (來開三魚平 needs a tenth) and its loci a sixth:
    直音（又音） and a locus as short as 通解·诸侯相朝礼9 went over two lines."""
    page = open_page(DESKTOP)
    page.goto(f"{whole_site}/apparatus/glosses-zhi.html")
    rows = page.evaluate(CELL_LINES)
    assert len(rows) > 500
    assert [row[3] for row in rows if row[3][1] > 1] == []  # 类别
    assert [row[6] for row in rows if len(row[6][0]) <= 10 and row[6][1] > 1] == []  # 出处


def test_a_page_title_on_a_phone_stands_over_no_blank_line(open_page, edition_site):
    """The front page's title 仪礼 · 数字校本 stood over a blank line on a phone: the hidden ¶ after it (furo's link to
    the heading, shown on hover, which a phone has not) wrapped to a line of its own."""
    page = open_page(PHONE)
    page.goto(f"{edition_site}/index.html")
    lines = page.evaluate("""() => { const h = document.querySelector('article h1');
      return Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)); }""")
    assert lines == 1
