"""The theme's navigation tree, reused between builds (导航树留存).

Furo turns the site's toctree of every page (``conv.sphinx_ext.speed.navcache`` keeps that HTML)
into its sidebar tree: it parses the HTML with BeautifulSoup and adds a checkbox and a label to
every entry with children (``furo.navigation.get_navigation_tree``, cached only within one
process). On the whole 仪礼 that is some 30 ms a page, in every build, for a tree made from the
same HTML as the last build's.

Here the tree is kept in ``yl-nav/`` beside the toctree, one file per page, under the
navigation's signature extended by furo's version and a digest of the HTML it was made from
(``conv.sphinx_ext.speed.kept``), and given back while the signature is the same; else furo makes
it and it is kept. The tree is the one furo makes (``tests/test_speed_navtree.py``).

Private API: the name ``get_navigation_tree`` in the module ``furo``, which furo's
``html-page-context`` handler calls (checked against furo 2025.12); it is wrapped while a build
runs and given back when it finishes.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from sphinx.application import Sphinx

from conv.sphinx_ext.speed.kept import read_kept, write_kept
from conv.sphinx_ext.speed.navcache import NAV_BUILDERS, NAV_DIR, navigation_signature, navigation_state
from conv.sphinx_ext.speed.versions import compatible, installed

#: The furo version (major.minor) the wrapper was checked against.
FURO_CHECKED = "2025.12"


def furo_module():
    """The module ``furo`` when it is the checked version and loaded, else ``None``."""
    if ".".join(installed("furo").split(".")[:2]) != FURO_CHECKED:
        return None
    try:
        import furo  # lazy: only for a build whose theme is furo
    except ImportError:
        return None
    return furo if callable(getattr(furo, "get_navigation_tree", None)) else None


def kept_navigation_tree(app: Sphinx, original):
    """``get_navigation_tree`` that answers from ``yl-nav/`` for the page being written."""
    version = installed("furo")

    def navigation_tree(toctree_html: str) -> str:
        page = navigation_state(app.builder).page
        if not toctree_html or page is None:
            return original(toctree_html)
        digest = hashlib.sha1(toctree_html.encode("utf-8")).hexdigest()
        key = navigation_signature(app).with_inputs("furo", version, page, digest)
        path = Path(app.env.doctreedir) / NAV_DIR / (
            hashlib.sha1(f"{page}\0furo".encode("utf-8")).hexdigest() + ".pickle")
        kept = read_kept(path, key)
        if isinstance(kept, str):
            return kept
        tree = original(toctree_html)
        if isinstance(tree, str):
            write_kept(path, key, tree)
        return tree

    navigation_tree.yl_original = original  # type: ignore[attr-defined]
    return navigation_tree


def wrap_furo(app: Sphinx) -> None:
    """``builder-inited``: furo's ``get_navigation_tree`` wrapped for this build."""
    furo = furo_module() if app.builder.name in NAV_BUILDERS and app.config.html_theme == "furo" else None
    if furo is None:
        return
    app.builder.yl_furo_wrapped = (furo, furo.get_navigation_tree)
    furo.get_navigation_tree = kept_navigation_tree(app, furo.get_navigation_tree)


def unwrap_furo(app: Sphinx, exception) -> None:
    """``build-finished``: furo's function given back."""
    wrapped = getattr(app.builder, "yl_furo_wrapped", None)
    if wrapped is not None:
        furo, original = wrapped
        furo.get_navigation_tree = original
        app.builder.yl_furo_wrapped = None


def page_being_written(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Before the theme's handler (500): the page whose tree furo makes next."""
    navigation_state(app.builder).page = pagename


def page_written(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    navigation_state(app.builder).page = None


def setup_navtree(app: Sphinx) -> None:
    if not compatible("navigation tree"):
        return
    app.connect("builder-inited", wrap_furo)
    app.connect("build-finished", unwrap_furo)
    app.connect("html-page-context", page_being_written, priority=400)
    app.connect("html-page-context", page_written, priority=600)
