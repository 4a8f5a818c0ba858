"""Before a read (预载): the cyclic collector's thresholds, the pickled environment loaded without
the collector, small reads in the main process, the converter's tables before a fork.

**The collector runs less often during a build.** Python's cyclic garbage collector starts a
young-generation collection every 700 new container objects and an older one every 10 of those.
Reading and writing the whole 仪礼 makes millions of doctree nodes, each a container with a
reference to its parent (a cycle), so the collector ran thousands of times, walking ever more
surviving objects: about a sixth of the CPU time of a large build. From ``config-inited`` to
``build-finished`` the thresholds are ``GC_THRESHOLDS`` (a young collection every 200,000 new
containers, as build tools such as mypy set them); then they are set back. Garbage is collected
all the same, in fewer, larger collections: on the benchmark's large corpus (805,000 characters,
``-j auto``, two cores) the build went from about 10.2 to 8.5 s and the largest process grew by
about 5 MB (327 → 332 MB max RSS); with ``-j 1``, 18.2 → 15.2 s, 462 → 493 MB.

**The environment is loaded, or the seeds converted, then set aside from the cyclic collector.**
An incremental build starts by unpickling the environment of the last one (millions of small
objects on the whole 仪礼); a cold build starts by converting the seeds in this process
(``conv.sphinx_ext.seeds``: the converter's tables and pages, built without the collector,
``conv.nogc``). Python's cyclic garbage collector would walk the growing heap again and again
while it is built; and the first collection after a pause walks everything made during it (half
a second after the whole 仪礼's conversion), then every full collection of the build walks it
again (a third of the time of a rebuild after one notes page changed: about a second). What is
alive then is long-lived and freed only at the end. So the collector is paused from the
configuration (``config-inited``, before the seeds are converted) until the builder is made
(``builder-inited``); there every object then alive is moved to the collector's permanent
generation (``gc.freeze``), which later collections skip — also in the processes ``-j N`` forks,
whose pages are then not copied by the collector's bookkeeping. ``build-finished`` gives the
objects back to the collector (``gc.unfreeze``), so a process that runs several builds (tests,
``sphinx-autobuild``) still collects them. Reference counting frees everything as always.

**A small change stays in the main process.** With ``sphinx-build -j N`` Sphinx reads the changed
pages in forked processes, however few they are; each process sends the *whole* environment back
pickled (7 MB for the whole 仪礼), and the main process unpickles and merges it. For one notes
page that round trip costs about half a second, several times the reading itself (which has
nothing to run in parallel with). So when the pages to read are one page, or less than
``SERIAL_READ_BYTES`` of source together (a fork's round trip costs about what reading 100 kB of
MyST does on the whole 仪礼), they are read serially: ``app.parallel`` is 1 while they are read.
It stays 1 for writing too when the pages to write are few (``SERIAL_WRITE_PAGES``: the pages
read, the chapter pages their notes are shown on — ``conv.sphinx_ext.refs.ednotes.pages_to_write`` —
and those the builder found out of date for other reasons, ``record_outdated``): with ``-j 2``
Sphinx writes in one forked process after the main one has prepared every page, so a handful of
pages gains nothing from the fork. ``write-started`` sets it back in any case. The output is the
same either way: the extension is parallel-safe, and its merge functions give what a serial read
gives.

**The tables load before the fork.** The tables the extension needs while it reads a page —
OpenCC's dictionaries (folding), the 《广韵》 of tshet-uinh (the glosses' positions), pypinyin's
dictionary and the list of terms (the index of terms), the search fold table — load lazily, on
first use. With ``-j N`` every chunk of pages would load them again. Loaded once in the main
process, before the fork, they are shared by every chunk (copy-on-write).

**The heap is frozen at exit.** When the process ends, Python's finalization runs full cyclic
collections over everything still alive: on the seeds' edition a third of a second after the
build has finished. An ``atexit`` hook — it runs only when the interpreter is about to end,
after the build — moves every object to the collector's permanent generation first
(``gc.freeze``), so those collections have nothing to walk; reference counting and the
finalization of the modules free the memory as before.

Nothing here changes a result: each call is one the reading makes anyway, on a real gloss, word
and character.
"""
from __future__ import annotations

import atexit
import gc
import os
from dataclasses import dataclass

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from conv import datafiles as data
from conv import normalize
from conv.analyses import terms
from conv.sphinx_ext.refs.ednotes import pages_to_write
from conv.sphinx_ext.search.language import split_text
from conv.sphinx_ext.speed.versions import compatible
from conv.sphinx_ext.text.glosses import parse_gloss

#: The collector's thresholds during a build (generation 0, 1, 2; Python's default: 700, 10, 10).
GC_THRESHOLDS = (200_000, 20, 20)
#: Pages to read that total less than this (bytes of source) are read in the main process.
SERIAL_READ_BYTES = 128 * 1024
#: After such a read, at most this many pages to write are written in the main process too.
SERIAL_WRITE_PAGES = 8



@dataclass
class Collector:
    """The cyclic collector as this build found it (回收器状态), on the application as
    ``app.yl_collector``: it is set aside at ``config-inited``, before the builder and the
    environment exist, and given back at ``build-finished``."""

    thresholds: tuple[int, ...] | None = None  # the thresholds before the build
    enabled: bool | None = None  # whether the collector ran before the pause
    frozen: bool = False  # the loaded environment was frozen (gc.freeze)


