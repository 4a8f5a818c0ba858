"""Loading the converter's tables before a parallel read (预载).

The tables the extension needs while it reads a page — OpenCC's dictionaries (folding), the
《广韵》 of tshet-uinh (the glosses' positions), pypinyin's dictionary and the list of terms (the
index of terms), the search fold table — load lazily, on first use. With ``sphinx-build -j N``
Sphinx forks one process per chunk of pages, and every chunk would load them again. Loaded once in
the main process, before the fork, they are shared by every chunk (copy-on-write).

Nothing here changes a result: each call is one the reading makes anyway, on a real gloss, word
and character.
"""
from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def setup_preload(app: Sphinx) -> None:
    app.connect("env-before-read-docs", preload_before_fork)


def preload_before_fork(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """When several chunks of pages are about to be read in forked processes, load the tables."""
    if app.parallel > 1 and len(docnames) > 1:
        preload()


def preload() -> None:
    from conv import data, normalize, terms

    from .glosses import parse_gloss
    from .search import split_text

    for table in (data.works, data.chapters, data.pua, data.variants, data.t2s_keep):
        table()
    normalize.fold("賔說")  # OpenCC t2s
    parse_gloss("弛尸纸反")  # conv.glosses, conv.phonology: tshet-uinh, OpenCC s2t
    catalogue = terms.load()
    terms.find("司射", catalogue)
    terms.pinyin("射侯", catalogue)  # pypinyin's dictionaries
    split_text("賔")  # the search fold table
