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

from conv.reader import source as reader

from conv.analyses import distinctions, readings, terms
from conv.parser.corrections import Corrections
from conv.model.tree import Edition, Meta, Work
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
    works: dict[str, Work] = {}
    for path in paths:
        path = Path(path)
        source = reader.read(path)
        if source.name in edition.sources:
            raise source.error(0, f"seed {source.name} given twice", "name each seed once")
        edition.sources[source.name] = source
        result = SeedParser(source, manifest.entry_for(path), corrections).run()
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
            _join(existing, chapter)
        edition.dropped.extend(result.dropped)
        edition.apparatus.extend(result.apparatus)
        edition.problems.extend(p.as_dict() for p in result.problems)
    corrections.check_used(set(edition.sources))
    order = {w["id"]: i for i, w in enumerate(data.works())}
    edition.works = sorted(works.values(), key=lambda w: order.get(w.id, 99))
    for work in edition.works:
        work.chapters.sort(key=lambda c: c.number)
    edition.anchors = anchors.assign(edition, ledger, full=full)
    edition.redirects = edition.anchors.redirects
    edition.problems.extend(edition.anchors.problems)
    distinctions.protect(edition)  # after the anchors: a fingerprint is the fully folded text
    edition.problems.extend(readings.problems(edition))  # 今文/古文 notes that need an editor
    edition.problems.extend(terms.problems(edition))  # 名物 the sense rules cannot place
    conservation.check(edition)
    return edition


def _join(chapter, later) -> None:
    """Append a later seed's part of a chapter; the two excerpts meet at a gap."""
    order = chapter.order
    if order and order[-1] == ("lacuna", "end"):
        order.pop()
    later_order = list(later.order)
    if later_order and later_order[0] == ("lacuna", "start"):
        later_order.pop(0)
    order.append(("lacuna", "gap"))
    order.extend(later_order)
    chapter.sections.extend(later.sections)
    chapter.meta.extend(later.meta)
    chapter.mulu.extend(later.mulu)
    chapter.seeds.extend(later.seeds)
    if later.heading and not chapter.heading:
        chapter.heading, chapter.heading_span = later.heading, later.heading_span
    elif later.heading:
        # the same chapter title twice: keep the second as a metadata line, where it stood
        repeated = Meta("chapter-title", later.heading, later.heading_span)
        chapter.meta.append(repeated)
        index = order.index(("heading", None), len(order) - len(later_order))
        order[index] = ("meta", repeated)
