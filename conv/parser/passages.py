"""Passages (经文与注): a line's tokens → passages with their notes, by a small state machine.

The middle layer of the seed parser (``conv.parser.seeds.SeedParser``), over the structure
(``conv.parser.structure``). Text is lexed by ``conv.reader.lexer``; then:

* text outside a note extends the current passage, or starts a new one after a note;
* 【 opens a note on the current passage — or re-opens the previous note when only a page break
  (line breaks) lies between its 】 and this 【 (a note split by a page break is one note);
* 】 closes the note; a 】 before any 【 in a seed closes the leading fragment of a note whose
  start is lost (a lacuna, not an error);
* ○ and U+3000 inside a note separate segments (``conv.parser.segments``); U+3000 outside a note ends
  a passage (通解 separates 记 items with it, 句读 indents with it); so does a ○ between two runs of
  句读 经 (the persons of a 喪服 list), while a ○ right after a section title opens the editor's
  remark on it (``open_remark``); any other ○ outside a note is reported (``stray-separator``).

A text run may hold a section title (``conv.parser.titles``); a closed passage's notes become
segments (``conv.parser.notes``). Outside the body, a passage draft collects the note of a section
title (layer ``title``: its 章旨) or of a chapter title (layer ``mulu``: 郑目录).
"""
from __future__ import annotations

from conv.model.tree import Meta, Passage, Section
from conv.normalize import FoldedSource
from conv.parser.corrections import Corrections
from conv.parser.drafts import NoteDraft, PassageDraft
from conv.parser.note_runs import NoteRuns
from conv.parser.notes import NoteSegmenter
from conv.parser.restorations import Misprints, Restorations
from conv.parser.report import SeedReport
from conv.parser.segments import Unit
from conv.parser.structure import SeedStructure
from conv.parser.titles import InlineTitles
from conv.parser.unbracketed import Unbracketed
from conv.reader.lexer import Token, tokenize
from conv.reader.lines import JI_MARK
from conv.reader.source import Source


