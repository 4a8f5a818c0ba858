"""Joining the seeds and the 文渊阁 transcription (拼合): one text of each chapter, each stretch
from one witness.

Where a seed was collated (``conv.edition.collation``), it is the 底本 of its stretch: the
witness file is parsed *around* that stretch — each remaining piece on its own
(:func:`parse_pieces`: the transliterated text with everything outside the piece blank, so the
offsets stay those of the file) — and the stretch itself is recorded as collated (a ``dropped``
record naming the seed: every character of it is accounted for by the seed's text and the
collation's differences). The parts — seeds and witness pieces — are then put in the book's order
(:class:`Part`'s ``key``: witness file, offset) and each chapter is joined from them
(:func:`join`): where one witness gives way to the other, the text holds a join mark
(〔以下据录入本〕, 〔以下据文渊阁本〕: ``Passage.joined`` or ``Section.title_joined`` inside a 章 the join
cuts, which stays one section; ``("lacuna", "join-seed")`` in the chapter's order between two
章) instead of the lacunae each part would show alone, and the lacunae the part recorded there
become one ``witness-join`` apparatus entry. No passage is doubled and none is lost: the pieces and the
collated stretches tile the witness file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conv.model.tree import Chapter, Meta, Section
from conv.parser.corrections import Corrections
from conv.parser.seeds import SeedParser, SeedResult
from conv.reader.wenyuange import WitnessSource

BLANK = " "
_NOT_BREAK = re.compile(r"[^\r\n]")
MARKUP_NEAR = "【】○ \u3000"  # markup a stretch takes with it (not line breaks)
#: What a part records where it is cut off; where another witness continues, they are a join.
START_LACUNAE = ("lacuna-chapter-start", "lacuna-start")
END_LACUNAE = ("lacuna-end", "lacuna-chapter-end")


@dataclass
class Part:
    """A seed, or a piece of a witness file, in the book's order."""

    key: tuple[int, int]
    result: SeedResult
    witness: str  # "seed" | "kanripo"
    joined_before: bool = False
    joined_after: bool = False
    span: tuple[str, int, int] | None = None  # the witness span it stands for (a seed: its stretch)

    def first_offset(self) -> int:
        """Where its first passage starts (in its own file)."""
        for chapter in self.result.chapters:
            for section in chapter.sections:
                for passage in section.passages:
                    return passage.span[1]
        return 0


def widen(text: str, start: int, end: int) -> tuple[int, int]:
    """A collated stretch with the markup around it on its own lines (the 【 before its first
    character, the 】 after its last, blanks): the pieces of the witness around it hold no
    bracket whose text is the seed's."""
    while start > 0 and text[start - 1] in MARKUP_NEAR:
        start -= 1
    while end < len(text) and text[end] in MARKUP_NEAR:
        end += 1
    return start, end


