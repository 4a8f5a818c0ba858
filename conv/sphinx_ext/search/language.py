"""Full-text search for classical Chinese (文言检索): the search language ``lzh``.

Sphinx's Chinese search (``zh``) segments modern Chinese with jieba, never indexes a single
character and breaks in the browser (sphinx-doc/sphinx#14229). Classical Chinese has no word
boundaries a dictionary could find, and scholars search for single characters (觯, 楅) as often
as for phrases (释获者). So this language indexes every Han character and every pair of adjacent
Han characters (字 + 二字组, an overlapping-bigram index):

- **Index (Python).** :meth:`SearchClassicalChinese.split` folds the text with
  :func:`~conv.sphinx_ext.search.fold.search_fold` (``search/fold.py``: ``conv.normalize.fold``,
  PUA resolved, 四库 variants → standard forms, OpenCC t2s) and emits each Han character, then
  each adjacent pair. Whitespace between two Han characters is ignored (MyST keeps source newlines). Sphinx hands ``split`` one docutils
  ``Text`` node at a time, so a word cut by inline markup (a variant or PUA character wrapped in
  a node of its own, ``吿于<yl_forms>賔</yl_forms>曰``) would lose the pairs at the cut:
  :func:`boundary_pairs` finds them and a hidden :class:`search_pairs` node (a ``meta`` keywords
  node the HTML writer skips) hands them to the indexer, with ``witness_terms`` (防 of 防→䙝, KR0871).
- **Feeding the indexer.** Sphinx's ``IndexBuilder.feed`` walks a page node by node, splits each
  text node on its own and stems and filters every word it gets, repeats and all: a large
  corpus took seconds, in the main process even in a parallel build. So the HTML builder's
  indexer is given, for each page, a :func:`compact_doctree` made in one walk of the same nodes
  (:class:`CompactFeed`): the page's titles with their ids, one keywords node holding every
  distinct word of the page (all its texts split at once, :func:`page_terms`) and its index
  entries. ``IndexBuilder`` builds the index from it as from the page, and the index is the
  same; ``tests/test_search_fast.py`` compares the two feeds.
- **Query (JS, ``language_data.js``).** ``splitQuery`` cuts a query the same way
  (``释获者`` → ``释 获 者 释获 获者``) and ``Stemmer.stemWord`` folds each term with a table
  *generated at build time* (``search/runtime.py``) from :func:`conv.normalize.search_table`
  (never copied by hand), so
  賔/宾, 竒/奇, 乗/乘 and traditional input (賓, 禮, 觶) meet the folded index. Sphinx requires
  every term, so a page is a candidate only if it holds every character and every pair.
- **Passages (JS, ``_static/search-lzh.js``, search page only).** Candidate pages are fetched and
  their text is folded with the same table, then matched *as a string*: the results are the
  passages (``.yl-passage[id]``) that contain the query, each linked to its anchor, with a snippet
  of the page's own characters (賔 highlighted for the query 宾). A string typing a character
  some place of the page reads otherwise (閒 read 间, an emendation's printed 防:
  :func:`needle_forms`) is matched on the printed text folded (閒嘗: 閒 in either sense), any
  other on the reading text (间尝: 閒 read 间 only). Text outside passages (section
  titles, hand-written notes) is matched per element with an id (a section). A page that holds
  all pairs but not the string is dropped. The query prefix ``经:`` (or ``經:``, ``jing:``) or
  the checkbox 「只搜经文」 restricts matching to the text of the classic (``.yl-jing`` and
  ``.yl-ji``, i.e. 经 and 记) and leaves out every commentary layer.

``setup_search`` registers the language and makes it the default: a project that has not set
``html_search_language`` gets ``lzh`` whatever its ``language`` (``zh_CN`` keeps Sphinx's UI
strings in Chinese).

Size of ``searchindex.js``: Sphinx writes the index as ASCII JSON (6 bytes a Han character, 12 a
pair, plus the pages of each term); ≈ 8–9 kB per 1 000 characters of text. The whole edition's is
7.3 MB, 1.5 MB gzipped (``bench/results/latest.md``), loaded only by the search page and cached;
UTF-8 would save a third raw and almost nothing gzipped, so Sphinx's format is kept.
"""
from __future__ import annotations

