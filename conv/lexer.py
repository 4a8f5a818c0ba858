"""Lexing (切分): a line of a seed → tokens with offsets.

Kinds: ``text`` (a run of witness characters), ``open`` 【, ``close`` 】, ``circle`` ○ (句读's
segment separator), ``ideo`` U+3000 (通解's separator, 句读's indentation), ``space`` (other
whitespace). Line breaks are handled by the line index (``conv.reader``), not here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    kind: str
    start: int
    end: int


_TOKEN = re.compile(r"(【)|(】)|(○)|(\u3000)|([^\S\u3000]+)|([^【】○\s]+)")
_GROUP_KINDS = (None, "open", "close", "circle", "ideo", "space", "text")


def tokenize(text: str, start: int, end: int) -> list[Token]:
    """Tokens of ``text[start:end]`` (one line)."""
    return [Token(_GROUP_KINDS[m.lastindex], m.start(), m.end()) for m in _TOKEN.finditer(text, start, end)]
