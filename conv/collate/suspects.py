"""Suspected misprints (形讹候选): characters of one work that the other work, and the edition elsewhere, print otherwise.

Where the two works give one passage (``conv.edition.parallels``) and differ by one character, each side's
character is read in its context, ``WIDTH`` characters either side (folded: 賔 is 宾). When the whole edition
prints one side's context in that passage only, and the other side's in two places at least (the other work's
passage and one more), the first is a suspect:
句读 大射仪's 郑注 備尚末知當教 stands once, 備尚未知當教 three times (the 通解's 大射仪, the 句读's and the 通解's
乡射礼). A suspect is evidence for a reviewer, not a decision: the reviewed misprints of the words are in
``conv/data/misprints.toml`` (``words = true``), and each suspect says whether one stands there; a suspect
reviewed as standing (a form, a real difference) is recorded in the same file's ``[[stands]]`` with its reason.
Beyond the works' readings, the edition's repeated words are searched the same way with a longer context
(``REPEATED``): a 郑注 the 句读 gives in 乡射礼 and 大射仪, a 经 the 通解 quotes twice.
``python -m conv suspects`` lists them, with the places that print the other reading.
"""
from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, replace

from conv import datafiles as data
from conv.errors import ConversionError
from conv.model.tree import Edition, block_offsets

from .fold import key

WIDTH = 4  # characters either side: 8 in all, enough to be one phrase, few enough to recur
STANDS_FILE = "conv/data/misprints.toml"
REPEATED = 6  # either side, for words repeated anywhere (no reading between the works to start from): 12 in all


@dataclass(frozen=True)
class Block:
    """A passage's words or one of its notes: its text, its file and the offset of each character."""

    anchor: str
    text: str
    file: str
    offsets: tuple[int, ...]


@dataclass(frozen=True)
class Suspect:
    """``printed`` at ``offset`` of ``file`` (passage ``anchor``), where the other work prints ``other``.
    ``context``: the passage's words around it, as printed; ``elsewhere``: the passages printing the context with
    ``other``; ``reviewed``: the edition already reads that character otherwise (:func:`reviewed_places`);
    ``stands``: the reason of a reviewed decision that the character stands (:func:`standing`)."""

    file: str
    offset: int
    anchor: str
    printed: str
    other: str
    context: str
    elsewhere: tuple[str, ...]
    reviewed: bool
    stands: str = ""


def blocks(edition: Edition) -> list[Block]:
    """Every passage's words and notes with their characters' offsets (those whose text is not the file's
    characters one for one are left out)."""
    out = []
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                for passage in section.passages:
                    for block in (passage, *passage.notes):
                        offsets = block_offsets(edition.sources, block)
                        if offsets:
                            out.append(Block(passage.id, block.text, block.span[0], tuple(offsets)))
    return out


class Finder:
    """The suspects among single-character readings, against the folded text of ``found`` blocks."""

    def __init__(self, found: list[Block], width: int = WIDTH) -> None:
        self.blocks, self.width = found, width
        self.folded = folded = [_folded(block.text) for block in found]
        self.corpus = "\x00".join(folded)  # every block's folded text, apart
        self.starts = [0]  # where each block begins in the corpus
        for text in folded[:-1]:
            self.starts.append(self.starts[-1] + len(text) + 1)
        chars: dict[str, list[tuple[int, int, int]]] = {}  # file → (offset, block index, index in it), sorted
        for index, block in enumerate(found):
            chars.setdefault(block.file, []).extend((offset, index, at) for at, offset in enumerate(block.offsets))
        self.chars = {file: sorted(found) for file, found in chars.items()}

    def at(self, file: str, offset: int) -> tuple[int, int] | None:
        """The block holding the character at ``offset`` of ``file`` and its index there."""
        chars = self.chars.get(file, [])
        at = bisect.bisect_left(chars, (offset,))
        if at == len(chars) or chars[at][0] != offset:
            return None
        _, index, position = chars[at]
        return index, position

    def places(self, folded: str) -> list[str]:
        """The anchors of the passages whose words or notes hold ``folded`` (once per occurrence)."""
        out, at = [], self.corpus.find(folded)
        while at != -1:
            out.append(self.blocks[bisect.bisect_right(self.starts, at) - 1].anchor)
            at = self.corpus.find(folded, at + 1)
        return out

    def suspect(self, file: str, offset: int, other: str, reviewed: set[tuple[str, int]]) -> Suspect | None:
        """The character at ``offset`` of ``file`` as a suspect against ``other``, or None."""
        found = self.at(file, offset)
        if found is None:
            return None
        index, at = found
        text, width = self.blocks[index].text, self.width
        if at < width or at + width >= len(text):
            return None
        left, printed, right = text[at - width:at], text[at], text[at + 1:at + 1 + width]
        if _folded(printed) == _folded(other) or len(self.places(_folded(left + printed + right))) != 1:
            return None
        elsewhere = self.places(_folded(left + other + right))
        if len(elsewhere) < 2:  # the other work's own passage, and once more at least
            return None
        return Suspect(file, offset, self.blocks[index].anchor, printed, other, left + printed + right,
                       tuple(elsewhere), (file, offset) in reviewed)

    def repeated(self, width: int, reviewed: set[tuple[str, int]]) -> list[Suspect]:
        """Suspects among the edition's repeated words, the works' readings aside: a character whose context,
        ``width`` characters either side, the edition prints once, where the same context around another character
        stands in two places or more (the 通解's 有飱甕餼 once, 有飱饔餼 three times)."""
        centres: dict[str, dict[str, list[tuple[int, int]]]] = {}  # context → centre → (block, index) of each
        for index, text in enumerate(self.folded):
            for at in range(width, len(text) - width):
                around = text[at - width:at] + "\x00" + text[at + 1:at + 1 + width]
                centres.setdefault(around, {}).setdefault(text[at], []).append((index, at))
        out = []
        for around, found in centres.items():
            if len(found) < 2:
                continue
            other, places = max(found.items(), key=lambda item: len(item[1]))
            if len(places) < 2:
                continue
            for centre, (place, *more) in found.items():
                if more or centre == other:
                    continue
                index, at = place
                block = self.blocks[index]
                out.append(Suspect(block.file, block.offsets[at], block.anchor, block.text[at], other,
                                   block.text[at - width:at + width + 1],
                                   tuple(self.blocks[i].anchor for i, _ in places),
                                   (block.file, block.offsets[at]) in reviewed))
        return out


