"""Parallel writing (并行写出) and reading in balanced chunks (均衡分块读取) with ``sphinx-build -j N``.

**Why.** Sphinx's HTML builder writes ``-j N`` in ``N - 1`` forked processes, and the main
process prepares every page for them, one after the other: it resolves the page (post-transforms,
references, toctrees: ``env.get_and_resolve_doctree``) and feeds the search index
(``write_doc_serialized``); the processes only translate and render (``write_doc``). On two cores
that is one forked process, and the main process does most of the work alone: on the
800,000-character corpus it spent 10 s of processor time preparing pages while its one helper
spent under 3 s writing them. Reading has a smaller imbalance: Sphinx cuts the pages into chunks
by count (45 pages: three chunks of 15 for two processes), so a third chunk is read alone while
the other core waits.

**Writing.** ``ParallelHTMLBuilder`` is Sphinx's ``html`` builder with its own ``write_documents``
(documented as overridable). It writes one page in the main process first (the smallest:
templates compiled, navigation and apparatus tables computed once, before any fork, as Sphinx
warms up with its first page), then cuts the other pages into ``CHUNKS_PER_PROCESS × N`` chunks of
equal weight (the size of the pickled doctree, not the number of pages: a chapter page weighs a
hundred notes pages) and has ``sphinx.util.parallel.ParallelTasks`` run them in ``N`` forked
processes, heaviest first, each process taking the next chunk when it is done (so a page slower
than its weight says delays little). A process does *everything* for its pages: resolve,
``write_doc_serialized``, ``write_doc``; the HTML files it writes are final.

What ``write_doc_serialized`` leaves in the builder for ``finish()``, which a forked process
cannot leave in the main one, is sent back and merged (``Written``):

- the search index's part of each page. ``IndexBuilder.feed`` writes only the page's entries of
  ``_titles``, ``_filenames``, ``_all_titles``, ``_index_entries`` and adds the page to sets of
  ``_mapping`` and ``_title_mapping`` (word → pages). Each chunk feeds the indexer with these
  dictionaries emptied (whatever ``feed`` is: ``conv.sphinx_ext.search.language`` gives it a faster one),
  and the main process puts the pages' entries back in sorted order (the order a serial build
  feeds them: ``searchindex.js`` lists an index entry's pages in the order of ``_index_entries``)
  and unites the word sets (their order does not matter: the index is dumped sorted);
- the images each page registers (``builder.images``, copied by ``finish()``).

Nothing else a page's writing changes is read after it: the extension's own state is made in the
read phase or kept per page (``navcache``: one file per page; the index of terms,
``backmatter.terms``, and the search index, ``search_entries``: made in ``finish()`` by the main
process). Warnings logged in a process are handed to the main process by
``ParallelTasks``, as in Sphinx's own parallel writing; with ``-W`` they fail the build. While
the pages are written the heap is set aside from the cyclic collector (``freeze_for_writing``).

**Reading.** ``_read_parallel`` is Sphinx's, but with ``READ_CHUNKS_PER_PROCESS × N`` chunks of
equal source size: on two cores two chunks that end together, and one environment fewer to send
back and merge. The heap is frozen across those forks too (the tables loaded, the environment so
far), so the processes' collections do not walk it.

**No cyclic collector in a chunk's process.** A forked process reads or writes its chunk, sends
its result back and ends: what it makes lives at most as long as it does. Doctrees are cycles
(each node refers to its parent), so with the collector on, each process ran a young collection
every 200,000 new containers (``conv.sphinx_ext.speed.preload``) and, at its end, one more over
everything it had made (0.5–0.8 s each): on the whole 仪礼 about 5 s of the cold build's 45 s of
processor time. Each chunk's process turns the collector off as it starts (``without_collector``);
reference counting frees what it can, the process's end the rest. With the collector also paused
through the conversion and the heap frozen after it (``preload``), the cold build of the whole
仪礼 went from 32.0 to 27.9 s, its processor time from 45.0 to 36.7 s (medians of three runs,
alternated); the largest process grew from about 640 to 810 MB (max RSS).

**When.** Only when Sphinx would write in parallel (``-j N``, N > 1, every extension
parallel-write-safe) and there are at least ``MIN_PAGES`` pages; otherwise Sphinx's own
``write_documents``, serial or not. ``conv.sphinx_ext.speed.preload`` still reads and writes a small
rebuild serially (``app.parallel`` is 1 then). ``dirhtml``, ``singlehtml``, LaTeX and the other
builders are Sphinx's own. The output is the same bytes with ``-j N`` and ``-j 1``
(``tests/test_parallel_write.py``).

Measured on this machine (2 cores; the benchmark's 45 pages, 800,000 characters; clean build,
``-j auto``; medians of 9 runs with nothing else running): 19.5 s → 14.3 s in all, writing
10.2 s → 6.2 s (the main process's processor time while writing: 9.4 s → 0.8 s), reading
7.4 s → 6.4 s; the processor time of all processes 26.8 s → 24.0 s (each page is resolved where it
is written, and no collector walks the inherited heap).
"""
from __future__ import annotations

