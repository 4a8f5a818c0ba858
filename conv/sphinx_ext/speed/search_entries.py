"""The search index's entries (检索索引条目) of the pages an incremental build does not write.

Works around Sphinx 9.0, which loads the last build's ``searchindex.js`` but not its index
entries back. Private API: ``IndexBuilder._index_entries`` and ``_titles`` (Sphinx 9.0).
"""
from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from conv.sphinx_ext.speed.kept import Signature, read_kept, signature, write_kept
from conv.sphinx_ext.speed.versions import compatible


def index_entries_signature(builder) -> Signature:
    """The signature of every page's index entries as the index domain holds them (computed once
    per build, on the builder, when the pages have been read: the search index's entries and the
    general index, ``conv.sphinx_ext.speed.genindex``, are made from them)."""
    made = getattr(builder, "yl_index_entries_signature", None)
    if made is None:
        made = signature(sorted(builder.env.get_domain("index").entries.items()))
        builder.yl_index_entries_signature = made
    return made


SEARCH_ENTRIES_CACHE = "yl-search-entries.pickle"


def restore_index_entries(app: Sphinx) -> list:
    """The index entries (``indexentries`` of ``searchindex.js``) of the pages an incremental
    build does not write again.

    Sphinx (9.0) loads the last build's ``searchindex.js`` and feeds it the pages it writes, but
    it does not load the index entries back: after an incremental build the search index would
    hold only the written pages' entries (the index of terms puts one on every passage with a
    term). They are put back here, before the index is dumped (``html-collect-pages``): the
    entries of the last build, kept in ``yl-search-entries.pickle`` in the doctree directory
    under the signature of the environment's index entries (``index_entries_signature``: with the
    package's files and the libraries' versions, ``conv.sphinx_ext.speed.kept``), when none of
    them changed; else made from the entries the environment keeps for each page, the
    way ``IndexBuilder.feed`` makes them from the page's ``index`` nodes. Either way the search
    index is the one a clean build writes.
    """
    indexer = getattr(app.builder, "indexer", None)
    entries = getattr(indexer, "_index_entries", None)
    titles = getattr(indexer, "_titles", None)
    if not isinstance(entries, dict) or not isinstance(titles, dict):
        return []
    made_from = index_entries_signature(app.builder)
    path = Path(app.env.doctreedir) / SEARCH_ENTRIES_CACHE
    missing = [docname for docname in titles if docname not in entries]
    kept = read_kept(path, made_from) if missing else None
    kept = kept if isinstance(kept, dict) else None
    domain_entries = app.env.get_domain("index").entries
    splits: dict[tuple[str, str], tuple[str, ...] | None] = {}  # the same entries recur
    for docname in missing:
        metadata = app.env.metadata.get(docname, {})
        if "no-search" in metadata or "nosearch" in metadata:
            entries[docname] = []
        elif kept is not None and docname in kept:
            entries[docname] = kept[docname]
        else:
            entries[docname] = search_index_entries(domain_entries.get(docname, ()), splits)
    # in the order a clean build feeds them (Sphinx writes the pages in sorted order): the
    # index lists each entry's pages in this order
    ordered = sorted(entries.items())
    entries.clear()
    entries.update(ordered)
    # kept for the next build: unless they are those it already keeps (the pages fed in this
    # build may differ from what their index entries give, when a post-transform adds some)
    if kept is None or kept.keys() != entries.keys() or any(
            kept[docname] != found for docname, found in entries.items() if docname not in missing):
        write_kept(path, made_from, dict(entries))
    return []


_UNSPLIT = object()


def search_index_entries(index_entries, splits: dict | None = None) -> list[tuple[str, str, str]]:
    """``IndexBuilder.feed``'s entries of a page, from its ``index`` nodes' entries."""
    from sphinx.util.index_entries import split_index_msg

    splits = {} if splits is None else splits
    found: set[tuple[str, str, str]] = set()
    for entry_type, value, target_id, main, _category_key in index_entries:
        result = splits.get((entry_type, value), _UNSPLIT)
        if result is _UNSPLIT:
            try:
                result = tuple(split_index_msg(entry_type, value))
            except ValueError:
                result = None
            splits[entry_type, value] = result
        if result is None:
            continue
        target_id = target_id or ""
        if entry_type in {"see", "seealso"}:
            found.add((result[0], target_id, main))
        found.update((x, target_id, main) for x in result)
    return sorted(found)


def setup_search_entries(app: Sphinx) -> None:
    if compatible("search index entries"):
        app.connect("html-collect-pages", restore_index_entries)
