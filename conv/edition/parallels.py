"""Parallel passages (互见): the same 经 and 郑注 in 张尔岐's 句读 and 朱熹's 通解.

For each 篇 both works give (``conv/data/parallels.toml``), the 经 and 记 of the two chapters are
read as two texts, passage by passage (``ChapterText``), and compared with
``conv.collate.blocks``: the shared blocks in any order, those 朱熹 moved (记 next to the 经 it
explains) marked *transposed*. From the blocks:

- **links** (``kind = "counterpart"``): a 句读 passage and a 通解 passage holding the same 经,
  each with the character range (indices into the passage's ``text``, end exclusive) the link
  covers. A passage cut differently in the other work has several links.
- **groups** (``kind = "group"``): the linked passages grouped (passages linked to each other,
  directly or through others), the rows of the parallel page; the 郑注 of each group compared
  as a whole where both give it (``blocks.pair``): ``notes_aligned`` characters of
  ``notes_base`` and ``notes_other``.
- **apparatus entries** (``kind = "parallel"``): every difference of the 经/记 or the 郑注 after
  folding (``class = "substantive"``), and every moved block once (``class = "transposition"``),
  each with both passages' anchors, spans and 文渊阁 pages.

Nothing happens unless both works' chapter is in the edition. 参见 within a work: ``within``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from conv import datafiles as data
from conv.collate import blocks as compare
from conv.collate import fold
from conv.model.tree import Chapter, Edition, Passage, text_char_offsets
from conv.reader import source as reader

TEXT_LAYERS = ("jing", "ji")
STEP = 3  # characters between two aligned pairs that still make one link
HITS = 3  # k-grams a stretch must share with another 篇 to be looked for there
NOTE_WORDS = 3  # a note's words a character cut from it is looked for with in the other work's notes
GLOSS = re.compile(r".音.|..[反切]")  # a 音义 gloss (直音, 反切) in a stretch taken for 经


@dataclass
class ChapterText:
    """Characters of some passages (their ``text``, or their 郑注), in reading order; for each,
    its passage (index into ``passages``), its index in that passage's text and its place in the
    witness file (``files[n]``, ``offsets[n]``)."""

    chars: str = ""
    passages: list[Passage] = field(default_factory=list)
    owner: list[int] = field(default_factory=list)
    local: list[int] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)

    def add(self, passage_index: int, chars: str, name: str, offsets) -> None:
        self.chars += chars
        self.owner += [passage_index] * len(chars)
        self.local += range(len(chars))
        self.files += [name] * len(chars)
        self.offsets += list(offsets)

    def passage(self, index: int) -> Passage:
        return self.passages[self.owner[index]]

    def owner_of(self, passage_id: str) -> int:
        """The place of a passage among ``passages``."""
        return next(n for n, passage in enumerate(self.passages) if passage.id == passage_id)

    def part(self, start: int, end: int) -> "ChapterText":
        """Characters ``[start, end)``, with the same passages."""
        return ChapterText(self.chars[start:end], self.passages, self.owner[start:end], self.local[start:end],
                           self.files[start:end], self.offsets[start:end])


def text_offsets(edition: Edition, passage: Passage) -> list[int] | None:
    """The file offset of each character of ``passage.text`` (None when the span's text
    characters are not the passage's text, as in a drum notation of 投壶)."""
    name, start, end = passage.span
    text = edition.sources[name].text
    offsets = text_char_offsets(text, start, end)
    return offsets if len(offsets) == len(passage.text) else None


def chapter_text(edition: Edition, chapter: Chapter, layers=TEXT_LAYERS) -> ChapterText:
    """The 经/记 (``layers``) of a chapter's passages."""
    out = ChapterText()
    for section in chapter.sections:
        for passage in section.passages:
            offsets = text_offsets(edition, passage) if passage.layer in layers and passage.text else None
            if offsets is not None:
                out.passages.append(passage)
                out.add(len(out.passages) - 1, passage.text, passage.span[0], offsets)
    return out


def notes_text(passages: list[Passage]) -> ChapterText:
    """The 郑注 (``zhu`` segments) of some passages, in order."""
    out = ChapterText(passages=list(passages))
    for number, passage in enumerate(passages):
        for segment in passage.notes:
            if segment.layer == "zhu" and len(segment.offsets) == len(segment.text):
                out.add(number, segment.text, segment.span[0], segment.offsets)
    return out


def chapter_pairs(edition: Edition) -> list[tuple[Chapter, Chapter]]:
    """The chapters of the shared 篇 present in both works, in the base work's order."""
    table = data.parallels()["works"]
    works = {work.id: work for work in edition.works}
    base, other = works.get(table["base"]), works.get(table["other"])
    if base is None or other is None:
        return []
    others = {chapter.id: chapter for chapter in other.chapters}
    return [(chapter, others[chapter.id]) for chapter in base.chapters
            if chapter.id in table["chapters"] and chapter.id in others]


@dataclass
class Found:
    """What the comparison of the works found: ``links`` (counterparts and note groups) and
    ``entries`` (apparatus records); ``coverage``: chapter id → layer → (linked, all) characters
    of the base work."""

    links: list[dict] = field(default_factory=list)
    entries: list[dict] = field(default_factory=list)
    coverage: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)


