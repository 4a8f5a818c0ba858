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
reading order (the order of the toctrees), linking to the passage's anchor. In HTML the page is
drawn by ``templates/domainindex.html`` from ``term_listing``: the rule for terms inside longer
terms, then per category each term with its passages grouped by chapter (``乡射礼 76 81 85 …``),
every number a link. In LaTeX Sphinx prints the index (one page reference per passage), and the
general index's entries get pinyin sort keys (``\\index{zhi4 觯@…}``), so ``makeindex`` orders
them by pinyin under their initial letter.

Reuse between builds (``conv.sphinx_ext.kept``): the index's content (``TermIndex.generate``)
and its HTML page (``render_terms``) are a function of the term list, the passages' terms and
titles, the reading order and the code. ``listing_signature`` digests those inputs; the results
are kept in the doctree directory under that signature (``yl-terms.pickle``: the page and the
content's length; ``yl-terms-content.pickle``: the content, made and read only by a builder
that reads it, LaTeX), and an incremental build whose inputs did not change (an editorial notes
page edited) takes them from there instead of computing them again (a second or so on the whole
仪礼).
The general index is reused the same way (``reuse_genindex``): the HTML of its content block is
kept in ``yl-genindex.pickle`` under a digest of every index entry of the environment and of the
pages' URIs, and Sphinx's ``create_index`` and the theme's rendering of the entries are skipped
while they stay the same (``templates/genindex.html`` gives the kept HTML back to the theme).
"""
from __future__ import annotations

import hashlib
import html
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import islice
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.domains import Index, IndexEntry
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from conv import datafiles as data
from conv.analyses import terms as term_index

from conv.sphinx_ext.kept import file_stamps, read_kept, write_kept
from conv.sphinx_ext.walk import blocks

logger = logging.getLogger(__name__)

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
CSS_FILE = "yili-indices.css"


def setup_indices(app: Sphinx) -> None:
    app.add_index_to_domain("yl", TermIndex)
    app.add_transform(TermOccurrences)
    app.add_env_collector(TermCollector)
    app.add_post_transform(TermIndexNodes)
    app.add_post_transform(PinyinIndexKeys)
    app.connect("doctree-resolved", feed_terms_to_search)
    app.connect("config-inited", add_templates)
    app.connect("builder-inited", add_assets)
    app.connect("html-page-context", term_page_context)
    app.connect("env-get-outdated", reread_when_terms_change)
    app.connect("env-updated", forget_listing)
    app.connect("builder-inited", reuse_genindex)
    app.connect("html-page-context", keep_genindex)


def add_templates(app: Sphinx, config: Config) -> None:
    if str(TEMPLATES) not in config.templates_path:
        config.templates_path.append(str(TEMPLATES))


def add_assets(app: Sphinx) -> None:
    if app.builder.format == "html":
        if str(STATIC) not in app.config.html_static_path:
            app.config.html_static_path.append(str(STATIC))
        app.add_css_file(CSS_FILE)


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
    from conv.sphinx_ext.domain import work_and_chapter

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


_MATCHERS: dict[int, tuple] = {}  # id(catalogue) → (catalogue, its matcher): one per term list


def term_words(text: str, catalogue: term_index.Catalogue | None = None) -> list[str]:
    """The terms of ``text`` in order, repeated as often as they occur: the words of
    ``conv.analyses.terms.find(text)``, found by one regular expression instead of a dictionary lookup
    per position and length (four to five times faster on the 仪礼's passages).

    The expression holds every form of every term as a trie (``司(?:射|马|正)?``…), so the
    regular expression engine, scanning from the left, takes at each position the longest form
    that starts there and resumes after it: leftmost-longest. Homographs need the context of a
    match (洗 is not counted in 降洗): a text in which a form of a term with homographs was taken
    is left to ``conv.analyses.terms.find``, which settles them."""
    catalogue = catalogue or term_index.load()
    pattern, forms, ambiguous = _matcher(catalogue)
    taken = pattern.findall(text)
    if ambiguous.isdisjoint(taken):
        return [forms[form] for form in taken]
    return [word for _, _, word in term_index.find(text, catalogue)]


def _matcher(catalogue: term_index.Catalogue) -> tuple[re.Pattern, dict[str, str], frozenset[str]]:
    """(the trie expression of every form, form → term, the forms of terms with homographs)."""
    kept = _MATCHERS.get(id(catalogue))
    if kept is None or kept[0] is not catalogue:
        ambiguous = frozenset(form for form, word in catalogue.forms.items()
                              if catalogue.terms[word].homographs)
        matcher = (re.compile(_trie_pattern(catalogue.forms)), catalogue.forms, ambiguous)
        kept = _MATCHERS[id(catalogue)] = (catalogue, matcher)
    return kept[1]


def _trie_pattern(forms) -> str:
    """A regular expression matching any of ``forms``, the longest one where several start at
    the same position: ``射(?:侯)?`` tries 射侯 before 射."""
    trie: dict = {}
    for form in forms:
        node = trie
        for char in form:
            node = node.setdefault(char, {})
        node[""] = {}  # a form ends here

    def branch(node: dict) -> str:
        alternatives = [re.escape(char) + branch(child)
                        for char, child in sorted(node.items()) if char]
        if not alternatives:
            return ""
        group = alternatives[0] if len(alternatives) == 1 else f"(?:{'|'.join(alternatives)})"
        if "" not in node:
            return group
        # a form ends here and longer ones go on: the longer first (greedy), else this one
        return f"(?:{group})?"

    return branch(trie)


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
        from conv.sphinx_ext.passage import yl_passage, yl_text

        catalogue = term_index.load()
        docname = self.env.docname
        rows: list[tuple[str, str, list[str]]] = []
        entries: dict[int, list[tuple]] = {}  # id(passage) → its terms' entries
        for passage in blocks(self.document, yl_passage):
            anchor = _anchor_of(passage)
            words = next((c for c in passage.children if isinstance(c, yl_text)), None)
            if not anchor or words is None or anchor not in passage["ids"]:
                continue
            found = term_words(words.astext(), catalogue)
            if found:
                rows.append((anchor, passage.get("layer", ""), found))
                entries[id(passage)] = passage_entries(anchor, found, docname)
        if rows:
            _pages(self.env)[docname] = rows
            page = self.env.get_domain("index").entries.setdefault(docname, [])
            page[:] = _in_document_order(self.document, page, entries)


def _in_document_order(document: nodes.document, others: list[tuple],
                       terms: dict[int, list[tuple]]) -> list[tuple]:
    """A page's index entries in the order its nodes would give them: ``others``, the entries of
    its own ``index`` nodes as the index domain read them (in document order), with the terms'
    of each passage where the passage stands — where its ``index`` node stood before."""
    from conv.sphinx_ext.passage import yl_passage

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


class TermCollector(EnvironmentCollector):
    """Forgets a page's terms when it is read again, merges those of pages read in parallel
    (the index domain does the same with its entries)."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _pages(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: set[str],
                    other: BuildEnvironment) -> None:
        mine, theirs = _pages(env), _pages(other)
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        """Nothing: ``TermOccurrences`` recorded the page's terms while it was read."""


