"""Characters simplified by their sense (一字多义，简化因义而异): 徵 the note of the scale keeps 徵.

The reading text folds one character at a time (``conv.normalize.fold_char``: OpenCC t2s per character), and
OpenCC's character table gives 徵 → 征, right for 納徵, 徵求, 無徵不信 but not for the note of the scale
(宫商角徵羽, zhǐ), which simplified Chinese writes 徵. ``conv/data/senses.toml`` names each such character,
the form its other sense keeps and words that show that sense; OpenCC's own phrase table (``TSPhrases.txt``
of the installed package: 宫商角徵羽, 角徵, 變徵, 徵聲, 徵音 …) adds the phrases in which it keeps the character.

:func:`keep` finds, passage by passage (its text and all its notes, the front matter's too), the occurrences
of each character: where every one lies in such a word, the passage reads the character in the form of that
sense — kept as printed (``Passage.kept``, as for what 郑注 distinguishes: ``conv.analyses.distinctions``) or
another character (閒 between reads 间 where the fold gives 闲: ``Passage.forms``); where some do and some do
not, a problem ``sense-mixed`` asks an editor, unless the character is read word by word (``by_word``: 於 the
sigh beside the prepositions of its passage) or an editor has read the passage (``[[place]]``: 一处一审): then
the occurrences named read that sense and the others fold (``Passage.kept_at``); a place whose passage no
longer holds as many as it counted is ``sense-place-stale``. Search finds a place by its sense form and as
printed (``conv/sphinx_ext/search/fold.sense_chars``).
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import opencc

from conv import datafiles as data
from conv.analyses.text import occurrence_count, passage_text, passages, reread
from conv.errors import ConversionError
from conv.model.tree import Edition
from conv.normalize import fold_keeping

PHRASES = Path(opencc.__file__).with_name("dictionary") / "TSPhrases.txt"


@cache
def _patterns() -> dict[str, re.Pattern]:
    """Each character of ``senses.toml`` → one pattern of its words (the data's and OpenCC's phrases that
    keep it), in reading forms but for the character itself: matched on ``fold_keeping(text, {char})``."""
    patterns = {}
    phrases = PHRASES.read_text(encoding="utf-8").splitlines()
    for entry in data.senses():
        char, kept = entry["char"], entry["keep"]
        words = set(entry["words"])
        for line in phrases if entry.get("phrases", True) else ():
            traditional, _, simplified = line.partition("\t")
            for at, found in enumerate(traditional):  # OpenCC's phrases where the character keeps its form
                if found == char and len(simplified.split(" ")[0]) == len(traditional) and simplified[at] == kept:
                    words.add(traditional)
        folded = sorted({fold_keeping(word, frozenset(char)) for word in words}, key=len, reverse=True)
        patterns[char] = re.compile("|".join(map(re.escape, folded)))
    return patterns


def covered(char: str, text: str) -> tuple[int, int]:
    """How many occurrences of ``char`` ``text`` holds, and how many of them lie in a word of its kept sense."""
    inside = _inside(char, text)
    return len(inside), sum(inside)


def _inside(char: str, text: str) -> list[bool]:
    """For each occurrence of ``char`` in ``text``, in order: does it lie in a word of its kept sense?"""
    reading = fold_keeping(text, frozenset(char))
    inside = set()
    for found in _patterns()[char].finditer(reading):
        inside.update(range(found.start(), found.end()))
    return [at in inside for at, found in enumerate(reading) if found == char]


def keep(edition: Edition) -> list[dict]:
    """Keep each character of its other sense unfolded in the passages where every occurrence has it, and at
    the occurrences a reviewed place names."""
    problems = []
    places = _places()
    for _, _, _, passage in passages(edition, every=True):  # the 提要's 乾隆 too
        blocks = [passage, *passage.notes]
        for char in _patterns():
            place = places.get((passage.id, char))
            if place is not None:
                problems += _keep_place(edition, passage, char, *place)
                continue
            each = [flag for block in blocks if char in block.text for flag in _inside(char, block.text)]
            inside = sum(each)
            if inside == len(each):
                if inside:
                    _read_sense(passage, char)
            elif inside and _sense(char).get("by_word"):  # 於穆 (wū) keeps 於, every other 於 folds (于)
                _read_sense(passage, char, [number for number, flag in enumerate(each, 1) if flag])
            elif inside:
                seed, start, _ = passage.span
                line, col = edition.sources[seed].position(start)
                problems.append({"seed": seed, "line": line, "col": col, "kind": "sense-mixed",
                                 "message": f"{passage.id}: {inside} of its {len(each)} {char} are in a word of the "
                                            f"sense that reads it {_sense(char)['keep']}, the others not: the reading "
                                            f"text folds them all — read the place and add the words to "
                                            f"conv/data/senses.toml, or name the occurrences that keep it in a "
                                            f"[[place]] there"})
    return problems


def _read_sense(passage, char: str, ordinals: list[int] | None = None) -> None:
    """``passage`` reads ``char`` in the form of its other sense: everywhere, or at ``ordinals`` only (1-based, in
    reading order over its text and notes)."""
    form = _sense(char)["keep"]
    if ordinals is not None:
        passage.kept_at[char] = tuple(sorted(set(ordinals)))
    elif form == char:
        passage.kept = "".join(sorted({*passage.kept, char}))
    if form != char:  # 閒 read 间: neither as printed nor the fold (闲)
        passage.forms[char] = form
    reread(passage)


def _sense(char: str) -> dict:
    """The ``[[sense]]`` of ``char``: ``keep``, the form its other sense reads (itself, as 徵, or another, 间), and
    ``by_word`` (each occurrence reads the sense of its words alone: the others are the common sense)."""
    return _senses()[char]


@cache
def _senses() -> dict[str, dict]:
    return {entry["char"]: entry for entry in data.senses()}


def _places() -> dict[tuple[str, str], tuple[int, dict]]:
    """(passage id, character) → (line, entry) of each reviewed place, its fields checked."""
    places = {}
    for line, entry in data.sense_places():
        count, ordinals = entry.get("count"), entry.get("keep")
        if (entry.get("char") not in _patterns() or not entry.get("passage") or not entry.get("reason")
                or not isinstance(count, int) or not isinstance(ordinals, list) or not ordinals
                or not all(isinstance(n, int) and 1 <= n <= count for n in ordinals)):
            raise ConversionError(data.display(data.DATA_DIR / "senses.toml"), line, 1,
                                  "a [[place]] needs passage, char (a character of a [[sense]]), count, keep (the "
                                  "ordinals kept, each from 1 to count) and reason",
                                  "complete the entry as the file's comment describes")
        places[(entry["passage"], entry["char"])] = (line, entry)
    return places


def _keep_place(edition: Edition, passage, char: str, line: int, entry: dict) -> list[dict]:
    """Keep the occurrences of ``char`` the reviewed ``entry`` names; a problem when the passage holds another count."""
    total = occurrence_count(passage, char)
    if total != entry["count"]:
        seed, start, _ = passage.span
        at_line, col = edition.sources[seed].position(start)
        return [{"seed": seed, "line": at_line, "col": col, "kind": "sense-place-stale",
                 "message": f"{passage.id}: conv/data/senses.toml:{line} reviews {entry['count']} {char} here, the "
                            f"passage holds {total}: the reading text folds them all — read the place again and "
                            f"correct the entry"}]
    _read_sense(passage, char, entry["keep"])
    return []


def occurrences(edition: Edition, passage, char: str) -> list[tuple[str, int, bool]]:
    """Each occurrence of ``char`` in ``passage``'s text and then its notes, in reading order: its seed, its offset
    there and whether the reading text keeps it (``Passage.kept_at``), for what quotes a stretch of the passage."""
    ordinals = frozenset(passage.kept_at.get(char, ()))
    found = []
    mapped = passage_text(edition, passage) if passage.text else None
    if mapped is not None:
        found += [(mapped.seed, mapped.offsets[at]) for at, index in enumerate(mapped.witness_index)
                  if mapped.witness[index] == char]
    for segment in passage.notes:
        found += [(segment.span[0], offset) for witness, offset in zip(segment.text, segment.offsets) if witness == char]
    return [(seed, offset, number in ordinals) for number, (seed, offset) in enumerate(found, 1)]
