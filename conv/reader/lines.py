"""Structural lines (结构行): recognising title, 卷, catalogue, chapter-title and section-title lines.

Each recogniser takes the line's text with indentation stripped and folded to simplified forms
(``conv.normalize.fold``, which keeps one character per character), so a traditional-character
seed is recognised the same way.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from conv import datafiles as data

NUMERALS = "〇零一二三四五六七八九十百"
MAX_TITLE = 24  # the longest section title in the witnesses has 14 characters


def chinese_number(text: str) -> int | None:
    """十五 → 15, 六 → 6, 一百二 → 102 (enough for 卷 and chapter numbers)."""
    digits = {c: i for i, c in enumerate("零一二三四五六七八九")}
    digits["〇"] = 0
    total, current = 0, 0
    for char in text:
        if char in digits:
            current = digits[char]
        elif char == "十":
            total += (current or 1) * 10
            current = 0
        elif char == "百":
            total += (current or 1) * 100
            current = 0
        else:
            return None
    return total + current


def work_for_title(line: str) -> dict | None:
    """The work whose title is exactly this line."""
    for work in data.works():
        if line in work["titles"] or line == work["title"]:
            return work
    return None


@dataclass(frozen=True)
class MetaLine:
    kind: str  # "juan", "siku", "author", "catalogue"
    number: int | None = None


@cache
def _juan_pattern() -> re.Pattern:
    titles = "|".join(re.escape(w["title"]) for w in data.works())
    return re.compile(rf"^(?:{titles})卷([{NUMERALS}]+)$")


def meta_line(line: str) -> MetaLine | None:
    """卷 lines, 钦定四库全书, the author line (济阳张尔岐撰), the catalogue line <经部,…>."""
    match = _juan_pattern().match(line)
    if match:
        return MetaLine("juan", chinese_number(match.group(1)))
    if line == "钦定四库全书":
        return MetaLine("siku")
    if line.startswith("<") and line.endswith(">"):
        return MetaLine("catalogue")
    if len(line) <= 10 and line.endswith("撰") and "【" not in line:
        return MetaLine("author")
    return None


@cache
def _longest_name() -> int:
    return max((len(chapter["name"]) for chapter in data.chapters()), default=0)


@dataclass(frozen=True)
class ChapterTitle:
    chapter: dict
    length: int  # characters of the printed title, e.g. 燕礼第六 → 4


def chapter_title(line: str) -> ChapterTitle | None:
    """`燕礼第六【郑目录云…】`: a chapter name, 第, its number, then only a note. A chapter's other
    printed names (既夕第十三) and what may follow the number (丧服第十一子夏传) come from
    ``conv/data/chapters.toml`` (``printed``, ``after``)."""
    if "第" not in line[: _longest_name() + 1]:  # no name + 第 can open the line
        return None
    for chapter in data.chapters():
        for name in (chapter["name"], *chapter.get("printed", ())):
            if not line.startswith(name + "第"):
                continue
            match = re.match(rf"{re.escape(name)}第([{NUMERALS}]+)", line)
            if not match:
                continue
            end = match.end()
            end += next((len(after) for after in chapter.get("after", ()) if line.startswith(after, end)), 0)
            if end == len(line) or line[end] == "【":
                return ChapterTitle(chapter, end)
    return None


def title_length(line: str, marker: str) -> int | None:
    """Length of a section title opening a line (`右司射诱射`, `右饮不胜者【…】`, `记器具…`).

    The title runs to the line's end, to a note that ends the line, to U+3000, or (通解) to the
    记 that opens the section's 记 items. Returns None when the line is not a title line.
    """
    if not line.startswith(marker):
        return None
    end = len(line)
    for stop in ("【", "\u3000"):
        index = line.find(stop)
        if index != -1:
            end = min(end, index)
    if marker == "右":
        ji = line.find("记", 1, end)
        if ji != -1:
            end = ji
    if not 2 <= end <= MAX_TITLE:
        return None
    rest = line[end:]
    if rest.startswith("【"):
        close = rest.find("】")
        after = rest[close + 1 :] if close != -1 else ""
        if close == -1 or (after.strip("\u3000 ") and not after.lstrip("\u3000 ").startswith("记")):
            return None  # 经 that happens to start with 右 and goes on after its note
    return end
