"""Paragraphs of the 通解 cut at the foot of a column the cell count puts at 20 (列末斷段).

In KR1d0085 a note is written without ``/``, so its cells are half its characters, an estimate: a
column the count puts at 20 cells is as full as one at 21 (``conv.reader.mandoku.FULL_AT``). Such a
column runs on into the next (「冉｜有問於孔子曰」, 「龜｜蛇為旐」), unless the next begins a title or a
章 of its own (``wenyuange.outline_lines``: 右…, a 篇's title line)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conv import datafiles as data
from conv.normalize import fold
from conv.edition import assemble, export
from conv.errors import ConversionError
from conv.reader import mandoku, page_joins

ROOT = Path(__file__).resolve().parents[1]
TONGJIE = ROOT / "seeds" / "wenyuange" / "KR1d0085"
JUDOU = ROOT / "seeds" / "wenyuange" / "KR1d0038"
FILES = ["KR1d0085_000.txt", "KR1d0085_021.txt", "KR1d0085_023.txt", "KR1d0085_024.txt", "KR1d0085_025.txt",
         "KR1d0085_026.txt", "KR1d0085_031.txt", "KR1d0085_034.txt", "KR1d0085_035.txt", "KR1d0085_036.txt"]


@pytest.fixture(scope="module")
def passages():
    dump = export.edition(assemble.convert([TONGJIE / name for name in FILES]))
    return [p for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]]


def holding(passages, words: str) -> list[dict]:
    return [p for p in passages if words in p["text"]]


@pytest.mark.parametrize("words, page", [
    ("故曰大罪有五而殺人為下矣冉有問於孔子曰先王制法", (37, 9, "b")),     # 刑制: 冉｜有 (036 l.170)
    ("何以為民哀公十二年冬十有二月螽", (25, 18, "a")),                  # 哀公十｜二年 (024 l.317)
    ("雜帛為物熊虎為旗鳥隼為旟龜蛇為旐全羽為旞析羽為旌", (35, 16, "a")),  # 司常: 龜｜蛇 (034 l.274)
    ("大司樂以六律六同五聲八音六舞大合樂以致鬼神示", (27, 1, "b")),       # 樂制: 八｜音 (026 l.20)
    ("冡人下大夫", (32, 14, "b")),                                     # 冡人｜下大夫 (031 l.239)
])
def test_a_column_of_twenty_cells_runs_on(passages, words, page):
    (passage,) = holding(passages, words)
    assert (passage["page"]["juan"], passage["page"]["leaf"], passage["page"]["side"]) == page


def test_no_passage_is_the_tail_of_a_cut_word(passages):
    starts = [p["text"][:6] for p in passages]
    for tail in ("有問於孔子曰", "二年冬十有二", "蛇為旐全羽為", "音六舞大合樂"):
        assert tail not in starts


def test_titles_after_a_full_column_stand_alone(passages):
    # 「…皆左首)｜右享禮記及享…」: the 章 title 右享禮 begins its own line
    assert not [p for p in passages if "左首右享" in p["text"]]


@pytest.mark.parametrize("line, runs_on", [
    ("KR1d0085_005.txt:310", False),  # …疏説恐非是)爾雅右妻黨: the 章 ends with its source and title
    ("KR1d0085_006.txt:152", False),  # …絶之也)右嘗為臣
    ("KR1d0085_020.txt:154", False),  # …百官各饌)右陳器設位具饌
    ("KR1d0085_007.txt:152", True),   # …肺皆離皆右體進腠: 经, the right side (no note before it)
    ("KR1d0085_036.txt:71", True),    # 士師掌五禁以左右刑罰一曰｜宫禁
])
def test_a_twenty_cell_column_ending_with_a_title(line, runs_on):
    name, number = line.split(":")
    witness = mandoku.read(TONGJIE / name)
    pl = witness.physical[int(number) - 1]
    assert pl.width == 20 and pl.runs_on is runs_on


def test_the_judou_keeps_twenty_one():
    assert mandoku.FULL_AT.get("KR1d0038", mandoku.COLUMN) == mandoku.COLUMN
    assert mandoku.FULL_AT["KR1d0085"] == 20
    witness = mandoku.read(JUDOU / "KR1d0038_001.txt")
    twenty = [pl for pl in witness.physical if pl.kind == "text" and pl.width == 20 and pl.pilcrow]
    following = {pl.number + 1 for pl in twenty}
    assert twenty and not [pl for pl in witness.physical if pl.number in following and pl.joins
                           and not (witness.physical[pl.number - 2].closes_note and pl.opens_note)]


# -- columns under 20 cells that run on: the reviewed entries of conv/data/column_joins.toml -------------

@pytest.mark.parametrize("words", [
    "堯乃命羲和欽若昊天厯象日月星辰敬授人時",   # 024 l.24 (19 cells): 昊｜天
    "醯人共醯五十罋",                           # 023 l.174 (17 cells): 五十｜罋
    "司戈盾",                                   # 031 l.282: 司｜戈盾
    "環人掌致師",                               # 035 l.203: 致｜師
    "陽聲黃鐘大蔟姑洗",                         # 026 l.102: 大｜蔟
])
def test_a_reviewed_column_runs_on(passages, words):
    assert len(holding(passages, words)) == 1


def test_a_column_opening_with_zhuan_begins_its_paragraph(passages):
    # 夏小正 (025 l.21): 「…雞桴粥(桴步侯反粥音育)｜傳曰正月啓蟄…」: the 傳 of the item is a paragraph of its own
    (zhuan,) = [p for p in passages if p["text"].startswith("傳曰正月啓蟄")]
    assert not [p for p in passages if "桴粥傳曰" in p["text"]]
    assert zhuan["span"][0] == "KR1d0085_025.txt"


def test_every_column_join_has_its_reason_and_joins():
    entries = data.column_joins()
    # 84, 10 notes whose words the transcription writes large at the top of a column (note_runs.toml), 長丁｜丈反,
    # and 内則's 「薰許云反或作｜(焄又作葷…」 (a 音义 over the column, its variant in the next column's note); 月令's
    # 「…(唐…之作於)立春｜之日天子親帥…」 (经 over the column after 唐's 校语); 3 of the 句读 (20 cells: 有乾｜肉 …)
    # join = false: 公食大夫禮's 即位具, 覲禮's 四享 and 乃右肉袒, 臣禮's 父之讎弗與共戴天 after 右死節's 傳 (a line two
    # columns wide); the next 章's 經 after the 記 a title files (士昏禮's 擯者出請 twice, 夙興婦沐浴…, 鄉射禮's 乃席賓, 賓以虚爵降,
    # 燕禮's 主人洗升獻士, 聘禮's 大夫於賓壹饗壹食, 公食大夫禮's 贊者負東房, 覲禮's 饗禮乃歸: read 2026-12-04), after the 辭 of
    # 士冠禮's 右戒賓 (前期三日筮賓), the 記 of 内則's 右教子 (男女異長) and the 章句 of 大學 and 中庸 (所謂修身…, 子曰舜…, 仲尼…)
    # session 27: 43 sentences of 經 a column's foot cuts, after a column opening with 右 that is 經 or one written two columns wide
    assert len(entries) == 198 and [e["line"] for _, e in entries if e.get("join") is False] == [
        40, 117, 134, 225, 73, 314, 37, 142, 427, 900, 204, 163, 96, 525, 261, 65, 433, 64]
    assert all(e["reason"] and e["before"] and e["after"] for _, e in entries)
    assert sorted(e["file"] for _, e in entries if not e["file"].startswith("KR1d0085_")) == [
        "KR1d0038_001.txt", "KR1d0038_007.txt", "KR1d0038_007.txt"]
    for name in {e["file"] for _, e in entries}:
        folder = TONGJIE if name.startswith("KR1d0085_") else JUDOU
        witness = mandoku.read(folder / name, lambda m: page_joins.decide(m).runs_on)
        lines = {e["line"] for _, e in entries if e["file"] == name and e.get("join", True)}
        assert all(witness.physical[n - 1].page_join and witness.physical[n - 1].joins for n in lines)


def test_no_sentence_of_the_judou_is_cut_in_the_tongjie_at_a_line_s_end(whole_dump):
    """A passage of the 通解 with no note that ends at its line's end, the next passage opening the next line: where the
    句读's 經 runs on across the cut, it is one paragraph cut by a column's foot (筮人許諾｜右還即席坐, 主人受醴｜面枋,
    賔西階上北面｜坐卒爵: 13 found by this scan, now joined); none is left. Also three read in the 礼记 篇."""
    judou = "|".join(fold(p["text"]) for c in whole_dump["works"][0]["chapters"] for s in c["sections"] for p in s["passages"])
    tongjie = [s["passages"] for c in whole_dump["works"][1]["chapters"] for s in c["sections"]]
    texts = {name: (TONGJIE / name).read_text(encoding="utf-8")
             for name in {p["span"][0] for ps in tongjie for p in ps} if name.startswith("KR1d0085_")}
    cut = []
    for ps in tongjie:
        for p, q in zip(ps, ps[1:]):
            (name, _, end), (other, start, _) = p["span"], q["span"]
            if not p["notes"] and name == other and name in texts and re.fullmatch(r"¶?\n(<pb:[^>]*>¶?\n)?", texts[name][end:start]) \
                    and fold(p["text"][-4:] + q["text"][:4]) in judou:
                cut.append((p["id"], p["text"][-4:], q["text"][:4]))
    assert cut == []
    held = {p["text"] for ps in tongjie for p in ps}
    assert {"望柩不歌入臨不翔", "牛羊之肺離而不提心", "凡女拜尚右手"} <= held


def test_a_reviewed_paragraph_start_the_layout_runs_on():
    """公食大夫禮 022 l.33–40: the 記 of 右戒賓賓從 (不宿戒, 戒不速, 賓之乘車…) ends with its note at the foot of
    a full column; 即位具 begins the 經 of 右陳器饌 (``join = false``)."""
    dump = export.edition(assemble.convert([TONGJIE / "KR1d0085_022.txt"]))
    where = {p["text"]: (s["title"], p["layer"]) for w in dump["works"] for c in w["chapters"] for s in c["sections"]
             for p in s["passages"]}
    assert where["戒不速"] == ("右戒賓賓從", "ji") and where["賓之乘車在大門外西方北面立"] == ("右戒賓賓從", "ji")
    assert where["即位具"] == ("右陳器饌", "jing") and where["甸人陳鼎七當門南面西上設扃鼏鼏若束若編"] == ("右陳器饌", "jing")


def test_a_stale_column_join_is_refused_at_its_line():
    (number, entry), *_ = data.column_joins()
    stale = dict(entry, after="不是此文")
    witness = mandoku.parse(entry["file"], (TONGJIE / entry["file"]).read_text(encoding="utf-8"))
    with pytest.raises(ConversionError) as caught:
        page_joins.decide(witness, entries=[], columns=[(number, stale)])
    assert caught.value.line == number and "stale column join" in str(caught.value)
    assert f"{entry['file']}:{entry['line']}:1" in str(caught.value)


def test_a_ji_item_after_its_title_runs_on_in_its_zhang(passages_all):
    """鄉飲酒禮 007 l.95–96: 「右迎賓記立者東面北上若有北面者則東上(賢者)｜衆寡無常也…」: the words of the 记's
    note the transcription left outside the parentheses stay in the 章 右迎賓, in the note of its 记 (the 句读's
    注 賢者衆寡無常也…: ``conv/data/note_runs.toml``), not 经 of the next 章."""
    section, passage = passages_all["立者東面北上若有北面者則東上"]
    assert section["title"] == "右迎賓" and passage["layer"] == "ji"
    assert [(n["layer"], n["text"]) for n in passage["notes"][:1]] == [("zhu", "賢者衆寡無常也或統於堂或統於門")]
    section, passage = passages_all["主人介凡升席自北方降自南方"]
    assert section["title"] == "右賓酢主人" and passage["layer"] == "ji"
    assert [(n["layer"], n["text"]) for n in passage["notes"][:1]] == [("zhu", "席南上升由下降由上由便")]


@pytest.fixture(scope="module")
def passages_all():
    dump = export.edition(assemble.convert([TONGJIE / "KR1d0085_007.txt"]))
    return {p["text"]: (s, p) for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]}
