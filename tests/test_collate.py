"""The collation core (校勘对齐, ``conv.collate``): the five seeds against the Kanripo transcription
of the same 文渊阁 copy, with real outcomes checked against both files.

The sides are built here with a small reader of each format (the converter will build them from
its own model): a seed's text characters are all but whitespace and the markup 【】○ U+3000; a
witness's all but the header, ``<pb:…>``, ``¶``, ``(``, ``)``, ``/`` inside ``(…)``, whitespace and
U+3000, a gaiji ``&KR0871;`` being one character (``chr(0xF0000 + 871)``). ``text_only`` leaves out
the seed lines that are no text of the work (the e-text's title line, the catalogue line, the
website watermark), as the converter's metadata and dropped records.
"""
from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conv.collate import classify, fold
from conv.collate.align import MAX_DISTANCE, align
from conv.collate.records import Collation, Side

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
WITNESS_DIR = next((d for d in (SEEDS / "wenyuange", ROOT.parent / "shared" / "witnesses" / "kanripo")
                    if (d / "KR1d0038").is_dir() and (d / "KR1d0085").is_dir()), None)
pytestmark = pytest.mark.skipif(WITNESS_DIR is None, reason="the Kanripo witness (seeds/wenyuange) is not here")

SEED_MARKUP = frozenset("【】○\u3000")
WORK_TITLES = ("仪礼郑注句读", "仪礼经传通解")
CATALOGUE = re.compile(r"<[^<>]*>")
WATERMARK = re.compile(r"【打\s*印】\s*【来源：[^】]*】")  # as conv/data/drops.toml
TOKEN = re.compile(r"<pb:[^>]*>|&KR(\d+);|.", re.S)
GAIJI_BASE = 0xF0000
WORK = {"000": "KR1d0038", "001": "KR1d0038", "002": "KR1d0038", "003": "KR1d0085", "004": "KR1d0085"}


# --- the small readers ---------------------------------------------------------------------------

def seed_path(number: str) -> Path:
    return next(SEEDS.glob(f"{number}_*.txt"))


@cache
def seed_text(number: str) -> str:
    return seed_path(number).read_text(encoding="utf-8")


@cache
def seed_side(number: str, text_only: bool = True) -> Side:
    chars, offsets, position = [], [], 0
    for line_number, line in enumerate(seed_text(number).splitlines(keepends=True), 1):
        stripped = line.strip()
        metadata = (line_number == 1 and stripped in WORK_TITLES) or CATALOGUE.fullmatch(stripped) \
            or WATERMARK.fullmatch(stripped)
        if not (text_only and metadata):
            for column, char in enumerate(line):
                if not char.isspace() and char not in SEED_MARKUP:
                    chars.append(char)
                    offsets.append(position + column)
        position += len(line)
    return Side(seed_path(number).name, "".join(chars), offsets)


@cache
def witness_text(name: str) -> str:
    return (WITNESS_DIR / name.split("_")[0] / name).read_text(encoding="utf-8")


@cache
def witness_side(name: str) -> Side:
    chars, offsets, ends, position, depth = [], [], [], 0, 0
    for line in witness_text(name).splitlines(keepends=True):
        if not line.startswith("#"):
            for match in TOKEN.finditer(line):
                token = match.group(0)
                if match.group(1):
                    char = chr(GAIJI_BASE + int(match.group(1)))
                elif len(token) > 1:  # a page break
                    continue
                elif token in "()":
                    depth += 1 if token == "(" else -1
                    continue
                elif token in "¶\u3000" or token.isspace() or (token == "/" and depth > 0):
                    continue
                else:
                    char = token
                chars.append(char)
                offsets.append(position + match.start())
                ends.append(position + match.end())
        position += len(line)
    return Side(name, "".join(chars), offsets, ends)


@cache
def work_sides(work: str) -> tuple[Side, ...]:
    return tuple(witness_side(path.name) for path in sorted((WITNESS_DIR / work).glob(f"{work}_*.txt")))


@cache
def collation(number: str, text_only: bool = True) -> Collation:
    """A seed against its whole work (every 卷 file of it): the stretch is located, not given."""
    return align(seed_side(number, text_only), work_sides(WORK[number]))


def at(span: tuple[str, int, int]) -> str:
    """The text of a span in its file (seed or witness)."""
    name, start, end = span
    text = seed_text(name[:3]) if name[:3] in WORK else witness_text(name)
    return text[start:end]


def readings(result: Collation) -> list[tuple]:
    """The differences other than orthographic forms and confirmed PUA resolutions, as tuples."""
    return [(d.kind, d.op, d.seed_text, d.witness_text, d.seed_span[1:], d.witness_span)
            for d in result.differences
            if d.kind != "orthographic" and not d.confirmed]


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
    assert fold.key("䙝") == "䙝" and classify.is_rare("䙝")


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


# --- perturbations: exactly what was changed is found --------------------------------------------

@cache
def foreign_chars() -> tuple[str, ...]:
    """Ordinary characters outside the folding tables' domain, in neither the seed nor the witness."""
    used = set(seed_side("000").chars) | set(witness_side(J5).chars)
    found = []
    for code in range(0x5000, 0x9FA5):
        char = chr(code)
        if char not in used and fold.forms(char) == {char} and not classify.is_rare(char):
            found.append(char)
            if len(found) == 60:
                break
    return tuple(found)


@cache
def clean_base() -> tuple[Side, list[int], str]:
    """Seed 000 (text only), the witness index of each of its characters, the witness characters."""
    result = collation("000")
    witness = "".join(side.chars for side in work_sides("KR1d0038"))
    return seed_side("000"), result.mapping, witness


