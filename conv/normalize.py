"""Normalization (规范化): the reading text of a witness.

``fold_char`` maps one witness character to its reading form: a PUA code point to the character
it stands for (or to nothing when spurious), then the project's variant table (賔→宾), then
OpenCC t2s (說→说), except where t2s would yield a code point common fonts lack. The same table
drives search (``conv.sphinx_ext.search.language``), so 賔 and 宾 are one character everywhere.
"""
from __future__ import annotations

import re
from functools import lru_cache

import opencc

from conv import datafiles as data

_T2S = opencc.OpenCC("t2s")
PUA_RANGES = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
PUA_PATTERN = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in PUA_RANGES) + "]")
#: Invisible and control characters (控制字符) that have no place in a witness's text: C0 controls
#: but tab and the line breaks, DEL, C1 controls, zero-width characters, bidi marks, overrides and
#: isolates, line/paragraph separators, U+FEFF (a BOM anywhere but at the start) and the
#: noncharacters U+FDD0–U+FDEF, U+FFFE, U+FFFF. None can be typeset.
CONTROL_PATTERN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufdd0-\ufdef\ufeff\ufff9-\ufffb\ufffe\uffff]")


#: The code points :func:`is_cjk` refuses, as one ``re`` class: a text's few non-Han characters at once.
NOT_CJK_PATTERN = re.compile("[^\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff\u3007"
                             + "".join(f"{chr(a)}-{chr(b)}" for a, b in PUA_RANGES) + "]")


def is_cjk(char: str) -> bool:
    """A Han character (CJK Unified Ideographs and extensions, compatibility ideographs), 〇, or a
    private-use code point (they stand for Han characters here)."""
    code = ord(char)
    return (0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x3FFFF
            or code == 0x3007 or is_pua(char))


def control_name(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``: how a message names a control character."""
    import unicodedata

    name = unicodedata.name(char, "") or {0: "NULL"}.get(ord(char), "control character")
    return f"U+{ord(char):04X} ({name})"


def is_pua(char: str) -> bool:
    """True for a private-use code point (私用区)."""
    code = ord(char)
    return any(low <= code <= high for low, high in PUA_RANGES)


@lru_cache(maxsize=None)
def fold_char(char: str) -> str:
    """The reading form of one character: '' for a spurious code point, else one character.

    An unknown PUA code point is returned unchanged (the parser reports it as a problem).
    """
    if is_pua(char):
        entry = data.pua().get(char)
        return char if entry is None else entry["char"]
    seen = {char}
    while True:  # fold to a fixed point: 薴 → 苧 → 苎
        folded = _fold_once(char)
        if folded in seen:
            return folded
        seen.add(folded)
        char = folded


def _fold_once(char: str) -> str:
    if char in data.variants():
        return data.variants()[char]
    if char in data.t2s_keep():
        return char
    folded = _T2S.convert(char)
    return folded if len(folded) == 1 else char


class _FoldTable(dict):
    """A ``str.translate`` table that computes each character's fold once, on first use."""

    def __init__(self, keep_length: bool) -> None:
        super().__init__()
        self.keep_length = keep_length

    def __missing__(self, code: int) -> str:
        char = chr(code)
        folded = fold_char(char)
        if not folded:
            _VANISHING.add(char)
            folded = char if self.keep_length else ""
        self[code] = folded
        return folded


_VANISHING: set[str] = set()  # every character met so far whose reading form is nothing (spurious)
_TABLE = _FoldTable(keep_length=False)
_SAME_LENGTH = _FoldTable(keep_length=True)


def fold(text: str) -> str:
    """The normalized reading text of ``text``."""
    return text.translate(_TABLE)


def fold_keeping(text: str, keep: frozenset[str]) -> str:
    """``fold(text)`` leaving the characters of ``keep`` as they are (what 郑注 distinguishes in a
    passage: ``conv.analyses.distinctions``)."""
    return "".join(char if char in keep else fold_char(char) for char in text)


def fold_same_length(text: str) -> str:
    """Like ``fold`` but one character for one (a spurious code point stays): for recognising
    structure in a seed whatever its script, offsets unchanged."""
    return text.translate(_SAME_LENGTH)


class FoldedSource:
    """A whole seed folded once (``fold_same_length``), so that the reading text of any stretch
    of it is a slice of one string instead of a fold of its own.

    ``fold`` and ``fold_same_length`` differ only at characters that fold to nothing (a spurious
    code point); a stretch holding one is folded on its own, with ``fold``.
    """

    def __init__(self, text: str) -> None:
        self.same = text.translate(_SAME_LENGTH)
        # after the translate, every character of the text has been through the table once
        self.vanishing = tuple(char for char in _VANISHING if char in text)

    def same_length(self, start: int, end: int) -> str:
        """``fold_same_length`` of the seed's ``text[start:end]``."""
        return self.same[start:end]

    def fold(self, witness: str, pieces) -> str:
        """``fold(witness)``, where ``witness`` is the seed's characters in ``pieces``:
        ``(start, end)`` stretches of the seed, in order."""
        for char in self.vanishing:
            if char in witness:
                return fold(witness)
        same = self.same
        if len(pieces) == 1:
            start, end = pieces[0]
            return same[start:end]
        return "".join([same[start:end] for start, end in pieces])


def search_table() -> dict[str, str]:
    """Every folding that changes a character, for the JS side of search.

    Covers the PUA table, the variant table, and OpenCC's character table (t2s), so the browser
    folds a query exactly as Python folds the text.
    """
    table: dict[str, str] = {}
    for char in data.pua():
        table[char] = fold_char(char)
    for char in data.variants():
        table[char] = fold_char(char)
    for source in _t2s_characters():
        target = fold_char(source)
        if target != source:
            table[source] = target
    return table


def _t2s_characters() -> list[str]:
    """Single characters OpenCC's t2s dictionaries know."""
    import os

    chars: set[str] = set()
    base = os.path.join(os.path.dirname(opencc.__file__), "dictionary")
    for name in ("TSCharacters.txt", "TSPhrases.txt"):
        path = os.path.join(base, name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                key = line.split("\t", 1)[0]
                if len(key) == 1:
                    chars.add(key)
    return sorted(chars)
