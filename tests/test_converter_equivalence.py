"""The converter's fast paths (issue #18, point 5) against the per-character loops they replaced.

Each rewritten routine must give exactly what the old one gave: the old code is kept here as the
oracle and both run on the real witnesses (the seeds, 文渊阁 files with gaiji entities and
composed characters) and on generated texts full of markup.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv import unencoded
from conv.edition import collation, joins
from conv.model.tree import TEXT_CHAR, is_markup, text_char_offsets
from conv.reader import manifest, source as reader, wenyuange

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
#: 文渊阁 files with gaiji entities (&KR…;) and composed characters ([炫-ㄙ+ㄥ]).
WITNESS_FILES = [ROOT / "seeds" / "wenyuange" / name.split("_")[0] / name
                 for name in ("KR1d0038_012.txt", "KR1d0038_015.txt", "KR1d0085_003.txt", "KR1d0085_024.txt")]
#: Texts of the witnesses' alphabet: markup, line breaks, blanks, Han, a gaiji stand-in, a PUA code point.
ALPHABET = st.sampled_from(list("【】○\u3000 \t\r\n射宾賔¶/(") + ["\U000F0367", "\ue14b", "\u00a0", "\u2028"])
TEXTS = st.text(ALPHABET, max_size=60)


def old_seed_side(source, skip):
    chars, offsets = [], []
    skip = sorted(skip)
    for offset, char in enumerate(source.text):
        if is_markup(char) or any(a <= offset < b for a, b in skip):
            continue
        chars.append(char)
        offsets.append(offset)
    return "".join(chars), offsets


def old_witness_side(source):
    chars, offsets, ends = [], [], []
    original = source.witness.text
    for offset, char in enumerate(source.text):
        if is_markup(char):
            continue
        chars.append(char)
        offsets.append(offset)
        if unencoded.is_stand_in(char):
            ends.append(original.index(";" if original[offset] == "&" else "]", offset) + 1)
        else:
            ends.append(offset + 1)
    return "".join(chars), offsets, ends


def old_mask(text, start, end):
    return "".join(c if start <= i < end or c in "\r\n" else joins.BLANK for i, c in enumerate(text))


def test_text_char_is_not_markup_for_every_code_point():
    """The ``re`` class of a text character is exactly ``not is_markup`` (``\\s`` is ``str.isspace``)."""
    differ = [hex(c) for c in range(0x110000) if (TEXT_CHAR.match(chr(c)) is None) != is_markup(chr(c))]
    assert differ == []


def test_stand_in_pattern_is_is_stand_in_for_every_code_point():
    differ = [hex(c) for c in range(0x110000) if (unencoded.STAND_IN.match(chr(c)) is not None) != unencoded.is_stand_in(chr(c))]
    assert differ == []


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(0, 70), st.integers(0, 70))
def test_text_char_offsets_is_the_old_loop(text, start, end):
    assert text_char_offsets(text, start, end) == [i for i in range(start, min(end, len(text))) if not is_markup(text[i])]
    assert text_char_offsets(text, start) == [i for i in range(start, len(text)) if not is_markup(text[i])]


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(0, 70), st.integers(0, 70))
def test_mask_is_the_old_loop(text, start, end):
    masked = joins.mask(text, start, end)
    assert masked == old_mask(text, start, end)
    assert len(masked) == len(text)


class _Text:
    def __init__(self, text):
        self.text, self.name = text, "x.txt"


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.lists(st.tuples(st.integers(0, 70), st.integers(0, 70)), max_size=4))
def test_seed_side_is_the_old_loop_with_any_skips(text, skip):
    """Overlapping, empty and reversed skip spans too."""
    side = collation.seed_side(_Text(text), skip)
    assert (side.chars, side.offsets) == old_seed_side(_Text(text), skip)


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name[:3])
def test_seed_side_of_each_seed(path):
    source = reader.read(path)
    lines = source.text.split("\n")
    skip = [(0, len(lines[0])), (len(source.text) // 2, len(source.text) // 2 + 500)]  # the title line, a stretch
    side = collation.seed_side(source, skip)
    chars, offsets = old_seed_side(source, skip)
    assert side.chars == chars and side.offsets == offsets
    assert len(chars) > 1000


@pytest.mark.parametrize("path", WITNESS_FILES, ids=lambda p: p.name)
def test_witness_side_of_files_with_unencoded_characters(path):
    source = wenyuange.read(path, manifest.entry_for(path))
    side = collation.witness_side(source)
    assert (side.chars, side.offsets, side.ends) == old_witness_side(source)
    stand_ins = [i for i, char in enumerate(side.chars) if unencoded.is_stand_in(char)]
    assert stand_ins, "the file has characters Unicode lacks"
    for i in stand_ins:  # a stand-in's end is the end of its entity in the file
        assert source.witness.text[side.offsets[i]:side.ends[i]] == unencoded.markup(side.chars[i])


def test_collate_reads_each_witness_file_once_for_the_seeds_of_a_work(monkeypatch):
    """The seeds of one work share the witness sides (``sides``): the same Side objects."""
    calls = []
    real = collation.witness_side
    monkeypatch.setattr(collation, "witness_side", lambda source: calls.append(source.name) or real(source))
    path = WITNESS_FILES[0]
    witness = wenyuange.read(path, manifest.entry_for(path))
    seed = reader.read(SEEDS[0])
    sides: dict = {}
    first = collation.collate(seed, [], [witness], sides)
    second = collation.collate(seed, [], [witness], sides)
    assert calls == [witness.name]
    assert sides[witness.name].chars == old_witness_side(witness)[0]
    assert first.collation.mapping == second.collation.mapping


def test_not_cjk_pattern_is_not_is_cjk_for_every_code_point():
    """``report.scripts`` looks for foreign letters among the characters this class finds."""
    from conv.normalize import NOT_CJK_PATTERN, is_cjk

    differ = [hex(c) for c in range(0x110000) if (NOT_CJK_PATTERN.match(chr(c)) is not None) == is_cjk(chr(c))]
    assert differ == []


def _glosses(edition):
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                for passage in section.passages:
                    for segment in passage.notes:
                        yield from segment.glosses


def test_readings_worked_out_once_per_sound_are_the_uncached_ones(edition):
    """Every gloss of the seeds: the memoized reading and plausibility are what the uncached
    routines give, and each call hands out lists of its own."""
    from conv.parser import phonology

    found = list(_glosses(edition))
    assert len(found) > 100 and len({phonology.sound_of(g) for g in found}) < len(found)
    for gloss in found:
        sound = phonology.sound_of(gloss)  # what the uncached routines take (a tone included: 長上聲)
        cached, fresh = phonology.reading(gloss), phonology._reading(sound)
        assert cached == fresh
        again = phonology.reading(gloss)
        assert again == cached and again.positions is not cached.positions
        assert again.alternatives is not cached.alternatives
        assert phonology.plausible(gloss) == phonology.plausible_sound.__wrapped__(sound)


def old_find_placed(text, catalogue):
    from conv.analyses.terms import _in_context

    forms, found, i, n = catalogue.forms, [], 0, len(text)
    while i < n:
        for length in range(min(catalogue.longest, n - i), 0, -1):
            word = forms.get(text[i : i + length])
            if word is not None:
                break
        else:
            i += 1
            continue
        term, form = catalogue.terms[word], text[i : i + length]
        if not term.ruled:
            found.append((i, i + length, word, True))
        elif not _in_context(text, i, form, term.homographs):
            placed = not term.include or _in_context(text, i, form, term.include)
            if placed or not term.only:
                found.append((i, i + length, word, placed))
        i += length
    return found


def _term_texts():
    from conv.analyses import terms

    catalogue = terms.load()
    pieces = sorted(catalogue.forms) + sorted({c for form in catalogue.forms for c in form}) + list("之也而以于其")
    return catalogue, st.lists(st.sampled_from(pieces), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_find_placed_by_the_matcher_is_the_old_scan(data):
    """Leftmost-longest over the whole term list, as the position-by-position scan found it."""
    from conv.analyses import terms

    catalogue, texts = _term_texts()
    text = data.draw(texts)
    assert terms.find_placed(text, catalogue) == old_find_placed(text, catalogue)


def test_find_placed_on_the_seeds_passages(edition):
    from conv.analyses import terms

    catalogue = terms.load()
    texts = [passage.normalized for work in edition.works for chapter in work.chapters
             for section in chapter.sections for passage in section.passages]
    assert sum(len(terms.find_placed(text, catalogue)) for text in texts) > 1000
    assert all(terms.find_placed(text, catalogue) == old_find_placed(text, catalogue) for text in texts)


def old_markup(chars, text, line):
    """The per-character loop over every character of the line (written as a table)."""
    depth = 0
    for index in range(line.start, line.end):
        char = text[index]
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char in "()":
            chars[index] = "【】"["()".index(char)]
        elif char == "¶" or char == "/" and depth:
            chars[index] = wenyuange.BLANK


@pytest.mark.parametrize("path", WITNESS_FILES[:2], ids=lambda p: p.name)
def test_transliteration_is_the_old_per_character_one(path, monkeypatch):
    new = wenyuange.read(path, manifest.entry_for(path)).text
    monkeypatch.setattr(wenyuange, "_markup", old_markup)
    assert new == wenyuange.read(path, manifest.entry_for(path)).text
    assert "【" in new and "(" not in new.replace("\n", "")
