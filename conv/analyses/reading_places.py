"""Where the lemma of a 今文/古文 reading stands in the 经 (异文所在): the note's reach.

A 郑注 is about the 经 before it. Its lemma is looked for, in this order:

1. in the 经 of the passage the note is on, as printed (normalized: 賔 and 宾 are one), then in
   another form that ``conv.normalize.fold_char`` folds to the same character (the 经 of the 句读
   prints 并 where 郑玄's lemma is 竝: 今文竝作併);
2. by way of 郑玄's own gloss in the same note, before the statement: ``A读为X`` ``A或作X`` ``A当为X``
   — the lemma X is 郑玄's reading of the 经's A (肫或作纯…古文纯为钧: the 经 prints 肫; 牢读为楼…
   今文楼为纋: the 经 prints 牢), one gloss or two in a row (绥或作挼挼读为堕…古文堕为肵);
3. the same in the passages before it in the same section, nearest first, at most ``REACH`` of
   them: a note may stand after a later stretch of 经 than the one it is about (张尔岐 on 士相见礼:
   「今文无也，指上文某也固辞句」), and the 通解's transcription cuts some notes off their 经.

The place (``Place``) says which passage, the offsets of the lemma in its 经, and the gloss it was
found by (``via``).
"""
from __future__ import annotations

from dataclasses import dataclass

from conv.analyses.text import MappedText
from conv.normalize import fold_char

GLOSS_MARKS = ("读为", "或作", "或为", "当为", "当作")
REACH = 3  # passages before the note's own that its lemma may stand in


@dataclass(frozen=True)
class Place:
    """Where a lemma stands: the passage, its 经, the lemma's offsets in it and the gloss used."""

    passage: object  # conv.model.tree.Passage
    jing: MappedText
    places: list[tuple[int, int]]
    via: tuple[int, int] | None = None  # offsets of 郑玄's gloss (肫或作纯) in the note


def folded(text: str) -> str:
    """``text`` with every character folded (``fold_char``), one character for one."""
    return "".join(fold_char(char) or char for char in text)


def occurrences(jing: str, lemma: str, context: str | None) -> list[tuple[int, int]]:
    """Offsets of ``lemma`` in ``jing`` (within ``context`` when given)."""
    found = []
    if context:
        inner = context.find(lemma)
        if inner == -1:  # a context that does not hold the lemma names no place
            return []
        for at in _find_all(jing, context):
            found.append((at + inner, at + inner + len(lemma)))
    else:
        for at in _find_all(jing, lemma):
            found.append((at, at + len(lemma)))
    return found


def _find_all(text: str, word: str):
    at = text.find(word) if word else -1
    while at != -1:
        yield at
        at = text.find(word, at + 1)


class Reach:
    """The 经 a note may be about: its passage's (``own``), then ``before`` (nearest first)."""

    def __init__(self, own: tuple[object, MappedText], before: list[tuple[object, MappedText]], note: str) -> None:
        self.candidates = [own] + before
        self.note = note  # the segment's normalized text
        self._folded: dict[str, str] = {}  # passage id → its 经, folded

    def find(self, lemma: str, context: str | None = None, upto: int | None = None) -> Place | None:
        """Where ``lemma`` stands (``context``: the stretch around it, for ``A无B``); ``upto``: where
        the statement starts in the note (its glosses are looked for before it)."""
        if not lemma:
            return None
        forms = [(lemma, context, None)] + [(form, None, via) for form, via in self._glossed(lemma, upto)]
        for passage, jing in self.candidates:
            for form, around, via in forms:
                places = occurrences(jing.normalized, form, around)
                if not places:
                    places = occurrences(self._fold(passage, jing), folded(form), folded(around) if around else None)
                if places:
                    return Place(passage, jing, places, via)
        return None

    def stands(self, lemma: str, upto: int | None = None) -> bool:
        return self.find(lemma, upto=upto) is not None

    def _fold(self, passage, jing: MappedText) -> str:
        key = passage.id
        if key not in self._folded:
            self._folded[key] = folded(jing.normalized)
        return self._folded[key]

    def _glossed(self, lemma: str, upto: int | None, depth: int = 2):
        """``(A, via)`` for each ``A读为lemma`` (``或作`` ``当为`` …) of the note before ``upto``,
        and the glosses of A in turn (``depth``)."""
        end = len(self.note) if upto is None else upto
        for mark in GLOSS_MARKS:
            for at in _find_all(self.note[:end], mark + lemma):
                start = at - len(lemma)
                if start < 0:
                    continue
                form = self.note[start:at]
                if any(char in "为作读当或" for char in form):
                    continue
                yield form, (start, at + len(mark) + len(lemma))
                if depth > 1:
                    for deeper, (a, _) in self._glossed(form, start, depth - 1):
                        yield deeper, (a, at + len(mark) + len(lemma))
