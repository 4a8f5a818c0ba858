"""The line format of a diagram's column in ``yl:diagram`` (图之行式): one line per printed column.

Cells are separated by ``|``; a pair (双行) is ``right/left`` (``醓醢/韭菹``, ``牛炙/``); a label is its
characters (``席東正饌``); a gap is one ``_`` per blank position (``_____``). None of ``|``, ``/`` and
``_`` occurs in the witnesses' text (Han characters and their stand-ins), and a cell's text holding
one is refused, so a line always reads back as the cells it was written from (:func:`cells`).
"""
from __future__ import annotations

from conv.model.tree import Column

CELL, HALF, GAP = "|", "/", "_"
_RESERVED = (CELL, HALF, GAP)


def line(column: Column) -> str:
    """The column's line (see the module docstring)."""
    out = []
    for cell in column.cells:
        if any(mark in half for half in cell.halves for mark in _RESERVED):
            raise ValueError(f"a diagram cell {cell.halves!r} holds one of {_RESERVED}: it cannot be written")
        out.append(GAP * cell.size if cell.kind == "gap" else HALF.join(cell.halves) if cell.kind == "pair"
                   else cell.halves[0])
    return CELL.join(out)


def cells(text: str) -> list[tuple[str, list[str] | int]] | None:
    """A column's line read back: ``(kind, halves)`` for a pair or a label, ``("gap", size)``; None
    when a cell is empty or mixes ``_`` with text (no line :func:`line` writes)."""
    out: list[tuple[str, list[str] | int]] = []
    for cell in text.split(CELL):
        if cell and cell == GAP * len(cell):
            out.append(("gap", len(cell)))
        elif not cell or GAP in cell or cell.count(HALF) > 1:
            return None
        elif HALF in cell:
            out.append(("pair", cell.split(HALF)))
        else:
            out.append(("label", [cell]))
    return out
