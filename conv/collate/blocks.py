"""Blocks of two texts (互见对齐): where the same text stands in two works cut and ordered differently.

``align`` collates a seed with one stretch of the witness: one order, one stretch. Two works that
both give the 经 (张尔岐's 句读 and 朱熹's 通解) order it differently: 朱熹 moves 记 items next to
the 经 they explain and adds 传 from other books. ``blocks(a, b)`` finds the stretches the two
texts share, in any order:

1. both texts are coded with the collation's two-direction folding (``fold.Coder``), so script
   and form differences never break a match;
2. anchors are the k-grams that occur once in each text; anchors on one diagonal that follow
   each other form a *run*;
3. runs that follow each other in both texts, with at most ``GAP`` characters between them on
   either side and no other run's text in between, form a *block*; a block's edges are widened
   over equal characters;
4. the heaviest chain of blocks in the same order in both texts is the main order; every block
   outside it is *transposed* (moved), recorded once, never as text differences; neighbours in
   the main order with little between them are joined (``JOIN``);
5. inside a block the texts are aligned globally (rapidfuzz's Levenshtein opcodes, each addition
   and omission then put at the leftmost place its text allows: ``gaps``): its edits, and the
   aligned characters the folding does not relate after all, are the differences.

``shared(a, b)`` gives every common stretch of at least ``MIN_SHARED`` characters, repeated or
not: the parallels of one work with itself (参见: 乡饮酒礼 记 and 乡射礼 记, 燕礼 and 大射仪).

Indices are character indices of the two strings; the caller maps them to passages and spans.
"""
from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz.distance import Indel, Levenshtein

from . import fold, gaps

K = 8  # anchor length, as ``locate``
GAP = 24  # characters between two runs (on either side) that still make one block
JOIN = 48  # characters between two blocks of the main order (on either side) that are compared
MIN_SHARED = 8  # the shortest common stretch ``shared`` reports (the threshold)
REPLACED = 2  # a replacement of at most this many characters aligns them (a variant reading)
SIMILAR = 0.5  # ``pair``: two short texts at least this similar are aligned as wholes


@dataclass
class Block:
    """A stretch ``a[a_start:a_end]`` standing for ``b[b_start:b_end]``; ``pairs`` the aligned
    characters ``(i, j)`` (equal after folding, or replaced one or two for one or two: a variant
    reading; a longer replacement is other words, aligned with nothing), ``edits`` the differences
    ``(i1, i2, j1, j2)`` (an empty range on the side that lacks the text)."""

    a_start: int
    a_end: int
    b_start: int
    b_end: int
    transposed: bool = False
    pairs: list[tuple[int, int]] = field(default_factory=list)
    same: set[int] = field(default_factory=set)  # the ``a`` indices of pairs equal after folding
    edits: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: an addition or omission among ``edits`` that could stand further right saying the same: how far
    room: dict[tuple[int, int, int, int], int] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return self.a_end - self.a_start


def _codes(a: str, b: str) -> tuple[str, str]:
    coder = fold.Coder(a, b)
    return coder.encode(a), coder.encode(b)


def _unique(text: str, k: int) -> dict[str, int]:
    grams = [text[i:i + k] for i in range(len(text) - k + 1)]
    counts = Counter(grams)
    return {gram: index for index, gram in enumerate(grams) if counts[gram] == 1}


def _runs(a: str, b: str, k: int) -> list[list[int]]:
    """Runs of anchors on one diagonal: ``[a_start, a_end, b_start, b_end]`` each."""
    in_b = _unique(b, k)
    pairs = sorted((i, in_b[gram]) for gram, i in _unique(a, k).items() if gram in in_b)
    runs: list[list[int]] = []
    for i, j in pairs:
        last = runs[-1] if runs else None
        if last and j - i == last[2] - last[0] and i <= last[1]:
            last[1], last[3] = i + k, j + k
        else:
            runs.append([i, i + k, j, j + k])
    return runs


