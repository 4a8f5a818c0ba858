"""Lexing (切分): a line of a seed → tokens with offsets.

Kinds: ``text`` (a run of witness characters), ``open`` 【, ``close`` 】, ``circle`` ○ (句读's
segment separator), ``ideo`` U+3000 (通解's separator, 句读's indentation), ``space`` (other
whitespace). Line breaks are handled by the line index (``conv.reader``), not here.
"""
from __future__ import annotations

from dataclasses import dataclass

_KINDS = {"【": "open", "】": "close", "○": "circle", "\u3000": "ideo"}


@dataclass(frozen=True)
class Token:
    kind: str
    start: int
    end: int


def tokenize(text: str, start: int, end: int) -> list[Token]:
    """Tokens of ``text[start:end]`` (one line)."""
    tokens: list[Token] = []
    run = start
    i = start
    while i < end:
        char = text[i]
        kind = _KINDS.get(char)
        if kind is None and char.isspace():
            kind = "space"
        if kind is not None:
            if run < i:
                tokens.append(Token("text", run, i))
            if kind == "space" and tokens and tokens[-1].kind == "space" and tokens[-1].end == i:
                tokens[-1] = Token("space", tokens[-1].start, i + 1)
            else:
                tokens.append(Token(kind, i, i + 1))
            run = i + 1
        i += 1
    if run < end:
        tokens.append(Token("text", run, end))
    return tokens
