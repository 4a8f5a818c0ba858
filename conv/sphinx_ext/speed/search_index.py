"""The search index, kept between builds (检索索引留存): an incremental build rewrites the terms of
the pages it writes, not the whole index.

Sphinx (9.0) starts every HTML build by parsing the last ``searchindex.js`` (7 MB of JSON on the
whole 仪礼) into a set of page names per term, removes the pages it will write again, feeds it
those pages, and at the end turns every set back into sorted page numbers and writes the whole
file again: on an incremental build after one editorial note changed, about a third of the CPU
time, for the terms of three pages.

Here the index as it was written (the frozen data: ``{"docnames", "terms", "titleterms", …}``)
is kept in ``yl-search-index.pickle`` in the doctree directory, under the signature of the
``searchindex.js`` it was written as (its size and modification time, with the package's files
and the libraries' versions: ``conv.sphinx_ext.speed.kept``), so it is used only while that file
is the one it describes. A build that finds it valid does not parse ``searchindex.js``: the
indexer starts with the titles and file names of the pages it keeps and no terms, is fed the
pages it writes as always, and its frozen data is merged into the kept one (:func:`merge_terms`:
every kept term loses the pages written again or gone, gains those pages' own). The titles, the
index entries (``conv.sphinx_ext.speed.search_entries``) and the objects are frozen by Sphinx as
always. The result is the index a clean build writes (``tests/test_search_kept.py``); with no kept
data, or a stale one, Sphinx's own load runs.

The file is written as Sphinx's ``js_index`` writes it, faster (:func:`index_text`).

Private API (Sphinx 9.0): ``StandaloneHTMLBuilder.load_indexer``, ``dump_search_index``,
``indexer_format`` (``sphinx.search._JavaScriptIndex``), ``searchindex_filename`` and ``IndexBuilder``'s ``_titles``, ``_filenames``,
``_all_titles``, ``_mapping``, ``_title_mapping`` and ``freeze``.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.locale import __
from sphinx.search import _JavaScriptIndex  # private: Sphinx 9.0
from sphinx.util.display import progress_message

from conv.sphinx_ext.speed.kept import file_state, read_kept, signature, write_kept
from conv.sphinx_ext.speed.search_splice import (
    assemble, index_parts, page_terms, plain_keys, splice_section, term_changes,
)
from conv.sphinx_ext.speed.versions import compatible

SEARCH_INDEX_CACHE = "yl-search-index.pickle"
#: The terms each page held when it was last written, one file per page (``{docname: token}`` in
#: the kept index names the file of the build that wrote it).
PAGE_TERMS_DIR = "yl-search-pages"
#: The frozen data's keys holding ``term → page number | [page numbers]``.
TERM_KEYS = ("terms", "titleterms")


def merge_terms(kept: dict, fed: dict, old_names, new_names, dropped: set[str]) -> dict:
    """``term → page number | sorted page numbers`` of the kept index (numbered by ``old_names``)
    without the pages in ``dropped``, joined with ``fed``'s (numbered by ``new_names``, the pages
    fed in this build): what ``IndexBuilder.get_terms`` gives for the pages of both.

    A term on one page is that page's number, on several a sorted list (Sphinx's format); a term
    left on no page is left out."""
    position = {name: number for number, name in enumerate(new_names)}
    same = tuple(old_names) == tuple(new_names)
    renumber = None if same else [position.get(name) for name in old_names]
    gone = {number for number, name in enumerate(old_names) if name in dropped or name not in position}
    merged: dict = {}
    for term, pages in kept.items():
        if type(pages) is int:
            if pages in gone:
                continue
            merged[term] = pages if same else renumber[pages]
            continue
        if gone or not same:
            pages = [page if same else renumber[page] for page in pages if page not in gone]
            if not pages:
                continue
            if not same:
                pages.sort()
            merged[term] = pages[0] if len(pages) == 1 else pages
        else:
            merged[term] = pages
    for term, pages in fed.items():
        before = merged.get(term)
        if before is None:
            merged[term] = pages
            continue
        joined = set([before] if type(before) is int else before)
        joined.update([pages] if type(pages) is int else pages)
        merged[term] = sorted(joined)
    return merged


def in_order(terms: dict) -> dict:
    """``terms`` with its keys in sorted order (itself when they are: a kept index merged with a
    few pages' terms is, but for the new terms at its end, and sorting an ordered list is cheap)."""
    keys = sorted(terms)
    return terms if keys == list(terms) else {key: terms[key] for key in keys}


def index_text(frozen: dict) -> str:
    """``Search.setIndex({…})`` as Sphinx's ``js_index.dumps(frozen)`` writes it (``json.dumps`` with
    ``sort_keys``), but the terms: ``json.dumps`` sorts a dictionary's items — pairs of a term and its
    pages, about as slow as writing the 180,000 terms of the whole 仪礼 —, the terms are put in order
    of their keys alone (:func:`in_order`) and written as they are."""
    return assemble(index_parts(frozen | {"terms": in_order(frozen["terms"])}))[0]


def _index_path(builder) -> Path:
    return Path(builder.outdir) / builder.searchindex_filename


def _signature(builder, state):
    indexer = builder.indexer
    return signature("search index", state, builder.indexer_format.__class__.__qualname__,
                     indexer.lang.lang, indexer._env_version)


def load_kept_index(builder, original, docnames) -> None:
    """``load_indexer``: the kept index instead of parsing ``searchindex.js``, when it describes it."""
    path = _index_path(builder)
    state = file_state(path)
    kept = read_kept(Path(builder.doctreedir) / SEARCH_INDEX_CACHE, _signature(builder, state)) if state else None
    text = _kept_text(path, kept)
    if text is None:
        builder.yl_search_base = None
        return original(docnames)
    indexer = builder.indexer
    names = kept["docnames"]
    keep = set(builder.env.all_docs).difference(docnames)
    titles, filenames, all_titles = {}, {}, {name: [] for name in names}
    for title, places in kept["alltitles"].items():
        for number, title_id in places:
            all_titles[names[number]].append((title, title_id))
    for number, name in enumerate(names):
        if name in keep:
            titles[name] = kept["titles"][number]
            filenames[name] = kept["filenames"][number]
    indexer._titles, indexer._filenames = titles, filenames
    indexer._all_titles = {name: all_titles[name] for name in titles}
    indexer._mapping, indexer._title_mapping = {}, {}
    builder.yl_search_base = (kept, text, keep)


def _kept_text(path: Path, kept) -> str | None:
    """The text of ``searchindex.js`` when ``kept`` describes it: its terms where ``kept`` says."""
    if not isinstance(kept, dict) or "places" not in kept:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    for key, (start, end) in kept["places"].items():
        head = json.dumps(key) + ":"
        if text[start - len(head):start] != head or text[start:start + 1] != "{" or text[end - 1:end] != "}":
            return None
    return text


def dump_merged_index(builder, original) -> None:
    """``dump_search_index``: the terms of the pages fed changed in the kept text (or merged into
    the kept index, or, with none, the whole index frozen as Sphinx freezes it); written as Sphinx
    writes it, then kept with the terms of each page written."""
    indexer = builder.indexer
    if indexer is None:
        return original()
    base = getattr(builder, "yl_search_base", None)
    pages_dir = Path(builder.doctreedir) / PAGE_TERMS_DIR
    with progress_message(__("dumping search index in %s") % indexer.label()):
        indexer.prune(builder.env.all_docs)
        frozen = indexer.freeze()
        names = frozen["docnames"]
        written = [name for name in names if base is None or name not in base[2]]
        new_pages = {key: page_terms(frozen[key], names, written) for key in TERM_KEYS}
        tokens, plain, spliced = {}, None, None
        if base is not None:
            kept, text, keep = base
            rewritten = set(kept["docnames"]) - keep  # written again or gone
            tokens = {name: token for name, token in kept["pages"].items() if name not in rewritten}
            spliced = _splice(kept, text, names, rewritten, new_pages, pages_dir)
            if spliced is None:
                for key in TERM_KEYS:
                    start, end = kept["places"][key]
                    frozen[key] = merge_terms(json.loads(text[start:end]), frozen[key], kept["docnames"], names,
                                              rewritten)
            else:
                plain = kept["plain"]
        frozen["terms"] = in_order(frozen["terms"])  # kept in order: the next build's merge keeps it
        parts = index_parts(frozen)
        if spliced is not None:
            parts.update(spliced)
        if plain is None:
            plain = all(plain_keys(frozen[key]) for key in TERM_KEYS)
        text, places = assemble(parts)
        path = _index_path(builder)
        temporary = path.with_name(f"{path.name}.tmp")
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    state = file_state(path)
    if state is not None:
        token = f"{os.getpid()}-{time.time_ns()}"
        for name in written:
            _write_page_terms(pages_dir, name, token, tuple(new_pages[key][name] for key in TERM_KEYS))
            tokens[name] = token
        small = {key: frozen[key] for key in ("docnames", "titles", "filenames", "alltitles")}
        write_kept(Path(builder.doctreedir) / SEARCH_INDEX_CACHE, _signature(builder, state),
                   small | {"places": {key: places[key] for key in TERM_KEYS}, "plain": plain, "pages": tokens})


def _splice(kept: dict, text: str, names, rewritten: set, new_pages: dict, pages_dir: Path) -> dict | None:
    """The terms' values of the kept text changed at the pages written again (``search_splice``),
    or ``None`` when that cannot be: the list of pages changed, a page's old terms are not kept."""
    if not kept["plain"] or tuple(kept["docnames"]) != tuple(names):
        return None
    old = {}
    for name in rewritten:
        terms = _read_page_terms(pages_dir, name, kept["pages"].get(name))
        if terms is None:
            return None
        old[name] = terms
    numbers = {name: number for number, name in enumerate(names)}
    bodies = {}
    for index, key in enumerate(TERM_KEYS):
        changes = term_changes({name: terms[index] for name, terms in old.items()}, new_pages[key], numbers)
        start, end = kept["places"][key]
        bodies[key] = splice_section(text[start:end], changes)
        if bodies[key] is None:
            return None
    return bodies


def _page_file(pages_dir: Path, name: str) -> Path:
    return pages_dir / (hashlib.sha256(name.encode("utf-8")).hexdigest()[:24] + ".pickle")


def _page_signature(name: str, token: str):
    return signature("search page terms", name, token)


def _read_page_terms(pages_dir: Path, name: str, token) -> tuple | None:
    """The terms (and title terms) page ``name`` held when the build ``token`` wrote it."""
    if token is None:
        return None
    terms = read_kept(_page_file(pages_dir, name), _page_signature(name, token))
    return terms if isinstance(terms, tuple) else None


def _write_page_terms(pages_dir: Path, name: str, token: str, terms: tuple) -> None:
    write_kept(_page_file(pages_dir, name), _page_signature(name, token), terms)


def wrap_search_index(app: Sphinx) -> None:
    builder = app.builder
    if not builder.format == "html" or not getattr(builder, "indexer_dumps_unicode", False) \
            or "load_indexer" in vars(builder) or type(builder.indexer_format) is not _JavaScriptIndex:
        return
    load, dump = builder.load_indexer, builder.dump_search_index
    builder.load_indexer = lambda docnames: load_kept_index(builder, load, docnames)
    builder.dump_search_index = lambda: dump_merged_index(builder, dump)


def setup_search_index(app: Sphinx) -> None:
    if compatible("search index"):
        app.connect("builder-inited", wrap_search_index)
