"""Writing MyST (写出): the model → ``source/<work>/<chapter>.md`` in the format of ``conv/FORMAT.md``.

Pages are deterministic: the same seeds give byte-identical files, and a file whose content is
unchanged is not rewritten (so Sphinx rebuilds only what changed). Each page carries a header
with a checksum of its body: a page edited by hand is detected and never overwritten, and a file
without the header is never touched.
"""
from __future__ import annotations

import bisect
import hashlib
from pathlib import Path

from . import data
from .errors import ConversionError
from .escape import escape_inline
from .model import Chapter, Edition, Passage, Section, Segment, Work
from .nogc import no_cyclic_gc
from .normalize import fold

GENERATED = "yili-generated: conv"
WORK_DIRS = tuple(w["id"] for w in data.works())
#: Directories holding generated pages: the works' chapters, and the back matter (conv/pages.py).
GENERATED_DIRS = WORK_DIRS + ("apparatus",)


def inline(segment_text: str, offsets: list[int], glosses) -> str:
    """Escaped text with each gloss wrapped in a ``{yl:gloss}`` role (a second reading 又… in the
    same role as the gloss it follows, so the role's text always parses on its own)."""
    out = []
    cursor = 0
    groups: list[list] = []
    for gloss in sorted(glosses, key=lambda g: g.span[1]):
        if gloss.second and groups and groups[-1][-1].span[2] <= gloss.span[1]:
            groups[-1].append(gloss)  # 纯之闰反又章允反: a second reading stays with its gloss
        else:
            groups.append([gloss])
    for group in groups:
        start = bisect.bisect_left(offsets, group[0].span[1])
        end = bisect.bisect_left(offsets, group[-1].span[2])
        piece = segment_text[start:end]
        if start < cursor or not piece or "`" in piece:
            continue
        out.append(escape_inline(segment_text[cursor:start]))
        out.append("{yl:gloss}`" + piece + "`")
        cursor = end
    out.append(escape_inline(segment_text[cursor:]))
    return "".join(out)


class PageWriter:
    """Builds the MyST text of one chapter page."""

    def __init__(self, edition: Edition, work: Work, chapter: Chapter) -> None:
        self.edition, self.work, self.chapter = edition, work, chapter
        self.out: list[str] = []
        self.redirected: dict[str, list[str]] = {}  # target anchor → old anchors landing on it
        for redirect in edition.redirects:
            self.redirected.setdefault(redirect["to"], []).append(redirect["from"])

    def source(self, span) -> str:
        seed, start, _ = span
        line, col = self.edition.sources[seed].position(start)
        return f"{seed}:{line}:{col}"

    def emit(self, *lines: str) -> None:
        self.out.extend(lines)

    def redirects(self, anchor: str) -> None:
        """The ledger's redirects that land on ``anchor`` (right after its markup)."""
        for old in self.redirected.get(anchor, []):
            self.emit(f":::{{yl:redirect}} {old}", f":to: {anchor}", ":::", "")

    def segment(self, segment: Segment, fence: str = ":::") -> None:
        self.emit(f"{fence}{{yl:{segment.layer}}}")
        if segment.lacuna:
            self.emit(f":lacuna: {segment.lacuna}")
        self.emit(inline(segment.text, segment.offsets, segment.glosses), fence, "")

    def passage(self, passage: Passage) -> None:
        self.emit(f"::::{{yl:passage}} {passage.id}", f":layer: {passage.layer}", f":source: {self.source(passage.span)}")
        if passage.lacuna:
            self.emit(f":lacuna: {passage.lacuna}")
        self.emit("")
        if passage.text:
            self.emit(escape_inline(passage.text), "")
        for note in passage.notes:
            self.segment(note)
        self.emit("::::", "")
        self.redirects(passage.id)

    def title(self, section: Section) -> None:
        self.emit(f"::::{{yl:title}} {section.id}", escape_inline(section.title), "")
        for note in section.title_notes:
            self.segment(note)
        self.emit("::::", "")

    def heading(self, section: Section) -> str:
        """The navigation heading: the title without its 右/记 marker, in normalized form (it goes
        into the table of contents, where the diplomatic/normalized switch cannot reach it); the
        printed title stays in the ``yl:title`` directive."""
        if section.title:
            return fold(section.title[1:] if section.marker in ("右", "记") else section.title)
        opening = next((p.normalized for p in section.passages if p.text), "")
        return f"〔{opening[:8]}…〕" if opening else "〔阙〕"

    def section(self, section: Section) -> None:
        self.emit(f"({section.id})=", f"## {escape_inline(self.heading(section))}", "")
        self.redirects(section.id)
        pending_title = section.title is not None
        for passage in section.passages:
            if pending_title and passage.span[1] > section.title_span[1]:
                self.title(section)
                pending_title = False
                if section.ji_marker:
                    self.emit(":::{yl:meta} ji-marker", escape_inline(section.ji_marker.text), ":::", "")
            self.passage(passage)
        if pending_title:
            self.title(section)

    def page(self) -> str:
        chapter = self.chapter
        self.emit(f"({self.work.id}-{chapter.id})=", f"# {escape_inline(chapter.title)}", "")
        self.redirects(f"{self.work.id}-{chapter.id}")
        for kind, item in chapter.order:
            if kind == "meta":
                self.emit(f":::{{yl:meta}} {item.kind}", escape_inline(item.text), ":::", "")
            elif kind == "heading":
                self.emit("::::{yl:chaptertitle}", escape_inline(chapter.heading), "")
                for segment in chapter.mulu:
                    self.segment(segment)
                self.emit("::::", "")
            elif kind == "lacuna":
                self.emit(f":::{{yl:lacuna}} {item}", ":::", "")
            elif kind == "section":
                self.section(item)
        return "\n".join(self.out).rstrip("\n") + "\n"


