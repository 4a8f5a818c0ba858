"""The JSON export (导出): ``python -m conv dump --json`` — the model exactly as DESIGN.md fixes it."""
from __future__ import annotations

from conv.analyses import glossary, readings, stretches, terms
from conv.model.tree import Chapter, Column, Edition, Gloss, Passage, Section, Segment


def gloss(g: Gloss) -> dict:
    return {
        "char": g.char, "kind": g.kind, "upper": g.upper, "lower": g.lower, "sound": g.sound,
        "text": g.text, "span": list(g.span), "position": g.position, "positions": g.positions,
        "status": g.status, "second": g.second, "context": g.context, "definition": g.definition,
        "scope": g.scope, "note": g.note, "alternatives": g.alternatives, "homophone": g.homophone,
        "restored": g.restored, "remark": g.remark, "related": g.related, "before": g.before,
    }


def segment(s: Segment) -> dict:
    return {
        "layer": s.layer, "text": s.text, "normalized": s.normalized, "span": list(s.span),
        "glosses": [gloss(g) for g in s.glosses], "lacuna": s.lacuna,
    }


def passage(p: Passage) -> dict:
    return {
        "id": p.id, "layer": p.layer, "text": p.text, "normalized": p.normalized,
        "span": list(p.span), "notes": [segment(s) for s in p.notes], "lacuna": p.lacuna, "kept": p.kept,
        "kept_at": {char: list(ordinals) for char, ordinals in p.kept_at.items()}, "forms": p.forms,
        "witness": p.witness, "page": p.page, **({"on_marker": p.on_marker} if p.on_marker else {}),
        **({"caption": p.caption, "columns": [column(c) for c in p.columns]} if p.columns else {}),
    }


def column(c: Column) -> dict:
    """A printed column of a figure (图): its cells, each ``{kind, halves, span, size}``."""
    return {"line": c.line, "span": list(c.span), "page": c.page,
            "cells": [{"kind": cell.kind, "halves": cell.halves, "span": list(cell.span), "size": cell.size} for cell in c.cells]}


def section(s: Section) -> dict:
    return {
        "id": s.id, "title": s.title, "title_span": list(s.title_span) if s.title_span else None,
        "marker": s.marker, "witness": s.witness, "page": s.page,
        "ji_marker": {"kind": s.ji_marker.kind, "text": s.ji_marker.text, "span": list(s.ji_marker.span)} if s.ji_marker else None,
        "title_notes": [segment(n) for n in s.title_notes],
        "passages": [passage(p) for p in s.passages],
    }


def chapter(c: Chapter) -> dict:
    return {
        "id": c.id, "title": c.title, "number": c.number, "part": c.part, "lost": c.lost, "seeds": c.seeds,
        "heading": c.heading, "heading_span": list(c.heading_span) if c.heading_span else None,
        "mulu": [segment(s) for s in c.mulu],
        "meta": [{"kind": m.kind, "text": m.text, "span": list(m.span)} for m in c.meta],
        "sections": [section(s) for s in c.sections],
        # which witness each run of passages comes from, and the line the chapter's head prints
        "witnesses": stretches.stretches(c), "witness_line": stretches.line(c),
    }


def edition(e: Edition) -> dict:
    return {
        "works": [
            {"id": w.id, "title": w.title, "title_spans": [list(s) for s in w.title_spans], "chapters": [chapter(c) for c in w.chapters]}
            for w in e.works
        ],
        "dropped": e.dropped,
        "apparatus": e.apparatus,
        "problems": e.problems,
        "redirects": e.redirects,
        "parallels": e.parallels,  # 互见 (conv.edition.parallels): counterparts, note groups, 参见
        "catalogue": e.catalogue,  # the 通解's 目録 → its 篇 (conv.edition.catalogue)
        "provisional_anchors": [item.anchor for item in e.anchors.provisional] if e.anchors else [],
        **analyses(e),  # "terms", "variants" (今古文), "glossary" (郑注训诂): conv/analyses/
    }


def analyses(edition: Edition) -> dict:
    """The indexes for the JSON export: top-level keys ``terms``, ``variants``, ``glossary``."""
    return {
        "terms": terms.export(edition),
        "variants": readings.export(edition),
        "glossary": glossary.export(edition),
    }
