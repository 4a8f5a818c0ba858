"""Where a gap stands (缺文定位): one place for an addition or omission inside a repeat.

An aligner that has the choice between equally cheap alignments picks one by the way it happens
to walk its table, and a change twenty characters away can make it pick another. Where the text
a work adds ends as the text before it ends (``…同于大夫`` added before ``大夫則如介禮``), the
addition could stand before or after the repeated ``大夫``, or be cut in two around it. A 校勘记
must not move for such a reason. ``left_aligned`` puts every addition and omission as far left as
its text allows (as variant callers normalise an indel) and joins what then touches: one gap, at
one place, whatever the aligner chose. Nothing else changes: the same characters are equal, added
or left out, and a replacement stays where it is.
"""
from __future__ import annotations

from collections.abc import Iterable

Opcode = tuple[str, int, int, int, int]


def left_aligned(opcodes: Iterable[Opcode], a: str, b: str) -> list[Opcode]:
    """``opcodes`` (difflib's form, as rapidfuzz gives them) from ``a`` to ``b``, with every
    ``insert`` and ``delete`` moved left over the equal text before it as far as it goes, and
    neighbouring gaps of one kind joined."""
    out: list[list] = []
    for tag, i1, i2, j1, j2 in opcodes:
        op = [tag, i1, i2, j1, j2]
        if tag in ("insert", "delete"):
            released = _shift(out, op, a, b)
            out.append(op)
            if released:
                out.append(["equal", op[2], op[2] + released, op[4], op[4] + released])
        elif tag == "equal" and out and out[-1][0] == "equal":
            out[-1][2], out[-1][4] = i2, j2
        elif i2 > i1 or j2 > j1:
            out.append(op)
    return [tuple(op) for op in out]


def _shift(out: list[list], op: list, a: str, b: str) -> int:
    """Move the gap ``op`` left over the equal text at the end of ``out`` while the character it
    gives up equals the gap's last one; join it to a gap of its kind it reaches. The number of
    characters that now stand equal after it."""
    released = 0
    while out:
        last = out[-1]
        if last[0] == op[0] and last[2] == op[1] and last[4] == op[3]:  # two gaps of one kind: one
            op[1], op[3] = last[1], last[3]
            out.pop()
            continue
        if last[0] != "equal" or last[2] == last[1]:
            break
        gives, ends = (a[last[2] - 1], b[op[4] - 1]) if op[0] == "insert" else (b[last[4] - 1], a[op[2] - 1])
        if gives != ends:
            break
        last[2] -= 1
        last[4] -= 1
        op[1:] = [op[1] - 1, op[2] - 1, op[3] - 1, op[4] - 1]
        released += 1
        if last[2] == last[1]:
            out.pop()
    return released


def room(ops: list[Opcode], a: str, b: str, same=lambda i, j: True) -> dict[int, int]:
    """For each ``insert`` or ``delete`` of ``ops`` (by index) that an ``equal`` follows: how many
    places it could move right and say the same (the text it covers turning round: ``也文其面…
    私覿`` or ``文其面…私覿也``), over aligned pairs ``same(i, j)`` accepts. Whoever reports
    the differences chooses among these places."""
    found = {}
    for n, (tag, i1, i2, j1, j2) in enumerate(ops[:-1]):
        after = ops[n + 1]
        if tag not in ("insert", "delete") or after[0] != "equal":
            continue
        text, start, end = (b, j1, j2) if tag == "insert" else (a, i1, i2)
        moves = 0
        while (moves < after[2] - after[1] and text[start + moves] == text[end + moves]
               and same(after[1] + moves, after[3] + moves)):
            moves += 1
        if moves:
            found[n] = moves
    return found


def moved(ops: list[Opcode], moves: dict[int, int]) -> list[Opcode]:
    """``ops`` with each gap ``n`` of ``moves`` moved ``moves[n]`` places right over the equal text
    after it (as ``room`` allows: the text it covers turns round, nothing else changes)."""
    out: list[list] = []
    carried = 0  # how far the equal op after a moved gap starts later
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            i1, j1, carried = i1 + carried, j1 + carried, 0
            if i2 > i1:
                _equal(out, i1, i2, j1, j2)
            continue
        carried = moves.get(n, 0)
        if carried:  # the equal text it gives up now stands before it
            _equal(out, i1, i1 + carried, j1, j1 + carried)
        out.append([tag, i1 + carried, i2 + carried, j1 + carried, j2 + carried])
    return [tuple(op) for op in out]


def _equal(out: list[list], i1: int, i2: int, j1: int, j2: int) -> None:
    """Append an ``equal`` op to ``out``, joined to an ``equal`` op it follows."""
    if out and out[-1][0] == "equal" and out[-1][2] == i1 and out[-1][4] == j1:
        out[-1][2], out[-1][4] = i2, j2
    else:
        out.append(["equal", i1, i2, j1, j2])