def _chain(blocks: list[Block]) -> set[int]:
    """The blocks (indices, sorted by ``a_start``) of the heaviest chain increasing in ``b``."""
    best: list[int] = []
    back: list[int] = []
    for n, block in enumerate(blocks):
        score, previous = block.size, -1
        for m in range(n):
            if blocks[m].b_end <= block.b_start and best[m] + block.size > score:
                score, previous = best[m] + block.size, m
        best.append(score)
        back.append(previous)
    chosen: set[int] = set()
    n = max(range(len(blocks)), key=best.__getitem__, default=-1)
    while n >= 0:
        chosen.add(n)
        n = back[n]
    return chosen


def _merge(runs: list[list[int]], gap: int) -> list[list[int]]:
    """Runs that follow each other in both texts, close, with no other run between, → blocks."""
    starts_b = sorted(run[2] for run in runs)
    merged: list[list[int]] = []
    for run in runs:
        last = merged[-1] if merged else None
        if (last and run[0] >= last[1] - K and run[2] >= last[3] - K
                and run[0] - last[1] <= gap and run[2] - last[3] <= gap
                and not _between(starts_b, last[3], run[2])):
            last[1], last[3] = max(last[1], run[1]), max(last[3], run[3])
            continue
        if last and run[0] < last[1]:  # overlaps the last block in ``a`` only: keep the rest
            cut = last[1] - run[0]
            run = [run[0] + cut, run[1], run[2] + cut, run[3]]
            if run[0] >= run[1]:
                continue
        merged.append(list(run))
    return merged


def _between(sorted_starts: list[int], low: int, high: int) -> bool:
    index = bisect.bisect_left(sorted_starts, low)
    return index < len(sorted_starts) and sorted_starts[index] < high


def _widen(block: Block, a: str, b: str, low: tuple[int, int], high: tuple[int, int]) -> None:
    """Widen a block over equal codes, not into the neighbouring blocks (``low``/``high``)."""
    while block.a_start > low[0] and block.b_start > low[1] and a[block.a_start - 1] == b[block.b_start - 1]:
        block.a_start -= 1
        block.b_start -= 1
    while block.a_end < high[0] and block.b_end < high[1] and a[block.a_end] == b[block.b_end]:
        block.a_end += 1
        block.b_end += 1


def _fill(block: Block, a_chars: str, b_chars: str, a: str, b: str) -> None:
    """The aligned pairs and the differences inside a block."""
    offset_a, offset_b = block.a_start, block.b_start
    a_part, b_part = a[block.a_start:block.a_end], b[block.b_start:block.b_end]
    ops = gaps.left_aligned(Levenshtein.opcodes(a_part, b_part), a_part, b_part)
    moves = gaps.room(ops, a_chars[block.a_start:block.a_end], b_chars[block.b_start:block.b_end],
                      lambda i, j: fold.relation(a_chars[i + offset_a], b_chars[j + offset_b]) is not None)
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        i1, i2, j1, j2 = i1 + offset_a, i2 + offset_a, j1 + offset_b, j2 + offset_b
        if tag != "equal":
            if block.edits and block.edits[-1][1] == i1 and block.edits[-1][3] == j1:  # one edit
                block.edits[-1] = (block.edits[-1][0], i2, block.edits[-1][2], j2)
            else:
                block.edits.append((i1, i2, j1, j2))
                if n in moves:
                    block.room[block.edits[-1]] = moves[n]
        if tag == "replace" and max(i2 - i1, j2 - j1) > REPLACED:
            continue  # other words, not a reading of the same ones: not aligned
        for i, j in zip(range(i1, i2), range(j1, j2)):
            block.pairs.append((i, j))
            if tag == "equal" and fold.relation(a_chars[i], b_chars[j]) is None:
                block.edits.append((i, i + 1, j, j + 1))  # coded alike through a third character
            elif tag == "equal":
                block.same.add(i)


