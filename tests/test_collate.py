"""The collation core (校勘对齐, ``conv.collate``): the five seeds against the Kanripo transcription
of the same 文渊阁 copy, with real outcomes checked against both files. The sides are built with a
small reader of each format (``collate_sides``); perturbed text: ``test_collate_perturbations.py``.
"""
from __future__ import annotations

import re

import pytest

from conv.collate import classify, fold
from conv.collate.align import align
from conv.collate.records import Side

from collate_sides import (GAIJI_BASE, WITNESS_DIR, WORK, at, collation, readings, seed_path, seed_side, seed_text,
                           witness_side, witness_text, work_sides)

pytestmark = pytest.mark.skipif(WITNESS_DIR is None, reason="the Kanripo witness (seeds/wenyuange) is not here")

# --- the five seeds ------------------------------------------------------------------------------

J5, J6, J15, J16 = (f"KR1d0038_{n:03d}.txt" for n in (5, 6, 15, 16))
T7, T20 = "KR1d0085_007.txt", "KR1d0085_020.txt"
F = "防"
XIAN = "\U000248E5"  # 𤣥, 玄 with its last stroke left out (避讳)

STRETCH = {
    "000": [(J5, 8226, 18488)],
    "001": [(J5, 20812, 25169), (J6, 118, 2007)],
    "002": [(J15, 14400, 16951), (J16, 119, 3342)],
    "003": [(T7, 9485, 18889)],
    "004": [(T20, 24992, 34703)],
}
# every difference but orthographic forms and confirmed PUA code points, read in both files
READINGS = {
    "000": [("placeholder", "replace", F, "䙝", (7973, 7974), (J5, 18131, 18132))],
    "001": [("placeholder", "replace", F, "膞", (2270, 2271), (J5, 23543, 23544))],
    "002": [
        ("placeholder", "insert", "", XIAN, (330, 330), (J15, 14795, 14796)),
        ("placeholder", "insert", "", chr(GAIJI_BASE + 362), (1344, 1344), (J15, 16079, 16087)),
        ("placeholder", "replace", F, "㨒", (1357, 1358), (J15, 16101, 16102)),
        ("placeholder", "replace", F, "䘮", (2797, 2798), (J16, 1068, 1069)),
        ("placeholder", "replace", F, "䋫", (4336, 4337), (J16, 2977, 2978)),
        ("placeholder", "insert", "", XIAN, (4611, 4611), (J16, 3310, 3311)),
    ],
    "003": [("placeholder", "replace", F, "㫖", (1894, 1895), (T7, 11693, 11694)),
            ("placeholder", "replace", F, "㫖", (3160, 3161), (T7, 13166, 13167))],
    # U+E14B ↔ &KR0871; is no reading: conv/data/pua.toml resolves U+E14B to that character
    "004": [("placeholder", "replace", F, "㑹", (4149, 4150), (T20, 29897, 29898))],
}
ORTHOGRAPHIC = {  # (seed, witness): count
    "000": {("效", "傚"): 1},
    "001": {("着", "著"): 2},
    "002": {},
    "003": {("了", "瞭"): 4, ("效", "傚"): 2, ("谘", "諮"): 1, ("仿", "倣"): 1, ("着", "著"): 1},
    "004": {("着", "著"): 2},
}
CONFIRMED_PUA = {  # (seed code point, witness character): count
    "000": {("\ueb8e", "弦"): 15},
    "001": {("\uea20", XIAN): 7},
    "002": {},
    "003": {("\ueb8e", chr(GAIJI_BASE + 76)): 4, ("\uea20", XIAN): 2},
    "004": {("\ueb8e", chr(GAIJI_BASE + 76)): 10, ("\ue5ab", "𨽻"): 6, ("\ue172", "恵"): 2,
            ("\ue14b", chr(GAIJI_BASE + 871)): 1},
}


def _counts(pairs) -> dict:
    counts: dict = {}
    for pair in pairs:
        counts[pair] = counts.get(pair, 0) + 1
    return counts


