"""The index of terms (名物索引): the ``yl`` domain's index ``yl-terms`` and Sphinx's general index.

While a page is read, ``TermOccurrences`` looks for the terms of ``conv/data/terms.toml`` in the
words of every passage (its ``yl_text``, in the reading form: 賔 is found under 宾) with the rule
of ``conv.analyses.terms.find`` — the same leftmost-longest rule as the JSON export (``conv/terms.py``: a
term inside a longer term is not counted; homographs are skipped), by one regular expression
(``term_words``). Nothing is placed by hand, and nothing is added to the page either: each
passage's terms are recorded in the environment, in the index domain's entries (``single``:
``觯; 句读·乡射礼``, category key the pinyin's first letter), which feed the general index
(``genindex``: 觯 → 句读·乡射礼 → links to its passages), and in ``env.yl_terms`` (per page, the
terms of each passage in order, repeated as often as they occur; ``TermCollector`` forgets and
merges them, parallel-safe). A doctree holds no ``index`` node for them — there would be one per
passage with terms, which every later transform, post-transform and writer would walk. What
needs them as nodes gets them from the environment: the HTML search index (``IndexBuilder.feed``
reads a page's ``index`` nodes) one node per page when the page is written
(``feed_terms_to_search``), any other builder (LaTeX, Texinfo, text) one node per passage, right
before it, as the page had it when it was read (``TermIndexNodes``).

``TermIndex`` (``yl-terms``, its own page in HTML, a back-matter index in LaTeX) groups the terms
by category (the data file's order) and orders them by pinyin (``conv.analyses.terms``); each term is an
entry (its pinyin, how often and in how many passages it occurs) with one sub-entry per passage, in
reading order (the order of the toctrees), linking to the passage's anchor. In HTML the index
opens per category (``terms_index``): the page ``yl-terms`` (drawn by
``templates/domainindex.html``) holds the rule for terms inside longer terms and, per category,
the terms that occur with their counts, each linking to its category's own page
(``yl-terms-<id>.html``) where its passages are listed by chapter (``乡射礼 76 81 85 …``), every
number a link. Terms of the word list that never occur are listed to no reader. In LaTeX Sphinx prints the index, a term's places by chapter (one line each: its
passages' numbers and the first one's page, ``terms_index.chapter_rows``), and the
general index's entries get pinyin sort keys (``\\index{zhi4 觯@…}``), so ``makeindex`` orders
them by pinyin under their initial letter.
"""
from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging


from conv.sphinx_ext.util import STATIC_DIR, use_templates

from conv.sphinx_ext.backmatter.terms_found import TermCollector, TermOccurrences, reread_when_terms_change
from conv.sphinx_ext.backmatter.terms_index import TermIndex, category_pages, forget_listing, term_page_context
from conv.sphinx_ext.backmatter.terms_nodes import (
    PinyinIndexKeys, TermIndexNodes, feed_terms_to_search, record_builder_format,
)
logger = logging.getLogger(__name__)

HERE = Path(__file__).parent
STATIC = STATIC_DIR
CSS_FILE = "yili-indices.css"


def setup_terms(app: Sphinx) -> None:
    app.add_index_to_domain("yl", TermIndex)
    app.add_transform(TermOccurrences)
    app.add_env_collector(TermCollector)
    app.connect("builder-inited", record_builder_format)
    app.add_post_transform(TermIndexNodes)
    app.add_post_transform(PinyinIndexKeys)
    app.connect("doctree-resolved", feed_terms_to_search)
    use_templates(app)  # templates/domainindex.html
    app.connect("builder-inited", add_assets)
    app.connect("html-page-context", term_page_context)
    app.connect("html-collect-pages", category_pages)
    app.connect("env-get-outdated", reread_when_terms_change)
    app.connect("env-updated", forget_listing)


def add_assets(app: Sphinx) -> None:
    if app.builder.format == "html":
        if str(STATIC) not in app.config.html_static_path:
            app.config.html_static_path.append(str(STATIC))
        app.add_css_file(CSS_FILE)
