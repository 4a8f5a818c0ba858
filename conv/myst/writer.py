"""Writing MyST (写出): the model → ``source/<work>/<chapter>.md`` in the format of ``conv/FORMAT.md``.

Pages are deterministic: the same seeds give byte-identical files, and a file whose content is
unchanged is not rewritten (so Sphinx rebuilds only what changed). Each page carries a header
with a checksum of its body: a page edited by hand is detected and never overwritten, and a file
without the header is never touched.
"""
from __future__ import annotations

from pathlib import Path

from dataclasses import replace

from conv.collate.forms import Emendation, emendations
from conv.model.tree import Edition
from conv.myst.backmatter.apparatus import Apparatus
from conv.myst.backmatter import pages as back_matter
from conv.myst.chapter import PageWriter, parallel_index, work_index
from conv.datafiles import read_text, write_atomically
from conv.myst.format import GENERATED_DIRS, HEADER_START, check_untouched, split_header, with_header
from conv.nogc import no_cyclic_gc


def pages(edition: Edition) -> dict[str, str]:
    """Relative path → content of every generated page."""
    with no_cyclic_gc():  # strings, and walks over the model: see conv/nogc.py
        return _pages(edition)


def _pages(edition: Edition) -> dict[str, str]:
    out: dict[str, str] = {}
    apparatus = Apparatus(edition)
    emends = with_entries(emendations(edition.apparatus), apparatus)
    parallels = parallel_index(edition)
    for work in edition.works:
        seeds = sorted({seed for chapter in work.chapters for seed in chapter.seeds})
        out[f"{work.id}/index.md"] = with_header(work_index(work), seeds)
        for chapter in work.chapters:
            out[f"{work.id}/{chapter.id}.md"] = with_header(PageWriter(edition, work, chapter, emends, parallels).page(), chapter.seeds)
    seeds = sorted(edition.sources)
    for path, body in back_matter.pages(edition, apparatus).items():
        out[path] = with_header(body, seeds)
    return out


def with_entries(emends: dict[str, list[Emendation]], apparatus: Apparatus) -> dict[str, list[Emendation]]:
    """Each emendation with the id of its apparatus entry (the reading text links to it)."""
    ids = {tuple(entry.span): entry.id for entries in apparatus.interventions.values()
           for entry in entries if entry.kind in ("collation", "misprint")}
    return {seed: [replace(e, entry=ids.get((seed, e.start, e.end), "")) for e in found]
            for seed, found in emends.items()}


def generated_files(out_dir: Path, unreadable: list[Path] | None = None) -> list[Path]:
    """The generated pages under ``out_dir``: files with the header, also a damaged one (its
    bytes begin with the header, the rest is not UTF-8). Other files that are not UTF-8 are
    added to ``unreadable`` (they are not the converter's)."""
    found = []
    for work_dir in GENERATED_DIRS:
        for path in sorted((out_dir / work_dir).glob("*.md")):
            raw = path.read_bytes()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                if raw.startswith(HEADER_START):
                    found.append(path)
                elif unreadable is not None:
                    unreadable.append(path)
                continue
            if split_header(text) is not None:
                found.append(path)
    return found


def write(edition: Edition, out_dir: Path) -> list[Path]:
    """Write every page (unchanged pages are left alone), each atomically (a temporary file and a
    rename: an interrupted conversion leaves the old page or the new one, never half of one);
    remove generated pages no longer produced. A page that is not UTF-8 is refused at its first
    bad byte (``make clean`` removes it)."""
    wanted = {out_dir / rel: text for rel, text in pages(edition).items()}
    current = {path: _current(path) for path in wanted if path.exists()}
    for path, text in current.items():
        if text != wanted[path]:
            check_untouched(path)
    for path in generated_files(out_dir):
        if path not in wanted:
            check_untouched(path)
            path.unlink()
    for path, text in wanted.items():
        if current.get(path) == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
    return list(wanted)


def _current(path: Path) -> str:
    return read_text(path, "this page is damaged: it is generated, so `make clean` (python -m conv clean) removes it; "
                           "then convert again")


def clean(out_dir: Path, skipped: list[Path] | None = None) -> list[Path]:
    """Remove generated pages (hand-edited or damaged ones too: they are generated); never other
    files. A file that cannot be read as UTF-8 and is not generated is left alone and added to
    ``skipped``, so that the caller can name it: ``clean`` never fails on it."""
    removed = []
    for path in generated_files(out_dir, skipped):
        path.unlink()
        removed.append(path)
    for work_dir in GENERATED_DIRS:
        directory = out_dir / work_dir
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()
    return removed
