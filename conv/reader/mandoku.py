"""Reading a Kanseki Repository "mandoku" transcription (读入：汉籍リポジトリ文渊阁本): file → positioned runs.

:func:`read` turns one file of ``seeds/wenyuange/KR1d00xx/`` into runs of large (大字) and small
(小字) characters with exact offsets, lines and pages; a later parser builds works → chapters →
sections → passages → notes out of them. The reader decides nothing the markup does not say.

Markup (never text): the header (``# -*- mode: … -*-``, ``#+KEY: value``, only at the top),
``<pb:KR1d0038_WYG_005-15b>`` page tags (卷 5, 叶 15, 面 b), ``¶``, ``(`` ``)``, the ``/`` inside
``(…)``, line breaks, U+3000 and all other whitespace. Every other character is text and lands in
exactly one :class:`Run`, once (CONSERVATION, :func:`check_conservation`). ``&KR0871;`` (a gaiji) is
ONE character, ``chr(0xF0000 + 871)`` (plane-15 private use; :func:`gaiji` gives the entity back),
its offset that of the ``&``. So is a composed character (组字式) ``[炫-ㄙ+ㄥ]`` (KR1d0085_003,
024; ``[沔-丏+丐]`` KR1d0038_012), a plane-16 stand-in from the fixed table ``COMPOSED`` (an unknown
one is an error). ``○`` (separator of commentators) and ``□`` (a lost character) are text.

What the 57 files show:

- A physical line is one printed column of a 面 (8 columns of 21 cells in the 文渊阁 copy) and ends
  in ``¶``; in KR1d0085 the last column of a 面 has no ``¶`` (its ``<pb:…>¶`` line follows). Pages
  only go forwards (KR1d0038_000 skips 3b). The tag's juan is the FILE number: KR1d0085_014 holds
  卷十五 (卷十四 is missing), so from there 卷 = file number + 1.
- ``(a/b)`` is one column of a 双行小注: right half ``a`` read before left half ``b``, the file
  order: ``乃請(主/人)¶ … (州長也…/出迎出門也…)`` reads 主人州長也…出迎出門也…; ``(臣/)`` has
  an empty left half. No piece holds two ``/`` (refused: a column has two halves). Every ``(``
  closes on its own line; a note running on to the next column is ``…)¶`` then ``(…``. KR1d0085
  has no ``/`` at all: its notes are transcribed in reading order, 42 small characters a column,
  and there many 音义 (``筮市例反``) and ``疏曰`` heads, printed small, stand outside ``(…)``.
- U+3000 is indentation (KR1d0038 only; KR1d0085 has none) and, inside a line, a blank between
  list items (丧服 ``叔父之長殤中殤　姑姊妹之長殤中殤``) or the cells of a diagram (KR1d0038_009
  l.143–152). It never ends a run; :attr:`Run.gaps` records where it stood. No U+3000 stands
  inside ``(…)`` (ASCII blanks do, twice: 009 l.144, 011 l.143); it would be treated the same way.
- Logical lines (a paragraph: a 章's 经, one 记 item, a 传 block, a title with its 目录 note) come
  from the layout alone: a text line runs on from the previous one if that one fills its column
  (21 cells: large characters, blanks and indentation 1 each; a note column max(right, left), or
  half its length without ``/``) and both are indented alike, or if that one ends with ``)`` and
  this one starts with ``(`` no less indented (a note running on, also under the hanging indent
  of KR1d0038_018). Otherwise, after a blank line and where the indentation changes
  (``　右戒賔``, ``　傳曰…``), a new one starts. Undecidable, kept as they fall: a paragraph
  ending at the foot of a column is joined to the next (KR1d0038_018 l.26). A few columns hold 20
  cells though the text runs on (001 l.285 ``有乾¶肉``, 007 l.184, l.530): ``column_joins.toml``
  joins them. In KR1d0085 a column counted at 20 cells runs on as one at 21 does (:data:`FULL_AT`: the count of its notes and its small
  音义 is an estimate there; 「冉｜有問於孔子」), unless it ends a 章 with its title after the 章's
  last note (:attr:`PhysLine.runs_on`); 抬头 (``國朝``
  raised one cell in 提要) breaks. In KR1d0085 the rule is weak: unmarked small text counts as
  large, so ``右筮日`` (001 l.84) is joined to the full-looking column before it; use
  :attr:`PhysLine.joins` and the text there. A line wider than two columns is no column (KR1d0085
  writes a 章 title and its 记 items, or a whole paragraph, on one line: 007 l.48): nothing runs on
  from it but a note (``…)`` then ``(…``), nor over a page break but where the reviewed decisions of
  ``conv/data/page_joins.toml`` say (``conv.reader.page_joins``: 頁末斷段, the ``runs_on`` of :func:`parse`).

Runs: per physical line (:attr:`PhysLine.runs`, cut at ``(`` and ``)``), and as units
(:meth:`MandokuText.units`): the runs of one logical line that continue each other over line and
page ends (``…)¶`` + ``(…``, or large text over ``¶``) joined into one :class:`Run` (the line
runs carry ``continues``), with ``breaks`` where a new column starts.
"""
from __future__ import annotations

