"""The site's navigation, reused between builds (导航缓存).

The theme (Furo) draws the table of contents of the whole site on every page: it asks Sphinx for
the page's global toctree (``context["toctree"](collapse=False, titles_only=True, maxdepth=-1,
includehidden=True)``), and Sphinx copies the table of contents of every page — every section of
every chapter — to make it, then keeps only the pages' titles. On the whole 仪礼 that is about
50 ms a page, and every build writes the general index, the index of terms and the search page
besides the pages that changed.

What Sphinx makes there is a function of the page (the links are relative to it, the branch it is
on is marked ``current``), of the builder and its configuration, and of what every page gives the
tree: its table of contents (``env.tocs``: its sections, and the toctrees it holds with their
options and entries), its title, its ``tocdepth``, the pages its toctrees include, the section
numbers, and the root document's toctrees. ``navigation_signature`` digests all of it once per
build (some tens of milliseconds: the tables of contents as text), with the versions of Sphinx,
docutils and the extensions. Each page's HTML is kept in ``yl-nav/`` in the doctree directory,
one file per page and arguments (so the processes of ``-j N`` never write the same file), under
that signature, and given back while the signature is the same. A call that logs a warning is
never kept, so its warnings come again in every build, as they would.

When the navigation has to be made, it is made from the pages' titles alone: with
``titles_only=True`` Sphinx copies each page's whole table of contents and then keeps, of every
top-level entry, its title and the toctrees found below it (``_entries_from_toctree``). On the
whole 仪礼 that copying is 1,800 sections for every page written, about half of the theme's time.
``titles_only_tocs`` does that cut once per build, and ``titles_only`` lends the cut tables of
contents to Sphinx for the call. Pages whose table of contents the cut could not stand for keep
theirs whole (see ``titles_only_toc``); the navigation made is the same either way
(``tests/test_navcache.py``).
"""
from __future__ import annotations

import hashlib
import logging
from contextlib import contextmanager
from pathlib import Path

from docutils import nodes

from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from conv.sphinx_ext.speed.kept import read_kept, write_kept
from conv.sphinx_ext.speed.versions import compatible

NAV_DIR = "yl-nav"
#: The builders whose toctree is Sphinx's own (``singlehtml`` and ``epub`` make theirs otherwise).
NAV_BUILDERS = ("html", "dirhtml")
_SIGNATURE: dict[int, str] = {}  # id(env) → this build's signature (forgotten at env-updated)
_TITLES_ONLY: dict[int, dict] = {}  # id(env) → this build's cut tables of contents (idem)


def setup_navcache(app: Sphinx) -> None:
    if not compatible("navigation cache"):
        return
    app.connect("html-page-context", reuse_toctree, priority=400)  # before the theme's (500)
    app.connect("env-updated", forget_signature)


def forget_signature(app: Sphinx, env: BuildEnvironment) -> list[str]:
    _SIGNATURE.pop(id(env), None)
    _TITLES_ONLY.pop(id(env), None)
    return []


def titles_only_toc(toc: nodes.Element, tocdepth: int) -> nodes.Element:
    """One page's table of contents (目录) as ``titles_only`` leaves it: each top-level entry's
    title and the toctrees below it. Sphinx cuts the same way after copying (so cutting first
    changes nothing) unless its copy drops something first or the cut is not idempotent: a page
    with a ``tocdepth``, an ``only`` node, or an entry of more than a title and one sub-list is
    given back whole."""
    if tocdepth or any(isinstance(node, addnodes.only) for node in toc.findall(nodes.Element)):
        return toc
    if any(len(top_level) > 2 for top_level in toc.children if isinstance(top_level, nodes.Element)):
        return toc
    cut = toc.deepcopy()
    for top_level in cut.children:
        if len(top_level) > 1:  # as sphinx.environment.adapters.toctree._entries_from_toctree
            if subtrees := list(top_level.findall(addnodes.toctree)):
                top_level[1][:] = subtrees
            else:
                top_level.pop(1)
    return cut


def titles_only_tocs(env: BuildEnvironment) -> dict:
    """Every page's table of contents cut by :func:`titles_only_toc`, once per build."""
    if id(env) not in _TITLES_ONLY:
        _TITLES_ONLY[id(env)] = {
            docname: titles_only_toc(toc, env.metadata.get(docname, {}).get("tocdepth", 0))
            for docname, toc in env.tocs.items()}
    return _TITLES_ONLY[id(env)]


@contextmanager
def titles_only(env: BuildEnvironment):
    """Lend Sphinx the cut tables of contents while it makes a ``titles_only`` toctree."""
    whole = env.tocs
    env.tocs = titles_only_tocs(env)
    try:
        yield
    finally:
        env.tocs = whole


def navigation_signature(app: Sphinx) -> str:
    """A digest of everything the toctree of a page is made from, but the page (see the module)."""
    env = app.env
    if id(env) not in _SIGNATURE:
        import docutils
        import sphinx

        build_info = getattr(app.builder, "build_info", None)
        parts: list = [
            sphinx.__version__, docutils.__version__, app.builder.name,
            getattr(build_info, "config_hash", ""), getattr(build_info, "tags_hash", ""),
            sorted((name, str(getattr(extension, "version", ""))) for name, extension in app.extensions.items()),
            env.config.root_doc,
            [repr(node.attributes) for node in env.master_doctree.findall(addnodes.toctree)],
            repr(sorted(env.toc_secnumbers.items())),
            sorted(env.toctree_includes.items()),
        ]
        for docname in sorted(env.all_docs):
            toc, title = env.tocs.get(docname), env.titles.get(docname)
            parts.append((docname, None if toc is None else toc.pformat(),
                          None if title is None else title.pformat(),
                          env.metadata.get(docname, {}).get("tocdepth", 0)))
        _SIGNATURE[id(env)] = hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()
    return _SIGNATURE[id(env)]


class _Warnings(logging.Handler):
    """Counts the warnings logged (by any of Sphinx's loggers) while it is attached."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def reuse_toctree(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The page's ``toctree()`` answers from ``yl-nav/`` when it can (see the module)."""
    toctree = context.get("toctree")
    if app.builder.name not in NAV_BUILDERS or not callable(toctree) \
            or getattr(toctree, "yl_reused", False):
        return
    folder = Path(app.env.doctreedir) / NAV_DIR

    def reused_toctree(**kwargs) -> str:
        arguments = repr(sorted(kwargs.items()))
        key = (navigation_signature(app), pagename, arguments)
        path = folder / (hashlib.sha1(f"{pagename}\0{arguments}".encode("utf-8")).hexdigest() + ".pickle")
        kept = read_kept(path, key)
        if isinstance(kept, str):
            return kept
        seen = _Warnings()
        sphinx_logger = logging.getLogger("sphinx")
        sphinx_logger.addHandler(seen)
        try:
            if kwargs.get("titles_only") and not kwargs.get("collapse"):
                with titles_only(app.env):
                    html = toctree(**kwargs)
            else:
                html = toctree(**kwargs)
        finally:
            sphinx_logger.removeHandler(seen)
        if seen.count == 0 and isinstance(html, str):
            write_kept(path, key, html)
        return html

    reused_toctree.yl_reused = True  # type: ignore[attr-defined]
    context["toctree"] = reused_toctree
