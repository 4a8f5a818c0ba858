"""Reading the JSON export of an edition (``python -m conv dump --json``) in tests: a chapter's
passages, the 通解's passages, one passage by its text, a chapter's sections by their titles; and
a file of the 通解's 文渊阁 witness."""
from __future__ import annotations

from pathlib import Path

TONGJIE = Path(__file__).resolve().parents[1] / "seeds" / "wenyuange" / "KR1d0085"


def tongjie_file(name: str) -> str:
    """The text of a file of the 通解's witness (``KR1d0085_002.txt``)."""
    return (TONGJIE / name).read_text(encoding="utf-8")


def chapter_passages(chapter: dict):
    for section in chapter["sections"]:
        yield from section["passages"]


def tongjie_passages(dump: dict):
    (work,) = [w for w in dump["works"] if w["id"] == "tongjie"]
    for chapter in work["chapters"]:
        yield from chapter_passages(chapter)


def passage_with(dump: dict, text: str) -> dict:
    (found,) = [p for p in tongjie_passages(dump) if p["text"] == text]
    return found


def sections_of(dump: dict, chapter: str) -> dict:
    (work,) = [w for w in dump["works"] if w["id"] == "tongjie"]
    (found,) = [c for c in work["chapters"] if c["id"] == chapter]
    return {s["title"]: s for s in found["sections"]}
