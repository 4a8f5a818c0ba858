"""Lexing (切分): a line of a seed → tokens with offsets.

Kinds: ``text`` (a run of witness characters), ``open`` 【, ``close`` 】, ``circle`` ○ (句读's
segment separator), ``ideo`` U+3000 (通解's separator, 句读's indentation), ``space`` (other
whitespace). Line breaks are handled by the line index (``conv.reader.source``), not here.
"""
from __future__ import annotations

import re
from typing import NamedTuple


class Token(NamedTuple):
    kind: str
    start: int
    end: int


_TOKEN = re.compile(r"(【)|(】)|(○)|(\u3000)|([^\S\u3000]+)|([^【】○\s]+)")
_GROUP_KINDS = (None, "open", "close", "circle", "ideo", "space", "text")
_new = tuple.__new__  # a Token without the Python-level __new__ (a line has dozens of tokens)


def tokenize(text: str, start: int, end: int) -> list[Token]:
    """Tokens of ``text[start:end]`` (one line)."""
    kinds = _GROUP_KINDS
    return [_new(Token, (kinds[m.lastindex], m.start(), m.end())) for m in _TOKEN.finditer(text, start, end)]