def find(edition: Edition) -> Found:
    """Compare the shared 篇 of the two works (see the module docstring)."""
    found = Found()
    pairs = chapter_pairs(edition)
    elsewhere = Elsewhere(edition, data.parallels()["works"]["other"]) if pairs else None
    for base, other in pairs:
        Pair(edition, base, other, found, elsewhere).run()
    return found


class Pair:
    """One shared 篇: the base work's chapter against the other work's; the base text no block
    covers is then looked for in the other work's other 篇 (``Elsewhere``: 朱熹 files the 冠义 of
    士冠礼 in a 篇 of its own), and what is found there is a transposition too."""

    def __init__(self, edition: Edition, base: Chapter, other: Chapter, found: Found,
                 elsewhere: "Elsewhere | None" = None) -> None:
        self.edition, self.found, self.chapter = edition, found, base.id
        self.a, self.b = chapter_text(edition, base), chapter_text(edition, other)
        self.elsewhere = elsewhere
        self.linked: set[int] = set()
        self.groups = _Groups()

    def run(self) -> None:
        a = self.a
        self.take(compare.blocks(a.chars, self.b.chars), a, self.b)
        if self.elsewhere is not None:
            for start, end in _unlinked(len(a.chars), self.linked):
                for other in self.elsewhere.candidates(a.chars[start:end]):
                    part = a.part(start, end)
                    found = [block for block in compare.blocks(part.chars, other.chars) if block.size >= compare.K]
                    for block in found:
                        block.transposed = True
                    self.take(found, part, other, offset=start)
        self.coverage()
        order = {p.id: n for n, p in enumerate(a.passages)}
        order.update((p.id, n) for text in self.texts() for n, p in enumerate(text.passages))
        for base_passages, other_passages in self.groups.groups(order):
            self.notes(base_passages, other_passages)

    def texts(self) -> list[ChapterText]:
        return [self.b, *(self.elsewhere.texts.values() if self.elsewhere else [])]

    def take(self, found: list[compare.Block], a: ChapterText, b: ChapterText, offset: int = 0) -> None:
        """Links, transpositions and differences of the blocks of ``a`` (a part of the base text
        starting at ``offset``) and ``b``."""
        for block in found:
            for pairs in _by_passages(block.pairs, a, b):
                if 4 * sum(1 for i, _ in pairs if i in block.same) < 3 * len(pairs):
                    continue  # mostly other words where two passages meet: no link
                self.linked.update(offset + i for i, _ in pairs)
                self.groups.join(a.passage(pairs[0][0]), b.passage(pairs[0][1]))
                self.found.links.append(self.link(a, b, pairs, block.transposed))
            if block.transposed:
                self.found.entries.append(self.transposition(a, b, block))
            for edit in block.edits:
                self.found.entries.append(self.difference(edit, a, b, room=block.room.get(edit, 0)))

    def coverage(self) -> None:
        counts = {}
        for layer in TEXT_LAYERS:
            chars = [i for i in range(len(self.a.chars)) if self.a.passage(i).layer == layer]
            counts[layer] = (sum(1 for i in chars if i in self.linked), len(chars))
        self.found.coverage[self.chapter] = counts

    def link(self, a: ChapterText, b: ChapterText, pairs: list[tuple[int, int]], transposed: bool) -> dict:
        first, last = pairs[0], pairs[-1]
        passage, counterpart = a.passage(first[0]), b.passage(first[1])
        return {"kind": "counterpart", "chapter": self.chapter, "layer": passage.layer,
                "base": passage.id, "base_range": [a.local[first[0]], a.local[last[0]] + 1],
                "other": counterpart.id,
                "other_range": [min(b.local[j] for _, j in pairs), max(b.local[j] for _, j in pairs) + 1],
                "chars": len(pairs), "transposed": transposed}

    def notes(self, base_passages: list[Passage], other_passages: list[Passage]) -> None:
        """A group of linked passages (``kind = "group"``) and the comparison of their 郑注."""
        a, b = notes_text(base_passages), notes_text(other_passages)
        found = compare.pair(a.chars, b.chars)
        self.found.links.append({"kind": "group", "chapter": self.chapter,
                                 "base": [p.id for p in base_passages], "other": [p.id for p in other_passages],
                                 "notes_aligned": sum(len(block.pairs) for block in found),
                                 "notes_base": len(a.chars), "notes_other": len(b.chars)})
        for block in found:
            for edit in block.edits:
                self.found.entries.append(self.difference(edit, a, b, layer="zhu", room=block.room.get(edit, 0)))

    def transposition(self, a: ChapterText, b: ChapterText, block: compare.Block) -> dict:
        record = self.record(a, b, (block.a_start, block.a_end, block.b_start, block.b_end),
                             a.passage(block.a_start).layer)
        record.update({"class": "transposition", "op": "move",
                       "anchors": _anchors(a, block.a_start, block.a_end),
                       "witness_anchors": _anchors(b, block.b_start, block.b_end)})
        return record

    def difference(self, edit, a: ChapterText, b: ChapterText, layer: str | None = None, room: int = 0) -> dict:
        """An addition or omission that could stand ``room`` places further right saying the same
        is reported where it is a note's words if it is anywhere, else at its rightmost place: words
        added to the 经 close with their own last character (…私面私覿也, not 也文其面…私覿)."""
        places = [tuple(n + move for n in edit) for move in range(room + 1)]  # room: only a gap's
        kinds = [self.kind(place, a, b) if layer is None else ("substantive", True) for place in places]
        best = min(range(len(places)),
                   key=lambda n: (kinds[n] != ("note-in-text", True), kinds[n][0] != "note-in-text", -n))
        i1, i2, j1, j2 = places[best]
        record = self.record(a, b, places[best], layer or a.passage(min(i1, len(a.chars) - 1)).layer)
        kind, sure = kinds[best]
        record.update({"class": kind, "sure": sure,
                       "op": "replace" if i2 > i1 and j2 > j1 else "delete" if i2 > i1 else "insert"})
        return record

    @staticmethod
    def kind(edit, a: ChapterText, b: ChapterText) -> tuple[str, bool]:
        """A difference of the 经's texts: other words, or a note's words on one side."""
        i1, i2, j1, j2 = edit
        added = i1 == i2 or j1 == j2  # a character one side adds (not one replacing another)
        if (_in_notes(b.chars[j1:j2], _around(a, i1, i2)) or _in_notes(a.chars[i1:i2], _around(b, j1, j2))
                or added and (_continues_note(b, j1, j2, _around(a, i1, i2)) or _continues_note(a, i1, i2, _around(b, j1, j2)))):
            return "note-in-text", True  # a note's words transcribed as 经 on one side: no reading
        if (j2 - j1) - (i2 - i1) >= 3 and _at_edge(b, j1, j2):
            return "note-in-text", False  # words the other side adds at a passage's edge
        return "substantive", True

    def record(self, a: ChapterText, b: ChapterText, edit, layer: str) -> dict:
        """An apparatus record: the base work's side as the entry's ``span``, the other's as
        ``witness_span``; both anchors and pages."""
        i1, i2, j1, j2 = edit
        span, anchor, page = _side(self.edition, a, i1, i2)
        witness_span, witness_anchor, witness_page = _side(self.edition, b, j1, j2)
        line, col = self.edition.sources[span[0]].position(span[1])
        works = data.parallels()["works"]
        return {"kind": "parallel", "layer": layer, "chapter": self.chapter,
                "span": span, "line": line, "col": col, "text": a.chars[i1:i2],
                "witness_text": b.chars[j1:j2], "witness_span": witness_span,
                "anchor": anchor, "witness_anchor": witness_anchor,
                "page": page, "witness_page": witness_page,
                "work": works["base"], "witness_work": works["other"]}


