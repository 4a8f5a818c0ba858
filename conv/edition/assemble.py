"""Assembling (汇编): seeds → one Edition. Chapters that several seeds share (乡射礼 from 000 and
001) are joined in seed order with a gap (lacuna) between them; works and chapters are ordered as
in the 仪礼. Then anchors are assigned from the ledger and conservation is checked.
"""
from __future__ import annotations

from pathlib import Path

from conv.anchors import assign as anchors

from conv.model import conservation

from conv import datafiles as data

from conv.reader import manifest

from conv.edition import overlap

from conv.reader import source as reader
from conv.reader import wenyuange

from conv.analyses import distinctions, readings, senses, terms
from conv.edition import catalogue, collation, errata, joins, parallels, parallels_within
from conv.errors import ConversionError
from conv.parser.restorations import Misprints
from conv.parser.corrections import Corrections
from conv.model.tree import Chapter, Edition, Work
from conv.nogc import no_cyclic_gc
from conv.parser.seeds import SeedParser


def convert(paths: list[Path], corrections: Corrections | None = None, ledger: "anchors.Ledger | None" = None, full: bool = False) -> Edition:
    """Convert seed files (in the given order) into an Edition.

    Anchors come from ``ledger`` (default: the committed ``conv/data/anchors.tsv``, read only);
    ``full``: the seeds are the whole edition, so every ledger anchor is checked (``conv.anchors.assign``).
    """
    with no_cyclic_gc():  # the model is a tree: see conv/nogc.py
        return _convert(paths, corrections, ledger, full)


def _convert(paths, corrections, ledger, full) -> Edition:
    corrections = corrections or Corrections()
    edition = Edition()
    seeds, witnesses = [], []
    for path in paths:
        path = Path(path)
        why = manifest.check_name(path.name)
        if why:
            raise ConversionError(str(path), 1, 1, why, "rename the seed (and its manifest entry)")
        entry = manifest.entry_for(path)
        source = wenyuange.read(path, entry) if wenyuange.is_mandoku(path) else reader.read(path)
        if source.name in edition.sources:
            raise source.error(0, f"seed {source.name} given twice", "name each seed once")
        edition.sources[source.name] = source
        (witnesses if source.paged else seeds).append((source, entry))
    by_work: dict[str, list] = {}
    for source, entry in witnesses:
        if entry is None:
            raise source.error(0, "a 文渊阁 file without a manifest entry", "add it to seeds/manifest.toml (work, juan, chapters)")
        by_work.setdefault(entry["work"], []).append(source)
    order_in_witness = {source.name: i for i, (source, _) in enumerate(witnesses)}
    parts: list[joins.Part] = []
    covered: dict[str, list[tuple[int, int]]] = {}
    seen = []  # the seeds, for the overlap check (the witness overlaps them by design)
    sides: dict = {}  # each witness file's side of the collation, read once for all the seeds of its work
    for number, (source, entry) in enumerate(seeds):
        result = SeedParser(source, entry, corrections).run()
        seen.append((source, result.work["id"], bool(entry and entry.get("copy_of"))))
        part = joins.Part((len(witnesses) + number, 0), result, "seed")
        work_witnesses = by_work.get(result.work["id"])
        if work_witnesses:
            _collate(edition, source, result, work_witnesses, part, order_in_witness, covered, corrections, sides)
        parts.append(part)
    overlap.check(seen)
    for source, entry in witnesses:
        parts += joins.parse_pieces(source, covered.get(source.name, []), entry, corrections,
                                    order_in_witness[source.name])
    parts.sort(key=lambda part: part.key)
    joins.mark_joins(parts)
    works: dict[str, Work] = {}
    for part in parts:
        _add(works, part)
        edition.dropped.extend(part.result.dropped)
        edition.apparatus.extend(joins.settle(part))
        edition.problems.extend(joins.settled_problems(part))
    corrections.check_used(set(edition.sources), set(edition.collations))
    Misprints().check_placed(set(edition.sources), edition.apparatus)
    order = {w["id"]: i for i, w in enumerate(data.works())}
    edition.works = sorted(works.values(), key=lambda w: order.get(w.id, 99))
    for work in edition.works:
        work.chapters.sort(key=lambda c: c.number)
        absent_chapters(work)
        for chapter in work.chapters:
            drop_empty_sections(chapter)
    place_in_witness(edition)
    edition.anchors = anchors.assign(edition, ledger, full=full)
    edition.redirects = edition.anchors.redirects
    edition.problems.extend(edition.anchors.problems)
    distinctions.protect(edition)  # after the anchors: a fingerprint is the fully folded text
    edition.problems.extend(senses.keep(edition))  # 徵 the note of the scale stays 徵 (as above: after them)
    collation.emend_readings(edition)  # after the anchors too: the stand-ins the witness corrects
    edition.problems.extend(readings.problems(edition))  # 今文/古文 notes that need an editor
    edition.problems.extend(terms.problems(edition))  # 名物 the sense rules cannot place
    errata.link(edition)  # 张尔岐's 监本正误 and 石本误字 on the passages they name
    catalogue.link(edition)  # the 通解's 目録: each 篇 title line → its 篇
    found = parallels.find(edition)  # 互见: the 经 and 郑注 both works give; nothing with one work
    edition.parallels = found.links + parallels_within.find(edition)
    edition.apparatus.extend(found.entries)
    conservation.check(edition)
    return edition