def blocks(a_chars: str, b_chars: str, k: int = K, gap: int = GAP) -> list[Block]:
    """The blocks ``a_chars`` and ``b_chars`` share (see the module docstring), sorted by their
    place in ``a_chars``; those outside the main order are ``transposed``."""
    a, b = _codes(a_chars, b_chars)
    found = [Block(*run) for run in _merge(_runs(a, b, k), gap)]
    found.sort(key=lambda block: block.a_start)
    for n, block in enumerate(found):
        low_a = found[n - 1].a_end if n else 0
        high_a = found[n + 1].a_start if n + 1 < len(found) else len(a)
        others_b = sorted((other.b_start, other.b_end) for other in found if other is not block)
        low_b = max((end for start, end in others_b if end <= block.b_start), default=0)
        high_b = min((start for start, end in others_b if start >= block.b_end), default=len(b))
        _widen(block, a, b, (low_a, low_b), (high_a, high_b))
    main = _chain(found)
    for n, block in enumerate(found):
        block.transposed = n not in main
    found = _join(found)
    for block in found:
        _fill(block, a_chars, b_chars, a, b)
    return found


def _join(found: list[Block]) -> list[Block]:
    """Neighbours of the main order with at most ``JOIN`` characters between them on either side,
    and no moved block there, become one block: what lies between is compared, not left out (a
    changed character in a formula repeated too often to hold an anchor)."""
    moved = [block for block in found if block.transposed]
    out: list[Block] = []
    for block in found:
        last = next((b for b in reversed(out) if not b.transposed), None) if not block.transposed else None
        if (last is not None and 0 <= block.a_start - last.a_end <= JOIN and 0 <= block.b_start - last.b_end <= JOIN
                and not any(last.a_end <= m.a_start < block.a_start or last.b_end <= m.b_start < block.b_start
                            for m in moved)):
            last.a_end, last.b_end = block.a_end, block.b_end
            continue
        out.append(block)
    return out


def pair(a_chars: str, b_chars: str) -> list[Block]:
    """Two short texts that should say the same (a passage's 郑注 in both works): one block over
    both when they are similar enough after folding, else ``blocks`` (no transpositions). Computed
    in one order of the two texts whichever is given first (an alignment may tie: 子之飾 and 童子緇
    differ by an addition and an omission or by one replacement), so that swapping them swaps the
    result."""
    if not a_chars or not b_chars:
        return []
    if b_chars < a_chars:
        return sorted((_mirrored(block) for block in _pair(b_chars, a_chars)), key=lambda block: block.a_start)
    return _pair(a_chars, b_chars)


def _mirrored(block: Block) -> Block:
    """``block`` with its two texts swapped."""
    by_a = dict(block.pairs)
    return Block(block.b_start, block.b_end, block.a_start, block.a_end, block.transposed,
                 pairs=[(j, i) for i, j in block.pairs], same={by_a[i] for i in block.same},
                 edits=[(j1, j2, i1, i2) for i1, i2, j1, j2 in block.edits],
                 room={(j1, j2, i1, i2): n for (i1, i2, j1, j2), n in block.room.items()})


def _pair(a_chars: str, b_chars: str) -> list[Block]:
    a, b = _codes(a_chars, b_chars)
    if Indel.normalized_similarity(a, b) >= SIMILAR:
        block = Block(0, len(a), 0, len(b))
        _fill(block, a_chars, b_chars, a, b)
        return [block]
    found = blocks(a_chars, b_chars)
    for block in found:
        block.transposed = False
    return found


def shared(a_chars: str, b_chars: str, least: int = MIN_SHARED) -> list[tuple[int, int, int]]:
    """Every maximal common stretch of at least ``least`` characters after folding, repeated
    or not: ``(a_start, b_start, length)``."""
    a, b = _codes(a_chars, b_chars)
    where: dict[str, list[int]] = {}
    for j in range(len(b) - least + 1):
        where.setdefault(b[j:j + least], []).append(j)
    found = []
    for i in range(len(a) - least + 1):
        for j in where.get(a[i:i + least], ()):
            if i and j and a[i - 1] == b[j - 1]:
                continue  # not the start of a maximal stretch
            length = least
            while i + length < len(a) and j + length < len(b) and a[i + length] == b[j + length]:
                length += 1
            found.append((i, j, length))
    return found
