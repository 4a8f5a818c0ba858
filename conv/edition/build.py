"""Building (构建): the seeds of a directory → the generated MyST pages of a source directory.

One function for both ways the edition is built: ``python -m conv build`` (``make convert``) and
the Sphinx extension when ``yl_seeds`` is set (``make html``, ``conv.sphinx_ext.seeds``): then the
conversion runs inside ``sphinx-build``, which loads the converter's tables (OpenCC, tshet-uinh,
pypinyin) once for both and starts one interpreter instead of two.

The edition (版本) of a seed directory, :func:`edition_in`, is the whole edition: its seeds
(``*.txt``, in name order) and then every file its ``manifest.toml`` marks ``convert = true`` (the
文渊阁 transcription of both works, ``path`` under the directory), in the manifest's order. The
small edition of the five seeds alone (``which="seeds"``: ``make html EDITION=seeds``, ``-D
yl_edition=seeds``) is :func:`seeds_in`.

``up_to_date`` is ``make``'s rule for ``source/.converted``: the pages are current when the stamp
is newer than every file of the edition and manifest of the seed directory, every module of the
converter and every data file (``conv/*.py``, ``conv/data/*``) and the ledger. ``make`` touches the stamp after
``make convert``; ``mark_converted`` writes it after a conversion inside Sphinx, with the list of
the pages, so that a generated page deleted since is noticed.

Progress goes to ``say``, one line per work and per chapter (sections, passages), then the reported
problems (``seed:line:col: kind: message``: ambiguities the converter recorded, not errors) and
the number of pages. A ``conv.errors.ConversionError`` (a lost character, a hand-edited generated
page…) propagates: the caller reports it and fails.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conv.datafiles import write_atomically
from conv.model.tree import Edition
from conv.reader import manifest

CONVERTER = Path(__file__).resolve().parents[1]  # the package conv/
STAMP = ".converted"
#: The editions of a seed directory (``yl_edition``, ``make html EDITION=…``).
EDITIONS = ("whole", "seeds")
EDITION_LINE = "# edition: "  # the stamp's first line


def seeds_in(directory: Path) -> list[Path]:
    """The seed files of a directory, in the order they are converted (by name)."""
    return sorted(Path(directory).glob("*.txt"))


def witnesses_in(directory: Path) -> list[Path]:
    """The 文渊阁 files the directory's manifest marks ``convert = true``, in the manifest's order."""
    directory = Path(directory)
    entries = manifest.load(directory / "manifest.toml").values()
    return [directory / entry["path"] for entry in entries if entry.get("convert") and "path" in entry]


def edition_in(directory: Path, which: str = "whole") -> list[Path]:
    """The files of an edition of a seed directory, in the order they are converted: ``whole``
    (默认: the seeds, then the 文渊阁 files to convert) or ``seeds`` (the seeds alone)."""
    if which not in EDITIONS:
        raise ValueError(f"unknown edition {which!r} (known: {', '.join(EDITIONS)})")
    return seeds_in(directory) + (witnesses_in(directory) if which == "whole" else [])


def inputs(seed_dir: Path, ledger: Path | None = None, which: str = "whole") -> list[Path]:
    """What the generated pages depend on (the Makefile's ``CONV_INPUTS``, plus a given ledger)."""
    seed_dir = Path(seed_dir)
    found = [*edition_in(seed_dir, which), *sorted(seed_dir.glob("*.toml")), *converter_code(),
             *sorted(p for p in (CONVERTER / "data").glob("*") if p.is_file())]
    if ledger is not None:
        found.append(Path(ledger))
    return found


def converter_code() -> list[Path]:
    """The converter's modules: every ``conv/**/*.py`` outside the Sphinx extension."""
    return sorted(p for p in CONVERTER.rglob("*.py") if "sphinx_ext" not in p.relative_to(CONVERTER).parts)


def up_to_date(seed_dir: Path, out: Path, ledger: Path | None = None, which: str = "whole") -> bool:
    """The stamp ``out/.converted`` is newer than every input (``make``'s rule), names the same
    edition (``whole`` or ``seeds``) and every page it lists is still there (a page deleted by hand
    is written again)."""
    stamp = Path(out) / STAMP
    try:
        made = stamp.stat().st_mtime_ns
        listed = stamp.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):  # none, or damaged: convert again
        return False
    if _edition_named(listed[0]) != which:
        return False
    if not all(_readable(Path(out) / rel) for rel in listed[1:] if rel):
        return False
    return all(path.stat().st_mtime_ns <= made for path in inputs(seed_dir, ledger, which) if path.exists())


def converted_edition(out: Path) -> str | None:
    """The edition whose pages are under ``out`` (the stamp's first line: ``whole`` or ``seeds``), or
    None when no conversion wrote them (a project of hand-written pages)."""
    try:
        with (Path(out) / STAMP).open(encoding="utf-8") as stamp:
            first = stamp.readline().rstrip("\n")
    except (OSError, UnicodeDecodeError):
        return None
    return _edition_named(first)


def _edition_named(first: str) -> str | None:
    """The edition a stamp's first line names (``# edition: whole``), or None."""
    which = first.removeprefix(EDITION_LINE)
    return which if first.startswith(EDITION_LINE) and which in EDITIONS else None


def _readable(page: Path) -> bool:
    """A listed page is there and is UTF-8 (a damaged page is converted again, and refused there)."""
    try:
        page.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return True


def build(paths: list[Path], out: Path, ledger: Path | None = None, full: bool = False,
          say: Callable[[str], None] = print) -> list[Path]:
    """Convert ``paths`` and write the pages under ``out`` (unchanged pages are left alone);
    ``ledger``: the anchor ledger (None: the committed one); ``full``: the seeds are the whole
    edition (every ledger anchor is checked). Returns the pages."""
    # lazy: the converter (some thirty modules) only when a conversion is due, not for up_to_date
    from conv.edition import assemble
    from conv.myst import writer
    from conv.anchors.ledger import Ledger

    edition = assemble.convert(paths, ledger=Ledger.load(ledger), full=full)
    for line in progress(edition):
        say(line)
    written = writer.write(edition, Path(out))
    for problem in edition.problems:
        say(f"{problem['seed']}:{problem['line']}:{problem['col']}: {problem['kind']}: {problem['message']}")
    say(f"conv: {len(written)} pages written or unchanged under {out}/")
    return written


def mark_converted(out: Path, pages: list[Path], which: str = "whole") -> None:
    """Write the stamp: the edition converted, then the pages under ``out`` (one relative path a
    line) of the inputs as they are now. (``make convert`` only touches it.)"""
    listed = sorted(str(Path(page).relative_to(out)) for page in pages)
    write_atomically(Path(out) / STAMP, EDITION_LINE + which + "\n" + "".join(f"{rel}\n" for rel in listed))


def progress(edition: Edition) -> list[str]:
    """One line per work (its chapters and passages, and the seeds they come from), then one
    per chapter (its page, title, sections and passages)."""
    lines = []
    for work in edition.works:
        passages = sum(_passages(chapter) for chapter in work.chapters)
        seeds = {seed for chapter in work.chapters for seed in chapter.seeds}
        lines.append(f"conv: {work.id} {work.title}: {len(work.chapters)} chapters, {passages:,} passages "
                     f"from {len(seeds)} seed file{'s' if len(seeds) != 1 else ''}")
        for chapter in work.chapters:
            lines.append(f"conv:   {work.id}/{chapter.id} {chapter.title}: {len(chapter.sections)} sections, "
                         f"{_passages(chapter):,} passages")
    return lines


def _passages(chapter) -> int:
    return sum(len(section.passages) for section in chapter.sections)
