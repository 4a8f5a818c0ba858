"""The notes of one file of the 文渊阁 witness, converted on its own (``KR1d0038_012.txt``, ``KR1d0085_001.txt``):
for tests that read how the converter cuts and names a file's notes, without the whole edition."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from conv.edition import assemble, export

WITNESS = Path(__file__).resolve().parent.parent / "seeds" / "wenyuange"


@cache
def witness_dump(name: str) -> dict:
    """The dump of the witness file ``name`` converted on its own (its work's folder is the name's first 8 characters)."""
    return export.edition(assemble.convert([WITNESS / name[:8] / name]))


def witness_passages(name: str) -> list[dict]:
    """Every passage of the witness file ``name``, in order."""
    return [passage for work in witness_dump(name)["works"] for chapter in work["chapters"]
            for section in chapter["sections"] for passage in section["passages"]]


@cache
def witness_notes(name: str) -> list[dict]:
    """Every note segment of the witness file ``name``, in order."""
    return [note for passage in witness_passages(name) for note in passage["notes"]]
