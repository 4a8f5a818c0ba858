"""The passage permalink (段落引用链接): a small 引 after each passage in HTML.

``permalink_html`` (called by the passage's HTML visitor) writes, before the passage's closing
tag::

    <a class="yl-permalink" href="#judou-xiangshe-12" data-anchor="judou-xiangshe-12"
       data-cite="《仪礼郑注句读·乡射礼》“司马出于下射之南还其后降…”，judou-xiangshe-12"
       title="引用此段：复制引文（篇名、锚点、网址）" aria-label="…"></a>

The mark 引 is CSS generated content (``static/permalink.css``), so it is never part of the
passage's text (copying the passage, search snippets, ``textContent``). It is an ordinary link to
the anchor, focusable with the keyboard and usable without JavaScript. ``static/permalink.js``
makes a click (or Enter) copy the citation and the page's URL with the anchor to the clipboard
and show it in a small box; where the clipboard API is unavailable or refused, the box shows the
citation selected in a text field, to copy by hand.
"""
from __future__ import annotations

from html import escape

from docutils import nodes
from sphinx.application import Sphinx
from conv.sphinx_ext.util import STATIC_DIR

TITLE = "引用此段：复制引文（篇名、锚点、网址）"


def setup_permalink(app: Sphinx) -> None:
    app.connect("builder-inited", add_assets)


def add_assets(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    if str(STATIC_DIR) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC_DIR))
    app.add_css_file("permalink.css")
    app.add_js_file("permalink.js")


def permalink_html(translator, node: nodes.Element) -> str:
    """The permalink of a passage node (``""`` when it has no anchor)."""
    if not node.get("ids"):
        return ""
    anchor = node["ids"][0]
    domain = translator.builder.env.get_domain("yl")
    target = domain.find(anchor)
    citation = target.citation if target is not None else anchor
    return (
        f'<a class="yl-permalink" href="#{escape(anchor)}" data-anchor="{escape(anchor)}" '
        f'data-cite="{escape(citation)}" title="{escape(TITLE)}" '
        f'aria-label="{escape("引用此段 " + anchor)}"></a>'
    )
