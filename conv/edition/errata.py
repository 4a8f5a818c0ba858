"""张尔岐's collation notes linked to the 句读 (监本正误、石本误字与正文互见).

The chapters ``judou-jianben`` and ``judou-shiben`` (KR1d0038_018, _019; ``conv.parser.apart``)
hold 张尔岐's notes as text: under each 篇's name (a titled section), entries such as
``婦説服于室御受受誤作授`` with a small-character reference ``(第二十/七&KR1114;)``. Here each
entry is read (``conv.parser.errata``: lemma and statement) and its lemma is looked for in the 经
and 记 of the 篇 it is filed under, both sides folded with ``conv.collate.fold.key`` (the entries
are traditional; the text is traditional in the 文渊阁 witness, simplified where a seed is the 底本;
a lemma character also matches its forms, ``fold.forms``). Then:

- found once, or exactly as often as the entry says (毋誤作母凡三見), or only within one passage
  (長皆答拜 twice in one passage: the passage is sure, its places are all kept), it is an entry of
  the chapter's kind (``zhang-jianben`` / ``zhang-shiben``, ``conv/data/judou_apart.toml``) on
  the passage holding the lemma's first character (a lemma the 句读 cuts into two passages names
  both in ``passages``, its span runs across both); not in the 经, the 注 is searched, then the
  篇's printed title (大射儀第七脱儀字 → the chapter);
- a lemma found nowhere is looked for as the 监本/石本 prints it (皆如作亦如: the 文渊阁 text reads 亦如),
  then without the character other witnesses lack (唐石經無也字: the 句读 follows them); the form
  found is the entry's ``found_as``. A reviewed ``[[decision]]`` of ``conv/data/errata.toml`` gives
  the 句读's own words (``quotes``) where the note quotes it otherwise (千侯 for 干侯, two quotes);
- found in several passages: a 石本误字 note's 节 may keep one (``_settle``); else the order of the
  notes, which go through each 篇 in the order of its text: the places from the passage of the
  nearest sure note before it to that of the nearest after it (both included), if they are one
  passage (``settled_by: order``, ``between``: those two passages);
- found nowhere, found more often than the entry says with nothing to decide between the places,
  its 篇 not in the edition, or a text the grammar cannot read: a problem at the entry's
  ``file:line:col`` (``errata-not-found``, ``errata-ambiguous``, ``errata-chapter-absent``,
  ``errata-unread``), never a guess. The entry stays readable in its chapter either way.

An entry is the run of passages of a section up to one with small characters (an entry the
witness breaks with a U+3000, ``兩圜壺　兩壺獻酒　俱誤作壼``, is one entry); text after the last
reference of a section (the closing count, 共脱八十字…) is no entry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from conv.collate import fold
from conv.model.tree import Chapter, Edition, Passage, Work, is_markup, text_char_offsets
from conv.parser import apart, errata
from conv.reader.source import page_at


@dataclass
class Entry:
    """One entry of 张尔岐's notes: its passages in the notes chapter, text and reference."""

    kind: str  # zhang-jianben | zhang-shiben
    chapter_id: str  # the 篇 it is filed under (conv/data/chapters.toml)
    label: str  # the 篇's name as printed (士昏禮)
    passages: list[Passage]

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.passages)

    @property
    def reference(self) -> str:
        return "".join(s.text for p in self.passages for s in p.notes)

    @property
    def span(self) -> list:
        first, last = self.passages[0], self.passages[-1]
        end = max([last.span[2], *(s.span[2] for s in last.notes)])
        return [first.span[0], first.span[1], end]


def entries(work: Work) -> list[Entry]:
    """Every entry of the collation-notes chapters of ``work``, in reading order."""
    found = []
    for chapter in work.chapters:
        info = apart.chapter_info(chapter.id)
        if info is None or not info.get("errata"):
            continue
        for section in chapter.sections:
            chapter_id = apart.label_chapter(section.title) if section.title else None
            if chapter_id is None:
                continue  # the preface before the first 篇
            run: list[Passage] = []
            for passage in section.passages:
                run.append(passage)
                if passage.notes:
                    found.append(Entry(info["errata"], chapter_id, section.title, run))
                    run = []
    return found


@cache
def _alternatives(char: str) -> str:
    """A regular-expression class of the folded forms ``char`` matches."""
    keys = {fold.key(char), *(fold.key(f) for f in fold.forms(char))}
    if char in errata.same():
        keys.add(fold.key(errata.same()[char]))
    return "[" + "".join(re.escape(k) for k in sorted(keys)) + "]"


def lemma_pattern(lemma: str) -> re.Pattern:
    return re.compile("".join(_alternatives(c) for c in lemma))