@pytest.mark.parametrize("number", sorted(WORK))
def test_seed_is_located_and_covered(number):
    result = collation(number)
    assert result.aligned, result.reason
    assert result.stretch == STRETCH[number]
    assert result.coverage > 0.995
    assert result.distance < 0.002
    assert readings(result) == READINGS[number]
    assert _counts((d.seed_text, d.witness_text) for d in result.of_kind("orthographic")) == ORTHOGRAPHIC[number]
    confirmed = [d for d in result.of_kind("pua") if d.confirmed]
    assert all("confirmed" in d.note for d in confirmed)
    assert _counts((d.seed_text, d.witness_text) for d in confirmed) == CONFIRMED_PUA[number]
    for difference in result.differences:  # the spans hold what the difference says, in both files
        assert at(difference.seed_span) == difference.seed_text
        witness = at(difference.witness_span)
        assert re.sub(r"&KR(\d+);", lambda m: chr(GAIJI_BASE + int(m.group(1))), witness) == difference.witness_text
    seed = seed_side(number)
    assert len(result.mapping) == len(seed.chars)
    assert sum(j is None for j in result.mapping) == sum(d.seed_index[1] - d.seed_index[0]
                                                         for d in result.differences if d.op == "delete")


def test_no_substantive_reading_in_any_seed():
    """Judged by reading both texts: apart from stand-ins and PUA code points, the five seeds read
    as the 文渊阁 copy everywhere; what differs is script and the e-text's own lines."""
    for number in WORK:
        assert collation(number).of_kind("substantive") == []
        assert {d.kind for d in collation(number).readings()} <= {"placeholder", "pua"}


def test_placeholder_fang_for_xie():
    """000: 不敢以燕坐防贵肴 — the 文渊阁 copy has 䙝 (褻); the e-text printed 防 for it."""
    [difference] = collation("000").of_kind("placeholder")
    assert (difference.kind, difference.op, difference.seed_text, difference.witness_text) == \
        ("placeholder", "replace", "防", "䙝")
    assert difference.seed_span == ("000_065af0aba9fcdf9d.txt", 7973, 7974)
    assert difference.witness_span == (J5, 18131, 18132)
    name, start, end = difference.seed_span
    assert seed_text("000")[start - 5:end + 2] == "不敢以燕坐防贵肴"
    assert witness_text(J5)[18131 - 5:18132 + 2] == "不敢以燕坐䙝貴肴"
    assert fold.key("䙝") == "亵" and classify.is_rare("䙝")  # 褻's form (variants.tsv), of CJK Extension A


def test_pua_e14b_is_the_gaiji_kr0871():
    """004: U+E14B stands where the witness has &KR0871; (谓□肝膋狗胾醢也, 叶五十一b): a real
    character Unicode lacks, which conv/data/pua.toml now resolves it to (it once called it spurious)."""
    [difference] = [d for d in collation("004").of_kind("pua") if d.seed_text == "\ue14b"]
    assert difference.op == "replace" and difference.witness_text == chr(GAIJI_BASE + 871)
    assert difference.seed_span == ("004_5ef5e70c2cb7984b.txt", 5103, 5104)
    assert at(difference.witness_span) == "&KR0871;"
    assert witness_text(T20)[31115 - 1:31123 + 4] == "謂&KR0871;肝膋狗胾"
    assert witness_text(T20).rfind("<pb:", 0, 31115) == witness_text(T20).find("<pb:KR1d0085_WYG_020-51b>")
    assert difference.confirmed and "gaiji" in difference.note


def test_orthographic_zhuo_for_zhu():
    """001: the seed's 着 where the witness has 著: another form, not a reading (t2s leaves 著)."""
    first = collation("001").of_kind("orthographic")[0]
    assert (first.op, first.seed_text, first.witness_text) == ("replace", "着", "著")
    assert first.seed_span == ("001_45851f803ca218c2.txt", 146, 147)
    assert first.witness_span == (J5, 20953, 20954)
    assert fold.relation("着", "著") == fold.ORTHOGRAPHIC


def test_dropped_xian_in_002():
    """002 prints nothing for the 缺笔 玄 (𤣥) it could not encode: 纁里者皆玄被 (注), 甒有玄酒
    (少牢 经); the other seeds have U+EA20 for it."""
    dropped = [d for d in collation("002").differences if d.witness_text == XIAN]
    assert [(d.kind, d.op) for d in dropped] == [("placeholder", "insert")] * 2
    seed_context = [seed_text("002")[d.seed_span[1] - 4:d.seed_span[2] + 1] for d in dropped]
    assert seed_context == ["纁里者皆被", "有幂甒有酒"]
    assert [at((d.witness_span[0], d.witness_span[1] - 4, d.witness_span[2] + 1)) for d in dropped] == \
        ["纁裏者皆𤣥被", "有幂甒有𤣥酒"]


