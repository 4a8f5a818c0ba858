"""Characters simplified by their sense (``conv.analyses.senses``): 徵, the note of the scale (宫商角徵羽, zhǐ),
keeps its form in the reading (规范) text, where 納徵, 徵求 and 無徵不信 read 征; the words of that sense are the
data's (``conv/data/senses.toml``) and OpenCC's own phrases (``TSPhrases.txt``)."""
from __future__ import annotations

import pytest

from conv.analyses.senses import covered


@pytest.mark.parametrize("text, counts", [
    ("其音徵", (1, 1)),                                    # the data's words (月令)
    ("傳樂記宫為君商為臣角為民徵為事羽為物", (1, 1)),
    ("宮商角徵羽律謂六律", (1, 1)),                          # OpenCC's phrase 宫商角徵羽, matched on the reading text (宮)
    ("和則徵聲調", (1, 1)),                                 # OpenCC's 徵聲
    ("上生變徵", (1, 1)),                                   # OpenCC's 變徵
    ("主人受幣士受儷皮者是納徵之禮", (1, 0)),               # 納徵 (纳征): the other sense
    ("羽人徵羽翮", (1, 0)),                                  # 羽人 (掌以時)徵羽翮: collecting (not 徵羽 of the scale)
    ("雖善無徵無徵不信", (2, 0)),
])
def test_the_words_of_the_note_of_the_scale(text, counts):
    assert covered("徵", text) == counts


def by_id(dump: dict) -> dict:
    return {p["id"]: p for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]}


def test_the_reading_text_keeps_the_note_and_folds_the_rest(whole_dump):
    passages = by_id(whole_dump)
    heard = passages["tongjie-yueling-679"]  # 月令 孟夏: 其音徵, its 音义 and 注
    assert heard["text"] == heard["normalized"] == "其音徵" and heard["kept"] == "徵"
    assert [n["normalized"] for n in heard["notes"]][1].startswith("三分宫去一以生徵徵数五十四属火者")
    assert passages["tongjie-zhonglv-22"]["normalized"] == "徵生商"
    assert "纳征" in passages["judou-shihun-23"]["normalized"] + "".join(n["normalized"] for n in passages["judou-shihun-23"]["notes"])
    collecting = passages["tongjie-wangzhiwu-223"]  # 羽人 掌以時徵羽翮之政
    assert "征羽翮" in "".join(n["normalized"] for n in collecting["notes"]) + collecting["normalized"]
    kept = sorted(p["id"] for p in passages.values() if "徵" in p.get("kept", ""))
    assert len(kept) == 23 and all(p.startswith(("tongjie-zhonglv", "tongjie-yue", "tongjie-xuezhi")) for p in kept)
    # 内則 胎教: 徵為五聲 with its 音义 (聲徵之徵張里反) and a 注 徵騐也 (徵, to verify): mixed, for an editor
    (mixed,) = [p for p in whole_dump["problems"] if p["kind"] == "sense-mixed"]
    assert mixed["message"].startswith("tongjie-neize-332: 4 of its 5 徵")
