"""Finding the terms (名物检出): each passage's terms, recorded in the environment as it is read."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from itertools import islice

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.transforms import SphinxTransform

from conv.analyses import terms as term_index

from conv.sphinx_ext.walk import blocks
from conv.sphinx_ext.nodes import yl_passage, yl_text
from conv.sphinx_ext.refs.domain import work_and_chapter


# -- finding the terms ------------------------------------------------------------------------

def where(anchor: str, env: BuildEnvironment | None = None, docname: str = "") -> str:
    """``句读·乡射礼``: the work's short name and the chapter of an anchor."""
    chapter = _chapter_of(anchor)
    if chapter:
        return chapter
    if env is not None and docname in env.titles:
        return env.titles[docname].astext()
    return docname


@lru_cache(maxsize=None)
def _chapter_of(anchor: str) -> str:
    """``句读·乡射礼`` for an edition anchor, ``""`` for any other (cached: asked for every
    occurrence of every term)."""

    _, short, chapter = work_and_chapter(anchor)
    if chapter:
        return f"{short}·{chapter}" if short else chapter
    return ""


@lru_cache(maxsize=None)
def initial(word: str) -> str:
    """The category key of a term in the general index: its pinyin's first letter (``Z``)."""
    return term_index.pinyin(word)[:1].upper() or word[:1]


@lru_cache(maxsize=None)
def _entry_value(word: str, place: str) -> str:
    """``觯; 句读·乡射礼``: one string object for each term and chapter, however many passages
    hold it, so the pickled environment stores it once (the index domain keeps every entry)."""
    return f"{word}; {place}"


def term_words(text: str, catalogue: term_index.Catalogue | None = None) -> list[str]:
    """The terms of ``text`` in order, repeated as often as they occur: the words of
    ``conv.analyses.terms.find(text)``, found by one regular expression instead of a dictionary lookup
    per position and length (four to five times faster on the 仪礼's passages).

    The expression (``conv.analyses.terms.Catalogue.matcher``, made once per term list) holds
    every form of every term as a trie, so the regular expression engine, scanning from the left,
    takes at each position the longest form that starts there and resumes after it:
    leftmost-longest. Homographs and senses need the context of a match (洗 is not counted in 降洗,
    遂 only in 决遂): a text in which a form of such a term was taken is left to
    ``conv.analyses.terms.find``, which settles them."""
    return [word for word, _ in placed_words(text, catalogue)]


def placed_words(text: str, catalogue: term_index.Catalogue | None = None) -> list[tuple[str, bool]]:
    """``term_words`` with each word's placing: False where the sense rules cannot place it
    (``conv.analyses.terms.find_placed``: counted, and listed apart on the index page)."""
    catalogue = catalogue or term_index.load()
    pattern, forms, ambiguous = catalogue.matcher
    taken = pattern.findall(text)
    if ambiguous.isdisjoint(taken):
        return [(forms[form], True) for form in taken]
    return [(word, placed) for _, _, word, placed in term_index.find_placed(text, catalogue)]


def _anchor_of(passage: nodes.Element) -> str:
    return passage.get("anchor") or (passage["ids"][0] if passage["ids"] else "")


def passage_entries(anchor: str, found: list[str], docname: str) -> list[tuple]:
    """The general index's entries of a passage's terms: one ``single`` entry per term
    (``觯; 句读·乡射礼``, to the passage's anchor, category key the pinyin's initial).

    The place is the anchor's work and chapter; a passage outside the edition's chapters is filed
    under its page's docname (its title is not known while the page is read: the title collector
    runs after the transforms)."""
    place = where(anchor, None, docname)
    return [("single", _entry_value(word, place), anchor, "", initial(word))
            for word in dict.fromkeys(found)]


class TermOccurrences(SphinxTransform):
    """Find the terms in each passage's words; record them in the environment (see the module
    docstring). After the domains read the page (850: the index domain has the entries of the
    page's own ``index`` nodes, to which the terms' are added in document order), before the
    collectors do (880)."""

    default_priority = 855

    def apply(self, **kwargs) -> None:
        catalogue = term_index.load()
        docname = self.env.docname
        rows: list[tuple[str, str, list[str]]] = []
        unplaced: list[tuple[str, str]] = []
        entries: dict[int, list[tuple]] = {}  # id(passage) → its terms' entries
        for passage in blocks(self.document, yl_passage):
            anchor = _anchor_of(passage)
            words = next((c for c in passage.children if isinstance(c, yl_text)), None)
            if not anchor or words is None or anchor not in passage["ids"] or passage.get("layer") not in ("jing", "ji"):
                continue
            placed = placed_words(words.astext(), catalogue)
            found = [word for word, _ in placed]
            unplaced += [(anchor, word) for word, sure in placed if not sure]
            if found:
                rows.append((anchor, passage.get("layer", ""), found))
                entries[id(passage)] = passage_entries(anchor, found, docname)
        if unplaced:
            unplaced_terms(self.env)[docname] = unplaced
        if rows:
            _pages(self.env)[docname] = rows
            page = self.env.get_domain("index").entries.setdefault(docname, [])
            page[:] = _in_document_order(self.document, page, entries)


def _in_document_order(document: nodes.document, others: list[tuple],
                       terms: dict[int, list[tuple]]) -> list[tuple]:
    """A page's index entries in the order its nodes would give them: ``others``, the entries of
    its own ``index`` nodes as the index domain read them (in document order), with the terms'
    of each passage where the passage stands — where its ``index`` node stood before."""

    if not others:  # a page of the edition: its index entries are its terms'
        return [entry for found in terms.values() for entry in found]
    merged: list[tuple] = []
    rest = iter(others)
    for node in document.findall(lambda n: isinstance(n, (addnodes.index, yl_passage))):
        if isinstance(node, yl_passage):
            merged += terms.get(id(node), ())
        else:
            merged += islice(rest, len(node["entries"]))
    merged += rest  # entries of no node (another extension's): after them, as before
    return merged


def _pages(env: BuildEnvironment) -> dict[str, list[tuple[str, str, list[str]]]]:
    """docname → ``(anchor, layer, terms)`` of its passages with terms, in page order."""
    if not hasattr(env, "yl_terms"):
        env.yl_terms = {}
    return env.yl_terms


def unplaced_terms(env: BuildEnvironment) -> dict[str, list[tuple[str, str]]]:
    """docname → ``(anchor, term)`` of the occurrences its passages' sense rules cannot place."""
    if not hasattr(env, "yl_terms_unplaced"):
        env.yl_terms_unplaced = {}
    return env.yl_terms_unplaced


class TermCollector(EnvironmentCollector):
    """Forgets a page's terms when it is read again, merges those of pages read in parallel
    (the index domain does the same with its entries)."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _pages(env).pop(docname, None)
        unplaced_terms(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: set[str],
                    other: BuildEnvironment) -> None:
        for mine, theirs in ((_pages(env), _pages(other)), (unplaced_terms(env), unplaced_terms(other))):
            for docname in docnames:
                if docname in theirs:
                    mine[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        """Nothing: ``TermOccurrences`` recorded the page's terms while it was read."""


def terms_signature() -> str:
    """A digest of the term list: when it changes, the pages with passages are read again."""
    return hashlib.sha256(term_index.TERMS_FILE.read_bytes()).hexdigest()


def reread_when_terms_change(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    signature = terms_signature()
    previous = getattr(env, "yl_terms_signature", None)
    env.yl_terms_signature = signature
    if previous is None or previous == signature:
        return []
    domain = env.get_domain("yl")
    return sorted({e["docname"] for e in domain.passages.values()} | set(_pages(env)))