@dataclass
class SmallRead:
    """A small change read (and maybe written) in the main process (小改动串行), on the builder as
    ``builder.yl_small_read``."""

    parallel: int | None = None  # the -j set aside while a small read runs serially
    outdated: set[str] | None = None  # the pages the builder found out of date (None: all, or unknown)


def collector(app: Sphinx) -> Collector:
    state = getattr(app, "yl_collector", None)
    if state is None:
        state = app.yl_collector = Collector()
    return state


def small_read(builder) -> SmallRead:
    state = getattr(builder, "yl_small_read", None)
    if state is None:
        state = builder.yl_small_read = SmallRead()
    return state


def setup_preload(app: Sphinx) -> None:
    if not compatible("preload"):
        return
    atexit.unregister(gc.freeze)  # once per process, however many builds it runs
    atexit.register(gc.freeze)
    app.connect("config-inited", raise_gc_thresholds, priority=100)
    app.connect("build-finished", restore_gc_thresholds)
    app.connect("config-inited", pause_gc_for_environment, priority=300)  # before the conversion (400)
    app.connect("builder-inited", freeze_environment, priority=100)
    app.connect("builder-inited", record_outdated)
    app.connect("build-finished", unfreeze_environment)
    app.connect("env-before-read-docs", read_small_changes_serially, priority=400)
    app.connect("env-before-read-docs", preload_before_fork)
    app.connect("env-check-consistency", restore_parallel_unless_few_pages, priority=900)
    app.connect("write-started", restore_parallel, priority=100)


def raise_gc_thresholds(app: Sphinx, config) -> None:
    """From the configuration on: collect less often (see the module)."""
    state = collector(app)
    if state.thresholds is None:
        state.thresholds = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)


def restore_gc_thresholds(app: Sphinx, exception: Exception | None) -> None:
    state = collector(app)
    previous, state.thresholds = state.thresholds, None
    if previous is not None:
        gc.set_threshold(*previous)


def pause_gc_for_environment(app: Sphinx, config) -> None:
    """Before the seeds are converted and Sphinx loads the pickled environment: no cyclic
    collection while they are."""
    collector(app).enabled = gc.isenabled()
    gc.disable()


def freeze_environment(app: Sphinx) -> None:
    """After the conversion and the environment's load: set what is alive aside from the
    collector, resume collecting."""
    state = collector(app)
    enabled, state.enabled = state.enabled, None
    if enabled is None:
        enabled = gc.isenabled()
    gc.freeze()
    state.frozen = True
    if enabled:
        gc.enable()


def unfreeze_environment(app: Sphinx, exception: Exception | None) -> None:
    state = collector(app)
    if state.frozen:
        state.frozen = False
        gc.unfreeze()


def read_small_changes_serially(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """A parallel read of few or small pages is read in the main process (see the module)."""
    if app.parallel <= 1 or not docnames:
        return
    if len(docnames) > 1 and _source_bytes(env, docnames) >= SERIAL_READ_BYTES:
        return
    small_read(app.builder).parallel = app.parallel
    app.parallel = 1


def record_outdated(app: Sphinx) -> None:
    """Remember the pages the builder finds out of date (its output older than its source, or
    every page after a change of template or configuration): they are written too."""
    builder = app.builder
    if "get_outdated_docs" in vars(builder):
        return
    original = builder.get_outdated_docs

    def get_outdated_docs():
        found = original()
        if isinstance(found, str):  # "all source files": every page
            small_read(builder).outdated = None
            return found
        found = list(found)
        small_read(builder).outdated = set(found)
        return found

    builder.get_outdated_docs = get_outdated_docs


def restore_parallel_unless_few_pages(app: Sphinx, env: BuildEnvironment) -> None:
    """After a small read (before Sphinx decides how to write): ``-j N`` again, unless the pages
    to write are few."""

    state = small_read(app.builder)
    if state.parallel is None:
        return
    outdated = state.outdated  # None also when unknown: sphinx-build -a, or file names
    if outdated is None or len(pages_to_write(app.builder) | outdated) > SERIAL_WRITE_PAGES:
        app.parallel, state.parallel = state.parallel, None


def restore_parallel(app: Sphinx, builder=None) -> None:
    """Writing has begun: ``-j N`` again."""
    state = small_read(app.builder)
    parallel, state.parallel, state.outdated = state.parallel, None, None
    if parallel is not None:
        app.parallel = parallel


def _source_bytes(env: BuildEnvironment, docnames: list[str]) -> int:
    total = 0
    for docname in docnames:
        try:
            total += os.path.getsize(env.doc2path(docname))
        except OSError:
            return SERIAL_READ_BYTES  # unknown: leave it to Sphinx
        if total >= SERIAL_READ_BYTES:
            break
    return total


def preload_before_fork(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """When several chunks of pages are about to be read in forked processes, load the tables."""
    if app.parallel > 1 and len(docnames) > 1:
        preload()


def preload() -> None:
    """Load the tables (each call is one a read makes anyway)."""
    for table in (data.works, data.chapters, data.pua, data.variants, data.t2s_keep):
        table()
    normalize.fold("賔說")  # OpenCC t2s
    parse_gloss("弛尸纸反")  # conv.parser.glosses, conv.parser.phonology: tshet-uinh, OpenCC s2t
    catalogue = terms.load()
    terms.find("司射", catalogue)
    terms.pinyin("射侯", catalogue)  # pypinyin's dictionaries
    split_text("賔")  # the search fold table
