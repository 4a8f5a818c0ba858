"""The reader's toolbar in a real browser (headless Debian chromium under playwright): layers hide
and show, the choice survives a reload, the normalized view folds characters, and the page reads
without JavaScript. Screenshots go to build/screenshots/."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

CHAPTER = "judou/xiangshe.html"
OTHER_LAYERS = [".yl-note.yl-zhu", ".yl-note.yl-an", ".yl-note.yl-yin", ".yl-text",
                ".yl-title", ".yl-lacuna", "h1", "h2"]
PUA = re.compile("[\ue000-\uf8ff]")

HIDDEN_STATE = """(selector) => Array.from(document.querySelectorAll(selector)).map(
    (el) => getComputedStyle(el).display === "none" || el.getClientRects().length === 0)"""


def hidden(page, selector: str) -> list[bool]:
    return page.evaluate(HIDDEN_STATE, selector)


def test_toolbar_hides_shu_only(page, fixture_site, screenshots):
    page.goto(f"{fixture_site}/{CHAPTER}")
    toolbar = page.locator(".yl-toolbar")
    toolbar.wait_for()
    assert toolbar.locator("input[data-layer]").count() == 4  # 注 疏 按 音义 on this page
    shu = hidden(page, ".yl-shu")
    assert shu and not any(shu)

    page.get_by_role("checkbox", name="疏").uncheck()

    assert all(hidden(page, ".yl-shu")), "every 疏 is hidden"
    for selector in OTHER_LAYERS:
        states = hidden(page, selector)
        assert states and not any(states), f"{selector} must stay visible"
    assert page.evaluate("document.documentElement.classList.contains('yl-hide-shu')")
    page.locator("#judou-xiangshe-13").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "judou-xiangshe-shu-hidden.png"))

    # the choice is remembered
    page.reload()
    page.locator(".yl-toolbar").wait_for()
    assert all(hidden(page, ".yl-shu"))
    assert not page.get_by_role("checkbox", name="疏").is_checked()
    assert page.get_by_role("checkbox", name="注").is_checked()
    page.get_by_role("checkbox", name="疏").check()
    assert not any(hidden(page, ".yl-shu"))


def test_normalized_view(page, fixture_site, screenshots):
    page.goto(f"{fixture_site}/{CHAPTER}")
    page.locator(".yl-toolbar").wait_for()
    variant = page.locator("#judou-xiangshe-21 .yl-fs").last  # a run of text that folds: 吿于賔
    pua = page.locator("#judou-xiangshe-18 .yl-pua")
    assert variant.inner_text() == "吿于賔"
    assert pua.inner_text() == "弦"
    assert page.get_by_role("radio", name="底本").is_checked()  # each stretch in its witness's forms
    assert "dotted" in pua.locator(".yl-w").evaluate("el => getComputedStyle(el).textDecorationStyle")

    page.get_by_role("radio", name="规范").check()
    assert variant.inner_text() == "告于宾"
    assert pua.inner_text() == "弦"
    assert "宾曰三耦卒射" in page.locator("#judou-xiangshe-21").inner_text()
    pua.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "judou-xiangshe-normalized.png"))
    page.reload()
    assert page.locator("#judou-xiangshe-21 .yl-fs").last.inner_text() == "告于宾"


def test_no_pua_and_no_spaces_in_rendered_text(page, fixture_site):
    for name in ("judou/xiangshe", "judou/yanli", "tongjie/xiangyinjiu", "tongjie/dashe"):
        page.goto(f"{fixture_site}/{name}.html")
        page.locator(".yl-toolbar").wait_for()
        body = page.locator("body").inner_text()
        assert not PUA.search(body), name
        for text in page.locator(".yl-passage").all_inner_texts():
            assert not re.search(r"\s", text), (name, text[:30])


def test_readable_without_javascript(browser, fixture_site, screenshots):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{fixture_site}/tongjie/xiangyinjiu.html")
        assert not page.locator(".yl-toolbar").is_visible()  # it could change nothing
        for selector in (".yl-note.yl-zhu", ".yl-note.yl-shu", ".yl-note.yl-an", ".yl-note.yl-yin"):
            states = hidden(page, selector)
            assert states and not any(states), selector
        assert all(hidden(page, ".yl-char > .yl-n, .yl-fs > .yl-n"))  # diplomatic view by default
        page.screenshot(path=str(screenshots / "tongjie-xiangyinjiu-nojs.png"))
    finally:
        context.close()


def test_front_page(page, fixture_site, screenshots):
    page.goto(f"{fixture_site}/index.html")
    assert page.locator(".sd-card").count() >= 3
    assert page.locator(".yl-toolbar").count() == 0
    assert page.locator("ul.yl-legend li").count() == 10  # 经 记 注 疏 按 校语 音义 目录 出处 右…
    page.screenshot(path=str(screenshots / "index.png"), full_page=True)


def test_gloss_readable_with_the_keyboard(page, fixture_site, screenshots):
    """Tab to a gloss: its 反切, 广韵 position and match status show without a mouse."""
    page.goto(f"{fixture_site}/{CHAPTER}")
    gloss = page.locator(".yl-gloss", has_text="仆音赴").first
    gloss.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "仆音赴"
    tip = page.locator("#yl-tip")
    assert tip.is_visible()
    assert tip.inner_text().startswith("仆音赴") and "广韵" in tip.inner_text()
    page.evaluate("document.activeElement.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(screenshots / "gloss-focus.png"))
