"""Where the seeds' collation puts an addition or omission inside a repeat (缺文定位, #18).

On real text of seed 000 against its 文渊阁 卷 (KR1d0038_005): a stretch of the seed is changed
so that the seed has a word twice that the witness has once, lacks one of a word the witness
has twice, or has a copy of a nearby word next to the same word. Such a gap could stand at
several places; every alignment of least cost is checked first (by a dynamic programme here, not
by the aligner) to be one gap of that text, at one of those places. The collation must then report
exactly one difference, at the **rightmost** of the places (the place a 校勘记 names: after the
repeated word, 「拜下重拜字」; ``conv.collate.align``), with the seed's and the witness's texts
exact; and a character changed outside a window around it must not move it.
"""
from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conv.collate import fold
from conv.collate.align import LONG, _merge, _placed, align
from conv.collate.records import Side
from collate_sides import J5, clean_base, collation, foreign_chars, witness_side, work_sides

CHUNK = 200  # characters of the seed aligned in one draw
MARGIN = 40  # no gap place nearer than this to the chunk's ends
WINDOW = LONG  # a change at least this far from every place of the gap must not move it


@cache
def offset() -> int:
    """Witness indices of the whole work where KR1d0038_005 (J5) starts."""
    return sum(len(side.chars) for side in work_sides("KR1d0038")[:5])


@cache
def exact_starts() -> tuple[int, ...]:
    """Starts of chunks of seed 000 with no difference of any kind, each character aligned with
    the next compared witness character and coded alike (so the witness there is the chunk)."""
    seed, mapping, witness = clean_base()
    coder = fold.Coder(seed.chars, witness_side(J5).chars)
    marked = set()
    for d in collation("000").differences:
        marked.update(range(d.seed_index[0] - 1, d.seed_index[1] + 1))
    good = [k not in marked and mapping[k] is not None and coder.code(seed.chars[k]) == coder.code(witness[mapping[k]])
            and (k + 1 >= len(seed.chars) or mapping[k + 1] is not None and
                 all(c in "○" for c in witness[mapping[k] + 1:mapping[k + 1]]))
            for k in range(len(seed.chars))]
    starts, run = [], 0
    for k in range(len(good) - 1, -1, -1):
        run = run + 1 if good[k] else 0
        if run >= CHUNK + 1 and 100 <= k:
            starts.append(k)
    return tuple(sorted(starts))


def one_gap_places(long: str, short: str, replaced: int = 0) -> list[int] | None:
    """If every alignment of least Levenshtein cost of ``long`` with ``short`` is one run of
    ``len(long) - len(short)`` characters of ``long`` left out and ``replaced`` replacements, the
    places (indices in ``long``) where that run can start; else None.

    Only cells with ``0 <= i - j <= size`` are computed: a path that leaves that band costs at
    least ``size + 2``, more than the one gap and the one replacement the tests make."""
    m, n, size = len(long), len(short), len(long) - len(short)
    inf = m + n + 1

    def band(i):
        return range(max(0, i - size), min(n, i) + 1)

    forward: dict[tuple[int, int], int] = {}
    for i in range(m + 1):
        for j in band(i):
            forward[i, j] = 0 if i == j == 0 else min(
                forward.get((i - 1, j), inf) + 1, forward.get((i, j - 1), inf) + 1,
                forward.get((i - 1, j - 1), inf) + (i > 0 and j > 0 and long[i - 1] != short[j - 1]))
    backward: dict[tuple[int, int], int] = {}
    for i in range(m, -1, -1):
        for j in reversed(band(i)):
            backward[i, j] = 0 if (i, j) == (m, n) else min(
                backward.get((i + 1, j), inf) + 1, backward.get((i, j + 1), inf) + 1,
                backward.get((i + 1, j + 1), inf) + (i < m and j < n and long[i] != short[j]))
    best = forward[m, n]
    if best != size + replaced:
        return None

    def edges(i, j):  # the moves of least cost from (i, j): (kind, next cell)
        here = forward[i, j]
        if i < m and j < n and here + (long[i] != short[j]) + backward.get((i + 1, j + 1), inf) == best:
            yield "d", (i + 1, j + 1)
        if here + 1 + backward.get((i + 1, j), inf) == best:
            yield "h", (i + 1, j)
        if here + 1 + backward.get((i, j + 1), inf) == best:
            yield "v", (i, j + 1)

    # phases along a path: 0 before the gap, 1 in it, 2 after it; a move that breaks the shape fails
    states: dict[tuple[int, int], set[int]] = {(0, 0): {0}}
    starts_of_gap = set()
    for i in range(m + 1):
        for j in band(i):
            for phase in states.get((i, j), ()):
                for kind, after in edges(i, j):
                    if kind == "v" or (kind == "h" and phase == 2):
                        return None
                    if kind == "h" and phase == 0:
                        starts_of_gap.add(i)
                    states.setdefault(after, set()).add({"d": 0 if phase == 0 else 2, "h": 1}[kind])
    return sorted(starts_of_gap)


