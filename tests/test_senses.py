"""Characters simplified by their sense (``conv.analyses.senses``): 徵, the note of the scale (宫商角徵羽, zhǐ),
keeps its form in the reading (规范) text, where 納徵, 徵求 and 無徵不信 read 征; the words of that sense are the
data's (``conv/data/senses.toml``) and OpenCC's own phrases (``TSPhrases.txt``)."""
from __future__ import annotations

import copy

import pytest
from bs4 import BeautifulSoup

from conv.analyses import senses
from conv.analyses.senses import covered
from conv.errors import ConversionError


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
    # 玉藻 注 閒紕縁邉也 … 閒傳曰: 閒傳 is 間傳, the 閒 before 紕 the transcription's riddle (no word places it)
    (mixed,) = [p for p in whole_dump["problems"] if p["kind"].startswith("sense-")]
    assert mixed["kind"] == "sense-mixed" and mixed["message"].startswith("tongjie-wangzhigeng-116: 1 of its 2 閒")


@pytest.mark.parametrize("text, counts", [
    ("歟乾隆四十四年二月恭校", (1, 1)),                      # OpenCC's 乾隆 (the 提要)
    ("十一月黄鍾乾初九也", (1, 1)),                          # the data's words (鐘律義)
    ("則乾之風漸九月坤之風漸八月", (1, 1)),
    ("醮有乾肉折俎", (1, 0)),                                # dry: 干
    ("萎於危反乾音千", (1, 0)),
    ("柷敔乾音也", (1, 1)),
    ("渴苦葛反乾音干", (1, 0)),                              # 聘義's 音义: gān
])
def test_the_words_of_the_trigram(text, counts):
    assert covered("乾", text) == counts


def test_the_reading_text_keeps_the_trigram_and_the_reign_and_folds_dry(whole_dump):
    passages = by_id(whole_dump)
    assert passages["judou-tiyao-2"]["normalized"].endswith("乾隆四十四年二月恭校上")
    assert "纯乾用事" in "".join(n["normalized"] for n in passages["tongjie-zhonglvyi-35"]["notes"])
    dry = passages["tongjie-shihun-210"]  # 肴乾而不食
    assert "肴干而不食" in dry["normalized"] + "".join(n["normalized"] for n in dry["notes"])
    kept = sorted(p["id"] for p in passages.values() if "乾" in p["kept"])
    assert kept == ["judou-tiyao-2", "tongjie-juanshou-7", "tongjie-lishu-63", "tongjie-neizhi-15",
                    "tongjie-xiangsheyi-2", "tongjie-yueling-65", "tongjie-yuezhi-106", "tongjie-yuezhi-163",
                    "tongjie-zhonglv-13", *(f"tongjie-zhonglvyi-{n}" for n in (23, 26, 28, 29, 30, 31, 35))]


@pytest.mark.parametrize("text, counts", [
    ("降階受笲腶脩升進北面", (1, 1)),                         # the data's words: the dried meat
    ("侯伯四積皆眡飱牽再問皆脩", (1, 1)),                     # 司儀 (鄭云 脩，脯也)
    ("子男三積皆眡飱牽壹問以脩", (1, 1)),
    ("言此以結上文脩身之意", (1, 0)),                          # 中庸: 修身 (not 文脩 of 對文脩是鍜脩)
    ("壺頸脩七寸腹脩五寸", (2, 0)),                            # 投壺: its length, 修
])
def test_the_words_of_the_dried_meat(text, counts):
    assert covered("脩", text) == counts


def test_the_reading_text_keeps_the_dried_meat_and_folds_self_cultivation(whole_dump):
    passages = by_id(whole_dump)
    assert passages["judou-shihun-71"]["normalized"].startswith("降阶受笲腵脩升进北面")
    assert passages["tongjie-daxue-6"]["normalized"].count("修") == 2 and "脩" not in passages["tongjie-daxue-6"]["normalized"]
    pun = passages["tongjie-shihun-181"]  # 腶脩 … 取其斷斷自脩也 (a reviewed place)
    assert pun["kept_at"] == {"脩": [1, 2, 3, 4]}
    assert pun["notes"][-1]["normalized"].endswith("腶脩取其断断自修也")
    kept = sorted(p["id"] for p in passages.values() if "脩" in p["kept"])
    assert len(kept) == 30 and kept[:2] == ["judou-jianben-121", "judou-shiben-3"]