def folded(text: str) -> str:
    return "".join(fold.key(c) for c in text)


@dataclass
class Stream:
    """Texts of one chapter, folded, with the passage of each character and its offset."""

    text: str
    owners: list[tuple[Passage, int]]  # per character: its passage and its offset in the seed

    def find(self, lemma: str) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for m in lemma_pattern(lemma).finditer(self.text)]


def _offsets(edition: Edition, span, text: str) -> list[int]:
    """The seed offsets of ``text``'s characters inside ``span`` (markup skipped)."""
    seed, start, end = span
    source = edition.sources[seed].text
    offsets = text_char_offsets(source, start, end)
    if "".join(source[i] for i in offsets) == text:  # the span's text characters are the text
        return offsets
    offsets, j = [], 0
    for i in range(start, end):
        if j < len(text) and not is_markup(source[i]) and source[i] == text[j]:
            offsets.append(i)
            j += 1
    return offsets if j == len(text) else [start] * len(text)


def streams(edition: Edition, chapter: Chapter) -> tuple[Stream, list[Stream]]:
    """The chapter's 经 and 记 as one stream (a lemma may run on across a note), and each
    commentary segment as its own."""
    chars, owners, notes = [], [], []
    for section in chapter.sections:
        for passage in section.passages:
            if passage.layer not in ("jing", "ji"):
                continue
            chars.append(folded(passage.text))
            owners += [(passage, o) for o in _offsets(edition, passage.span, passage.text)]
            for segment in passage.notes:
                offsets = _offsets(edition, segment.span, segment.text)
                notes.append(Stream(folded(segment.text), [(passage, o) for o in offsets]))
    return Stream("".join(chars), owners), notes


def link(edition: Edition) -> None:
    """Add an apparatus entry or a problem for every entry of 张尔岐's notes (module docstring): first
    each entry's places, then the ambiguous ones by the order of the notes."""
    for work in edition.works:
        chapters = {c.id: c for c in work.chapters}
        cache_: dict[str, tuple[Stream, list[Stream]]] = {}
        found = [_find(edition, work, chapters, cache_, entry) for entry in entries(work)]
        order = {p.id: i for c in work.chapters for i, p in enumerate(p for s in c.sections for p in s.passages)}
        order.update({f"{work.id}-{c.id}": -1 for c in work.chapters})  # a note on the 篇's title comes first
        for index, result in enumerate(found):
            if isinstance(result, Places) and not result.sure:
                _by_order(result, found, index, order)
            _emit(edition, result)


@dataclass
class Places:
    """Where an entry's words stand: per quote (the lemma, or a decision's quotes) its places
    ``(anchor, span)``; ``sure`` when each quote stands in one passage (or as often as the note says)."""

    entry: Entry
    reading: errata.Reading
    chapter: Chapter
    quotes: list[str]
    places: list[list[tuple[str, list, tuple]]]  # (anchor, span, the passages the words touch)
    found_as: str | None = None  # the form of the lemma found, where the lemma itself is in no passage
    decision: dict | None = None
    settled_by: str | None = None
    between: list | None = None  # the neighbouring notes' passages (the order's bounds)
    window: list | None = None  # the places the order leaves, where it leaves more than one
    commentary_spans: list | None = None  # where the 注 a lemma quotes after 註云 stands

    @property
    def sure(self) -> bool:
        times = self.reading.times if len(self.quotes) == 1 else 1
        return all(len(p) == times or len({t[0] for t in p}) == 1 for p in self.places)


def _problem(edition: Edition, entry: Entry, kind: str, message: str) -> dict:
    seed, start, _ = entry.span
    line, col = edition.sources[seed].position(start)
    return {"seed": seed, "line": line, "col": col, "kind": kind, "message": message}