def work_index(work: Work) -> str:
    info = next(w for w in data.works() if w["id"] == work.id)
    lines = [f"({work.id})=", f"# {escape_inline(work.title)}", "", escape_inline(f"{info['author']}撰"), ""]
    lines += ["```{toctree}", ":maxdepth: 1", ""] + [c.id for c in work.chapters] + ["```"]
    return "\n".join(lines) + "\n"


def with_header(body: str, seeds: list[str]) -> str:
    checksum = hashlib.sha256(body.encode("utf-8")).hexdigest()
    header = ["---", GENERATED, f"yili-seeds: {' '.join(seeds)}", f"yili-checksum: {checksum}", "---", ""]
    note = "<!-- Generated by `python -m conv build` from the seeds named above. Do not edit: add editorial notes under source/notes/. -->"
    return "\n".join(header) + note + "\n\n" + body


def split_header(text: str) -> tuple[dict, str] | None:
    """(header fields, body) of a generated page, or None for any other file."""
    if not text.startswith("---\n" + GENERATED + "\n"):
        return None
    end = text.find("\n---\n", 4)
    if end == -1:
        return None
    fields = dict(line.split(": ", 1) for line in text[4:end].splitlines() if ": " in line)
    rest = text[end + 5 :]
    rest = rest.split("\n", 2)[2] if rest.startswith("<!--") else rest
    return fields, rest


def check_untouched(path: Path) -> None:
    """Refuse to overwrite a file the converter did not write, or one edited by hand."""
    text = path.read_text(encoding="utf-8")
    parsed = split_header(text)
    if parsed is None:
        raise ConversionError(str(path), 1, 1, "not a generated page (no `yili-generated: conv` header): the converter will not overwrite it", "move the file away, or rename the chapter page it collides with")
    fields, body = parsed
    if hashlib.sha256(body.encode("utf-8")).hexdigest() != fields.get("yili-checksum"):
        raise ConversionError(str(path), 1, 1, "this generated page was edited by hand (its checksum no longer matches)", "generated pages are rewritten from the seeds: put your change in an editorial note under source/notes/, then delete this file or run `make clean`")


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
    from . import pages as back_matter  # apparatus and indices (source/apparatus/)

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