import gc
import heapq
import multiprocessing
import os
import pickle
from dataclasses import dataclass, field

from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.locale import __
from sphinx.util import logging
from sphinx.util.build_phase import BuildPhase
from sphinx.util.display import status_iterator
from sphinx.util.parallel import ParallelTasks
from conv.sphinx_ext.speed.versions import compatible

logger = logging.getLogger(__name__)

#: Chunks per process when writing: more chunks balance better, each costs a fork and a merge.
CHUNKS_PER_PROCESS = 2
#: Chunks per process when reading: each sends the whole environment back to be merged.
READ_CHUNKS_PER_PROCESS = 1
#: Fewer pages than this are left to Sphinx's own parallel writing.
MIN_PAGES = 4
#: The search index's dictionaries ``IndexBuilder.feed`` fills per page (docname → value).
PAGE_FIELDS = ("_titles", "_filenames", "_all_titles", "_index_entries")
#: Those it fills per word (stemmed word → set of docnames).
WORD_FIELDS = ("_mapping", "_title_mapping")


def setup_parallel(app: Sphinx) -> None:
    if not compatible("parallel writing"):
        return
    app.add_builder(ParallelHTMLBuilder, override=True)
    app.connect("write-started", freeze_for_writing)
    app.connect("build-finished", unfreeze_after_writing)


class ParallelHTMLBuilder(StandaloneHTMLBuilder):
    """Sphinx's ``html`` builder; with ``-j N`` each of N processes writes whole pages, and the
    pages are read in chunks of equal size (see the module)."""

    #: Whether this build froze the heap for writing (``freeze_for_writing``), until it ends.
    yl_frozen_for_writing = False

    def write_documents(self, docnames) -> None:
        nproc = self._app.parallel
        if not self.parallel_ok or nproc < 2 or len(docnames) < MIN_PAGES:
            super().write_documents(docnames)
            return
        write_in_parallel(self, sorted(docnames), nproc)

    def _read_parallel(self, docnames: list[str], nproc: int) -> None:
        read_in_parallel(self, docnames, nproc)


# -- writing ------------------------------------------------------------------------------------

@dataclass
class Written:
    """What writing some pages left in the builder that ``finish()`` needs (see the module)."""

    pages: dict[str, dict[str, object]] = field(default_factory=dict)  # docname → field → value
    words: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # field → word → pages
    images: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # docname → (URI, file)


def write_in_parallel(builder: StandaloneHTMLBuilder, docnames: list[str], nproc: int) -> None:
    """Write ``docnames``: the lightest in this process, the others in ``nproc`` forked ones."""
    weights = doctree_weights(builder, docnames)
    first = min(docnames, key=lambda docname: (weights[docname], docname))
    written = [write_pages(builder, [first])]  # warms up caches and templates before the fork
    rest = [docname for docname in docnames if docname != first]
    chunks = balanced_chunks(rest, weights, nproc * CHUNKS_PER_PROCESS)
    logger.verbose("parallel writing: %d pages in %d chunks, %d processes",
                   len(docnames), len(chunks), nproc)
    progress = status_iterator(chunks, __('writing output... '), 'darkgreen', len(chunks),
                               builder.config.verbosity)

    def write_chunk(chunk: list[str]) -> Written:
        return write_pages(builder, chunk)

    def chunk_done(chunk: list[str], result: Written) -> None:
        written.append(result)
        next(progress)

    gc.freeze()  # what preparing and the first page made (see freeze_for_writing)
    run_chunks(write_chunk, chunks, chunk_done, nproc)
    logger.info('')
    merge_written(builder, written)
    for docname in docnames:  # Sphinx's writing uses them up
        builder.env._write_doc_doctree_cache.pop(docname, None)


