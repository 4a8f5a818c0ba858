"""Overlapping seeds (重复节录): two seeds of one work that share a long stretch of text.

The same excerpt given twice (under another name, or with a few characters changed) would double
every passage it holds. Each seed's text is folded (``conv.normalize.fold_same_length``: 賔 and 宾
alike) and stripped of whitespace and the markup 【】○; a stretch of ``MIN_SHARED`` characters or
more that two seeds of the same work both hold is found exactly, with shingles: the ``WINDOW``
characters at every ``STEP``-th position of the first seed are kept in a set, and every window of
the second is looked up in it (any shared stretch of at least ``WINDOW + STEP - 1`` characters
holds one of the kept windows). Seeds that the manifest declares as copies (``copy_of``, the
benchmark corpus) are left out.
"""
from __future__ import annotations

import re
from itertools import combinations

from conv.normalize import fold_same_length
from conv.reader.source import Source

WINDOW = 40
STEP = 10
#: The shortest shared stretch that is always found (longer than any formula the 仪礼 repeats).
MIN_SHARED = WINDOW + STEP - 1
_SKIP = re.compile(r"[\s【】○]+")


def _stripped(source: Source) -> tuple[str, list[int]]:
    """The folded text without whitespace and markup, and the offset of each of its characters."""
    folded = fold_same_length(source.text)
    keep = [(m.start(), m.end()) for m in re.finditer(r"[^\s【】○]+", folded)]
    offsets = [i for a, b in keep for i in range(a, b)]
    return "".join(folded[a:b] for a, b in keep), offsets


def check(seeds: list[tuple[Source, str, bool]]) -> None:
    """``seeds``: (source, work id, exempt) in conversion order. Two seeds of one work sharing a
    stretch of ``MIN_SHARED`` characters or more are refused: a ``conv.errors.ConversionError`` at the stretch
    in the later seed, naming the earlier one."""
    texts = {}
    for (a, work_a, exempt_a), (b, work_b, exempt_b) in combinations(seeds, 2):
        if work_a != work_b or exempt_a or exempt_b:
            continue
        for source in (a, b):
            if source.name not in texts:
                texts[source.name] = _stripped(source)
        shared = _shared(texts[a.name][0], texts[b.name][0])
        if shared is not None:
            start_b, start_a, length = shared
            offset_b, offset_a = texts[b.name][1][start_b], texts[a.name][1][start_a]
            line, col = a.position(offset_a)
            raise b.error(offset_b, f"this seed shares a stretch of {length} characters with {a.name} (from its line {line}, "
                                    f"column {col}): the same text given twice would double its passages",
                          "convert each stretch of the witness from one seed only: remove the duplicate seed "
                          "or cut the shared text from one of them")


def _shared(first: str, second: str) -> tuple[int, int, int] | None:
    """(start in ``second``, start in ``first``, length) of a stretch of at least ``MIN_SHARED``
    characters both hold, or None."""
    kept = {}
    for start in range(0, len(first) - WINDOW + 1, STEP):
        kept.setdefault(first[start : start + WINDOW], start)
    for start in range(0, len(second) - WINDOW + 1):
        at = kept.get(second[start : start + WINDOW])
        if at is None:
            continue
        back = 0  # widen the match to its whole length
        while start - back > 0 and at - back > 0 and second[start - back - 1] == first[at - back - 1]:
            back += 1
        length = WINDOW + back
        while start - back + length < len(second) and at - back + length < len(first) \
                and second[start - back + length] == first[at - back + length]:
            length += 1
        if length >= MIN_SHARED:
            return start - back, at - back, length
    return None

