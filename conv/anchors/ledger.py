"""The anchor ledger (锚点账本): every anchor ever issued, one line each, in ``conv/data/anchors.tsv``.

The file is tab-separated UTF-8, one line per anchor, sorted by work, chapter, passages before
sections, then number (``judou-xiangshe-2`` before ``judou-xiangshe-10``), so that a review diff
shows exactly the anchors issued, moved or redirected. Lines starting with ``#`` are comments.
Columns::

    anchor  status  to  fingerprint  seed  start  end  opening  [note]

* ``anchor``      — ``<work>-<chapter>-<n>`` (a passage) or ``<work>-<chapter>-s<n>`` (a section).
* ``status``      — ``live`` (the anchor names a passage/section of the edition) or ``redirect``
                    (the passage changed or disappeared: citations of the anchor land on ``to``).
* ``to``          — the redirect's target (a passage, section or chapter anchor); ``-`` when live.
* ``fingerprint`` — content fingerprint of what the anchor names (``conv.anchors.assign.fingerprint``);
                    for a redirect, of what it named before it was redirected.
* ``seed`` ``start`` ``end`` — where that is: the seed file name and the span (str offsets).
* ``opening``     — its opening words in the reading text, for people reviewing the ledger.
* ``note``        — optional: why a redirect was recorded.

This module only reads, checks and writes the file; what the entries mean for a conversion is
``conv.anchors.assign``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from conv.datafiles import DATA_DIR, display, read_text, write_atomically
from conv.errors import ConversionError

DEFAULT_PATH = DATA_DIR / "anchors.tsv"

ANCHOR = re.compile(r"(?P<work>[a-z][a-z0-9]*)-(?P<chapter>[a-z][a-z0-9]*)-(?P<kind>s?)(?P<number>[1-9][0-9]*)")
CHAPTER_ANCHOR = re.compile(r"[a-z][a-z0-9]*-[a-z][a-z0-9]*")
FINGERPRINT = re.compile(r"[0-9a-f]{16}")

HEADER = """\
# Anchor ledger (锚点账本) of the edition: every anchor ever issued, one per line; an anchor is never
# reissued. Written only by `python -m conv anchors --update|--redirect|--keep` (see conv/anchors.py
# for the workflow); review its diff like code. Tab-separated columns:
# anchor	status	to	fingerprint	seed	start	end	opening	[note]
"""


@dataclass(frozen=True)
class Entry:
    """One ledger line."""

    anchor: str
    status: str  # "live" | "redirect"
    to: str | None
    fingerprint: str
    seed: str
    start: int
    end: int
    opening: str
    note: str = ""
    line: int = 0  # where it stands in the file read (for messages only; not written)

    @property
    def live(self) -> bool:
        return self.status == "live"

    @cached_property
    def kind(self) -> str:
        return "section" if parse(self.anchor)[2] == "s" else "passage"

    @cached_property
    def prefix(self) -> str:
        """``<work>-<chapter>``: the chapter the anchor belongs to."""
        work, chapter, _, _ = parse(self.anchor)
        return f"{work}-{chapter}"

    @cached_property
    def number(self) -> int:
        return parse(self.anchor)[3]

    def row(self) -> str:
        cells = [self.anchor, self.status, self.to or "-", self.fingerprint, self.seed, str(self.start), str(self.end), clean(self.opening)]
        if self.note:
            cells.append(clean(self.note))
        return "\t".join(cells)


def parse(anchor: str) -> tuple[str, str, str, int]:
    """(work, chapter, "s" for a section or "", number) of a passage or section anchor."""
    match = ANCHOR.fullmatch(anchor)
    if match is None:
        raise ValueError(f"not a passage or section anchor: {anchor!r}")
    return match["work"], match["chapter"], match["kind"], int(match["number"])


def is_anchor(anchor: str) -> bool:
    return ANCHOR.fullmatch(anchor) is not None


def sort_key(anchor: str) -> tuple:
    work, chapter, kind, number = parse(anchor)
    return (work, chapter, kind, number)


def clean(text: str) -> str:
    """A cell's text: no tabs or line breaks."""
    return re.sub(r"[\t\r\n]+", " ", text).strip() or "-"