@pytest.mark.parametrize("text, counts", [
    ("尊兩壺于房户閒斯禁", (1, 1)),                          # between: 间
    ("每就閒盖一寸", (1, 1)),
    ("有削地者歸之閒田", (1, 0)),                             # 閒田 (閒音閑): 闲
    ("使就閒燕", (1, 0)),
    ("賓曰俟閒", (1, 0)),                                     # 聘禮: 俟君燕閒
])
def test_the_words_of_between(text, counts):
    assert covered("閒", text) == counts


def test_the_reading_text_reads_between_as_jian_and_leisure_as_xian(whole_dump):
    """閒 folds to 闲 (OpenCC); where it is 間 (between) the reading text writes 间, neither."""
    passages = by_id(whole_dump)
    between = passages["tongjie-xiangyinjiu-81"]
    assert between["normalized"].startswith("尊两壶于房户间斯禁") and between["forms"] == {"閒": "间"}
    assert between["kept"] == "" and between["text"].startswith("尊兩壺于房户閒斯禁")
    assert "俟闲" in passages["judou-pinli-88"]["normalized"] and not passages["judou-pinli-88"]["forms"]
    assert [n["normalized"] for n in passages["tongjie-touhu-27"]["notes"]][0] == "貍吏持反间间厕之间大音泰"
    assert len([p for p in passages.values() if p["forms"]]) == 22


@pytest.mark.parametrize("text, counts", [
    ("詩云維天之命於穆不已", (1, 1)),                          # the 詩's sigh: wū
    ("於緝之於音烏", (2, 2)),                                  # 大學's 音义
    ("不遷於祖不祔於皇姑", (2, 0)),                            # prepositions: 于
    ("至於其一", (1, 0)),                                      # not OpenCC's name 於其一 (phrases = false)
])
def test_the_words_of_the_sigh(text, counts):
    assert covered("於", text) == counts


def test_the_sigh_keeps_its_form_where_the_prepositions_beside_it_fold(whole_dump):
    """by_word: 大學 詩云穆穆文王於緝熙敬止為人君止於仁 … reads 於缉熙 and 止于仁 in one passage, unasked."""
    passages = by_id(whole_dump)
    verse = passages["tongjie-daxue-26"]
    assert verse["kept_at"] == {"於": [1, 7, 8]} and verse["normalized"].startswith("诗云穆穆文王於缉熙敬止为人君止于仁")
    assert verse["notes"][0]["normalized"] == "於缉之於音乌"
    assert passages["tongjie-wangzhiren-403"]["normalized"] == "王在灵沼於仞鱼跃"
    assert "於者叹之也" in passages["tongjie-yueji-80"]["normalized"]
    assert passages["tongjie-hunyi-135"]["kept_at"] == {} and "祔于皇姑" in "".join(
        n["normalized"] for n in passages["tongjie-hunyi-135"]["notes"]) + passages["tongjie-hunyi-135"]["normalized"]


def test_a_gloss_of_a_word_its_passage_reads_in_another_form_stays_in_the_glossary(whole_dump):
    """覲禮 (外饔): the 经 prints 脯修, the 注 脩，鍜脯也 (the dried meat, kept 脩): still a 郑注训诂 entry, its
    term where the 经 writes it; and the 名物索引 counts 昬禮's 階閒 (阶间, no longer 阶闲) as 阶间."""
    (entry,) = [e for e in whole_dump["glossary"] if e["passage"] == "tongjie-jinli-146" and e["term_witness"] == "脩"]
    assert (entry["term"], entry["definition"], entry["text"]) == ("脩", "鍜脯", "脩鍜脯也")
    assert entry["term_spans"] == [["KR1d0085_023.txt", 9327, 9328]]
    terms = {t["term"]: t for c in whole_dump["terms"]["categories"] for t in c["terms"]}
    assert "tongjie-shihun-173" in terms["阶间"]["passages"] and "tongjie-shihun-173" not in terms["阶"]["passages"]


