"""The parts (门) of a work in the site navigation (导航中的门类): the 通解's 家礼 … 王朝礼.

A work's page lists its 篇 in toctrees, one per part, with the part's name as the toctree's
caption (``conv.myst.chapter.work_index``); the page shows the captions, but when Sphinx makes the
navigation of the whole site it keeps only the captions of the root document's toctrees, so the
sidebar would list the 通解's sixty 篇 without their parts. After the theme's ``html-page-context``
(furo's, priority 500, makes ``furo_navigation_tree``), each part's name is put before its first
篇 in that navigation, a label among the links::

    <li class="toctree-l1 current has-children"><a …>仪礼经传通解</a> … <ul>
        <li class="toctree-l2"><a … href="juanshou.html">卷首</a></li>
        <li class="yl-nav-division" role="presentation"><span class="yl-nav-division-name">家礼</span></li>
        <li class="toctree-l2"><a … href="shiguan.html">第一　士冠礼</a></li> …

The captions and the entries they head come from the works' tables of contents (``env.tocs``,
which keep their toctrees), gathered once per build (``builder.yl_nav_divisions``). The LaTeX
side, the same captions as parts of the 目录: ``output/latex.py``.
"""
from __future__ import annotations

import html
import re

from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders import Builder

#: the theme's context variable that holds the site navigation (HTML)
NAVIGATION = "furo_navigation_tree"


def setup_navparts(app: Sphinx) -> None:
    app.connect("html-page-context", add_divisions, priority=600)  # after furo's (500)


def divisions(builder: Builder) -> list[tuple[str, str, str]]:
    """Each caption of a toctree below the root document: (caption, the docname of its first
    entry, that entry's title in the navigation), in document order of the works."""
    found = getattr(builder, "yl_nav_divisions", None)
    if found is None:
        env = builder.env
        found = []
        for docname in sorted(env.tocs):
            if docname == env.config.root_doc:
                continue  # Sphinx shows the root document's captions itself
            for toctree in env.tocs[docname].findall(addnodes.toctree):
                if toctree.get("caption") and toctree["entries"]:
                    title, first = toctree["entries"][0]
                    found.append((toctree["caption"], first, title or env.titles[first].astext()))
        builder.yl_nav_divisions = found
    return found


def add_divisions(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    tree = context.get(NAVIGATION)
    if not isinstance(tree, str):
        return
    for caption, first, title in divisions(app.builder):
        href = "#" if first == pagename else app.builder.get_relative_uri(pagename, first)
        entry = re.compile(r'<li class="toctree-l\d[^"]*"><a class="[^"]*reference internal" href="'
                           + re.escape(href) + '">' + re.escape(html.escape(title, quote=False)) + "</a>")
        match = entry.search(tree)
        if match is not None:
            label = (f'<li class="yl-nav-division" role="presentation">'
                     f'<span class="yl-nav-division-name">{html.escape(caption)}</span></li>\n')
            tree = tree[:match.start()] + label + tree[match.start():]
    context[NAVIGATION] = tree
