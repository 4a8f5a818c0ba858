"""The conservation check of a mandoku file read (守恒核查): every text character of the file once, in
order, in the line runs and in the units of :mod:`conv.reader.mandoku`, else a ConservationError at
the first character lost, doubled or changed."""
from __future__ import annotations

import re
from itertools import chain

from conv.errors import ConservationError
from conv.unencoded import composed_char, gaiji_char

_CHECK = re.compile(r"(<pb:[^>]*>)|(&KR\d{4};|\[[^\]]*\])|([^\s¶()/<&\[]+)")


def check_conservation(m) -> None:
    """Every text character of ``m`` (a ``conv.reader.mandoku.MandokuText``) once, in order, in the line
    runs and in the units: else ConservationError."""
    body = next((p.start for p in m.physical if p.kind != "header"), len(m.text))
    want_offsets: list[int] = []
    want_chars: list[str] = []
    for tok in _CHECK.finditer(m.text, body):
        if tok.group(2):
            want_offsets.append(tok.start())
            g = tok.group(2)
            want_chars.append(gaiji_char(g) if g[0] == "&" else composed_char(g))
        elif tok.group(3):
            want_offsets.extend(range(tok.start(), tok.end()))
            want_chars.append(tok.group(3))
    want = "".join(want_chars)
    for label, runs in (("line runs", m.runs), ("units", list(m.units()))):
        offsets = list(chain.from_iterable(r.offsets for r in runs))
        got = "".join(r.text for r in runs)
        if offsets == want_offsets and got == want and all(len(r.text) == len(r.offsets) for r in runs):
            continue
        n = min(len(offsets), len(want_offsets))
        i = next((k for k, (x, y) in enumerate(zip(offsets, want_offsets)) if x != y), n)
        if i < len(want_offsets) and (i >= len(offsets) or want_offsets[i] not in set(offsets)):
            off, what = want_offsets[i], "lost"
        elif i < len(offsets):
            off, what = offsets[i], "doubled or out of order"
        else:
            j = next((k for k, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want)))
            off, what = (want_offsets + [len(m.text)])[min(j, len(want_offsets))], "changed"
        line, col = m.position(off)
        raise ConservationError(m.name, line, col, f"text character {what} in the {label}",
                                "a bug of conv.reader.mandoku, not of the witness")
