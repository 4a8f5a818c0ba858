"""Collating the seeds with the 文渊阁 transcription (对校): where each seed stands in the witness.

A seed (a simplified e-text excerpt) and the witness files of its work (``conv.reader.wenyuange``)
become two sides of characters with their offsets (:func:`seed_side`, :func:`witness_side`) and
are aligned by ``conv.collate.align``. The collation tells where the seed's stretch lies in the
witness (one span per witness file it touches): there the seed is the 底本 and the witness's text
is not printed again (``conv.edition.joins``); its differences become apparatus entries; and
every passage and section title of the seed takes the 文渊阁 page of the character its first
character is aligned with.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

from conv.collate.align import align
from conv.collate.forms import emendations, reading_form
from conv.collate.records import Collation, Side
from conv.model.tree import Chapter, Edition, block_offsets, text_char_offsets
from conv.reader.source import Source
from conv.unencoded import STAND_IN


@dataclass
class SeedCollation:
    """One seed's collation, with what the edition needs of it."""

    seed: str
    collation: Collation

    @property
    def aligned(self) -> bool:
        return self.collation.aligned

    def covered(self) -> dict[str, tuple[int, int]]:
        """Witness file → the ``[start, end)`` offsets the seed stands for."""
        return {name: (start, end) for name, start, end in self.collation.stretch}

    def witness_at(self, seed_offset: int) -> tuple[str, int] | None:
        """``(witness file, offset)`` of the witness character aligned with the first seed
        character at or after ``seed_offset``, or None."""
        side = self.collation.seed
        index = bisect.bisect_left(side.offsets, seed_offset)
        mapping = self.collation.mapping
        for i in range(index, min(index + 64, len(mapping))):
            if mapping[i] is not None:
                return self.collation.witness_offset(mapping[i])
        return None


def seed_side(source: Source, skip: list[tuple[int, int]]) -> Side:
    """The seed's text characters (not markup, not in the ``skip`` spans: its title line, dropped
    lines) with their offsets."""
    text, offsets, at = source.text, [], 0
    for start, end in sorted(span for span in skip if span[0] < span[1]):
        if start > at:
            offsets += text_char_offsets(text, at, start)
        at = max(at, end)
    offsets += text_char_offsets(text, at)
    return Side(source.name, "".join(text[offset] for offset in offsets), offsets)


def witness_side(source) -> Side:
    """A transliterated witness file's text characters; a stand-in's end is its entity's end."""
    text, original = source.text, source.witness.text
    offsets = text_char_offsets(text)
    chars = "".join(text[offset] for offset in offsets)
    ends = [offset + 1 for offset in offsets]
    for match in STAND_IN.finditer(chars):
        offset = offsets[match.start()]
        ends[match.start()] = original.index(";" if original[offset] == "&" else "]", offset) + 1
    return Side(source.name, chars, offsets, ends)


def collate(source: Source, skip: list[tuple[int, int]], witnesses: list, sides: dict | None = None) -> SeedCollation:
    """Align one seed with the witness files of its work (in the book's order). ``sides``: the
    witness sides already read (file name → :class:`Side`, filled here), so that the seeds of one
    work read each witness file once."""
    sides = {} if sides is None else sides
    for witness in witnesses:
        if witness.name not in sides:
            sides[witness.name] = witness_side(witness)
    return SeedCollation(source.name, align(seed_side(source, skip), [sides[w.name] for w in witnesses]))


def place_seed_chapters(chapters: list[Chapter], found: SeedCollation, sources: dict) -> None:
    """Each passage and section title of a collated seed: the 文渊阁 page of the witness
    character aligned with its first character (``witness`` stays "seed": its text is the seed's)."""
    for chapter in chapters:
        for section in chapter.sections:
            items = [(section, section.title_span)] if section.title_span else []
            items += [(passage, passage.span) for passage in section.passages]
            for item, span in items:
                at = found.witness_at(span[1])
                if at is not None:
                    page = sources[at[0]].page_at(at[1])
                    item.page = page.as_dict() if page is not None else None


def entries(found: SeedCollation, sources: dict, corrections=None) -> list[dict]:
    """Every difference of the collation as an apparatus entry (``kind`` "collation", its
    ``class``): the seed's span and text, the witness's span, text and page; ``emended`` for a
    stand-in the seed printed (placeholder), a private-use code point the witness resolves and a
    substantive difference a reviewed correction (``emend``) decides (its ``correction`` and
    ``reason``)."""
    out = []
    for difference in found.collation.differences:
        decided = corrections.emend(found.seed, difference.seed_text, difference.witness_text) \
            if corrections is not None and difference.kind == "substantive" else None
        name, start, end = difference.witness_span
        page = sources[name].page_at(start)
        seed_name, seed_start, _ = difference.seed_span
        line, col = sources[seed_name].position(seed_start)
        out.append({
            "kind": "collation", "class": difference.kind, "op": difference.op,
            "span": list(difference.seed_span), "line": line, "col": col,
            "text": difference.seed_text, "witness_text": difference.witness_text,
            "witness_span": list(difference.witness_span), "page": page.as_dict() if page else None,
            "emended": difference.kind == "placeholder" or (difference.kind == "pua" and not difference.confirmed)
            or decided is not None,
            "confirmed": difference.confirmed, "note": difference.note,
            **({"correction": decided["id"], "reason": decided["reason"]} if decided else {}),
        })
    return out


def emend_readings(edition: Edition) -> None:
    """The reading text (``normalized``) of each passage and segment of a collated seed takes its
    emendations (``conv.collate.forms.emendations``: the witness's character for a stand-in the
    seed printed or a character it dropped), as the 规范 view, the PDF and search do. After the
    anchors: a passage keeps the fingerprint it had without the witness."""
    found = emendations(edition.apparatus)
    if not found:
        return
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                for passage in section.passages:
                    for block in (passage, *passage.notes):
                        if block.span[0] in found and block.text:
                            block.normalized = _emended(edition, block, found[block.span[0]])


def _emended(edition: Edition, block, emends) -> str:
    """``block.normalized`` with the emendations of its characters (it has one character per
    character of its text, else it is left as it is)."""
    offsets = block_offsets(edition.sources, block)
    normalized = block.normalized
    if offsets is None or len(normalized) != len(block.text):
        return normalized
    for emendation in reversed(emends):
        at = bisect.bisect_left(offsets, emendation.start)
        if at < len(offsets) and offsets[at] == emendation.start and \
                block.text[at:at + len(emendation.printed)] == emendation.printed:
            normalized = normalized[:at] + reading_form(emendation.adopted) + normalized[at + len(emendation.printed):]
    return normalized
