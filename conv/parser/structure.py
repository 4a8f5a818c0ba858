"""Structure (结构): the chapters (篇), sections (章) and meta lines (卷 and catalogue lines) of one seed.

The lowest layer of the seed parser (``conv.parser.seeds.SeedParser``): it keeps the chapter and
section being read and the meta lines waiting for their chapter. A chapter opens at its title
line, or, in an excerpt that begins mid-chapter, at its first text (the chapter then comes from
``seeds/manifest.toml``, and its start is a lacuna). A 卷 line standing before a chapter title
closes the 卷 of the chapter before when it repeats that chapter's 卷 number.
"""
from __future__ import annotations

from conv import datafiles as data
from conv.model.tree import Chapter, Meta, Section
from conv.parser.report import SeedReport
from conv.reader import lines as line_kinds
from conv.reader.source import Source


class SeedStructure:
    """The chapters, sections and pending meta lines of one seed, as its lines build them."""

    def __init__(self, source: Source, entry: dict | None, report: SeedReport) -> None:
        self.src = source
        self.text = source.text
        self.seed = source.name
        self.entry = entry
        self.report = report
        self.chapters: list[Chapter] = []
        self.chapter: Chapter | None = None
        self.section: Section | None = None
        self.pending_meta: list[tuple[Meta, int | None]] = []
        self.juan: int | None = None
        self.chapter_queue: list[str] = []  # the manifest's chapters not yet begun
        self.work: dict | None = None

    def new_chapter(self, chapter_id: str) -> Chapter:
        info = data.chapter_of(self.work["id"] if self.work else "", chapter_id)
        if info is None:
            info = {"id": chapter_id, "name": chapter_id, "number": 99}
        chapter = Chapter(id=info["id"], title=info["name"], number=info["number"], seeds=[self.seed], part=info.get("part") or None)
        self.chapters.append(chapter)
        self.chapter = chapter
        return chapter

    def ensure_chapter(self, offset: int) -> Chapter:
        """The current chapter; before any chapter title, the manifest's next one, begun mid-chapter."""
        if self.chapter is None:
            if self.chapter_queue:
                chapter = self.new_chapter(self.chapter_queue.pop(0))
            else:
                self.report.problem(offset, "unknown-chapter", "text before any chapter title, and the manifest does not say which chapter this is: add the seed to seeds/manifest.toml")
                chapter = self.new_chapter("unknown")
            chapter.order.append(("lacuna", "start"))
            self.report.record("lacuna-chapter-start", offset, offset, chapter=chapter.id, reason="the excerpt begins in the middle of the chapter")
            self.flush_meta()
        return self.chapter

    def ensure_section(self) -> Section:
        if self.section is None:
            self.section = Section(id="", title=None, title_span=None)
            self.chapter.order.append(("section", self.section))
            self.chapter.sections.append(self.section)
        return self.section

    def flush_meta(self) -> None:
        for meta, _ in self.pending_meta:
            self.chapter.meta.append(meta)
            self.chapter.order.append(("meta", meta))
        self.pending_meta = []

    def open_chapter(self, title: line_kinds.ChapterTitle, s: int) -> Chapter:
        """Begin the chapter of the chapter title ``title`` standing at offset ``s``."""
        chapter = self.begin_chapter(title.chapter["id"], title.chapter["name"], s)
        self.set_heading(chapter, s, s + title.length)
        return chapter

    def begin_chapter(self, chapter_id: str, name: str, s: int) -> Chapter:
        """Begin chapter ``chapter_id`` at offset ``s``: the 卷 and catalogue lines read since the
        last chapter go to it, or close the chapter before (see the module docstring)."""
        self.section = None
        previous = self.chapter
        pending, self.pending_meta = self.pending_meta, []
        juan_lines = [number for meta, number in pending if meta.kind == "juan"]
        if self.juan is None and len(juan_lines) > 1:
            self.juan = juan_lines[0]  # 卷五 … 卷六 before 燕礼第六: the first closes the 卷 before
        closing = self.juan  # the 卷 of the chapter before: a line repeating it closes that 卷
        for meta, number in pending:
            if previous is not None and meta.kind == "juan" and number == closing:
                previous.meta.append(meta)  # a 卷 line closing the 卷 belongs to the chapter before
                previous.order.append(("meta", meta))
            else:
                self.pending_meta.append((meta, number))
                if meta.kind == "juan":
                    self.juan = number
        if self.chapter_queue:
            expected = self.chapter_queue.pop(0)
            if expected != chapter_id:
                self.report.problem(s, "manifest-chapter", f"chapter title {name} but seeds/manifest.toml expects {expected}: correct the manifest")
        elif self.entry is not None:
            self.report.problem(s, "manifest-chapter", f"chapter title {name} is not listed for this seed in seeds/manifest.toml: add it")
        chapter = self.new_chapter(chapter_id)
        self.flush_meta()
        return chapter

    def set_heading(self, chapter: Chapter, start: int, end: int) -> None:
        """The chapter's printed title line is ``text[start:end]``, here in its order."""
        chapter.heading = self.text[start:end]
        chapter.heading_span = self.report.span(start, end)
        chapter.order.append(("heading", None))

    def set_title(self, section: Section, start: int, end: int, marker: str) -> None:
        """Give ``section`` its title ``text[start:end]`` (without the blanks that stand for a line's end
        where a title runs on over two columns: the 句读's 　右事死之初…一以事¶　精神楔齒…); the next text begins
        a new section."""
        section.title = "".join(self.text[start:end].split())
        section.title_span = self.report.span(start, end)
        section.marker = marker
        self.section = None
