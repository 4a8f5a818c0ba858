"""The model (模型) of an edition: work → chapter → section → passage → notes (segments) → glosses.

Every element carries a span ``(seed, start, end)``: offsets into the decoded seed text, end
exclusive. ``text`` is that slice without markup characters (whitespace, 【】○ and U+3000);
``normalized`` is the reading text (``conv.normalize.fold``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Span = tuple[str, int, int]

MARKUP = frozenset("【】○\u3000")
TEXT_CHAR = re.compile(r"[^【】○\s]")  # a character of the witness's text (not markup)
MARKUP_CHAR = re.compile(r"[【】○\s]")  # its complement: what :func:`is_markup` says is markup


def is_markup(char: str) -> bool:
    """Markup characters (标记): not text of the witness; conservation skips them."""
    return char in MARKUP or char.isspace()


def text_char_offsets(source_text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The offsets of the text characters (本文字: not :func:`is_markup`) of ``source_text[start:end]``,
    found by one ``re`` pass (``TEXT_CHAR``'s ``\\s`` is ``str.isspace``)."""
    stop = len(source_text) if end is None else min(end, len(source_text))
    if MARKUP_CHAR.search(source_text, start, stop) is None:  # no markup (a passage's text): all of it
        return list(range(start, stop))
    found = TEXT_CHAR.finditer(source_text, start) if end is None else TEXT_CHAR.finditer(source_text, start, end)
    return [match.start() for match in found]


def text_chars(source_text: str, start: int, end: int) -> str:
    """The text characters (not markup) of ``source_text[start:end]``, as one string."""
    return "".join(match.group() for match in TEXT_CHAR.finditer(source_text, start, end))


def text_offsets(source_text: str, span: Span, text: str) -> list[int] | None:
    """The offset of each character of ``text``, the text characters (not markup) of ``span`` in
    ``source_text``; None when they are not ``text``."""
    _seed, start, end = span
    found = text_char_offsets(source_text, start, end)
    return found if len(found) == len(text) and all(source_text[o] == c for o, c in zip(found, text)) else None


def block_offsets(sources: dict, block) -> Sequence[int] | None:
    """The file offset of each character of a passage's or segment's text: a segment's own ``offsets``, else
    :func:`text_offsets` of its span in ``sources`` (file name → source); None when they are not its text."""
    source = sources.get(block.span[0])
    return getattr(block, "offsets", None) or (text_offsets(source.text, block.span, block.text) if source else None)


@dataclass
class Gloss:
    """One 音义 gloss (see ``conv.parser.glosses``) placed in its seed."""

    char: str
    kind: str
    upper: str | None
    lower: str | None
    sound: str | None
    text: str
    span: Span
    position: str | None = None  # the computed 广韵 position (音韵地位), e.g. 書開三支上
    positions: list[str] = field(default_factory=list)  # every candidate when upper/lower are ambiguous
    status: str | None = None  # conv.parser.phonology.STATUSES: "matches", "other reading", "suspect" …
    second: bool = False  # a second reading (又…反) of the gloss before it
    context: str | None = None  # 无射之射食亦反 → 无射
    definition: str | None = None  # 刌寸本反寸上声割也 → 寸上声割也
    scope: str | None = None  # 注同, 下同 …
    remark: str | None = None  # conv.parser.gloss_remarks: same-as (揃同翦), ancient-form (庿古廟字), authority (徐…) …
    related: str | None = None  # the character a remark relates it to (翦, 廟), or the authority (徐)
    note: str = ""  # how the position was found (e.g. 类隔), why it is not the character's
    alternatives: list[str] = field(default_factory=list)  # positions only a speller's other reading gives
    homophone: str = ""  # the 小韵 (its representative character) of a position not the character's
    restored: str = ""  # the gloss with the 文渊阁 forms of merged characters (个音幹), when any
    before: bool = False  # ``char`` is not printed in it: it stands right before the note (樂闋(苦穴反))


@dataclass
class Segment:
    """One commentary segment (注/疏/按/音义/郑目录) of a note."""

    layer: str
    text: str
    normalized: str
    span: Span
    glosses: list[Gloss] = field(default_factory=list)
    lacuna: str | None = None  # "start": the note's opening is lost; "end": it is cut off
    # seed offset of each text char: a range when they are contiguous (nearly always), else a list
    offsets: Sequence[int] = field(default_factory=list, repr=False)


@dataclass
class Cell:
    """One cell (格) of a printed column of a diagram (图): ``kind`` "pair" (a 双行 cell ``(醓醢/韭菹)``:
    ``halves`` right then left, as the transcription gives them; a half may be empty), "label" (large
    characters: ``席東正饌``, ``戸``; ``halves`` its one text) or "gap" (U+3000 blanks, a position left
    empty: ``size`` blanks, no text). ``span``: the cell in its seed, parentheses included."""

    kind: str
    halves: list[str]
    span: Span
    size: int = 0


