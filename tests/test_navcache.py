"""The site's navigation made from the pages' titles alone (``conv/sphinx_ext/navcache.py``).

The theme asks every page for the whole site's toctree with ``titles_only=True``; Sphinx copies
each page's whole table of contents (every section) for it and then throws the sections away.
``titles_only_tocs`` throws them away once per build; the navigation must come out the same."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from docutils import nodes
from sphinx import addnodes

from conv.sphinx_ext.speed import navcache

ROOT = Path(__file__).resolve().parents[1]


#: Run in a process of its own: a Sphinx application made in the test process would take over
#: Sphinx's logging from the session's in-memory application (``myst_app``) and its warnings.
PROBE = r"""
import json, shutil, sys
from pathlib import Path
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment.adapters.toctree import global_toctree_for_doc
from conv.sphinx_ext.speed import navcache

root, base = Path(sys.argv[1]), Path(sys.argv[2])
src = base / "src"
shutil.copytree(root / "source", src, ignore=shutil.ignore_patterns("_build", ".converted"))
app = Sphinx(src, src, base / "html", base / "doctrees", "html", status=None, warning=None,
             freshenv=True, parallel=1)
app.build()
env = app.env
call = dict(collapse=False, titles_only=True, maxdepth=-1, includehidden=True)

def nav(docname):
    tree = global_toctree_for_doc(env, docname, app.builder, tags=app.builder.tags, **call)
    return "" if tree is None else tree.pformat()

whole = {docname: nav(docname) for docname in sorted(env.all_docs)}
tocs = env.tocs
with navcache.titles_only(app.builder):
    lent = env.tocs is not tocs
    cut = {docname: nav(docname) for docname in sorted(env.all_docs)}
refs = lambda tocs: sum(len(list(toc.findall(nodes.reference))) for toc in tocs.values())
json.dump({"whole": whole, "cut": cut, "lent": lent, "given_back": env.tocs is tocs,
           "sections": refs(env.tocs), "kept": refs(navcache.titles_only_tocs(app.builder))}, sys.stdout)
"""


@pytest.fixture(scope="module")
def navigation(tmp_path_factory, edition_source) -> dict:
    """The seeds' edition (``edition_source``) built, and every page's navigation made from the
    whole tables of contents and from the cut ones."""
    base = tmp_path_factory.mktemp("navcache")
    proc = subprocess.run([sys.executable, "-c", PROBE, str(edition_source.parent), str(base)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_every_page_has_the_same_navigation_from_titles_only(navigation):
    assert navigation["cut"] == navigation["whole"]
    assert "current" in navigation["whole"]["judou/xiangshe"]
    # and something was cut: the chapters' sections are gone from the tables of contents used, each
    # page's keeps its title alone
    assert navigation["kept"] == len(navigation["whole"]) < navigation["sections"], (
        navigation["kept"], len(navigation["whole"]), navigation["sections"])


def test_tables_of_contents_are_given_back(navigation):
    assert navigation["lent"] and navigation["given_back"]


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
