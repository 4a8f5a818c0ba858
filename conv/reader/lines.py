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
MAX_TITLE = 24  # a title its layout does not mark (the 文渊阁 句读's indented title lines may be longer: seeds.py)


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


def _work_titles() -> str:
    """The works' printed titles, as a regular expression's alternatives."""
    return "|".join(re.escape(t) for w in data.works() for t in dict.fromkeys([w["title"], *w["titles"]]))


@cache
def _juan_pattern() -> re.Pattern:
    return re.compile(rf"^(?:{_work_titles()})?[卷巻]([{NUMERALS}]+)$")


@cache
def _trailing_juan_pattern() -> re.Pattern:
    return re.compile(rf"(?:{_work_titles()})[卷巻]([{NUMERALS}]+)$")


def trailing_juan(line: str) -> tuple[int, MetaLine] | None:
    """A 卷 line (the work's title and 卷) the transcription writes at the end of the 卷's last line
    of text (``…稱夫之父母為舅姑也儀禮經傳通解卷五``): where it begins, and the line."""
    match = _trailing_juan_pattern().search(line)
    if match is None or match.start() == 0:
        return None
    return match.start(), MetaLine("juan", chinese_number(match.group(1)))


def meta_line(line: str) -> MetaLine | None:
    """卷 lines (仪礼郑注句读卷五, 儀禮經傳通解巻十一, a bare 卷十四), 钦定四库全书, the author line
    (济阳张尔岐撰), the catalogue line <经部,…>."""
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


# 朱熹's 章句 (大學, 中庸): 右經一章, 右傳之首章, 右第十二章, then his remark on the 章
#: The mark that opens the 記 items after a title of the 通解: 記, once ○記 (投壺's 右作樂○記鼓…); the passages'
#: reader takes it as the section's 記 marker (``conv.parser.passages``).
JI_MARK = re.compile("○?[记記]")
_COMMENTARY_CHAPTER = re.compile(rf"右(?:经一章|传之[^章]{{1,3}}章|第[{NUMERALS}]+章)")


def title_length(line: str, marker: str, items: tuple[str, ...] = ("记",), circle: bool = False,
                 longest: int = MAX_TITLE) -> int | None:
    """Length of a section title opening a line (`右司射诱射`, `右饮不胜者【…】`, `记器具…`).

    The title runs to the line's end, to a note that ends the line, to U+3000, with ``circle`` (句读)
    to a ○ (the editor's remark on the 章 follows it on the title's lines, ``右主人酬尸○特牲及下…``;
    in the 通解 a ○ may be text: the drum score of 投壺), or (通解) to the
    first of ``items`` that opens what is filed under the section: its 记 items, and in the 文渊阁
    通解 its 传 (``右立世子傳曰…``) and 辭 (``右戒賓辭戒賓曰…``, ``右醮醮辭曰…``: a 辭 may open with
    the rite's name); there a 章句 title (``右第一章``) ends with its 章. ``longest``: the most characters a
    title may have (a line the layout marks as a title's: any). Returns None when the line is not a title line.
    """
    if not line.startswith(marker):
        return None
    end = len(line)
    for stop in ("【", "\u3000", "○") if circle else ("【", "\u3000"):
        index = line.find(stop)
        if index != -1:
            end = min(end, index)
    if marker == "右":
        found = [index - line.startswith("史记", index - 1) for index in (line.find(item, 1, end) for item in items)
                 if index != -1 and not line.startswith(("记补", "记传"), index)]  # 右女子笄雜記補: a source;
        # 右世子之記傳曰…, 右雜記傳孟子…: the 記 ends the title (records of the 世子), its 傳 follows; 右…之次史記聲數曰…:
        # 史記, the book the quotation filed under the title opens with, no 記 item
        if found:
            end = min(found)
            if line[end] == "辞" and end > 2 and line[end - 1] == line[1]:
                end -= 1  # 右醮醮辭曰, 右字冠者字辭曰: the 辭 opens with the rite's name
            elif (mark := JI_MARK.match(line, end - 1)) and mark.end() == end + 1:
                end -= 1  # 投壺's 右作樂○記鼓○□…: the ○ opens the 記 with it (JI_MARK)
        chapter = _COMMENTARY_CHAPTER.match(line) if "传" in items else None
        if chapter is not None and chapter.end() <= len(line):
            end = chapter.end()
    while end > 0 and line[end - 1] == " ":
        end -= 1  # the blanks after a gaiji's stand-in (``右嗣子長兄弟&KR0362;○…``) are the witness's markup
    if not 2 <= end <= longest:
        return None
    rest = line[end:].lstrip(" ")
    if rest.startswith("【"):
        close = rest.find("】")
        after = rest[close + 1 :].lstrip("\u3000 ") if close != -1 else ""
        filed = after.startswith(items) or "辞" in items and after[1:2] == "辞"  # 右醴冠者【…】醴辭曰
        if close == -1 or (after and not filed):
            return None  # 经 that happens to start with 右 and goes on after its note
    return end


#: 张尔岐's remark after a 章旨 on its line in the 文渊阁 句读 where no ○ marks it: 愚案…, 疏云… (a 疏 he quotes)
REMARK_MARKS = ("愚案", "愚按", "疏云")


def remark_start(title: str) -> int | None:
    """Where 张尔岐's remark begins inside a title line of the 句读 (右主人以下室中哭位｜愚案主人哭位…), or None."""
    found = [index for index in (title.find(mark, 3) for mark in REMARK_MARKS) if index != -1]
    return min(found) if found else None


MAX_TONGJIE_TITLE = 14  # the longest 章 title of the 文渊阁 通解: 右拾貳律隂陽辰位相生次第之圖


def tongjie_title(title: str) -> bool:
    """Can ``title`` (folded, from a line of the 文渊阁 通解 opening with 右) be a 章 title? Not when
    longer than any, nor when it names the left or the right again or the hand: 右執項左執前…,
    右袂獻粟者執右契…, 右手能言…, 右執挾匕… are the right hand or side in the 经, at the head of a
    column."""
    return (len(title) <= MAX_TONGJIE_TITLE and "左" not in title and "右" not in title[1:]
            and title[1:2] not in ("手", "执"))
