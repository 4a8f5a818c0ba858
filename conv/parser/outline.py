"""The outline of the 通解 (通解篇目): part lines, 篇 titles, lost 篇 and labels in the 文渊阁 transcription.

朱熹's 通解 is not arranged as the 仪礼: five parts (门) — 家礼, 乡礼, 学礼, 邦国礼, 王朝礼 — of
numbered 篇, most of them not from the 仪礼 (``conv/data/tongjie_chapters.toml`` lists them in the
book's order). A 篇 opens with a *part line* (``家禮一之上``: part 家礼, its first 篇, upper half)
and then the 篇's *title line* (``士冠禮``), both on lines of their own; a title may carry a note
(``大學(大舊音泰今讀如字)``, ``王制之甲(分土)``). The data file says what the text alone cannot:

- ``title_before_part``: the title stands before the part line (``朝事義第四十四`` then
  ``王朝禮一之下``);
- ``no_part_line``: the witness prints no part line: its title line alone opens it, and only where it
  is the 篇 that comes next in the book;
- ``part_at_line_end``: the part line ends the line before the title, right after a note
  (``…俟知樂者考其得失云)學禮八¶禮樂記``: the last note of 詩樂, then 禮樂記's part line);
- ``lost``: the witness's words for a 篇 whose text the book lacks (``此一篇原闕``), on the line
  after the title;
- ``labels``: lines the book prints inside a 篇 as labels of what follows (``經七``, ``集補經``).

``Outline`` finds these lines in one file before the parser walks it: a line is structural only
when it is exactly such a text (the part line or title of a 篇 of the table, then nothing but
notes), so no line of the text is taken for one by accident. A part line whose title line is not
where it should be is reported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from conv import datafiles as data
from conv.parser.report import SeedReport
from conv.reader.source import Line, Source

NOTES_ONLY = r"((?:【[^【】]*】)*)"


@dataclass(frozen=True)
class OutlineLine:
    """A structural line: ``kind`` part | title | lost | label, the 篇 it belongs to, and the
    [start, end) offsets of its structural text (what follows on the line is notes)."""

    kind: str
    chapter: dict
    start: int
    end: int


@cache
def _part_pattern() -> re.Pattern:
    labels = sorted((c["label"] for c in data.tongjie_chapters() if c["label"]), key=len, reverse=True)
    return re.compile(rf"({'|'.join(map(re.escape, labels))}){NOTES_ONLY}")


@cache
def _by_label() -> dict[str, dict]:
    return {c["label"]: c for c in data.tongjie_chapters() if c["label"]}


def _printed(chapter: dict, compact: str) -> bool:
    """Is ``compact`` (a line without blanks) the title line of ``chapter``, with nothing but notes after it?"""
    printed = chapter["printed"]
    return bool(printed) and compact.startswith(printed) and re.fullmatch(NOTES_ONLY, compact[len(printed):]) is not None


class Outline:
    """The structural lines of one 通解 file (see the module docstring), by line number."""

    def __init__(self, source: Source, report: SeedReport) -> None:
        self.src = source
        self.report = report
        self.items: dict[int, OutlineLine] = {}
        content = [line for line in source.lines if source.text[line.start:line.end].strip()]
        self._find(content)

    def get(self, line: Line) -> OutlineLine | None:
        return self.items.get(line.number)

    def _compact(self, line: Line) -> tuple[str, list[int]]:
        """The line's characters without blanks, and the offset of each."""
        text = self.src.text
        offsets = [i for i in range(line.start, line.end) if not text[i].isspace()]
        return "".join(text[i] for i in offsets), offsets

    def _item(self, kind: str, chapter: dict, offsets: list[int], length: int) -> OutlineLine:
        return OutlineLine(kind, chapter, offsets[0], offsets[length - 1] + 1)

    def _find(self, content: list[Line]) -> None:
        chapters = data.tongjie_chapters()
        order = {c["id"]: i for i, c in enumerate(chapters)}
        current: dict | None = None
        compact = [self._compact(line) for line in content]
        for k, line in enumerate(content):
            text, offsets = compact[k]
            match = _part_pattern().fullmatch(text)
            if match:
                current = _by_label()[match.group(1)]
                self.items[line.number] = self._item("part", current, offsets, len(match.group(1)))
                before = k - 1
                if current.get("title_before_part") and before >= 0 and _printed(current, compact[before][0]):
                    self.items[content[before].number] = self._item("title", current, compact[before][1], len(current["printed"]))
                elif k + 1 < len(content) and _printed(current, compact[k + 1][0]):
                    self.items[content[k + 1].number] = self._item("title", current, compact[k + 1][1], len(current["printed"]))
                else:
                    self.report.problem(offsets[-1] + 1, "missing-title", f"the part line {match.group(1)} is not followed by the title of "
                                        f"{current['printed'] or current['name']}: check the witness and conv/data/tongjie_chapters.toml")
                continue
            if line.number in self.items or current is None:
                continue
            following = chapters[order[current["id"]] + 1] if order[current["id"]] + 1 < len(chapters) else None
            if following is not None and following.get("part_at_line_end") and text.endswith("】" + following["label"]) \
                    and k + 1 < len(content) and _printed(following, compact[k + 1][0]):
                current = following
                label = len(current["label"])
                self.items[line.number] = OutlineLine("part", current, offsets[-label], offsets[-1] + 1)
                self.items[content[k + 1].number] = self._item("title", current, compact[k + 1][1], len(current["printed"]))
            elif following is not None and following.get("no_part_line") and _printed(following, text):
                current = following
                self.items[line.number] = self._item("title", current, offsets, len(current["printed"]))
            elif current.get("lost") and text == current["lost"]:
                self.items[line.number] = self._item("lost", current, offsets, len(text))
            elif text in current.get("labels", ()):
                self.items[line.number] = self._item("label", current, offsets, len(text))
