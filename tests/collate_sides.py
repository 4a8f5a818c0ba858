"""Small readers of both formats for the tests of the collation core (``test_collate*.py``): a
seed's text characters are all but whitespace and the markup 【】○ U+3000; a witness's all but the
header, ``<pb:…>``, ``¶``, ``(``, ``)``, ``/`` inside ``(…)``, whitespace and U+3000, a gaiji
``&KR0871;`` being one character (``chr(0xF0000 + 871)``). ``text_only`` leaves out the seed lines
that are no text of the work (the e-text's title line, the catalogue line, the website watermark),
as the converter's metadata and dropped records. The converter builds its sides from its own model:
these readers check it from outside.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from conv.collate import classify, fold
from conv.collate.align import align
from conv.collate.records import Collation, Side

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
WITNESS_DIR = next((d for d in (SEEDS / "wenyuange", ROOT.parent / "shared" / "witnesses" / "kanripo")
                    if (d / "KR1d0038").is_dir() and (d / "KR1d0085").is_dir()), None)

SEED_MARKUP = frozenset("【】○\u3000")
WORK_TITLES = ("仪礼郑注句读", "仪礼经传通解")
CATALOGUE = re.compile(r"<[^<>]*>")
WATERMARK = re.compile(r"【打\s*印】\s*【来源：[^】]*】")  # as conv/data/drops.toml
TOKEN = re.compile(r"<pb:[^>]*>|&KR(\d+);|.", re.S)
GAIJI_BASE = 0xF0000
WORK = {"000": "KR1d0038", "001": "KR1d0038", "002": "KR1d0038", "003": "KR1d0085", "004": "KR1d0085"}


def seed_path(number: str) -> Path:
    return next(SEEDS.glob(f"{number}_*.txt"))


@cache
def seed_text(number: str) -> str:
    return seed_path(number).read_text(encoding="utf-8")


@cache
def seed_side(number: str, text_only: bool = True) -> Side:
    chars, offsets, position = [], [], 0
    for line_number, line in enumerate(seed_text(number).splitlines(keepends=True), 1):
        stripped = line.strip()
        metadata = (line_number == 1 and stripped in WORK_TITLES) or CATALOGUE.fullmatch(stripped) \
            or WATERMARK.fullmatch(stripped)
        if not (text_only and metadata):
            for column, char in enumerate(line):
                if not char.isspace() and char not in SEED_MARKUP:
                    chars.append(char)
                    offsets.append(position + column)
        position += len(line)
    return Side(seed_path(number).name, "".join(chars), offsets)


@cache
def witness_text(name: str) -> str:
    return (WITNESS_DIR / name.split("_")[0] / name).read_text(encoding="utf-8")


@cache
def witness_side(name: str) -> Side:
    chars, offsets, ends, position, depth = [], [], [], 0, 0
    for line in witness_text(name).splitlines(keepends=True):
        if not line.startswith("#"):
            for match in TOKEN.finditer(line):
                token = match.group(0)
                if match.group(1):
                    char = chr(GAIJI_BASE + int(match.group(1)))
                elif len(token) > 1:  # a page break
                    continue
                elif token in "()":
                    depth += 1 if token == "(" else -1
                    continue
                elif token in "¶\u3000" or token.isspace() or (token == "/" and depth > 0):
                    continue
                else:
                    char = token
                chars.append(char)
                offsets.append(position + match.start())
                ends.append(position + match.end())
        position += len(line)
    return Side(name, "".join(chars), offsets, ends)


@cache
def work_sides(work: str) -> tuple[Side, ...]:
    return tuple(witness_side(path.name) for path in sorted((WITNESS_DIR / work).glob(f"{work}_*.txt")))


@cache
def collation(number: str, text_only: bool = True) -> Collation:
    """A seed against its whole work (every 卷 file of it): the stretch is located, not given."""
    return align(seed_side(number, text_only), work_sides(WORK[number]))


def at(span: tuple[str, int, int]) -> str:
    """The text of a span in its file (seed or witness)."""
    name, start, end = span
    text = seed_text(name[:3]) if name[:3] in WORK else witness_text(name)
    return text[start:end]


def readings(result: Collation) -> list[tuple]:
    """The differences other than orthographic forms and confirmed PUA resolutions, as tuples."""
    return [(d.kind, d.op, d.seed_text, d.witness_text, d.seed_span[1:], d.witness_span)
            for d in result.differences
            if d.kind != "orthographic" and not d.confirmed]


# --- a clean base for perturbations (test_collate_perturbations.py, test_collate_gaps.py) ----------

J5 = "KR1d0038_005.txt"  # seed 000's 卷 of the 句读


@cache
def foreign_chars() -> tuple[str, ...]:
    """Ordinary characters outside the folding tables' domain, in neither the seed nor the witness."""
    used = set(seed_side("000").chars) | set(witness_side(J5).chars)
    found = []
    for code in range(0x5000, 0x9FA5):
        char = chr(code)
        if char not in used and fold.forms(char) == {char} and not classify.is_rare(char):
            found.append(char)
            if len(found) == 60:
                break
    return tuple(found)


@cache
def clean_base() -> tuple[Side, list[int], str]:
    """Seed 000 (text only), the witness index of each of its characters, the witness characters."""
    result = collation("000")
    witness = "".join(side.chars for side in work_sides("KR1d0038"))
    return seed_side("000"), result.mapping, witness