class Elsewhere:
    """The other work's 篇 as texts, with an index of their folded k-grams: where a stretch of
    the base text no shared 篇 holds may stand."""

    def __init__(self, edition: Edition, work_id: str) -> None:
        work = next(work for work in edition.works if work.id == work_id)
        self.texts = {chapter.id: chapter_text(edition, chapter) for chapter in work.chapters}
        self.index: dict[str, set[str]] = {}
        for chapter_id, text in self.texts.items():
            keys = "".join(fold.key(char) for char in text.chars)
            for i in range(len(keys) - compare.K + 1):
                self.index.setdefault(keys[i:i + compare.K], set()).add(chapter_id)

    def candidates(self, chars: str, most: int = 2) -> list[ChapterText]:
        """The texts (at most ``most``) sharing at least ``HITS`` k-grams with ``chars``."""
        keys = "".join(fold.key(char) for char in chars)
        hits: dict[str, int] = {}
        for i in range(len(keys) - compare.K + 1):
            for chapter_id in self.index.get(keys[i:i + compare.K], ()):
                hits[chapter_id] = hits.get(chapter_id, 0) + 1
        best = sorted((-count, chapter_id) for chapter_id, count in hits.items() if count >= HITS)
        return [self.texts[chapter_id] for _, chapter_id in best[:most]]