def _find(edition: Edition, work: Work, chapters: dict[str, Chapter], cache_: dict, entry: Entry) -> Places | dict:
    """The entry's places (``Places``), or the problem it is (a dict)."""
    reading = errata.read(entry.text)
    if reading is None:
        return _problem(edition, entry, "errata-unread", f"张尔岐's note {entry.text} has no statement "
                        "conv/data/errata.toml can read (误作, 脱, 作 …): add its pattern there, or link it by hand")
    chapter = chapters.get(entry.chapter_id)
    if chapter is None:
        return _problem(edition, entry, "errata-chapter-absent", f"张尔岐's note on {entry.label} ({entry.text}): the "
                        f"篇 {entry.chapter_id} is not in this edition; convert its file with the notes to link the note")
    if chapter.id not in cache_:
        cache_[chapter.id] = streams(edition, chapter)
    decision = errata.decisions().get(entry.text)
    quotes = list(decision["quotes"]) if decision else [reading.lemma]
    places = [_places(work, chapter, cache_[chapter.id], quote) for quote in quotes]
    if decision and decision.get("passage"):  # the decision names the passage among the places
        places = [[t for t in p if t[0] == decision["passage"]] for p in places]
    found_as = None
    if not decision and not places[0]:
        for variant in errata.variants(reading):
            if (places := [_places(work, chapter, cache_[chapter.id], variant)])[0]:
                found_as = variant
                break
    missing = [quote for quote, found in zip(quotes, places) if not found]
    if missing:
        return _problem(edition, entry, "errata-not-found", f"张尔岐's note {entry.text}: {_missing(reading, decision, missing)} in no passage of "
                        f"{chapter.title} ({work.id}-{chapter.id}): check the lemma against the text, and the reading of "
                        "conv/data/errata.toml")
    result = Places(entry, reading, chapter, quotes, places, found_as, decision)
    if reading.commentary:  # …降出註云授授先者一人: the 注 quoted must be that of the passage found
        anchors = {t[0] for p in places for t in p}
        result.commentary_spans = [_target(note, *place)[1] for note in cache_[chapter.id][1]
                                   for place in note.find(reading.commentary) if note.owners[0][0].id in anchors]
        if not result.commentary_spans:
            return _problem(edition, entry, "errata-not-found", f"张尔岐's note {entry.text}: the 注 it quotes, "
                            f"{reading.commentary}, is in no note of {', '.join(sorted(anchors))}, where its lemma "
                            f"{reading.lemma} stands: check the lemma against the text")
    if not result.sure:
        settled = [_settle(entry, chapter, p) for p in places]
        if all(name for _, name in settled):
            result.places, result.settled_by = [p for p, _ in settled], settled[0][1]
    return result


def _missing(reading: errata.Reading, decision: dict | None, missing: list[str]) -> str:
    """What was looked for and not found, for a problem's message."""
    if decision:
        where = f" (in {decision['passage']})" if decision.get("passage") else ""
        return f"the words {'、'.join(missing)} of its decision in conv/data/errata.toml{where} are"
    variants = errata.variants(reading)
    return f"its lemma {reading.lemma}" + (f" (or {'、'.join(variants)})" if variants else "") + " is"


def _places(work: Work, chapter: Chapter, streams_: tuple, quote: str) -> list[tuple[str, list, tuple]]:
    """Where ``quote`` stands: in the 经 and 记; else in the 注; else in the 篇's printed title."""
    text, notes = streams_
    places = [(text, place) for place in text.find(quote)]
    if not places:
        places = [(note, place) for note in notes for place in note.find(quote)]
    targets = [_target(stream, start, end) for stream, (start, end) in places]
    if not targets and chapter.heading and lemma_pattern(quote).search(folded(chapter.heading)):
        targets = [(f"{work.id}-{chapter.id}", list(chapter.heading_span), (f"{work.id}-{chapter.id}",))]
    return targets


def _by_order(result: Places, found: list, index: int, order: dict[str, int]) -> None:
    """张尔岐's notes go through each 篇 in the order of its text: of an ambiguous entry's places,
    keep those between the passages of the nearest sure notes of the same list and 篇 before and
    after it (the same passages included); settled where each quote is left in one passage."""
    def neighbour(run) -> Places | None:
        return next((r for r in run if isinstance(r, Places) and r.sure and r.entry.kind == result.entry.kind
                     and r.chapter.id == result.chapter.id and not r.settled_by == "order"), None)

    before, after = neighbour(reversed(found[:index])), neighbour(found[index + 1:])
    low = max((order[t[0]] for p in before.places for t in p), default=-1) if before else -1
    high = min((order[t[0]] for p in after.places for t in p), default=len(order)) if after else len(order)
    kept = [[t for t in p if low <= order[t[0]] <= high] for p in result.places]
    result.between = [before.places[0][0][0] if before else None, after.places[0][0][0] if after else None]
    if all(len({t[0] for t in p}) == 1 for p in kept):
        result.places, result.settled_by = kept, "order"
    else:
        result.window = [t[0] for p in kept for t in p]