def test_a_reviewed_place_keeps_the_occurrences_it_names(whole_dump):
    """内則 胎教 (左傳 昭公元年): 徵為五聲 (杜注 徵，驗也: 征), 注 赤聲徵 (the note, zhǐ) and 徵騐也 (征), 音义
    聲徵之徵張里反 (zhǐ, twice): the passage's second, fourth and fifth 徵 keep the form, its first and third
    fold (``senses.toml``, ``[[place]]``)."""
    passage = by_id(whole_dump)["tongjie-neize-332"]
    assert passage["kept"] == "" and passage["kept_at"] == {"徵": [2, 4, 5]}
    assert passage["normalized"] == "征为五声"
    assert [n["normalized"] for n in passage["notes"]] == ["白声商青声角黑声羽赤声徵黄声宫征騐也", "声徵之徵张里反"]
    assert [n["text"] for n in passage["notes"]] == ["白聲商青聲角黑聲羽赤聲徵黄聲宫徵騐也", "聲徵之徵張里反"]


def reading_view(html: str, anchor: str) -> str:
    """The 规范 view's text of passage ``anchor`` on a page: each run's reading forms (``yl-n``), not the
    witness's (``yl-w``) nor the 文渊阁's (``yl-t``), without the marks and the page line."""
    element = BeautifulSoup(html, "html.parser").find(id=anchor)
    for hidden in element.select(".yl-w, .yl-t, .yl-appmark, .yl-end, .yl-ed"):
        hidden.decompose()
    return element.get_text()


def test_the_reading_view_shows_the_reviewed_place(whole_html):
    html = whole_html.html("tongjie/neize")
    assert reading_view(html, "tongjie-neize-332") == "征为五声白声商青声角黑声羽赤声徵黄声宫征騐也声徵之徵张里反"
    # the 校勘记's quotation of the 音义 (printed large, outside the parentheses) reads as the passage does
    apparatus = BeautifulSoup(whole_html.html("apparatus/tongjie"), "html.parser")
    (row,) = [row for row in apparatus.select("[id^=tongjie-neize-][id*=-jiao-]") if "声徵之徵" in row.get_text()]
    for hidden in row.select(".yl-w, .yl-t"):
        hidden.decompose()
    assert "内则332" in row.get_text() and "声徵之徵张里反" in row.get_text()


PLACE = """::::{{yl:passage}} sense-place-{n}
:layer: jing
:keep-at: {keep_at}

徵為五聲

:::{{yl:zhu}}
白聲商青聲角黑聲羽赤聲徵黄聲宫徵騐也
:::

:::{{yl:yin}}
{{yl:gloss}}`聲徵之徵張里反`
:::
::::
"""


def test_keep_at_keeps_the_occurrences_it_names_across_the_notes_and_glosses(myst_app):
    myst_app.take_warnings()
    doctree = myst_app.parse(PLACE.format(n=1, keep_at="徵2,4,5/5"), docname="sense-place-1")
    assert myst_app.take_warnings() == ""
    html = myst_app.html(doctree.ids["sense-place-1"])
    assert reading_view(html, "sense-place-1") == "征为五声白声商青声角黑声羽赤声徵黄声宫征騐也声徵之徵张里反"


@pytest.mark.parametrize("options, reading", [
    (":read-as: 閒间", "尊两壶于房户间斯禁"),
    (":keep-at: 閒=间1/1", "尊两壶于房户间斯禁"),
    (":keep-at: 閒1/1", "尊两壶于房户閒斯禁"),
    ("", "尊两壶于房户闲斯禁"),
])
def test_read_as_reads_a_character_in_the_form_of_its_sense(myst_app, options, reading):
    myst_app.take_warnings()
    doctree = myst_app.parse(f"::::{{yl:passage}} sense-form-1\n:layer: jing\n{options}\n\n尊兩壺于房户閒斯禁\n::::\n",
                             docname="sense-form-1")
    assert myst_app.take_warnings() == ""
    assert reading_view(myst_app.html(doctree.ids["sense-form-1"]), "sense-form-1") == reading


