"""Fingerprints (指纹) of what an anchor names, with its opening words and seed span.

A passage's fingerprint is its normalized text plus the normalized text of all its notes,
ignoring how the notes are cut into segments — normalized in full (``conv.normalize.fold``), even
where the passage's own normalized text keeps a form 郑注 or a sense distinguishes (``Passage.kept``,
``kept_at``, ``forms``); a titled section's is its normalized title as
printed; an untitled section (cut off before its title) is known by its first passage. The
ledger (``conv.anchors.ledger``) records each anchor's fingerprint, its span and its opening words.
"""
from __future__ import annotations

import hashlib

from conv.model.tree import Passage, Section, Span
from conv.normalize import fold

OPENING = 12  # characters of reading text recorded as a passage's opening words


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def passage_fingerprint(passage: Passage) -> str:
    """The passage's normalized text and the normalized text of all its notes (segment cuts ignored)."""
    if passage.kept or passage.kept_at or passage.forms:  # forms 郑注 or a sense distinguishes: fold them too
        return digest("passage\n" + fold(passage.text) + "\n" + "".join([fold(n.text) for n in passage.notes]))
    return digest("passage\n" + passage.normalized + "\n" + "".join([n.normalized for n in passage.notes]))


def untitled_fingerprint(section: Section) -> str:
    """A section known only by where it starts: its first passage."""
    first = passage_fingerprint(section.passages[0]) if section.passages else ""
    return digest("section-untitled\n" + first)


def section_fingerprint(section: Section) -> str:
    """A titled section: its normalized title as printed; an untitled one: its first passage."""
    if section.title is None:
        return untitled_fingerprint(section)
    return digest("section\n" + fold(section.title))


def _opening(text: str) -> str:
    return text[:OPENING] + ("…" if len(text) > OPENING else "")


def passage_opening(passage: Passage) -> str:
    folded = passage.kept or passage.kept_at or passage.forms
    if passage.text:
        return _opening(fold(passage.text) if folded else passage.normalized)
    return "【" + _opening("".join(fold(n.text) if folded else n.normalized for n in passage.notes))


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