class Ledger:
    """The entries of one ledger file, by anchor."""

    def __init__(self, entries: list[Entry] | None = None, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.entries: dict[str, Entry] = {}
        for entry in entries or []:
            self.entries[entry.anchor] = entry

    # -- reading and writing -----------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | None = None) -> "Ledger":
        """Read a ledger; a missing file is an empty ledger (nothing issued yet)."""
        path = Path(path) if path is not None else DEFAULT_PATH
        if not path.exists():
            return cls([], path)
        return cls.loads(read_text(path, "the ledger is UTF-8: restore it from git (`git checkout -- conv/data/anchors.tsv`)"), path)

    @classmethod
    def loads(cls, text: str, path: Path | None = None) -> "Ledger":
        name = display(path) if path is not None else "<ledger>"
        ledger = cls([], path)

        def fail(number: int, message: str, col: int = 1) -> ConversionError:
            return ConversionError(name, number, col, message, "the ledger is written by `python -m conv anchors`; restore it from git (`git checkout -- conv/data/anchors.tsv`) rather than editing it by hand")

        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) not in (8, 9):
                raise fail(number, f"expected 8 or 9 tab-separated columns, found {len(cells)}")
            anchor, status, to, fingerprint, seed, start, end, opening = cells[:8]
            note = cells[8] if len(cells) == 9 else ""
            if not is_anchor(anchor):
                raise fail(number, f"malformed anchor {anchor!r} (expected <work>-<chapter>-<n> or <work>-<chapter>-s<n>)")
            if anchor in ledger.entries:
                raise fail(number, f"anchor {anchor} is listed twice (also on line {ledger.entries[anchor].line})")
            if status not in ("live", "redirect"):
                raise fail(number, f"status must be `live` or `redirect`, not {status!r}", len(anchor) + 2)
            if (status == "live") != (to == "-"):
                raise fail(number, "a live anchor has `-` as its target; a redirect names one")
            if status == "redirect" and not (is_anchor(to) or CHAPTER_ANCHOR.fullmatch(to)):
                raise fail(number, f"redirect target {to!r} is not an anchor")
            if not FINGERPRINT.fullmatch(fingerprint):
                raise fail(number, f"malformed fingerprint {fingerprint!r} (16 hex digits)")
            if not (start.isdigit() and end.isdigit() and int(start) <= int(end)):
                raise fail(number, f"malformed span {start!r}–{end!r}")
            ledger.entries[anchor] = Entry(anchor, status, None if to == "-" else to, fingerprint, seed, int(start), int(end), opening, "" if note == "-" else note, number)
        problem = ledger.check_redirects()
        if problem:
            anchor, message = problem
            raise fail(ledger.entries[anchor].line, message)
        return ledger

    def dumps(self) -> str:
        rows = [self.entries[a].row() for a in sorted(self.entries, key=sort_key)]
        return HEADER + "".join(row + "\n" for row in rows)

    def save(self, path: Path | None = None) -> Path:
        path = Path(path or self.path or DEFAULT_PATH)
        text = self.dumps()
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, text)
        return path

    def copy(self) -> "Ledger":
        return Ledger(list(self.entries.values()), self.path)

    # -- queries -----------------------------------------------------------------------------
    def __contains__(self, anchor: str) -> bool:
        return anchor in self.entries

    def get(self, anchor: str) -> Entry | None:
        return self.entries.get(anchor)

    def chapter(self, prefix: str) -> list[Entry]:
        """Every entry (live and redirected) of the chapter ``<work>-<chapter>``."""
        return [e for e in self.entries.values() if e.prefix == prefix]

    def highest(self, prefix: str, kind: str) -> int:
        """The highest number ever issued for passages ("passage") or sections ("section") of a chapter."""
        return max((e.number for e in self.chapter(prefix) if e.kind == kind), default=0)

    def final(self, anchor: str) -> str:
        """Where citations of ``anchor`` land: follows redirects to a live anchor or a chapter anchor."""
        seen = set()
        while anchor in self.entries and not self.entries[anchor].live:
            if anchor in seen:
                raise ValueError(f"redirect cycle through {anchor}")
            seen.add(anchor)
            anchor = self.entries[anchor].to
        return anchor

    def redirects(self) -> list[Entry]:
        return [self.entries[a] for a in sorted(self.entries, key=sort_key) if not self.entries[a].live]

    def check_redirects(self) -> tuple[str, str] | None:
        """(anchor, message) for the first redirect that loops or points at nothing known."""
        for entry in self.redirects():
            try:
                target = self.final(entry.anchor)
            except ValueError as error:
                return entry.anchor, str(error)
            if is_anchor(target) and target not in self.entries:
                return entry.anchor, f"redirect {entry.anchor} → {entry.to} ends at {target}, which the ledger never issued"
        return None

    # -- changes -----------------------------------------------------------------------------
    def put(self, entry: Entry) -> None:
        self.entries[entry.anchor] = replace(entry, line=0)
