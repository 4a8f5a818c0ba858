"""Two-direction folding (繁简互校): when a seed character and a witness character are the same.

The seed is a simplified e-text, the witness traditional, and OpenCC's t2s is no equivalence: it
folds 豵 to 𫎆 (which the e-text never writes), lists 复 as well as 覆 for 覆, and leaves 著/着,
傚/效, 瞭/了, 倣/仿 apart. So two characters are compared in both directions:

- ``script``: the same reading form (``conv.normalize.fold_char``: PUA table, 四库 variants,
  t2s): a script difference, never reported;
- ``orthographic``: not the same reading form, but one is a form of the other in one direction:
  the seed character (or its reading form) is a t2s candidate of the witness character (OpenCC's
  table, every candidate), or the witness character is an s2t form of the seed character (the
  ``s2t`` converter, every candidate of its table), or the pair is in the project's own table
  ``data/equivalents.tsv`` (著/着, 𤣥/玄, the gaiji &KR0076; for 弦 …). Reported as an
  orthographic difference, for the traditional view, never as a reading.

The relation is not transitive (复 is 覆 and 復, 覆 is not 復), so an alignment cannot use it
directly: ``Coder`` gives each character a code, joining the classes of related characters of the
two texts at hand, and the aligner checks each aligned pair again with ``relation``.
"""
from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import opencc

from conv import normalize

DATA_DIR = Path(__file__).with_name("data")
GAIJI_BASE = 0xF0000
GAIJI = re.compile(r"&KR(\d+);")


def gaiji_char(number: int) -> str:
    """The character standing for the Kanripo gaiji ``&KR{number:04d};`` (造字) in a side: a code
    point of plane 15 (private use), ``U+F0000 + number``. Readers of the witness must use it."""
    return chr(GAIJI_BASE + number)


def is_gaiji(char: str) -> bool:
    """A stand-in for a Kanripo gaiji (``gaiji_char``)."""
    return GAIJI_BASE <= ord(char) < GAIJI_BASE + 10000


SAME, SCRIPT, ORTHOGRAPHIC = "same", "script", "orthographic"


@cache
def _converter(config: str) -> opencc.OpenCC:
    return opencc.OpenCC(config)


def _opencc_table(name: str) -> dict[str, tuple[str, ...]]:
    """One of OpenCC's character tables: character → its candidates, in OpenCC's order."""
    table: dict[str, tuple[str, ...]] = {}
    path = os.path.join(os.path.dirname(opencc.__file__), "dictionary", name)
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            key, _, values = line.rstrip("\n").partition("\t")
            if len(key) == 1:
                table[key] = tuple(value for value in values.split() if len(value) == 1)
    return table


