"""Glosses in a real browser (issue 22, point 1; issue 23): one tip on hover, focus and tap, inside
the window, linked to its row of the index of glosses, saying what the gloss reads and how its
position in the 《广韵》 was found; an apparatus mark's entry in the same tip (headless Debian chromium
under playwright; screenshots go to build/screenshots/)."""
from __future__ import annotations

import pytest

from conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

CHAPTER = "judou/xiangshe.html"


# -- 1. glosses: one tip on hover, focus and tap, inside the window --------------------------------

TIP_BOX = """() => { const tip = document.getElementById('yl-tip');
  if (!tip || !tip.matches(':popover-open')) return null;
  const r = tip.getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: tip.innerText,
          width: document.documentElement.clientWidth, height: innerHeight}; }"""


def tip(page) -> dict | None:
    return page.evaluate(TIP_BOX)


def inside(box: dict) -> bool:
    return box["left"] >= 0 and box["top"] >= 0 and box["right"] <= box["width"] and box["bottom"] <= box["height"]


def tap_for_tip(element) -> dict:
    """Tap ``element`` (a Playwright locator), scrolled into view: the tip's box, open inside the window."""
    element.scroll_into_view_if_needed()
    element.tap()
    box = tip(element.page)
    assert box is not None and inside(box), box
    return box


def test_gloss_tip_on_a_phone_opens_by_tap_inside_the_window(open_page, fixture_site, screenshots):
    page = open_page(PHONE, touch=True)
    page.goto(f"{fixture_site}/{CHAPTER}")
    glosses = page.locator(".yl-gloss")
    assert glosses.count() >= 2
    for i in range(glosses.count()):
        gloss = glosses.nth(i)
        gloss.scroll_into_view_if_needed()
        gloss.tap()
        box = tip(page)
        assert box is not None, f"tapping {gloss.inner_text()} opens its tip"
        assert inside(box), (gloss.inner_text(), box)
        assert box["text"].startswith(gloss.get_attribute("data-printed"))
        assert gloss.get_attribute("aria-expanded") == "true"
    # the tip of 弣芳甫反-like glosses: the 反切, the 广韵 position in words, the notation as a detail
    gloss = page.locator(".yl-gloss", has_text="无射之射食亦反")
    gloss.scroll_into_view_if_needed()
    gloss.tap()
    text = tip(page)["text"]
    assert "反切食亦反" in text.replace("\t", "").replace(" ", "")
    assert "广韵昔韵 · 船母 · 入声" in text, text  # 食 in its ordinary reading as a speller (#23)
    assert "船開三清入" in text and "合于本字之音" in text
    page.screenshot(path=str(screenshots / "reader-gloss-tip-390.png"))
    # a tap elsewhere closes it
    page.locator("h1").tap()
    page.wait_for_function("(gloss) => gloss.getAttribute('aria-expanded') === 'false'", arg=gloss.element_handle())
    assert tip(page) is None


def test_gloss_tip_hover_focus_escape_on_a_desktop(open_page, fixture_site):
    page = open_page(DESKTOP)
    page.goto(f"{fixture_site}/{CHAPTER}")
    gloss = page.locator(".yl-gloss", has_text="仆音赴").first
    assert gloss.get_attribute("title") is None, "no plain delayed title tooltip"
    gloss.hover()
    box = tip(page)
    assert box and box["text"].startswith("仆音赴") and "直音音赴" in box["text"].replace("\t", "")
    assert inside(box)
    page.mouse.move(5, 5)
    page.wait_for_timeout(400)
    assert tip(page) is None, "leaving the gloss closes a tip opened by hover"
    gloss.focus()
    assert tip(page) is not None, "focus opens it"
    page.keyboard.press("Escape")
    assert tip(page) is None, "Escape closes it"
    assert page.evaluate("document.activeElement.classList.contains('yl-gloss')")


def test_gloss_tip_near_the_right_edge_is_not_cut(open_page, fixture_site):
    """The gloss nearest the right edge of a narrow desktop window: its tip moves left."""
    page = open_page({"width": 1000, "height": 800})
    page.goto(f"{fixture_site}/{CHAPTER}")
    rightmost = page.evaluate("""() => { let best = 0, index = 0;
        document.querySelectorAll('.yl-gloss').forEach((g, i) => {
          const r = g.getBoundingClientRect(); if (r.right > best) { best = r.right; index = i; } });
        return index; }""")
    gloss = page.locator(".yl-gloss").nth(rightmost)
    gloss.scroll_into_view_if_needed()
    gloss.click()
    box = tip(page)
    assert box is not None and inside(box), box


