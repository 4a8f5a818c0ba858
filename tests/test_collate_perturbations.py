"""The collation core (``conv.collate``) on perturbed text: whatever is changed in a clean stretch
of seed 000 against the 文渊阁 transcription is found exactly, a long gap is one difference, and a
stretch changed beyond the limit on the distance is refused (no alignment). (The five seeds as
they are: ``test_collate.py``.)"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conv.collate.align import MAX_DISTANCE, align
from conv.collate.records import Side

from collate_sides import J5, WITNESS_DIR, clean_base, collation, foreign_chars, witness_side, work_sides

pytestmark = pytest.mark.skipif(WITNESS_DIR is None, reason="the Kanripo witness (seeds/wenyuange) is not here")

# --- perturbations: exactly what was changed is found --------------------------------------------

def _clean(start: int, end: int) -> bool:
    """No reading of seed 000 (other than orthographic forms and confirmed PUA) in [start, end)."""
    return all(not (d.seed_index[0] < end and start < d.seed_index[1]) for d in collation("000").readings())


@st.composite
def perturbed(draw):
    seed, mapping, _witness = clean_base()
    length = draw(st.integers(200, 500))
    start = draw(st.integers(400, len(seed.chars) - length - 400))
    if not _clean(start - 20, start + length + 20):
        start = 1000  # a stretch with no difference at all (checked below)
    chars = seed.chars[start:start + length]
    count = draw(st.integers(1, 6))
    places = sorted(draw(st.lists(st.integers(14, length - 20), min_size=count, max_size=count, unique=True)))
    places = [p for k, p in enumerate(places) if k == 0 or p - places[k - 1] >= 10]
    pool = list(foreign_chars())
    marked = {k - start for d in collation("000").differences for k in range(d.seed_index[0] - 2, d.seed_index[1] + 2)}
    edits = []
    for place in places:
        if marked & set(range(place - 1, place + 5)):  # an orthographic form or a PUA code point nearby
            continue
        op = draw(st.sampled_from(["replace", "delete", "insert"]))
        size = draw(st.integers(1, 3))
        if op == "insert":  # the seed has characters the witness lacks
            edits.append((place, 0, "".join(pool.pop() for _ in range(size))))
        elif op == "replace":
            edits.append((place, size, "".join(pool.pop() for _ in range(size))))
        else:  # the seed lacks characters: only where their place is unambiguous (none of them nearby)
            gone = chars[place:place + size]
            near = chars[place - size - 2:place] + chars[place + size:place + 2 * size + 2]
            if len(set(gone)) < size or set(gone) & set(near):
                continue
            edits.append((place, size, ""))
    return start, chars, edits


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(perturbed())
def test_perturbations_are_found_exactly(case):
    start, chars, edits = case
    assume(edits)
    seed, mapping, witness = clean_base()
    assert _clean(start, start + len(chars))
    new, expected, shift = chars, [], 0
    for place, size, text in edits:
        at_new = place + shift
        new = new[:at_new] + text + new[at_new + size:]
        first = mapping[start + place]
        if size:
            last = mapping[start + place + size - 1] + 1
            witness_chars = "".join(witness[mapping[start + k]] for k in range(place, place + size))
        else:
            last = first
            witness_chars = ""
        op = "replace" if size and text else ("insert" if size else "delete")
        expected.append(("substantive", op, text, witness_chars, (at_new, at_new + len(text)), (first, last)))
        shift += len(text) - size
    side = Side("perturbed", new, list(range(len(new))))
    result = align(side, witness_side(J5))  # its 卷 only, for speed: witness indices count from J5
    assert result.aligned
    offset = sum(len(side.chars) for side in work_sides("KR1d0038")[:5])
    expected = [(*entry[:5], (entry[5][0] - offset, entry[5][1] - offset)) for entry in expected]
    found = [(d.kind, d.op, d.seed_text, d.witness_text, d.seed_index, d.witness_index) for d in result.readings()]
    assert found == expected
    assert all(d.seed_span == ("perturbed", *d.seed_index) for d in result.differences)
    unchanged = [(d.kind, d.seed_text, d.witness_text, d.witness_index[0] + offset)
                 for d in result.differences if d not in result.readings()]
    before = [(d.kind, d.seed_text, d.witness_text, d.witness_index[0]) for d in collation("000").differences
              if d not in collation("000").readings() and start <= d.seed_index[0] < start + len(chars)]
    assert unchanged == before


def test_a_long_gap_is_one_difference():
    """The witness has a passage of 400 characters the seed lacks: one difference, not hundreds."""
    seed, mapping, witness = clean_base()
    cut_start, cut_end = 3000, 3400
    assert _clean(cut_start - 10, cut_end + 10)
    assert seed.chars[cut_start - 1] != seed.chars[cut_end - 1] and seed.chars[cut_start] != seed.chars[cut_end]
    side = Side("cut", seed.chars[1000:cut_start] + seed.chars[cut_end:6000], list(range(5000 - 400)))
    result = align(side, work_sides("KR1d0038"))
    [gap] = result.readings()
    assert (gap.kind, gap.op, gap.seed_text, gap.seed_index) == ("substantive", "insert", "", (2000, 2000))
    assert gap.witness_index == (mapping[cut_start], mapping[cut_end - 1] + 1)
    assert len(gap.witness_text) == 400
    assert 0.07 < result.distance < 0.09 and result.aligned


@pytest.mark.parametrize("share, aligned", [(0.05, True), (0.15, True), (0.40, False), (0.60, False)])
def test_distance_threshold(share, aligned):
    """A seed stretch with a share of its characters replaced at random: aligned below the limit
    on the distance of the located stretch (MAX_DISTANCE), refused above it, once."""
    seed, _mapping, _witness = clean_base()
    chars = list(seed.chars[1000:4000])
    rng = random.Random(share)
    pool = foreign_chars()
    for place in rng.sample(range(len(chars)), int(share * len(chars))):
        chars[place] = rng.choice(pool)
    result = align(Side("noisy", "".join(chars), list(range(len(chars)))), work_sides("KR1d0038"))
    assert result.aligned is aligned
    if aligned:
        assert abs(result.distance - share) < 0.02
    else:
        assert result.differences == [] and "no alignment" in result.reason
    assert MAX_DISTANCE == 0.25