def pieces(length: int, covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches of a file of ``length`` characters outside the ``covered`` ones, in order."""
    out, at = [], 0
    for start, end in sorted(covered):
        if start > at:
            out.append((at, start))
        at = max(at, end)
    if at < length:
        out.append((at, length))
    return out


def mask(text: str, start: int, end: int) -> str:
    """``text`` with every character outside ``[start, end)`` blank but the line breaks (the
    offsets and lines of a piece stay the file's)."""
    end = max(start, end)
    return _NOT_BREAK.sub(BLANK, text[:start]) + text[start:end] + _NOT_BREAK.sub(BLANK, text[end:])


def parse_pieces(source: WitnessSource, covered: list[tuple[int, int]], entry: dict,
                 corrections: Corrections, index: int) -> list[Part]:
    """The witness file's pieces outside the ``covered`` stretches, each parsed on its own."""
    parts = []
    spans = pieces(len(source.text), covered)
    for number, (start, end) in enumerate(spans):
        text = source.text
        if not text[start:end].strip():
            continue
        masked = mask(text, start, end) if covered else text
        piece = WitnessSource(source.name, masked, source.witness, entry)
        piece.diagrams = tuple(block for block in source.diagrams if start <= block.start and block.end <= end)
        last = number == len(spans) - 1
        piece_entry = dict(entry, ends_chapter=bool(entry.get("ends_chapter")) and last)
        result = SeedParser(piece, piece_entry, corrections).run()
        parts.append(Part((index, start), result, "kanripo", span=(source.name, start, end)))
    return parts


def mark_joins(parts: list[Part]) -> None:
    """Neighbouring parts from different witnesses of one work are joined (their stretches meet
    in the witness file, or across the end of one file and the start of the next)."""
    for before, after in zip(parts, parts[1:]):
        if before.result.work["id"] == after.result.work["id"] and before.witness != after.witness \
                and before.span is not None and after.span is not None:
            before.joined_after = after.joined_before = True


def settle(part: Part) -> list[dict]:
    """The part's apparatus entries, its lacunae at a join replaced by one ``witness-join`` entry
    (at the part's start: the witness it comes from)."""
    entries = []
    for entry in part.result.apparatus:
        kind = entry["kind"]
        if (part.joined_before and kind in START_LACUNAE) or (part.joined_after and kind in END_LACUNAE):
            continue
        entries.append(entry)
    if part.joined_before:
        entries.insert(0, {"kind": "witness-join", "span": [part.result.seed, part.first_offset(), part.first_offset()],
                           "witness": part.witness,
                           "reason": "the text from here comes from "
                                     + ("the seed (录入本)" if part.witness == "seed" else "the 文渊阁 transcription")})
    return entries


def join(chapter: Chapter, later: Chapter, mark: str | None) -> None:
    """Append a later part of a chapter: at a gap between two excerpts (``mark`` None), or where
    the 底本 changes (``mark``: the later part's witness). A 章 cut by the change is one section:
    the earlier part's last section (no title yet) takes the later part's first."""
    order = chapter.order
    if order and order[-1] == ("lacuna", "end"):
        order.pop()
    later_order = list(later.order)
    if later_order and later_order[0] == ("lacuna", "start"):
        later_order.pop(0)
    sections = list(later.sections)
    if mark is None:
        order.append(("lacuna", "gap"))
    else:
        _close_cut(chapter, later)
        last = chapter.sections[-1] if chapter.sections else None
        if last is not None and sections and last.title is None:
            first = sections.pop(0)
            later_order = [item for item in later_order if not (item[0] == "section" and item[1] is first)]
            _merge(last, first, mark)
        else:
            order.append(("lacuna", f"join-{mark}"))
    order.extend(later_order)
    chapter.sections.extend(sections)
    chapter.meta.extend(later.meta)
    chapter.mulu.extend(later.mulu)
    chapter.seeds.extend(s for s in later.seeds if s not in chapter.seeds)
    if later.heading and not chapter.heading:
        chapter.heading, chapter.heading_span = later.heading, later.heading_span
    elif later.heading:
        # the same chapter title twice: keep the second as a metadata line, where it stood
        repeated = Meta("chapter-title", later.heading, later.heading_span)
        chapter.meta.append(repeated)
        index = order.index(("heading", None), len(order) - len(later_order))
        order[index] = ("meta", repeated)


def _merge(last: Section, first: Section, mark: str) -> None:
    """One 章 across a join: ``first``'s passages and title go to ``last``."""
    if first.passages:
        first.passages[0].joined = mark
    elif first.title is not None:
        last.title_joined = mark
    last.passages.extend(first.passages)
    if first.title is not None:
        last.title, last.title_span, last.title_notes = first.title, first.title_span, first.title_notes
        last.marker, last.ji_marker = first.marker, first.ji_marker
        last.witness, last.page = first.witness, first.page


def _close_cut(chapter: Chapter, later: Chapter) -> None:
    """At a join, a note cut off at the end of one part and its rest at the start of the next are
    no lacunae: the other witness holds the rest."""
    last = next((p for s in reversed(chapter.sections) for p in reversed(s.passages)), None)
    first = next((p for s in later.sections for p in s.passages), None)
    if last is not None and last.notes and last.notes[-1].lacuna == "end":
        last.notes[-1].lacuna = None
    if first is not None:
        if first.lacuna == "start":
            first.lacuna = None
        if first.notes and first.notes[0].lacuna == "start":
            first.notes[0].lacuna = None


def settled_problems(part: Part) -> list[dict]:
    """The part's problems, but a note left open at its end where the other witness goes on."""
    return [problem.as_dict() for problem in part.result.problems
            if not (part.joined_after and problem.kind == "unclosed-note-at-end")]