def write_pages(builder: StandaloneHTMLBuilder, docnames: list[str]) -> Written:
    """Resolve, index and write each page as Sphinx does (``sphinx.builders._write_docname``);
    what they leave for ``finish()`` is returned, not kept in the builder."""
    indexer = builder.indexer
    kept = _empty_indexer(indexer)
    images = builder.images
    written = Written()
    try:
        for docname in docnames:
            before = len(images)
            builder.phase = BuildPhase.RESOLVING
            doctree = builder.env.get_and_resolve_doctree(docname, builder, tags=builder.tags)
            builder.phase = BuildPhase.WRITING
            builder.write_doc_serialized(docname, doctree)
            builder.write_doc(docname, doctree)
            written.images[docname] = list(images.items())[before:]  # the dict only grows
    finally:
        if indexer is not None:
            _collect_index(indexer, written)
            for name, value in kept.items():
                setattr(indexer, name, value)
    return written


def _empty_indexer(indexer) -> dict[str, dict]:
    """Give ``indexer`` empty dictionaries to feed; its own are returned."""
    if indexer is None:
        return {}
    kept = {name: getattr(indexer, name) for name in (*PAGE_FIELDS, *WORD_FIELDS)}
    for name in kept:
        setattr(indexer, name, {})
    return kept


def _collect_index(indexer, written: Written) -> None:
    for name in PAGE_FIELDS:
        for docname, value in getattr(indexer, name).items():
            written.pages.setdefault(docname, {})[name] = value
    for name in WORD_FIELDS:
        written.words[name] = getattr(indexer, name)


def merge_written(builder: StandaloneHTMLBuilder, written: list[Written]) -> None:
    """Put what the pages left into the builder, as if they had been written here in sorted
    order (see the module)."""
    pages: dict[str, dict[str, object]] = {}
    images: dict[str, list[tuple[str, str]]] = {}
    for part in written:
        pages.update(part.pages)
        images.update(part.images)
    for docname in sorted(images):
        for uri, filename in images[docname]:
            builder.images.setdefault(uri, filename)
    indexer = builder.indexer
    if indexer is None:
        return
    for docname in sorted(pages):
        for name, value in pages[docname].items():
            getattr(indexer, name)[docname] = value
    for part in written:
        for name, words in part.words.items():
            mapping = getattr(indexer, name)
            for word, found in words.items():
                if word in mapping:
                    mapping[word].update(found)
                else:
                    mapping[word] = found


def freeze_for_writing(app: Sphinx, builder) -> None:
    """Before a parallel write, the objects alive (the environment read and merged) are set aside
    from the cyclic collector until the build ends (冻结堆).

    A forked process inherits the environment and the doctrees loaded; every collection of its
    oldest generation would walk them all and write to each one's header, copying their memory
    pages for nothing: they live as long as the process. ``gc.freeze`` before a fork is what
    Python's documentation advises (``write_in_parallel`` freezes again right before the fork,
    for what preparing and the first page made). The main process is spared those walks too while
    it prepares and finishes (a third of a second on the large corpus). ``build-finished`` gives
    the objects back, so a process that runs several builds still collects them
    (``conv.sphinx_ext.speed.preload`` does the same for a loaded environment).
    """
    if isinstance(builder, ParallelHTMLBuilder) and builder.parallel_ok:
        gc.freeze()
        builder.yl_frozen_for_writing = True


def unfreeze_after_writing(app: Sphinx, exception: Exception | None) -> None:
    builder = app.builder
    if isinstance(builder, ParallelHTMLBuilder) and builder.yl_frozen_for_writing:
        builder.yl_frozen_for_writing = False
        gc.unfreeze()


# -- reading ------------------------------------------------------------------------------------