def test_gloss_links_to_its_row_in_the_index(open_page, edition_site):
    page = open_page(PHONE, touch=True)
    page.goto(f"{edition_site}/judou/xiangshe.html")
    gloss = page.locator(".yl-gloss", has_text="弣芳甫反")
    box = tap_for_tip(gloss)
    assert "麌韵 · 滂母 · 上声" in box["text"]
    page.locator("#yl-tip a", has_text="见音义索引").tap()
    page.wait_for_url("**/apparatus/glosses-yu.html#yin-judou-xiangshe-*")  # 麌韵: 遇摄's page
    row = page.locator(":target")
    assert "弣芳甫反" in row.inner_text() and "句读·乡射礼41" in row.inner_text()


def tip_lines(page, url: str, printed: str) -> list[str]:
    """The lines of the tip of the first gloss printed ``printed`` on ``url``, focused (less the
    link to the index of glosses)."""
    page.goto(url)
    page.locator(f'.yl-gloss[data-printed="{printed}"]').first.focus()
    shown = page.evaluate("() => [...document.querySelectorAll('#yl-tip .yl-tip-line')].map(p => p.textContent)")
    return [line for line in shown if "见音义索引" not in line]


# -- what a tip says of the reading (issue 23) ----------------------------------------------------

@pytest.mark.parametrize("printed, lines", [
    # 大學 (朱熹's 章句): a tone gives the reading of 長 in it
    ("長上聲", ["声调上声", "广韵养韵 · 知母 · 上声", "音韵地位知開三陽上", "合于本字之音"]),
    # 中庸: 行 has two readings in the 去声: none is chosen, and the tip says why
    ("行去聲", ["声调去声", "未能推定", "《广韵》行去声二读：匣開一唐去、匣開二庚去，声调不足以定其一"]),
])
def test_a_tone_gloss_s_tip_gives_its_tone_and_what_it_reads(open_page, whole_site, printed, lines):
    page_name = f"tongjie/{'daxue' if printed == '長上聲' else 'zhongyong'}"
    assert tip_lines(open_page(DESKTOP), f"{whole_site}/{page_name}.html", printed) == lines


@pytest.mark.parametrize("page_name, printed, lines", [
    # 乡射礼: 毗 並母 before 志 (之韵, which has no labial initials): read as 脂韵, 比 毗至切
    ("judou/xiangshe", "比毗志反", ["反切毗志反", "广韵至韵 · 并母 · 去声", "音韵地位並三A脂去", "合于本字之音",
                                 "门法之韵无唇音：切上字为唇音，下字之韵读作脂韵"]),
    # 内则: 側 莊母 before 乙 (真韵): the 莊 group's 真 is 臻韵, 櫛 阻瑟切
    ("tongjie/neize", "櫛側乙反", ["反切側乙反", "广韵栉韵 · 庄母 · 入声", "音韵地位莊開三臻入", "合于本字之音",
                                "门法庄组真韵：切上字为庄组，下字真韵读作臻韵"]),
    # 王制之己: the 文渊阁 writes 肇, the 《广韵》 files 治小切 under 肈 (conv/data/gloss_forms.tsv)
    ("tongjie/wangzhiji", "肇音兆", ["直音音兆", "广韵小韵 · 澄母 · 上声", "音韵地位澄開三宵上", "合于本字之音",
                                  "字形《广韵》收于肈"]),
])
def test_a_gloss_s_tip_says_how_its_position_was_found(open_page, whole_site, page_name, printed, lines):
    assert tip_lines(open_page(DESKTOP), f"{whole_site}/{page_name}.html", printed) == lines


def test_a_gloss_in_a_counterpart_links_to_its_own_row(open_page, whole_site, screenshots):
    """士冠礼's first passage shows, behind its 通解 control, the 通解's words and notes: a gloss there
    is the 通解's, and its tip's link lands on the 通解 passage's row (it named a row that did not
    exist: the 句读 passage's anchor with the 通解's gloss)."""
    page = open_page(PHONE, touch=True)
    page.goto(f"{whole_site}/judou/shiguan.html")
    control = page.locator("#judou-shiguan-1 details.yl-counterpart")
    control.locator("summary").tap()
    gloss = control.locator(".yl-gloss", has_text="蓍音尸")
    tap_for_tip(gloss)
    page.screenshot(path=str(screenshots / "counterpart-gloss-tip-phone.png"))
    page.locator("#yl-tip a", has_text="见音义索引").tap()
    page.wait_for_url("**/apparatus/glosses-zhi.html#yin-tongjie-shiguan-*")  # 脂韵: 止摄's page
    row = page.locator(":target")
    assert "蓍音尸" in row.inner_text() and "通解·士冠礼" in row.inner_text()


# -- 3. an apparatus mark (校3, 异5): its entry in the same tip -------------------------------------