def _rebuilt(long: str, short: str, size: int, place: int) -> bool:
    return 0 <= place <= len(short) and long[:place] + long[place + size:] == short


def gap_places(start: int, new: str, kind: str, replaced: int = 0) -> list[int] | None:
    """``one_gap_places`` of ``new`` (seed 000's chunk at ``start``, changed) and the witness's
    characters of the chunk, coded as ``align`` codes them; None also where two characters coded
    alike near the gap are no forms of each other (``align`` reports such a pair)."""
    _seed, mapping, witness = clean_base()
    seen = "".join(witness[mapping[start + k]] for k in range(CHUNK))
    coder = fold.Coder(new, witness_side(J5).chars)
    long, short = (new, seen) if kind != "lose" else (seen, new)
    places = one_gap_places(coder.encode(long), coder.encode(short), replaced)
    if not places:
        return None
    size = len(long) - len(short)
    for x in range(max(0, places[0] - size - 1), min(len(long), places[-1] + 2 * size + 1)):
        for y in range(max(0, x - size), min(len(short), x + 1)):
            pair = (long[x], short[y]) if kind != "lose" else (short[y], long[x])
            if coder.code(pair[0]) == coder.code(pair[1]) and fold.relation(*pair) is None:
                return None
    return places


@st.composite
def repeat_gaps(draw):
    """A chunk of seed 000, and it changed so that a gap inside a repeat parts it from the witness:
    ``(start, new, kind, size, places)``; ``kind`` is ``"double"``/``"copy"`` (the seed has the
    text twice: a ``delete``) or ``"lose"`` (the seed lacks one of two: an ``insert``)."""
    seed, _mapping, _witness = clean_base()
    start = draw(st.sampled_from(exact_starts()))
    chars = seed.chars[start:start + CHUNK]
    coder = fold.Coder(seed.chars, witness_side(J5).chars)
    codes = coder.encode(chars)
    kind = draw(st.sampled_from(["double", "lose", "copy"]))
    size = draw(st.integers(1, 6))
    first = draw(st.integers(MARGIN + 10, CHUNK - MARGIN - 20))
    shift = draw(st.integers(-30, 30))
    for place in range(first, CHUNK - MARGIN - 10):
        if kind == "double":
            new = chars[:place + size] + chars[place:place + size] + chars[place + size:]
        elif kind == "lose":
            new = chars[:place] + chars[place + size:]
        else:
            source = min(max(place + shift, 0), CHUNK - size)
            new = chars[:place] + chars[source:source + size] + chars[place:]
        long, short = (coder.encode(new), codes) if kind != "lose" else (codes, coder.encode(new))
        gap = place + size if kind == "double" else place
        if not (_rebuilt(long, short, size, gap - 1) or _rebuilt(long, short, size, gap + 1)):
            continue  # one place only: no repeat
        places = gap_places(start, new, kind)
        if places and len(places) > 1 and places[0] >= MARGIN and places[-1] + size <= CHUNK - MARGIN:
            return start, new, kind, size, places
    assume(False)


def expected_gap(start: int, new: str, kind: str, size: int, places: list[int]) -> tuple:
    """The one difference a canonical collation reports: at the rightmost place, as
    ``(op, seed text, witness text, seed index, witness index)`` (witness indices of J5)."""
    _seed, mapping, witness = clean_base()
    at = places[-1]
    if kind == "lose":  # the witness's characters [at, at + size) of the chunk
        first, last = mapping[start + at], mapping[start + at + size - 1] + 1
        text = "".join(witness[mapping[start + k]] for k in range(at, at + size))
        return "insert", "", text, (at, at), (first - offset(), last - offset())
    follows = mapping[start + at] - offset()  # the witness character after the seed's extra copy
    return "delete", new[at:at + size], "", (at, at + size), (follows, follows)


