"""Parsing (解析): one seed's lines and tokens → chapters, sections, passages and notes.

The parser walks the seed line by line. Structural lines (the work title, 卷 and catalogue lines,
chapter titles, section titles, watermarks) are recognised by ``conv.reader.lines``; every other line is
lexed (``conv.reader.lexer``) and fed to a small state machine:

* text outside a note extends the current passage, or starts a new one after a note;
* 【 opens a note on the current passage — or re-opens the previous note when only a page break
  (line breaks) lies between its 】 and this 【 (a note split by a page break is one note);
* 】 closes the note; a 】 before any 【 in a seed closes the leading fragment of a note whose
  start is lost (a lacuna, not an error);
* ○ and U+3000 inside a note separate segments (``conv.parser.segments``); U+3000 outside a note ends
  a passage (通解 separates 记 items with it, 句读 indents with it).

Section titles standing inside a line (`…之也】右众賔受弓矢序立`, `…反位右司射请以乐节射`,
`…】右乐宾　记磬阶间…`) are found where a text run ends a line or follows a 】; a run that
admits more than one reading needs a reviewed correction (``conv.parser.corrections``), else it is
reported as a problem and kept as 经.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from conv.parser import glosses as gloss_parser
from conv.parser import phonology
from conv.reader import lines as line_kinds
from conv.parser.corrections import Corrections
from conv.datafiles import drops
from conv.errors import Problem
from conv.reader.lexer import Token, tokenize
from conv.model.tree import Chapter, Gloss, Meta, Passage, Section, Segment, Span
from conv.normalize import PUA_PATTERN, FoldedSource
from conv.reader.source import Line, Source
from conv.parser.segments import Unit, classify, split_bare_shu
from conv import datafiles as data


@cache
def _drop_rules() -> list[tuple[re.Pattern, dict]]:
    """The drop rules (``conv/data/drops.toml``) with their patterns compiled."""
    return [(re.compile(rule["pattern"]), rule) for rule in drops()]


@dataclass(slots=True)
class _Note:
    units: list[Unit]
    close_line: int | None = None  # line number of its 】 (None while open)
    close_offset: int | None = None
    lacuna: str | None = None
    mulu: bool = False


@dataclass(slots=True)
class _Passage:
    layer: str
    pieces: list[tuple[int, int]] = field(default_factory=list)  # [start, end) runs of its text
    notes: list[_Note] = field(default_factory=list)
    last_line: int = 0
    lacuna: str | None = None
    span_start: int | None = None
    span_end: int | None = None


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


class SeedParser:
    """Parses one decoded seed (see the module docstring)."""

    def __init__(self, source: Source, entry: dict | None, corrections: Corrections) -> None:
        self.src = source
        self.text = source.text
        self.folded = FoldedSource(source.text)  # every structural check reads the folded text
        self.seed = source.name
        self.entry = entry
        self.corrections = corrections
        self.title_corrections = corrections.applies(source.name, "title")
        self.layer_corrections = corrections.applies(source.name, "layer")
        self.problems: list[Problem] = []
        self.apparatus: list[dict] = []
        self.dropped: list[dict] = []
        self.chapters: list[Chapter] = []
        self.chapter: Chapter | None = None
        self.section: Section | None = None
        self.passage: _Passage | None = None
        self.note: _Note | None = None  # the open note
        self.pending_meta: list[tuple[Meta, int | None]] = []
        self.layer = "jing"
        self.juan: int | None = None
        self.title_section: Section | None = None  # a title line's section, for its note and 记 items
        self.title_mode: str | None = None  # None | "note" (title's own note) | "ji" (its 记 items)
        self.line_no = 0
        self.chapter_queue: list[str] = []
        self.work: dict | None = None
        self.title_span: Span | None = None
        self.ji_from_title = False  # the 记 items of a 通解 title line switched the layer to ji
        self.note_line = 0  # the line where the open note was opened or last went on

    # -- helpers ---------------------------------------------------------------------------
    def span(self, start: int, end: int) -> Span:
        return (self.seed, start, end)

    def problem(self, offset: int, kind: str, message: str) -> None:
        line, col = self.src.position(offset)
        self.problems.append(Problem(self.seed, line, col, kind, message))

    def record(self, kind: str, start: int, end: int, **fields) -> None:
        """An apparatus entry (校勘记): an editorial intervention of the converter."""
        line, col = self.src.position(start)
        entry = {"kind": kind, "span": list(self.span(start, end)), "line": line, "col": col}
        entry.update(fields)
        self.apparatus.append(entry)

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
            self.title_span = self.span(s, e)
            body = content[1:]
        elif self.entry is not None:
            work = next(w for w in data.works() if w["id"] == self.entry["work"])
        else:
            raise self.src.error(
                s,
                "cannot recognise the work from the first line",
                "line 1 must be a work's title (e.g. 仪礼郑注句读), or the seed must be described in seeds/manifest.toml",
            )
        self.work = work
        if self.entry is not None:
            self.chapter_queue = list(self.entry.get("chapters", []))
            self.layer = self.entry.get("start_layer", "jing")
            juan = self.entry.get("juan") or [None]
            self.juan = juan[0]
        self._start_fragment(body)
        for line in body:
            self.line_no = line.number
            self.handle_line(line)
        self.finish()
        return SeedResult(self.seed, work, self.title_span, self.chapters, self.dropped, self.apparatus, self.problems)

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
                    self._ensure_chapter(s)
                    self._ensure_section()
                    self.passage = _Passage(self.layer, lacuna="start", span_start=s, span_end=s)
                    self.note = _Note([Unit("", range(0), 0)], lacuna="start")
                    self.passage.notes.append(self.note)
                    self.note_line = line.number
                    self.record("lacuna-start", s, s, reason="the witness begins inside a note; its 经 and the note's opening are not in this excerpt")
                    return
            return

    # -- chapters, sections, meta ----------------------------------------------------------
    def _new_chapter(self, chapter_id: str, offset: int) -> Chapter:
        info = next((c for c in data.chapters() if c["id"] == chapter_id), None)
        if info is None:
            info = {"id": chapter_id, "name": chapter_id, "number": 99}
        chapter = Chapter(id=info["id"], title=info["name"], number=info["number"], seeds=[self.seed])
        self.chapters.append(chapter)
        self.chapter = chapter
        return chapter

    def _ensure_chapter(self, offset: int) -> Chapter:
        if self.chapter is None:
            if self.chapter_queue:
                chapter = self._new_chapter(self.chapter_queue.pop(0), offset)
            else:
                self.problem(offset, "unknown-chapter", "text before any chapter title, and the manifest does not say which chapter this is: add the seed to seeds/manifest.toml")
                chapter = self._new_chapter("unknown", offset)
            chapter.order.append(("lacuna", "start"))
            self.record("lacuna-chapter-start", offset, offset, chapter=chapter.id, reason="the excerpt begins in the middle of the chapter")
            self._flush_meta()
        return self.chapter

    def _ensure_section(self) -> Section:
        if self.section is None:
            self.section = Section(id="", title=None, title_span=None)
            self.chapter.order.append(("section", self.section))
            self.chapter.sections.append(self.section)
        return self.section

    def _flush_meta(self) -> None:
        for meta, _ in self.pending_meta:
            self.chapter.meta.append(meta)
            self.chapter.order.append(("meta", meta))
        self.pending_meta = []

    def handle_meta(self, kind: str, number: int | None, s: int, e: int) -> None:
        self.close_passage()
        self.pending_meta.append((Meta(kind, self.text[s:e], self.span(s, e)), number))

    def handle_chapter_title(self, title: line_kinds.ChapterTitle, s: int, e: int) -> None:
        self.close_passage()
        self.section = None
        previous = self.chapter
        pending, self.pending_meta = self.pending_meta, []
        juan_lines = [number for meta, number in pending if meta.kind == "juan"]
        if self.juan is None and len(juan_lines) > 1:
            self.juan = juan_lines[0]  # 卷五 … 卷六 before 燕礼第六: the first closes the 卷 before
        for meta, number in pending:
            if previous is not None and meta.kind == "juan" and number == self.juan:
                previous.meta.append(meta)  # a 卷 line closing the 卷 belongs to the chapter before
                previous.order.append(("meta", meta))
            else:
                self.pending_meta.append((meta, number))
                if meta.kind == "juan":
                    self.juan = number
        if self.chapter_queue:
            expected = self.chapter_queue.pop(0)
            if expected != title.chapter["id"]:
                self.problem(s, "manifest-chapter", f"chapter title {title.chapter['name']} but seeds/manifest.toml expects {expected}: correct the manifest")
        elif self.entry is not None:
            self.problem(s, "manifest-chapter", f"chapter title {title.chapter['name']} is not listed for this seed in seeds/manifest.toml: add it")
        chapter = self._new_chapter(title.chapter["id"], s)
        self._flush_meta()
        chapter.heading = self.text[s : s + title.length]
        chapter.heading_span = self.span(s, s + title.length)
        chapter.order.append(("heading", None))
        self.layer = "jing"
        rest = s + title.length
        if rest < e:
            self.title_mode = "mulu"
            self.content(rest, e)
            self.title_mode = None

    def handle_title_line(self, s: int, e: int, length: int, marker: str) -> None:
        self._ensure_chapter(s)
        self.close_passage()
        section = self._ensure_section()
        self._set_title(section, s, s + length, marker)
        if s + length < e:
            self.title_section = section
            self.title_mode = "note"
            self.content(s + length, e)
        self.end_title_mode()

    def _set_title(self, section: Section, start: int, end: int, marker: str) -> None:
        section.title = self.text[start:end]
        section.title_span = self.span(start, end)
        section.marker = marker
        self.section = None

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

    # -- lines ---------------------------------------------------------------------------
    def handle_line(self, line: Line) -> None:
        s, e = self._strip(line)
        rule = self._is_dropped(s, e)
        if rule is not None:
            self.dropped.append({"span": list(self.span(s, e)), "reason": rule["reason"], "text": self.text[s:e]})
            return
        if self.note is not None and self.note_line < line.number:
            self.note_line = line.number
            self.problem(s, "unclosed-note", f"the note opened before line {line.number} has no 】 at the end of its line; it is read as going on here — check the witness")
            self.content(s, e)
            return
        if self.note is not None:
            self.content(s, e)
            return
        folded = self.folded.same_length(s, e)
        meta = line_kinds.meta_line(folded)
        if meta is not None:
            self.handle_meta(meta.kind, meta.number, s, e)
            return
        chapter_title = line_kinds.chapter_title(folded)
        if chapter_title is not None:
            self.handle_chapter_title(chapter_title, s, e)
            return
        self._ensure_chapter(s)
        self._flush_meta()
        if folded == "记":
            self.close_passage()
            self.section = None
            meta = Meta("ji-marker", "记", self.span(s, e))
            self.chapter.meta.append(meta)
            self.chapter.order.append(("meta", meta))
            self.layer = "ji"
            return
        length = line_kinds.title_length(folded, "右")
        if length is not None:
            self.handle_title_line(s, e, length, "右")
            return
        if self.work["layout"] == "judou" and self.layer == "ji":
            length = line_kinds.title_length(folded, "记")
            if length is not None and "【" not in folded[:length]:
                self.handle_title_line(s, e, length, "记")
                return
        self.content(s, e)
        self.end_title_mode()

    # -- content -------------------------------------------------------------------------
    def content(self, s: int, e: int) -> None:
        self.feed(tokenize(self.text, s, e))

    def feed(self, tokens: list[Token]) -> None:
        """Run the state machine over a line's tokens (see the module docstring)."""
        i = 0
        while i < len(tokens):
            if self.note is not None:
                i = self.in_note(tokens, i)
                continue
            token = tokens[i]
            if token.kind == "text":
                i = self.text_run(tokens, i)
                continue
            elif token.kind == "open":
                self.open_note(token)
            elif token.kind == "close":
                self.problem(token.start, "unbalanced", "】 with no 【 before it: check the witness; the bracket is ignored")
            elif token.kind in ("ideo", "circle"):
                if token.kind == "circle":
                    self.problem(token.start, "stray-separator", "○ outside a note: check the witness")
                self.close_passage_if_text()
            i += 1

    def in_note(self, tokens: list[Token], i: int) -> int:
        """Take the tokens from ``i`` into the open note, up to its 】 (or the end of the line);
        returns the index of the next token."""
        note = self.note
        unit = note.units[-1]
        text = self.text
        while i < len(tokens):
            token = tokens[i]
            kind, start, end = token
            i += 1
            if kind == "text":
                # a text token holds no markup (``conv.reader.lexer``): every offset in it counts
                offsets = unit.offsets
                if not offsets:
                    unit.offsets = range(start, end)
                    unit.text = text[start:end]
                    continue
                if type(offsets) is range:
                    unit.offsets = offsets = list(offsets)  # a unit cut by a page break or a space
                offsets.extend(range(start, end))
                unit.text += text[start:end]
            elif kind == "circle" or kind == "ideo":
                unit = Unit("", range(0), unit.ordinal + 1)
                note.units.append(unit)
            elif kind == "close":
                note.close_line = self.line_no
                note.close_offset = start
                self.note = None
                return i
            elif kind == "open":
                self.problem(start, "unbalanced", "【 inside a note: the note before it was never closed; it is closed here — check the witness")
                note.close_line = self.line_no
                note.close_offset = start
                self.note = None
                self.open_note(token)
                return i
        return i

    def open_note(self, token: Token) -> None:
        if self.title_mode == "note" and self.passage is None:
            self.passage = _Passage("title")
        elif self.title_mode == "mulu" and self.passage is None:
            self.passage = _Passage("mulu")
        passage = self.passage
        if passage is not None and passage.notes:
            last = passage.notes[-1]
            if last.close_line is not None and last.close_line < self.line_no:
                # 】 (page break) 【: one note split by a page break
                self.record("page-break-note", last.close_offset, token.end, reason="a note split by a page break is joined (】…【 removed)")
                last.close_line = None
                self.note = last
                self.note_line = self.line_no
                return
        if passage is None:
            self._ensure_section()
            passage = self.passage = _Passage(self.layer, span_start=token.start, span_end=token.start, last_line=self.line_no)
            self.problem(token.start, "note-without-text", "a note with no 经 before it: check the witness")
        note = _Note([Unit("", range(0), 0)], mulu=passage.layer == "mulu")
        passage.notes.append(note)
        self.note = note
        self.note_line = self.line_no

    def text_run(self, tokens: list[Token], i: int) -> int:
        """Handle a text run outside notes, splitting off a section title standing inside it."""
        token = tokens[i]
        last_in_line = i + 1 == len(tokens) or (i + 2 == len(tokens) and tokens[-1].kind == "space")
        after_close = i > 0 and tokens[i - 1].kind == "close" or (i > 1 and tokens[i - 1].kind == "space" and tokens[i - 2].kind == "close")
        if self.title_mode == "note":
            self.title_mode = "ji"
            if self.text[token.start] in "记記":
                self.close_passage()
                self.title_section.ji_marker = Meta("ji-marker", self.text[token.start], self.span(token.start, token.start + 1))
                self.layer, self.ji_from_title = "ji", True
                token = Token("text", token.start + 1, token.end)
                if token.start == token.end:
                    return i + 1
        split = self.find_inline_title(token, last_in_line, after_close, tokens, i)
        if split is None:
            self.add_text(token.start, token.end)
            return i + 1
        title_start, title_end = split
        if title_start > token.start:
            self.add_text(token.start, title_start)
        self.close_passage()
        section = self._ensure_section()
        self._set_title(section, title_start, title_end, self.text[title_start])
        if title_end < token.end or not last_in_line:
            # 通解: 右乐宾　记磬阶间… — the title's 记 items follow on this line
            self.title_section = section
            self.title_mode = "note"
            rest = [Token("text", title_end, token.end)] if title_end < token.end else []
            self.feed(rest + tokens[i + 1 :])
            return len(tokens)
        return i + 1

    def find_inline_title(self, token: Token, last_in_line: bool, after_close: bool, tokens, i) -> tuple[int, int] | None:
        run = self.text[token.start : token.end]
        folded = self.folded.same_length(token.start, token.end)
        if self.title_mode in ("note", "mulu"):
            return None
        correction = self.corrections.title(self.seed, run) if self.title_corrections and (last_in_line or after_close) else None
        if correction is not None:
            title = correction["title"]
            self.record("correction", token.start, token.end, reason=correction["reason"], decision=f"title: {title}" if title else "no title: 经", correction=correction["id"])
            if not title:
                return None
            start = token.start + len(run) - len(title) if run.endswith(title) else token.start + run.index(title)
            return start, start + len(title)
        # 通解: 】右乐宾　记… or 】右一人举觯记乐作…
        if after_close and folded.startswith("右") and not last_in_line:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            after = tokens[i + 2] if i + 2 < len(tokens) else None
            ji_index = folded.find("记", 1)
            if 2 <= ji_index <= line_kinds.MAX_TITLE and folded.count("右", 0, ji_index) == 1:
                return token.start, token.start + ji_index
            if nxt is not None and nxt.kind == "ideo" and after is not None and after.kind == "text" and self.folded.same[after.start] == "记":
                if len(run) <= line_kinds.MAX_TITLE and folded.count("右") == 1:
                    return token.start, token.end
                self.problem(token.start, "ambiguous-title", f"cannot tell where the section title begins in {run!r}: add a correction to conv/data/corrections.toml")
            return None
        if not last_in_line:
            return None
        count = folded.count("右")
        if count == 1:
            index = folded.index("右")
            if (index == 0 and not after_close) or not 2 <= len(run) - index <= line_kinds.MAX_TITLE:
                return None
            return token.start + index, token.end
        if count > 1:
            self.problem(token.start, "ambiguous-title", f"{run!r} holds {count} 右: cannot tell whether or where a section title begins; add a correction to conv/data/corrections.toml")
            return None
        if self.work["layout"] == "judou" and self.layer == "ji" and folded.find("记", 1) != -1:
            self.problem(token.start, "ambiguous-title", f"{run!r} may end with a 记 section title; add a correction to conv/data/corrections.toml")
        return None

    def add_text(self, start: int, end: int) -> None:
        """Add ``text[start:end]`` (part of a text token: no markup) to the passage."""
        if start >= end:
            return
        passage = self.passage
        if passage is not None and passage.layer in ("title", "mulu"):
            self.close_passage()
            passage = None
        if passage is None or passage.notes:
            self.close_passage()
            self._ensure_section()
            passage = self.passage = _Passage(self.layer, span_start=start)
        elif passage.pieces and passage.last_line < self.line_no:
            self.record("page-break-text", passage.pieces[-1][1], start, reason="经 split by a page break is joined")
        if passage.span_start is None or not passage.pieces and passage.span_start > start:
            passage.span_start = start
        passage.pieces.append((start, end))
        passage.span_end = end
        passage.last_line = self.line_no

    def close_passage_if_text(self) -> None:
        if self.passage is not None and (self.passage.pieces or self.passage.notes):
            self.close_passage()

    def close_passage(self) -> None:
        passage, self.passage = self.passage, None
        if passage is None:
            return
        notes = [segment for note in passage.notes for segment in self.segments(note, passage.layer == "mulu")]
        if passage.layer == "title":
            for segment in notes:  # a note on a section title (章旨) is the editor's, not 郑注
                if segment.layer == "zhu":
                    segment.layer = "an"
            self.title_section.title_notes.extend(notes)
            return
        if passage.layer == "mulu":
            self.chapter.mulu.extend(notes)
            return
        pieces = passage.pieces
        if len(pieces) == 1:
            text = self.text[pieces[0][0] : pieces[0][1]]
        else:
            text = "".join([self.text[a:b] for a, b in pieces])
        start = passage.span_start if passage.span_start is not None else (notes[0].span[1] if notes else 0)
        end = passage.span_end if pieces else start
        model = Passage(id="", layer=passage.layer, text=text, normalized=self.folded.fold(text, pieces), span=self.span(start, end), notes=notes, lacuna=passage.lacuna)
        target = self.title_section if self.title_mode == "ji" and self.title_section is not None else self._ensure_section()
        target.passages.append(model)

    def segments(self, note: _Note, mulu: bool) -> list[Segment]:
        units = [unit for unit in note.units if unit.offsets]
        if self.work["layout"] == "tongjie":
            units = split_bare_shu(units)
        runs: dict[int, tuple] = {}  # the gloss runs classify parsed already
        layers = classify(units, self.work["layout"], mulu, runs)
        out = []
        for index, (unit, layer) in enumerate(zip(units, layers)):
            correction = self.corrections.layer(self.seed, unit.text) if self.layer_corrections else None
            if correction is not None:
                self.record("correction", unit.offsets[0], unit.offsets[-1] + 1, reason=correction["reason"], decision=f"layer: {correction['layer']} (not {layer})", correction=correction["id"])
                layer = correction["layer"]
            lacuna = None
            if note.lacuna == "start" and index == 0:
                lacuna = "start"
            if note.close_line is None and note is self.note and index == len(units) - 1:
                lacuna = "end"
            offsets = unit.offsets
            pieces = ((offsets.start, offsets.stop),) if type(offsets) is range else [(o, o + 1) for o in offsets]
            segment = Segment(layer=layer, text=unit.text, normalized=self.folded.fold(unit.text, pieces), span=self.span(offsets[0], offsets[-1] + 1), lacuna=lacuna, offsets=offsets)
            segment.glosses = self.glosses(segment, runs.get(index) if layer == "yin" else None)
            out.append(segment)
        return out

    def glosses(self, segment: Segment, parsed: tuple | None = None) -> list[Gloss]:
        """The glosses of a segment; ``parsed``: ``parse_run`` of its text, when known."""
        if segment.layer == "yin":
            found, unparsed = parsed if parsed is not None else gloss_parser.parse_run(segment.text)
            for a, b in unparsed:
                self.problem(segment.offsets[a], "unparsed-gloss", f"音义 text {segment.text[a:b]!r} is not a gloss the parser knows: check it, or extend conv/glosses.py")
        elif segment.layer in ("zhu", "an"):
            found = gloss_parser.embedded(segment.text)
        else:
            found = []
        out = []
        for g in found:
            span = self.span(segment.offsets[g.start], segment.offsets[g.end - 1] + 1)
            reading = phonology.reading(g)
            out.append(Gloss(
                g.char, g.kind, g.upper, g.lower, g.sound, g.text, span, position=reading.position,
                positions=reading.positions, status=reading.status, second=g.second, context=g.context,
                definition=g.definition, scope=g.scope, note=reading.note,
            ))
        return out

    def finish(self) -> None:
        if self.note is not None:
            note = self.note
            end = note.units[-1].offsets[-1] + 1 if note.units[-1].offsets else len(self.text)
            self.record("lacuna-end", end, end, reason="the witness ends inside a note; the rest of the note is not in this excerpt")
            self.close_passage()
            self.note = None
        else:
            self.close_passage()
        if self.chapter is None:
            self._ensure_chapter(len(self.text))
        self._flush_meta()
        self.chapter.order.append(("lacuna", "end"))
        end = len(self.text.rstrip())
        self.record("lacuna-chapter-end", end, end, chapter=self.chapter.id, reason="the excerpt ends before the chapter does")
        self.pua()

    def pua(self) -> None:
        dropped = [(d["span"][1], d["span"][2]) for d in self.dropped]
        for match in PUA_PATTERN.finditer(self.text):
            offset, char = match.start(), match.group()
            if any(a <= offset < b for a, b in dropped):
                continue
            entry = data.pua().get(char)
            code = f"U+{ord(char):04X}"
            if entry is None:
                self.problem(offset, "unknown-pua", f"private-use code point {code} is not in conv/data/pua.toml: identify the character and add it there")
            elif entry["kind"] == "spurious":
                self.record("spurious", offset, offset + 1, witness=code, reading="", reason=entry["reason"])
            else:
                self.record("pua", offset, offset + 1, witness=code, reading=entry["char"], reason=entry["reason"])
