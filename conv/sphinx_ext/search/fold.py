"""Search forms (检索字形): which code points are Han characters, and the fold that makes 賔 and 宾 one
search term (``conv.normalize.fold``: PUA resolved, 四库 variants → standard forms, OpenCC t2s), the same
table in Python for the index and in the browser for a query (``search/runtime.py``).

A character of two senses whose forms search tells apart (一字两义, ``conv/data/senses.toml``: 閒 reads 间
between and 闲 at leisure) folds one way here (閒 → 闲); the text of a place that reads the other sense holds
that form (间), and :func:`sense_chars` names the characters whose places may so read otherwise.
"""
from __future__ import annotations

import re
from functools import lru_cache

from conv import datafiles as data
from conv import normalize

#: Code points treated as Han characters: CJK radicals, 々 〇, the CJK Unified Ideographs and
#: their extensions (planes 2 and 3), the compatibility ideographs, and the private-use areas (the
#: witnesses' PUA code points stand for characters the digitizer could not encode).
HAN_RANGES: tuple[tuple[int, int], ...] = (
    (0x2E80, 0x2FDF),
    (0x3005, 0x3005),
    (0x3007, 0x3007),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xE000, 0xF8FF),
    (0xF900, 0xFAFF),
    (0x20000, 0x3FFFF),
    (0xF0000, 0xFFFFD),
    (0x100000, 0x10FFFD),
)
HAN_CLASS = "[" + "".join(
    f"\\U{low:08x}" if low == high else f"\\U{low:08x}-\\U{high:08x}" for low, high in HAN_RANGES
) + "]"
#: One Han character (:data:`HAN_RANGES`).
HAN = re.compile(HAN_CLASS)


def is_han(char: str) -> bool:
    """True for a code point search treats as a Han character."""
    return HAN.fullmatch(char) is not None


@lru_cache(maxsize=1)
def fold_table() -> dict[str, str]:
    """The search fold table: every character whose search form differs from itself.

    ``conv.normalize.search_table()`` closed under itself (so folding is idempotent: 薴→苧→苎),
    plus the reverse of ``t2s_keep`` (a reader typing the simplified 𫛪 finds the kept 鴽).
    This is the table the browser gets; :func:`search_fold` applies exactly the same mapping.
    """
    table = dict(normalize.search_table())
    for kept, simplified in data.t2s_keep().items():
        if normalize.fold_char(simplified) == simplified and simplified not in table:
            table[simplified] = kept
    closed = {}
    for source, target in table.items():
        seen = {source}
        while target and target in table and table[target] != target and target not in seen:
            seen.add(target)
            target = table[target]
        if target != source:
            closed[source] = target
    return closed


@lru_cache(maxsize=1)
def _fold_translation() -> dict[int, str]:
    """:func:`fold_table` keyed by code point, for ``str.translate``: the whole text is folded in
    C with a dict lookup per character. (A regular expression of the keys, a character class of
    some 4 000 characters tested against every character of the text, was five times slower.)"""
    return {ord(char): target for char, target in fold_table().items()}


def search_fold(text: str) -> str:
    """``text`` folded for search, character by character with :func:`fold_table`."""
    return text.translate(_fold_translation())


@lru_cache(maxsize=1)
def sense_chars() -> dict[str, str]:
    """The characters of two senses whose places search tells apart (因义异读): each → the form of the sense
    its words show, where the fold gives another (閒 → 间; 徵, 乾, 脩 and 於 keep their own form, which folds as
    the other sense's does: search finds both senses alike). The index holds such a place's printed form too
    (``search/witness_terms.py``)."""
    return {sense["char"]: sense["keep"] for sense in data.senses()
            if search_fold(sense["keep"]) != search_fold(sense["char"])}
