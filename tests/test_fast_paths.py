"""The converter's fast paths give exactly what the plain definitions give.

Each shortcut taken for speed (a seed folded once and sliced, offsets kept as ranges, a gloss run
parsed once, conservation checked on whole byte strings, fingerprints computed once) is compared
here with the straightforward computation it replaces, on the seeds and on generated text.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv import datafiles as data
from conv import normalize

from conv.anchors import assign as anchors

from conv.model import conservation

from conv.parser import glosses

from conv.analyses import text as indexes

from conv.analyses import readings
from conv.parser.corrections import Corrections
from conv.errors import ConservationError
from conv.model.tree import TEXT_CHAR, text_offsets
from seedtext import as_read

# Witness characters that fold (賔 乗 説 traditional 說 禮 PUA 玄/弦, spurious U+E14B), ones that do
# not, markup and whitespace.
ALPHABET = "司射适堂西反音如字之也又上下声賔乗説說禮\uea20\ueb8e\ue14b【】○\u3000 \n"
TEXTS = st.text(alphabet=ALPHABET, max_size=40)


def segments_of(edition, kept: bool = False):
    """Every segment; with ``kept``, ``(segment, characters its passage keeps unfolded)``: what
    郑注 distinguishes (conv.analyses.distinctions: 竝 in 竝并也) is left as printed."""
    for work in edition.works:
        for chapter in work.chapters:
            for segment in chapter.mulu:
                yield (segment, frozenset()) if kept else segment
            for section in chapter.sections:
                for segment in section.title_notes:
                    yield (segment, frozenset()) if kept else segment
                for passage in section.passages:
                    for segment in passage.notes:
                        yield (segment, frozenset(passage.kept)) if kept else segment


# -- a seed folded once ------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(text=TEXTS, data=st.data())
def test_folded_source_slices_fold_like_fold(text, data):
    folded = normalize.FoldedSource(text)
    assert folded.same == normalize.fold_same_length(text)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6)))
    pieces = [(a, b) for a, b in zip(cuts[::2], cuts[1::2])]
    if not pieces:
        return
    witness = "".join(text[a:b] for a, b in pieces)
    assert folded.fold(witness, pieces) == normalize.fold(witness)
    for a, b in pieces:
        assert folded.same_length(a, b) == normalize.fold_same_length(text[a:b])


def test_a_spurious_code_point_folds_away_in_a_slice_too(monkeypatch):
    """No code point of the seeds is spurious any more (U+E14B is a real character); the rule stays
    for one that will be: a made-up entry."""
    table = data.pua()
    monkeypatch.setattr(data, "pua", lambda: {**table, "\ue999": {"char": "", "kind": "spurious", "reason": "test"}})
    text = "賔\ue999射"
    assert normalize.FoldedSource(text).fold(text, [(0, 3)]) == "宾射" == normalize.fold(text)


def test_model_texts_are_folded_like_fold(edition):
    """The reading text is the printed text folded, a reviewed misprint of the words read right (seedtext.as_read)."""
    for segment, keep in segments_of(edition, kept=True):
        read = as_read(segment.text, segment.span[0], segment.offsets, edition.apparatus)
        assert segment.normalized == normalize.fold_keeping(read, keep)
    for _, _, _, passage in indexes.passages(edition):
        offsets = text_offsets(edition.sources[passage.span[0]].text, passage.span, passage.text)
        read = as_read(passage.text, passage.span[0], offsets, edition.apparatus)
        assert passage.normalized == normalize.fold_keeping(read, frozenset(passage.kept))
    assert [p.id for _, _, _, p in indexes.passages(edition) if p.kept] == ["judou-shaolao-28"]


# -- offsets as ranges -------------------------------------------------------------------------
def test_segment_offsets_hold_the_segment_text(edition):
    kinds = set()
    for segment in segments_of(edition):
        seed, start, end = segment.span
        source = edition.sources[seed].text
        offsets = segment.offsets
        assert "".join(source[o] for o in offsets) == segment.text
        assert (start, end) == (offsets[0], offsets[-1] + 1)
        if isinstance(offsets, range):  # a range only where contiguous (a list may be, after a split)
            assert offsets.step == 1 and offsets == range(start, end)
        kinds.add(type(offsets))
    assert kinds == {range, list}  # the seeds have notes cut by page breaks


def test_mapped_texts_are_those_of_plain_tuples(edition):
    def plain(seed, witness, offsets, keep=frozenset()):
        read = as_read(witness, seed, offsets, edition.apparatus)  # a reviewed misprint of the words read right
        normalized = normalize.fold_keeping(read, keep)
        chars, kept, index = [], [], []
        for i, (char, offset) in enumerate(zip(read, offsets)):
            if normalize.fold_char(char):
                chars.append(char if char in keep else normalize.fold_char(char))
                kept.append(offset)
                index.append(i)
        assert "".join(chars) == normalized
        return indexes.MappedText(seed, normalized, tuple(kept), witness, tuple(index))

    for _, _, _, passage in indexes.passages(edition):
        for segment in passage.notes:
            fast = indexes.segment_text(segment)
            slow = plain(segment.span[0], segment.text, list(segment.offsets), frozenset(passage.kept))
            n = len(slow.normalized)
            assert fast.normalized == slow.normalized
            for a, b in [(0, n), (0, 1), (n // 2, n), (n - 1, n), (n, n), (1, 1)]:
                assert fast.span(a, b) == slow.span(a, b)
                assert fast.witness_slice(a, b) == slow.witness_slice(a, b)
        mapped = indexes.passage_text(edition, passage)
        seed, start, end = passage.span
        source = edition.sources[seed].text
        offsets = [i for i in range(start, end) if not (source[i] in "【】○\u3000" or source[i].isspace())]
        slow = plain(seed, passage.text, offsets, frozenset(passage.kept))
        assert (mapped.normalized, list(mapped.offsets), list(mapped.witness_index)) == (slow.normalized, list(slow.offsets), list(slow.witness_index))


# -- glosses parsed once -----------------------------------------------------------------------
GLOSSY = st.lists(st.sampled_from(
    ["弛尸纸反", "仆音赴", "相如字", "又章允反", "无射之射食亦反", "注同", "下同", "寸上声", "割也", "本或作离",
     "宾降乃反位", "之", "音", "反", "切", "也", " ", "\u3000", "间间厠之间", "乐乐下字音洛", "便其事也"]
), max_size=8).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=GLOSSY)
def test_gloss_run_is_parse_run_of_a_run(text):
    """``gloss_run`` of a unit inside a note's parentheses (``joined``) is ``parse_run`` of a text of glosses through and
    through; outside them it is the same or None, never other glosses: there it reads no gloss of several context
    words (宾降乃反位间间厠之间之之反 is 经 then glosses, not a gloss of 间 in 位间 and 间厠)."""
    found, unparsed = glosses.parse_run(text)
    expected = (found, unparsed) if found and not unparsed and glosses._OPENS_WITH_GLOSS.match("".join(text.split())) else None
    assert glosses.gloss_run(text, joined=True) == expected
    assert glosses.gloss_run(text) in (expected, None)
    if not any(g.context and len(g.context) > 2 for g in found):
        assert glosses.gloss_run(text) == expected


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(GLOSSY, st.text(alphabet="音反切如字之 \u3000\n\t射宾", max_size=12)))
def test_opens_with_gloss_reads_the_text_without_whitespace(text):
    assert glosses.opens_with_gloss(text) == (glosses._OPENS_WITH_GLOSS.match("".join(text.split())) is not None)


@settings(max_examples=300, deadline=None)
@given(text=GLOSSY)
def test_a_parse_cut_short_agrees_on_whole_runs(text):
    for options in (glosses._FULL, glosses._EMBEDDED):
        found, unparsed = glosses._parse(text, options)
        short, cut = glosses._parse(text, options, whole=True)
        assert bool(cut) == bool(unparsed)
        if not unparsed:
            assert short == found


# -- corrections looked up by key --------------------------------------------------------------
def test_corrections_index_finds_the_first_matching_entry():
    entries = [
        {"id": "a", "seed": "s", "kind": "layer", "text": "x", "layer": "zhu", "reason": "r"},
        {"id": "b", "seed": "s", "kind": "layer", "text": "x", "layer": "an", "reason": "r"},
        {"id": "c", "seed": "t", "kind": "title", "text": "右x", "title": "右x", "reason": "r"},
    ]
    corrections = Corrections(entries)
    assert corrections.layer("s", "x")["id"] == "a"
    assert corrections.layer("t", "x") is None and corrections.title("s", "右x") is None
    assert corrections.used == {"a"}
    assert corrections.applies("s", "layer") and not corrections.applies("s", "title")
    assert corrections.applies("t", "title") and not corrections.applies("u", "layer")


# -- anchors: fingerprints computed once -------------------------------------------------------
def test_section_items_are_those_of_the_plain_functions(edition):
    for _, passages, sections in anchors._items(edition):
        for item in sections:
            section = item.obj
            assert item.fingerprint == anchors.section_fingerprint(section)
            assert item.untitled == anchors.untitled_fingerprint(section)
            assert item.opening == anchors.section_opening(section)
        for item in passages:
            assert item.fingerprint == anchors.passage_fingerprint(item.obj)
            assert item.opening == anchors.passage_opening(item.obj)


def test_the_ledger_grouped_by_chapter_gives_its_highest_numbers(edition):
    outcome = edition.anchors
    ledger = outcome.ledger
    for prefix in {entry.prefix for entry in ledger.entries.values()}:
        for kind in ("passage", "section"):
            numbers = [int(item.anchor.rsplit("-", 1)[1].lstrip("s")) for item in outcome.items
                       if item.provisional and item.prefix == prefix and item.kind == kind]
            if numbers:
                assert min(numbers) == ledger.highest(prefix, kind) + 1


# -- readings: only segments that name a tradition ---------------------------------------------
def test_readings_look_at_every_statement(edition):
    fast = [(p.id, s.span) for p, _, s in readings._with_statements(edition)]
    slow = [(p.id, s.span) for p, _, s in indexes.zhu_segments(edition) if readings.statements(normalize.fold(s.text))]
    assert fast == slow and fast


# -- conservation on whole byte strings --------------------------------------------------------
def first_offender(edition):
    """The plain check: count every span character by character; the first text character
    counted other than once (seed order as given), or None."""
    for seed, source in edition.sources.items():
        counts = [0] * len(source.text)
        for span in conservation._all_spans(edition):
            if span[0] == seed:
                for i in range(span[1], span[2]):
                    counts[i] += 1
        for match in TEXT_CHAR.finditer(source.text):
            if counts[match.start()] != 1:
                return seed, match.start(), counts[match.start()]
    return None


@pytest.mark.parametrize("change", ["shorter", "longer", "none", "over-markup", "empty"])
def test_conservation_reports_the_first_offender(edition, change):
    passages = [p for _, _, _, p in indexes.passages(edition) if p.notes and p.text]
    passage = passages[len(passages) // 2]  # not in the first seed
    seed, start, end = passage.span
    text = edition.sources[seed].text
    after = passage.notes[0].span[1]
    span = {
        "shorter": (seed, start + 1, end),
        "longer": (seed, start, after + 1),  # over 【 into the note: the note's first character twice
        "none": (seed, start, end),
        "over-markup": (seed, start, after),  # over 【 only: markup may be counted twice
        "empty": (seed, start, start),
    }[change]
    assert re.fullmatch(r"[【\s○\u3000]+", text[end:after])
    original = passage.span
    passage.span = span
    try:
        expected = first_offender(edition)
        if expected is None:
            conservation.check(edition)
            assert change in ("none", "over-markup")
            return
        with pytest.raises(ConservationError) as error:
            conservation.check(edition)
        name, offset, count = expected
        line, col = edition.sources[name].position(offset)
        assert (error.value.seed, error.value.line, error.value.col) == (name, line, col)
        assert ("several spans" if count > 1 else "no span") in str(error.value)
        assert change in ("shorter", "longer", "empty")
    finally:
        passage.span = original
    conservation.check(edition)