def test_metadata_lines_are_one_difference_each():
    """With every character of the seed (title line, catalogue line, watermark), each such line is
    ONE addition of the seed, and the rest is unchanged."""
    for number, lines in (("001", ["仪礼郑注句读", "<经部,礼类,仪礼之属,仪礼郑注句读>"]),
                          ("002", ["打印来源：读书之家-dushuzhijia.com"])):
        result = collation(number, text_only=False)
        assert result.aligned and result.stretch == STRETCH[number]
        added = [(d.op, d.seed_text, d.witness_text) for d in result.of_kind("substantive")]
        assert added == [("delete", line, "") for line in lines]
        assert len(readings(result)) == len(READINGS[number]) + len(lines)
    assert 0.99 < collation("002", text_only=False).coverage < 0.995  # 29 characters of watermark


def test_witness_as_given_files_or_as_whole_work():
    """Locating in the whole work and aligning with the two 卷 files give the same collation."""
    whole = collation("001")
    files = align(seed_side("001"), [witness_side(J5), witness_side(J6)])
    assert readings(files) == readings(whole) and files.stretch == whole.stretch
    offset = sum(len(side.chars) for side in work_sides("KR1d0038")[:5])
    assert [None if j is None else j + offset for j in files.mapping] == whole.mapping
    name, where = whole.witness_offset(whole.mapping[0])
    assert name == J5 and witness_text(J5)[where] == "立"


def test_markup_left_in_a_side_is_not_compared():
    """A seed side that keeps 【】○ and U+3000 collates as one without them; markup maps to None."""
    text = seed_text("000")
    kept = [(offset, char) for offset, char in enumerate(text) if char != "\n"]
    side = Side(seed_path("000").name, "".join(char for _, char in kept), [offset for offset, _ in kept])
    result, plain = align(side, work_sides("KR1d0038")), collation("000", text_only=False)
    assert [(d.kind, d.op, d.seed_span, d.witness_span) for d in result.differences] == \
        [(d.kind, d.op, d.seed_span, d.witness_span) for d in plain.differences]
    assert result.coverage == plain.coverage
    assert all(j is None for char, j in zip(side.chars, result.mapping) if char in "【】○\u3000")


# --- folding -------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, witness, expected", [
    ("宾", "賔", fold.SCRIPT), ("说", "說", fold.SCRIPT), ("复", "復", fold.SCRIPT), ("说", "説", fold.SCRIPT),
    ("复", "覆", fold.ORTHOGRAPHIC), ("着", "著", fold.ORTHOGRAPHIC), ("效", "傚", fold.ORTHOGRAPHIC),
    ("了", "瞭", fold.ORTHOGRAPHIC), ("仿", "倣", fold.ORTHOGRAPHIC), ("𫎆", "豵", fold.ORTHOGRAPHIC),
    ("玄", XIAN, fold.SCRIPT), ("\uea20", XIAN, fold.SCRIPT),  # 𤣥 folds to 玄 (variants.tsv)
    ("\ueb8e", chr(GAIJI_BASE + 76), fold.ORTHOGRAPHIC),
    ("覆", "復", None), ("之", "乎", None), ("防", "䙝", None), ("\ue14b", chr(GAIJI_BASE + 871), fold.SCRIPT),
])
def test_relation(seed, witness, expected):
    assert fold.relation(seed, witness) == expected


def test_non_transitive_forms_are_checked_again():
    """复 is a form of 覆 and of 復, 覆 is not 復: coded alike (the seed has 复 and 覆), the pair is
    still reported."""
    seed = seed_side("000")
    index = seed.chars.index("复", 590)
    changed = Side("changed", seed.chars[:index] + "覆" + seed.chars[index + 1:], list(range(len(seed.chars))))
    result = align(changed, work_sides("KR1d0038"))
    coder = fold.Coder(changed.chars, "復覆")
    assert coder.code("覆") == coder.code("復")
    found = [(d.kind, d.op, d.seed_text, d.witness_text, d.seed_index)
             for d in result.readings() if d.seed_index[0] == index]
    assert found == [("substantive", "replace", "覆", "復", (index, index + 1))]


