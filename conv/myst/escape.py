"""Escaping (转义) witness text for MyST, so that no seed can inject markup.

CommonMark lets a backslash escape any ASCII punctuation character; MyST keeps that rule for its
own syntax (roles, targets, directives, dollar math). Escaping every ASCII punctuation character
makes the text inert: no directive, role, HTML tag, link, emphasis, heading, list or math can
start inside it. Han text, the only text of a real witness, passes through unchanged.
"""
from __future__ import annotations

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
