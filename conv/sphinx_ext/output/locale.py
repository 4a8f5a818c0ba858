"""The theme's interface in Chinese (界面汉化): furo's strings Sphinx's zh_CN catalog lacks.

furo translates its interface ("On this page", "Back to top", "Skip to content", Previous/Next…)
through Sphinx's ``sphinx`` message catalog, and Sphinx's zh_CN catalog has none of these strings.
``locale/<language>.po`` (a data file) holds them; at setup it is compiled with Babel (a
dependency of Sphinx) into ``<doctreedir>/yl-locale/<language>/LC_MESSAGES/sphinx.mo`` and added
with ``app.add_message_catalog("sphinx", …)``: a *fallback* of Sphinx's own catalog, so every
string Sphinx translates keeps its translation. The search language (``lzh``) is a separate
setting (``html_search_language``) and leaves ``language = "zh_CN"`` alone.

The titles of furo's icons (a tooltip, what a screen reader says: "Light mode") are fixed in its
``partials/icons.html``: ``templates/partials/icons.html`` includes that template and puts each
title through the catalog.

A few of furo's names are not in a catalog at all: the hidden name of each expander of the site
navigation (``Toggle navigation of 燕礼``, made in Python into the ``furo_navigation_tree``
context variable: rewritten here, after furo's own ``html-page-context``) and three ``aria-label``
attributes of its template (rewritten by ``static/yili.js`` when the page loads: :data:`ARIA_LABELS`).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from sphinx.application import Sphinx

from conv.sphinx_ext.util import use_templates

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"


def setup_locale(app: Sphinx) -> None:
    use_templates(app)  # templates/partials/icons.html: the icons' titles
    language = app.config.language or ""
    source = LOCALE_DIR / f"{language}.po"
    if not source.is_file():
        return
    target_dir = Path(app.doctreedir) / "yl-locale"
    target = target_dir / language / "LC_MESSAGES" / "sphinx.mo"
    if not target.is_file() or target.stat().st_mtime < source.stat().st_mtime:
        target.parent.mkdir(parents=True, exist_ok=True)
        with source.open("rb") as handle:
            catalog = read_po(handle, locale=language)
        partial = target.with_name(f".sphinx.mo.{os.getpid()}.tmp")
        with partial.open("wb") as handle:
            write_mo(handle, catalog)
        os.replace(partial, target)  # atomic: a parallel build never reads half a file
    app.add_message_catalog("sphinx", str(target_dir))
    if language.startswith("zh"):
        app.connect("html-page-context", navigation_names, priority=600)  # after furo's (500)


#: furo's fixed ``aria-label`` attributes in Chinese (applied by ``static/yili.js``).
ARIA_LABELS = {
    "Toggle site navigation sidebar": "展开或收起全书目录",
    "Toggle table of contents sidebar": "展开或收起本页目录",
    "Toggle Light / Dark / Auto color theme": "切换浅色、深色或随系统配色",
}
NAVIGATION_NAME = "Toggle navigation of "


def navigation_names(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """furo's hidden names of the navigation's expanders, in Chinese (``展开或收起：燕礼``); the
    labels its template fixes travel to the page for ``yili.js``."""
    tree = context.get("furo_navigation_tree")
    if isinstance(tree, str) and NAVIGATION_NAME in tree:
        context["furo_navigation_tree"] = tree.replace(NAVIGATION_NAME, "展开或收起：")
    context["metatags"] = (context.get("metatags", "") + "\n<script>window.YL_ARIA_LABELS = "
                           + json.dumps(ARIA_LABELS, ensure_ascii=False) + ";</script>\n")
