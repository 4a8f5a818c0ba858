"""Recognising the generated format (快速解析): directive bodies as ``conv.myst.writer`` writes them.

MyST parses a ``yl:passage`` body as Markdown, every segment directive in it again, and each segment's
text once more as inline Markdown: most of the build's reading time. The bodies the converter
writes are much simpler than Markdown (``conv/FORMAT.md``): witness text with every ASCII
punctuation character backslash-escaped (``conv.myst.escape``) and ``{yl:gloss}`…``` roles, in lines
of a fixed shape. This module recognises exactly that shape and nothing else; the directives
(``conv.sphinx_ext.text.body``) build their nodes from what it returns, and parse anything it does
not recognise with MyST as before, so hand-written or malformed bodies keep MyST's results and
warnings.

What is recognised is what MyST reads the same way, by construction:

- inline text: runs of characters that are neither ASCII punctuation, whitespace nor control
  characters, backslash escapes of ASCII punctuation (resolved), single spaces between them (not
  at either end: MyST would strip them), and ``{yl:gloss}`CONTENT``` (one backtick, CONTENT
  without a backtick or control character: the role gets it as MyST would give it), likewise
  ``{yl:emend}``, ``{yl:misprint}`` and ``{yl:cite}`` (a title of the 通解's 目録 linked to its 篇);
- a body: blank (empty) lines, at most one line of inline text first (the printed words,
  followed by a blank line or the end), then segment directives, each exactly ``:::{yl:LAYER}``,
  optionally ``:lacuna: start|end``, one line of inline text, ``:::``.
"""
from __future__ import annotations

import re
import string
from typing import NamedTuple

from conv.sphinx_ext.util import SEGMENT_LAYERS

_PUNCT = re.escape(string.punctuation)
#: A run of text without escapes, spaces or roles (one or more characters).
_PLAIN = "[^" + _PUNCT + r"\s\x00-\x1f\x7f]+"
#: A piece of inline text between roles: plain runs, escapes and single spaces.
_PIECE = re.compile("(?:" + _PLAIN + r"|\\[" + _PUNCT + "]| )*")
_ESCAPE = re.compile(r"\\([" + _PUNCT + "])")
_ROLE = re.compile(r"\{yl:(gloss|emend|misprint|cite)\}`([^`\x00-\x1f\x7f]+)`")
#: Quick test for the common case: nothing but plain characters and single spaces.
_SIMPLE = re.compile(_PLAIN + "(?: " + _PLAIN + ")*")
_FENCE = re.compile(r":::\{yl:(" + "|".join(SEGMENT_LAYERS) + r")\}")
_LACUNA = re.compile(":lacuna: (start|end)")
_TRAD = re.compile(":trad: ([^\\s`]+)")


class Gloss(NamedTuple):
    """A ``{yl:gloss}`` (or ``{yl:emend}``, ``{yl:cite}``) role: its content as written (the role
    resolves escapes itself)."""

    content: str
    role: str = "gloss"


class Words(NamedTuple):
    """The printed words: line ``index`` of the body, its inline parts."""

    index: int
    parts: list


class SegmentBlock(NamedTuple):
    """A segment directive (``yl:zhu`` …) opening at line ``index`` of the body."""

    index: int
    layer: str
    lacuna: str
    parts: list
    trad: str = ""  # the 文渊阁 forms of its text (``:trad:``)


def split_inline(text: str) -> list[str | Gloss] | None:
    """The parts of escaped inline ``text`` in order: text runs (escapes resolved; never empty)
    and glosses; ``None`` unless ``text`` is exactly in the generated format (and not empty)."""
    if _SIMPLE.fullmatch(text):
        return [text]
    if not text or text[0] == " " or text[-1] == " " or "  " in text:
        return None
    pieces = _ROLE.split(text)  # text, role name, role content, text, …
    parts: list[str | Gloss] = []
    for i, piece in enumerate(pieces):
        if i % 3 == 1:
            continue
        if i % 3 == 2:
            parts.append(Gloss(piece, pieces[i - 1]))
        elif piece:
            if not _PIECE.fullmatch(piece):
                return None
            parts.append(_ESCAPE.sub(r"\1", piece) if "\\" in piece else piece)
    return parts


def split_body(lines: list[str]) -> list[Words | SegmentBlock] | None:
    """The blocks of a passage's (or title's) body lines; ``None`` unless exactly in the generated
    format."""
    blocks: list[Words | SegmentBlock] = []
    i, count = 0, len(lines)
    while i < count:
        line = lines[i]
        if not line:
            i += 1
            continue
        fence = _FENCE.fullmatch(line)
        if fence is not None:
            j = i + 1
            lacuna = _LACUNA.fullmatch(lines[j]) if j < count else None
            if lacuna is not None:
                j += 1
            trad = _TRAD.fullmatch(lines[j]) if j < count else None
            if trad is not None:
                j += 1
            if j + 1 >= count or lines[j + 1] != ":::":
                return None
            parts = split_inline(lines[j])
            if parts is None:
                return None
            blocks.append(SegmentBlock(i, fence[1], lacuna[1] if lacuna else "", parts, trad[1] if trad else ""))
            i = j + 2
        elif not blocks and (i + 1 == count or not lines[i + 1]):
            parts = split_inline(line)
            if parts is None:
                return None
            blocks.append(Words(i, parts))
            i += 1
        else:
            return None
    return blocks
