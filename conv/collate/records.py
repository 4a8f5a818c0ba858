"""The records of a collation (校勘记录): the two sides compared and what their comparison found.

Independent of the converter's model: a side is only characters with their file offsets, so any
reader (the seeds' lexer, ``conv.reader.mandoku``, a test helper) can build one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

KINDS = ("substantive", "placeholder", "pua", "orthographic")
OPS = ("replace", "delete", "insert")

Span = tuple[str, int, int]


@dataclass
class Side:
    """One witness's text characters (本文字), in reading order, with where each lies.

    ``offsets[i]`` is where ``chars[i]`` starts in the decoded text of the file ``name``;
    ``ends[i]`` where it ends (exclusive). ``ends`` may be left out when every character is one
    code point of the file; a Kanripo gaiji entity such as ``&KR0871;`` is one character of
    ``chars`` but eight of the file. That character is ``chr(0xF0000 + 871)``
    (``conv.collate.fold.gaiji_char``, as ``conv.reader.mandoku`` reads it): the data tables name
    gaiji so. Markup left in ``chars`` (【】, ○, U+3000, ¶, whitespace) is not compared.
    """

    name: str
    chars: str
    offsets: list[int]
    ends: list[int] | None = None

    def __post_init__(self) -> None:
        if len(self.offsets) != len(self.chars):
            raise ValueError(f"{self.name}: {len(self.chars)} characters but {len(self.offsets)} offsets")
        if self.ends is not None and len(self.ends) != len(self.chars):
            raise ValueError(f"{self.name}: {len(self.chars)} characters but {len(self.ends)} ends")

    def end(self, index: int) -> int:
        """The file offset just after character ``index``."""
        return self.offsets[index] + 1 if self.ends is None else self.ends[index]


@dataclass
class Difference:
    """One entry of the collation (异文): what the seed has against what the witness has.

    ``kind``: "substantive" (异文: another character or word, an omission, an addition),
    "placeholder" (代字: the seed printed a stand-in for a character it could not encode),
    "pua" (私用区字: the seed has a private-use code point; ``note`` says whether the witness
    confirms its resolution) or "orthographic" (异体/繁简: another form of the same character,
    not a reading; it feeds the traditional view only).

    ``op``: "replace", "delete" (the seed has, the witness lacks) or "insert" (the witness has,
    the seed lacks). Spans are ``(file, start, end)`` offsets in the file's decoded text, end
    exclusive; the side that lacks the text has an empty span where it would stand.
    ``seed_index`` and ``witness_index`` are the same places as character indices of the sides
    (witness indices count the characters of all the witness's sides, as ``Collation.mapping``).
    ``confirmed``: a pua difference whose witness has the character the PUA table resolves the
    code point to, or another form of it (an apparatus entry, not a reading).
    """

    kind: str
    op: str
    seed_text: str
    witness_text: str
    seed_span: Span
    witness_span: Span
    seed_index: tuple[int, int] = (0, 0)
    witness_index: tuple[int, int] = (0, 0)
    note: str = ""
    confirmed: bool = False

    def as_dict(self) -> dict:
        return {
            "kind": self.kind, "op": self.op, "seed_text": self.seed_text, "witness_text": self.witness_text,
            "seed_span": list(self.seed_span), "witness_span": list(self.witness_span), "note": self.note,
            "confirmed": self.confirmed,
        }

    def __str__(self) -> str:
        seed = self.seed_text or "∅"
        witness = self.witness_text or "∅"
        note = f" ({self.note})" if self.note else ""
        return (f"{self.kind:12} {self.op:7} {seed} → {witness}  "
                f"{self.seed_span[0]}:{self.seed_span[1]}–{self.seed_span[2]} | "
                f"{self.witness_span[0]}:{self.witness_span[1]}–{self.witness_span[2]}{note}")


@dataclass
class Collation:
    """The collation of one seed with the witness (对校结果).

    ``aligned`` is False when the seed was found nowhere in the witness (``reason`` says why);
    then ``differences`` is empty and ``mapping`` all None: nothing is reported twice and nothing
    is aligned by force.

    ``mapping[i]`` is the index of the witness character standing for seed character ``i`` (equal,
    another form of it or a different reading in a replacement), or None where the witness lacks it
    (and for markup left in the seed side). Witness indices count the characters of all the
    witness's sides in order (``witness_char``, ``witness_offset``).
    ``stretch`` is the located stretch as ``(file, start, end)`` spans, one per witness file it
    touches; ``witness_range`` the same as witness character indices ``[start, end)``.
    ``coverage`` is the share of seed characters the witness has, equal after folding scripts
    (same character, script difference or another form of it).
    """

    seed: Side
    witness: list[Side]
    aligned: bool
    differences: list[Difference] = field(default_factory=list)
    mapping: list[int | None] = field(default_factory=list)
    coverage: float = 0.0
    distance: float = 1.0
    stretch: list[Span] = field(default_factory=list)
    witness_range: tuple[int, int] = (0, 0)
    reason: str = ""

    def witness_char(self, index: int) -> tuple[Side, int]:
        """The witness side (file) and the index in it of witness character ``index``, which
        counts the characters of all the witness's sides in order (as ``mapping`` does)."""
        for side in self.witness:
            if index < len(side.chars):
                return side, index
            index -= len(side.chars)
        raise IndexError("witness character index out of range")

    def witness_offset(self, index: int) -> tuple[str, int]:
        """``(file, offset)`` of witness character ``index`` (for its page and its form)."""
        side, local = self.witness_char(index)
        return side.name, side.offsets[local]

    def readings(self) -> list[Difference]:
        """The differences where the witness reads otherwise: all but orthographic forms and
        PUA code points the witness confirms."""
        return [difference for difference in self.differences
                if difference.kind != "orthographic" and not difference.confirmed]

    def of_kind(self, kind: str) -> list[Difference]:
        return [difference for difference in self.differences if difference.kind == kind]
