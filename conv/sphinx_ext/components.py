"""The list of the extension's components, in registration order. Add one line per component."""
from __future__ import annotations

from .cjk import setup_cjk
from .chars import setup_chars
from .domain import setup_domain
from .glosses import setup_glosses
from .layers import setup_layers
from .meta import setup_meta
from .passage import setup_passage
from .search import setup_search
from .titles import setup_titles
from .toolbar import setup_toolbar

SETUPS: list = [
    setup_domain,  # first: the others register their directives and roles into the yl domain
    setup_chars,
    setup_glosses,
    setup_passage,
    setup_layers,
    setup_titles,
    setup_meta,
    setup_cjk,
    setup_toolbar,
    setup_search,  # the search language lzh (conv/sphinx_ext/search.py)
]
