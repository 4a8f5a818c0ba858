"""The 文渊阁 transcription as a seed (文渊阁本读入): a mandoku file in the seeds' own markup.

``conv.reader.mandoku`` reads a file of ``seeds/wenyuange/`` into runs with their pages. The
seeds' parser (``conv.parser.seeds``) already knows the 仪礼's structure — chapter titles with
their 郑目录, 卷 and author lines, 经 and its notes, ○ between commentators, 章旨 (右…), 记 —
in the markup of the seeds: 【…】 around a note, one paragraph a line. So the witness is handed to
it *transliterated*, character for character, into that markup (:func:`transliterate`):

- the text of the witness stays where it is, at the same offset: every span the parser makes is
  an offset into the witness file itself;
- a note's opening ``(`` becomes ``【`` and its closing ``)`` ``】``; where a note runs on into
  the next column (``…)¶`` then ``(…``) both become blanks, so the note is one note;
- a printed column that runs on (``PhysLine.joins``) is joined to the one before it: the line
  break, the ``¶``, any ``<pb:…>`` line between them and the column's indentation become blanks
  (U+3000 inside a note would separate segments), so a paragraph is one line;
- ``¶``, the ``/`` of a 双行小注 (its halves are already in reading order), the header and the
  page tags become blanks, and so does the line break before a page tag (a page break is not a
  paragraph break: the parser would take the blank line for one);
- a gaiji ``&KR0871;`` or a composed character ``[炫-ㄙ+ㄥ]`` becomes its one-character stand-in
  (``conv.reader.mandoku.gaiji``) at the offset of its ``&`` or ``[``, the rest blanks.

Blanks and 【】 are markup for the parser and for conservation, so what the parser sees as text is
exactly the witness's text, each character at its own offset. Line and column numbers in
messages are those of the witness file (:class:`WitnessSource`).
"""
from __future__ import annotations

import bisect
import re
from pathlib import Path

from conv import datafiles as data
from conv.errors import ConversionError
from conv.reader import diagrams, mandoku, page_joins
from conv.reader.mandoku import MandokuText, Page
from conv.reader.source import Source
from conv.unencoded import STAND_IN

BLANK = " "


class WitnessSource(Source):
    """A transliterated witness file: the parser reads ``text`` (one paragraph a line), messages
    give the line and column of the file itself, and ``page_at`` the 文渊阁 page of an offset."""

    paged = True

    def __init__(self, name: str, text: str, witness: MandokuText, entry: dict | None = None) -> None:
        super().__init__(name, text)
        self.witness = witness
        self._file_starts = [line.start for line in witness.physical]
        self._juan = juan_starts(name, entry or {})
        self.page_cuts_undecided = witness.undecided

    def position(self, offset: int) -> tuple[int, int]:
        """(line, col) of an offset in the witness file, both 1-based."""
        index = max(bisect.bisect_right(self._file_starts, offset) - 1, 0)
        line = self.witness.physical[index]
        return line.number, offset - line.start + 1

    def page_at(self, offset: int) -> Page | None:
        """The page of the printed book: the tag's leaf and side, in the 卷 the manifest names."""
        page = self.witness.page_at(offset)
        if page is None or not self._juan:
            return page
        index = bisect.bisect_right(self._juan, (page.leaf, page.side, 1 << 30)) - 1
        leaf, _, juan = self._juan[max(index, 0)]
        return Page(juan, page.leaf - leaf + 1, page.side)


def juan_starts(name: str, entry: dict) -> list[tuple[int, str, int]]:
    """(leaf, side, 卷) where each 卷 of the file begins, from its manifest entry.

    The page tags number the 卷 of a file by the FILE (``KR1d0085_014`` holds 卷十五, and
    ``KR1d0085_013`` holds 卷十三 and, from its leaf 30a on, 卷十四). The manifest says which 卷 a
    file holds (``juan``) and, for a file of several, at which page tag each begins
    (``juan_starts = ["1a", "30a"]``); the leaves of a 卷 are counted from its first page.
    """
    juan = entry.get("juan") or []
    starts = entry.get("juan_starts") or (["1a"] if len(juan) == 1 else [])
    if len(starts) != len(juan):
        if juan:
            raise ConversionError(name, 1, 1, f"seeds/manifest.toml gives {len(juan)} 卷 for {name} "
                                  f"but {len(starts)} juan_starts", "name the page tag where each 卷 begins")
        return []
    out = []
    for start, number in zip(starts, juan):
        if not (start[:-1].isdigit() and start[-1:] == "a"):
            raise ConversionError(name, 1, 1, f"juan_starts {start!r} in seeds/manifest.toml is no page such as 30a",
                                  "a 卷 begins on the a side of a leaf: give its leaf and a")
        out.append((int(start[:-1]), start[-1], number))
    return sorted(out)


MANDOKU_HEADER = "# -*- mode: mandoku"


def is_mandoku(path: Path) -> bool:
    """A file in the Kanseki Repository's format (its first line is the mandoku mode line)?"""
    with open(path, "rb") as handle:
        return handle.read(len(MANDOKU_HEADER.encode())).decode("utf-8", "replace") == MANDOKU_HEADER


