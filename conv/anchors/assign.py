"""Anchors (锚点): the citable ids of sections and passages, kept stable by a committed ledger.

Scheme
------
``<work>-<chapter>-<n>`` names a passage (a stretch of 经/记 with its notes) and
``<work>-<chapter>-s<n>`` a section (章), e.g. ``judou-xiangshe-12``, ``judou-xiangshe-s3``;
``<work>-<chapter>`` (``judou-xiangshe``) is the chapter page. Work and chapter ids are the
converter's (``conv/data/works.toml``, ``chapters.toml``); ``n`` is a number issued once, per
chapter, per kind. Anchors are lowercase ASCII letters, digits and hyphens, starting with a
letter: valid HTML ids, docutils ids (``docutils.nodes.make_id`` leaves them unchanged) and LaTeX
labels.

The first ledger numbered every chapter in reading order. From then on a number is never moved
and never reused: a passage added later — text before, between or after what is there, a whole
chapter replacing an excerpt — gets the next number not yet issued in its chapter, so numbers
after additions are in order of issue, not of reading. (Citations stay valid; that is the point.)

The ledger
----------
``conv/data/anchors.tsv`` (format in ``conv.anchors.ledger``) lists every anchor ever issued, with the
content fingerprint of what it names (``conv.anchors.fingerprints``: the passage's normalized text plus the
normalized text of all its notes, ignoring how the notes are cut into segments; a section's
normalized title), the seed span where that stands, and its opening words; or, for an anchor
that no longer names anything, the anchor its citations are redirected to.

A conversion reads the ledger and never writes it. In each chapter it pairs the ledger's live
anchors with the conversion's passages (and sections) of the same fingerprint, in reading order
(a patience diff: unique fingerprints first, then repeated ones in order, then moved ones), so
a passage keeps its anchor whatever is added or removed around it. A section cut off before its
title (an excerpt ending mid-section) is the section that starts with the same passage, so it
keeps its anchor once its title arrives; and an untitled section starting where a titled one of
the ledger starts is that section, cut off (the seeds alone, where the whole edition goes on). Then:

* a passage the ledger does not know gets a *provisional* anchor: the next numbers above every
  number the ledger holds for the chapter (live or redirected), in reading order, so the same
  seeds and ledger always give the same anchors;
* a live anchor whose passage is no longer there is never given to another passage. If a new
  passage stands where it stood, it is reported as ``anchor-changed`` (at that passage's
  file:line:col, naming its provisional anchor), otherwise as ``anchor-retired`` (at the place
  it disappeared from). Anchors of seeds not converted are not reported: converting one seed is
  not removing the others;
* the ledger's redirects whose target is in the conversion are exported (``redirects`` in the
  JSON, ``Edition.redirects``), resolved to their final target, for the HTML side to make the
  old ids land on the new passage.

Workflow (the editor's)
-----------------------
``make html`` and ``python -m conv dump|build`` only read the ledger, so building the committed
seeds changes nothing, and converting other files (tests, a reader's own seeds) never touches it.
After changing a seed, the manifest, the corrections or the converter::

    python -m conv anchors             # check: what would change in the ledger (exit 1 if anything)
    python -m conv anchors --update    # issue the provisional anchors, refresh spans; write the ledger

``--update`` refuses while an anchor is changed or retired without a decision. For each, decide
and record (options repeat; ``--update`` is implied; ``NEW`` as the problem message names it):

    python -m conv anchors --keep OLD NEW        # the same passage, corrected: it keeps OLD
    python -m conv anchors --redirect OLD NEW [--note WHY]
                                                 # a different passage or none: citations of OLD
                                                 # land on NEW (a passage, section or chapter)

then review and commit the ledger's diff with the change that caused it. Give all decisions in
one command: the ledger is written only when none is missing. ``--ledger PATH`` (on ``dump``,
``build`` and ``anchors``) uses another ledger, e.g. for a reader's own edition; a conversion of
files outside ``seeds/`` assigns provisional anchors against the committed ledger.
``make test`` checks that the committed ledger is exactly what ``--update`` would write.

Modules
-------
``conv.anchors.fingerprints`` (what an anchor names), ``conv.anchors.align`` (the patience diff),
``conv.anchors.outcome`` (items and what anchoring found), this module (the assignment) and
``conv.anchors.decisions`` (the editor's decisions, the updated ledger, the redirect table). The
public names of the others are importable from here too, for callers of the anchors as a whole.
"""
from __future__ import annotations