def lines_of(box: dict) -> list[str]:
    """The tip's lines (its paragraphs), without the blank lines between them."""
    return [line for line in box["text"].split("\n") if line.strip()]


def test_an_apparatus_mark_on_a_phone_shows_its_entry_without_leaving_the_page(open_page, edition_site, screenshots):
    """A tap on 校1 left the chapter for the 校勘记 (a page of 1.7 MB in the whole edition) to read one entry; it
    opens the entry in the tip, in the window, and the tip's link goes on to the 校勘记."""
    page = open_page(PHONE, touch=True)
    page.goto(f"{edition_site}/{CHAPTER}")
    mark = page.locator(".yl-appmark a", has_text="异1").first
    entry = mark.get_attribute("title")
    assert entry.startswith("异1\u3000今古文异文")
    box = tap_for_tip(mark)
    assert page.url.endswith(CHAPTER), "the tap stays on the chapter"
    assert lines_of(box)[:3] == ["异1", entry.split("\u3000", 1)[1], "见校勘记"], box["text"]
    assert mark.get_attribute("title") is None, "no plain title tooltip over the tip"
    page.screenshot(path=str(screenshots / "reader-apparatus-tip-390.png"))
    page.locator("#yl-tip a", has_text="见校勘记").tap()
    page.wait_for_url("**/apparatus/judou.html#judou-xiangshe-4-yi-1")


def test_an_apparatus_mark_on_a_desktop_tips_on_hover_and_follows_on_click(open_page, edition_site):
    """A mouse over 异1 shows its entry at once (the title tooltip came after a second, plain), a long one (校1) in
    lines of a reading length, not one line across the window; a click goes to the 校勘记 as before; the keyboard
    focuses it with its tip and Enter follows it."""
    page = open_page(DESKTOP)
    page.goto(f"{edition_site}/{CHAPTER}")
    mark = page.locator(".yl-appmark a", has_text="异1").first
    mark.hover()
    box = tip(page)
    assert box and lines_of(box)[:2] == ["异1", "今古文异文：俟〕今文作“立”。郑注：“今文俟为立”"] and inside(box), box
    page.mouse.move(5, 5)
    page.wait_for_timeout(400)
    assert tip(page) is None, "leaving the mark closes the tip"
    long = page.locator('.yl-appmark a[href$="#judou-xiangshe-1-jiao-1"]')  # 80 characters: lines of a reading length
    long.hover()
    box = tip(page)
    assert box and len(lines_of(box)[1]) > 60 and box["right"] - box["left"] <= 480, box
    page.mouse.move(5, 5)
    page.wait_for_timeout(400)
    mark.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus by the keyboard opens it
    assert tip(page) is not None and page.evaluate("document.activeElement.textContent") == "异1"
    page.keyboard.press("Enter")
    page.wait_for_url("**/apparatus/judou.html#judou-xiangshe-4-yi-1")
    page.go_back()
    page.locator(".yl-appmark a", has_text="异1").first.click()
    page.wait_for_url("**/apparatus/judou.html#judou-xiangshe-4-yi-1")


# -- 4. an emended character (校改): its entry in the same tip ----------------------------------------------

def test_an_emended_character_shows_its_entry_in_the_tip(open_page, edition_site, screenshots):
    """大射仪's 司官执烛 (seed 004, emended to 司宫: conv/data/misprints.toml): the underlined character was a link
    that a tap followed to the 校勘记, leaving the chapter; it opens the tip like an apparatus mark — printed and
    read form, the entry's words, a link on to the 校勘记 — by tap on a phone and by hover on a desktop."""
    page = open_page(PHONE, touch=True)
    page.goto(f"{edition_site}/tongjie/dashe.html")
    emend = page.locator("a.yl-emend", has_text="官")
    box = tap_for_tip(emend)
    assert page.url.endswith("tongjie/dashe.html"), "the tap stays on the chapter"
    assert lines_of(box)[:3] == ["官 → 宮", "底本作“官”，当作“宮”，今改", "见校勘记"], box["text"]
    href = page.evaluate("document.querySelector('#yl-tip a').getAttribute('href')")
    assert href.endswith("/apparatus/tongjie.html#tongjie-dashe-98-jiao-1")  # the entry of its passage
    page.screenshot(path=str(screenshots / "reader-emend-tip-390.png"))
    desktop = open_page(DESKTOP)
    desktop.goto(f"{edition_site}/tongjie/dashe.html")
    desktop.locator("a.yl-emend", has_text="官").hover()
    box = tip(desktop)
    assert box and lines_of(box)[:2] == ["官 → 宮", "底本作“官”，当作“宮”，今改"], box
