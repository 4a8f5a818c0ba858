"""The 句读's front matter and appended 卷 (前后附卷): 提要, 原序, 监本正误, 石本误字.

KR1d0038_000 holds the 四库 提要 and 张尔岐's 原序; KR1d0038_018 and _019 his own collation notes,
监本正误 and 石本误字. None of it is 经: its text is a passage layer of its own (``front`` or
``errata``, ``conv/data/judou_apart.toml``), and the small characters in it (``(臣/)``, ``(附/)``,
an entry's leaf reference ``(第二十/七&KR1114;)``) are segments of the layer ``small`` (小字), not
郑注. ``ApartLines`` finds the structural lines of such a file before the parser walks it, as
``conv.parser.outline`` does for the 通解:

- ``heading``: a chapter's heading line as printed (``提要``, ``儀禮鄭註句讀原序``, ``儀禮監本正誤``),
  nothing but notes after it: the chapter (``judou-tiyao`` …) begins there;
- ``label``: in the collation notes, a 篇's name on a line of its own (``士昏禮``, ``䘮服``): the
  entries after it are about that 篇 (its id in ``chapter``);
- a meta kind (``siku``, ``catalogue``, ``credits``): a line of the data file's ``[[meta]]``
  patterns (``欽定四庫全書　經部四``, ``總纂官(臣/)紀昀…``): metadata, not text.

The 通解's 卷首 (KR1d0085_000) is one chapter of several parts (``FrontPart``: 提要, 舊序, 目録,
乞修三禮劄子, the ``parts`` of its entry in ``conv/data/tongjie_chapters.toml``): its text is
``front`` too, and ``relabel`` makes its small characters 小字 part by part (the 目録 keeps its 疏曰
and 今按).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

from conv import datafiles as data
from conv.model.tree import Chapter
from conv.normalize import fold
from conv.reader.source import Line, Source

NOTES = re.compile(r"【[^【】]*】")
ROLES = ("front-matter", "collation-notes")  # manifest roles of these files
SMALL = "small"  # the segment layer of small characters outside the 仪礼 (小字)


@dataclass(frozen=True)
class ApartLine:
    """A structural line: ``kind`` heading | label | a meta kind; ``chapter`` the chapter it opens
    (heading) or names (label: an id of ``conv/data/chapters.toml``); [start, end) its text
    before any note."""

    kind: str
    chapter: str
    start: int
    end: int


@cache
def _labels() -> dict[str, str]:
    """篇 names as printed (folded) → chapter id."""
    names: dict[str, str] = {}
    for chapter in data.chapters():
        for name in (chapter["name"], *chapter.get("printed", [])):
            names[fold(name)] = chapter["id"]
    for printed, chapter_id in data._toml("judou_apart.toml").get("labels", {}).items():
        names[fold(printed)] = chapter_id
    return names


def chapter_info(chapter_id: str) -> dict | None:
    """The entry of ``judou_apart.toml`` for one of its chapters."""
    return next((c for c in data.judou_apart() if c["id"] == chapter_id), None)


class ApartLines:
    """The structural lines of a front-matter or collation-notes file, by line number."""

    def __init__(self, source: Source, chapters: list[str]) -> None:
        self.items: dict[int, ApartLine] = {}
        infos = [chapter_info(c) for c in chapters]
        headings = {info["printed"]: info["id"] for info in infos if info}
        errata = any(info and info["layer"] == "errata" for info in infos)
        text = source.text
        for line in source.lines:
            offsets = [i for i in range(line.start, line.end) if not text[i].isspace() and text[i] != "\u3000"]
            if not offsets:
                continue
            compact = "".join(text[i] for i in offsets)
            large = compact.split("【", 1)[0]
            notes_only = NOTES.sub("", compact[len(large):]) == ""
            end = offsets[len(large) - 1] + 1 if large else offsets[0]
            if large in headings and notes_only:
                self.items[line.number] = ApartLine("heading", headings[large], offsets[0], end)
            elif errata and compact == large and fold(large) in _labels():
                self.items[line.number] = ApartLine("label", _labels()[fold(large)], offsets[0], end)
            elif kind := meta_kind(compact):
                self.items[line.number] = ApartLine(kind, "", line.start + _lead(text, line), _trail(text, line))

    def get(self, line: Line) -> ApartLine | None:
        return self.items.get(line.number)


def meta_kind(compact: str) -> str | None:
    """The meta kind of a front-matter line (without blanks) that one of the ``[[meta]]`` patterns
    of ``judou_apart.toml`` matches, its notes left out (siku, catalogue, credits); else None."""
    bare = NOTES.sub("", compact)
    return next((meta["kind"] for meta in data.judou_apart_meta() if re.search(meta["pattern"], bare)), None)


def _lead(text: str, line: Line) -> int:
    """How many blanks open the line."""
    n = 0
    while line.start + n < line.end and text[line.start + n].isspace():
        n += 1
    return n


def _trail(text: str, line: Line) -> int:
    """The line's end without its trailing blanks."""
    end = line.end
    while end > line.start and text[end - 1].isspace():
        end -= 1
    return end


@dataclass(frozen=True)
class FrontPart:
    """A part of a front matter under its own heading (卷首: 提要, 舊序, 目録, 劄子): the heading as
    printed, its [start, end) in the witness, and the segment layers that are 小字 in the part
    (None: every one)."""

    printed: str
    start: int
    end: int
    small: frozenset[str] | None


def front_parts(source: Source, work: str, chapter_id: str) -> tuple[list[FrontPart], list[str]]:
    """The ``parts`` of the chapter's entry in its work's table, each at the first line (after the
    part before) that opens with its heading; and the headings found nowhere."""
    found: list[FrontPart] = []
    missing: list[str] = []
    lines = iter(source.lines)
    for part in (data.chapter_of(work, chapter_id) or {}).get("parts", []):
        printed = part["printed"]
        for line in lines:
            offsets = [i for i in range(line.start, line.end) if not source.text[i].isspace()]
            if "".join(source.text[i] for i in offsets).startswith(printed):
                small = frozenset(part["small"]) if "small" in part else None
                found.append(FrontPart(printed, offsets[0], offsets[len(printed) - 1] + 1, small))
                break
        else:
            missing.append(printed)
    return found, missing


def relabel(chapters: list[Chapter], parts: list[FrontPart] | None = None) -> None:
    """Small characters in the front matter and the collation notes are 小字, not 郑注 or 郑目录:
    every segment of these chapters takes the layer ``small`` (its glosses stay: 捷初洽反); with
    ``parts``, a segment in a part that names its ``small`` layers only when it is of one of them."""
    parts = parts or []
    starts = [part.start for part in parts]

    def small(segment) -> bool:
        k = bisect_right(starts, segment.span[1]) - 1
        layers = parts[k].small if k >= 0 else None
        return layers is None or segment.layer in layers

    for chapter in chapters:
        segments = [*chapter.mulu]
        for section in chapter.sections:
            segments += section.title_notes
            for passage in section.passages:
                segments += passage.notes
        for segment in segments:
            if small(segment):
                segment.layer = SMALL


def label_chapter(label: str) -> str | None:
    """The chapter id of a 篇 label as printed (士昏禮 → shihun, 䘮服 → sangfu), or None."""
    return _labels().get(fold("".join(c for c in label if not c.isspace() and c != "\u3000")))
