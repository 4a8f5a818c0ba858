"""Alignment (对齐): pairing the ledger's fingerprints with the conversion's, in reading order.

A patience diff (``align``): fingerprints unique on both sides anchor an in-order skeleton, the
gaps between are aligned the same way, and what is left is paired in order ("moved"). Anchoring
(``conv.anchors.assign``) uses it so that a passage keeps its anchor whatever is added or removed
around it.
"""
from __future__ import annotations

import bisect
from collections import Counter, defaultdict

from conv.chains import longest_chain

def align(old: list[str], new: list[str]) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """Pair equal keys of two sequences: ``(pairs old→new, the in-order pairs sorted)``.

    A patience diff: keys unique on both sides anchor an in-order skeleton (longest increasing
    run), the gaps between are aligned the same way, and a gap without unique keys is paired
    greedily in order. Keys left over on both sides are then paired in order ("moved").
    """
    pairs: dict[int, int] = {}
    stack = [(0, len(old), 0, len(new))]
    while stack:
        a0, a1, b0, b1 = stack.pop()
        if a0 >= a1 or b0 >= b1:
            continue
        count_a = Counter(old[a0:a1])
        count_b = Counter(new[b0:b1])
        where_b = {new[j]: j for j in range(b0, b1) if count_b[new[j]] == 1}
        unique = [(i, where_b[old[i]]) for i in range(a0, a1) if count_a[old[i]] == 1 and old[i] in where_b]
        if unique:
            previous = (a0 - 1, b0 - 1)
            for i, j in longest_chain(unique):
                pairs[i] = j
                stack.append((previous[0] + 1, i, previous[1] + 1, j))
                previous = (i, j)
            stack.append((previous[0] + 1, a1, previous[1] + 1, b1))
            continue
        positions: dict[str, list[int]] = defaultdict(list)
        for j in range(b0, b1):
            positions[new[j]].append(j)
        last = b0 - 1
        for i in range(a0, a1):
            found = positions.get(old[i])
            if not found:
                continue
            k = bisect.bisect_right(found, last)
            if k < len(found):
                pairs[i] = last = found[k]
    in_order = sorted(pairs.items())
    taken = set(pairs.values())
    left: dict[str, list[int]] = defaultdict(list)
    for j, key in enumerate(new):
        if j not in taken:
            left[key].append(j)
    for i, key in enumerate(old):
        if i not in pairs and left.get(key):
            pairs[i] = left[key].pop(0)
    return pairs, in_order
