"""Unencoded characters (未编码字): stand-ins for characters Unicode lacks.

The Kanseki Repository writes a character Unicode lacks as a gaiji entity ``&KR0871;`` (its number
is its identity) and, a few times, as a composed character (组字式) ``[炫-ㄙ+ㄥ]``. The edition keeps
each as ONE character of the text: a stand-in code point in the supplementary private-use planes,
``chr(GAIJI_BASE + 871)`` or ``chr(COMPOSED_BASE + i)``. Nothing in Unicode is there, so a
stand-in is never confused with a character; :func:`markup` gives the entity back for display
(a visible mark with the entity in a tip), for search (the entity is indexed) and for the
apparatus. The seeds' own private-use code points (U+E000–U+F8FF) are another matter
(``conv/data/pua.toml``).
"""
from __future__ import annotations

import re

GAIJI_BASE = 0xF0000  # &KRnnnn; → chr(GAIJI_BASE + nnnn), Supplementary Private Use Area-A
COMPOSED_BASE = 0x100000  # COMPOSED[i] → chr(COMPOSED_BASE + i), Supplementary Private Use Area-B
#: The composed characters of the witness files, each ONE character: a new one is an error until it
#: is added here (at the end: the stand-ins must not move).
COMPOSED = ("[沔-丏+丐]", "[炫-ㄙ+ㄥ]")
_ENTITY = re.compile(r"&KR(\d{4});")
#: Every stand-in (:func:`is_stand_in`) as one ``re`` character class, to find them in a text at once.
STAND_IN = re.compile(f"[{chr(GAIJI_BASE)}-{chr(GAIJI_BASE + 9999)}{chr(COMPOSED_BASE)}-{chr(COMPOSED_BASE + len(COMPOSED) - 1)}]")


def gaiji_char(entity: str) -> str:
    """``&KR0871;`` → its one-character stand-in ``chr(0xF0000 + 871)``."""
    match = _ENTITY.fullmatch(entity)
    if not match:
        raise ValueError(f"not a Kanripo gaiji entity: {entity!r}")
    return chr(GAIJI_BASE + int(match.group(1)))


def composed_char(description: str) -> str:
    """``[炫-ㄙ+ㄥ]`` → its one-character stand-in (ValueError if not in :data:`COMPOSED`)."""
    if description not in COMPOSED:
        raise ValueError(f"unknown composed character {description}")
    return chr(COMPOSED_BASE + COMPOSED.index(description))


def is_stand_in(char: str) -> bool:
    """A stand-in for a gaiji entity or a composed character."""
    return len(char) == 1 and (GAIJI_BASE <= ord(char) < GAIJI_BASE + 10000
                               or COMPOSED_BASE <= ord(char) < COMPOSED_BASE + len(COMPOSED))


def markup(char: str) -> str:
    """A stand-in → what the witness file writes: ``&KR0871;`` or ``[炫-ㄙ+ㄥ]``."""
    if not is_stand_in(char):
        raise ValueError(f"not a stand-in for an unencoded character: {char!r}")
    if ord(char) >= COMPOSED_BASE:
        return COMPOSED[ord(char) - COMPOSED_BASE]
    return f"&KR{ord(char) - GAIJI_BASE:04d};"