import bisect
import gc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, NoReturn

from conv.errors import ConversionError

from conv.reader.mandoku_check import check_conservation
from conv.reader.mandoku_lex import (BREAK, LAST_PAGE, NAME, PUA, STRAY, TOKEN, Page, PageTags, chinese_number,
                                     display, header_entry)
from conv.unencoded import COMPOSED, composed_char, gaiji_char
from conv.unencoded import is_stand_in as is_gaiji
from conv.unencoded import markup as gaiji

__all__ = ["COLUMN", "COMPOSED", "FULL_AT", "LogicalLine", "MandokuText", "Page", "PhysLine", "Run", "check_conservation",
           "chinese_number", "composed_char", "display", "gaiji", "gaiji_char", "is_gaiji", "parse", "read"]

COLUMN = 21                  # cells of a column of the 文渊阁 copy
#: Cells from which a line fills its column, by text where it is not :data:`COLUMN`. KR1d0085 writes
#: its notes without ``/`` and many of its small 音义 outside ``(…)``, so a line's cells are an
#: estimate: lines of 20 cells end before a paragraph ends 488 times (48 without a note), lines of
#: 17 or 18 about 20 times each, and the text after a 20-cell line reads on mid-word (「冉｜有問於孔子」,
#: 「哀公十｜二年」, 「龜｜蛇為旐」, 「冡人｜下大夫」): such a line is as full as one of 21.
FULL_AT = {"KR1d0085": 20}
#: A 章 title after a note, after at most this many characters (the source's name: 爾雅, 周禮).
TITLE_AFTER_SOURCE = 3
BOM = "\ufeff"


@dataclass
class Run:
    """A maximal stretch of text characters of one size, in reading order.

    Per physical line (``PhysLine.runs``) a run is cut by ``(`` and ``)``; a unit
    (:meth:`MandokuText.units`) joins the runs of one logical line that continue each other
    (``…)¶`` + ``(…``, or large text over a line end), with ``breaks`` where a column starts.
    """

    small: bool                 # inside (…): small characters
    text: str                   # reading order; a gaiji or 组字式 as one stand-in (see gaiji())
    offsets: list[int]          # offsets[i]: offset of text[i] (of its "&" or "[" for a stand-in)
    line: int                   # line of text[0]
    page: Page | None           # page of text[0] (None before the first <pb:…>)
    end: int = 0                # offset just after the last character (after a stand-in's ";" or "]")
    end_line: int = 0           # line of the last character
    continues: bool = False     # this line run continues the previous one (same unit)
    gaps: tuple[int, ...] = ()  # i: whitespace stood before text[i] on the same line
    splits: tuple[int, ...] = ()  # i: text[i] starts a left half-column (after "/")
    breaks: tuple[int, ...] = ()  # units only: i: text[i] starts a new physical line

    @property
    def start(self) -> int:
        return self.offsets[0]


