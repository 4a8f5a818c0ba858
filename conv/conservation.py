"""Conservation (守恒): every character of a seed other than whitespace and the markup characters
【】○ U+3000 lies in exactly one span — a title, passage, segment, metadata line or dropped record.
"""
from __future__ import annotations

import re

from .errors import ConservationError
from .model import TEXT_CHAR, Edition


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
                    yield f"passage {passage.id}", passage.span
                    for segment in passage.notes:
                        yield f"segment {segment.layer} of {passage.id}", segment.span
    for record in edition.dropped:
        yield "dropped", tuple(record["span"])


_INCREMENT = bytes(min(c + 1, 2) for c in range(256))  # 0 → 1 → 2 (several)


def check(edition: Edition) -> None:
    """Raise ConservationError at the first character covered zero or several times."""
    coverage = {name: bytearray(len(source.text)) for name, source in edition.sources.items()}
    for _label, (seed, start, end) in spans(edition):
        counts = coverage[seed]
        counts[start:end] = counts[start:end].translate(_INCREMENT)
    for seed, counts in coverage.items():
        source = edition.sources[seed]
        if _all_once(source.text, counts):
            continue
        for match in TEXT_CHAR.finditer(source.text):
            offset = match.start()
            if counts[offset] != 1:
                what = "in no span (lost)" if counts[offset] == 0 else "in several spans (duplicated)"
                line, col = source.position(offset)
                raise ConservationError(source.name, line, col, f"conservation violated: {source.text[offset]!r} at offset {offset} is {what}", "this is a converter bug: please report it with the seed")


def _all_once(text: str, counts: bytearray) -> bool:
    """Is every text character counted exactly once? (markup characters may be counted or not)

    Done on whole byte strings as big integers: the counts, masked to the text characters, must
    equal 1 at each text character.
    """
    ones = _MARKUP_CHARS.sub("\x00", TEXT_CHAR.sub("\x01", text)).encode("latin-1")
    mask = ones.translate(_ONE_TO_FF)
    return int.from_bytes(counts, "big") & int.from_bytes(mask, "big") == int.from_bytes(ones, "big")


_MARKUP_CHARS = re.compile(r"[【】○\s]")
_ONE_TO_FF = bytes(255 if c == 1 else c for c in range(256))