def _collate(edition, source, result, work_witnesses, part, order_in_witness, covered, corrections, sides) -> None:
    """Collate a seed with its work's witness files: where it stands, its pages, its differences;
    or one problem when it stands nowhere."""
    skip = [tuple(d["span"][1:]) for d in result.dropped]  # lines the witness does not have:
    if result.title_span:  # the e-text's title line, its catalogue line, dropped watermarks
        skip.append(result.title_span[1:])
    skip += [meta.span[1:] for chapter in result.chapters for meta in chapter.meta if meta.kind == "catalogue"]
    found = collation.collate(source, skip, work_witnesses, sides)
    if not found.aligned:
        line, col = source.position(0)
        edition.problems.append({"seed": source.name, "line": line, "col": col, "kind": "not-in-witness",
                                 "message": f"no stretch of the 文渊阁 transcription matches this seed ({found.collation.reason}): converted without collation"})
        return
    stretch = found.collation.stretch
    part.key = (order_in_witness[stretch[0][0]], stretch[0][1])
    part.span = (stretch[0][0], stretch[0][1], stretch[-1][2])
    collation.place_seed_chapters(result.chapters, found, edition.sources)
    edition.apparatus.extend(collation.entries(found, edition.sources, corrections))
    for name, start, end in stretch:
        start, end = joins.widen(edition.sources[name].text, start, end)
        covered.setdefault(name, []).append((start, end))
        edition.dropped.append({"span": [name, start, end], "kind": "collated", "seed": source.name,
                                "reason": f"collated with the seed {source.name}, the 底本 of this stretch: "
                                          "its text stands in the edition, the differences in the apparatus"})
    edition.collations[source.name] = found


def _add(works: dict[str, Work], part: joins.Part) -> None:
    result = part.result
    work = works.get(result.work["id"])
    if work is None:
        work = works[result.work["id"]] = Work(id=result.work["id"], title=result.work["title"])
    if result.title_span:
        work.title_spans.append(result.title_span)
    for chapter in result.chapters:
        existing = next((c for c in work.chapters if c.id == chapter.id), None)
        if existing is None:
            work.chapters.append(chapter)
            continue
        joins.join(existing, chapter, part.witness if part.joined_before else None)


def drop_empty_sections(chapter: Chapter) -> None:
    """A section with neither title nor passage (what the parser opens after a 篇's last 章旨,
    before its closing 卷 line) holds nothing to cite: it leaves the chapter."""
    empty = {id(s) for s in chapter.sections if s.title is None and not s.passages}
    if empty:
        chapter.sections = [s for s in chapter.sections if id(s) not in empty]
        chapter.order = [item for item in chapter.order if not (item[0] == "section" and id(item[1]) in empty)]


def absent_chapters(work: Work) -> None:
    """A 篇 the book lists but never prints (``absent`` in the work's chapter table: the 通解's
    卜筮, 「卜筮(缺)」 in its 目録) stands in its place, empty and marked lost, wherever the 篇
    before it was converted."""
    present = {chapter.id for chapter in work.chapters}
    table = data.chapters_of(work.id)
    for index, info in enumerate(table):
        if info.get("absent") and info["id"] not in present and index and table[index - 1]["id"] in present:
            chapter = Chapter(id=info["id"], title=info["name"], number=info["number"], part=info.get("part") or None,
                              lost=info["absent"])
            at = next((k for k, c in enumerate(work.chapters) if c.number > chapter.number), len(work.chapters))
            work.chapters.insert(at, chapter)


def place_in_witness(edition: Edition) -> None:
    """Each passage and section title of a paged transcription (``conv.reader.wenyuange``): its
    witness and its 文渊阁 page (a collated seed's come from the collation); each chapter title, its page."""
    for work in edition.works:
        for chapter in work.chapters:
            if chapter.heading_span is not None:  # a lost 篇 has its title's page alone (書數)
                chapter.page = reader.page_at(edition.sources[chapter.heading_span[0]], chapter.heading_span[1])
            for section in chapter.sections:
                if section.title_span is not None:
                    _place(edition, section, section.title_span)
                for passage in section.passages:
                    _place(edition, passage, passage.span)
                if section.title_span is None and section.passages:  # untitled: where it starts
                    section.witness, section.page = section.passages[0].witness, section.passages[0].page


def _place(edition: Edition, item, span) -> None:
    source = edition.sources[span[0]]
    if source.paged:
        item.witness = "kanripo"
        item.page = reader.page_at(source, span[1])