def read(path: Path, entry: dict | None = None) -> WitnessSource:
    """Read a mandoku file and transliterate it (see the module docstring); ``entry``: its
    manifest entry (which work and 卷 it holds)."""
    decided = page_joins.PageJoins()

    def runs_on(m: MandokuText) -> set[int]:
        nonlocal decided
        decided = page_joins.decide(m)
        return decided.runs_on

    witness = mandoku.read(Path(path), runs_on)
    witness.undecided = tuple(decided.undecided)
    alone, first, opening = outline_lines(witness, entry or {})
    source = WitnessSource(witness.name, transliterate(witness, alone, first, opening | decided.apart), witness, entry)
    source.diagrams = tuple(diagrams.blocks(witness))  # conv/data/diagrams.toml: figures, not text
    return source


def outline_lines(witness: MandokuText, entry: dict) -> tuple[set[int], set[int], set[int]]:
    """Lines of a 通解 file that begin a paragraph whatever the layout rule says: ``alone`` a part
    line or a 篇 title of ``conv/data/tongjie_chapters.toml`` (its large text, notes after it
    allowed), a paragraph of its own (the part line ``學禮六之下`` may follow a column that looks
    full, 013 l.96); ``first`` a column opening with 右, a 章 title (``右戒賓辭戒賓曰…``, 001 l.115;
    ``右孤子冠(疏曰…)`` looks full, 001 l.447) or, now and then, 经 (``右執項左執前…``); ``opening`` a column
    opening with 傳曰, the 傳 of a 經 item (夏小正, 五學: 「…雞桴粥(…)｜傳曰正月啓蟄…」), which begins a
    paragraph as at the reviewed page cuts of ``conv/data/page_joins.toml``."""
    if entry.get("work") != "tongjie":
        return set(), set(), set()
    texts = {text for c in data.tongjie_chapters() for text in (c["label"], c["printed"]) if text}
    lines = [line for line in witness.physical if line.kind == "text" and not line.runs[0].small]
    alone = {line.number for line in lines if "".join(run.text for run in line.runs if not run.small) in texts}
    return (alone, {line.number for line in lines if line.runs[0].text.startswith("右")},
            {line.number for line in lines if line.runs[0].text.startswith("傳曰")})


def transliterate(witness: MandokuText, alone: set[int] = frozenset(), first: set[int] = frozenset(),
                  opening: set[int] = frozenset()) -> str:
    """The file's text in the seeds' markup, the same length, every text character in place;
    ``alone``: lines joined neither to the line before nor to the one after; ``first``: lines not
    joined to the line before, and after which only a note runs on (``…)`` then ``(…``); ``opening``:
    lines not joined to the line before."""
    chars = list(witness.text)
    text_lines = [line for line in witness.physical if line.kind == "text"]
    previous = None
    for line in witness.physical:
        if line.kind == "page" and previous is not None:
            _blank(chars, previous.end, line.end)  # a page break is no paragraph break
        elif line.kind != "text":
            _blank(chars, line.start, line.end)
        previous = line
    joined = [(previous, line) for previous, line in zip(text_lines, text_lines[1:])
              if line.page_join or line.joins and previous.number not in alone and line.number not in alone | first | opening
              and (previous.number not in first or previous.closes_note and line.opens_note)]
    for previous, line in joined:  # the break, any page line between, and the column's indentation
        _blank(chars, previous.end, line.start + line.indent)
    for line in text_lines:
        _markup(chars, witness.text, line)
    runs_on = {id(line) for previous, line in joined if previous.closes_note and line.opens_note}
    closed_by_next = {id(previous) for previous, line in joined if id(line) in runs_on}
    for line in text_lines:
        if id(line) in runs_on:
            chars[witness.text.index("(", line.start, line.end)] = BLANK
        if id(line) in closed_by_next:
            chars[witness.text.rindex(")", line.start, line.end)] = BLANK
    for run in witness.runs:
        for match in STAND_IN.finditer(run.text):  # mandoku.is_gaiji, found by one re pass
            start = run.offsets[match.start()]
            end = witness.text.index(";" if witness.text[start] == "&" else "]", start) + 1
            _blank(chars, start, end)
            chars[start] = match.group()
    return "".join(chars)


def _blank(chars: list[str], start: int, end: int) -> None:
    """Every character of ``[start, end)`` a blank (line breaks too: the caller chose the range)."""
    chars[start:end] = BLANK * (end - start)


_MARKS = re.compile("[¶()/]")


def _markup(chars: list[str], text: str, line) -> None:
    """One text line: ¶ and the / of a 双行小注 blank, ( and ) as 【 and 】."""
    depth = 0
    for match in _MARKS.finditer(text, line.start, line.end):  # the only characters it changes
        index, char = match.start(), match.group()
        if char == "¶":
            chars[index] = BLANK
        elif char == "(":
            depth += 1
            chars[index] = "【"
        elif char == ")":
            depth -= 1
            chars[index] = "】"
        elif char == "/" and depth:
            chars[index] = BLANK
