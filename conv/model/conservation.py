"""Conservation (守恒): every character of a seed other than whitespace and the markup characters
【】○ U+3000 lies in exactly one span — a title, passage, segment, metadata line or dropped record; in a figure
(图, ``conv.parser.figures``) exactly one cell.
"""
from __future__ import annotations

import re

from conv.errors import ConservationError
from conv.model.tree import TEXT_CHAR, Edition


def spans(edition: Edition):
    """Every span that accounts for seed characters, with a label."""
    for work in edition.works:
        for span in work.title_spans:
            yield "work title", span
        for chapter in work.chapters:
            if chapter.heading_span:
                yield "chapter title", chapter.heading_span
            for segment in chapter.mulu:
                yield "mulu", segment.span
            for meta in chapter.meta:
                yield f"meta {meta.kind}", meta.span
            for section in chapter.sections:
                if section.title_span:
                    yield "section title", section.title_span
                if section.ji_marker:
                    yield "记 marker", section.ji_marker.span
                for segment in section.title_notes:
                    yield "title note", segment.span
                for passage in section.passages:
                    if passage.columns:  # a figure (图): its cells, each character in exactly one
                        yield from ((f"cell of figure {passage.id}", cell.span) for column in passage.columns for cell in column.cells)
                        continue
                    yield f"passage {passage.id}", passage.span
                    for segment in passage.notes:
                        yield f"segment {segment.layer} of {passage.id}", segment.span
    for record in edition.dropped:
        yield "dropped", tuple(record["span"])


def _all_spans(edition: Edition):
    """The spans of ``spans()`` without their labels (the check needs a label only to report)."""
    for work in edition.works:
        yield from work.title_spans
        for chapter in work.chapters:
            if chapter.heading_span:
                yield chapter.heading_span
            for segment in chapter.mulu:
                yield segment.span
            for meta in chapter.meta:
                yield meta.span
            for section in chapter.sections:
                if section.title_span:
                    yield section.title_span
                if section.ji_marker:
                    yield section.ji_marker.span
                for segment in section.title_notes:
                    yield segment.span
                for passage in section.passages:
                    if passage.columns:  # a figure (图): its cells instead of its span
                        yield from (cell.span for column in passage.columns for cell in column.cells)
                        continue
                    yield passage.span
                    for segment in passage.notes:
                        yield segment.span
    for record in edition.dropped:
        yield tuple(record["span"])


_INCREMENT = bytes(min(c + 1, 2) for c in range(256))  # 0 → 1 → 2 (several)
_NOT_ONCE = re.compile(rb"[^\x01]+")  # a run of characters counted zero or several times


def check(edition: Edition) -> None:
    """Raise ConservationError at the first character covered zero or several times."""
    coverage = {name: bytearray(len(source.text)) for name, source in edition.sources.items()}
    for seed, start, end in _all_spans(edition):
        counts = coverage[seed]
        counts[start:end] = counts[start:end].translate(_INCREMENT)
    for seed, counts in coverage.items():
        source = edition.sources[seed]
        text = source.text
        # Characters not counted exactly once may only be markup: join them all and look for a
        # text character once; only then find the first one, to report it.
        uncounted = "".join([text[m.start() : m.end()] for m in _NOT_ONCE.finditer(counts)])
        if TEXT_CHAR.search(uncounted) is None:
            continue
        for match in _NOT_ONCE.finditer(counts):
            found = TEXT_CHAR.search(text, match.start(), match.end())
            if found is not None:
                offset = found.start()
                what = "in no span (lost)" if counts[offset] == 0 else "in several spans (duplicated)"
                line, col = source.position(offset)
                raise ConservationError(source.name, line, col, f"conservation violated: {text[offset]!r} at offset {offset} is {what}", "this is a converter bug: please report it with the seed")
        raise AssertionError("unreachable: a text character counted other than once was found")  # pragma: no cover
