"""conv.reader.mandoku: the Kanseki Repository 文渊阁 transcriptions (KR1d0038 句读, KR1d0085 通解).

Self-contained (no conftest): real files under seeds/wenyuange/, small bad inputs, and a hypothesis
property over generated mandoku-like texts.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conv.errors import ConservationError, ConversionError
from conv.reader import mandoku as M

ROOT = Path(__file__).resolve().parent.parent
WYG = ROOT / "seeds" / "wenyuange"
FILES = sorted(WYG.glob("KR1d00*/*.txt"))
_CACHE: dict[str, M.MandokuText] = {}


def text_of(name: str) -> M.MandokuText:
    if name not in _CACHE:
        _CACHE[name] = M.read(WYG / name[:8] / name)
    return _CACHE[name]


def unit_with(m: M.MandokuText, start: str) -> M.Run:
    return next(u for u in m.units() if u.text.startswith(start))


def expected_text(raw: str) -> str:
    """The text characters of a raw file, counted without the reader: strip the markup by regex."""
    raw = raw.removeprefix("\ufeff")
    lines = raw.splitlines(keepends=True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    body = re.sub(r"<pb:[^>]*>", "", "".join(lines))
    body = re.sub(r"&KR(\d{4});", lambda g: chr(0xF0000 + int(g.group(1))), body)
    body = re.sub(r"\[[^\]]*\]", lambda g: M.composed_char(g.group()), body)
    return re.sub(r"[\s¶()/]", "", body)


# -- the real files ------------------------------------------------------------------------------

def test_all_57_files_read_with_conservation():
    assert len(FILES) == 57
    total = 0
    for path in FILES:
        m = text_of(path.name)
        want = expected_text(path.read_text(encoding="utf-8"))
        assert sum(len(r.text) for r in m.runs) == len(want), path.name
        assert "".join(r.text for r in m.runs) == want, path.name
        assert "".join(u.text for u in m.units()) == want, path.name
        for u in m.units():
            assert len(u.text) == len(u.offsets)
            for ch, off in zip(u.text, u.offsets):
                assert m.text.startswith(M.gaiji(ch), off) if M.is_gaiji(ch) else m.text[off] == ch
        total += len(want)
    assert total == 776_715          # text characters of the 57 files


def test_reading_all_files_is_fast():
    t = time.process_time()      # CPU time: the wall clock also counts whatever else the machine runs
    for path in FILES:
        M.read(path)
    assert time.process_time() - t < 2.0


def test_header_and_pages_of_a_juan():
    m = text_of("KR1d0038_005.txt")
    assert m.header == {"MODE": "mandoku-view", "TITLE": "儀禮鄭註句讀", "DATE": "2015-09-23 09:37:48", "JUAN": "5"}
    assert m.pages[0][1] == M.Page(5, 1, "a") and m.text[m.pages[0][0]:].startswith("<pb:KR1d0038_WYG_005-1a>")
    assert all(a[1] < b[1] for a, b in zip(m.pages, m.pages[1:]))
    t = text_of("KR1d0085_014.txt")      # 卷十五 in file 014: the tag's juan is the file's
    assert t.header["JUAN"] == "卷十五" and t.header["WITNESS"] == "WYG" and t.header["ID"] == "KR1d0085"
    assert [p for _, p in t.pages] == [M.Page(14, 1, "a"), M.Page(14, 1, "b")]


def test_xiangshe_opening_passage():
    m = text_of("KR1d0038_005.txt")
    title = next(lg for lg in m.lines if lg.units[0].text == "鄉射禮第五")
    assert title.indent == 1 and title.units[1].small and title.units[1].text.startswith("鄭目録云州長春秋以禮會民")
    first = m.lines[m.lines.index(title) + 1].units[0]
    assert not first.small and first.text == "鄉射之禮主人戒賔賔出迎再拜主人答再拜乃請"
    assert first.page == M.Page(5, 1, "a") and first.page.label() == "卷五叶一a"
    assert (first.line, first.offsets[0]) == (13, 314)


def test_note_after_qing_is_one_note_across_the_page():
    m = text_of("KR1d0038_005.txt")
    note = unit_with(m, "主人州長也")
    assert note.small and note.text.startswith("主人州長也鄉大夫若在焉則稱鄉大夫也戒猶警也語也出迎出門也")
    assert note.text.endswith("四曰和容行禮有容儀也五曰興舞比於樂節也") and len(note.text) == 334
    assert (note.line, note.end_line) == (13, 22) and len(note.breaks) == 8
    assert note.page == M.Page(5, 1, "a") and m.page_at(note.offsets[-1]) == M.Page(5, 1, "b")
    assert m.position(note.offsets[0]) == (13, 22) and m.position(note.offsets[2]) == (15, 2)   # 主/人 ¶ (州…
    line_runs = [r for r in m.runs if 13 <= r.line <= 22 and r.small]
    assert [r.continues for r in line_runs] == [False] + [True] * 8


def test_large_run_across_a_page_break():
    m = text_of("KR1d0038_005.txt")
    run = unit_with(m, "賔禮")
    assert run.text == "賔禮辭許主人再拜賔答再拜主人退賔送再拜" and run.breaks == (2,)
    assert run.page == M.Page(5, 1, "b") and m.page_at(run.offsets[2]) == M.Page(5, 2, "a")
    assert m.position(run.offsets[0]) == (22, 42) and m.position(run.offsets[2]) == (24, 1)


def test_non_bmp_character_and_gaiji_offsets():
    m = text_of("KR1d0038_005.txt")
    run = unit_with(m, "尊於賔席之東")
    i = run.text.index("𤣥")
    assert run.offsets[i] == 956 and m.text[956] == "𤣥" and m.position(956) == (30, 11)
    assert run.offsets[i + 1] == 957 and m.page_at(956) == M.Page(5, 2, "a")
    z = text_of("KR1d0038_018.txt")
    note = unit_with(z, "第二十七")
    assert note.text == "第二十七\U000F045A" and M.gaiji(note.text[-1]) == "&KR1114;"
    assert note.offsets[-1] == 432 and z.text[432:440] == "&KR1114;" and z.position(432) == (21, 19)
    assert note.end == 440 and note.splits == (3,) and note.page.label() == "卷十八叶一b"
    t = text_of("KR1d0085_001.txt")
    note = unit_with(t, "闑門檿也")
    k = note.text.index(M.gaiji_char("&KR0527;"))
    assert note.offsets[k] == 1877 and t.position(1877) == (51, 20) and note.page == M.Page(1, 3, "b")
    assert note.offsets[k + 1] == 1885      # the character after the entity


def test_composed_characters_are_one_character():
    m = text_of("KR1d0038_012.txt")
    note = next(u for u in m.units() if "荆" + M.composed_char("[沔-丏+丐]") + "之間語" in u.text)
    k = note.text.index(M.composed_char("[沔-丏+丐]"))
    off = note.offsets[k]
    assert m.text[off:off + 7] == "[沔-丏+丐]" and note.offsets[k + 1] == off + 7 and note.small
    assert M.gaiji(note.text[k]) == "[沔-丏+丐]" and M.display(note.text[k - 1:k + 2]) == "荆[沔-丏+丐]之"
    t = text_of("KR1d0085_003.txt")
    assert sum(u.text.count(M.composed_char("[炫-ㄙ+ㄥ]")) for u in t.units()) == 2


def test_sangfu_title_note_and_spaced_list():
    m = text_of("KR1d0038_011.txt")
    title = next(lg for lg in m.lines if lg.units[0].text == "喪服第十一子夏傳")
    assert title.line == 9 and len(title.physical) == 14 and len(title.units) == 2
    assert title.units[1].text.startswith("鄭目錄云天子以下死而相喪衣服年月親疎隆殺之禮不忍言死而言喪")
    assert m.page_at(title.units[1].offsets[-1]) == M.Page(11, 2, "a")
    items = unit_with(m, "叔父之長殤中殤")
    assert items.text.startswith("叔父之長殤中殤姑姊妹之長殤中殤昆弟之長殤中殤夫之")
    assert items.gaps[:3] == (7, 15, 22) and items.page == M.Page(11, 25, "a")   # U+3000 between items
    chuan = next(lg for lg in m.lines if lg.units[0].text.startswith("傳曰斬者何不緝也"))
    assert chuan.indent == 1 and chuan.units[1].text.startswith("盈手曰搹搹扼也中人之扼圍九寸")


def test_tongjie_note_across_a_page_without_pilcrow():
    m = text_of("KR1d0085_001.txt")
    jing = unit_with(m, "士冠禮筮于庿門")
    assert not jing.small and jing.text == "士冠禮筮于庿門筮市例反庿古廟字" and jing.page == M.Page(1, 1, "a")
    note = unit_with(m, "筮者以蓍問日吉凶")
    assert note.text == "筮者以蓍問日吉凶於易也冠必筮日於庿門者重以成人之禮成子孫也庿謂禰庿不於堂者嫌蓍之靈由庿神"
    assert note.page == M.Page(1, 1, "a") and m.page_at(note.offsets[-1]) == M.Page(1, 1, "b")
    assert not m.physical[14].pilcrow and m.physical[16].runs[0].continues    # l.15 has no ¶ before <pb:…>
    assert [lg.units[0].text for lg in m.lines[:5]] == ["欽定四庫全書", "儀禮經傳通解卷一", "宋朱子撰", "家禮一之上", "士冠禮"]


def test_page_at_position_and_labels():
    m = text_of("KR1d0038_005.txt")
    tag, page = m.pages[1]
    assert page == M.Page(5, 1, "b") and m.page_at(tag) == page and m.page_at(tag - 1) == M.Page(5, 1, "a")
    assert m.page_at(0) is None and m.position(0) == (1, 1) and m.position(tag) == (14, 1)
    assert M.Page(5, 15, "b").label() == "卷五叶十五b"
    assert M.Page(5, 15, "b").as_dict() == {"juan": 5, "leaf": 15, "side": "b"}
    assert M.Page(36, 91, "a").label() == "卷三十六叶九十一a" and M.Page(0, 10, "a").label() == "卷首叶十a"
    assert [M.chinese_number(n) for n in (0, 10, 11, 20, 21, 100, 105, 110, 1010)] == \
        ["〇", "十", "十一", "二十", "二十一", "一百", "一百零五", "一百一十", "一千零一十"]


def test_before_the_first_page_and_crlf():
    m = M.parse("x.txt", "\ufeff甲乙\r\n<pb:KRx_WYG_001-1a>¶\r\n(丙/丁)戊\r\n")
    first, note, big = m.runs
    assert first.page is None and note.page == big.page == M.Page(1, 1, "a")
    assert note.text == "丙丁" and note.splits == (1,) and m.position(note.offsets[1]) == (3, 4) and big.text == "戊"
    assert m.text.startswith("甲") and first.offsets == [0, 1]


# -- bad input --------------------------------------------------------------------------------------

PB = "<pb:KR1d0038_WYG_005-1a>¶\n"


@pytest.mark.parametrize("text,line,col,words", [
    ("甲乙)丙\n", 1, 3, "without '('"),
    ("甲(乙(丙)丁)\n", 1, 4, "inside a note"),
    ("甲(乙丙\n丁\n", 1, 2, "not closed on its line"),
    ("甲乙\n丙(丁戊", 2, 2, "truncated"),
    ("甲乙\n丙(丁戊\n\n", 2, 2, "truncated"),
    ("#+TITLE: 儀禮\n甲\n#+DATE: 2015\n", 3, 1, "not at the top"),
    ("#+AUTHOR: 張\n甲\n", 1, 1, "unknown header"),
    ("#+PROPERTY: VOLUME 5\n甲\n", 1, 1, "unknown header"),
    ("#+TITLE: a\n#+TITLE: b\n", 2, 1, "twice"),
    ("<pb:KR1d0085_WYG_005-1a>¶\n", 1, 5, "another text"),
    ("<pb:KR1d0038_WYG_006-1a>¶\n", 1, 18, "juan 6"),
    ("<pb:KR1d0038_WYG_00x-1a>¶\n", 1, 18, "not a number"),
    ("<pb:KR1d0038_WYG_005-1xa>¶\n", 1, 22, "not a number"),
    ("<pb:KR1d0038_WYG_005-0a>¶\n", 1, 22, "not a number"),
    ("<pb:KR1d0038_WYG_005-1c>¶\n", 1, 23, "not a or b"),
    ("<pb:KR1d0038_005-1a>¶\n", 1, 1, "malformed page tag"),
    ("甲<pb KR1d0038_WYG_005-1a>¶\n", 1, 2, "malformed page tag"),
    (PB + "甲¶\n<pb:KR1d0038_WYG_005-2a>¶\n乙¶\n<pb:KR1d0038_WYG_005-1b>¶\n", 5, 1, "does not follow"),
    (PB + PB, 2, 1, "does not follow"),
    ("甲/乙\n", 1, 2, "outside a note"),
    ("甲(乙/丙/丁)\n", 1, 6, "second '/'"),
    ("甲()\n", 1, 2, "empty note"),
    ("甲&KR12;乙\n", 1, 2, "gaiji"),
    ("甲>乙\n", 1, 2, "stray"),
    ("甲[火-丷]乙\n", 1, 2, "unknown composed character"),
    ("甲]乙\n", 1, 2, "stray"),
    ("甲\x07乙\n", 1, 2, "control character"),
    ("甲\n乙\U000F0001\n", 2, 2, "private use"),
])
def test_bad_input_names_line_and_column(text, line, col, words):
    with pytest.raises(ConversionError) as err:
        M.parse("KR1d0038_005.txt", text)
    e = err.value
    assert (e.seed, e.line, e.col) == ("KR1d0038_005.txt", line, col), str(e)
    assert words in e.message and str(e).startswith(f"KR1d0038_005.txt:{line}:{col}: ")


def test_invalid_utf8_names_line_and_byte(tmp_path):
    path = tmp_path / "KR1d0038_005.txt"
    path.write_bytes("#+TITLE: t\n一".encode() + b"\xff\xfe\n")
    with pytest.raises(ConversionError) as err:
        M.read(path)
    assert (err.value.line, err.value.col) == (2, 2) and "byte 14" in err.value.message


def test_check_conservation_finds_lost_and_doubled_characters():
    m = M.parse("KR1d0038_005.txt", PB + "甲乙(丙/丁)¶\n戊己¶\n")
    M.check_conservation(m)
    run = m.physical[1].runs[1]
    run.text, run.offsets = run.text[1:], run.offsets[1:]       # 丙 lost
    with pytest.raises(ConservationError) as err:
        M.check_conservation(m)
    assert (err.value.line, err.value.col) == (2, 4) and "lost" in err.value.message
    m = M.parse("KR1d0038_005.txt", PB + "甲乙(丙/丁)¶\n戊己¶\n")
    run = m.physical[2].runs[0]
    run.text, run.offsets = "戊戊己", [run.offsets[0]] + run.offsets     # 戊 doubled
    with pytest.raises(ConservationError) as err:
        M.check_conservation(m)
    assert (err.value.line, err.value.col) == (3, 1)


# -- property: nothing lost, nothing injected -----------------------------------------------------

CHARS = list("之禮主人賔○□一二三") + ["𤣥", "𦵏"]


@st.composite
def mandoku_texts(draw):
    """A mandoku-like text and, built alongside, its text characters: (offset, char, small)."""
    out: list[str] = []
    size = 0
    want: list[tuple[int, str, bool]] = []

    def put(s: str) -> None:
        nonlocal size
        out.append(s)
        size += len(s)

    def char(small: bool) -> None:
        pick = draw(st.integers(0, 19))
        if pick == 0:
            n = draw(st.integers(0, 9999))
            want.append((size, chr(0xF0000 + n), small))
            put(f"&KR{n:04d};")
        elif pick == 1:
            description = draw(st.sampled_from(M.COMPOSED))
            want.append((size, M.composed_char(description), small))
            put(description)
        else:
            c = draw(st.sampled_from(CHARS))
            want.append((size, c, small))
            put(c)

    if draw(st.booleans()):
        put("# -*- mode: mandoku-view -*-\n#+TITLE: 儀禮\n#+PROPERTY: JUAN 5\n")
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    leaf = 0
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["text", "text", "text", "page", "blank"]))
        if kind == "page":
            leaf += 1
            put(f"<pb:KR1d0038_WYG_005-{(leaf + 1) // 2}{'ab'[1 - leaf % 2]}>¶")
        elif kind == "text":
            put("\u3000" * draw(st.integers(0, 2)))
            for small in draw(st.lists(st.booleans(), max_size=4)):
                if small:
                    put("(")
                    for _ in range(draw(st.integers(1, 5))):
                        char(True)
                    if draw(st.booleans()):
                        put("/")
                        for _ in range(draw(st.integers(0, 5))):
                            char(True)
                    put(")")
                else:
                    for _ in range(draw(st.sampled_from([1, 3, 6, 20, 21]))):   # 21: a full column
                        char(False)
                        if draw(st.integers(0, 7)) == 0:
                            put(draw(st.sampled_from(["\u3000", " "])))
            if draw(st.booleans()):
                put("¶")
        put(eol)
    return "".join(out), want


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mandoku_texts())
def test_property_runs_are_the_text_characters_in_order(case):
    text, want = case
    m = M.parse("KR1d0038_005.txt", text)
    for runs in (m.runs, list(m.units())):
        assert "".join(r.text for r in runs) == "".join(c for _, c, _ in want)
        assert [o for r in runs for o in r.offsets] == [o for o, _, _ in want]
        assert [r.small for r in runs for _ in r.text] == [s for _, _, s in want]
        for r in runs:
            assert r.page == m.page_at(r.offsets[0])
            for ch, off in zip(r.text, r.offsets):
                assert text.startswith(M.gaiji(ch), off) if M.is_gaiji(ch) else text[off] == ch


@given(st.integers(0, 9999))
def test_property_gaiji_round_trip(n):
    entity = f"&KR{n:04d};"
    ch = M.gaiji_char(entity)
    assert len(ch) == 1 and M.is_gaiji(ch) and M.gaiji(ch) == entity and M.display("甲" + ch) == "甲" + entity
