"""Drafts (草稿): the passage and the note being read, before they become model objects.

A ``NoteDraft`` collects a note's units (``conv.parser.segments.Unit``) between its 【 and 】; a
``PassageDraft`` collects the runs of a passage's text and its notes. When the passage closes,
``conv.parser.passages`` turns the draft into a ``conv.model.tree.Passage`` (or title or 目录
notes) and ``conv.parser.notes`` turns each note draft into segments.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from conv.parser.segments import Unit


@dataclass(slots=True)
class NoteDraft:
    units: list[Unit]
    close_line: int | None = None  # line number of its 】 (None while open)
    close_offset: int | None = None
    lacuna: str | None = None
    mulu: bool = False


@dataclass(slots=True)
class PassageDraft:
    layer: str
    pieces: list[tuple[int, int]] = field(default_factory=list)  # [start, end) runs of its text
    notes: list[NoteDraft] = field(default_factory=list)
    last_line: int = 0
    lacuna: str | None = None
    span_start: int | None = None
    span_end: int | None = None
    on_marker: str = ""  # its notes are on the 记 mark before it (通解 右納采記(疏曰凡言記者…))
