"""The 通解's five parts (门) in the website's navigation (issue #18, point 3): the work's page lists
its 篇 under their parts, and so does the site navigation of every page (the sidebar), the 卷首
first; the 句读 has no parts. On the whole edition (``whole_html``, built once per session)."""
from __future__ import annotations

import re
from html import unescape

import pytest

from conv import datafiles as data

PARTS = ["家礼", "乡礼", "学礼", "邦国礼", "王朝礼"]


def navigation(html: str) -> str:
    """The site navigation of a page (furo's sidebar tree)."""
    start = html.index('class="sidebar-tree"')
    return html[start:html.index("</div>", start)]


def items(tree: str) -> list[tuple[str, str]]:
    """The entries of one work's branch of the navigation in order: ("part", name) or ("pian", title)."""
    found = re.findall(r'<li class="(yl-nav-division|toctree-l2)[^"]*"[^>]*>(?:<a [^>]*>|<span[^>]*>)([^<]*)<', tree)
    return [("part" if kind == "yl-nav-division" else "pian", unescape(text)) for kind, text in found]


def tongjie_branch(html: str) -> str:
    tree = navigation(html)
    start = tree.index(">仪礼经传通解</a>")
    end = tree.find('<li class="toctree-l1', start)
    return tree[start:end if end > 0 else None]


def expected() -> list[tuple[str, str]]:
    """卷首, then each part and its 篇 as the work's index names them (``第二十六　书数（阙）``)."""
    names = {part["id"]: part["name"] for part in data.tongjie_parts()}
    out, part = [], None
    for chapter in data.tongjie_chapters():
        if chapter["part"] and chapter["part"] != part:
            part = chapter["part"]
            out.append(("part", names[part]))
        out.append(("pian", chapter["name"]))
    return out


def test_the_sidebar_lists_the_tongjie_by_parts(whole_html):
    html = (whole_html.outdir / "tongjie" / "dashe.html").read_text(encoding="utf-8")
    found = items(tongjie_branch(html))
    assert [name for kind, name in found if kind == "part"] == PARTS
    # each 篇 under its part, in the book's order, named as the work's page names it
    assert [(kind, re.sub(r"^第\S+　|（阙）$", "", name)) for kind, name in found] == expected()
    assert ("pian", "第二十六　书数（阙）") in found and found[0] == ("pian", "卷首")
    assert found.index(("part", "学礼")) < found.index(("pian", "第二十六　书数（阙）")) < found.index(("part", "邦国礼"))
    # the 句读's branch (on the same page) has no parts
    tree = navigation(html)
    assert tree.count('class="yl-nav-division"') == len(PARTS)
    assert tree.index('class="yl-nav-division"') > tree.index(">仪礼经传通解</a>")


def test_the_work_page_lists_the_parts(whole_html):
    html = (whole_html.outdir / "tongjie" / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article"):html.index("</article>")]
    assert re.findall(r'<span class="caption-text">([^<]*)</span>', article) == PARTS
    # the sidebar of the work's own page too, and of a page elsewhere (the 句读's)
    for page in ("tongjie/index.html", "judou/xiangshe.html"):
        tree = tongjie_branch((whole_html.outdir / page).read_text(encoding="utf-8"))
        assert [name for kind, name in items(tree) if kind == "part"] == PARTS


@pytest.mark.browser
def test_the_parts_in_the_sidebar_as_a_reader_sees_them(page, whole_html, http_server, screenshots):
    site = http_server(whole_html.outdir)
    page.goto(f"{site}/tongjie/shushu.html")
    division = page.locator(".sidebar-tree .yl-nav-division", has_text="学礼")
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        if width < 800:  # the navigation is a drawer on a phone
            page.locator("label.nav-overlay-icon").first.click()
        division.scroll_into_view_if_needed()
        assert division.is_visible()
        page.screenshot(path=str(screenshots / f"nav-parts-{width}.png"))
    # a part's name is a label, not a link; the 篇 under it are links
    assert division.locator("a").count() == 0
    assert page.locator(".sidebar-tree a", has_text="书数（阙）").count() == 1
