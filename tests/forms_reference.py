"""The markup of a run of folding text before issue #18 point 5 (a span per folding character),
made from a page's runs (``<span class="yl-fs">``): the reference the browser tests compare the
three views against (what a reader saw before must be what a reader sees now)."""
from __future__ import annotations

import re
from html import escape, unescape

RUN = re.compile(r'<span class="yl-fs(?: yl-char-t)?" title="[^"]*"><span class="yl-w">([^<]*)</span>'
                 r'<span class="yl-n">([^<]*)</span>(?:<span class="yl-t" lang="zh-Hant">([^<]*)</span>)?</span>')


def per_character(witness: str, reading: str, trad: str) -> str:
    """The old HTML of a run: each folding character a ``yl-char`` span (its 文渊阁 form a
    ``yl-t`` in it where it differs), each stretch of plain characters whose 文渊阁 form differs a
    ``yl-s``/``yl-t`` pair, the rest plain text."""
    trad = trad or witness
    out: list[str] = []
    start = 0
    while start < len(witness):
        char, normal, form = witness[start], reading[start], trad[start]
        if char != normal:
            own = f'<span class="yl-t">{escape(form)}</span>' if form != char else ""
            classes = "yl-char yl-char-variant" + (" yl-char-t" if own else "")
            out.append(f'<span class="{classes}" title="{char} → {normal}"><span class="yl-w">{escape(char)}</span>'
                       f'<span class="yl-n">{escape(normal)}</span>{own}</span>')
            start += 1
            continue
        differs = form != char
        end = start + 1
        while end < len(witness) and witness[end] == reading[end] and (trad[end] != witness[end]) == differs:
            end += 1
        piece = escape(witness[start:end])
        out.append(f'<span class="yl-s">{piece}</span><span class="yl-t" lang="zh-Hant">{escape(trad[start:end])}</span>'
                   if differs else piece)
        start = end
    return "".join(out)


def per_character_page(html: str) -> str:
    """``html`` with every run written as before."""
    def old(found: re.Match) -> str:
        return per_character(*(unescape(group or "") for group in found.groups()))
    return RUN.sub(old, html)
