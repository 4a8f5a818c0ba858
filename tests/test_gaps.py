"""Where a gap stands (``conv.collate.gaps``): every addition and omission at the leftmost place its
text allows, nothing lost, nothing injected, the cost unchanged; and how far right it could stand."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from conv.collate.gaps import left_aligned, moved, room

#: Few characters, so that texts repeat themselves as the 经's formulas do.
TEXTS = st.text(alphabet="拜賔主人答", max_size=40)


def _covers(ops, a: str, b: str) -> None:
    """The opcodes cover both texts in order, equal where they say so, no two equal ops touching."""
    i = j = 0
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        assert (i1, j1) == (i, j) and (i2 > i1 or j2 > j1)
        assert tag == "equal" and a[i1:i2] == b[j1:j2] or tag == "insert" and i1 == i2 or \
            tag == "delete" and j1 == j2 or tag == "replace" and i2 > i1 and j2 > j1
        assert not (tag == "equal" and n and ops[n - 1][0] == "equal")
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))


def _check(ops, a: str, b: str) -> None:
    """The opcodes cover both texts (``_covers``) and put no gap where it could move left or touch
    a gap of its kind."""
    _covers(ops, a, b)
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag in ("insert", "delete") and n:
            before = ops[n - 1]
            assert before[0] != tag
            if before[0] == "equal":
                assert (a[i1 - 1] != b[j2 - 1]) if tag == "insert" else (a[i2 - 1] != b[j1 - 1])


def _cost(ops) -> tuple[int, int, int]:
    return tuple(sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag == kind)
                 for kind in ("insert", "delete", "replace"))


@given(TEXTS, TEXTS)
def test_any_alignment_keeps_both_texts_and_its_cost(a, b):
    ops = [tuple(op) for op in Levenshtein.opcodes(a, b)]
    placed = left_aligned(ops, a, b)
    _check(placed, a, b)
    assert _cost(placed) == _cost(ops)
    assert left_aligned(placed, a, b) == placed
    # moved as far right as each gap's room allows: still both texts, the same cost, the same
    # number of gaps, and each gap's text the same characters turned round; back left, as before
    moves = room(placed, a, b)
    right = moved(placed, moves)
    _covers(right, a, b)
    assert _cost(right) == _cost(placed)
    assert [op[0] for op in right if op[0] != "equal"] == [op[0] for op in placed if op[0] != "equal"]
    assert room(right, a, b) == {}
    assert left_aligned(right, a, b) == placed


@given(TEXTS, st.text(alphabet="拜賔主人答", min_size=1, max_size=8), st.data())
def test_an_addition_anywhere_in_a_repeat_goes_to_its_leftmost_place(text, added, data):
    """One text and the same with ``added`` put in at ``place``: told as one addition at any place
    equally good, the addition goes to the leftmost of the places next to each other that give
    the same texts (found by rebuilding the texts, not by comparing characters)."""
    place = data.draw(st.integers(0, len(text)))
    longer = text[:place] + added + text[place:]
    size = len(added)
    good = lambda p: longer[:p] + longer[p + size:] == text  # noqa: E731
    low = place
    while low and good(low - 1):
        low -= 1
    high = place
    while high < len(text) and good(high + 1):
        high += 1
    for at in {low, place, high}:
        told = [("equal", 0, at, 0, at), ("insert", at, at, at, at + size),
                ("equal", at, len(text), at + size, len(longer))]
        placed = left_aligned([op for op in told if op[2] > op[1] or op[4] > op[3]], text, longer)
        assert [op for op in placed if op[0] != "equal"] == [("insert", low, low, low, low + size)]
        _check(placed, text, longer)
        # and from there it could move right up to the rightmost such place, no further
        assert room(placed, text, longer) == ({placed.index(("insert", low, low, low, low + size)): high - low}
                                              if high > low else {})
        right = moved(placed, room(placed, text, longer))
        assert [op for op in right if op[0] != "equal"] == [("insert", high, high, high, high + size)]
        shorter = left_aligned([(("delete" if tag == "insert" else tag), j1, j2, i1, i2)
                                for tag, i1, i2, j1, j2 in told if i2 > i1 or j2 > j1], longer, text)
        assert [op for op in shorter if op[0] != "equal"] == [("delete", low, low + size, low, low)]


def test_a_gap_cut_around_a_repeat_becomes_one():
    """What the aligner gave for the 乡饮酒礼 once: the 通解's added words cut around 大夫."""
    a = "去之大夫則如"
    b = "去之謙自同于大夫大夫則如"
    told = [("equal", 0, 2, 0, 2), ("insert", 2, 2, 2, 6), ("equal", 2, 4, 6, 8), ("insert", 4, 4, 8, 10),
            ("equal", 4, 6, 10, 12)]
    assert left_aligned(told, a, b) == [("equal", 0, 2, 0, 2), ("insert", 2, 2, 2, 8), ("equal", 2, 6, 8, 12)]
