"""The witness's forms of a collated seed (文渊阁字形): the 繁体 view and the emendations (据改).

A collation maps each seed character to the witness character that stands for it
(``Collation.mapping``). From it:

- :func:`traditional`: a stretch of the seed in the witness's own forms, character for character
  (宾→賓, 礼→禮, 着→著): where the aligned witness character is the same character or another form
  of it (``fold.relation``), its form; elsewhere (a different reading, nothing aligned, a character
  Unicode lacks in the witness) the seed's own character. The result has the length of the text,
  so the 繁体 view never adds or loses a character.
- :func:`emendations`: the apparatus records (``conv.edition.collation.entries``) that change the
  reading text (``emended``: a stand-in the seed printed, a private-use code point the witness
  resolves otherwise, a substantive difference a reviewed correction decides), by seed and offset;
  also a reviewed misprint of the 文渊阁 text's own words (``conv/data/misprints.toml``, ``words = true``:
  中庸章句's 閒 for 聞), which the reading text reads right.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cache

from conv.normalize import fold as normal_form
from conv.unencoded import is_stand_in

from . import fold
from .records import Collation


def traditional(collation: Collation, offsets, text: str) -> str:
    """``text`` (seed characters at the seed offsets ``offsets``) in the witness's forms."""
    seed = collation.seed
    out = []
    for char, offset in zip(text, offsets):
        index = bisect.bisect_left(seed.offsets, offset)
        target = collation.mapping[index] if index < len(seed.offsets) and seed.offsets[index] == offset else None
        if target is not None:
            side, local = collation.witness_char(target)
            witness = side.chars[local]
            if not is_stand_in(witness) and fold.relation(char, witness) is not None:
                out.append(witness)
                continue
        out.append(char)
    return "".join(out)


@cache
def _standard_forms() -> dict[str, str]:
    """Witness form → its standard character, for the project's pairs of another form of the same
    character (``data/equivalents.tsv``: 缺笔 𤣥 → 玄, variants 𨽻 → 隶; not 著/着, two readings)."""
    return {witness: seed for witness, seed, kind, _ in fold.equivalents() if kind in ("quebi", "variant")}


def reading_form(text: str) -> str:
    """The reading text's (规范) form of characters the witness has: 𤣥 → 玄, 恵 → 惠, else the
    reading form of ``conv.normalize.fold`` (a character Unicode lacks stays its stand-in)."""
    table = _standard_forms()
    return "".join(table.get(char) or normal_form(char) for char in text)


@dataclass(frozen=True)
class Emendation:
    """One change of the reading text (改字): the seed printed ``printed`` at ``[start, end)`` of
    its file (nothing, for a character it dropped: ``start == end``); the witness has ``adopted``,
    which the reading text takes. ``entry``: the apparatus entry's id (set by the writer)."""

    start: int
    end: int
    printed: str
    adopted: str
    entry: str = ""
    role: str = "emend"  # ``misprint``: the witness's own misprint of its words, read right (形讹)


def emendations(apparatus: list[dict]) -> dict[str, list[Emendation]]:
    """Seed file → its emendations in order, from the edition's apparatus records."""
    out: dict[str, list[Emendation]] = {}
    for record in apparatus:
        if record.get("kind") == "misprint" and record.get("words"):  # conv/data/misprints.toml, words = true
            seed, start, end = record["span"]
            out.setdefault(seed, []).append(Emendation(start, end, record["witness"], record["reading"], role="misprint"))
        if record.get("kind") != "collation" or not record.get("emended") or not record.get("witness_text"):
            continue
        seed, start, end = record["span"]
        out.setdefault(seed, []).append(Emendation(start, end, record.get("text", ""), record["witness_text"]))
    for found in out.values():
        found.sort(key=lambda emendation: (emendation.start, emendation.end))
    return out