import operator
import re
from collections.abc import Iterator

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.search import SearchLanguage

from conv.sphinx_ext.search.fold import HAN, HAN_CLASS, is_han, search_fold
from conv.sphinx_ext.search.runtime import js_runtime
from conv.sphinx_ext.search.witness_terms import witness_texts
from conv.sphinx_ext.util import STATIC_DIR
from conv.sphinx_ext.search.summaries import LAYERS, setup_summaries

#: The language code (ISO 639-3 ``lzh``, Literary Chinese), the value of ``html_search_language``.
LANG = "lzh"
STATIC = STATIC_DIR
JS_FILE = "search-lzh.js"
CSS_FILE = "search-lzh.css"

#: A run of Han characters in indexed text: whitespace between two of them is layout, not a break.
_INDEX_RUN = re.compile(f"{HAN_CLASS}(?:\\s*{HAN_CLASS})*")
#: A run of Han characters in a query: whitespace separates the words the user asks for.
_QUERY_RUN = re.compile(f"{HAN_CLASS}+")
_WORD = re.compile(r"\w+")
#: What separates the strings of a query: anything but a Han character, a letter or a digit.
_NEEDLE_BREAK = re.compile(f"(?:(?!{HAN_CLASS})\\W)+|_")
#: The query prefix restricting the search to the classic's text (经 and 记).
SCOPE_RE = re.compile(r"^\s*(?:[经經]|jing)\s*[:：]\s*", re.IGNORECASE)


def _grams(chars: list[str]) -> list[str]:
    return chars + [first + second for first, second in zip(chars, chars[1:])]


def _unique(words: list) -> list:
    return list(dict.fromkeys(words))


def split_text(text: str) -> list[str]:
    """Index terms of ``text``: each Han character, then each adjacent pair, per run; then words.

    >>> split_text('吿于賔曰')
    ['告', '于', '宾', '曰', '告于', '于宾', '宾曰']
    """
    text = search_fold(text)
    words: list[str] = []
    for run in _INDEX_RUN.finditer(text):
        words += _grams(HAN.findall(run.group()))
    words += _WORD.findall(HAN.sub(" ", text))
    return _unique(words)


#: Whitespace between two Han characters (layout, not a break: :data:`_INDEX_RUN`).
_HAN_GAP = re.compile(f"(?<={HAN_CLASS})\\s+(?={HAN_CLASS})")
#: A run of anything but Han characters.
_NOT_HAN_RUN = re.compile(f"[^{HAN_CLASS[1:-1]}]+")
#: A word of :data:`_WORD` once the Han characters are blanked out: word characters but Han ones.
_NOT_HAN_WORD = re.compile(f"[^\\W{HAN_CLASS[1:-1]}]+")
#: What :func:`page_terms` puts between two texts: no Han character, no whitespace, no word
#: character and no fold (nor ``\x00``, ``' '``, ``'\n'``, which ``nodes.unescape`` removes), so
#: no term of :func:`split_text` can run across it.
TEXT_BREAK = "\x01"


def text_terms(text: str) -> set[str]:
    """The terms of :func:`split_text` (the same set), for a long text.

    ``split_text`` walks the text run by run in Python; here the text is folded, the whitespace
    between Han characters removed and every other run of non-Han characters made one
    :data:`TEXT_BREAK` in C over the whole text; then the characters are taken at once, and the
    pairs of each distinct run (a page repeats many).
    """
    folded = search_fold(text)
    runs = dict.fromkeys(_NOT_HAN_RUN.sub(TEXT_BREAK, _HAN_GAP.sub("", folded)).split(TEXT_BREAK))
    terms = set("".join(runs))
    for run in runs:
        terms.update(map(operator.add, run, run[1:]))
    terms.update(_NOT_HAN_WORD.findall(folded))
    return terms