@dataclass
class Column:
    """One printed column (行) of a diagram, its cells from the top down; ``line``: its line in the seed."""

    line: int
    span: Span
    page: dict | None
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Passage:
    """A stretch of 经 or 记 with its notes: the unit a reader cites."""

    id: str
    layer: str  # "jing" | "ji"
    text: str
    normalized: str
    span: Span
    notes: list[Segment] = field(default_factory=list)
    lacuna: str | None = None  # "start": the 经 before the first note is lost
    kept: str = ""  # characters its normalized text keeps unfolded (郑注 distinguishes them: 竝)
    # a character it keeps unfolded at some of its occurrences only (a reviewed place of conv/data/senses.toml):
    # the character → the ordinals kept, 1-based, in reading order over its text and then its notes
    kept_at: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # a character its sense reads in a form other than its own and other than the fold (閒 → 间, not 闲):
    # everywhere in the passage, or at its kept_at ordinals only
    forms: dict[str, str] = field(default_factory=dict)
    witness: str = "seed"  # the transcription its text comes from: "seed" (录入本) | "kanripo" (文渊阁本)
    page: dict | None = None  # the 文渊阁 page where it starts: {"juan": 5, "leaf": 15, "side": "b"}
    joined: str | None = None  # the 底本 changes before it: the witness it comes from (conv.edition.joins)
    columns: list[Column] = field(default_factory=list)  # layer "figure" (图): its printed columns, right to left
    caption: str = ""  # layer "figure": the caption of conv/data/diagrams.toml
    on_marker: str = ""  # no words: its notes are on the 记 mark before it (通解 右納采記(疏曰凡言記者…)): 記


@dataclass
class Section:
    """A section (章) ending with its title (章旨, `右…` / `记…`); 通解 files 记 items after it."""

    id: str
    title: str | None
    title_span: Span | None
    passages: list[Passage] = field(default_factory=list)
    title_notes: list[Segment] = field(default_factory=list)
    marker: str | None = None  # "右" or "记"
    ji_marker: "Meta | None" = None  # 通解: the 记 that opens the 记 items filed after the title
    witness: str = "seed"  # the transcription of its title (as Passage.witness)
    page: dict | None = None  # the 文渊阁 page its title stands on
    title_joined: str | None = None  # the 底本 changes before its title: the title's witness


@dataclass
class Meta:
    """A metadata line (卷 line, 钦定四库全书, author, catalogue) or a 记 marker."""

    kind: str
    text: str
    span: Span


@dataclass
class Chapter:
    """A chapter (篇) of one work, possibly assembled from several seeds."""

    id: str
    title: str
    number: int
    sections: list[Section] = field(default_factory=list)
    meta: list[Meta] = field(default_factory=list)
    heading: str | None = None  # the printed chapter title line, e.g. 燕礼第六
    heading_span: Span | None = None
    mulu: list[Segment] = field(default_factory=list)
    seeds: list[str] = field(default_factory=list)
    # items in reading order: ("meta", Meta) | ("heading", None) | ("section", Section) | ("lacuna", kind)
    order: list[tuple[str, Any]] = field(default_factory=list)
    part: str | None = None  # 通解: the part (门) it stands in, an id of conv/data/tongjie_chapters.toml
    lost: str | None = None  # a 篇 the book lacks: the witness's words (此一篇原闕) or why it is shown empty
    page: dict | None = None  # the 文渊阁 page of its title line (heading_span), in a paged transcription


@dataclass
class Work:
    """A work (著作): 句读 or 通解."""

    id: str
    title: str
    title_spans: list[Span] = field(default_factory=list)
    chapters: list[Chapter] = field(default_factory=list)


@dataclass
class Edition:
    """The whole conversion: works plus what was dropped, the apparatus and the problems."""

    works: list[Work] = field(default_factory=list)
    dropped: list[dict] = field(default_factory=list)
    apparatus: list[dict] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)
    sources: dict = field(default_factory=dict)  # seed name → conv.reader.source.Source
    redirects: list[dict] = field(default_factory=list)  # old anchor → where it lands (conv.anchors.assign)
    anchors: Any = field(default=None, repr=False)  # conv.anchors.assign.Outcome: how anchors were assigned
    collations: dict = field(default_factory=dict, repr=False)  # seed → conv.edition.collation.SeedCollation
    parallels: list[dict] = field(default_factory=list)  # 互见: links across and within works (conv.edition.parallels)
    catalogue: list[dict] = field(default_factory=list)  # the 通解's 目録 linked to its 篇 (conv.edition.catalogue)