@dataclass
class PhysLine:
    """One line of the file: ``kind`` is header, page (only <pb:…>), blank or text."""

    number: int
    start: int
    end: int                    # without the line break
    kind: str
    indent: int = 0             # leading whitespace characters
    width: int = 0              # cells (see the module docstring)
    pilcrow: bool = False       # ends with ¶
    opens_note: bool = False    # first token after the indentation is "("
    closes_note: bool = False   # last token before ¶ is ")"
    joins: bool = False         # runs on from the previous text line (same logical line)
    fills: int = COLUMN         # cells from which this line fills its column (FULL_AT)
    page_join: bool = False     # joined by a reviewed decision (page_joins.toml: over a page; column_joins.toml)
    runs: list[Run] = field(default_factory=list)

    @property
    def full(self) -> bool:
        """Fills its column: 21 cells or more (``fills``: 20 in KR1d0085, :data:`FULL_AT`), but not over
        two columns (such a line is no column: KR1d0085 writes a 章 title with its 记 items, or a whole
        paragraph, on one line)."""
        return self.fills <= self.width <= 2 * COLUMN

    @property
    def runs_on(self) -> bool:
        """The next line of the same indentation continues this one: it is :attr:`full`, and if only by
        :data:`FULL_AT` (under 21 cells), it does not end a 章 with its title after the 章's last note,
        maybe after the name of the source: 「…)右嘗為臣」, 「…)爾雅右妻黨」 (the titles a 20-cell
        column ends with; 「…皆右體進腠¶胳音格」 is 经 and runs on)."""
        if not self.full:
            return False
        if self.width >= COLUMN or len(self.runs) < 2:
            return True
        last, before = self.runs[-1], self.runs[-2]
        return last.small or not before.small or not 0 <= last.text.find("右") <= TITLE_AFTER_SOURCE


@dataclass
class LogicalLine:
    """A paragraph of the printed book: text lines joined where the column runs on."""

    physical: list[PhysLine]
    units: list[Run] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.physical[0].number

    @property
    def indent(self) -> int:
        return self.physical[0].indent

    @property
    def text(self) -> str:
        return "".join(u.text for u in self.units)


@dataclass
class MandokuText:
    """One file read: its text, header, logical and physical lines, pages."""

    name: str
    text: str                                   # decoded, BOM stripped, line breaks kept
    header: dict[str, str]
    lines: list[LogicalLine]
    pages: list[tuple[int, Page]]              # (offset of the tag, page)
    physical: list[PhysLine] = field(default_factory=list)   # physical[n - 1] is line n
    _starts: list[int] = field(default_factory=list, repr=False)
    undecided: tuple[int, ...] = ()            # offsets of page cuts left undecided (conv.reader.page_joins)

    def page_at(self, offset: int) -> Page | None:
        """The page ``offset`` stands on (a tag begins its page); None before the first tag."""
        i = bisect.bisect_right(self.pages, (offset, LAST_PAGE)) - 1
        return self.pages[i][1] if i >= 0 else None

    def position(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self._starts, offset) - 1
        return i + 1, offset - self._starts[i] + 1

    @property
    def runs(self) -> list[Run]:
        return [r for p in self.physical for r in p.runs]

    def units(self) -> Iterator[Run]:
        for logical in self.lines:
            yield from logical.units


def read(path: Path, runs_on: Callable[[MandokuText], set[int]] | None = None) -> MandokuText:
    """Read one mandoku file (UTF-8; invalid bytes are a ConversionError naming line and byte);
    ``runs_on``: see :func:`parse`."""
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = len(BREAK.findall(head.decode("utf-8", "replace"))) + 1
        begin = max(head.rfind(b"\n"), head.rfind(b"\r")) + 1
        col = len(head[begin:].decode("utf-8", "replace").removeprefix(BOM * (begin == 0))) + 1
        raise ConversionError(path.name, line, col, f"invalid UTF-8 at byte {exc.start} "
                              f"(0x{data[exc.start]:02x})", "the file must be UTF-8 as published") from None
    return parse(path.name, text, runs_on)


def parse(name: str, text: str, runs_on: Callable[[MandokuText], set[int]] | None = None) -> MandokuText:
    """Parse the decoded text of one mandoku file ``name`` (e.g. ``KR1d0038_005.txt``); ``runs_on`` gives,
    from the physical lines, the numbers of those that run on over a page break whatever the layout says
    (``conv.reader.page_joins``)."""
    enabled = gc.isenabled()
    gc.disable()     # many small acyclic objects: the cyclic collector would only walk them again and again
    try:
        return _parse(name, text, runs_on)
    finally:
        if enabled:
            gc.enable()


