"""The 通解's 卷首 as the book has it (issue #18, point 3): KR1d0085_000 holds the 四库 header
lines, the 提要, 張虙's 舊序, 朱熹's 目録 and, after 附, his 乞修三禮劄子. None of it is 经: its
passages are of the layer ``front``; the small characters of the 提要, 舊序 and 劄子 are 小字
(``small``), and in the 目録 a small note that is no 疏曰 or 今按 (班固's own, 陸徳明's, 朱熹's
unmarked ones) is 小字 too, never 郑注 (``conv/parser/apart.py``, the 卷首's ``parts`` in
``conv/data/tongjie_chapters.toml``)."""
from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def juanshou(whole_dump) -> dict:
    work = next(w for w in whole_dump["works"] if w["id"] == "tongjie")
    return next(c for c in work["chapters"] if c["id"] == "juanshou")


def passages(chapter: dict) -> list[dict]:
    return [p for s in chapter["sections"] for p in s["passages"]]


def find(chapter: dict, opening: str) -> dict:
    (found,) = [p for p in passages(chapter) if p["text"].startswith(opening)]
    return found


def notes(passage: dict) -> list[tuple[str, str]]:
    return [(n["layer"], n["text"]) for n in passage["notes"]]


def test_no_passage_of_the_juanshou_is_jing(juanshou):
    assert {p["layer"] for p in passages(juanshou)} == {"front"}


def test_the_tiyao_is_front_and_its_chen_small(juanshou):
    tiyao = find(juanshou, "等謹按儀禮經傳通解三十七卷續二十九巻")
    assert tiyao["layer"] == "front" and tiyao["page"] == {"juan": 0, "leaf": 1, "side": "a"}
    segments = [n for p in passages(juanshou) for n in p["notes"]]
    chen = [n for n in segments if n["text"] == "臣"]
    assert len(chen) == 5 and {n["layer"] for n in chen} == {"small"}  # 臣等謹按, and four in the credits


def test_preface_and_memorial_are_front(juanshou):
    assert find(juanshou, "南康舊刊朱文公儀禮經傳與集傳集註而喪祭")["layer"] == "front"
    memorial = find(juanshou, "臣聞之六經之道同歸而禮樂之用為急")
    assert memorial["layer"] == "front" and memorial["text"].endswith("則斯文幸甚取進止")


def test_in_the_catalogue_shu_and_an_stay_and_no_note_is_zheng(juanshou):
    """疏曰 is 賈疏 and 今按 朱熹's 按, as the 通解 gives them everywhere; 班固's own note (后氏戴氏),
    陸徳明's 釋文, 顔師古's and 朱熹's unmarked notes are 小字, not 郑注."""
    first = find(juanshou, "儀禮經傳目録漢書藝文志禮古經五十六卷經十七篇")
    assert notes(first)[0] == ("small", "后氏戴氏")
    assert notes(first)[1][0] == "an" and notes(first)[1][1].startswith("今按此即今儀禮也")
    assert notes(find(juanshou, "士冠禮第一")) == [("small", "陸徳明釋文曰冠古亂反下以意求之")]
    assert notes(find(juanshou, "鄭𤣥目録曰童子任職居士位年二十而冠"))[0][0] == "shu"
    assert notes(find(juanshou, "天子之士朝服皮弁素積"))[0][0] == "an"
    assert notes(find(juanshou, "主人𤣥冠朝服則是仕於諸侯")) == [("small", "句")]
    assert not [n for p in passages(juanshou) for n in p["notes"] if n["layer"] in ("zhu", "mulu", "jing")]


def test_no_term_is_read_in_the_front_matter(whole_dump):
    """名物 are read in 经 and 记 only: the 提要's 序 (a preface) is no wall."""
    assert not [p for p in whole_dump["problems"] if p["seed"] == "KR1d0085_000.txt" and p["kind"] == "term-unplaced"]


def test_the_classic_scope_of_search_finds_nothing_of_the_juanshou(whole_html):
    """「经:」 searches 经 and 记 only (``search/language.py``): no unit of the 卷首 page is one."""
    units = json.loads((whole_html.outdir / "_search" / "tongjie" / "juanshou.json").read_text(encoding="utf-8"))
    text = json.dumps(units, ensure_ascii=False)
    assert "等謹按儀禮經傳通解三十七卷" in text
    assert '"jing"' not in text and '"zhu"' not in text