import bisect
from collections import Counter, defaultdict

from conv.anchors.align import align
from conv.anchors.decisions import DecisionError, decide, known_chapter, redirect_table, settle, updated
from conv.anchors.fingerprints import (
    OPENING, digest, passage_fingerprint, passage_opening, section_fingerprint, section_opening, section_span,
    untitled_fingerprint,
)
from conv.anchors.ledger import Entry, Ledger, display
from conv.anchors.outcome import Item, Outcome, anchor_for
from conv.model.tree import Edition
from conv.normalize import fold

__all__ = [
    "assign", "Item", "Outcome", "anchor_for", "align",
    "DecisionError", "decide", "known_chapter", "redirect_table", "settle", "updated",
    "OPENING", "passage_fingerprint", "passage_opening", "section_fingerprint", "section_opening", "section_span",
    "untitled_fingerprint",
]


# -- assignment ------------------------------------------------------------------------------
def _items(edition: Edition) -> list[tuple[str, list[Item], list[Item]]]:
    """(prefix, passages, sections) of every chapter, in reading order."""
    out = []
    for work in edition.works:
        for chapter in work.chapters:
            prefix = f"{work.id}-{chapter.id}"
            passages, sections = [], []
            for section in chapter.sections:
                # as section_fingerprint, untitled_fingerprint and section_opening, with the first
                # passage's fingerprint and opening computed once
                items = [Item("passage", p, prefix, passage_fingerprint(p), p.span, passage_opening(p)) for p in section.passages]
                untitled = digest("section-untitled\n" + (items[0].fingerprint if items else ""))
                if section.title is None:
                    fingerprint = untitled
                    opening = "〔" + (items[0].opening if items else "") + "〕"
                else:
                    opening = fold(section.title)
                    fingerprint = digest("section\n" + opening)
                sections.append(Item("section", section, prefix, fingerprint, section_span(section), opening, untitled=untitled))
                passages.extend(items)
            out.append((prefix, passages, sections))
    return out


class _Locator:
    """file:line:col for problems: in a converted seed, else at the ledger line."""

    def __init__(self, edition: Edition, ledger: Ledger) -> None:
        self.edition = edition
        self.ledger_name = display(ledger.path) if ledger.path else "<ledger>"

    def at(self, seed: str, offset: int) -> tuple[str, int, int]:
        line, col = self.edition.sources[seed].position(offset)
        return seed, line, col

    def ledger_line(self, entry: Entry) -> tuple[str, int, int]:
        return self.ledger_name, max(entry.line, 1), 1


def _match(kind: str, olds: list[Entry], items: list[Item], outcome: Outcome, in_scope, locator: _Locator) -> None:
    """Pair one chapter's live ledger entries of one kind with its items; report the unpaired."""
    pairs, in_order = align([e.fingerprint for e in olds], [item.fingerprint for item in items])
    if kind == "section":  # a section cut off before its title is the one starting with the same passage
        taken = set(pairs.values())
        waiting: dict[str, list[int]] = defaultdict(list)
        for j, item in enumerate(items):
            if j not in taken:
                waiting[item.untitled].append(j)
        for i, entry in enumerate(olds):
            if i not in pairs and waiting.get(entry.fingerprint):
                pairs[i] = waiting[entry.fingerprint].pop(0)
        # … and a section whose title another conversion gave it (the whole edition, where the
        # witness goes on past an excerpt's end) is the untitled one starting where it starts
        taken = set(pairs.values())
        starts = {(item.span[0], item.span[1]): j for j, item in enumerate(items)
                  if j not in taken and item.obj.title is None}
        for i, entry in enumerate(olds):
            if i not in pairs and (entry.seed, entry.start) in starts:
                pairs[i] = starts.pop((entry.seed, entry.start))
    for i, j in pairs.items():
        items[j].anchor = olds[i].anchor
        outcome.kept[olds[i].anchor] = items[j]
    taken = set(pairs.values())
    order_old = [i for i, _ in in_order]
    gaps: Counter = Counter()
    for i, entry in enumerate(olds):
        if i in pairs or not in_scope(entry):
            continue
        k = bisect.bisect_left(order_old, i)
        low = in_order[k - 1][1] if k else -1
        high = in_order[k][1] if k < len(in_order) else len(items)
        candidates = [j for j in range(low + 1, high) if j not in taken]
        rank = gaps[(low, high)]
        gaps[(low, high)] += 1
        if candidates:
            outcome.changed.append((entry, items[candidates[min(rank, len(candidates) - 1)]]))
            continue
        outcome.retired.append(entry)
        if entry.seed not in locator.edition.sources:
            where = locator.ledger_line(entry)
        elif high < len(items) and items[high].span[0] == entry.seed:
            where = locator.at(entry.seed, items[high].span[1])
        elif low >= 0 and items[low].span[0] == entry.seed:
            where = locator.at(entry.seed, items[low].span[2])
        else:
            where = locator.at(entry.seed, 0)
        outcome.problems.append(_problem(where, "anchor-retired", entry.anchor,
            f"anchor {entry.anchor} ({entry.opening}) names nothing any more: its {kind} (at {entry.seed} {entry.start}–{entry.end} "
            f"as last recorded) is gone from here; record where its citations land: "
            f"`python -m conv anchors --redirect {entry.anchor} TARGET` (a passage, section or chapter anchor)"))