def test_an_apparatus_entry_reads_as_its_passage(myst_app):
    myst_app.take_warnings()
    doctree = myst_app.parse("::: {yl:app} sense-app-1\n:label: 校1\n:kind: note-words\n:read-as: 閒间\n\n"
                             "“尊兩壺于房户閒”\n:::\n", docname="sense-app-1")
    assert myst_app.take_warnings() == ""
    html = myst_app.html(doctree.ids["sense-app-1"])
    assert reading_view(html, "sense-app-1") == "校1“尊两壶于房户间”"


def test_the_index_of_glosses_reads_as_the_passages_do(whole_html):
    """The 音义索引's rows show a gloss in its passage's forms: 投壺's 閒閒厠之閒 between (间), 内則's
    聲徵之徵 the note (徵)."""
    for page, row, reading in (("glosses-unplaced", "yin-tongjie-touhu-27-ce4d72f7", "—间间厕之间间其他"),
                               ("glosses-zhi", "yin-tongjie-neize-332-b5d9b09a", "知開三之上声徵之徵张里反徵反切张里反")):
        assert "".join(reading_view(whole_html.html(f"apparatus/{page}"), row).split()).startswith(reading)


def test_a_read_as_that_is_not_pairs_is_reported(myst_app):
    myst_app.take_warnings()
    myst_app.parse("::::{yl:passage} sense-form-2\n:layer: jing\n:read-as: 閒间閒\n\n尊兩壺于房户閒\n::::\n",
                   docname="sense-form-2")
    assert "'閒间閒' is not pairs of a character and the form it reads (閒间)" in myst_app.take_warnings()


@pytest.mark.parametrize("keep_at, warning", [
    ("徵2,4/4", "yl:passage sense-place-2: :keep-at: counts 4 徵, the passage holds 5"),  # the text changed since
    ("徵2,4", "'徵2,4' is not a character, its ordinals and their count (徵2,4,5/5)"),
])
def test_a_keep_at_that_does_not_fit_the_passage_is_reported(myst_app, keep_at, warning):
    myst_app.take_warnings()
    myst_app.parse(PLACE.format(n=2, keep_at=keep_at), docname="sense-place-2")
    assert warning in myst_app.take_warnings()


def test_a_reviewed_place_the_passage_no_longer_fits_is_a_problem(whole_edition, monkeypatch):
    """The entry counts 4 徵 where the passage holds 5: it is reported, and the passage folds them all."""
    passage = copy.deepcopy(by_model_id(whole_edition)["tongjie-neize-332"])
    passage.kept_at, passage.normalized = {}, "征为五声"
    monkeypatch.setattr(senses, "passages", lambda edition, every: [(None, None, None, passage)])
    monkeypatch.setattr(senses.data, "sense_places", lambda: [(33, {"passage": passage.id, "char": "徵", "count": 4,
                                                                     "keep": [2, 4], "reason": "测试"})])
    (problem,) = senses.keep(whole_edition)
    assert (problem["kind"], problem["seed"], problem["line"], problem["col"]) == ("sense-place-stale",
                                                                                  "KR1d0085_003.txt", 384, 7)
    assert problem["message"].startswith("tongjie-neize-332: conv/data/senses.toml:33 reviews 4 徵 here, "
                                         "the passage holds 5")
    assert passage.kept_at == {} and passage.normalized == "征为五声"


def test_a_place_without_its_fields_stops_the_conversion(whole_edition, monkeypatch):
    monkeypatch.setattr(senses.data, "sense_places", lambda: [(40, {"passage": "tongjie-neize-332", "char": "徵",
                                                                     "count": 5, "keep": [6], "reason": "测试"})])
    with pytest.raises(ConversionError) as raised:
        senses.keep(whole_edition)
    assert str(raised.value).startswith("conv/data/senses.toml:40:1: a [[place]] needs passage, char")


def by_model_id(edition) -> dict:
    return {p.id: p for w in edition.works for c in w.chapters for s in c.sections for p in s.passages}
