"""Reading a seed (读入): bytes → decoded text and a line index.

The decoded text is the file's UTF-8 text without a leading BOM. Line breaks (LF, CRLF, CR) stay
in the text: spans are offsets into exactly this string.
"""
from __future__ import annotations

import bisect
import re
from pathlib import Path
from typing import NamedTuple

from conv.errors import ConversionError

BOM = "\ufeff"
_BREAK = re.compile(r"\r\n|\r|\n")


class Line(NamedTuple):
    """One line of a seed: its number (1-based) and its [start, end) offsets without the break."""

    number: int
    start: int
    end: int


class Source:
    """A decoded seed with its line index (行索引): every offset maps to line:col."""

    #: A paged transcription (``conv.reader.wenyuange.WitnessSource``): its line breaks are the
    #: book's paragraphs, never a page break that split the text.
    paged = False
    #: Offsets where a page break cuts a paragraph and ``conv/data/page_joins.toml`` could not decide
    #: whether it runs on (reported as ``page-cut-undecided``).
    page_cuts_undecided: tuple[int, ...] = ()
    #: The diagrams (图) of a paged transcription (``conv.reader.diagrams.Block``): columns of cells.
    diagrams: tuple = ()

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self.lines: list[Line] = []
        start = 0
        for number, match in enumerate(_BREAK.finditer(text), 1):
            self.lines.append(Line(number, start, match.start()))
            start = match.end()
        if start < len(text) or not self.lines:
            self.lines.append(Line(len(self.lines) + 1, start, len(text)))
        self._starts = [line.start for line in self.lines]

    def position(self, offset: int) -> tuple[int, int]:
        """(line, col), both 1-based, of an offset."""
        index = bisect.bisect_right(self._starts, offset) - 1
        line = self.lines[max(index, 0)]
        return line.number, offset - line.start + 1

    def error(self, offset: int, message: str, hint: str = "") -> ConversionError:
        line, col = self.position(offset)
        return ConversionError(self.name, line, col, message, hint)


def decode(name: str, raw: bytes) -> Source:
    """Decode UTF-8 (a BOM is stripped); anything else is refused with line and byte offset."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start
        line = raw.count(b"\n", 0, bad) + 1
        line_start = raw.rfind(b"\n", 0, bad) + 1
        raise ConversionError(
            name,
            line,
            bad - line_start + 1,
            f"not valid UTF-8: byte 0x{raw[bad]:02X} at byte offset {bad} ({exc.reason})",
            "seeds must be UTF-8; convert a GBK or Big5 file first, e.g. `iconv -f GBK -t UTF-8 FILE`",
        ) from None
    if text.startswith(BOM):
        text = text[1:]
    return Source(name, text)


def read(path: Path) -> Source:
    """Read and decode a seed file."""
    return decode(path.name, Path(path).read_bytes())


def page_at(source: Source, offset: int) -> dict | None:
    """The 文渊阁 page (``{"juan", "leaf", "side"}``) of an offset of a paged source, else None."""
    if not source.paged:
        return None
    page = source.page_at(offset)
    return page.as_dict() if page is not None else None