# --- no alignment --------------------------------------------------------------------------------

def test_reversed_seed_is_no_alignment():
    seed = seed_side("000")
    reverse = Side("reversed", seed.chars[::-1], seed.offsets[::-1])
    result = align(reverse, work_sides("KR1d0038"))
    assert not result.aligned and result.differences == [] and result.mapping == [None] * len(seed.chars)
    assert result.reason.startswith("no alignment") and result.coverage == 0


@pytest.mark.parametrize("number, work", [("002", "KR1d0085"), ("004", "KR1d0038"), ("000", "KR1d0085")])
def test_seed_against_another_work_is_no_alignment(number, work):
    """002 (特牲/少牢) has nothing in the 通解's files; 004 (通解 大射仪) and 000 (句读 乡射礼)
    share 经 and 郑注 with the other work's same chapter, but the works differ: no alignment."""
    result = align(seed_side(number), work_sides(work))
    assert not result.aligned and result.differences == [] and result.reason.startswith("no alignment")


# --- CollateX ------------------------------------------------------------------------------------

def test_agrees_with_collatex_on_tesheng():
    """The 特牲馈食礼 part of seed 002 (its first 1,908 characters, the end of the chapter's 记 up to
    the 卷 line) against the witness characters from the one aligned with its first character to
    the one aligned with its last, both as tokens whose normalized form is the coder's code.

    Compared: the seed character indices and the witness character indices that CollateX puts in
    a column without agreement (one side missing or different normalized forms) and those our
    collation puts in its differences other than orthographic forms (equal codes: CollateX sees no
    variant there either). The ○ of the witness is markup for both."""
    collatex = pytest.importorskip("collatex")
    seed = seed_side("002")
    end = seed.chars.index("仪礼郑注句读卷十五")
    whole = collation("002")
    witness = "".join(side.chars for side in work_sides("KR1d0038"))
    first, last = whole.mapping[0], whole.mapping[end - 1] + 1
    coder = fold.Coder(seed.chars[:end], witness[first:last])
    tokens = {
        "seed": [{"t": c, "n": coder.code(c), "i": k} for k, c in enumerate(seed.chars[:end])],
        "kanripo": [{"t": c, "n": coder.code(c), "i": first + k}
                    for k, c in enumerate(witness[first:last]) if c != "○"],
    }
    table = collatex.collate({"witnesses": [{"id": key, "tokens": value} for key, value in tokens.items()]},
                             output="table", segmentation=False)
    rows = {row.header: row.cells for row in table.rows}
    theirs: dict[str, set[int]] = {"seed": set(), "kanripo": set()}
    for seed_cell, witness_cell in zip(rows["seed"], rows["kanripo"]):
        seed_token = seed_cell[0].token_data if seed_cell else None
        witness_token = witness_cell[0].token_data if witness_cell else None
        if seed_token is None or witness_token is None or seed_token["n"] != witness_token["n"]:
            for name, token in (("seed", seed_token), ("kanripo", witness_token)):
                if token is not None:
                    theirs[name].add(token["i"])
    ours: dict[str, set[int]] = {"seed": set(), "kanripo": set()}
    for d in whole.differences:
        if d.kind == "orthographic" or d.confirmed or d.seed_index[0] >= end:
            continue
        ours["seed"].update(range(*d.seed_index))
        ours["kanripo"].update(j for j in range(*d.witness_index) if witness[j] != "○")
    assert theirs == ours
    assert ours["seed"] == {1293} and len(ours["kanripo"]) == 3  # 防/㨒, and the dropped 𤣥 and &KR0362;


# --- the converter's reader ----------------------------------------------------------------------

def test_sides_agree_with_the_mandoku_reader():
    """The witness sides built here are the text of ``conv.reader.mandoku`` (when it is there)."""
    mandoku = pytest.importorskip("conv.reader.mandoku")
    for name in (J5, J15, J16, T7, T20):
        runs = mandoku.read(WITNESS_DIR / name.split("_")[0] / name).runs
        side = witness_side(name)
        assert "".join(run.text for run in runs) == side.chars
        assert [offset for run in runs for offset in run.offsets] == side.offsets