@cache
def equivalents() -> list[tuple[str, str, str, str]]:
    """The project's own pairs of forms (异体对照): (witness form, seed form, kind, reason)."""
    rows = []
    for line in (DATA_DIR / "equivalents.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            witness, seed, kind, reason = (line.split("\t") + ["", ""])[:4]
            witness = GAIJI.sub(lambda match: gaiji_char(int(match.group(1))), witness)
            rows.append((witness, seed, kind, reason))
    return rows


@cache
def _traditional() -> dict[str, frozenset[str]]:
    """Seed character → the witness characters that are forms of it: its s2t candidates
    (OpenCC's STCharacters), the characters one of whose t2s candidates it is (TSCharacters read
    backwards) and the witness forms of the project's pairs."""
    table: dict[str, set[str]] = {}
    for simplified, candidates in _opencc_table("STCharacters.txt").items():
        table.setdefault(simplified, set()).update(candidates)
    for traditional, candidates in _opencc_table("TSCharacters.txt").items():
        for simplified in candidates:
            table.setdefault(simplified, set()).add(traditional)
    for witness, seed, _kind, _reason in equivalents():
        table.setdefault(seed, set()).add(witness)
    return {char: frozenset(chars) for char, chars in table.items()}


@cache
def _simplifiable() -> frozenset[str]:
    """The traditional characters of OpenCC's t2s table (TSCharacters)."""
    return frozenset(_opencc_table("TSCharacters.txt"))


@cache
def key(char: str) -> str:
    """The reading form used to compare: ``fold_char``, but a code point whose reading form is
    nothing (a PUA code the table calls spurious) stays itself, so that it is compared, not lost."""
    folded = normalize.fold_char(char)
    return folded or char


@cache
def forms(seed_char: str) -> frozenset[str]:
    """The characters that are forms of ``seed_char`` in one direction or the other: of the
    character and of its reading form, the ``s2t`` conversion, the s2t candidates, the characters
    whose t2s (any candidate) gives it, and the project's pairs; the two themselves. A traditional
    character OpenCC simplifies (復 → 复) does not take the forms of its simplified one: 覆, the
    other 复, is no form of 復 (a PUA code or a 四库 variant, 賔, does take them)."""
    result = {seed_char, key(seed_char)}
    table = _traditional()
    bases = (seed_char,) if seed_char in _simplifiable() else (seed_char, key(seed_char))
    for base in bases:
        result |= table.get(base, frozenset())
        converted = _converter("s2t").convert(base)
        if len(converted) == 1:
            result.add(converted)
    return frozenset(result)


def relation(a: str, b: str) -> str | None:
    """How two characters stand to each other, either way round (a seed's and a witness's, or the
    two works' in a parallel): ``"same"``, ``"script"`` (equal after folding), ``"orthographic"``
    (one is a form of the other: 往/徃 whichever text writes which) or None (a different character:
    复 is a form of 覆 and of 復, but 覆 is no form of 復). Symmetric: ``relation(a, b) ==
    relation(b, a)``."""
    return _relation(a, b) if a <= b else _relation(b, a)


@cache
def _relation(a: str, b: str) -> str | None:
    if a == b:
        return SAME
    if key(a) == key(b):
        return SCRIPT
    if _form_of(a, b) or _form_of(b, a):
        return ORTHOGRAPHIC
    return None


def _form_of(base: str, other: str) -> bool:
    """``other`` (or its reading form) is one of the forms of ``base`` (``forms``)."""
    base_forms = forms(base)
    return other in base_forms or key(other) in base_forms


class Coder:
    """Codes for the characters of one seed and one witness stretch (编码): equal codes for
    characters that may be the same (the classes of ``relation`` joined over the two texts), so a
    plain edit-distance library can align them. Codes are strings of one character each."""

    def __init__(self, seed_chars: str, witness_chars: str) -> None:
        parent: dict[str, str] = {}

        def find(item: str) -> str:
            root = item
            while parent.get(root, root) != root:
                root = parent[root]
            while item != root:
                parent[item], item = root, parent.get(item, item)
            return root

        def join(chars: str, others: str) -> None:
            """Join each character of ``chars`` with its forms that ``others`` holds (as they are
            or by their reading form)."""
            other_set = set(others)
            other_keys = {key(char) for char in other_set}
            for char in set(chars):
                for other in forms(char):
                    if (other in other_set or key(other) in other_keys) and relation(char, other):
                        a, b = find(key(char)), find(key(other))
                        if a != b:
                            parent[a] = b

        join(seed_chars, witness_chars)
        join(witness_chars, seed_chars)  # the relation holds either way round
        self._find = find
        self._table = _CodeTable(self)

    def code(self, char: str) -> str:
        return self._table[ord(char)]

    def encode(self, chars: str) -> str:
        """``chars`` coded, one code character for each character."""
        return chars.translate(self._table)


class _CodeTable(dict):
    """A ``str.translate`` table that codes each character once, on first use."""

    def __init__(self, coder: Coder) -> None:
        super().__init__()
        self._coder = coder

    def __missing__(self, code: int) -> str:
        found = self[code] = self._coder._find(key(chr(code)))
        return found
