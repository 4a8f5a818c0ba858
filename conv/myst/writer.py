"""Writing MyST (写出): the model → ``source/<work>/<chapter>.md`` in the format of ``conv/FORMAT.md``.

Pages are deterministic: the same seeds give byte-identical files, and a file whose content is
unchanged is not rewritten (so Sphinx rebuilds only what changed). Each page carries a header
with a checksum of its body: a page edited by hand is detected and never overwritten, and a file
without the header is never touched.
"""
from __future__ import annotations

from pathlib import Path

from conv.model.tree import Edition
from conv.myst.backmatter import pages as back_matter
from conv.myst.chapter import PageWriter, work_index
from conv.myst.format import GENERATED_DIRS, check_untouched, split_header, with_header
from conv.nogc import no_cyclic_gc


def pages(edition: Edition) -> dict[str, str]:
    """Relative path → content of every generated page."""
    with no_cyclic_gc():  # strings, and walks over the model: see conv/nogc.py
        return _pages(edition)


def _pages(edition: Edition) -> dict[str, str]:
    out: dict[str, str] = {}
    for work in edition.works:
        seeds = sorted({seed for chapter in work.chapters for seed in chapter.seeds})
        out[f"{work.id}/index.md"] = with_header(work_index(work), seeds)
        for chapter in work.chapters:
            out[f"{work.id}/{chapter.id}.md"] = with_header(PageWriter(edition, work, chapter).page(), chapter.seeds)
    seeds = sorted(edition.sources)
    for path, body in back_matter.pages(edition).items():
        out[path] = with_header(body, seeds)
    return out


def generated_files(out_dir: Path) -> list[Path]:
    found = []
    for work_dir in GENERATED_DIRS:
        for path in sorted((out_dir / work_dir).glob("*.md")):
            if split_header(path.read_text(encoding="utf-8")) is not None:
                found.append(path)
    return found


def write(edition: Edition, out_dir: Path) -> list[Path]:
    """Write every page (unchanged pages are left alone); remove generated pages no longer produced."""
    wanted = {out_dir / rel: text for rel, text in pages(edition).items()}
    for path in wanted:
        if path.exists() and path.read_text(encoding="utf-8") != wanted[path]:
            check_untouched(path)
    for path in generated_files(out_dir):
        if path not in wanted:
            check_untouched(path)
            path.unlink()
    for path, text in wanted.items():
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(wanted)


def clean(out_dir: Path) -> list[Path]:
    """Remove generated pages (hand-edited ones too: they are generated); never other files."""
    removed = []
    for path in generated_files(out_dir):
        path.unlink()
        removed.append(path)
    for work_dir in GENERATED_DIRS:
        directory = out_dir / work_dir
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()
    return removed