class PassageReader(SeedStructure):
    """Reads the text and notes of one seed's lines into passages (see the module docstring)."""

    def __init__(self, source: Source, entry: dict | None, corrections: Corrections, report: SeedReport) -> None:
        super().__init__(source, entry, report)
        self.folded = FoldedSource(source.text)  # every structural check reads the folded text
        self.corrections = corrections
        self.work: dict | None = None
        self.inline_titles: InlineTitles | None = None
        self.segmenter: NoteSegmenter | None = None
        self.passage: PassageDraft | None = None
        self.note: NoteDraft | None = None  # the open note
        self.layer = "jing"
        self.title_section: Section | None = None  # a title line's section, for its note and 记 items
        self.title_mode: str | None = None  # None | "note" (title's own note) | "ji" (its 记 items) | "mulu"
        self.line_no = 0
        self.ji_from_title = False  # the 记 items of a 通解 title line switched the layer to ji
        self.note_line = 0  # the line where the open note was opened or last went on
        self.tongjie_witness = False  # the 文渊阁 通解 (conv.parser.unbracketed, conv.parser.outline)
        self.unbracketed: Unbracketed | None = None
        self.context = ""  # the text before the current line a glossed character may stand in
        self.title_held = False  # a title's line ended: its note or items wait for the next line
        self.indent = self.title_indent = 0  # the blanks opening the current line, the held title's line
        self.peeked: tuple[int, int, list[Token]] | None = None  # a line's tokens, read before it is fed
        self.remark: NoteDraft | None = None  # the editor's remark after a title's ○ (``open_remark``)
        self.table_row = False  # the line being read is a row of a table (``_cells``)

    def begin(self, work: dict) -> None:
        """The seed is a witness of ``work``: its layout decides titles and note layers."""
        self.work = work
        self.tongjie_witness = work["layout"] == "tongjie" and self.src.paged
        self.inline_titles = InlineTitles(self.report, self.text, self.folded, self.corrections, work["layout"],
                                          self.tongjie_witness)
        restored = Restorations().for_seed(self.report.seed, self.text, self.report)
        misprints = Misprints().for_seed(self.report.seed, self.text, self.report)
        restored.update(misprints)
        self.segmenter = NoteSegmenter(self.report, self.folded, self.corrections, work["layout"], restored,
                                       witness=self.tongjie_witness)
        if self.tongjie_witness:  # the 文渊阁 通解: small characters outside its parentheses
            self.unbracketed = Unbracketed(self.text, self.report, NoteRuns(self.src, self.report), misprints)

    def tokens(self, s: int, e: int) -> list[Token]:
        """The tokens of ``text[s:e]`` (one line), the 通解 witness's small runs in their notes."""
        peeked, self.peeked = self.peeked, None
        if peeked is not None and peeked[:2] == (s, e):
            return peeked[2]
        tokens = tokenize(self.text, s, e)
        if self.unbracketed is not None:
            tokens = self.unbracketed.adjust(tokens, self.context)
        return tokens

    def content(self, s: int, e: int) -> None:
        tokens = self.tokens(s, e)
        self.table_row = _cells(tokens)
        self.feed(tokens)

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
                self.report.problem(token.start, "unbalanced", "】 with no 【 before it: check the witness; the bracket is ignored")
            elif token.kind == "circle" and self.title_mode == "note" and self.passage is None:
                self.open_remark()
            elif token.kind in ("ideo", "circle"):
                if token.kind == "circle" and not self.between_items(tokens, i):
                    self.report.problem(token.start, "stray-separator", "○ outside a note: check the witness")
                self.close_passage_if_text()
            i += 1

    def open_remark(self) -> None:
        """A ○ right after a section title on its line (句读: ``　右主人酬尸○特牲及下不儐尸皆無酬尸之事…``,
        the lines after it indented as the title): the rest of the title's lines is 張爾岐's remark on
        the 章, printed large — a note of the title, closed at the end of the line (``close_remark``)."""
        self.passage = PassageDraft("title")
        self.note = self.remark = NoteDraft([Unit("", range(0), 0)])
        self.passage.notes.append(self.note)
        self.note_line = self.line_no

    def close_remark(self, end: int) -> None:
        """The end of the title's line closes the remark ``open_remark`` began (and its passage: a note
        on the next line is one of its own, not the remark going on)."""
        if self.note is not None and self.note is self.remark:
            self.note.close_line, self.note.close_offset = self.line_no, end
            self.note = self.remark = None
            self.close_passage()

    def between_items(self, tokens: list[Token], i: int) -> bool:
        """Is the ○ ``tokens[i]`` one between two runs of 句读 经, as between the persons of a 喪服 list
        (``叔父之下殤○適孫之下殤○昆弟之下殤…``)? It ends a passage, as the book separates them."""
        return (self.work is not None and self.work["layout"] == "judou" and self.layer == "jing"
                and 0 < i < len(tokens) - 1 and tokens[i - 1].kind == "text" and tokens[i + 1].kind == "text")

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
                if note.lacuna is None and not any(u.offsets for u in note.units):
                    self.report.problem(start, "empty-note", "【】 with nothing inside: the empty brackets are left out — check the witness")
                note.close_line = self.line_no
                note.close_offset = start
                self.note = None
                return i
            elif kind == "open":
                self.report.problem(start, "unbalanced", "【 inside a note: the note before it was never closed; it is closed here — check the witness")
                note.close_line = self.line_no
                note.close_offset = start
                self.note = None
                self.open_note(token)
                return i
        return i

    def open_note(self, token: Token) -> None:
        if self.title_mode == "note" and self.passage is None:
            self.passage = PassageDraft("title")
        elif self.title_mode == "mulu" and self.passage is None:
            self.passage = PassageDraft("mulu")
        passage = self.passage
        if passage is not None and passage.notes:
            last = passage.notes[-1]
            if last.close_line is not None and last.close_line < self.line_no:
                # 】 (page break) 【: one note split by a page break (a paged transcription: by a
                # column its layout did not join, 通解 …)疏曰洗者…¶(穢地…: no intervention)
                if not self.src.paged:
                    self.report.record("page-break-note", last.close_offset, token.end, reason="a note split by a page break is joined (】…【 removed)")
                last.close_line = None
                self.note = last
                self.note_line = self.line_no
                return
        if passage is None:
            self.ensure_section()
            passage = self.passage = PassageDraft(self.layer, span_start=token.start, span_end=token.start, last_line=self.line_no)
            if passage.layer in ("jing", "ji"):  # the front matter opens a paragraph with a small 臣
                passage.on_marker = self.noted_marker(token.start)
                if not passage.on_marker:
                    self.report.problem(token.start, "note-without-text", self.no_text_message(token.start))
        note = NoteDraft([Unit("", range(0), 0)], mulu=passage.layer == "mulu")
        passage.notes.append(note)
        self.note = note
        self.note_line = self.line_no

    def noted_marker(self, at: int) -> str:
        """The 记 mark a note at ``at`` is on, where it opens right after the mark (通解 士昏禮
        右納采記(疏曰凡言記者皆是記經不備…): what a 记 is); else ""."""
        marker = self.title_section.ji_marker if self.title_section is not None else None
        return marker.text if marker is not None and marker.span[2] == at and self.layer == "ji" else ""

    def no_text_message(self, at: int) -> str:
        """What a note with no 经 before it at ``at`` is, as far as the parser can tell."""
        if self.table_row:  # as 公食大夫禮's 饌位圖 (009 l.144–152) was before conv/data/diagrams.toml named it
            return ("a cell of a table: the line lays out small characters in a grid, notes after blanks "
                    "with no 经 before them; if the book prints a diagram here, read it and record it in "
                    "conv/data/diagrams.toml (then it is a figure), else check the witness")
        return "a note with no 经 before it: check the witness"

    def text_run(self, tokens: list[Token], i: int) -> int:
        """Handle a text run outside notes, splitting off a section title standing inside it."""
        token = tokens[i]
        last_in_line = i + 1 == len(tokens) or (i + 2 == len(tokens) and tokens[-1].kind == "space")
        after_close = i > 0 and tokens[i - 1].kind == "close" or (i > 1 and tokens[i - 1].kind == "space" and tokens[i - 2].kind == "close")
        if self.title_mode == "note":
            self.title_mode = "ji"
            mark = JI_MARK.match(self.text, token.start, token.end)  # 記, or ○記 (投壺's 右作樂○記鼓…)
            if mark:
                self.close_passage()
                self.title_section.ji_marker = Meta("ji-marker", mark.group(), self.report.span(*mark.span()))
                self.layer, self.ji_from_title = "ji", True
                token = Token("text", mark.end(), token.end)
                if token.start == token.end:
                    return i + 1
        if self.title_mode in ("note", "mulu"):
            split = None
        else:
            split = self.inline_titles.find(token, last_in_line, after_close, tokens, i, self.layer == "ji")
        if split is None:
            self.add_text(token.start, token.end)
            return i + 1
        title_start, title_end = split
        if title_start > token.start:
            self.add_text(token.start, title_start)
        self.close_passage()
        section = self.ensure_section()
        self.set_title(section, title_start, title_end, self.text[title_start])
        if title_end == token.end and self._next_column_opens_a_zhang(tokens, i):
            return i + 1  # 通解: …)右立司正¶升自西階…: the title ends its column, the next opens the next 章
        if title_end < token.end or not last_in_line:
            # 通解: 右乐宾　记磬阶间… — the title's 记 items follow on this line
            self.title_section = section
            self.title_mode = "note"
            rest = [Token("text", title_end, token.end)] if title_end < token.end else []
            self.feed(rest + tokens[i + 1 :])
            return len(tokens)
        return i + 1

    def _next_column_opens_a_zhang(self, tokens: list[Token], i: int) -> bool:
        """After a title ending its line of the witness, does the next line open with the 经 of the next 章
        (not the title's 记, 辭 or 傳 items, which open with their mark)?"""
        following = self.inline_titles.next_line_token(tokens, i)
        return following is not None and (following.kind != "text" or self.text[following.start] not in "记記辭辞傳传")

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
            self.ensure_section()
            passage = self.passage = PassageDraft(self.layer, span_start=start)
        elif passage.pieces and passage.last_line < self.line_no and (
                self.tongjie_witness or self.src.paged and passage.layer in ("jing", "ji")):
            # the 文渊阁 witness: a paragraph of the book is a passage of its own — in the 句读 a column of 经 or 记
            # that does not fill its 21 cells ends one (有司徹 …其薦脀¶皆如儐禮¶卒乃羞于賔…), and so does a change of
            # indentation (丧服's 经 at the column's top, its 传 one cell down: 父｜傳曰為父何以斬衰也…); the columns
            # of 20 cells that run on are decided in conv/data/column_joins.toml
            self.close_passage()
            self.ensure_section()
            passage = self.passage = PassageDraft(self.layer, span_start=start)
        elif passage.pieces and passage.last_line < self.line_no and not self.src.paged:
            self.report.record("page-break-text", passage.pieces[-1][1], start, reason="经 split by a page break is joined")
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
        mulu = passage.layer == "mulu"
        notes = [segment for note in passage.notes for segment in self.segmenter.segments(note, mulu, note is self.note)]
        if passage.layer == "title":
            for segment in notes:  # a note on a section title (章旨) is the editor's, not 郑注
                if segment.layer == "zhu":
                    segment.layer = "an"
            self.title_section.title_notes.extend(notes)
            return
        if mulu:
            self.chapter.mulu.extend(notes)
            return
        pieces = passage.pieces
        if len(pieces) == 1:
            text = self.text[pieces[0][0] : pieces[0][1]]
        else:
            text = "".join([self.text[a:b] for a, b in pieces])
        start = passage.span_start if passage.span_start is not None else (notes[0].span[1] if notes else 0)
        end = passage.span_end if pieces else start
        model = Passage(id="", layer=passage.layer, text=text, normalized=self.folded.fold(text, pieces), span=self.report.span(start, end), notes=notes, lacuna=passage.lacuna,
                        on_marker=passage.on_marker)
        target = self.title_section if self.title_mode == "ji" and self.title_section is not None else self.ensure_section()
        target.passages.append(model)


def _cells(tokens: list[Token]) -> bool:
    """Is a line of these tokens laid out as a row of a table: a note right after U+3000 blanks?"""
    return any(token.kind == "open" and before.kind == "ideo" for before, token in zip(tokens, tokens[1:]))
