"""Speed (提速): an optional extension that makes the build faster and changes nothing it builds.

``source/conf.py`` loads it as ``conv.sphinx_ext.speed``; remove that line and the edition builds
the same pages, more slowly. Every use of a private attribute of Sphinx, MyST or docutils lives
here, each part checks the versions it was written against and, on any other, turns itself off
with one log line. No feature module imports from this package.
"""
from __future__ import annotations

from sphinx.application import Sphinx

from conv.sphinx_ext.speed.genindex import setup_genindex
from conv.sphinx_ext.speed.inventory import setup_inventory
from conv.sphinx_ext.speed.kept import setup_kept
from conv.sphinx_ext.speed.navcache import setup_navcache
from conv.sphinx_ext.speed.navtree import setup_navtree
from conv.sphinx_ext.speed.options import setup_options
from conv.sphinx_ext.speed.parallel import setup_parallel
from conv.sphinx_ext.speed.preload import setup_preload
from conv.sphinx_ext.speed.search_entries import setup_search_entries
from conv.sphinx_ext.speed.search_feed import setup_search_feed
from conv.sphinx_ext.speed.search_index import setup_search_index
from conv.sphinx_ext.speed.terms_cache import setup_terms_cache
from conv.sphinx_ext.speed.walks import setup_walks

SETUPS = [
    setup_kept,  # the package's files digested once per build for the signatures of kept values
    setup_preload,  # before a read: environment out of the cyclic collector, small rebuilds serial, tables before a fork
    setup_navcache,  # the site's navigation (the theme's toctree) reused between builds
    setup_navtree,  # the theme's navigation tree made from it reused between builds
    setup_search_feed,  # each page fed to the search indexer as one small tree of its words
    setup_search_entries,  # the search index entries of pages an incremental build does not write
    setup_search_index,  # the search index kept: an incremental build merges the terms of the pages it writes
    setup_terms_cache,  # the index of terms: its content and its page reused between builds
    setup_genindex,  # the general index's content block reused between builds
    setup_options,  # the simple ':key: value' option lines of the edition's directives read at once
    setup_inventory,  # objects.inv left as it is while what it lists is the same
    setup_walks,  # transforms that would walk a page and find nothing skip it (a census per page)
    setup_parallel,  # -j N: pages read in chunks of equal size, each process writes whole pages
]


def setup(app: Sphinx) -> dict:
    app.setup_extension("conv.sphinx_ext")
    for setup_part in SETUPS:
        setup_part(app)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
