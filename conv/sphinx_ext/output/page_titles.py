"""The window's title of a page (页面标题): a 篇 named with its work.

Both works have a 士冠礼 (and nine more 篇 of one name): a tab, a bookmark or the browser's
history named each of them 士冠礼. The theme's ``<title>`` is the page's ``title`` context variable;
for a 篇 of a work it becomes the name a citation gives it, 句读·士冠礼
(``refs.domain.page_title``, as the search page names its results). The page's own heading stays
the 篇's name, under its work in the navigation.
"""
from __future__ import annotations

from html import escape

from sphinx.application import Sphinx

from conv.sphinx_ext.refs.domain import page_title


def setup_page_titles(app: Sphinx) -> None:
    app.connect("html-page-context", window_title)


def window_title(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context``: the title of a 篇's page with its work."""
    if doctree is None or pagename not in app.env.titles:
        return
    title = page_title(app.env, pagename)
    if title != app.env.titles[pagename].astext():
        context["title"] = escape(title)