def terms_signature() -> str:
    """A digest of the term list: when it changes, the pages with passages are read again."""
    import hashlib

    return hashlib.sha256(term_index.TERMS_FILE.read_bytes()).hexdigest()


def reread_when_terms_change(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    signature = terms_signature()
    previous = getattr(env, "yl_terms_signature", None)
    env.yl_terms_signature = signature
    if previous is None or previous == signature:
        return []
    domain = env.get_domain("yl")
    return sorted({e["docname"] for e in domain.passages.values()} | set(_pages(env)))


def reading_order(env: BuildEnvironment) -> list[str]:
    """Every document, in the order of the toctrees from the root document (then the rest)."""
    order: list[str] = []
    seen: set[str] = set()
    stack = [env.config.root_doc]
    while stack:
        docname = stack.pop()
        if docname in seen:
            continue
        seen.add(docname)
        order.append(docname)
        stack.extend(reversed(env.toctree_includes.get(docname, [])))
    return order + sorted(set(env.found_docs) - seen)


_LISTINGS: dict[tuple, list] = {}  # (id(env), docnames) → the listing, computed once per build


def forget_listing(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages were read again: the listing of the last build is stale."""
    _LISTINGS.clear()
    _BUILD.clear()
    return []


def term_listing(env: BuildEnvironment, docnames=None) -> list[tuple[object, list[dict]]]:
    """Per category (``conv.analyses.terms.Category``): its terms in pinyin order, each ``{term, pinyin,
    variants, count, places: [(docname, anchor, count)]}`` with the places in reading order.

    A listing (the whole one: ``docnames`` None) is computed once per build and shared by the
    domain index (its length, its content) and the HTML page (``forget_listing`` drops it when
    pages are read again)."""
    key = (id(env), None if docnames is None else frozenset(docnames))
    if key not in _LISTINGS:
        _LISTINGS[key] = _term_listing(env, docnames)
    return _LISTINGS[key]


def _term_listing(env: BuildEnvironment, docnames) -> list[tuple[object, list[dict]]]:
    catalogue = term_index.load()
    pages = _pages(env)
    places: dict[str, list[tuple[str, str, int]]] = {}
    for docname in reading_order(env):
        if docnames is not None and docname not in docnames:
            continue
        for anchor, _layer, found in pages.get(docname, []):
            for word, count in Counter(found).items():
                places.setdefault(word, []).append((docname, anchor, count))
    listing = []
    for category, words in term_index.ordered_categories(catalogue):
        entries = []
        for word in words:
            here = places.get(word, [])
            entries.append({
                "term": word, "pinyin": term_index.pinyin(word, catalogue),
                "variants": list(catalogue.terms[word].variants),
                "count": sum(c for _, _, c in here), "places": here,
            })
        listing.append((category, entries))
    return listing


# -- reuse between builds ---------------------------------------------------------------------

CACHE_FILE = "yl-terms.pickle"
CONTENT_FILE = "yl-terms-content.pickle"
#: What the listing is computed with besides the environment: this code, the converter's tables
#: it reads (works, chapters: ``where``) and pypinyin (the terms' readings).
_CODE = (Path(__file__), HERE / "domain.py", Path(term_index.__file__),
         Path(term_index.__file__).with_name("pages.py"),  # conv.myst.backmatter: tone_marks, TERMS_RULE
         data.DATA_DIR / "works.toml", data.DATA_DIR / "chapters.toml")
_BUILD: dict[str, object] = {}  # this build's signature and cache (forgotten at env-updated)


def _code_stamp() -> list:
    import importlib.util

    spec = importlib.util.find_spec("pypinyin")
    return file_stamps([*_CODE, *([Path(spec.origin)] if spec and spec.origin else [])])


def listing_signature(env: BuildEnvironment) -> str:
    """A digest of everything the index of terms is made from: the term list, the code, the
    reading order, each page's passages with terms (anchor, layer, terms) with their titles, and
    the page's title. Computed once per build."""
    _this_build(env)
    if "signature" not in _BUILD:
        passages = env.get_domain("yl").passages
        pages = _pages(env)
        parts: list = [terms_signature(), _code_stamp()]
        for docname in reading_order(env):
            found = pages.get(docname)
            if not found:
                continue
            title = env.titles[docname].astext() if docname in env.titles else None
            parts.append((docname, title, found,
                          [passages.get(anchor, {}).get("title", "") for anchor, _, _ in found]))
        _BUILD["signature"] = hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()
    return _BUILD["signature"]  # type: ignore[return-value]


def _this_build(env: BuildEnvironment) -> None:
    if _BUILD.get("env") is not env:
        _BUILD.clear()
        _BUILD["env"] = env


def index_entries_digest(env: BuildEnvironment) -> str:
    """A digest of every page's index entries as the index domain holds them (computed once per
    build: the general index and the search index's entries are made from them)."""
    _this_build(env)
    if "entries" not in _BUILD:
        entries = env.get_domain("index").entries
        _BUILD["entries"] = hashlib.sha256(repr(sorted(entries.items())).encode("utf-8")).hexdigest()
    return _BUILD["entries"]  # type: ignore[return-value]


def _cache_path(env: BuildEnvironment, name: str = CACHE_FILE) -> Path:
    return Path(env.doctreedir) / name


def _cache(env: BuildEnvironment) -> dict:
    """``{"signature", "html": {page URIs: HTML}, "lengths": {docnames key: len(content)}}`` of
    this build: the stored one when its signature is this build's, else an empty one. The
    content itself is in ``CONTENT_FILE``, read only when something reads the content (the
    HTML page does not: ``render_terms`` draws it)."""
    signature = listing_signature(env)
    if "cache" not in _BUILD:
        cache = {"signature": signature, "html": {}, "lengths": {}}
        stored = read_kept(_cache_path(env), signature)
        if isinstance(stored, dict) and isinstance(stored.get("html"), dict) \
                and isinstance(stored.get("lengths"), dict):
            cache["html"], cache["lengths"] = stored["html"], stored["lengths"]
        _BUILD["cache"] = cache
    return _BUILD["cache"]  # type: ignore[return-value]


def _save_cache(env: BuildEnvironment) -> None:
    cache = _BUILD.get("cache")
    if isinstance(cache, dict):
        write_kept(_cache_path(env), cache["signature"],
                    {"html": cache["html"], "lengths": cache["lengths"]})


def _stored_content(env: BuildEnvironment) -> dict:
    """docnames key → the content ``TermIndex.generate`` made under this build's signature."""
    stored = read_kept(_cache_path(env, CONTENT_FILE), listing_signature(env))
    return stored if isinstance(stored, dict) else {}


def _store_content(env: BuildEnvironment, key, content: list) -> None:
    stored = _stored_content(env)
    # plain tuples: unpickled several times faster than named tuples
    stored[key] = [(letter, [tuple(e) for e in rows]) for letter, rows in content]
    write_kept(_cache_path(env, CONTENT_FILE), listing_signature(env), stored)


def passage_label(anchor: str) -> str:
    """The passage's number (the anchor's last part: ``76``)."""
    return anchor.rsplit("-", 1)[-1]


class TermIndex(Index):
    """名物索引: see the module docstring."""

    name = "terms"
    localname = "名物索引"
    shortname = "名物"

    def generate(self, docnames=None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        env = self.domain.env
        cache = _cache(env)
        key = None if docnames is None else tuple(sorted(docnames))
        length = cache["lengths"].get(key)
        if length is None:
            # the categories with a term that occurs: what _generate makes an entry of. The
            # content itself is made when something reads it (LaTeX; HTML never does)
            length = sum(1 for _, entries in term_listing(env, docnames)
                         if any(entry["places"] for entry in entries))
            cache["lengths"][key] = length
            _save_cache(env)
        return IndexContent(length=length, load=lambda: self._kept(key, docnames)), True

    def _kept(self, key, docnames) -> list[tuple[str, list[IndexEntry]]]:
        """The content kept under this build's signature, else made (and kept for the next
        build)."""
        env = self.domain.env
        stored = _stored_content(env).get(key)
        if stored is None:
            content = self._generate(docnames)
            _store_content(env, key, content)
            return content
        make = tuple.__new__
        return [(letter, [make(IndexEntry, e) for e in rows]) for letter, rows in stored]

    def _generate(self, docnames) -> list[tuple[str, list[IndexEntry]]]:
        from conv.myst.backmatter import tone_marks

        env = self.domain.env
        domain = env.get_domain("yl")
        content = []
        for category, entries in term_listing(env, docnames):
            rows: list[IndexEntry] = []
            for entry in entries:
                if not entry["places"]:
                    continue
                docname, anchor, _ = entry["places"][0]
                extra = tone_marks(entry["pinyin"])
                rows.append(IndexEntry(entry["term"], 1, docname, anchor, extra, "",
                                       f"{entry['count']}次，{len(entry['places'])}段"))
                for docname, anchor, count in entry["places"]:
                    found = domain.passages.get(anchor, {})
                    rows.append(IndexEntry(f"\u3000{where(anchor, env, docname)} 第{passage_label(anchor)}段",
                                           2, docname, anchor, "", "", found.get("title", "")))
            if rows:
                content.append((category.name, rows))
        return content


class IndexContent(Sequence):
    """The index's content as Sphinx gets it: the list of ``(letter, entries)``, made or read
    from the kept content only when something reads it (its length is known beforehand). An HTML
    build never does: the page is drawn by ``render_terms``, and Sphinx only asks whether the
    index is empty. Its ``repr`` is short: Sphinx ``repr``s the arguments of every event it emits (for its
    debug log), and the page's context holds the index — tens of thousands of ``IndexEntry``."""

    def __init__(self, content: list | None = None, *, length: int = 0, load=None) -> None:
        self._content = content
        self._length = length
        self._load = load

    def _items(self) -> list:
        if self._content is None:
            self._content = self._load()
        return self._content

    def __len__(self) -> int:
        return self._length if self._content is None else len(self._content)

    def __getitem__(self, index):
        return self._items()[index]

    def __iter__(self):
        return iter(self._items())

    def __repr__(self) -> str:
        return f"<yl-terms index: {len(self)} categories>"


# -- the HTML page ----------------------------------------------------------------------------

def term_page_context(app: Sphinx, pagename: str, templatename: str, context: dict,
                      doctree) -> None:
    if pagename != f"yl-{TermIndex.name}":
        return
    if "pathto" in context:
        context["yl_index_html"] = render_terms(app.env, context["pathto"])
    if getattr(app.builder, "implementation", None) is not None and isinstance(context.get("content"), IndexContent):
        # the json and pickle builders write the context itself: the index's entries, as a list
        context["content"] = list(context["content"])


def render_terms(env: BuildEnvironment, pathto) -> str:
    """The HTML of the ``yl-terms`` page (inside Furo's content block), from the cache when the
    listing and the pages' URIs are those it was made for."""
    uris = tuple((docname, pathto(docname)) for docname in sorted(_pages(env)))
    cache = _cache(env)
    text = cache["html"].get(uris)
    if text is None:
        text = _render_terms(env, pathto)
        cache["html"][uris] = text
        _save_cache(env)
    return text


def _render_terms(env: BuildEnvironment, pathto) -> str:
    from conv.myst.backmatter import TERMS_RULE, tone_marks

    domain = env.get_domain("yl")
    esc = html.escape
    listing = term_listing(env)
    uris: dict[str, str] = {}  # docname → its relative URI, escaped (one pathto per page)
    out = ['<section class="yl-index yl-terms-index" id="yl-terms">',
           f"<h1>{esc(TermIndex.localname)}</h1>",
           '<div class="yl-index-intro">']
    out += [f"<p>{esc(paragraph)}</p>" for paragraph in TERMS_RULE]
    total = sum(1 for _, entries in listing for e in entries if e["places"])
    out.append(f"<p>共 {total} 词见于经文（词表 {sum(len(e) for _, e in listing)} 词）。"
               "各词下列出所见段落，按篇分组，数字为段号（锚点末段），点击即至该段。</p>")
    out.append("</div>")
    out.append('<nav class="yl-index-jump">' + " · ".join(
        f'<a href="#yl-terms-{esc(c.id)}">{esc(c.name)}</a>' for c, _ in listing) + "</nav>")
    for category, entries in listing:
        out.append(f'<section class="yl-index-group" id="yl-terms-{esc(category.id)}">')
        out.append(f'<h2>{esc(category.name)} <span class="yl-index-label">{esc(category.label)}</span></h2>')
        out.append('<dl class="yl-terms">')
        for entry in entries:
            term = entry["term"]
            absent = not entry["places"]
            out.append(f'<dt id="yl-term-{esc(term)}"' + (' class="yl-term-absent"' if absent else "") + ">"
                       f'<span class="yl-term">{esc(term)}</span>'
                       f'<span class="yl-pinyin">{esc(tone_marks(entry["pinyin"]))}</span>')
            if entry["variants"]:
                out.append(f'<span class="yl-term-variants">（又作{esc("、".join(entry["variants"]))}）</span>')
            if absent:
                out.append('<span class="yl-term-count">未见</span></dt>')
                continue
            out.append(f'<span class="yl-term-count">{entry["count"]}次，{len(entry["places"])}段</span></dt>')
            out.append("<dd>")
            groups: dict[str, list[tuple[str, str, int]]] = {}
            for place in entry["places"]:
                groups.setdefault(where(place[1], env, place[0]), []).append(place)
            parts = []
            for name, group in groups.items():
                links = []
                for docname, anchor, count in group:
                    title = domain.passages.get(anchor, {}).get("title", "")
                    title = f"{name} {passage_label(anchor)}：{title}" + (f"（{count}次）" if count > 1 else "")
                    if docname not in uris:
                        uris[docname] = esc(pathto(docname))
                    links.append(f'<a class="reference internal" href="{uris[docname]}#{esc(anchor)}"'
                                 f' title="{esc(title)}" data-anchor="{esc(anchor)}">{esc(passage_label(anchor))}</a>')
                parts.append(f'<span class="yl-term-chapter"><span class="yl-term-where">{esc(name)}</span> '
                             + " ".join(links) + "</span>")
            out.append("；".join(parts))
            out.append("</dd>")
        out.append("</dl></section>")
    out.append("</section>")
    return "\n".join(out)


# -- the general index, reused between builds -------------------------------------------------

GENINDEX_CACHE = "yl-genindex.pickle"
#: Builders whose ``write_genindex`` is Sphinx's own, and the theme whose ``genindex.html`` uses
#: the entries only in its ``content`` block (what ``templates/genindex.html`` replaces).
GENINDEX_BUILDERS = ("html", "dirhtml")
GENINDEX_THEMES = ("furo",)
_GENINDEX: dict[str, list] = {}  # "kept": the content block of this build, when it is made


def reuse_genindex(app: Sphinx) -> None:
    """Wrap the builder's ``write_genindex``: the page's content block comes from the last build
    when nothing it shows changed (``genindex_signature``), else it is made and kept."""
    builder = app.builder
    if (builder.name not in GENINDEX_BUILDERS or app.config.html_theme not in GENINDEX_THEMES
            or "write_genindex" in vars(builder)):
        return
    original = builder.write_genindex

    def write_genindex() -> None:
        if builder.config.html_split_index:
            original()
            return
        signature = genindex_signature(builder)
        path = Path(builder.env.doctreedir) / GENINDEX_CACHE
        body = read_kept(path, signature)
        if isinstance(body, str):
            logger.info("genindex ", nonl=True)
            builder.handle_page("genindex", {"genindexentries": [], "genindexcounts": [],
                                             "split_index": False, "yl_genindex_html": body},
                                "genindex.html")
            return
        _GENINDEX["kept"] = []
        try:
            original()
            kept = _GENINDEX["kept"]
        finally:
            del _GENINDEX["kept"]
        if len(kept) == 1:  # the template gave its content block: keep it for the next build
            write_kept(path, signature, kept[0])

    builder.write_genindex = write_genindex


def keep_genindex(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """While ``write_genindex`` makes the page, the template hands its content block over."""
    if pagename == "genindex" and "kept" in _GENINDEX and "yl_genindex_html" not in context:
        kept = _GENINDEX["kept"]

        def yl_keep_genindex(body):
            kept.append(str(body))
            return body

        context["yl_keep_genindex"] = yl_keep_genindex


def genindex_signature(builder) -> str:
    """A digest of what the general index's content shows: every index entry of every page
    (``single``, ``pair``, … as the index domain holds them), each page's URI from the index
    page, the language, and the versions of Sphinx, the theme and this template."""
    import furo
    import sphinx

    entries = builder.env.get_domain("index").entries
    template = TEMPLATES / "genindex.html"
    parts = (sphinx.__version__, getattr(furo, "__version__", ""), builder.name,
             builder.config.language, template.stat().st_mtime_ns,
             [(docname, builder.get_relative_uri("genindex", docname)) for docname in sorted(entries)],
             index_entries_digest(builder.env))
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


# -- the terms as index nodes, for what reads nodes ------------------------------------------

def feed_terms_to_search(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """HTML: the search index's entries of a page (``IndexBuilder.feed``, when the page is
    written) are those of its ``index`` nodes. One node at the end of the page holds every entry
    of its terms: the same set of entries the passages' nodes gave, and the HTML writer prints
    no ``index`` node."""
    if getattr(app.builder, "indexer", None) is None:  # no search index (LaTeX, epub, …)
        return
    # The index domain holds the page's entries as read: the terms' and those of the page's own
    # index nodes, which the feed reads again from their nodes into the same set. Taken from
    # there, the entries need not be made again (their category keys need pypinyin's readings,
    # which an incremental build that keeps the index of terms never loads).
    entries = app.env.get_domain("index").entries.get(docname)
    if _pages(app.env).get(docname) and entries:
        doctree.append(addnodes.index(entries=list(entries), inline=False))


def _passages_with_terms(env: BuildEnvironment) -> dict[str, tuple[str, str, list[str]]]:
    """anchor → ``(docname, layer, terms)`` of every passage with terms (made once per build)."""
    _this_build(env)
    if "passages" not in _BUILD:
        _BUILD["passages"] = {anchor: (docname, layer, found)
                              for docname, rows in _pages(env).items()
                              for anchor, layer, found in rows}
    return _BUILD["passages"]  # type: ignore[return-value]


class TermIndexNodes(SphinxPostTransform):
    """Every builder but HTML: each passage with terms gets its ``index`` node back, right
    before it, as the page had it when it was read (``entries``, the terms as ``yl_terms``, the
    passage as ``yl_anchor`` and ``yl_layer``), for the LaTeX index (``PinyinIndexKeys``),
    Texinfo's ``@index``, the XML builders. First of the post-transforms, so that every other
    one sees the page as it was."""

    default_priority = 1

    def is_supported(self) -> bool:
        # the builder as SphinxPostTransform.is_supported reads it (``self.app`` is deprecated)
        return self.env._builder_cls.format != "html"

    def run(self, **kwargs) -> None:
        from conv.sphinx_ext.passage import yl_passage

        table = _passages_with_terms(self.env)
        if not table:
            return
        for passage in list(blocks(self.document, yl_passage)):  # nodes are inserted
            anchor = _anchor_of(passage)
            row = table.get(anchor)
            if row is None or anchor not in passage["ids"]:
                continue
            docname, layer, found = row
            parent = passage.parent
            at = parent.index(passage)
            if at and isinstance(parent[at - 1], addnodes.index) \
                    and parent[at - 1].get("yl_anchor") == anchor:
                continue  # a page read by an earlier version of this module: it has its node
            parent.insert(at, addnodes.index(entries=passage_entries(anchor, found, docname),
                                             inline=False, yl_terms=list(found), yl_anchor=anchor,
                                             yl_layer=layer))


# -- LaTeX: pinyin sort keys for the general index --------------------------------------------

class PinyinIndexKeys(SphinxPostTransform):
    """LaTeX: the terms' ``index`` nodes (``TermIndexNodes``) become
    ``\\index{zhi4 觯@\\spxentry{觯}!…}`` so that ``makeindex`` sorts them by pinyin (the
    sub-entries, the chapters, in reading order)."""

    builders = ("latex",)
    default_priority = 30

    def run(self, **kwargs) -> None:
        from conv.sphinx_ext.passage import yl_passage, yl_text

        works = {w["id"]: i for i, w in enumerate(data.works())}
        chapters = {c["id"]: c["number"] for c in data.chapters()}
        for node in list(blocks(self.document, addnodes.index)):  # the terms' nodes: block level
            if not node.get("yl_terms"):
                continue
            anchor = node["yl_anchor"]
            parts = anchor.split("-")
            sub_key = (f"{works.get(parts[0], 9)}{chapters.get(parts[1], 99):02d}"
                       if len(parts) > 2 else "9")
            sub = _latex_text(where(anchor, self.env))
            tex = "".join(
                r"\index{%s %s@\spxentry{%s}!%s@\spxentry{%s}}"
                % (term_index.pinyin(word).replace(" ", ""), word, word, sub_key, sub)
                for word in dict.fromkeys(node["yl_terms"]))
            raw = nodes.raw("", tex, format="latex")
            parent, at = node.parent, node.parent.index(node)
            passage = parent[at + 1] if at + 1 < len(parent) else None  # it stands right before it
            words = next((c for c in passage.children if isinstance(c, yl_text)), None) \
                if isinstance(passage, yl_passage) else None
            if words is not None:
                node.parent.remove(node)
                words.insert(0, raw)  # inside the passage's words: its page, no paragraph break
            else:
                node.replace_self(raw)


def _latex_text(text: str) -> str:
    """Index text is Han characters and ``·``; anything makeindex or TeX would read is dropped."""
    return "".join(c for c in text if c not in '\\{}@!|"%#&$^_~')