def gaps_of(new: str, name: str = "perturbed") -> list[tuple]:
    result = align(Side(name, new, list(range(len(new)))), witness_side(J5))
    assert result.aligned
    return [(d.op, d.seed_text, d.witness_text, d.seed_index, d.witness_index) for d in result.readings()]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(repeat_gaps())
def test_a_gap_inside_a_repeat_is_one_difference_at_its_rightmost_place(case):
    start, new, kind, size, places = case
    assert gaps_of(new) == [expected_gap(*case)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(repeat_gaps(), st.integers(WINDOW, 30), st.booleans(), st.sampled_from(range(40)))
def test_a_change_outside_the_window_never_moves_the_gap(case, distance, before, foreign):
    """One character replaced at least ``WINDOW`` characters before or after every place of the
    gap: the gap's entry is the same (same texts, same indices), the replacement one more."""
    start, new, kind, size, places = case
    # in the seed's characters: after the gap, a seed that lacks it counts ``size`` fewer
    where = places[0] - distance if before else places[-1] + (0 if kind == "lose" else size) + distance - 1
    changed = new[:where] + foreign_chars()[foreign] + new[where + 1:]
    assume(gap_places(start, changed, kind, replaced=1) == places)  # the gap's places as they were
    gap = expected_gap(*case)
    found = gaps_of(changed)
    assert gap in found and len(found) == 2
    [other] = [d for d in found if d != gap]
    assert (other[0], other[1], other[3]) == ("replace", foreign_chars()[foreign], (where, where + 1))


def test_a_doubled_character_is_reported_after_the_first_whatever_changes_elsewhere():
    """000 右执箫南扬弓 (文渊阁本 右執簫南揚弓): a seed printing 扬 twice has one 扬 the witness
    lacks, reported after the first (扬下重扬字); so also when the 后 of 由上射之后, 12 characters
    before, reads otherwise (the aligner alone then put it before the first 扬: a CI-style failure
    of the property test above, kept as it was found, on the 200 characters from 射之仪)."""
    seed, mapping, witness = clean_base()
    start = seed.chars.index("右执箫南扬弓命去侯") + 4 - 50
    chunk = seed.chars[start:start + CHUNK]
    assert chunk.startswith("射之仪司马适堂西") and chunk[49:53] == "南扬弓命"
    doubled = chunk[:51] + "扬" + chunk[51:]
    after = mapping[start + 51] - offset()
    assert witness[mapping[start + 51] - 2:mapping[start + 51] + 1] == "南揚弓"
    gap = ("delete", "扬", "", (51, 52), (after, after))
    assert gaps_of(doubled) == [gap]
    elsewhere = doubled.index("由上射之后") + 4
    assert 50 - elsewhere == WINDOW
    other = foreign_chars()[0]
    changed = doubled[:elsewhere] + other + doubled[elsewhere + 1:]
    assert gaps_of(changed) == [("replace", other, "後", (elsewhere, elsewhere + 1), (after - 13, after - 12)), gap]


def test_a_gap_stops_short_of_the_next_edit():
    """南扬扬X命 against 南扬弓命, told as 扬 left out and X for 弓: moved right, the extra 扬 would
    touch the replaced character and ``_merge`` would join them (“扬X”，文渊阁本作“弓”); it stays one
    place short, an entry of its own. (Told as 扬 for 弓 and X left out, the same cost, the two are
    one edit whatever the place: a replacement is not moved.)"""
    seed, witness = "南扬扬X命", "南扬弓命"
    told = [("equal", 0, 1, 0, 1), ("delete", 1, 2, 1, 1), ("equal", 2, 3, 1, 2), ("replace", 3, 4, 2, 3),
            ("equal", 4, 5, 3, 4)]
    assert _merge(_placed(told, seed, witness, lambda i, j: True)) == [
        ("equal", 0, 1, 0, 1), ("edit", 1, 2, 1, 1), ("equal", 2, 3, 1, 2), ("edit", 3, 4, 2, 3), ("equal", 4, 5, 3, 4)]
    longer = [("equal", 0, 1, 0, 1), ("delete", 1, 2, 1, 1), ("equal", 2, 4, 1, 3), ("replace", 4, 5, 3, 4)]
    assert _placed(longer, "南扬扬扬X", "南扬扬弓", lambda i, j: True)[1] == ("delete", 2, 3, 2, 2)