def _side(edition: Edition, text: ChapterText, start: int, end: int) -> tuple[list, str, dict | None]:
    """The span (cut at the first passage's file), the passage anchor and the 文渊阁 page of
    characters ``[start, end)`` of a side; an empty range stands before character ``start``
    (after the last one at the end)."""
    at = min(start, len(text.chars) - 1)
    name, passage = text.files[at], text.passage(at)
    if end > start:
        last = max(i for i in range(start, end) if text.files[i] == name)
        span = [name, text.offsets[start], text.offsets[last] + 1]
    else:
        offset = text.offsets[at] if start < len(text.chars) else text.offsets[at] + 1
        span = [name, offset, offset]
    source = edition.sources[name]
    page = reader.page_at(source, span[1]) if source.paged else passage.page
    return span, passage.id, page


def _unlinked(size: int, linked: set[int]) -> list[tuple[int, int]]:
    """Runs of at least ``K`` characters no block covers."""
    runs, start = [], None
    for i in range(size + 1):
        if i < size and i not in linked:
            start = i if start is None else start
        elif start is not None:
            if i - start >= compare.K:
                runs.append((start, i))
            start = None
    return runs


def _around(text: ChapterText, start: int, end: int) -> list[Passage]:
    """The passages holding characters ``[start, end)`` and the ones next to them."""
    if not text.chars:
        return []
    first, last = text.owner[max(0, min(start, len(text.chars) - 1) - 1)], text.owner[min(len(text.chars) - 1, end)]
    return text.passages[first:last + 1]


