"""The search feed (检索输入): each page fed to Sphinx's indexer as one small tree of its words.

Sphinx's ``IndexBuilder.feed`` walks a page node by node, splits each text node on its own and
stems and filters every word it gets, repeats and all: the whole edition took seconds, in the
main process even in a parallel build. So the HTML builder's indexer is given, for each page, a
:func:`compact_doctree` made in one walk of the same nodes (:class:`CompactFeed`): the page's
titles with their ids, one keywords node holding every distinct word of the page (all its texts
split at once, ``conv.sphinx_ext.search.language.page_terms``) and its index entries.
``IndexBuilder`` builds the index from it as from the page, and the index is the same;
``tests/test_search_fast.py`` compares the two feeds.

Private API: ``sphinx.search._is_meta_keywords`` and the node kinds of
``sphinx.search._feed_visit_nodes`` (checked against Sphinx 9.0).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.search import _is_meta_keywords  # private: Sphinx 9.0

from conv.sphinx_ext.search.language import TEXT_BREAK, SearchClassicalChinese, page_terms
from conv.sphinx_ext.speed.versions import compatible


#: How Sphinx's indexer (``sphinx.search._feed_visit_nodes``) treats a node class.
_TEXT, _OTHER_TEXT, _COMMENT, _RAW, _META, _TITLE, _INDEX, _ELEMENT = range(8)
_KINDS: dict[type, int] = {}


def _kind_of(cls: type) -> int:
    """What ``_feed_visit_nodes`` does with a node of class ``cls`` (its ``isinstance`` tests)."""
    if issubclass(cls, nodes.Text):
        return _TEXT if cls is nodes.Text else _OTHER_TEXT
    for kind, base in ((_COMMENT, nodes.comment), (_RAW, nodes.raw), (_META, nodes.meta),
                       (_TITLE, nodes.title), (_INDEX, addnodes.index)):
        if issubclass(cls, base):
            return kind
    return _ELEMENT


@dataclass
class IndexContent:
    """What Sphinx's indexer collects from a doctree (页面检索内容), found in one walk.

    ``IndexBuilder.feed`` walks the doctree node by node and splits every text node on its own:
    tens of thousands of calls to :meth:`SearchClassicalChinese.split` per page, each word of
    each call then stemmed and filtered in Python, though a page repeats most of its characters
    and pairs. The same walk here (the same nodes skipped: comments, ``no-search`` elements, raw
    markup but its HTML's text) keeps the texts, and :meth:`words` splits them all at once.
    """

    #: The text nodes (escaped, as they are: :meth:`words` unescapes them all at once).
    texts: list[str] = field(default_factory=list)
    #: Text already plain: raw HTML without its tags, the ``astext()`` of another ``Text`` class.
    plain: list[str] = field(default_factory=list)
    #: The words of ``<meta name="keywords">`` nodes (among them :class:`search_pairs`).
    keywords: list[str] = field(default_factory=list)
    #: ``(title, id)`` of each title in document order (the first, the page's, without id).
    titles: list[tuple[str, str | None]] = field(default_factory=list)
    #: The ``entries`` of every index node (Sphinx takes them from the whole doctree).
    entries: list[list] = field(default_factory=list)

    def words(self) -> set[str]:
        """Every word the indexer gets from the page: the union of ``split`` over its texts (see
        :func:`page_terms`) and the keywords."""
        words = page_terms([nodes.unescape(TEXT_BREAK.join(dict.fromkeys(self.texts))), *self.plain])
        words.update(self.keywords)
        return words


def _raw_html_text(text: str) -> str:
    """Raw HTML as ``sphinx.search._feed_visit_nodes`` indexes it: without style, script, tags."""
    text = re.sub(r"<style.*?</style>", "", text, flags=re.IGNORECASE | re.DOTALL)
    text = re.sub(r"<script.*?</script>", "", text, flags=re.IGNORECASE | re.DOTALL)
    return re.sub(r"<[^<]+?>", "", text)


def index_content(doctree: nodes.Node, language: str) -> IndexContent:
    """The :class:`IndexContent` of ``doctree`` for the search language ``language``."""
    content = IndexContent()
    kinds = _KINDS
    stack = [doctree]
    while stack:
        node = stack.pop()
        kind = kinds.get(node.__class__)
        if kind is None:
            kind = kinds.setdefault(node.__class__, _kind_of(node.__class__))
        if kind == _TEXT:
            content.texts.append(node)
            continue
        if kind == _OTHER_TEXT:
            content.plain.append(node.astext())
            continue
        if kind == _COMMENT or kind == _RAW or "no-search" in node["classes"]:
            _skipped(node, kind, content)
            continue
        if kind == _INDEX:
            content.entries.append(node["entries"])
        elif kind == _META and _is_meta_keywords(node, language):
            content.keywords += [keyword.strip() for keyword in node["content"].split(",")]
        elif kind == _TITLE:
            ids = node.parent["ids"]
            content.titles.append((node.astext(), None if not content.titles else ids[0] if ids else None))
        stack.extend(reversed(node.children))
    return content


def _skipped(node: nodes.Element, kind: int, content: IndexContent) -> None:
    """A node whose text the indexer leaves out, but the text of raw HTML; its index entries
    count all the same."""
    if kind == _RAW and "no-search" not in node["classes"] and "html" in node.get("format", "").split():
        content.plain.append(_raw_html_text(node.astext()))
    content.entries += [index["entries"] for index in node.findall(addnodes.index)]


class _IndexedTitle(nodes.title):
    """A title as the indexer sees it: its text (``astext``), no children (the words of the
    page's text nodes are all in the keywords)."""

    def astext(self) -> str:
        return self["heading"]


def compact_doctree(content: IndexContent) -> nodes.Element:
    """A small tree from which ``IndexBuilder.feed`` collects what it would from the page:

    a section (with the title's id) and title for each title, in order; one keywords node with
    every word of the page (the words of a title are indexed as title words, so repeating them
    among the words changes nothing); and one index node with the entries of all.
    """
    root = nodes.Element()
    for text, node_id in content.titles:
        root += nodes.section("", _IndexedTitle(heading=text), ids=[] if node_id is None else [node_id])
    words = content.words()
    if words:  # (no keywords node at all: an empty one would index the empty word)
        root += nodes.meta(name="keywords", content=",".join(words))
    if content.entries:
        root += addnodes.index(entries=[entry for entries in content.entries for entry in entries])
    return root


class CompactFeed:
    """``IndexBuilder.feed`` given each page's :func:`compact_doctree`: the same index, one word
    list per page (each word stemmed and filtered once, not once per text node that holds it)."""

    def __init__(self, feed, language: str) -> None:
        self.feed = feed
        self.language = language

    def __call__(self, docname: str, filename: str, title: str, doctree: nodes.Node) -> None:
        self.feed(docname, filename, title, compact_doctree(index_content(doctree, self.language)))


def _compact_feed(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Makes the HTML builder's indexer feed on :func:`compact_doctree` (once per build).

    Sphinx creates the indexer when it prepares writing, so the first resolved page is the first
    time to find it; the page is fed after it, in this process. Only with this language's own
    ``split``: the words of all the texts of a page are split at once (:func:`page_terms`).
    """
    indexer = getattr(app.builder, "indexer", None)
    lang = getattr(indexer, "lang", None)
    if not isinstance(lang, SearchClassicalChinese) or type(lang).split is not SearchClassicalChinese.split:
        return
    if "feed" not in vars(indexer):
        indexer.feed = CompactFeed(indexer.feed, lang.lang)


def setup_search_feed(app: Sphinx) -> None:
    if compatible("search feed"):
        app.connect("doctree-resolved", _compact_feed)


def setup(app: Sphinx) -> dict:
    """The search feed alone, as an extension (``conv.sphinx_ext.speed`` loads it with the rest)."""
    setup_search_feed(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
