"""A build's output is a clean build's (构建之完整): after an interrupted build, and after a page
leaves the edition.

**Interrupted builds.** Sphinx pickles its environment when it has read the pages, before it writes
them: a build stopped while writing (Ctrl-C, SIGKILL, a full disk) leaves an environment that says
every page is current next to output that is not — pages missing or cut short, ``searchindex.js``
missing (the next build warns "search index couldn't be loaded", the one after it writes an index of
the few pages it wrote, and no later build repairs it). So a build marks its doctree directory
(``yl-build-incomplete``) when it starts (``config-inited``, before the environment is loaded) and
removes the mark when it has finished without an exception (``build-finished``). A build that finds
the mark does not trust the last environment: it deletes the pickled environment, so every page is
read and written again, and the search index (deleted with it) is made from all of them — the output
of a clean build. The temporary files of writes cut short (``.NAME.PID.tmp``) are removed.
The mark is also left by a build that failed (an error, ``-W`` without ``--keep-going``): the next
build is a full one too, which costs time, never correctness.

**Pages that left the edition.** Sphinx does not remove the output of a page whose source is gone
(a chapter no longer produced, a note page deleted). The pages a builder wrote are listed in the
doctree directory (``yl-pages-<builder>.txt``); when a page listed by the last build, or one Sphinx
finds removed, is no longer in the edition, its output file and its copy under ``_sources/`` are
deleted, and every page is written again with a new search index: Sphinx would prune the old
index of the page but keep the words only it held (with no page), which a clean build does not
have. The general index and ``objects.inv`` are made again on every build anyway.
"""
from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

logger = logging.getLogger(__name__)

MARK = "yl-build-incomplete"
ENVIRONMENT = "environment.pickle"  # sphinx.application.ENV_PICKLE_FILENAME
SEARCH_INDEX = "searchindex.js"  # StandaloneHTMLBuilder.searchindex_filename
TEMPORARY = ".*.tmp"  # conv.datafiles.write_atomically's temporary files


def start_build(app: Sphinx, config) -> None:
    """``config-inited``: distrust the environment and the search index of an interrupted build;
    mark this one."""
    doctrees = Path(app.doctreedir)
    mark = doctrees / MARK
    environment = doctrees / ENVIRONMENT
    if mark.exists() and environment.exists():
        logger.info("the last build did not finish: every page is read and written again")
        environment.unlink()
        (Path(app.outdir) / SEARCH_INDEX).unlink(missing_ok=True)
    if mark.exists():  # a file half written when the build was killed (conv.datafiles.write_atomically)
        for stray in Path(app.outdir).rglob(TEMPORARY):
            stray.unlink(missing_ok=True)
    doctrees.mkdir(parents=True, exist_ok=True)
    mark.write_text("a build is running, or was interrupted: the next build reads every page again\n",
                    encoding="utf-8")


def departed_pages(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    """``env-get-outdated``: the output of pages no longer in the edition (removed since the last
    build, or listed by it and no longer found) is deleted; then every page is read and written
    again, with the search index made anew (a loaded index keeps the departed pages' words, with
    no page, where a clean build has none)."""
    builder = app.builder
    if not hasattr(builder, "get_outfilename"):
        return []
    departed = set(removed) | (set(_listed(app)) - set(env.found_docs))
    if not departed:
        return []
    outdir = Path(builder.outdir)
    for docname in sorted(departed):
        _remove_page(outdir, builder, docname)
    (outdir / SEARCH_INDEX).unlink(missing_ok=True)
    return sorted(env.found_docs)


def finish_build(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: list the pages written; clear the mark."""
    if exception is not None:
        return
    builder = app.builder
    if hasattr(builder, "get_outfilename"):
        _listing(app).write_text("\n".join([str(builder.outdir), *sorted(app.env.all_docs)]) + "\n",
                                 encoding="utf-8")
    (Path(app.doctreedir) / MARK).unlink(missing_ok=True)


def _listing(app: Sphinx) -> Path:
    return Path(app.doctreedir) / f"yl-pages-{app.builder.name}.txt"


def _listed(app: Sphinx) -> list[str]:
    """The pages the last build of this builder wrote into this output directory."""
    try:
        lines = _listing(app).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return lines[1:] if lines and lines[0] == str(app.builder.outdir) else []


def _remove_page(outdir: Path, builder, docname: str) -> None:
    target = Path(builder.get_outfilename(docname))
    summaries = outdir / "_search" / f"{docname}.json"  # the search page's summaries of its passages
    removed = [path for path in (target, summaries, *(outdir / "_sources").glob(f"{docname}.*.txt"))
               if path.is_file()]
    for path in removed:
        path.unlink()
    if removed:
        logger.info(f"removed the output of {docname}: the page is no longer in the edition")


def setup_integrity(app: Sphinx) -> None:
    app.connect("config-inited", start_build, priority=300)  # before the seeds' conversion (400)
    app.connect("env-get-outdated", departed_pages)
    app.connect("build-finished", finish_build, priority=900)  # after the others' handlers