def _problem(where: tuple[str, int, int], kind: str, anchor: str, message: str, **extra) -> dict:
    seed, line, col = where
    return {"seed": seed, "line": line, "col": col, "kind": kind, "message": message, "anchor": anchor, **extra}


def assign(edition: Edition, ledger: Ledger | None = None, full: bool = False) -> Outcome:
    """Give every section and passage its anchor from the ledger (default: the committed one).

    ``full``: every ledger entry is in scope (a conversion of the whole edition); otherwise only
    entries of the seeds converted are reported when they lose their passage.
    """
    ledger = Ledger.load() if ledger is None else ledger
    outcome = Outcome(ledger)
    locator = _Locator(edition, ledger)

    def in_scope(entry: Entry) -> bool:
        return full or entry.seed in edition.sources

    chapters = _items(edition)
    by_chapter: dict[str, list[Entry]] = defaultdict(list)  # ledger.chapter(prefix), for every prefix at once
    for entry in ledger.entries.values():
        by_chapter[entry.prefix].append(entry)
    present = set()
    for prefix, passages, sections in chapters:
        present.add(prefix)
        for kind, items in (("passage", passages), ("section", sections)):
            entries = [e for e in by_chapter.get(prefix, ()) if e.kind == kind]
            olds = sorted((e for e in entries if e.live), key=lambda e: (e.seed, e.start, e.number))
            _match(kind, olds, items, outcome, in_scope, locator)
            number = max((e.number for e in entries), default=0)  # ledger.highest(prefix, kind)
            for item in items:
                if not item.anchor:
                    number += 1
                    item.anchor = anchor_for(prefix, kind, number)
                    item.provisional = True
                    outcome.provisional.append(item)
            outcome.items.extend(items)
        for item in passages + sections:
            item.obj.id = item.anchor
    if full:  # live entries of chapters not converted at all
        for entry in sorted(ledger.entries.values(), key=lambda e: (e.prefix, e.kind, e.number)):
            if entry.live and entry.prefix not in present:
                outcome.retired.append(entry)
                outcome.problems.append(_problem(locator.ledger_line(entry), "anchor-retired", entry.anchor,
                    f"anchor {entry.anchor} ({entry.opening}) names nothing any more: its chapter is not in the conversion; "
                    f"record where its citations land: `python -m conv anchors --redirect {entry.anchor} TARGET`"))
    for entry, item in outcome.changed:
        where = locator.at(item.span[0], item.span[1])
        outcome.problems.append(_problem(where, "anchor-changed", entry.anchor,
            f"anchor {entry.anchor} ({entry.opening}) no longer matches its {entry.kind}: the text or notes changed, and the "
            f"{item.kind} here ({item.opening}) is provisionally {item.anchor}. Decide: "
            f"`python -m conv anchors --keep {entry.anchor} {item.anchor}` (the same {item.kind}, corrected: it keeps "
            f"{entry.anchor}) or `--redirect {entry.anchor} {item.anchor}` (citations of {entry.anchor} land on the new one)",
            candidate=item.anchor))
    anchors = {item.anchor for item in outcome.items} | present
    for entry in ledger.redirects():
        try:
            target = ledger.final(entry.anchor)
        except ValueError:
            continue
        if target in anchors:
            outcome.redirects.append({
                "from": entry.anchor, "to": target, "kind": entry.kind, "opening": entry.opening, "note": entry.note or None,
            })
    return outcome
