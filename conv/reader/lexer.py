"""Lexing (切分): a line of a seed → tokens with offsets.

Kinds: ``text`` (a run of witness characters), ``open`` 【, ``close`` 】, ``circle`` ○ (句读's
segment separator), ``ideo`` U+3000 (通解's separator, 句读's indentation), ``space`` (other
whitespace). Line breaks are handled by the line index (``conv.reader.source``), not here.
:func:`rebuild` gives a line's tokens new kinds and notes opened or closed between two characters
(``conv.parser.unbracketed`` and ``conv.parser.note_runs``, which mend the 通解's parentheses); :func:`depth`
how many notes the tokens before a point leave open.
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


def rebuild(tokens: list[Token], kinds: list[str], cuts: dict[int, list[str]]) -> list[Token]:
    """``tokens`` with the ``kinds`` given (one per token) and, at each offset of ``cuts``, its zero-width
    tokens (``Token(kind, offset, offset)``: a note opened or closed between two characters), the text
    token that holds the offset cut in two there; no character moves."""
    out: list[Token] = []
    for token, kind in zip(tokens, kinds):
        if kind != "text":
            out.append(Token(kind, token.start, token.end))
            continue
        at = sorted(c for c in cuts if token.start <= c <= token.end)
        position = token.start
        for cut in at:
            if cut > position:
                out.append(Token("text", position, cut))
            out.extend(Token(zero, cut, cut) for zero in cuts[cut])
            position = cut
        if position < token.end:
            out.append(Token("text", position, token.end))
    return out


def depth(tokens: list[Token]) -> int:
    """How many notes ``tokens`` (a line's, up to some point) leave open: 【 less 】 (0 outside the notes)."""
    return sum(1 if token.kind == "open" else -1 if token.kind == "close" else 0 for token in tokens)
