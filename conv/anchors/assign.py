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
content fingerprint of what it names (``fingerprint``: the passage's normalized text plus the
normalized text of all its notes, ignoring how the notes are cut into segments; a section's
normalized title), the seed span where that stands, and its opening words; or, for an anchor
that no longer names anything, the anchor its citations are redirected to.

A conversion reads the ledger and never writes it. In each chapter it pairs the ledger's live
anchors with the conversion's passages (and sections) of the same fingerprint, in reading order
(a patience diff: unique fingerprints first, then repeated ones in order, then moved ones), so
a passage keeps its anchor whatever is added or removed around it. A section cut off before its
title (an excerpt ending mid-section) is the section that starts with the same passage, so it
keeps its anchor once its title arrives. Then:

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
"""
from __future__ import annotations

import bisect
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from conv import datafiles as data
from conv.anchors.ledger import CHAPTER_ANCHOR, Entry, Ledger, display, is_anchor
from conv.model.tree import Edition, Passage, Section, Span
from conv.normalize import fold

OPENING = 12  # characters of reading text recorded as a passage's opening words


# -- fingerprints ----------------------------------------------------------------------------
def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def passage_fingerprint(passage: Passage) -> str:
    """The passage's normalized text and the normalized text of all its notes (segment cuts ignored)."""
    return _digest("passage\n" + passage.normalized + "\n" + "".join([n.normalized for n in passage.notes]))


def untitled_fingerprint(section: Section) -> str:
    """A section known only by where it starts: its first passage."""
    first = passage_fingerprint(section.passages[0]) if section.passages else ""
    return _digest("section-untitled\n" + first)


def section_fingerprint(section: Section) -> str:
    """A titled section: its normalized title as printed; an untitled one: its first passage."""
    if section.title is None:
        return untitled_fingerprint(section)
    return _digest("section\n" + fold(section.title))


def _opening(text: str) -> str:
    return text[:OPENING] + ("…" if len(text) > OPENING else "")


def passage_opening(passage: Passage) -> str:
    if passage.normalized:
        return _opening(passage.normalized)
    return "【" + _opening("".join(n.normalized for n in passage.notes))


def section_opening(section: Section) -> str:
    if section.title is not None:
        return fold(section.title)
    return "〔" + (passage_opening(section.passages[0]) if section.passages else "") + "〕"


def section_span(section: Section) -> Span:
    """From its first passage (or title) to the end of its title or last passage, in that seed."""
    spans = [p.span for p in section.passages] + ([section.title_span] if section.title_span else [])
    if not spans:
        return ("", 0, 0)
    seed = spans[0][0]
    same = [s for s in spans if s[0] == seed]
    return (seed, min(s[1] for s in same), max(s[2] for s in same))


# -- the conversion's side -------------------------------------------------------------------
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


# -- alignment -------------------------------------------------------------------------------
def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of pairs (sorted by first) increasing in second."""
    tails: list[int] = []
    tail_index: list[int] = []
    back = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tail_index.append(k)
        else:
            tails[pos] = j
            tail_index[pos] = k
        back[k] = tail_index[pos - 1] if pos else -1
    out = []
    k = tail_index[-1] if tail_index else -1
    while k != -1:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]


def align(old: list[str], new: list[str]) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """Pair equal keys of two sequences: ``(pairs old→new, the in-order pairs sorted)``.

    A patience diff: keys unique on both sides anchor an in-order skeleton (longest increasing
    run), the gaps between are aligned the same way, and a gap without unique keys is paired
    greedily in order. Keys left over on both sides are then paired in order ("moved").
    """
    pairs: dict[int, int] = {}
    stack = [(0, len(old), 0, len(new))]
    while stack:
        a0, a1, b0, b1 = stack.pop()
        if a0 >= a1 or b0 >= b1:
            continue
        count_a = Counter(old[a0:a1])
        count_b = Counter(new[b0:b1])
        where_b = {new[j]: j for j in range(b0, b1) if count_b[new[j]] == 1}
        unique = [(i, where_b[old[i]]) for i in range(a0, a1) if count_a[old[i]] == 1 and old[i] in where_b]
        if unique:
            previous = (a0 - 1, b0 - 1)
            for i, j in _lis(unique):
                pairs[i] = j
                stack.append((previous[0] + 1, i, previous[1] + 1, j))
                previous = (i, j)
            stack.append((previous[0] + 1, a1, previous[1] + 1, b1))
            continue
        positions: dict[str, list[int]] = defaultdict(list)
        for j in range(b0, b1):
            positions[new[j]].append(j)
        last = b0 - 1
        for i in range(a0, a1):
            found = positions.get(old[i])
            if not found:
                continue
            k = bisect.bisect_right(found, last)
            if k < len(found):
                pairs[i] = last = found[k]
    in_order = sorted(pairs.items())
    taken = set(pairs.values())
    left: dict[str, list[int]] = defaultdict(list)
    for j, key in enumerate(new):
        if j not in taken:
            left[key].append(j)
    for i, key in enumerate(old):
        if i not in pairs and left.get(key):
            pairs[i] = left[key].pop(0)
    return pairs, in_order


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
                untitled = _digest("section-untitled\n" + (items[0].fingerprint if items else ""))
                if section.title is None:
                    fingerprint = untitled
                    opening = "〔" + (items[0].opening if items else "") + "〕"
                else:
                    opening = fold(section.title)
                    fingerprint = _digest("section\n" + opening)
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


# -- the editor's decisions ------------------------------------------------------------------
class DecisionError(ValueError):
    """A --keep/--redirect the ledger cannot take (the message says why)."""


def known_chapter(anchor: str) -> bool:
    if not CHAPTER_ANCHOR.fullmatch(anchor):
        return False
    work, chapter = anchor.split("-")
    return work in {w["id"] for w in data.works()} and chapter in {c["id"] for c in data.chapters()}


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
