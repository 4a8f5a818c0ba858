"""Source attributions (出处): the book or 篇 朱熹 took a paragraph of the 通解 from.

The 通解 is an anthology: after a paragraph it names its source in small characters, ``(列女傳)``,
``(並文王世子)``, ``(以上玉藻)``. The transcription often leaves the name outside the parentheses,
at the paragraph's end (``…疾止復故(自若常也)曲禮¶``, ``…待作侍)大戴記右胎教¶``); read as the
parentheses say, it would be a passage of 经 of its own. A note, or a run right after a note with
nothing after it on the line but a 右 title (or a note of 朱熹's 今按), whose whole text is a title of ``conv/data/sources.toml``
(after one of its prefixes, 並 以上 已上; compared folded), or a 春秋 傳 named with its year (僖公三十三年春秋左氏傳), is one: its layer is ``chu`` (出处)
(``conv.parser.segments.classify``), and ``conv.parser.unbracketed`` puts such a run in the note
before it, as a segment of its own.
"""
from __future__ import annotations

import re
from functools import cache

from conv import datafiles as data
from conv.errors import ConversionError
from conv.normalize import fold
from conv.parser import scholars

LAYER = "chu"  # the segment layer of a source attribution (出处)
TITLE_MARK = "右"  # a 章 title may follow the attribution on its line (…大戴記右胎教¶)
REMARKS = ("今按", "按")  # 朱熹's remark may follow it in a note of its own (…)哀公問(今按此一章…), or a scholar's


@cache
def _table() -> tuple[tuple[str, ...], frozenset[str]]:
    table = data.sources()
    return tuple(table["prefixes"]), frozenset(fold(title) for title in table["titles"])


@cache
def _glued() -> tuple[tuple[str, str], ...]:
    """``sources.toml``'s sources glued to a note's last words: (the last words, the source) of each; an entry
    that is not ``words|source`` stops the conversion at its line."""
    out = []
    for entry in data.sources()["glued"]:
        words, bar, source = entry.partition("|")
        if not (words and bar and source and is_source(source)):
            line = data.line_of("sources.toml", f'"{entry}"', "glued = [")  # the entry's line, else the list's
            raise ConversionError(data.display(data.DATA_DIR / "sources.toml"), line, 1, f"glued source {entry!r} is not "
                                  "the note's last words, a bar and a title of the list",
                                  'write it as "words|title" with a title of `titles`')
        out.append((words, source))
    return tuple(out)


@cache
def _dated() -> re.Pattern:
    """A book named with the year of its entry, after it (僖公三十三年春秋左氏傳, 十五年左氏傳) or before it (左氏宣公二年,
    通鑑赧王三十一年): ``sources.toml``'s reigns, eras, dated books and books named first."""
    table = data.sources()

    def either(words: list[str]) -> str:
        return "|".join(map(re.escape, sorted(words, key=len, reverse=True)))

    reigns, year = either(table["reigns"]), "[元一二三四五六七八九十]+年"
    return re.compile(f"(?:{reigns})?{year}(?:{either(table['dated'])})"
                      f"|(?:{either(table['named_first'])})(?:{either(table['reigns'] + table['eras'])})?{year}")


def is_source(text: str) -> bool:
    """Whether ``text`` is a source attribution: a title, after prefixes (以上並玉藻), or a book with a year (左氏宣公二年)."""
    prefixes, titles = _table()
    while True:
        if fold(text) in titles or _dated().fullmatch(text):
            return True
        prefix = next((p for p in prefixes if text.startswith(p) and len(text) > len(p)), None)
        if prefix is None:
            return False
        text = text[len(prefix):]


def closing(text: str) -> int | None:
    """Where a source attribution closing a note's words begins (…故也以上曲禮, …學之謂也祭義): the
    longest ending that is one, opening with a prefix or right after 也 (not 注見少儀, 說見内則:
    the note points there), or one of the places ``sources.toml`` lists as glued to the note's last words
    (…未合於道玉藻); None when there is none, or the note is nothing else."""
    prefixes, _ = _table()
    glued = next((len(text) - len(source) for words, source in _glued() if text.endswith(words + source)), None)
    if glued is not None:
        return glued
    for start in range(1, len(text) - 1):
        ending = text[start:]
        if (ending.startswith(prefixes) or text[start - 1] == "也") and is_source(ending):
            return start
    return None


CUT_REASON = ("the run right after a note and the whole note after it make the name of a book or 篇 "
              "(conv/data/sources.toml): 朱熹's source, printed small in the book, cut by the transcription's parentheses")


def cut_title(run: str, text: str, at: int) -> str | None:
    """The source a run and the whole note opening at ``at`` (its 【 passed) make together (…其服)玉(藻)¶:
    the parentheses cut 玉藻 in two), else None."""
    end = text.find("】", at)
    rest = text[at:end] if end > 0 else ""
    return run + rest if rest and "【" not in rest and is_source(run + rest) else None


#: What a title that opens a run must not be followed by to be the source of the paragraph before: the words of a
#: quotation (曲禮曰…, 樂記云…) or of a title that goes on (學記之言…).
QUOTING = "曰云之"
LONGEST = 16  # the most characters a source with its prefixes may have (以上並國語周語, 成公八年春秋左氏傳: 9)


@cache
def _openers() -> frozenset[str]:
    return frozenset(fold(title) for title in data.sources().get("may_open_text", ()))


def opening_run(run: str) -> int:
    """How many characters of a run right after a note, which goes on after them, are the source of the paragraph
    before (…(疏曰…)玉藻聽於無聲視於無形(…: 玉藻, printed small at the paragraph's end, the next paragraph after it on
    the line): the longest opening that is a source, unless it is one of ``may_open_text`` (大行人掌大賓之禮…) or the
    words of a quotation follow it (曲禮曰…, 白虎通義曰…); 0 when none."""
    for end in range(min(len(run) - 1, LONGEST), 1, -1):
        head = run[:end]
        if is_source(head):  # the longest (白虎通義曰…: a quotation, not 白虎通 and 義曰…)
            return end if run[end] not in QUOTING and fold(head) not in _openers() else 0
    return 0


def _remark_opens(following: str) -> bool:
    """Does the note after a source open with 朱熹's 按 or with a scholar he quotes (…)曲禮(陳祥道云…)?"""
    return following.startswith(REMARKS) or scholars.quoted(following)


def ending_run(run: str, following: str = "") -> int:
    """How many characters of a run right after a note are a source attribution that ends the
    paragraph: the whole run, or the run up to a 右 title after it; 0 when none. ``following``: the
    opening of the note right after the run, if one follows: only 朱熹's 按 or a scholar's words may (…)哀公問(今按…)."""
    if following:
        return len(run) if _remark_opens(following) and is_source(run) else 0
    if is_source(run):
        return len(run)
    at = run.find(TITLE_MARK, 1)
    return at if at > 0 and is_source(run[:at]) else 0
