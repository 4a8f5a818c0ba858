"""The 目録 of the 通解's 卷首 (卷首目録) linked to the 篇 it names.

The 卷首 (``KR1d0085_000``) prints, after the 提要 and the prefaces, the book's 目録 (from 卷首叶四b):
for each 篇 a title line — ``士冠禮第一``, ``冠義第二家禮一之下``, later, under 儀禮集傳集註目録, with
no number: ``覲禮王朝禮一之上`` — with its 鄭目録 and 疏. The converter reads each passage of it
(the section titled ``opens`` of ``conv/data/catalogue.toml``, up to the passage ``closes``), each piece of
it that opens a line of the witness — each title line does, also inside a passage whose prose
runs into it (…附之¶士相見義第十鄉禮一之下); the prose's own 第三 stands mid-line — as a title line
(:func:`read_line`: TITLE, 第N, the part label, the last two optional) and looks TITLE up
(:func:`match_line`) among

- the 篇's own titles, as their files print them (``Chapter.heading``, less a 第N it may carry:
  ``朝事義第四十四``; a 篇 printed nowhere, 卜筮, by its ``printed`` title in ``tongjie_chapters.toml``),
- the ``[[alias]]`` entries of ``catalogue.toml``, each with its reason, where the 目録 writes the
  title otherwise (昬義 for 昏義, 大射禮 for 大射儀).

A title found once, whose 第N and label (when printed) are that 篇's, is a link: the converter
(``conv.myst.chapter``) writes ``{yl:cite}`士冠禮第一 <tongjie-shiguan>``` around the title and its
number — the witness's characters, nothing added — and Sphinx resolves it to the chapter. A lost
篇 links to its page, which says it is lost (書數: 此一篇原闕; 卜筮, printed nowhere: the 目録 gives it
and a small 缺), and its entry says so (``lost``); a 篇 not in the edition links nowhere, and its
entry says why (``why``). Two 篇 with one title, a number or label that is not the 篇's, a
numbered or labelled line that names no 篇: a problem at the line (``catalogue-ambiguous``,
``catalogue-number``, ``catalogue-label``, ``catalogue-unmatched``), never a guess.

``Edition.catalogue`` holds one entry per title line, in the 目録's order (the dump's top-level
``catalogue``): ``{work, passage, page (the passage's 文渊阁 page), at (the index of ``text`` in the
passage's), text, span, chapter, anchor, number, alias, why, lost}``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from conv import datafiles as data
from conv.errors import ConversionError
from conv.model.tree import Chapter, Edition, Passage, Work, text_offsets

NUMERAL = "一二三四五六七八九十百"
_NUMBER = re.compile(f"第([{NUMERAL}]+)$")


@dataclass(frozen=True)
class Book:
    """What the 目録's lines are matched against: title form → the 篇 (ids) printing it, each
    篇's number and part label, the parts' printed names (家禮 …), the aliases' reasons and why a
    篇 links nowhere."""

    titles: dict[str, tuple[str, ...]]
    numbers: dict[str, int]
    labels: dict[str, str]
    parts: tuple[str, ...]
    aliases: dict[str, str] | None = None  # printed form → reason
    unlinked: dict[str, str] | None = None  # chapter id → why it links nowhere
    lost: dict[str, str] | None = None  # chapter id → its note that it is lost (此一篇原闕), for a lost 篇


class Reading(NamedTuple):
    """A 目録 line read as a title line: the linked ``text`` (title and 第N), its ``title``,
    ``number`` (None when not printed) and part ``label`` ("" when not printed)."""

    text: str
    title: str
    number: int | None
    label: str


class Match(NamedTuple):
    """What a title line names: its ``reading``, the ``chapter`` (None: no link), the alias's
    reason, or a ``problem`` kind and its ``message``."""

    reading: Reading
    chapter: str | None
    alias: str = ""
    problem: str = ""
    message: str = ""


def number_value(numeral: str) -> int:
    """``二十六`` → 26 (the 目録's numbers, up to 九十九)."""
    digits = {c: i for i, c in enumerate("〇一二三四五六七八九")}
    if "十" not in numeral:
        return digits[numeral]
    tens, _, units = numeral.partition("十")
    return (digits[tens] if tens else 1) * 10 + (digits[units] if units else 0)


def _pattern(book: Book) -> re.Pattern:
    parts = "|".join(map(re.escape, book.parts))
    return re.compile(f"(?P<title>[^\\x00-\\x7f]+?)(?:第(?P<number>[{NUMERAL}]+))?"
                      f"(?P<label>(?:{parts})[{NUMERAL}]+(?:之[上下])?)?")


def read_line(text: str, book: Book) -> Reading | None:
    """``text`` as a title line, or None when it is none: a known title alone, or any title with
    its 第N or part label (the 目録's prose — 此小戴記第四十三篇… — ends in neither)."""
    found = _pattern(book).fullmatch(text)
    if found is None:
        return None
    title, numeral, label = found["title"], found["number"], found["label"] or ""
    if not numeral and not label and title not in book.titles:
        return None
    linked = title + (f"第{numeral}" if numeral else "")
    return Reading(linked, title, number_value(numeral) if numeral else None, label)


def match_line(text: str, book: Book) -> Match | None:
    """The 篇 the 目録 line ``text`` names (see the module docstring); None: not a title line."""
    reading = read_line(text, book)
    if reading is None:
        return None
    chapters = book.titles.get(reading.title, ())
    alias = (book.aliases or {}).get(reading.title, "")
    if not chapters:
        return Match(reading, None, alias, "catalogue-unmatched",
                     f"the 目録 line {text} names no 篇 of the edition: add an [[alias]] to "
                     "conv/data/catalogue.toml if it writes a title otherwise than the 篇's head")
    if len(chapters) > 1:
        return Match(reading, None, alias, "catalogue-ambiguous",
                     f"the 目録 line {text}: {len(chapters)} 篇 have the title {reading.title} "
                     f"({', '.join(chapters)}): settle it with an [[alias]] in conv/data/catalogue.toml")
    chapter = chapters[0]
    if reading.number is not None and reading.number != book.numbers.get(chapter):
        return Match(reading, None, alias, "catalogue-number",
                     f"the 目録 line {text} numbers {reading.title} {reading.number}, the 篇 {chapter} is "
                     f"number {book.numbers.get(chapter)} in conv/data/tongjie_chapters.toml: check both")
    if reading.label and reading.label != book.labels.get(chapter):
        return Match(reading, None, alias, "catalogue-label",
                     f"the 目録 line {text} puts {reading.title} in {reading.label}, the 篇 {chapter} is "
                     f"{book.labels.get(chapter)} in conv/data/tongjie_chapters.toml: check both")
    return Match(reading, chapter, alias)


def title_of(chapter: Chapter, printed: str) -> str:
    """A 篇's title as its own file prints it (its head, less a 第N), or ``printed`` (the data's)
    for a 篇 printed nowhere."""
    return _NUMBER.sub("", chapter.heading) if chapter.heading else printed


def book_of(work: Work, table: dict) -> Book:
    """The :class:`Book` of ``work``'s chapters in the edition; the 篇 of ``tongjie_chapters.toml``
    not in it are known by their printed titles and link nowhere."""
    rows = {row["id"]: row for row in data.chapters_of(work.id) if row.get("number")}
    titles: dict[str, list[str]] = {}
    unlinked: dict[str, str] = {}
    present = {c.id: c for c in work.chapters}
    for chapter_id, row in rows.items():
        chapter = present.get(chapter_id)
        title = title_of(chapter, row["printed"]) if chapter is not None else _NUMBER.sub("", row["printed"])
        titles.setdefault(title, []).append(chapter_id)
        if chapter is None:
            unlinked[chapter_id] = "not in this edition"
    aliases = {}
    for alias, line in zip(table.get("alias", []), data.catalogue_alias_lines()):
        if set(alias) != {"printed", "chapter", "reason"} or alias["chapter"] not in rows or not alias["reason"]:
            raise ConversionError(data.display(data.CATALOGUE), line, 1,
                                  f"an [[alias]] needs printed, chapter (a 篇 of conv/data/tongjie_chapters.toml) "
                                  f"and a reason, and nothing else: {alias}", "fix the entry")
        titles.setdefault(alias["printed"], []).append(alias["chapter"])
        aliases[alias["printed"]] = alias["reason"]
    return Book({t: tuple(ids) for t, ids in titles.items()}, {i: r["number"] for i, r in rows.items()},
                {i: r.get("label", "") for i, r in rows.items()},
                tuple(part["printed"] for part in data.tongjie_parts()), aliases, unlinked,
                {i: c.lost for i, c in present.items() if c.lost})


def lines(chapter: Chapter, opens: str, closes: str) -> list[Passage]:
    """The passages of the section of ``chapter`` titled ``opens`` up to the one reading ``closes``."""
    section = next((s for s in chapter.sections if s.title == opens), None)
    out: list[Passage] = []
    for passage in section.passages if section is not None else ():
        if passage.text == closes:
            break
        out.append(passage)
    return out


def line_pieces(source, text: str, offsets: list[int]) -> list[tuple[int, str]]:
    """The pieces of a passage's ``text`` that open a line of the witness, each with its index in
    ``text``: a title line can stand inside a passage (the prose before it has no note to end
    it: …附之¶士相見義第十鄉禮一之下¶)."""
    out: list[tuple[int, str]] = []
    start = 0
    lines = [source.position(offset) for offset in offsets]
    for end in range(1, len(text) + 1):
        if end == len(text) or lines[end][0] != lines[start][0]:
            if lines[start][1] == 1:
                out.append((start, text[start:end]))
            start = end
    return out


def link(edition: Edition) -> None:
    """Fill ``edition.catalogue`` and report its problems (the module docstring)."""
    table = data.catalogue()
    where = table["catalogue"]
    work = next((w for w in edition.works if w.id == where["work"]), None)
    front = next((c for c in work.chapters if c.id == where["chapter"]), None) if work else None
    if front is None:
        return
    book = book_of(work, table)
    for passage in lines(front, where["opens"], where["closes"]):
        source = edition.sources[passage.span[0]]
        offsets = text_offsets(source.text, passage.span, passage.text)
        for at, piece in line_pieces(source, passage.text, offsets) if offsets else ():
            found = match_line(piece, book)
            if found is not None:
                _add(edition, work, book, passage, at, offsets, found)


def _add(edition: Edition, work: Work, book: Book, passage: Passage, at: int, offsets: list[int],
         found: Match) -> None:
    """The entry (or the problem) of one title line, ``found`` at index ``at`` of ``passage``."""
    seed = passage.span[0]
    if found.problem:
        line, col = edition.sources[seed].position(offsets[at])
        edition.problems.append({"seed": seed, "line": line, "col": col, "kind": found.problem,
                                 "message": found.message})
        return
    text = found.reading.text
    why = (book.unlinked or {}).get(found.chapter)
    edition.catalogue.append({
        "work": work.id, "passage": passage.id, "page": passage.page, "at": at, "text": text,
        "span": [seed, offsets[at], offsets[at + len(text) - 1] + 1],
        "chapter": found.chapter, "anchor": None if why else f"{work.id}-{found.chapter}",
        "number": book.numbers.get(found.chapter), "alias": found.alias or None, "why": why,
        "lost": (book.lost or {}).get(found.chapter),
    })
