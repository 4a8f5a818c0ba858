"""Segments (分段): a note's text split into commentary segments and each given its layer.

A note arrives as units: runs of text characters (with their seed offsets) between separators
(○ in 句读, U+3000 in 通解). A 疏曰/疏云 with no separator before it also starts a segment
(``split_shu``): anywhere in 通解, after the first ○ in 句读 (张尔岐 ends a remark with a quotation
of 贾疏: …凡五节疏云周礼太仆职云…); never where it names the 疏 of another place (彼处疏云…,
inside the editor's argument).

Layers, 句读 (张尔岐):
  the unit before the first ○ → ``zhu`` (郑注); after a ○: 疏云/疏曰… → ``shu``; 愚案… → ``an``;
  a run of glosses → ``yin``, also one that opens with a sure gloss and goes on with a tail the
  gloss grammar cannot read (膊音纯又説文之允反: the tail stays with it and is reported);
  anything else → ``an`` (张尔岐's unmarked remark).
Layers, 通解 (朱熹):
  the name of the book or 篇 a paragraph is taken from (列女傳, 並文王世子: ``conv.parser.sources``) → ``chu``
  (出处); 疏曰/疏云… → ``shu``; 今按… (按, 又按, 今案, 今詳) or a quoted scholar (刘敞云…) → ``an``; a run of glosses → ``yin``,
  also one whose first reading prints no character, at a note's start right after the character
  it glosses (樂闋(苦穴反)), and one that opens with a gloss and is glosses for the most part (the
  释文 with forms the grammar cannot read, which are reported: ``_mostly_glosses``); anything else →
  ``zhu`` (郑注, and 郑注 continued after a gloss run).
A chapter title's note: its first unit → ``mulu`` (郑目录), the rest as above; in the 通解, whose
篇 titles carry other notes too (``大學(大舊音泰今讀如字)``), only a unit opening with 鄭目録.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from conv.parser import collation_notes, gloss_edges, gloss_remarks, glosses, scholars, sources

#: 疏曰 … (贾疏), and 孔颖达's 正義曰 where the 通解 quotes it by that name (保章氏: …)正義¶(曰…)
SHU_MARKS = ("疏云", "疏曰", "疏又云", "疏又曰", "正義曰", "孔疏曰", "孔疏云",  # 孔穎達's 疏 (the 通解's 冠義)
             "䟽曰", "䟽云")  # 䟽, the 文渊阁's other form of 疏 (士冠禮 䟽曰某甫者…)
SHU_AUTHOR = "孔"  # …衮字之誤｜孔疏曰諸侯尚四加…: the name before a 疏's head is the head's
AN_MARKS_JUDOU = ("愚案", "愚按")
#: the 通解's own remarks (朱熹, his continuators): a note that opens 今按, or 按, 又按, 今案, 今詳 (按忖亦作刌…,
#: 今詳注文罍下及字恐誤); not 案, which opens 疏's own sentences (案冬官畫繢之事云…)
AN_MARKS_TONGJIE = ("今按", "愚按", "愚案", "按", "又按", "今案", "今詳")


@dataclass(slots=True)
class Unit:
    """Text characters of one segment: the string and each character's seed offset (a ``range``
    when the characters are contiguous in the seed, as they nearly always are; else a list)."""

    text: str
    offsets: Sequence[int]
    ordinal: int = 0  # how many separators precede it in its note (句读: 0 = before the first ○)


BARE_MARKS = ("疏曰", "疏云", "䟽曰", "䟽云")
#: the 文渊阁 通解 writes no separator inside its notes: every head starts a segment; 疏又曰 too (鄉飲酒禮's
#: 今按…之别也｜疏又曰云揖讓如初升者…), not 疏又云, which 朱熹's 按 argues with (…然釋文無音疏又云有臑肫…)
WITNESS_MARKS = (*BARE_MARKS, "疏又曰", "今按", "愚按", "愚案", "今詳")
#: 今按 and at most so many characters before a 疏's head: 朱熹's 按 quotes the 疏 (今按賈疏云…, 今按此疏云…, 今按檀弓孔疏云…,
#: 今按諸辭本總見經後故疏云耳…), unless those characters close on a reference (今按説見鄉飲酒篇｜疏曰…, …見前即位章｜疏曰…)
AN_QUOTES, AN_CLOSED = 10, ("篇", "章")
#: 郑目录 as the 通解 prints it on a 篇 title (鄭目録曰, 鄭注目録云, 鄭𤣥目録曰)
MULU_MARK = re.compile(r"鄭(?:注|𤣥|玄)?目[録錄]|郑(?:注|玄)?目录")
REFERENCES = ("彼处",)  # before 疏云: the 疏 of another place, named inside an argument


def split_shu(units: list[Unit], layout: str, marks: tuple[str, ...] = BARE_MARKS) -> list[Unit]:
    """Start a new unit at every 疏曰/疏云 (every one of ``marks``: the 文渊阁 通解's heads) that does
    not already open one: in 通解 anywhere, in 句读 after the first ○; not after 彼处 (see the module
    docstring)."""
    out: list[Unit] = []
    for unit in units:
        cuts = [0]
        for mark in marks if layout == "tongjie" or unit.ordinal > 0 else ():
            index = unit.text.find(mark, 1)
            while index != -1:
                if not unit.text.endswith(REFERENCES, 0, index) and not _quoted_by_an(unit.text, index):
                    cuts.append(index - (unit.text[index - 1] == SHU_AUTHOR))
                index = unit.text.find(mark, index + 1)
        if len(cuts) == 1:  # nothing to split (the usual case)
            out.append(unit)
            continue
        cuts = sorted(set(cuts)) + [len(unit.text)]
        for a, b in zip(cuts, cuts[1:]):
            if a < b:
                out.append(Unit(unit.text[a:b], unit.offsets[a:b], unit.ordinal))
    return out


def _quoted_by_an(text: str, index: int) -> bool:
    """Is the 疏's head at ``index`` in the words of a 今按 that quotes it (``AN_QUOTES``)?"""
    an = text.rfind("今按", max(0, index - 2 - AN_QUOTES), index)
    return an != -1 and not text.endswith(AN_CLOSED, 0, index)


def classify(units: list[Unit], layout: str, mulu: bool = False, runs: dict | None = None,
             before: str = "", lemmas: str = "") -> list[str]:
    """The layer of each unit (see the module docstring).

    ``runs``, when given, receives the parsed glosses of each unit found to be a gloss run
    (index → ``glosses.gloss_run``), so that they need not be parsed again. ``before``: the
    character right before the note in the witness; in the 通解 a note that opens with a reading
    printed without its character glosses it (樂闋(苦穴反): ``gloss_edges.gloss_run_after``).
    ``lemmas``: the text the note follows, its 经, whose characters its first unit's glosses may read
    (``_mostly_glosses``).
    """
    layers = []
    for index, unit in enumerate(units):
        text = unit.text
        if mulu and (index == 0 if layout == "judou" else MULU_MARK.match(text) is not None):
            layers.append("mulu")
        elif text.startswith(SHU_MARKS):
            layers.append("shu")
        elif layout == "judou":
            if unit.ordinal == 0:
                layers.append("zhu")
            elif text.startswith(AN_MARKS_JUDOU):
                layers.append("an")
            elif _gloss_run(text, index, runs) or _opens_with_gloss(text, index, runs):
                layers.append("yin")
            else:
                layers.append("an")
        else:
            if sources.is_source(text):
                layers.append(sources.LAYER)
            elif text.startswith(AN_MARKS_TONGJIE) or scholars.quoted(text):
                layers.append("an")
            elif collation_notes.opens(text):
                layers.append(collation_notes.LAYER)  # (朱熹's 校语 in 月令: 吕唐齊皆作齋淮無是月至此一節)
            elif _gloss_run(text, index, runs) or (index == 0 and before and _gloss_run(text, index, runs, before)) \
                    or _reading_goes_on(text, index, runs, layers) \
                    or _mostly_glosses(text, index, runs, lemmas if index == 0 else ""):
                layers.append("yin")
            elif index and layers[-1] == collation_notes.LAYER and collation_notes.goes_on(units[index - 1].text, text):
                layers.append(collation_notes.LAYER)  # 校语 the parentheses cut: …淮無慎盖字)(屋作居無以固至沮泄八字…
            else:
                layers.append("zhu")
    return layers


def _opens_with_gloss(text: str, index: int, runs: dict | None) -> bool:
    """A unit that opens with a sure gloss (``gloss_edges.opening_gloss``) and goes on with what the
    grammar cannot read: an 音义 whose tail is reported (``runs`` gets ``parse_run(text)``)."""
    if gloss_edges.opening_gloss(text) is None:
        return False
    if runs is not None:
        runs[index] = glosses.parse_run(text)
    return True


#: The share of a 通解 unit's characters its glosses must hold for it to be 音义 with pieces unread.
MOSTLY = 0.6


def _mostly_glosses(text: str, index: int, runs: dict | None, lemmas: str = "") -> bool:
    """A 通解 unit that opens with glosses the grammar reads as 音义 with something unread after them: glosses for the
    most part (``MOSTLY`` of its characters, two glosses at least, the first plausible or reading a character of the
    经 the note follows, ``lemmas``: 椸羊支反…, 椸 the 《广韵》 lacks: ``gloss_edges.reads_the_jing``, unless glosses the
    注 goes on after open it: 說他活反養羊尚反｜言常在側, ``gloss_edges.leading``), the 释文 quoted with forms
    the grammar does not read (雛字又作鶵仕俱反又匠俱反燒如), or glosses through and through up to words of 郑注
    (鄉去聲｜方猶道也, 辠本亦作罪衺似嗟反｜衺猶惡也: ``gloss_remarks.zhu_phrase_at``), which are cut off after them;
    its unread pieces are reported (``runs`` gets ``parse_run(text)``)."""
    if not glosses.opens_with_gloss(text):
        return False
    parsed = glosses.parse_run(text)
    found, unparsed = parsed
    if not found or found[0].start != 0:
        return False
    first = glosses.plausible(found[0]) or gloss_edges.reads_the_jing(found[0], text, lemmas) and not gloss_edges.leading(text)
    mostly = len(found) >= 2 and first and sum(g.end - g.start for g in found) >= MOSTLY * len(text)
    then_zhu = unparsed == [(found[-1].end, len(text))] and gloss_remarks.zhu_phrase_at(text, found[-1].end)
    if not (mostly or then_zhu):
        return False
    if runs is not None:
        runs[index] = parsed
    return True


def _reading_goes_on(text: str, index: int, runs: dict | None, layers: list[str]) -> bool:
    """A unit of readings printed without their character right after a 音义 unit: more readings of the
    character that unit's last gloss reads (臣禮 …今云呫嘗膳)呫音貼他篋反: 他篋反, a run of its own in
    conv/data/note_runs.toml, reads 呫 again)."""
    parsed = runs.get(index - 1) if runs is not None and index and layers[-1] == "yin" else None
    return bool(parsed and parsed[0]) and _gloss_run(text, index, runs, parsed[0][-1].char)


def _gloss_run(text: str, index: int, runs: dict | None, before: str = "") -> bool:
    """Is ``text`` a run of glosses (with ``before``: one whose first prints no character, glossing
    ``before``)? Its parse goes into ``runs``."""
    parsed = gloss_edges.gloss_run_after(text, before) if before else glosses.gloss_run(text, joined=True)
    if parsed is None:
        return False
    if runs is not None:
        runs[index] = parsed
    return True
