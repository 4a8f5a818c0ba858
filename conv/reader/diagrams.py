"""Diagrams of the book (图读入): reviewed blocks of a mandoku file read as columns of cells.

A block of ``conv/data/diagrams.toml`` (file, first and last line) is no 经 and no note: each text
line of it is one printed column (the book is vertical: the first line is the rightmost column, read
first), and a column is a row of cells (:func:`cells`):

- ``(a/b)``: a 双行 cell, right half ``a`` then left half ``b`` as the transcription gives them
  (``(醓醢/韭菹)``, ``(牛炙/)`` with an empty left half); ASCII blanks inside a half are positions
  (``(豕俎膚俎胃俎/      腸)``), not text;
- characters outside parentheses: a label (``席東正饌``, ``戸``, ``北``);
- U+3000 blanks: a gap, a position left empty.

Page lines between the first and the last line belong to the block. The entry's ``begins`` (the
first characters of each text line after its indentation) is checked against the file: a stale
entry stops the conversion at its line in the data file, naming the file's line and column.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conv import datafiles as data
from conv.errors import ConversionError

#: One cell of a column: a 双行 pair in parentheses, a run of U+3000 blanks, or a label.
_CELL = re.compile(r"\((?P<pair>[^()]*)\)|(?P<gap>\u3000+)|(?P<label>[^\u3000()¶\s]+)")


@dataclass(frozen=True)
class DraftCell:
    """A cell as offsets into the file: ``kind`` pair | label | gap; ``start``/``end`` the whole cell
    (parentheses included); ``halves`` the [start, end) of each half (a pair: right, left; a label: one)."""

    kind: str
    start: int
    end: int
    halves: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class DraftColumn:
    """One text line of a block: a printed column, its line number and [start, end) without ``¶``."""

    line: int
    start: int
    end: int
    cells: tuple[DraftCell, ...]


@dataclass(frozen=True)
class Block:
    """A diagram's lines in the file: [start, end) from its first column to the end of its last."""

    start: int
    end: int
    columns: tuple[DraftColumn, ...]
    caption: str


def cells(text: str, start: int, end: int) -> tuple[DraftCell, ...] | int:
    """The cells of ``text[start:end]`` (one column, ``¶`` excluded), or the offset of a character
    that is no part of a cell (a stray parenthesis)."""
    out, at = [], start
    for match in _CELL.finditer(text, start, end):
        if match.start() != at and text[at:match.start()].strip():
            return at
        at = match.end()
        if match.group("pair") is not None:
            inner = match.start() + 1
            slash = text.find("/", inner, match.end() - 1)
            halves = ((inner, match.end() - 1),) if slash < 0 else ((inner, slash), (slash + 1, match.end() - 1))
            out.append(DraftCell("pair", match.start(), match.end(), halves))
        elif match.group("gap") is not None:
            out.append(DraftCell("gap", match.start(), match.end()))
        else:
            out.append(DraftCell("label", match.start(), match.end(), ((match.start(), match.end()),)))
    if text[at:end].strip():
        return at
    return tuple(out)


def blocks(witness, entries: list[tuple[int, dict]] | None = None) -> list[Block]:
    """The diagrams of the mandoku file ``witness`` (a ``conv.reader.mandoku.MandokuText``);
    ``entries``: (line, entry) pairs, by default those of ``conv/data/diagrams.toml``."""
    where = data.display(data.DIAGRAMS)
    found = []
    for number, entry in data.diagrams() if entries is None else entries:
        if entry.get("file") != witness.name:
            continue
        found.append(_block(witness, entry, where, number))
    return found


def _block(witness, entry: dict, where: str, number: int) -> Block:
    first, last = entry.get("first", 0), entry.get("last", 0)
    if not 0 < first <= last <= len(witness.physical):
        raise ConversionError(where, number, 1, f"diagram: lines {first}–{last} are not lines of {witness.name}",
                              "name the first and the last line of the figure as the witness file numbers them")
    lines = witness.physical[first - 1:last]
    text_lines = [line for line in lines if line.kind == "text"]
    begins = list(entry.get("begins", []))
    read = [witness.text[line.start + line.indent:line.end] for line in text_lines]
    if lines[0].kind != "text" or lines[-1].kind != "text" or any(line.kind not in ("text", "page") for line in lines) \
            or len(read) != len(begins) or any(not r.startswith(b) for r, b in zip(read, begins)):
        at = next((line for line, r, b in zip(text_lines, read, begins) if not r.startswith(b)), lines[0])
        raise ConversionError(where, number, 1, f"stale diagram: {witness.name}:{at.number}:{at.indent + 1} — lines "
                              f"{first}–{last} begin {[r[:8] for r in read]}, not {begins}",
                              "re-read the figure in the witness and mend or remove the entry")
    columns = []
    for line in text_lines:
        end = line.end - 1 if witness.text[line.end - 1:line.end] == "¶" else line.end
        found = cells(witness.text, line.start, end)
        if isinstance(found, int):
            col = found - line.start + 1
            raise ConversionError(witness.name, line.number, col, f"diagram of {where} (entry at line {number}): "
                                  f"{witness.text[found]!r} is no part of a cell (a pair in parentheses, a label, blanks)",
                                  "check the witness line; a figure's column holds only cells")
        columns.append(DraftColumn(line.number, line.start, end, found))
    return Block(text_lines[0].start, columns[-1].end, tuple(columns), str(entry.get("caption", "")))
