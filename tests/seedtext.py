"""Helpers for tests that read the seeds directly, independently of the converter's parser."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS_DIR = ROOT / "seeds"


def seed_text(name: str) -> str:
    return (SEEDS_DIR / name).read_text(encoding="utf-8")


def seed_segments():
    """(seed prefix, segment) for every note segment, split by a regex, not by the converter.

    Notes cut by a page break (`…监古】\\n\\n【衔反…`) are joined first; 句读 (000–002) segments
    are separated by ○, 通解 (003–004) segments by U+3000 and before a bare 疏曰.
    """
    for path in sorted(SEEDS_DIR.glob("*.txt")):
        prefix = path.name[:3]
        text = re.sub(r"】\n\s*\n【", "", path.read_text(encoding="utf-8"))
        tongjie = prefix in ("003", "004")
        for note in re.finditer(r"【([^【】]*)(?:】|$)", text):
            parts = note.group(1).split("\u3000" if tongjie else "○")
            if tongjie:
                parts = [piece for part in parts for piece in re.split(r"(?=疏曰)", part)]
            for part in (p.strip() for p in parts):
                if part:
                    yield prefix, part


def all_passages(dump):
    """Every passage of a JSON export, in reading order."""
    for w in dump["works"]:
        for c in w["chapters"]:
            for s in c["sections"]:
                yield from s["passages"]


def passage_id(dump, text: str) -> str:
    """The anchor of the one passage whose normalized text is ``text``."""
    found = [p["id"] for p in all_passages(dump) if p["normalized"] == text]
    assert len(found) == 1, text
    return found[0]


def read_right(apparatus) -> dict[tuple[str, int], str]:
    """(file, offset) → the character the reading text reads for the printed one there: the reviewed misprints of
    the words (conv/data/misprints.toml, ``words = true``: 003's 召南马有 is read 焉, 004's 司官 宮), from an
    edition's or a JSON export's apparatus."""
    return {(record["span"][0], record["span"][1]): record["reading"] for record in apparatus
            if record.get("kind") == "misprint" and record.get("words")}


def as_read(text: str, seed: str, offsets, apparatus) -> str:
    """``text`` (printed at ``offsets`` of ``seed``) with each reviewed misprint of the words read right."""
    right = read_right(apparatus)
    return "".join(right.get((seed, offset), char) for char, offset in zip(text, offsets))
