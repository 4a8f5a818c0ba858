"""The list of the extension's components, in registration order. Add one line per component."""
from __future__ import annotations

from .apparatus import setup_apparatus
from .cjk import setup_cjk
from .design import setup_design
from .fastpage import setup_fastpage
from .parallel import setup_parallel
from .chars import setup_chars
from .cite import setup_cite
from .domain import setup_domain
from .glosses import setup_glosses
from .indices import setup_indices
from .latex import setup_latex
from .layers import setup_layers
from .meta import setup_meta
from .navcache import setup_navcache
from .notes import setup_notes
from .passage import setup_passage
from .permalink import setup_permalink
from .preload import setup_preload
from .search import setup_search
from .seeds import setup_seeds
from .tables import setup_tables
from .titles import setup_titles
from .toolbar import setup_toolbar

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
