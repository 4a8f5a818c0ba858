"""Paragraphs cut by a page break (頁末斷段), decided place by place in ``conv/data/page_joins.toml``.

In KR1d0085 the last column of a 面 has no ``¶`` and a paragraph is often written on one line, so
the layout (``conv.reader.mandoku``) cannot tell a paragraph that ends at the foot of a page from one
that runs on over it. :func:`decide` reads the reviewed entries of one file: each names the page tag,
the last characters of the text line before it and the first of the text line after it, as the file
writes them. ``join = true``: the line after the tag runs on from the paragraph before it.
A context that does not match (a stale entry) stops the conversion at the entry's line; a reason
starting ``undecided`` is returned as a place to report (``page-cut-undecided``).

The same holds at the foot of a column the cell count puts under 20 cells (列末斷段): the entries of
``conv/data/column_joins.toml`` name the text line that runs on from the one before it (its number in
the file) with the same contexts; ``join = false`` there names a line that begins a paragraph although
the layout runs it on (a 記 that goes straight into the next 章's 經 at the top of a column).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from conv import datafiles as data
from conv.errors import ConversionError

UNDECIDED = "undecided"


@dataclass
class PageJoins:
    """What the entries decide for one file: the physical lines that run on, the undecided places."""

    runs_on: set[int] = field(default_factory=set)       # line numbers (1-based) joined to the paragraph before
    undecided: list[int] = field(default_factory=list)    # offsets of the lines after an undecided page break
    apart: set[int] = field(default_factory=set)          # line numbers that begin a paragraph (join = false)


def decide(m, entries: list[tuple[int, dict]] | None = None,
           columns: list[tuple[int, dict]] | None = None) -> PageJoins:
    """The decisions for the physical lines of ``m`` (a ``conv.reader.mandoku.MandokuText`` before its
    layout); ``entries``: (line, entry) pairs, by default those of ``conv/data/page_joins.toml``;
    ``columns``: those of ``conv/data/column_joins.toml``."""
    result = PageJoins()
    where = data.display(data.PAGE_JOINS)
    for number, entry in data.page_joins() if entries is None else entries:
        if entry.get("file") != m.name:
            continue
        previous, line = _around(m, entry, where, number)
        _check(m, previous, line, entry, where, number, f"around <pb:{entry['page']}>", page=True)
        if entry.get("join") is True:
            result.runs_on.add(line.number)
        elif str(entry.get("reason", "")).startswith(UNDECIDED):
            result.undecided.append(line.start + line.indent)
        else:  # join = false: the line begins a paragraph, also where the layout runs a full column on over the page
            result.apart.add(line.number)
    where = data.display(data.COLUMN_JOINS)
    for number, entry in data.column_joins() if columns is None else columns:
        if entry.get("file") != m.name:
            continue
        previous, line = _at_line(m, entry, where, number)
        _check(m, previous, line, entry, where, number, "at a column's foot", page=False)
        (result.runs_on if entry.get("join", True) else result.apart).add(line.number)
    return result


def _check(m, previous, line, entry: dict, where: str, number: int, place: str, page: bool) -> None:
    """The entry's contexts against the text lines around the place, else a stale entry (at its line)."""
    before = m.text[previous.start:previous.end].rstrip()
    after = m.text[line.start + line.indent:line.end].rstrip().removesuffix("¶")
    if page == before.endswith("¶") or not before.removesuffix("¶").endswith(entry["before"]) \
            or not after.startswith(entry["after"]):
        at, col = m.position(line.start)
        raise ConversionError(where, number, 1, f"stale {'page' if page else 'column'} join: {m.name}:{at}:{col} "
                              f"reads 「…{before[-8:]}｜{after[:8]}…」 {place}, not "
                              f"「…{entry['before']}｜{entry['after']}…」",
                              "re-read the place in the witness and mend or remove the entry")


def _at_line(m, entry: dict, where: str, number: int):
    """The text line the entry names and the text line before it (one column on from the other, maybe over a
    page tag: the 句读 ends the last column of a 面 with ¶)."""
    index = entry.get("line", 0) - 1
    before = index - 1
    while 0 < before < len(m.physical) and m.physical[before].kind == "page":
        before -= 1
    if not 0 < index < len(m.physical) or m.physical[index].kind != "text" \
            or not 0 <= before or m.physical[before].kind != "text":
        raise ConversionError(where, number, 1, f"column join: line {entry.get('line')} of {m.name} is no text "
                              "line after a text line", "name the line that runs on, as the witness file numbers it")
    return m.physical[before], m.physical[index]


def _around(m, entry: dict, where: str, number: int):
    """The text lines before and after the entry's page tag (the tag once in the file, on its own line)."""
    tag = f"<pb:{entry.get('page')}>"
    at = m.text.find(tag)
    if at < 0 or m.text.find(tag, at + 1) >= 0:
        raise ConversionError(where, number, 1, f"page join: {tag} is {'not' if at < 0 else 'more than once'} in {m.name}",
                              "name the page tag as the witness file writes it, and the file that holds it")
    index = m.position(at)[0] - 1  # physical[n - 1] is line n
    after = [pl for pl in m.physical[index + 1:] if pl.kind != "page"]
    if m.physical[index].kind != "page" or index == 0 or m.physical[index - 1].kind != "text" or not after \
            or after[0].kind != "text":
        raise ConversionError(where, number, 1, f"page join: {tag} in {m.name} stands between no two text lines",
                              "a page join names a page tag alone on its line, with text before and after it")
    return m.physical[index - 1], after[0]