def _parse(name: str, text: str, runs_on: Callable[[MandokuText], set[int]] | None) -> MandokuText:
    if text.startswith(BOM):
        text = text[1:]
    starts = [0] + [m.end() for m in BREAK.finditer(text)]
    m = MandokuText(name, text, {}, [], [], [], starts)
    bad = PUA.search(text)
    if bad:
        _fail(m, bad.start(), f"plane-15/16 private use character U+{ord(bad.group()):X} in the input",
              "these code points stand for &KR….; gaiji: write the entity instead")
    expect = NAME.fullmatch(name)
    state = _State(m, expect.group(1) if expect else None, int(expect.group(2)) if expect else None)
    spans = [(starts[k], brk.start()) for k, brk in enumerate(BREAK.finditer(text))]
    if starts[-1] < len(text):
        spans.append((starts[-1], len(text)))
    body = False
    for number, (a, e) in enumerate(spans, 1):
        if not body and text.startswith("#", a):
            _header(m, number, text[a:e])
            m.physical.append(PhysLine(number, a, e, "header"))
            continue
        body = True
        if text.startswith("#", a):
            _fail(m, a, "header line not at the top of the file" if text.startswith("#+", a)
                  else "a line starting with '#' in the text", "header lines come before the first line of text")
        m.physical.append(state.line(number, a, e))
    _layout(m, runs_on(m) if runs_on else set())
    check_conservation(m)
    return m


def _fail(m: MandokuText, offset: int, message: str, hint: str = "") -> NoReturn:
    line, col = m.position(offset)
    raise ConversionError(m.name, line, col, message, hint)


def _header(m: MandokuText, number: int, line: str) -> None:
    off = m._starts[number - 1]
    entry = header_entry(line)
    if entry is None:
        _fail(m, off, f"unknown header line {line[:40]!r}",
              "known: # -*- mode: … -*-, #+TITLE, #+DATE, #+PROPERTY: ID|BASEEDITION|WITNESS|JUAN")
    if entry[0] in m.header:
        _fail(m, off, f"header {entry[0]} given twice")
    m.header[entry[0]] = entry[1]


