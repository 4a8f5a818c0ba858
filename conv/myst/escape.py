"""Escaping (转义) witness text for MyST, so that no seed can inject markup.

CommonMark lets a backslash escape any ASCII punctuation character; MyST keeps that rule for its
own syntax (roles, targets, directives, dollar math). Escaping every ASCII punctuation character
makes the text inert: no directive, role, HTML tag, link, emphasis, heading, list or math can
start inside it. Han text, the only text of a real witness, passes through unchanged.
"""
from __future__ import annotations

import json
import re
import string

def escape_inline(text: str) -> str:
    """Escape ``text`` for a MyST inline context; whitespace runs become single spaces.

    A newline inside witness text is never meaningful (whitespace is markup in the seeds), and a
    leading space could turn a line into a code block, so runs of whitespace collapse to one space
    and the result is stripped.
    """
    return _PUNCT.sub(r"\\\1", " ".join(text.split()))


_PUNCT = re.compile("([" + re.escape(string.punctuation) + "])")


_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def header_value(name: str) -> str:
    """A seed's file name as written in a page's header or in a ``:source:`` option (种子文件名):
    a name of the safe set (``conv.reader.manifest.SEED_NAME``; the converter refuses any other) as
    it is, anything else as a JSON string, so that no line break, ``<`` or ``:`` can leave the
    field it stands in."""
    return name if _SAFE_NAME.fullmatch(name) else json.dumps(name)


def locus(seed: str, line: int, col: int) -> str:
    """``seed:line:col`` of a ``:source:`` option, the seed's name made safe by ``header_value``."""
    return f"{header_value(seed)}:{line}:{col}"