def _at_edge(text: ChapterText, start: int, end: int) -> bool:
    """Whether ``[start, end)`` (three characters or more) opens or closes its passage's text:
    where a note the transcription did not mark as small characters joins the 经."""
    if end - start < 3:
        return False
    return text.local[start] == 0 or text.local[end - 1] == len(text.passage(end - 1).text) - 1


def _in_notes(chars: str, passages: list[Passage]) -> bool:
    """Whether ``chars`` (two or more) are words of these passages' notes after folding, or a
    音义 gloss: a note transcribed as 经 on one side."""
    if len(chars) < 2:
        return False
    return bool(GLOSS.search(chars)) or _note_words(chars, passages)


def _note_words(chars: str, passages: list[Passage]) -> bool:
    """Whether ``chars`` are words of these passages' notes after folding."""
    wanted = "".join(fold.key(char) for char in chars)
    return any(wanted in "".join(fold.key(char) for char in segment.text)
               for passage in passages for segment in passage.notes)


def _continues_note(text: ChapterText, start: int, end: int, passages: list[Passage]) -> bool:
    """Whether one character ``[start, end)`` opening its passage's text goes on with the note before
    it, or closing it is the first word of the note after it, as these passages' notes read: a
    note's word printed large at a column's foot (…今文觶又為)¶觚(疏曰…, 禳(祭名也…)."""
    if end - start != 1:
        return False
    owner, chars = text.owner[start], text.chars[start]
    passage = text.passages[owner]
    joined = []
    if text.local[start] == 0 and owner and text.passages[owner - 1].notes:
        joined.append(text.passages[owner - 1].notes[-1].text[-NOTE_WORDS:] + chars)
    if text.local[start] == len(passage.text) - 1 and passage.notes:
        joined.append(chars + passage.notes[0].text[:NOTE_WORDS])
    return any(_note_words(words, passages) for words in joined)


def _anchors(text: ChapterText, start: int, end: int) -> list[str]:
    return list(dict.fromkeys(text.passage(i).id for i in range(start, end)))


def _by_passages(pairs, a: ChapterText, b: ChapterText) -> list[list[tuple[int, int]]]:
    """Aligned character pairs in runs: the same two passages, and no more than ``STEP``
    characters between neighbours on either side (what lies between is other words)."""
    out: list[list[tuple[int, int]]] = []
    for i, j in pairs:
        last = out[-1][-1] if out else None
        if (last and (a.owner[i], b.owner[j]) == (a.owner[last[0]], b.owner[last[1]])
                and 0 < i - last[0] <= STEP and 0 < j - last[1] <= STEP):
            out[-1].append((i, j))
        else:
            out.append([(i, j)])
    return out


class _Groups:
    """Passages linked to each other, directly or through others (union-find)."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}
        self.passages: dict[tuple[str, str], Passage] = {}

    def find(self, item):
        while self.parent.get(item, item) != item:
            item = self.parent[item]
        return item

    def join(self, pa: Passage, pb: Passage) -> None:
        self.passages[("a", pa.id)], self.passages[("b", pb.id)] = pa, pb
        a, b = self.find(("a", pa.id)), self.find(("b", pb.id))
        self.parent.setdefault(a, a)
        self.parent.setdefault(b, b)
        if a != b:
            self.parent[b] = a

    def groups(self, order: dict[str, int]) -> list[tuple[list[Passage], list[Passage]]]:
        """Each group's passages of both works in reading order (``order``: passage id → its
        place), groups by their first base passage."""
        members: dict = {}
        for item in self.parent:
            members.setdefault(self.find(item), []).append(item)
        out = []
        for items in members.values():
            base = sorted((self.passages[i] for i in items if i[0] == "a"), key=lambda p: order[p.id])
            other = sorted((self.passages[i] for i in items if i[0] == "b"), key=lambda p: order[p.id])
            out.append((order[base[0].id], base, other))
        out.sort(key=lambda item: item[0])
        return [(base, other) for _, base, other in out]