def _folded(text: str) -> str:
    """``text`` as compared: each character's reading form (``fold.key``)."""
    return "".join(key(char) for char in text)


def reviewed_places(edition: Edition) -> set[tuple[str, int]]:
    """(file, offset) of every character the edition already reads otherwise: a reviewed misprint, a seed's
    character emended from the collation (防 for 㫖)."""
    return {(record["span"][0], offset) for record in edition.apparatus
            if record.get("kind") == "misprint" or (record.get("kind") == "collation" and record.get("emended"))
            for offset in range(record["span"][1], max(record["span"][2], record["span"][1] + 1))}


def standing(edition: Edition) -> dict[tuple[str, int], str]:
    """(file, offset) → reason of each reviewed decision that a suspect stands (``[[stands]]`` of
    ``conv/data/misprints.toml``: seed, context, char, reason) in a file of the edition. A context not found once in
    its file, or holding its character other than once, stops with the data file's line: update or remove it."""
    out = {}
    for entry in data.stands():
        source = edition.sources.get(entry["seed"])
        if source is None:
            continue
        context, char = entry["context"], entry["char"]
        at = source.text.find(context)
        if at == -1 or source.text.find(context, at + 1) != -1 or context.count(char) != 1:
            raise ConversionError(STANDS_FILE, data.line_of("misprints.toml", f'context = "{context}"'), 1,
                                  f"stands {context!r} is not found once in {entry['seed']}, or holds {char!r} other than once",
                                  "update or remove the decision after checking the witness")
        out[(entry["seed"], at + context.index(char))] = entry["reason"]
    return out


def suspects(edition: Edition, width: int = WIDTH, repeated: int = REPEATED) -> list[Suspect]:
    """The suspects of the single-character readings between the works (the edition's ``parallel`` records),
    each side tried, in the order of the records; then those of the repeated words (:meth:`Finder.repeated`, with
    the longer context ``repeated``), in the order of the text, each character once."""
    finder = Finder(blocks(edition), width)
    reviewed = reviewed_places(edition)
    out: list[Suspect] = []
    for record in single_readings(edition.apparatus):
        for (file, start, _end), printed, other in ((record["span"], record["text"], record["witness_text"]),
                                                    (record["witness_span"], record["witness_text"], record["text"])):
            found = finder.suspect(file, start, other, reviewed)
            if found is not None and found.printed == printed and found not in out:
                out.append(found)
    seen = {(found.file, found.offset) for found in out}
    order: dict[str, int] = {}  # each file's first block: the files in reading order
    for index, block in enumerate(finder.blocks):
        order.setdefault(block.file, index)
    more = sorted(finder.repeated(repeated, reviewed), key=lambda found: (order[found.file], found.offset))
    decided = standing(edition)
    return [replace(found, stands=decided.get((found.file, found.offset), ""))
            for found in out + [found for found in more if (found.file, found.offset) not in seen]]


def single_readings(apparatus: Iterable[dict]) -> list[dict]:
    """The readings between the works that replace one character with another."""
    return [record for record in apparatus if record.get("kind") == "parallel" and record.get("op") == "replace"
            and len(record.get("text", "")) == 1 and len(record.get("witness_text", "")) == 1]
