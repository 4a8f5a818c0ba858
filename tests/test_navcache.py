"""The site's navigation made from the pages' titles alone (``conv/sphinx_ext/navcache.py``).

The theme asks every page for the whole site's toctree with ``titles_only=True``; Sphinx copies
each page's whole table of contents (every section) for it and then throws the sections away.
``titles_only_tocs`` throws them away once per build; the navigation must come out the same."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment.adapters.toctree import global_toctree_for_doc

from conv.sphinx_ext import navcache

ROOT = Path(__file__).resolve().parents[1]
THEME_CALL = dict(collapse=False, titles_only=True, maxdepth=-1, includehidden=True)


@pytest.fixture(scope="module")
def built_source(tmp_path_factory):
    """The edition's ``source/`` (the seeds converted), read by an in-memory Sphinx."""
    base = tmp_path_factory.mktemp("navcache")
    src = base / "src"
    shutil.copytree(ROOT / "source", src, ignore=shutil.ignore_patterns("_build", ".converted"))
    app = Sphinx(src, src, base / "html", base / "doctrees", "html", status=None, warning=None,
                 freshenv=True, parallel=1)
    app.build()
    return app


def _nav(app, docname: str, **kwargs) -> str:
    tree = global_toctree_for_doc(app.env, docname, app.builder, tags=app.builder.tags, **kwargs)
    return "" if tree is None else tree.pformat()


def test_every_page_has_the_same_navigation_from_titles_only(built_source):
    app = built_source
    env = app.env
    whole = {docname: _nav(app, docname, **THEME_CALL) for docname in sorted(env.all_docs)}
    with navcache.titles_only(env):
        pruned = {docname: _nav(app, docname, **THEME_CALL) for docname in sorted(env.all_docs)}
    assert pruned == whole
    # and something was cut: the chapters' sections are gone from the tables of contents used
    sections = sum(len(list(toc.findall(nodes.reference))) for toc in env.tocs.values())
    kept = sum(len(list(toc.findall(nodes.reference))) for toc in navcache.titles_only_tocs(env).values())
    assert kept < sections / 5, (kept, sections)
    assert "current" in whole["judou/xiangshe"]


def test_tables_of_contents_are_given_back(built_source):
    env = built_source.env
    tocs = env.tocs
    with navcache.titles_only(env):
        assert env.tocs is not tocs
    assert env.tocs is tocs


def test_pages_titles_only_cannot_stand_for_are_kept_whole():
    """A page with an ``only`` node, a ``tocdepth`` or an entry of more than a title and its
    sections keeps its whole table of contents (Sphinx's own copy decides what it shows)."""
    def item(title: str, *rest) -> nodes.list_item:
        return nodes.list_item("", addnodes.compact_paragraph("", "", nodes.reference("", title)), *rest)

    plain = nodes.bullet_list("", item("a", nodes.bullet_list("", item("a.1"))))
    assert navcache.titles_only_toc(plain, 0).pformat() == nodes.bullet_list("", item("a")).pformat()
    assert navcache.titles_only_toc(plain, 2) is plain
    only = nodes.bullet_list("", item("a", nodes.bullet_list("", addnodes.only("", item("a.1"), expr="html"))))
    assert navcache.titles_only_toc(only, 0) is only
    three = nodes.bullet_list("", item("a", nodes.bullet_list("", item("a.1")), nodes.bullet_list()))
    assert navcache.titles_only_toc(three, 0) is three
    nested = nodes.bullet_list("", item("a", nodes.bullet_list("", item("a.1", addnodes.toctree(entries=[])))))
    assert navcache.titles_only_toc(nested, 0).pformat() == nodes.bullet_list(
        "", item("a", nodes.bullet_list("", addnodes.toctree(entries=[])))).pformat()