def page_terms(texts: list[str]) -> set[str]:
    """The union of :func:`split_text` over ``texts`` (每页检索词), in one :func:`text_terms` call:
    :data:`TEXT_BREAK` keeps the texts apart (each distinct text once: a page repeats a third of
    its text)."""
    return text_terms(TEXT_BREAK.join(dict.fromkeys(texts)))


def parse_scope(query: str) -> tuple[bool, str]:
    """``(classic_only, query)``: strips the prefix ``经:`` that restricts the search to 经/记."""
    match = SCOPE_RE.match(query)
    return (True, query[match.end():]) if match else (False, query)


def split_query(query: str) -> list[str]:
    """The terms the browser looks up for ``query`` (the Python twin of the JS ``splitQuery``).

    >>> split_query('释获者')
    ['释', '获', '者', '释获', '获者']
    """
    text = search_fold(parse_scope(query)[1])
    words: list[str] = []
    for run in _QUERY_RUN.finditer(text):
        words += _grams(list(run.group()))
    words += _WORD.findall(HAN.sub(" ", text))
    return _unique(words)


def needle_forms(query: str) -> list[tuple[str, str]]:
    """The strings a passage must contain for ``query`` (folded, lower-cased, no whitespace), each with the
    characters typed: on a page where some place reads one of them otherwise (閒 read 间, the seed's printed 防 read
    亵: its search data's ``p``), the string is matched on the printed text folded (閒嘗 finds 閒 read 间 and 閒 read
    闲), else on the reading text (间尝 finds the first only)."""
    chunks = [chunk for chunk in _NEEDLE_BREAK.split(parse_scope(query)[1]) if chunk]
    return _unique([(search_fold(chunk).lower(), chunk) for chunk in chunks])


def needles(query: str) -> list[str]:
    """The strings of :func:`needle_forms`."""
    return _unique([needle for needle, _ in needle_forms(query)])


class _Memo(dict):
    """``function`` memoised in a dict: a value met before costs ``memo[key]``, a lookup in C and
    no Python call."""

    def __init__(self, function) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, key):
        value = self[key] = self.function(key)
        return value


class SearchClassicalChinese(SearchLanguage):
    """Classical Chinese: every Han character and every adjacent pair, folded (see the module)."""

    lang = LANG
    language_name = "Classical Chinese"
    stopwords = frozenset()

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        # IndexBuilder.feed stems each word of a page and filters it twice, and most words of a
        # page were on the pages before: both are memoised for the build (the instance lives as
        # long as the indexer), a known word costing a dict lookup instead of a Python call.
        self.stem = _Memo(self.stem).__getitem__
        self.word_filter = _Memo(self.word_filter).__getitem__

    def split(self, input: str) -> list[str]:  # noqa: A002 (Sphinx's signature)
        return split_text(input)

    def stem(self, word: str) -> str:
        return search_fold(word)

    @property
    def js_stemmer_code(self) -> str:  # type: ignore[override]
        return js_runtime()

    @property
    def js_splitter_code(self) -> str:  # type: ignore[override]
        return "var splitQuery = YL_SEARCH.splitQuery;\n"


# --- words cut by inline markup -------------------------------------------------------------

#: Classes (and node names) of the layer elements: text in two different layers never joins.
LAYER_CLASSES = frozenset(
    [f"yl-{layer}" for layer in LAYERS]
    + ["yl-text", "yl-note"]
)


class search_pairs(nodes.meta):
    """Index-only keywords: the pairs of Han characters cut apart by inline markup.

    ``<search_pairs name="keywords" content="于宾,宾曰">`` sits at the end of the document; the
    search indexer reads it like ``<meta name="keywords">`` and every writer skips it.
    """


def _skip(translator: object, node: nodes.Node) -> None:
    raise nodes.SkipNode


def _searched(node: nodes.Element) -> bool:
    """False for an element whose text search leaves out (comments, raw, the pairs, ``no-search``)."""
    return not isinstance(node, (nodes.comment, nodes.raw, search_pairs)) and "no-search" not in node.get("classes", ())


