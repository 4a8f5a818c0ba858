"""Classification of differences (异文分类): substantive, placeholder or pua.

The aligner hands over every edit (a run of seed characters against a run of witness characters
that are not the same after folding) and every aligned private-use character of the seed.
Orthographic forms never come here: they are equal after folding, and the aligner records them.

- ``pua`` (私用区字): the seed has a private-use code point. The note says what the project's
  table (``conv/data/pua.toml``) makes of it and whether the witness confirms it.
- ``placeholder`` (代字): the seed printed a stand-in (``data/placeholders.tsv``: 防) where the
  witness has a rare character (a gaiji, a character beyond the BMP or of CJK Extension A, also
  after folding), or printed nothing for one or two rare characters of the witness (002 drops the
  缺笔 𤣥 of 玄酒 and 玄被, and the gaiji &KR0362;).
- ``substantive`` (异文): anything else: another character or word, an omission, an addition.
  A note flags a rare witness character against an unlisted seed character, for review.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

from conv import normalize

from . import fold

DATA_DIR = Path(__file__).with_name("data")
MAX_DROPPED = 2  # at most this many rare witness characters the seed lacks are taken as dropped stand-ins


@cache
def stand_ins() -> frozenset[str]:
    """The seeds' stand-in characters (代字), from ``data/placeholders.tsv``."""
    chars = set()
    for line in (DATA_DIR / "placeholders.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            chars.add(line.split("\t", 1)[0])
    return frozenset(chars)


def is_rare(char: str) -> bool:
    """A character an e-text of the seeds' kind could not encode: a Kanripo gaiji (or any private
    use code point), a character beyond the BMP, or of CJK Extension A, as it is or folded."""
    for form in {char, fold.key(char)}:
        code = ord(form)
        if normalize.is_pua(form) or code > 0xFFFF or 0x3400 <= code <= 0x4DBF:
            return True
    return False


def _confirmed(seed_char: str, witness_char: str | None) -> bool:
    entry = _pua_table_char(seed_char)
    return bool(entry) and witness_char is not None and fold.relation(entry, witness_char) is not None


def _pua_note(seed_char: str, witness_char: str | None) -> str:
    code = f"U+{ord(seed_char):04X}"
    entry = _pua_table_char(seed_char)
    witness = "nothing" if witness_char is None else (
        "a gaiji (a character Unicode lacks)" if fold.is_gaiji(witness_char) else witness_char)
    if entry is None:
        return f"{code} is not in the PUA table; the witness has {witness}"
    if entry == "":
        return f"{code}: the PUA table calls it spurious, but the witness has {witness}" if witness_char else \
            f"{code}: spurious per the PUA table, and the witness has nothing"
    if _confirmed(seed_char, witness_char):
        how = "the same" if fold.relation(entry, witness_char) in (fold.SAME, fold.SCRIPT) else "another form of it"
        return f"{code} = {entry}, confirmed: the witness has {witness} ({how})"
    return f"{code} = {entry} per the PUA table, but the witness has {witness}"


def _pua_table_char(char: str) -> str | None:
    folded = normalize.fold_char(char)
    if folded == char:  # unknown private-use code point
        return None
    return folded


def _pair_kind(seed_char: str, witness_char: str) -> tuple[str, str, bool]:
    if normalize.is_pua(seed_char):
        return "pua", _pua_note(seed_char, witness_char), _confirmed(seed_char, witness_char)
    if is_rare(witness_char):
        if seed_char in stand_ins():
            return "placeholder", f"{seed_char} printed for a character the e-text could not encode", False
        return "substantive", "the witness has a rare character: an unlisted stand-in?", False
    return "substantive", "", False


def classify(seed_chars: str, witness_chars: str, i1: int, j1: int) -> list[tuple]:
    """The pieces of one edit, each ``(kind, i1, i2, j1, j2, note, confirmed)`` in the indices of the compared
    characters: pairs of a replacement that are a pua or placeholder case are pieces of their own,
    runs of substantive pairs one piece."""
    i2, j2 = i1 + len(seed_chars), j1 + len(witness_chars)
    if len(seed_chars) == len(witness_chars):
        pieces: list[list] = []
        for offset, (seed_char, witness_char) in enumerate(zip(seed_chars, witness_chars)):
            kind, note, confirmed = _pair_kind(seed_char, witness_char)
            if pieces and kind == "substantive" == pieces[-1][0]:
                pieces[-1][2] += 1
                pieces[-1][4] += 1
                if note and note not in pieces[-1][5]:
                    pieces[-1][5] = "; ".join(filter(None, (pieces[-1][5], note)))
            else:
                pieces.append([kind, i1 + offset, i1 + offset + 1, j1 + offset, j1 + offset + 1, note, confirmed])
        return [tuple(piece) for piece in pieces]
    if not seed_chars and len(witness_chars) <= MAX_DROPPED and all(map(is_rare, witness_chars)):
        what = "a character Unicode lacks (gaiji)" if all(map(fold.is_gaiji, witness_chars)) else "a rare character"
        return [("placeholder", i1, i2, j1, j2, f"the seed has nothing for {what} it could not encode", False)]
    if not witness_chars and all(map(normalize.is_pua, seed_chars)):
        return [("pua", i1, i2, j1, j2, "; ".join(_pua_note(char, None) for char in seed_chars), False)]
    notes = [_pua_note(char, None) for char in seed_chars if normalize.is_pua(char)]
    return [("substantive", i1, i2, j1, j2, "; ".join(notes), False)]
