"""Parsing (解析): one seed's lines and tokens → chapters, sections, passages and notes.

The parser walks the seed line by line. Structural lines (the work title, 卷 and catalogue lines,
chapter titles, section titles, watermarks) are recognised by ``conv.reader.lines``; lines matching
a drop rule (``conv/data/drops.toml``) are set aside; every other line is read by the passage state
machine (``conv.parser.passages``). A seed is built in layers, each module importing only those
below it:

* ``conv.parser.report`` — spans, problems and apparatus entries (校勘记);
* ``conv.parser.drafts`` — the passage and note being read;
* ``conv.parser.notes`` and ``conv.parser.titles`` — a note's segments; section titles inside a line;
* ``conv.parser.structure`` — chapters, sections and meta lines;
* ``conv.parser.passages`` — text and notes → passages;
* this module — the walk over the lines, and the seed's start and end (lacunae, private-use code
  points).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from conv import datafiles as data
from conv.datafiles import drops
from conv.errors import Problem
from conv.model.tree import Chapter, Meta, Span
from conv.parser import apart, figures
from conv.parser.corrections import Corrections
from conv.parser.drafts import NoteDraft, PassageDraft
from conv.parser.outline import Outline, OutlineLine
from conv.parser.passages import PassageReader
from conv.parser.report import SeedReport
from conv.parser.segments import Unit
from conv.reader import lines as line_kinds
from conv.reader.lexer import tokenize
from conv.reader.source import Line, Source

TONGJIE_ITEMS = ("记", "传", "辞")  # what a 通解 section title may have after it on its line: 记, 传, 辭


@cache
def _drop_rules() -> list[tuple[re.Pattern, dict]]:
    """The drop rules (``conv/data/drops.toml``) with their patterns compiled."""
    return [(re.compile(rule["pattern"]), rule) for rule in drops()]


@dataclass
class SeedResult:
    """What one seed contributes: its work, its (partial) chapters, drops, apparatus, problems."""

    seed: str
    work: dict
    title_span: Span | None
    chapters: list[Chapter]
    dropped: list[dict]
    apparatus: list[dict]
    problems: list[Problem]


class SeedParser(PassageReader):
    """Parses one decoded seed (see the module docstring)."""

    def __init__(self, source: Source, entry: dict | None, corrections: Corrections) -> None:
        super().__init__(source, entry, corrections, SeedReport(source))
        self.dropped: list[dict] = []
        self.title_span: Span | None = None
        self.outline: Outline | None = None  # the 通解 witness: its part and 篇 title lines
        self.heading_notes = False  # the line after a 通解 篇 title: a note opening it is the title's
        self.apart: apart.ApartLines | None = None  # the 句读's front matter and collation notes
        self.front: list[apart.FrontPart] | None = None  # the 通解's 卷首: its parts (提要, 舊序 …)

    # -- driver ----------------------------------------------------------------------------
    def run(self) -> SeedResult:
        content = [line for line in self.src.lines if self.text[line.start : line.end].strip()]
        if not content:
            raise self.src.error(0, "empty seed: no text at all", "a seed needs at least a title line and text")
        first = content[0]
        s, e = self._strip(first)
        work = line_kinds.work_for_title(self.folded.same_length(s, e))
        body = content
        if work is not None:
            self.title_span = self.report.span(s, e)
            body = content[1:]
            if self.entry is not None and self.entry["work"] != work["id"]:
                raise self.src.error(s, f"line 1 names the work {work['id']} ({work['title']}) but the manifest says {self.entry['work']}",
                                     "correct the manifest's `work` for this seed (or the seed's first line)")
            if not body:
                raise self.src.error(e, "the seed has its title line and no text", "a seed needs text after its title line")
        elif self.entry is not None:
            work = next(w for w in data.works() if w["id"] == self.entry["work"])
        else:
            raise self.src.error(
                s,
                "cannot recognise the work from the first line",
                "line 1 must be a work's title (e.g. 仪礼郑注句读), or the seed must be described in seeds/manifest.toml",
            )
        self.begin(work)
        if self.entry is not None:
            self.chapter_queue = list(self.entry.get("chapters", []))
            self.layer = self.entry.get("start_layer", "jing")
            juan = self.entry.get("juan") or [None]
            self.juan = juan[0]
        if self.tongjie_witness:
            if (self.entry or {}).get("role") == "front-matter" and self.chapter_queue:
                chapter = self.begin_chapter(self.chapter_queue[0], "", 0)  # 提要, 序, 目録: one chapter from the start
                self.front = self.front_parts(chapter.id)
            else:
                self.outline = Outline(self.src, self.report)
        elif (self.entry or {}).get("role") in apart.ROLES and self.chapter_queue:
            self.apart = apart.ApartLines(self.src, self.chapter_queue)
            self.begin_apart(self.chapter_queue[0], 0)  # from the start: the lines before its heading are its meta
        self._start_fragment(body)
        for line in body:
            self.line_no = line.number
            self.handle_line(line)
        self.finish()
        for offset in (at for at in self.src.page_cuts_undecided if self.text[at].strip()):  # not in another piece
            self.report.problem(offset, "page-cut-undecided", "a page break cuts the text here and nothing tells whether the "
                                "paragraph runs on: kept apart; decide it in conv/data/page_joins.toml")
        if self.apart is not None or self.front is not None:
            apart.relabel(self.chapters, self.front)
        report = self.report
        return SeedResult(self.seed, work, self.title_span, self.chapters, self.dropped, report.apparatus, report.problems)

    def _strip(self, line: Line) -> tuple[int, int]:
        s, e = line.start, line.end
        while s < e and self.text[s].isspace():
            s += 1
        while e > s and self.text[e - 1].isspace():
            e -= 1
        return s, e

    def _is_dropped(self, s: int, e: int) -> dict | None:
        line = self.text[s:e]
        for pattern, rule in _drop_rules():
            if pattern.match(line):
                return rule
        return None

    def _start_fragment(self, body: list[Line]) -> None:
        """A seed that opens inside a note: on its first text line, a 】 comes before any 【."""
        for line in body:
            s, e = self._strip(line)
            if self._is_dropped(s, e):
                continue
            for token in tokenize(self.text, s, e):
                if token.kind == "open":
                    return
                if token.kind == "close":
                    self.ensure_chapter(s)
                    self.ensure_section()
                    self.passage = PassageDraft(self.layer, lacuna="start", span_start=s, span_end=s)
                    self.note = NoteDraft([Unit("", range(0), 0)], lacuna="start")
                    self.passage.notes.append(self.note)
                    self.note_line = line.number
                    self.report.record("lacuna-start", s, s, reason="the witness begins inside a note; its 经 and the note's opening are not in this excerpt")
                    return
            return

    def finish(self) -> None:
        if self.title_held:
            self.title_held = False
            self.end_title_mode()
        if self.note is not None:
            note = self.note
            end = note.units[-1].offsets[-1] + 1 if note.units[-1].offsets else len(self.text)
            self.report.record("lacuna-end", end, end, reason="the witness ends inside a note; the rest of the note is not in this excerpt")
            if not (self.entry or {}).get("ends", "").startswith("mid-note"):
                self.report.problem(end, "unclosed-note-at-end", "the file ends inside a note (a 【 never closed): if the excerpt is cut there, "
                                    "say so in the manifest (ends = \"mid-note …\"); otherwise close the note")
            self.close_passage()
            self.note = None
        else:
            self.close_passage()
        if self.chapter is None:
            self.ensure_chapter(len(self.text))
        self.flush_meta()
        if not (self.entry or {}).get("ends_chapter"):  # the manifest: the file ends with its chapter
            self.chapter.order.append(("lacuna", "end"))
            end = len(self.text.rstrip())
            self.report.record("lacuna-chapter-end", end, end, chapter=self.chapter.id, reason="the excerpt ends before the chapter does")
        self.report.pua(self.dropped)
        self.report.controls()
        self.report.scripts(self.dropped)

    # -- lines ---------------------------------------------------------------------------
    def handle_meta(self, kind: str, number: int | None, s: int, e: int) -> None:
        self.close_passage()
        self.pending_meta.append((Meta(kind, self.text[s:e], self.report.span(s, e)), number))

    def handle_chapter_title(self, title: line_kinds.ChapterTitle, s: int, e: int) -> None:
        self.close_passage()
        self.open_chapter(title, s)
        self.layer = "jing"
        rest = s + title.length
        if rest < e:
            self.title_mode = "mulu"
            self.content(rest, e)
            self.title_mode = None

    def handle_title_line(self, s: int, e: int, length: int, marker: str, remark: bool = False) -> None:
        """A section title of ``length`` opening the line ``text[s:e]``; ``remark``: the rest of the line is
        张尔岐's remark on it, as after a ○ (``open_remark``)."""
        self.ensure_chapter(s)
        self.close_passage()
        section = self.ensure_section()
        self.set_title(section, s, s + length, marker)
        self.title_section = section
        self.title_mode = "note"
        if s + length < e:
            if remark:
                self.open_remark()
            self.content(s + length, e)
            self.close_remark(e)
        self.end_title_line()

    def end_title_line(self) -> None:
        """The end of a line that holds a section title: what it began (the title's note, its 记 or 传
        items) is held open for the next line, which goes on with it when it opens with a note
        (``title_runs_on``); any other line ends it first."""
        self.title_held = self.title_mode is not None and self.note is None
        self.title_indent = self.indent
        if not self.title_held:
            self.end_title_mode()

    def title_runs_on(self, s: int, e: int) -> bool:
        """Does the line ``text[s:e]``, right after a title's line and indented as it, open with a note?
        No note opens a paragraph of the book (but a 篇 title's): it is the note of what ends the
        title's line — the last 记 item a page or column break cut off (通解, 聘禮
        ``…疏曰通體盡用¶<pb>(絳無他物之飾)…``, its 记 going on after it), or, on a line of the title
        alone, the title's (句读, 士冠禮 ``　右送賔歸俎¶　(以上士冠禮正經頗疑數事…)``). Any other line
        ends the title's line first: a line indented otherwise is no note of it (公食大夫禮's table of
        the dishes after ``　右為賔設加饌``, its cells small characters, 009 l.144)."""
        self.title_held = False
        tokens = self.tokens(s, e)
        if tokens and tokens[0].kind == "open" and self.indent == self.title_indent:
            self.feed(tokens)
            self.end_title_line()
            return True
        self.peeked = (s, e, tokens)  # not read again: the 通解's small-run rules report what they move
        self.end_title_mode()
        return False

    def end_title_mode(self) -> None:
        # A title's note with no 】 at the end of its line goes on on the next line, as any note
        # does (``handle_line`` reports it): its passage stays open, with the section it belongs to.
        title_note_open = self.note is not None and self.passage is not None and self.passage.layer == "title"
        if self.title_mode is not None and not title_note_open:
            self.close_passage()
        self.title_mode = None
        if not title_note_open:
            self.title_section = None
        if self.layer == "ji" and self.ji_from_title:
            self.layer = "jing"
        self.ji_from_title = False

    def handle_line(self, line: Line) -> None:
        s, e = self._strip(line)
        block = figures.block_at(self.src, s, e) if self.src.diagrams else None
        if block is not None:  # a diagram of the book (图): one figure at its first line
            if line.start <= block.start:
                figures.place(self, block)
            return
        self.indent = s - line.start
        rule = self._is_dropped(s, e)
        if rule is not None:
            self.dropped.append({"span": list(self.report.span(s, e)), "reason": rule["reason"], "text": self.text[s:e]})
            return
        if self.note is not None and self.note_line < line.number:
            self.note_line = line.number
            self.report.problem(s, "unclosed-note", f"the note opened before line {line.number} has no 】 at the end of its line; it is read as going on here — check the witness")
            self.content(s, e)
            return
        item = self.outline.get(line) if self.outline is not None else None
        if item is not None and item.start > s:  # a part line ending a line of notes (…考其得失云)學禮八)
            self.content(s, item.start)
            self.handle_outline(item, item.start, e)
            return
        if self.note is not None:
            self.content(s, e)
            return
        folded = self.folded.same_length(s, e)
        trailer = line_kinds.trailing_juan(folded) if self.tongjie_witness else None
        if trailer is not None:  # the 卷 line written on the 卷's last line of text: read apart (also after a 傳 held open)
            self.handle_line(Line(line.number, line.start, s + trailer[0]))
            self.handle_meta(trailer[1].kind, trailer[1].number, s + trailer[0], e)
            return
        if self.title_held and self.title_runs_on(s, e):
            self.context = self.text[s:e]
            return
        if item is not None:
            self.handle_outline(item, s, e)
            return
        if self.apart is not None:
            self.handle_apart(self.apart.get(line), s, e)
            return
        if self.front is not None and (kind := apart.meta_kind("".join(self.text[s:e].split()))):
            self.close_passage()  # the 卷首's 四库 header and credit lines, as in the 句读's 提要
            self.end_title_mode()
            self.meta_line(kind, s, e)
            return
        part = next((part for part in self.front or () if part.start == s), None)
        if part is not None:  # the 通解's 卷首: a part's heading opens its section (提要(臣)等謹按…)
            self.close_passage()
            self.end_title_mode()
            self.titled_section(part.start, part.end)
            if part.end < e:
                self.content(part.end, e)
                self.end_title_mode()
            return
        meta = line_kinds.meta_line(folded)
        if meta is not None:
            self.handle_meta(meta.kind, meta.number, s, e)
            return
        chapter_title = None if self.tongjie_witness else line_kinds.chapter_title(folded)
        if chapter_title is not None:
            self.handle_chapter_title(chapter_title, s, e)
            return
        self.ensure_chapter(s)
        self.flush_meta()
        if self.heading_notes:
            self.heading_notes = False
            tokens = self.tokens(s, e)
            if tokens[0].kind == "open":  # 聘禮 (鄭注目録云…): the 篇 title's note
                self.title_mode = "mulu"
                self.feed(tokens)
                self.title_mode = None
                self.close_passage()
                self.context = self.text[s:e]
                return
            length = line_kinds.title_length(folded, "右", items=TONGJIE_ITEMS)
            if folded != "记" and (length is None or not line_kinds.tongjie_title(folded[:length])):  # (大射義's 記: below)
                self.feed(tokens)
                self.end_title_line()  # a title inside the line (…)玉藻右將朝傳…) holds its 傳 open as any line's
                self.context = self.text[s:e]
                return
        if folded == "记":
            self.close_passage()
            self.section = None
            meta = Meta("ji-marker", "记", self.report.span(s, e))
            self.chapter.meta.append(meta)
            self.chapter.order.append(("meta", meta))
            self.layer = "ji"
            return
        # the 文渊阁 句读 prints a title's line one cell down, 经 at the column's top: an indented 右 line is a title,
        # however long, and no 记 item follows it on its line (右三記賓介聘享之客 sums up three 记)
        indented = self.work["layout"] == "judou" and self.src.paged and self.indent > 0
        items = TONGJIE_ITEMS if self.tongjie_witness else () if indented else ("记",)
        length = line_kinds.title_length(folded, "右", items=items,
                                         circle=self.work["layout"] == "judou",
                                         longest=e - s if indented else line_kinds.MAX_TITLE)
        if length is not None and self.tongjie_witness and not line_kinds.tongjie_title(folded[:length]):
            length = None  # 右執項左執前…: the right hand, 经 that opens a column of the 文渊阁 通解
        if length is not None:
            remark = line_kinds.remark_start(folded[:length]) if indented else None
            self.handle_title_line(s, e, remark or length, "右", remark=remark is not None)
            self.context = self.text[s:e]  # a 记 item or 经 after the title, a glossed character may stand in
            return
        if self.work["layout"] == "judou" and self.layer == "ji":
            length = line_kinds.title_length(folded, "记")
            if length is not None and "【" not in folded[:length]:
                self.handle_title_line(s, e, length, "记")
                return
        if indented and not folded.startswith(("【", "传曰", "𫝊曰")):  # 丧服's 传 stands one cell down too
            # 张尔岐's summary of the 记 item or the 经 before it, on a line of its own (納采之辭, 此小斂後節哀之事)
            length = line_kinds.title_length(folded, folded[:1], longest=e - s)
            if length is not None and "【" not in folded[:length]:
                self.handle_title_line(s, e, length, "记" if folded.startswith("记") else None)
                return
        self.content(s, e)
        self.end_title_line()
        self.context = (self.chapter.heading or "") + self.text[s:e]

    def handle_outline(self, item: OutlineLine, s: int, e: int) -> None:
        """A 通解 part line, 篇 title, lost-篇 line or label (``conv.parser.outline``)."""
        self.close_passage()
        self.end_title_mode()
        info = item.chapter
        chapter = self.chapter if self.chapter is not None and self.chapter.id == info["id"] else None
        if chapter is None or (item.kind == "title" and chapter.heading is not None):
            chapter = self.begin_chapter(info["id"], info["name"], s)
            self.layer = "jing"
        if item.kind == "title":
            self.set_heading(chapter, item.start, item.end)
            self.heading_notes = True
        else:
            meta = Meta(item.kind, self.text[item.start:item.end], self.report.span(item.start, item.end))
            chapter.meta.append(meta)
            chapter.order.append(("meta", meta))
            if item.kind == "lost":
                chapter.lost = meta.text
        if item.end < e:  # 大學(大舊音泰今讀如字), 學禮六之上(此篇凡數皆凖令式借用大字)
            self.title_mode = "mulu"
            self.content(item.end, e)
            self.title_mode = None
            self.close_passage()
        self.context = self.text[item.start:item.end]

    # -- the 句读's front matter and collation notes (conv.parser.apart) ----------------------
    def begin_apart(self, chapter_id: str, s: int) -> Chapter:
        info = apart.chapter_info(chapter_id)
        chapter = self.begin_chapter(chapter_id, info["name"], s)
        self.layer = info["layer"]
        return chapter

    def titled_section(self, start: int, end: int) -> None:
        """A section opened by its title (a 篇 label of the collation notes, a part of the 卷首)."""
        self.section = None
        section = self.ensure_section()
        section.title = self.text[start:end]
        section.title_span = self.report.span(start, end)

    def front_parts(self, chapter_id: str) -> list[apart.FrontPart]:
        """The parts of the 通解's 卷首 (``apart.front_parts``); its text takes the chapter's layer."""
        self.layer = (data.chapter_of(self.work["id"], chapter_id) or {}).get("layer", self.layer)
        parts, missing = apart.front_parts(self.src, self.work["id"], chapter_id)
        for printed in missing:
            self.report.problem(0, "front-part-missing", f"the heading {printed} of a part of {chapter_id} is on no line of "
                                "this file: check the witness and the chapter's parts in conv/data/tongjie_chapters.toml")
        return parts

    def handle_apart(self, item: apart.ApartLine | None, s: int, e: int) -> None:
        """A line of the front matter or the collation notes: its heading, a 篇 label (the 章 of
        the entries after it, titled by it), a meta line, or text (never 章旨, 卷 lines or 记)."""
        if item is None:
            self.ensure_chapter(s)
            self.content(s, e)
            self.end_title_mode()
            return
        self.close_passage()
        self.end_title_mode()
        if item.kind == "heading":
            chapter = self.chapter if self.chapter is not None and self.chapter.id == item.chapter else None
            chapter = chapter or self.begin_apart(item.chapter, s)
            self.set_heading(chapter, item.start, item.end)
            if item.end < e:  # 儀禮監本正誤(附/)
                self.title_mode = "mulu"
                self.content(item.end, e)
                self.title_mode = None
                self.close_passage()
        elif item.kind == "label":
            self.titled_section(item.start, item.end)
        else:
            self.meta_line(item.kind, item.start, item.end)
        self.context = self.text[item.start:item.end]

    def meta_line(self, kind: str, start: int, end: int) -> None:
        """A line of metadata (siku, catalogue, credits) of the front matter, its blanks left out."""
        text = "".join(c for c in self.text[start:end] if not c.isspace() and c != "\u3000")
        meta = Meta(kind, text, self.report.span(start, end))
        self.chapter.meta.append(meta)
        self.chapter.order.append(("meta", meta))
