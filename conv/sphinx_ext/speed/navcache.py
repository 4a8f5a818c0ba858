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
build (some tens of milliseconds: the tables of contents as text), with the builder, its
configuration and the extensions' versions, into the signature every kept value has
(``conv.sphinx_ext.speed.kept``: the package's files, Sphinx, MyST and docutils). Each page's HTML
is kept in ``yl-nav/`` in the doctree directory, one file per page and arguments (so the processes
of ``-j N`` never write the same file), under that signature extended by the page and the
arguments, and given back while the signature is the same. A call that logs a warning is
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
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes

from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from conv.sphinx_ext.speed.kept import Signature, read_kept, signature, write_kept
from conv.sphinx_ext.speed.versions import compatible

NAV_DIR = "yl-nav"
#: The builders whose toctree is Sphinx's own (``singlehtml`` and ``epub`` make theirs otherwise).
NAV_BUILDERS = ("html", "dirhtml")


@dataclass
class Navigation:
    """What the navigation cache computes once per build (导航缓存状态), on the builder as
    ``builder.yl_navigation``; forgotten when pages were read (``env-updated``)."""

    signature: Signature | None = None  # navigation_signature()
    titles_only_tocs: dict | None = None  # titles_only_tocs(): docname → cut table of contents
    page: str | None = None  # the page being written, for the theme's navigation tree (navtree.py)


def setup_navcache(app: Sphinx) -> None:
    if not compatible("navigation cache"):
        return
    app.connect("html-page-context", reuse_toctree, priority=400)  # before the theme's (500)
    app.connect("env-updated", forget_signature)


def navigation_state(builder: Builder) -> Navigation:
    """This build's :class:`Navigation` (made on first use)."""
    state = getattr(builder, "yl_navigation", None)
    if state is None:
        state = builder.yl_navigation = Navigation()
    return state


def forget_signature(app: Sphinx, env: BuildEnvironment) -> list[str]:
    app.builder.yl_navigation = Navigation()
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


def titles_only_tocs(builder: Builder) -> dict:
    """Every page's table of contents cut by :func:`titles_only_toc`, once per build."""
    state, env = navigation_state(builder), builder.env
    if state.titles_only_tocs is None:
        state.titles_only_tocs = {
            docname: titles_only_toc(toc, env.metadata.get(docname, {}).get("tocdepth", 0))
            for docname, toc in env.tocs.items()}
    return state.titles_only_tocs


@contextmanager
def titles_only(builder: Builder):
    """Lend Sphinx the cut tables of contents while it makes a ``titles_only`` toctree."""
    env = builder.env
    whole = env.tocs
    env.tocs = titles_only_tocs(builder)
    try:
        yield
    finally:
        env.tocs = whole


def navigation_signature(app: Sphinx) -> Signature:
    """The signature of everything the toctree of a page is made from, but the page (see the
    module), once per build."""
    state, env = navigation_state(app.builder), app.env
    if state.signature is None:
        build_info = getattr(app.builder, "build_info", None)
        parts: list = [
            app.builder.name,
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
        state.signature = signature(parts)
    return state.signature


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
        key = navigation_signature(app).with_inputs(pagename, arguments)
        path = folder / (hashlib.sha1(f"{pagename}\0{arguments}".encode("utf-8")).hexdigest() + ".pickle")
        kept = read_kept(path, key)
        if isinstance(kept, str):
            return kept
        seen = _Warnings()
        sphinx_logger = logging.getLogger("sphinx")
        sphinx_logger.addHandler(seen)
        try:
            if kwargs.get("titles_only") and not kwargs.get("collapse"):
                with titles_only(app.builder):
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
