"""Indexes (索引) built from the model: the walk over passages and notes that ``conv.analyses.terms``
(名物索引), ``conv.analyses.readings`` (今古文) and ``conv.analyses.glossary`` (郑注训诂) share, and the hook that adds
their results to the JSON export.

The indexes work on the *normalized* text (``conv.normalize.fold``: 賔 and 宾 are one character)
and report where they found something twice over: as offsets into the normalized string of the
passage or segment (``start``/``end``), and as a span into the seed (``[seed, start, end]``, the
witness's own characters, as every span in the model). ``MappedText`` keeps the seed offset of
every normalized character, so the two never drift apart — also where normalization drops a
spurious code point.

Every function takes the ``Edition`` (``conv.edition.assemble.convert``) and returns plain dicts and lists,
ready for JSON.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from conv import datafiles as data
from conv.model.tree import Chapter, Edition, Passage, Section, Segment, Work, text_char_offsets
from conv.normalize import fold, fold_char, fold_keeping


@dataclass(frozen=True)
class MappedText:
    """A normalized text with the seed offset of each of its characters (``offsets`` and
    ``witness_index`` are ranges where nothing is folded away and the stretch is contiguous)."""

    seed: str
    normalized: str
    offsets: Sequence[int]
    witness: str  # the witness characters of the same stretch (``text`` in the model)
    witness_index: Sequence[int]  # index into ``witness`` of each normalized character

    def span(self, start: int, end: int) -> list:
        """``[seed, start, end]`` of the normalized characters ``start:end`` (end exclusive)."""
        if not self.normalized or start >= end:
            at = self.offsets[start] if start < len(self.offsets) else (self.offsets[-1] + 1 if self.offsets else 0)
            return [self.seed, at, at]
        return [self.seed, self.offsets[start], self.offsets[end - 1] + 1]

    def witness_slice(self, start: int, end: int) -> str:
        """The witness characters behind the normalized characters ``start:end``."""
        if start >= end:
            return ""
        return self.witness[self.witness_index[start] : self.witness_index[end - 1] + 1]


def _mapped(seed: str, witness: str, offsets: Sequence[int], normalized: str | None = None) -> MappedText:
    """``normalized``: ``fold(witness)`` when the caller has it already."""
    if normalized is None:
        normalized = fold(witness)
    if len(normalized) == len(witness):  # nothing folded away (the usual case): one to one
        if type(offsets) is not range:
            offsets = tuple(offsets)
        return MappedText(seed, normalized, offsets, witness, range(len(witness)))
    chars: list[str] = []
    kept: list[int] = []
    index: list[int] = []
    for i, (char, offset) in enumerate(zip(witness, offsets)):
        folded = fold_char(char)
        if folded:
            chars.append(folded)
            kept.append(offset)
            index.append(i)
    return MappedText(seed, "".join(chars), tuple(kept), witness, tuple(index))


def passages(edition: Edition, every: bool = False) -> Iterator[tuple[Work, Chapter, Section, Passage]]:
    """Every passage (经 and 记) in reading order, with its work, chapter and section (not the text of
    the front matter or of 张尔岐's collation notes, layers ``front`` and ``errata``, unless ``every``)."""
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                for passage in section.passages:
                    if every or passage.layer in ("jing", "ji"):
                        yield work, chapter, section, passage


def occurrence_count(passage: Passage, char: str) -> int:
    """How many times ``char`` stands in ``passage``'s text and its notes (what a reviewed place and a ``keep-at``
    count: ``conv.analyses.senses``)."""
    return sum(block.text.count(char) for block in [passage, *passage.notes])


def reread(passage: Passage) -> None:
    """The reading (normalized) text of ``passage`` and its notes again from what it keeps: the characters of
    ``kept`` as printed (what 郑注 distinguishes: ``conv.analyses.distinctions``; a sense: ``senses``), each
    character of ``forms`` in that form, one of ``kept_at`` so at its ordinals only (1-based, in reading order
    over its text and notes), every other character folded."""
    keep, seen = frozenset(passage.kept), dict.fromkeys(passage.kept_at, 0)
    for block in [passage, *passage.notes]:
        reading = []
        for found in block.text:
            if found in seen:
                seen[found] += 1
                other = seen[found] in passage.kept_at[found]
            else:
                other = found in passage.forms
            reading.append(passage.forms.get(found, found) if other else fold_keeping(found, keep))
        block.normalized = "".join(reading)


def passage_text(edition: Edition, passage: Passage) -> MappedText:
    """The passage's 经/记 text, mapped to its seed.

    The model keeps no per-character offsets for a passage; they are the non-markup characters of
    its span (a passage's span holds only its own text: a note ends a passage). Should a span ever
    hold more, the passage's characters are matched in order within it.
    """
    seed, start, end = passage.span
    source = edition.sources[seed].text
    if source[start:end] == passage.text:  # no markup in the span (the usual case)
        return _mapped(seed, passage.text, range(start, end), passage.normalized)
    offsets = text_char_offsets(source, start, end)
    if "".join(source[i] for i in offsets) != passage.text:
        offsets, j = [], 0
        for i in range(start, end):
            if j < len(passage.text) and source[i] == passage.text[j]:
                offsets.append(i)
                j += 1
        if j < len(passage.text):  # pragma: no cover - a model invariant
            raise ValueError(f"passage {passage.id}: its span does not hold its text")
    return _mapped(seed, passage.text, offsets, passage.normalized)


def segment_text(segment: Segment) -> MappedText:
    """A commentary segment's text, mapped to its seed."""
    return _mapped(segment.span[0], segment.text, segment.offsets, segment.normalized)


def zhu_segments(edition: Edition, yili_only: bool = False) -> Iterator[tuple[Passage, int, Segment]]:
    """Every 注 segment (layer ``zhu``) of a passage's notes, with its index among the notes;
    ``yili_only``: of the 仪礼's 篇 alone (``conv.datafiles.is_yili``), whose 注 is 郑玄's."""
    for work, chapter, _, passage in passages(edition):
        if yili_only and not data.is_yili(work.id, chapter.id):
            continue
        for index, segment in enumerate(passage.notes):
            if segment.layer == "zhu":
                yield passage, index, segment


def position(edition: Edition, seed: str, offset: int) -> tuple[int, int]:
    """(line, col) of a seed offset, both 1-based."""
    return edition.sources[seed].position(offset)