def _clean(start: int, end: int) -> bool:
    """No reading of seed 000 (other than orthographic forms and confirmed PUA) in [start, end)."""
    return all(not (d.seed_index[0] < end and start < d.seed_index[1]) for d in collation("000").readings())


@st.composite
def perturbed(draw):
    seed, mapping, _witness = clean_base()
    length = draw(st.integers(200, 500))
    start = draw(st.integers(400, len(seed.chars) - length - 400))
    if not _clean(start - 20, start + length + 20):
        start = 1000  # a stretch with no difference at all (checked below)
    chars = seed.chars[start:start + length]
    count = draw(st.integers(1, 6))
    places = sorted(draw(st.lists(st.integers(14, length - 20), min_size=count, max_size=count, unique=True)))
    places = [p for k, p in enumerate(places) if k == 0 or p - places[k - 1] >= 10]
    pool = list(foreign_chars())
    marked = {k - start for d in collation("000").differences for k in range(d.seed_index[0] - 2, d.seed_index[1] + 2)}
    edits = []
    for place in places:
        if marked & set(range(place - 1, place + 5)):  # an orthographic form or a PUA code point nearby
            continue
        op = draw(st.sampled_from(["replace", "delete", "insert"]))
        size = draw(st.integers(1, 3))
        if op == "insert":  # the seed has characters the witness lacks
            edits.append((place, 0, "".join(pool.pop() for _ in range(size))))
        elif op == "replace":
            edits.append((place, size, "".join(pool.pop() for _ in range(size))))
        else:  # the seed lacks characters: only where their place is unambiguous (none of them nearby)
            gone = chars[place:place + size]
            near = chars[place - size - 2:place] + chars[place + size:place + 2 * size + 2]
            if len(set(gone)) < size or set(gone) & set(near):
                continue
            edits.append((place, size, ""))
    return start, chars, edits


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(perturbed())
def test_perturbations_are_found_exactly(case):
    start, chars, edits = case
    assume(edits)
    seed, mapping, witness = clean_base()
    assert _clean(start, start + len(chars))
    new, expected, shift = chars, [], 0
    for place, size, text in edits:
        at_new = place + shift
        new = new[:at_new] + text + new[at_new + size:]
        first = mapping[start + place]
        if size:
            last = mapping[start + place + size - 1] + 1
            witness_chars = "".join(witness[mapping[start + k]] for k in range(place, place + size))
        else:
            last = first
            witness_chars = ""
        op = "replace" if size and text else ("insert" if size else "delete")
        expected.append(("substantive", op, text, witness_chars, (at_new, at_new + len(text)), (first, last)))
        shift += len(text) - size
    side = Side("perturbed", new, list(range(len(new))))
    result = align(side, witness_side(J5))  # its 卷 only, for speed: witness indices count from J5
    assert result.aligned
    offset = sum(len(side.chars) for side in work_sides("KR1d0038")[:5])
    expected = [(*entry[:5], (entry[5][0] - offset, entry[5][1] - offset)) for entry in expected]
    found = [(d.kind, d.op, d.seed_text, d.witness_text, d.seed_index, d.witness_index) for d in result.readings()]
    assert found == expected
    assert all(d.seed_span == ("perturbed", *d.seed_index) for d in result.differences)
    unchanged = [(d.kind, d.seed_text, d.witness_text, d.witness_index[0] + offset)
                 for d in result.differences if d not in result.readings()]
    before = [(d.kind, d.seed_text, d.witness_text, d.witness_index[0]) for d in collation("000").differences
              if d not in collation("000").readings() and start <= d.seed_index[0] < start + len(chars)]
    assert unchanged == before


def test_a_long_gap_is_one_difference():
    """The witness has a passage of 400 characters the seed lacks: one difference, not hundreds."""
    seed, mapping, witness = clean_base()
    cut_start, cut_end = 3000, 3400
    assert _clean(cut_start - 10, cut_end + 10)
    assert seed.chars[cut_start - 1] != seed.chars[cut_end - 1] and seed.chars[cut_start] != seed.chars[cut_end]
    side = Side("cut", seed.chars[1000:cut_start] + seed.chars[cut_end:6000], list(range(5000 - 400)))
    result = align(side, work_sides("KR1d0038"))
    [gap] = result.readings()
    assert (gap.kind, gap.op, gap.seed_text, gap.seed_index) == ("substantive", "insert", "", (2000, 2000))
    assert gap.witness_index == (mapping[cut_start], mapping[cut_end - 1] + 1)
    assert len(gap.witness_text) == 400
    assert 0.07 < result.distance < 0.09 and result.aligned


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


@pytest.mark.parametrize("share, aligned", [(0.05, True), (0.15, True), (0.40, False), (0.60, False)])
def test_distance_threshold(share, aligned):
    """A seed stretch with a share of its characters replaced at random: aligned below the limit
    on the distance of the located stretch (MAX_DISTANCE), refused above it, once."""
    seed, _mapping, _witness = clean_base()
    chars = list(seed.chars[1000:4000])
    rng = random.Random(share)
    pool = foreign_chars()
    for place in rng.sample(range(len(chars)), int(share * len(chars))):
        chars[place] = rng.choice(pool)
    result = align(Side("noisy", "".join(chars), list(range(len(chars)))), work_sides("KR1d0038"))
    assert result.aligned is aligned
    if aligned:
        assert abs(result.distance - share) < 0.02
    else:
        assert result.differences == [] and "no alignment" in result.reason
    assert MAX_DISTANCE == 0.25


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
