"""Locating a seed in the witness (定位): the stretch of the witness the seed is an excerpt of.

The witness given may be a whole 卷 or a whole work, far longer than the seed: in a long one, a
sample of the seed's k-grams first says where to look (``_window``). Anchors are
k-grams of the coded texts (``fold.Coder``) that occur once in the seed and once in the witness;
the longest chain of anchors in the same order in both (a longest increasing subsequence) is the
seed's path through the witness. Isolated anchors at either end of the chain (a phrase repeated
elsewhere in the work) are dropped; the stretch runs from the first anchor to the last, widened
by the seed's unanchored head and tail and a margin, for the global alignment to settle.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from conv.chains import longest_chain

K = 8  # anchor length: long enough that a chance repetition is rare in these texts
MARGIN = 64  # witness characters added at either end of the stretch beyond the seed's reach
JUMP = 400  # a change of diagonal larger than this between neighbouring anchors starts a new run
MIN_RUN = 3  # anchors a run at either end of the chain must have to be kept
SAMPLE = 64  # k-grams of the seed looked up in a long witness to find where to look closer
WINDOW = 3  # a long witness is searched over this many seed lengths around the sample's diagonal

@dataclass
class Located:
    """The witness stretch ``[start, end)`` (witness character indices) found for a seed;
    ``anchors`` is the chain of (seed index, witness index) pairs it rests on."""

    start: int
    end: int
    anchors: list[tuple[int, int]]

def _unique_grams(text: str, k: int, wanted: set[str] | None = None) -> dict[str, int]:
    grams = [text[i:i + k] for i in range(len(text) - k + 1)]
    if wanted is not None:
        grams_counted = Counter(gram for gram in grams if gram in wanted)
    else:
        grams_counted = Counter(grams)
    return {gram: index for index, gram in enumerate(grams) if grams_counted.get(gram) == 1}

def _trim(chain: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop short runs of anchors at either end of the chain (chance repetitions)."""
    runs: list[list[tuple[int, int]]] = []
    for pair in chain:
        if runs and abs((pair[1] - pair[0]) - (runs[-1][-1][1] - runs[-1][-1][0])) <= JUMP:
            runs[-1].append(pair)
        else:
            runs.append([pair])
    while len(runs) > 1 and len(runs[0]) < MIN_RUN:
        runs.pop(0)
    while len(runs) > 1 and len(runs[-1]) < MIN_RUN:
        runs.pop()
    return [pair for run in runs for pair in run]

def _window(seed_codes: str, witness_codes: str, k: int) -> tuple[int, int]:
    """Where in a long witness (a whole work) to look for the anchors: around the diagonal of most
    of a sample of the seed's k-grams that occur once in the witness (``str.find``), wide enough
    for any stretch the aligner would accept; the whole witness when it is short or the sample
    finds nothing."""
    size = len(seed_codes)
    if len(witness_codes) <= WINDOW * size + 4 * MARGIN:
        return 0, len(witness_codes)
    diagonals = []
    for index in range(0, size - k + 1, max(1, (size - k) // SAMPLE)):
        gram = seed_codes[index:index + k]
        found = witness_codes.find(gram)
        if found >= 0 and witness_codes.find(gram, found + 1) < 0:
            diagonals.append(found - index)
    if len(diagonals) < MIN_RUN:
        return 0, len(witness_codes)
    centre = sorted(diagonals)[len(diagonals) // 2]
    return max(0, centre - size // 2 - MARGIN), min(len(witness_codes), centre + (WINDOW - 1) * size + MARGIN)

def locate(seed_codes: str, witness_codes: str, k: int = K) -> Located | None:
    """The stretch of the witness the seed covers, or None when no chain of anchors is found."""
    low, high = _window(seed_codes, witness_codes, k)
    seed_grams = _unique_grams(seed_codes, k)
    witness_grams = _unique_grams(witness_codes[low:high], k, wanted=set(seed_grams))
    pairs = sorted((seed_grams[gram], low + index) for gram, index in witness_grams.items() if gram in seed_grams)
    chain = _trim(longest_chain(pairs))
    if len(chain) < MIN_RUN:
        return None
    (first_seed, first_witness), (last_seed, last_witness) = chain[0], chain[-1]
    head = first_seed  # seed characters before the first anchor
    tail = len(seed_codes) - (last_seed + k)
    start = max(0, first_witness - head - head // 4 - MARGIN)
    end = min(len(witness_codes), last_witness + k + tail + tail // 4 + MARGIN)
    return Located(start, end, chain)
