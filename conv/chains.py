"""Increasing chains (递增链): the longest chain of pairs increasing in both coordinates.

Both alignments of the edition rest on it: the anchors' patience diff (``conv.anchors.align``)
and the collation's location of a seed in the witness (``conv.collate.locate``).
"""
from __future__ import annotations

import bisect


def longest_chain(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (sorted by their first coordinate, firsts distinct) whose
    second coordinates increase, in order (patience sorting, O(n log n))."""
    tails: list[int] = []  # the second coordinate ending the best chain of each length
    tail_pair: list[int] = []  # the index of that chain's last pair
    previous = [-1] * len(pairs)
    for number, (_, second) in enumerate(pairs):
        length = bisect.bisect_left(tails, second)
        if length == len(tails):
            tails.append(second)
            tail_pair.append(number)
        else:
            tails[length] = second
            tail_pair[length] = number
        previous[number] = tail_pair[length - 1] if length else -1
    chain = []
    number = tail_pair[-1] if tail_pair else -1
    while number >= 0:
        chain.append(pairs[number])
        number = previous[number]
    return chain[::-1]