def read_in_parallel(builder: StandaloneHTMLBuilder, docnames: list[str], nproc: int) -> None:
    """Sphinx's ``Builder._read_parallel`` (9.0) with chunks of equal source size."""
    weights = source_weights(builder, docnames)
    chunks = balanced_chunks(docnames, weights, nproc * READ_CHUNKS_PER_PROCESS)
    progress = status_iterator(chunks, __('reading sources... '), 'purple', len(chunks),
                               builder.config.verbosity)
    for docname in docnames:  # clear all outdated pages at once
        builder.events.emit('env-purge-doc', builder.env, docname)
        builder.env.clear_doc(docname)

    def read_chunk(chunk: list[str]) -> bytes:
        builder.env._app = builder._app
        for docname in chunk:
            builder.read_doc(docname, _cache=False)
        return pickle.dumps(builder.env, pickle.HIGHEST_PROTOCOL)  # the environment goes back

    def merge(chunk: list[str], other: bytes) -> None:
        builder.env.merge_info_from(chunk, pickle.loads(other), builder._app)
        next(progress)

    gc.freeze()
    try:
        run_chunks(read_chunk, chunks, merge, nproc)
    finally:
        gc.unfreeze()
    logger.info('')


def run_chunks(work, chunks: list[list[str]], done, nproc: int) -> None:
    """``work(chunk)`` for each chunk in ``nproc`` forked processes (``ParallelTasks``), heaviest first, and
    ``done(chunk, result)`` here. When this process fails or is interrupted (Ctrl-C reaches the whole process
    group), every process still running is killed before the error goes on: ``ParallelTasks.terminate`` stops
    at a task whose result it was handing over (a ``KeyError``, raised in place of the interrupt), and a process
    left behind, blocked sending back its own ``KeyboardInterrupt``, held the interpreter's exit, which joins it,
    for ever. The interrupt goes on as such."""
    tasks = ParallelTasks(nproc)
    try:
        for chunk in start_order(chunks, nproc):
            tasks.add_task(without_collector(work), chunk, done)
        tasks.join()
    except BaseException as error:
        for child in multiprocessing.active_children():
            child.kill()
            child.join()
        if isinstance(error.__context__, KeyboardInterrupt) and not isinstance(error, KeyboardInterrupt):
            raise error.__context__ from None  # the interrupt, not terminate's KeyError while handling it
        raise


def without_collector(work):
    """``work`` in a forked chunk's process, the cyclic collector off for the rest of its short life
    (see the module)."""
    def uncollected(chunk):
        gc.disable()
        return work(chunk)
    return uncollected


# -- chunks -------------------------------------------------------------------------------------

def doctree_weights(builder: StandaloneHTMLBuilder, docnames: list[str]) -> dict[str, int]:
    """How much writing each page costs, roughly: the size of its pickled doctree (its source's
    when there is none)."""
    fallback = source_weights(builder, docnames)
    weights = {}
    for docname in docnames:
        try:
            weights[docname] = os.path.getsize(builder.doctreedir / f"{docname}.doctree")
        except OSError:
            weights[docname] = fallback[docname]
    return weights


def source_weights(builder: StandaloneHTMLBuilder, docnames: list[str]) -> dict[str, int]:
    """How much reading each page costs, roughly: the size of its source (1 when unknown)."""
    weights = {}
    for docname in docnames:
        try:
            weights[docname] = os.path.getsize(builder.env.doc2path(docname))
        except OSError:
            weights[docname] = 1
    return weights


def balanced_chunks(docnames: list[str], weights: dict[str, int], count: int) -> list[list[str]]:
    """At most ``count`` chunks of about equal weight, heaviest first: each page, heaviest first,
    goes to the lightest chunk so far (longest processing time first). Each chunk is sorted."""
    heap = [(0, index, []) for index in range(min(count, len(docnames)))]
    for docname in sorted(docnames, key=lambda name: (-weights[name], name)):
        weight, index, chunk = heapq.heappop(heap)
        chunk.append(docname)
        heapq.heappush(heap, (weight + weights[docname], index, chunk))
    chunks = sorted(heap, key=lambda item: (-item[0], item[1]))
    return [sorted(chunk) for _weight, _index, chunk in chunks if chunk]


def start_order(chunks: list[list[str]], nproc: int) -> list[list[str]]:
    """The order to give ``ParallelTasks`` the chunks (heaviest first) so that they start
    heaviest first: it starts the first ``nproc`` at once, then the waiting ones last given first
    (``dict.popitem``). Another order would only cost time, never change the output."""
    return chunks[:nproc] + chunks[nproc:][::-1]
