"""Outcome (结果) of anchoring: the conversion's passages and sections as items, and what became of the ledger's anchors.

An ``Item`` is a passage or section of the conversion with its fingerprint, span and opening
words (``conv.anchors.fingerprints``) and, once assigned, its anchor. The ``Outcome`` holds every
item, the ledger anchors kept, the provisional anchors issued, the changed and retired anchors
awaiting the editor's decision (``conv.anchors.decisions``), the redirects and the problems.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from conv.anchors.ledger import Entry, Ledger
from conv.model.tree import Passage, Section, Span


@dataclass(eq=False)
class Item:
    """A passage or section of the conversion, with what anchoring needs to know of it."""

    kind: str  # "passage" | "section"
    obj: Passage | Section
    prefix: str  # <work>-<chapter>
    fingerprint: str
    span: Span
    opening: str
    untitled: str | None = None  # sections: the fingerprint it would have without its title
    anchor: str = ""
    provisional: bool = False

    def entry(self) -> Entry:
        return Entry(self.anchor, "live", None, self.fingerprint, self.span[0], self.span[1], self.span[2], self.opening)


def anchor_for(prefix: str, kind: str, number: int) -> str:
    return f"{prefix}-{'s' if kind == 'section' else ''}{number}"


@dataclass
class Outcome:
    """What anchoring found: kept, provisional, changed and retired anchors, redirects, problems."""

    ledger: Ledger
    items: list[Item] = field(default_factory=list)  # every passage and section, chapter by chapter
    kept: dict[str, Item] = field(default_factory=dict)  # ledger anchor → the item it still names
    provisional: list[Item] = field(default_factory=list)
    changed: list[tuple[Entry, Item]] = field(default_factory=list)  # (old entry, the item in its place)
    retired: list[Entry] = field(default_factory=list)
    redirects: list[dict] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)

    @property
    def unresolved(self) -> bool:
        return bool(self.changed or self.retired)

    def by_anchor(self) -> dict[str, Item]:
        return {item.anchor: item for item in self.items}