class _State:
    """The tokenizer of the text lines: runs, page tags, widths; errors at line:col."""

    def __init__(self, m: MandokuText, text_id: str | None, juan: int | None) -> None:
        self.m = m
        self.tags = PageTags(lambda offset, message, hint: _fail(m, offset, message, hint), text_id, juan)
        self.page: Page | None = None
        self.fills = FULL_AT.get(text_id or "", COLUMN)

    def line(self, number: int, a: int, e: int) -> PhysLine:
        m, text = self.m, self.m.text
        pl = PhysLine(number, a, e, "blank", fills=self.fills)
        chars: list[str] = []
        offsets: list[int] = []
        gaps: list[int] = []
        splits: list[int] = []
        small = seen = gap = False
        note_at, note_n, half, halves, start_page, run_end, last = 0, 0, 0, [0, 0], self.page, a, None

        def close() -> None:
            nonlocal chars, offsets, gaps, splits
            if offsets:
                pl.runs.append(Run(small, "".join(chars), offsets, number, start_page, run_end, number,
                                   False, tuple(gaps), tuple(splits)))
            chars, offsets, gaps, splits = [], [], [], []

        for tok in TOKEN.finditer(text, a, e):
            kind, s = tok.lastgroup, tok.start()
            if kind == "w":
                n = tok.end() - s
                if not seen:
                    pl.indent += n
                if small:
                    halves[half] += n
                else:
                    pl.width += n
                gap = bool(offsets)
                continue
            if kind == "p":
                continue
            if kind == "pb":
                self.page = self.tags.read(tok.group(), s)
                m.pages.append((s, self.page))
                if not offsets:
                    start_page = self.page
                if not seen:
                    pl.kind = "page"
                continue
            first, seen, last = not seen, True, kind
            if kind in ("t", "e", "k"):
                if not offsets:
                    start_page = self.page
                elif gap:
                    gaps.append(len(offsets))
                gap = False
                if kind == "t":
                    chars.append(tok.group())
                    offsets.extend(range(s, tok.end()))
                    n = tok.end() - s
                else:
                    if kind == "k" and tok.group() not in COMPOSED:
                        _fail(m, s, f"unknown composed character {tok.group()}",
                              "a composed character (组字式) is one character: add it to mandoku_lex.COMPOSED")
                    chars.append(gaiji_char(tok.group()) if kind == "e" else composed_char(tok.group()))
                    offsets.append(s)
                    n = 1
                run_end = tok.end()
                if small:
                    halves[half] += n
                    note_n += n
                else:
                    pl.width += n
            elif kind == "o":
                if small:
                    _fail(m, s, "'(' inside a note (notes do not nest)", "close the note first")
                close()
                small, note_at, half, halves, gap, note_n = True, s, 0, [0, 0], False, 0
                pl.opens_note = pl.opens_note or first
            elif kind == "c":
                if not small:
                    _fail(m, s, "')' without '('", "every note is (…) on one line")
                if not note_n:
                    _fail(m, note_at, "empty note ()", "a note holds at least one character")
                pl.width += max(halves) if half else (halves[0] + 1) // 2
                close()
                small, gap = False, False
            elif kind == "s":
                if not small:
                    _fail(m, s, "'/' outside a note", "'/' splits a 双行小注 (a/b) into its two half-columns")
                if half:
                    _fail(m, s, "a second '/' in one note column",
                          "(a/b): right half a, left half b; a column has no third half")
                half, gap = 1, False
                splits.append(len(offsets))
            else:
                ch = tok.group()
                what = STRAY.get(ch, f"control character U+{ord(ch):04X}")
                _fail(m, s, what, "markup is <pb:ID_WYG_JJJ-LLs>, &KRnnnn;, (…), /, ¶")
        if small:
            at_end = not text[e:].strip()
            _fail(m, note_at, "file ends inside a note (truncated?)" if at_end else "note not closed on its line",
                  "a note running on to the next column is written …)¶ then (…")
        close()
        pl.pilcrow = text[a:e].rstrip().endswith("¶")
        pl.closes_note = last == "c"
        if pl.runs:
            pl.kind = "text"
        return pl


def _layout(m: MandokuText, runs_on: set[int]) -> None:
    """Join text lines into logical lines and runs into units (see the module docstring); a line of
    ``runs_on`` joins the text line before it (a paragraph cut by a page break, decided)."""
    prev: PhysLine | None = None
    for pl in m.physical:
        if pl.kind == "blank":
            prev = None
        if pl.kind != "text":
            continue
        pl.joins = prev is not None and (
            (prev.runs_on and pl.indent == prev.indent)
            or (prev.closes_note and pl.opens_note and pl.indent >= prev.indent))
        pl.page_join = prev is not None and pl.number in runs_on
        pl.joins = pl.joins or pl.page_join
        if pl.joins:
            m.lines[-1].physical.append(pl)
        else:
            m.lines.append(LogicalLine([pl]))
        prev = pl
    for logical in m.lines:
        groups: list[list[Run]] = []
        for k, pl in enumerate(logical.physical):
            for i, r in enumerate(pl.runs):
                r.continues = k > 0 and i == 0 and groups[-1][-1].small == r.small
                if r.continues:
                    groups[-1].append(r)
                else:
                    groups.append([r])
        logical.units = [_unit(g) for g in groups]


def _unit(pieces: list[Run]) -> Run:
    """One unit out of line runs that continue each other (offsets stay those of the pieces)."""
    first, last = pieces[0], pieces[-1]
    if len(pieces) == 1:
        return Run(first.small, first.text, list(first.offsets), first.line, first.page, first.end,
                   first.end_line, False, first.gaps, first.splits)
    offsets: list[int] = []
    gaps: list[int] = []
    splits: list[int] = []
    breaks: list[int] = []
    for r in pieces:
        shift = len(offsets)
        if shift:
            breaks.append(shift)
        gaps += [g + shift for g in r.gaps]
        splits += [g + shift for g in r.splits]
        offsets += r.offsets
    return Run(first.small, "".join(r.text for r in pieces), offsets, first.line, first.page, last.end,
               last.end_line, False, tuple(gaps), tuple(splits), tuple(breaks))
