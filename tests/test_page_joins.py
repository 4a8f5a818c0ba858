"""Paragraphs of the 通解 cut by a page break (頁末斷段): the reviewed decisions of
``conv/data/page_joins.toml`` join them (one passage, its page the first's), keep them apart, or
report them undecided; a stale entry stops the conversion at its line."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv import datafiles as data
from conv.edition import assemble, export
from conv.errors import ConversionError
from conv.reader import mandoku, page_joins

ROOT = Path(__file__).resolve().parents[1]
TONGJIE = ROOT / "seeds" / "wenyuange" / "KR1d0085"
FILES = ["KR1d0085_000.txt", "KR1d0085_001.txt", "KR1d0085_003.txt", "KR1d0085_004.txt", "KR1d0085_018.txt",
         "KR1d0085_021.txt"]


@pytest.fixture(scope="module")
def converted():
    edition = assemble.convert([TONGJIE / name for name in FILES])
    dump = export.edition(edition)
    passages = [p for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]]
    return dump, passages


def holding(passages, words: str) -> list[dict]:
    return [p for p in passages if words in p["text"]]


@pytest.mark.parametrize("text, page", [
    # 卷首 提要, one 面 a line: 「…所不廢也｜其喪祭…」, 「…南康亦未完本也其｜後楊復重修…」, 「…今自｜卷十六…」
    ("亦考禮者所不廢也其喪祭二門則成於朱子門人黄榦", (0, 1, "b")),
    ("冡子則大牢", (4, 14, "b")),                                       # 内治: 大｜牢
    ("凡諸侯之卿大夫士為國客則如其介之禮以待之致饔餼如勞之禮", (22, 56, "b")),  # 聘禮, 经
    ("使下大夫贈上介亦如之使士贈衆介如其覿幣", (22, 70, "a")),             # 聘禮, 经
    ("凡為人子之禮冬温而夏凊昬定而晨省定安其牀衽也省問其安否何如", (3, 9, "a")),  # 内則: after 右…記 on its line
    ("今出其見君者數條入臣禮篇", (0, 11, "b")),                          # 卷首 目録: 今｜出
    ("小戴則以鄉飲鄉射燕禮大射士虞喪服特牲少牢", (0, 7, "a")),             # 卷首: 喪｜服
])
def test_joined_passage_is_one_with_the_first_page(converted, text, page):
    _, passages = converted
    (passage,) = holding(passages, text)
    assert (passage["page"]["juan"], passage["page"]["leaf"], passage["page"]["side"]) == page


def test_joined_texts_exactly(converted):
    _, passages = converted
    (cut,) = holding(passages, "冡子則大牢")
    assert cut["text"] == "冡子則大牢"
    assert cut["notes"][0]["text"].startswith("天子世子也冡大也")
    (guest,) = [p for p in holding(passages, "凡諸侯之卿大夫士為國客") if p["page"]["leaf"] == 56]
    assert guest["text"] == "凡諸侯之卿大夫士為國客則如其介之禮以待之致饔餼如勞之禮"
    assert not [p for p in passages if p["text"] in ("凡諸侯之卿大夫士為國", "牢", "客則如其介之禮以待之致饔餼如勞之禮")]
    (preface,) = holding(passages, "南康亦未完本也其後楊復重修祭禮")
    assert "凡十四卷今自卷十六至卷二十九" in preface["text"] and preface["span"][0] == "KR1d0085_000.txt"


def test_kept_apart_and_undecided(converted):
    dump, passages = converted
    # 士冠禮: 「擯者告期于賓之家｜右為期」: the 章旨 ends the paragraph
    (before,) = [p for p in passages if p["text"] == "擯者告期于賓之家"]
    assert before["page"] == {"juan": 1, "leaf": 7, "side": "b"}
    # 五學: 「…所以見敬學與尊師也｜天子視學…」: the 經 朱熹 compiled from the 傳 begins (kept apart);
    # 「…文王世子｜凡養老五帝憲…」: the source of the text before, then 内則 (kept apart); none undecided
    assert [p["text"] for p in passages if p["text"].startswith("天子視學大昕鼓徵")] == ["天子視學大昕鼓徵"]
    (source,) = [p for p in passages if p["text"] == "兊命曰念終始典于學" and p["span"][0] == "KR1d0085_018.txt"]
    assert source["page"] == {"juan": 19, "leaf": 4, "side": "b"}  # its note, then the source: 出处 (sources.py)
    assert (source["notes"][-1]["layer"], source["notes"][-1]["text"]) == ("chu", "文王世子")
    assert [p["text"] for p in passages if p["text"].startswith("凡養老五帝憲")] == ["凡養老五帝憲"]
    assert not [p for p in dump["problems"] if p["kind"] == "page-cut-undecided"]


def test_every_entry_is_decided_with_a_reason():
    entries = [entry for _, entry in data.page_joins()]
    # 289, 4 notes the transcription writes large at a page's edge (note_runs.toml), and 祭義's 经 after a 按
    # printed large (「不以其｜時非孝也」), and 臣禮's 傳 under 右朝禮 (「咫尺(…)｜小白余敢貪天子之命」); kept apart although
    # the layout runs the column on: the next 章's 經 after the 記 of 鄉射禮's 右賓主大夫衆賓射, of 聘禮's 右具齎幣 and 右主君就賓館
    assert len(entries) == 298
    assert all(entry["reason"] and isinstance(entry["join"], bool) for entry in entries)
    assert sum(entry["join"] for entry in entries) == 258
    assert len({(entry["file"], entry["page"]) for entry in entries}) == len(entries)


PAGE = "#+TITLE: t\n甲乙丙丁¶\n戊己庚辛\n<pb:KR1d0085_WYG_001-1b>¶\n壬癸子丑¶\n"


def _entry(before="庚辛", after="壬癸", join=True, reason="test"):
    return [(7, {"file": "KR1d0085_001.txt", "page": "KR1d0085_WYG_001-1b", "before": before, "after": after,
                 "join": join, "reason": reason})]


def test_stale_entry_is_refused_at_its_line():
    with pytest.raises(ConversionError) as caught:
        mandoku.parse("KR1d0085_001.txt", "<pb:KR1d0085_WYG_001-1a>¶\n" + PAGE.split("\n", 1)[1],
                      lambda m: page_joins.decide(m, _entry(before="庚午"), columns=[]).runs_on)
    message = str(caught.value)
    assert "conv/data/page_joins.toml:7:1" in message and "KR1d0085_001.txt:5:1" in message
    assert "「…戊己庚辛｜壬癸子丑…」" in message and "mend or remove the entry" in message


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet="甲乙丙丁戊己庚辛壬癸", min_size=1, max_size=30),
       st.text(alphabet="子丑寅卯辰巳午未申酉", min_size=1, max_size=30), st.booleans())
def test_a_join_keeps_every_character_once(first, second, join):
    text = f"<pb:KR1d0085_WYG_001-1a>¶\n{first}\n<pb:KR1d0085_WYG_001-1b>¶\n{second}¶\n"
    entry = _entry(before=first[-1], after=second[0], join=join)
    m = mandoku.parse("KR1d0085_001.txt", text, lambda m: page_joins.decide(m, entry, columns=[]).runs_on)
    # a column that fills (20 cells in the 通解: FULL_AT, up to two columns) runs on whatever an entry says
    fills = range(mandoku.FULL_AT["KR1d0085"], 2 * mandoku.COLUMN + 1)
    assert [line.text for line in m.lines] == ([first + second] if join or len(first) in fills else [first, second])
    assert "".join(line.text for line in m.lines) == first + second
