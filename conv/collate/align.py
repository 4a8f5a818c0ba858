"""Alignment (对齐): a seed against the witness, character by character.

``align(seed, witness)`` codes both sides (``fold.Coder``: the two-direction folding), locates
the seed's stretch in the witness (``locate``), finds the ends of the stretch (semi-global: the
witness text before and after the seed is no difference), aligns the seed globally with the
stretch (rapidfuzz's Levenshtein opcodes, bit-parallel), checks every aligned pair with the
two-direction relation and hands every edit to ``classify``.

Where a gap stands (缺文定位). An addition or omission inside a repeat (the seed prints 扬 twice
where the 文渊阁 copy has 南揚弓; it lacks a clause that ends as the clause before it ends) could
stand at several places, and rapidfuzz picks one by the way it walks its table: a character
changed a dozen places away moved such an entry. ``gaps`` gives it one place: as far left as its
text allows, then as far *right* (``room``; never onto the next edit, which would join them).
The right end is the place a 校勘记 names: 「某下，文渊阁本有某字」 names the word *after which*
text is added or lost, and the repeated word is that word: 扬下重扬字 (the seed's second 扬 is
the one too many); for text lost between two occurrences of a word (the copyist's eye skipping
from one to the other), 「某下，文渊阁本有……某」: the lost text closes with the word that
repeats, as a clause closes with its 也 (…私面私覿也, not 也文其面…私覿, the rule of the parallel
passages' entries, ``conv.edition.parallels``). The leftmost place would make such entries read
turned. The same characters stay equal, added or left out; only the place is fixed.

Characters that are markup on either side (【】, ○, U+3000, ¶, whitespace) are not compared, whoever
left them in a side; they map to None.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel, Levenshtein

from conv import normalize

from . import classify, fold, gaps
from .locate import K, Located, locate
from .records import Collation, Difference, Side, Span

MARKUP = re.compile(r"[\s【】○¶\u3000]")
MAX_DISTANCE = 0.25  # edits / length of the longer of the seed and its stretch: above it, no alignment
GAP_JOIN = 2  # equal characters between two edits, one of them a long gap, that are one difference
LONG = 12  # an edit of at least this many characters is a gap that absorbs what is near it


@dataclass
class _Text:
    """The compared characters of one or more sides: ``chars``; for each, its index among all the
    sides' characters (``index``); ``starts[n]`` is the first such index of side ``n``."""

    sides: list[Side]
    chars: str
    index: list[int]
    starts: list[int]

    @classmethod
    def of(cls, sides: Sequence[Side]) -> _Text:
        pieces, index, starts, total = [], [], [], 0
        for side in sides:
            starts.append(total)
            if MARKUP.search(side.chars):
                kept = [number for number, char in enumerate(side.chars) if not MARKUP.match(char)]
                pieces.append("".join(side.chars[number] for number in kept))
                index.extend(total + number for number in kept)
            else:
                pieces.append(side.chars)
                index.extend(range(total, total + len(side.chars)))
            total += len(side.chars)
        return cls(list(sides), "".join(pieces), index, starts)

    def side_of(self, whole: int) -> tuple[Side, int]:
        """The side and the index in it of character ``whole`` of all the sides."""
        number = bisect_right(self.starts, whole) - 1
        return self.sides[number], whole - self.starts[number]

    def whole(self, start: int, end: int, limit: int) -> tuple[int, int]:
        """Compared characters [start, end) as indices of all the sides' characters; an empty range
        stands just before the next compared character, or after the last one before ``limit``."""
        if end > start:
            return self.index[start], self.index[end - 1] + 1
        at = self.index[start] if start < limit else (self.index[start - 1] + 1 if start else 0)
        return at, at

    def span(self, start: int, end: int, limit: int) -> Span:
        """Compared characters [start, end) (within one side) as a (file, start, end) span."""
        first, last = self.whole(start, end, limit)
        if last > first:
            side, index = self.side_of(first)
            _side, last_index = self.side_of(last - 1)
            return side.name, side.offsets[index], side.end(last_index)
        if end < limit or not start:
            side, index = self.side_of(first)
            return side.name, side.offsets[index], side.offsets[index]
        side, index = self.side_of(first - 1)
        return side.name, side.end(index), side.end(index)

    def by_side(self, start: int, end: int) -> list[tuple[int, int]]:
        """``[start, end)`` cut where it passes from one side (one witness file) to the next."""
        pieces, piece_start = [], start
        for number in range(start + 1, end):
            if bisect_right(self.starts, self.index[number]) != bisect_right(self.starts, self.index[number - 1]):
                pieces.append((piece_start, number))
                piece_start = number
        pieces.append((piece_start, end))
        return pieces


