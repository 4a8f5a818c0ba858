"""Decisions (裁定) of the editor on the anchor ledger, and the ledger an update writes.

``python -m conv anchors --keep OLD NEW`` and ``--redirect OLD NEW`` record what became of a
changed or retired anchor (``decide``; ``settle`` points redirects at provisional anchors once
they are issued); ``--update`` writes the ledger after the conversion (``updated``), refusing
while a decision is missing. ``redirect_table`` gives every redirected anchor's final target
(for the Sphinx side). The workflow is described in ``conv.anchors.assign``.
"""
from __future__ import annotations

from dataclasses import replace

from conv import datafiles as data
from conv.anchors.ledger import CHAPTER_ANCHOR, Entry, Ledger, is_anchor
from conv.anchors.outcome import Outcome


class DecisionError(ValueError):
    """A --keep/--redirect the ledger cannot take (the message says why)."""


def known_chapter(anchor: str) -> bool:
    if not CHAPTER_ANCHOR.fullmatch(anchor):
        return False
    work, chapter = anchor.split("-")
    return work in {w["id"] for w in data.works()} and chapter in {c["id"] for c in data.chapters_of(work)}


def decide(outcome: Outcome, keep: list[tuple[str, str]], redirect: list[tuple[str, str]], note: str = "") -> tuple[Ledger, dict[str, tuple]]:
    """The ledger with the editor's decisions applied, and the provisional targets to re-resolve.

    ``keep``: (old anchor, provisional anchor of the same passage, corrected): the old anchor takes
    the passage's new fingerprint. ``redirect``: (old anchor, target): the old anchor becomes a
    redirect. Targets that are provisional are returned as ``{old: item key}`` so that they can
    be re-resolved after the conversion is run again with the decided ledger (``settle``).
    """
    ledger = outcome.ledger.copy()
    current = outcome.by_anchor()
    unresolved = {e.anchor for e, _ in outcome.changed} | {e.anchor for e in outcome.retired}
    pending: dict[str, tuple] = {}

    def old_entry(anchor: str, option: str) -> Entry:
        entry = ledger.get(anchor)
        if entry is None:
            raise DecisionError(f"--{option} {anchor}: the ledger never issued {anchor}")
        if entry.live and anchor not in unresolved:
            if anchor in outcome.kept:
                raise DecisionError(f"--{option} {anchor}: {anchor} still names its {entry.kind} ({entry.opening}); only a changed or retired anchor takes a decision")
            raise DecisionError(f"--{option} {anchor}: {anchor} is not reported as changed or retired by this conversion (convert the whole edition: give no SEED)")
        return entry

    for old, new in keep:
        entry = old_entry(old, "keep")
        item = current.get(new)
        if item is None or not item.provisional:
            raise DecisionError(f"--keep {old} {new}: {new} is not a provisional anchor of this conversion (keep pairs an old anchor with the new passage the problem names)")
        if item.kind != entry.kind or item.prefix != entry.prefix:
            raise DecisionError(f"--keep {old} {new}: a {entry.kind} of {entry.prefix} can only keep a {entry.kind} of the same chapter")
        if not entry.live:
            raise DecisionError(f"--keep {old} {new}: {old} is already a redirect")
        ledger.put(replace(item.entry(), anchor=old))
    kept_items = {new for _, new in keep}
    for old, target in redirect:
        entry = old_entry(old, "redirect")
        if target == old:
            raise DecisionError(f"--redirect {old} {target}: an anchor cannot redirect to itself")
        item = current.get(target)
        if target in kept_items:
            raise DecisionError(f"--redirect {old} {target}: {target} is kept under another anchor in this command; redirect to that anchor")
        if item is not None and item.provisional:
            pending[old] = (item.kind, item.prefix, item.span)
        elif not (target in ledger.entries or known_chapter(target)):
            raise DecisionError(f"--redirect {old} {target}: {target} is neither an anchor of the ledger or of this conversion nor a chapter anchor")
        ledger.put(replace(entry, status="redirect", to=target, note=note or entry.note))
    return ledger, pending


def settle(outcome: Outcome, pending: dict[str, tuple]) -> None:
    """Point redirects recorded against provisional anchors at those passages' anchors now."""
    by_key = {(item.kind, item.prefix, item.span): item.anchor for item in outcome.items}
    for old, key in pending.items():
        entry = outcome.ledger.get(old)
        outcome.ledger.put(replace(entry, to=by_key[key]))


def updated(outcome: Outcome) -> Ledger:
    """The ledger after this conversion: kept anchors with their current span, provisional ones issued.

    Raises ``DecisionError`` while an anchor is changed or retired without a decision, or when a
    redirect ends nowhere.
    """
    if outcome.unresolved:
        raise DecisionError(f"{len(outcome.changed)} changed and {len(outcome.retired)} retired anchor(s) need a decision (--keep or --redirect) first")
    ledger = outcome.ledger.copy()
    for item in outcome.items:
        ledger.put(item.entry())
    problem = ledger.check_redirects()
    if problem:
        raise DecisionError(problem[1])
    for entry in ledger.redirects():
        target = ledger.final(entry.anchor)
        if not is_anchor(target) and not known_chapter(target):
            raise DecisionError(f"redirect {entry.anchor} → {entry.to} ends at {target}, which is no chapter of the edition")
    return ledger


def redirect_table(ledger: Ledger | None = None) -> dict[str, str]:
    """Every redirected anchor → where its citations land (for the Sphinx side)."""
    ledger = Ledger.load() if ledger is None else ledger
    return {entry.anchor: ledger.final(entry.anchor) for entry in ledger.redirects()}
