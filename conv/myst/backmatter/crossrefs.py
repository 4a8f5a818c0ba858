"""Cross-references between entries of the 校勘记 (互注): entries about one place cite each other.

An entry of the difference between the two works (异文, kind ``parallel``) says what each prints;
other entries at the same place judge one of the readings, and each pair is cited both ways so
that neither reads alone:

- a **misprint of the words** (讹字, ``misprint`` with ``words``: the edition reads it right): the
  difference is the misprint's (句读 孔于曰, 通解 孔子曰) — “于”为讹字，见… / 二本之异见…;
- a note of 张尔岐's **监本正误** or **石本误字** whose 监本/石本 reading the 通解 prints too (嘗誤作常, and the
  通解 prints 常; 脱肫字, and the 通解 has no 肫; 揖退二字之間羨一還字, and the 通解 has 還):
  通解本与监本同，张尔岐以为误，见… / 通解本与监本同，见…. The match is exact: the two readings of the
  difference, folded, are the note's right and wrong ones (the characters where they differ), at a place
  of the note's lemma.

Entries are those of ``apparatus.Apparatus``, numbered (``id``, ``label``, ``locus``), with their
records (``record``).
"""
from __future__ import annotations

import re

from conv import datafiles as data
from conv.myst.backmatter.locator import KIND_NAMES
from conv.myst.escape import escape_inline
from conv.normalize import fold

#: 张尔岐's lists (their titles: ``KIND_NAMES``): the edition each corrects.
CORRECTED = {"zhang-jianben": "监本", "zhang-shiben": "石本"}
#: What an omitted or added note names, less its counting: 一席字, 下升字 (the second 升), 以耦二字 → 席, 升, 以耦.
_NAMED = re.compile(r"(?:一|上|下|第[二三四五])?(?P<text>.+?)(?:[二三四五六七八九十]+)?字")


def cross_links(entries: list) -> None:
    """Add the cross-references (the module docstring) to the bodies of ``entries``."""
    near = _Places(e for e in entries if e.kind == "parallel" and e.record.get("class") != "transposition")
    for misprint in (e for e in entries if e.kind == "misprint" and e.record.get("words")):
        for difference in near([misprint.record["span"]]):
            difference.body += escape_inline(f"“{misprint.record['witness']}”为讹字，见") + _cite(misprint) + "。"
            misprint.body += escape_inline("二本之异见") + _cite(difference) + "。"
    for note in (e for e in entries if e.kind in CORRECTED):
        edition = CORRECTED[note.kind]
        for difference in near(note.record["target_spans"]):
            if _agrees(note.record, difference.record):
                other = data.work_short(difference.record.get("witness_work", ""))  # 通解
                difference.body += (escape_inline(f"{other}本与{edition}同，{KIND_NAMES[note.kind]}以为误，见")
                                    + _cite(note) + "。")
                note.body += escape_inline(f"{other}本与{edition}同，见") + _cite(difference) + "。"


class _Places:
    """The differences (异文 entries) by file: ``near(spans)``, those whose text in either work overlaps one
    of ``spans``, in their order."""

    def __init__(self, differences) -> None:
        self.by_file: dict[str, list[tuple[int, list, object]]] = {}
        for index, difference in enumerate(differences):
            for span in (difference.record["span"], difference.record.get("witness_span")):
                if span:
                    self.by_file.setdefault(span[0], []).append((index, span, difference))

    def __call__(self, spans: list[list]) -> list:
        found = {index: difference for span in spans for index, own, difference in self.by_file.get(span[0], ())
                 if own[1] < span[2] and span[1] < own[2]}
        return [found[index] for index in sorted(found)]


def _agrees(note: dict, difference: dict) -> bool:
    """The other work prints what 张尔岐 says the 监本/石本 prints wrongly: the difference's two readings
    are the note's right and wrong ones."""
    printed = note.get("printed", "")
    text, witness = fold(difference.get("text") or ""), fold(difference.get("witness_text") or "")
    if not printed:
        return False
    if note["class"] == "wrong" and note["subject"]:  # (a 字形 note, 昏從女誤, names a component: not matched)
        right, wrong = _differing(fold(note["subject"]), fold(printed))
        return (text, witness) == (right, wrong)
    named = _NAMED.fullmatch(printed)
    if named is None:
        return False
    if note["class"] == "omitted":
        return (text, witness) == (fold(named["text"]), "")
    if note["class"] == "added":
        return (text, witness) == ("", fold(named["text"]))
    return False


def _differing(right: str, wrong: str) -> tuple[str, str]:
    """The characters where ``right`` and ``wrong`` differ (大史, 大夫 → 史, 夫)."""
    start = 0
    while start < min(len(right), len(wrong)) and right[start] == wrong[start]:
        start += 1
    end = 0
    while end < min(len(right), len(wrong)) - start and right[-1 - end] == wrong[-1 - end]:
        end += 1
    return right[start:len(right) - end], wrong[start:len(wrong) - end]


def _cite(entry) -> str:
    """A ``yl:cite`` of an entry of the 校勘记, as its page says to cite it (通解·士昏礼76校1)."""
    return "{yl:cite}`" + f"{entry.locus.full_label}{entry.label} <{entry.id}>`"