def _block_texts(block: nodes.Element) -> Iterator[tuple[nodes.Text, nodes.Element]]:
    """Each searched text node of ``block``, in order, with its innermost layer element inside
    ``block`` (or ``block``): one walk down, each element's layer handed to its children."""
    stack: list = [(iter(block.children), block)] if _searched(block) else []
    while stack:
        children, segment = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
        elif isinstance(child, nodes.Text):
            yield child, segment
        elif _searched(child):
            stack.append((iter(child.children), child if LAYER_CLASSES.intersection(child["classes"]) else segment))


def _blocks(root: nodes.Node) -> Iterator[nodes.TextElement]:
    """The blocks of ``root`` in document order, none inside an element search leaves out (the
    ``no-search`` copies of a counterpart passage belong to their own page)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, nodes.Element) or not _searched(node):
            continue
        if isinstance(node, nodes.TextElement) and not isinstance(node.parent, nodes.TextElement):
            yield node
        else:
            stack.extend(reversed(node.children))


def boundary_pairs(doctree: nodes.Node) -> list[str]:
    """Pairs of Han characters that meet across inline markup within one block and one layer.

    A block is a ``TextElement`` whose parent is not one (a paragraph, a title, a passage's
    ``yl_text`` and each ``yl_segment``); within it, two adjacent text nodes continue each other
    unless they lie in different layer elements (classes ``yl-jing``, ``yl-zhu``, …).
    """
    pairs: list[str] = []
    for block in _blocks(doctree):
        previous_segment, previous_char = None, ""
        for text, segment in _block_texts(block):
            stripped = search_fold(str(text)).strip()
            if not stripped:  # whitespace between two Han characters is layout, not a break
                continue
            if segment is previous_segment and previous_char and is_han(previous_char) and is_han(stripped[0]):
                pairs.append(previous_char + stripped[0])
            previous_segment, previous_char = segment, stripped[-1]
    return _unique(pairs)


def _add_boundary_pairs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    builder = app.builder
    if builder.format != "html" or not getattr(builder, "search", False) or (
            app.config.html_search_language or app.config.language) != LANG:
        return
    runs, words = witness_texts(doctree)  # search/witness_terms.py
    pairs = _unique(boundary_pairs(doctree) + [t for run in runs for t in split_text(run)] + words)
    if pairs:
        doctree.append(search_pairs("", name="keywords", content=",".join(pairs)))


# --- feeding the indexer: one list of words per page ----------------------------------------

def _default_language(app: Sphinx, config) -> None:
    """Make ``lzh`` the search language unless the project chose one."""
    if not config.html_search_language:
        config.html_search_language = LANG
    static = [str(entry) for entry in config.html_static_path]
    for name in (JS_FILE, CSS_FILE):
        path = str(STATIC / name)
        if path not in static and str(STATIC) not in static:
            config.html_static_path = [*config.html_static_path, path]


def _search_page_assets(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Load the passage search only on the search page, after searchtools.js (``defer``)."""
    if pagename != "search" or (app.config.html_search_language or app.config.language) != LANG:
        return
    app.add_css_file(CSS_FILE)
    app.add_js_file(JS_FILE, loading_method="defer")


def setup_search(app: Sphinx) -> None:
    """Register the ``lzh`` search language, its index-only node and the search page's script."""
    app.add_search_language(SearchClassicalChinese)
    app.add_node(search_pairs, **{fmt: (_skip, None) for fmt in ("html", "latex", "text", "man", "texinfo")})
    app.connect("config-inited", _default_language)
    app.connect("doctree-resolved", _add_boundary_pairs)
    app.connect("html-page-context", _search_page_assets)
    setup_summaries(app, LANG)  # each page's text for the search page (search/summaries.py)


def setup(app: Sphinx) -> dict:
    """Load the search language alone (``extensions = ['conv.sphinx_ext.search.language']``)."""
    setup_search(app)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