def align(seed: Side, witness: Side | Sequence[Side]) -> Collation:
    """Collate ``seed`` with the witness: one side, or the witness's files in reading order (then
    witness indices count the characters of all of them, in order)."""
    sides = [witness] if isinstance(witness, Side) else list(witness)
    seed_text, witness_text = _Text.of([seed]), _Text.of(sides)
    result = Collation(seed=seed, witness=sides, aligned=False, mapping=[None] * len(seed.chars))
    if not seed_text.chars or not witness_text.chars:
        result.reason = "no alignment: a side has no text characters"
        return result
    coder = fold.Coder(seed_text.chars, witness_text.chars)
    seed_codes, witness_codes = coder.encode(seed_text.chars), coder.encode(witness_text.chars)
    located = locate(seed_codes, witness_codes)
    if located is None:
        result.reason = "no alignment: no run of shared k-grams anywhere in the witness"
        return result
    (first_seed, first_witness), (last_seed, last_witness) = located.anchors[0], located.anchors[-1]
    spread = _difference(last_seed - first_seed, last_witness - first_witness)
    if spread > MAX_DISTANCE:  # a lower bound of the distance
        result.reason = (f"no alignment: the shared k-grams are scattered (the stretch they span differs "
                         f"in length from the seed's by {spread:.0%}, limit {MAX_DISTANCE:.0%})")
        return result
    start, end = _ends(seed_codes, witness_codes, located)
    opcodes = [tuple(op) for op in Levenshtein.opcodes(
        seed_codes, witness_codes[start:end], score_hint=max(64, len(seed_codes) // 50))]
    edits = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in opcodes if tag != "equal")
    result.distance = edits / max(len(seed_codes), end - start)
    result.witness_range = witness_text.whole(start, end, end)
    result.stretch = [witness_text.span(a, b, end) for a, b in witness_text.by_side(start, end) if b > a]
    if result.distance > MAX_DISTANCE:
        result.reason = (f"no alignment: the best stretch of the witness differs in {result.distance:.0%} "
                         f"of its characters (limit {MAX_DISTANCE:.0%})")
        return result
    result.aligned = True
    placed = _placed(opcodes, seed_codes, witness_codes[start:end],
                     lambda i, j: fold.relation(seed_text.chars[i], witness_text.chars[j + start]) is not None)
    _Walk(result, seed_text, witness_text, end).run(
        [(tag, i1, i2, j1 + start, j2 + start) for tag, i1, i2, j1, j2 in _merge(placed)])
    return result


def _placed(opcodes: list[tuple], seed_codes: str, witness_codes: str, same) -> list[tuple]:
    """Every addition and omission at its one place (``gaps``): as far left as its text allows,
    then as far right, over aligned pairs ``same`` accepts, but never onto the next edit (which
    ``_merge`` would join to it)."""
    ops = gaps.left_aligned(opcodes, seed_codes, witness_codes)
    moves = gaps.room(ops, seed_codes, witness_codes, same)
    for n, count in moves.items():
        if n + 2 < len(ops) and count == ops[n + 1][2] - ops[n + 1][1]:
            moves[n] = count - 1
    return gaps.moved(ops, moves)


def _difference(a: int, b: int) -> float:
    return abs(a - b) / max(a, b, 1)


def _ends(seed_codes: str, witness_codes: str, located: Located) -> tuple[int, int]:
    """Where the seed's first and last characters stand in the witness (semi-global ends).

    The start is where the seed's head (before the chain's first anchor) aligns with the witness
    up to that anchor at least insertion-deletion cost: a replacement costs two, so the stretch
    takes in witness text only where most of it matches, and a line the witness lacks here (the
    e-text's title, a website watermark) is an addition of the seed, not a replacement of witness
    text. The end likewise."""
    (first_seed, first_witness), (last_seed, last_witness) = located.anchors[0], located.anchors[-1]
    head, tail = seed_codes[:first_seed], seed_codes[last_seed + K:]
    before = _best_length(head, lambda length: witness_codes[first_witness - length:first_witness],
                          first_witness - located.start)
    after = _best_length(tail, lambda length: witness_codes[last_witness + K:last_witness + K + length],
                         located.end - (last_witness + K))
    return first_witness - before, last_witness + K + after


def _best_length(part: str, piece, most: int) -> int:
    """The length of witness text (``piece(length)``, at most ``most``) that ``part`` aligns with
    at least insertion-deletion cost; the shortest on a tie (0: the witness has none of it).

    The cost changes by at most one from one length to the next, so a long part is first tried
    at every ``len(part) // 64``-th length, then at every length around the best of those."""
    size = len(part)
    if not part or most <= 0:
        return 0
    step = max(1, size // 64)
    centre, low, high = size, 1, most
    if step > 1:
        centre = min(range(step, most + 1, step), default=size,
                     key=lambda length: (Indel.distance(part, piece(length)), length))
        low, high = max(1, centre - step), min(most, centre + step)
    best, best_length = size, 0
    for length in sorted(range(low, high + 1), key=lambda length: (abs(length - centre), length)):
        if abs(length - size) >= best:  # the difference of lengths alone costs that much
            continue
        cost = Indel.distance(part, piece(length), score_cutoff=best)
        if cost < best or (cost == best and length < best_length):
            best, best_length = cost, length
    return best_length


def _merge(opcodes: list[tuple]) -> list[tuple]:
    """Join neighbouring edits into one (a word replaced by a word of another length), and a long
    gap with edits separated from it by at most ``GAP_JOIN`` equal characters (a gap the aligner
    broke where a common character of the gap happened to match)."""
    edits: list[list] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if edits and tag != "equal" and edits[-1][0] != "equal":
            edits[-1][2], edits[-1][4] = i2, j2
        else:
            edits.append(["equal" if tag == "equal" else "edit", i1, i2, j1, j2])
    joined: list[list] = []
    for number, op in enumerate(edits):
        absorbed = (op[0] == "equal" and joined and number + 1 < len(edits) and op[2] - op[1] <= GAP_JOIN
                    and max(_size(joined[-1]), _size(edits[number + 1])) >= LONG)
        if absorbed or (op[0] == "edit" and joined and joined[-1][0] == "edit"):
            joined[-1][2], joined[-1][4] = op[2], op[4]
        else:
            joined.append(list(op))
    return [tuple(op) for op in joined]


def _size(op: list) -> int:
    return 0 if op[0] == "equal" else max(op[2] - op[1], op[4] - op[3])


class _Walk:
    """Going through the merged opcodes: the mapping, the coverage and the differences."""

    def __init__(self, result: Collation, seed_text: _Text, witness_text: _Text, end: int) -> None:
        self.result, self.seed_text, self.witness_text, self.end = result, seed_text, witness_text, end
        self.covered = 0

    def run(self, opcodes: list[tuple]) -> None:
        seed_chars, witness_chars = self.seed_text.chars, self.witness_text.chars
        for tag, i1, i2, j1, j2 in opcodes:
            for i, j in zip(range(i1, i2), range(j1, j2)):
                self.result.mapping[self.seed_text.index[i]] = self.witness_text.index[j]
            if tag != "equal":
                self.add(i1, i2, j1, j2)
                continue
            for i, j in zip(range(i1, i2), range(j1, j2)):
                found = fold.relation(seed_chars[i], witness_chars[j])
                if found is None:  # coded alike by way of a third character: not the same after all
                    self.add(i, i + 1, j, j + 1)
                    continue
                self.covered += 1
                if normalize.is_pua(seed_chars[i]):
                    self.add(i, i + 1, j, j + 1)
                elif found == fold.ORTHOGRAPHIC:
                    self.add(i, i + 1, j, j + 1, kind="orthographic")
        self.result.coverage = self.covered / len(seed_chars)
        self.result.differences.sort(key=lambda difference: (difference.seed_index, difference.witness_index))

    def add(self, i1: int, i2: int, j1: int, j2: int, kind: str | None = None) -> None:
        """Record the difference of compared seed characters [i1, i2) and witness [j1, j2),
        classified, and cut where the witness passes from one file to the next."""
        seed_text, witness_text = self.seed_text, self.witness_text
        if kind:
            pieces = [(kind, i1, i2, j1, j2, "", False)]
        else:
            pieces = classify.classify(seed_text.chars[i1:i2], witness_text.chars[j1:j2], i1, j1)
        for piece_kind, a1, a2, b1, b2, note, confirmed in pieces:
            for b_start, b_end in witness_text.by_side(b1, b2):
                a_start, a_end = (a1, a2) if b_start == b1 else (a2, a2)
                op = "replace" if a_end > a_start and b_end > b_start else "delete" if a_end > a_start else "insert"
                self.result.differences.append(Difference(
                    kind=piece_kind, op=op,
                    seed_text=seed_text.chars[a_start:a_end], witness_text=witness_text.chars[b_start:b_end],
                    seed_span=seed_text.span(a_start, a_end, len(seed_text.chars)),
                    witness_span=witness_text.span(b_start, b_end, self.end),
                    seed_index=seed_text.whole(a_start, a_end, len(seed_text.chars)),
                    witness_index=witness_text.whole(b_start, b_end, self.end),
                    note=note, confirmed=confirmed,
                ))
