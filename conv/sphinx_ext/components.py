"""The list of the extension's components, in registration order. Add one line per component."""
from __future__ import annotations

from conv.sphinx_ext.apparatus import setup_apparatus
from conv.sphinx_ext.cjk import setup_cjk
from conv.sphinx_ext.design import setup_design
from conv.sphinx_ext.fastpage import setup_fastpage
from conv.sphinx_ext.parallel import setup_parallel
from conv.sphinx_ext.chars import setup_chars
from conv.sphinx_ext.cite import setup_cite
from conv.sphinx_ext.domain import setup_domain
from conv.sphinx_ext.glosses import setup_glosses
from conv.sphinx_ext.indices import setup_indices
from conv.sphinx_ext.latex import setup_latex
from conv.sphinx_ext.layers import setup_layers
from conv.sphinx_ext.meta import setup_meta
from conv.sphinx_ext.navcache import setup_navcache
from conv.sphinx_ext.notes import setup_notes
from conv.sphinx_ext.passage import setup_passage
from conv.sphinx_ext.permalink import setup_permalink
from conv.sphinx_ext.preload import setup_preload
from conv.sphinx_ext.search import setup_search
from conv.sphinx_ext.seeds import setup_seeds
from conv.sphinx_ext.tables import setup_tables
from conv.sphinx_ext.titles import setup_titles
from conv.sphinx_ext.toolbar import setup_toolbar

SETUPS: list = [
    setup_domain,  # first: the others register their directives and roles into the yl domain
    setup_seeds,  # -D yl_seeds=../seeds: the seeds converted at config-inited (seeds.py)
    setup_chars,
    setup_glosses,
    setup_passage,
    setup_layers,
    setup_titles,
    setup_meta,
    setup_cjk,
    setup_toolbar,
    setup_latex,  # the typeset book: front matter, part intros, back matter (latex.py)
    setup_search,  # the search language lzh (conv/sphinx_ext/search.py)
    setup_cite,  # yl:cite, yl:redirect, std labels of passages (conv/sphinx_ext/cite.py)
    setup_permalink,  # the 引 permalink after each passage in HTML
    setup_notes,  # yl:note, editorial notes at their passages (conv/sphinx_ext/notes.py)
    setup_apparatus,  # yl:app entries of the apparatus pages, their marks in the text, yl:witness
    setup_tables,  # yl:datatable, the back matter's tables: one node each (conv/sphinx_ext/tables.py)
    setup_indices,  # the index of terms (yl-terms) and the terms in the general index
    setup_preload,  # before a read: environment out of the cyclic collector, small rebuilds serial, tables before a fork (preload.py)
    setup_navcache,  # the site's navigation (the theme's toctree) reused between builds
    setup_design,  # sphinx-design's HTML post-transforms only on pages with its components
    setup_fastpage,  # generated pages read without markdown-it's block parser (fastpage.py)
    setup_parallel,  # -j N: pages read in chunks of equal size, each process writes whole pages (parallel.py)
]