def _emit(edition: Edition, result: Places | dict) -> None:
    if isinstance(result, dict):
        edition.problems.append(result)
        return
    entry, reading, chapter = result.entry, result.reading, result.chapter
    if not result.sure:
        anchors = ", ".join(t[0] for p in result.places for t in p)
        count = sum(len(p) for p in result.places)
        low, high = (result.between or [None, None])
        bounds = (f"from {low or 'the start of the 篇'} to {high or 'its end'} (the passages of the notes before and "
                  "after it, both included)")
        edition.problems.append(_problem(edition, entry, "errata-ambiguous", f"张尔岐's note {entry.text}: its lemma "
                                f"{'、'.join(result.quotes)} stands {count} times in {chapter.title} ({anchors}), and the "
                                f"note does not say which; the order of the notes leaves {', '.join(result.window or [])} "
                                f"{bounds}: decide, and record the decision (its passage) in conv/data/errata.toml [[decision]]"))
        return
    targets = [t for p in result.places for t in p]
    seed, start, _ = entry.span
    edition.apparatus.append({
        "kind": entry.kind, "span": entry.span, "chapter": chapter.id, "passage": targets[0][0],
        "passages": list(dict.fromkeys(a for t in targets for a in t[2])), "target_spans": [t[1] for t in targets],
        "lemma": (result.decision or {}).get("lemma", reading.lemma), "subject": reading.subject,
        "statement": (result.decision or {}).get("statement", reading.statement),
        "class": reading.cls, "times": reading.times, "text": entry.text, "reference": entry.reference,
        # what the 监本/石本 prints (授 for 受; 脱肫字: 肫字), as the statement read says (a decision may restate it)
        **({"printed": reading.printed} if reading.printed and "statement" not in (result.decision or {}) else {}),
        "reference_reading": reference_reading(entry.reference), "page": page_at(edition.sources[seed], start),
        **({"settled_by": result.settled_by} if result.settled_by else {}),
        **({"between": result.between} if result.between else {}),
        **({"found_as": result.found_as} if result.found_as else {}),
        **({"also": list(reading.also)} if reading.also else {}),
        **({"commentary": reading.commentary, "commentary_spans": result.commentary_spans} if reading.commentary else {}),
        **({"quotes": result.quotes, "decision": result.decision["reason"]} if result.decision else {}),
        **({"remark": result.decision["remark"]} if result.decision and result.decision.get("remark") else {}),
    })


def jie_name(reference: str) -> str | None:
    """The 节 a 石本误字 note names in its small characters (補字公/酬賔節 → 公酬賔節, 記 → 記), or None
    (a 监本 leaf, 第二十七葉, names no 节)."""
    found = re.match(r"(?:補字)?(記|[^節莭]+[節莭])", reference.replace("/", ""))
    return found.group(1) if found and not found.group(1).startswith("第") else None


def _settle(entry: Entry, chapter: Chapter, targets: list) -> tuple[list, str | None]:
    """The places of an ambiguous lemma the note's 节 keeps: 記, those in the chapter's 记 (from its
    first section titled 記…, or of layer ``ji``); a 节 name, those in a section whose title holds its
    characters in order (公酬賔 in 右公取媵觶酬賓遂旅酬). Unchanged unless exactly one passage is kept."""
    name = jie_name(entry.reference) if entry.kind == "zhang-shiben" else None
    if name is None:
        return targets, None
    where: dict[str, tuple[str, bool]] = {}
    in_ji = False
    for section in chapter.sections:
        in_ji = in_ji or (section.title or "").startswith("記")
        for passage in section.passages:
            where[passage.id] = (folded(section.title or ""), in_ji or passage.layer == "ji")
    if name == "記":
        kept = [t for t in targets if where.get(t[0], ("", False))[1]]
    else:
        wanted = folded(name[:-1])
        kept = [t for t in targets if _in_order(wanted, where.get(t[0], ("", False))[0])]
    return (kept, name) if len({t[0] for t in kept}) == 1 else (targets, None)


def _in_order(chars: str, text: str) -> bool:
    """Every character of ``chars`` stands in ``text``, in this order."""
    rest = iter(text)
    return bool(chars) and all(char in rest for char in chars)


def _target(stream: Stream, start: int, end: int) -> tuple[str, list, tuple[str, ...]]:
    """The passage holding the lemma's first character, the lemma's span in the seed (from its first
    character to its last, across the notes between where the 句读 cuts it into two passages; to the
    end of the first passage where the second is in another file), and every passage it touches."""
    passage, first = stream.owners[start]
    last_passage, last = stream.owners[end - 1]
    if last_passage.span[0] != passage.span[0]:
        last = passage.span[2] - 1
    touched = tuple(dict.fromkeys(owner.id for owner, _ in stream.owners[start:end]))
    return passage.id, [passage.span[0], first, last + 1], touched


def reference_reading(reference: str) -> str:
    """The small-character reference with its gaiji read (第二十七&KR1114; → 第二十七葉)."""
    out = reference
    for entity, info in errata.gaiji().items():
        out = out.replace(fold.gaiji_char(int(entity[3:-1])), info["reading"])
    return out
