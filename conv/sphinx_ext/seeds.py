"""The seeds converted inside the build (构建内转换): ``yl_seeds`` and ``yl_seeds_ledger``.

``make html`` runs ``sphinx-build … -D yl_seeds=../seeds``: at ``config-inited``, before the
environment is loaded, the extension converts the seeds of that directory into the generated
pages of the source directory (``conv.edition.build``), when they are out of date (``make``'s rule:
``source/.converted`` older than a seed, a manifest, a module or data file of the converter, or
the ledger; or a page it lists deleted), and writes ``source/.converted``. Sphinx then finds the changed pages as it finds
any changed page. One process does both: the tables the converter and the extension share
(OpenCC, the 《广韵》 of tshet-uinh, pypinyin) load once, and the glosses the converter placed
are not placed again.

- ``yl_seeds`` (default ``""``: the pages are converted beforehand, ``make convert``): the seed
  directory, relative to the configuration directory. Its edition is converted
  (``conv.edition.build.edition_in``): its ``*.txt`` in name order, then the 文渊阁 files its
  manifest marks ``convert = true``; when it is the project's ``seeds/`` this is the whole edition
  (every ledger anchor is checked), as ``python -m conv build`` without arguments.
- ``yl_edition`` (default ``"whole"``): ``"seeds"`` converts the ``*.txt`` alone, the small
  edition of the five seeds (``make html EDITION=seeds``).
- ``yl_seeds_ledger`` (default ``""``: ``conv/data/anchors.tsv``): the anchor ledger, read only.

The edition the pages are (the stamp's first line) is a tag, ``yl_edition_whole`` or
``yl_edition_seeds``, for ``{only}`` in the hand-written pages (``tag_edition``).

Neither changes what a page is made of (the pages do): both are left out of Sphinx's environment
and output checks. The converter's progress and its reported problems are logged; a conversion it
refuses (``conv.errors.ConversionError``) stops the build before anything is read, as ``python -m
conv build`` stops: ``error: FILE:LINE:COL: message`` and what to do on standard error, exit
status 2 (``SystemExit``: Sphinx's report of an internal error — versions, traceback, "please
open an issue" — would bury the one line an editor needs).
"""
from __future__ import annotations

from pathlib import Path

import sys

from sphinx.application import Sphinx
from sphinx.util import logging

from conv.edition import build
from conv.errors import ConversionError
from conv.reader.manifest import PROJECT_SEEDS

logger = logging.getLogger(__name__)


def setup_seeds(app: Sphinx) -> None:
    app.add_config_value("yl_seeds", "", "", types=frozenset({str}))
    app.add_config_value("yl_seeds_ledger", "", "", types=frozenset({str}))
    app.add_config_value("yl_edition", "whole", "", types=frozenset({str}))
    app.connect("config-inited", convert_seeds, priority=400)
    app.connect("config-inited", tag_edition, priority=450)


def convert_seeds(app: Sphinx, config) -> None:
    """Convert the seeds of ``yl_seeds`` into the source directory unless the pages are current."""
    if not config.yl_seeds:
        return
    confdir = Path(app.confdir)
    seed_dir = (confdir / config.yl_seeds).resolve()
    ledger = (confdir / config.yl_seeds_ledger).resolve() if config.yl_seeds_ledger else None
    if not seed_dir.is_dir():
        fail(f"yl_seeds: {seed_dir}: no such directory (give the seed directory relative to the "
             "directory of conf.py, e.g. -D yl_seeds=../seeds)")
    which = config.yl_edition
    if which not in build.EDITIONS:
        fail(f"yl_edition: {which!r} is not an edition (give one of: {', '.join(build.EDITIONS)}, "
             "e.g. -D yl_edition=seeds)")
    out = Path(app.srcdir)
    try:
        if build.up_to_date(seed_dir, out, ledger, which):
            logger.info(f"conv: the pages are up to date with {config.yl_seeds} ({which})")
            return
        full = ledger is None and which == "whole" and seed_dir == PROJECT_SEEDS.resolve()
        written = build.build(build.edition_in(seed_dir, which), out, ledger, full=full, say=logger.info)
    except ConversionError as error:
        fail(str(error))
    except FileNotFoundError as error:
        fail(f"{error.filename}: no such file")
    build.mark_converted(out, written, which)


def tag_edition(app: Sphinx, config) -> None:
    """The edition the pages are (the stamp's, converted here or by ``make convert``) as a tag,
    ``yl_edition_whole`` or ``yl_edition_seeds``, for ``{only}`` in the hand-written pages: the front
    page's reading notes name the joins of the two witnesses in the whole edition and the excerpts'
    lacunae (〔前阙〕…) in the seeds'. A project without the stamp has neither tag."""
    which = build.converted_edition(Path(app.srcdir))
    if which:
        app.tags.add(f"yl_edition_{which}")


def fail(message: str) -> None:
    """Stop the build as the converter's command line stops: the message, exit status 2."""
    print(f"error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)
