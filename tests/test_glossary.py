"""郑注's glossary (conv.analyses.glossary) on the five real seeds."""
from __future__ import annotations


import pytest

from conv.analyses import glossary

from conv.analyses import terms
from conv.model.tree import is_markup
from conv.normalize import fold_keeping

from seedtext import all_passages, passage_id, seed_text


@pytest.fixture(scope="module")
def entries(dump):
    return dump["glossary"]


def glosses(entries, text):
    return [(e["form"], e["term"], e["definition"]) for e in entries if e["text"] == text]


@pytest.mark.parametrize(
    "text, form, term, definition",
    [
        ("俟待也", "ye", "俟", "待"),
        ("还左还也", "ye", "还", "左还"),
        ("作使也", "ye", "作", "使"),
        ("余获余算也", "ye", "余获", "余算"),  # the longest opening that stands in the 经
        ("某者字也", "zhe", "某", "字"),
        ("某子者氏也", "zhe", "某子", "氏"),
        ("中犹间也", "you", "中", "间"),
        ("偃犹仆也", "you", "偃", "仆"),  # …乡射威仪省偃犹仆也: the word before 犹
        ("扬犹举也", "you", "扬", "举"),  # …大射曰左执弣扬犹举也
        ("竒犹亏也", "you", "奇", "亏"),  # the witness's 竒, normalized 奇
        ("鹿中谓射于榭也", "wei", "鹿中", "射于榭"),
        ("握谓中央也", "wei", "握", "中央"),
        ("自楹间者谓射于庠也", "wei", "自楹间", "射于庠"),  # X者谓Y
        ("长谓以长幼之次酬众賔", "wei", "长", "以长幼之次酬众宾"),  # no 也: to the segment's end
    ],
)
def test_each_form(entries, text, form, term, definition):
    found = glosses(entries, text)
    assert found == [(form, term, definition)] * len(found) and found


def test_a_gloss_cut_off_the_zhu_frees_its_definition(entries):
    # 相息亮反作使也…: once the 音义 is its own segment, 作使也 opens the 注 (乡饮酒礼, as in 乡射礼)
    assert [e["passage"] for e in entries if e["text"] == "作使也"] == ["judou-xiangshe-5", "tongjie-xiangyinjiu-41"]


def test_entry_fields(dump, entries):
    [e] = [e for e in entries if e["text"] == "俟待也"]
    assert e["passage"] == passage_id(dump, "获者适侯执旌负侯而俟")
    assert (e["layer"], e["pinyin"], e["term_witness"], e["definition_witness"]) == ("jing", "si4", "俟", "待")
    assert e["category"] is None  # 俟 is not in the index of terms
    # 中犹间也 explains 中等 (the middle step), not 中 the tally-holder of the index
    assert [x["category"] for x in entries if x["text"] == "中犹间也"] == [None]
    assert [x["category"] for x in entries if x["text"] == "鹿中谓射于榭也"] == ["she"]
    assert [x["category"] for x in entries if x["text"] == "旌总名也"] == ["she"]
    seed, start, end = e["span"]
    assert seed_text(seed)[start:end] == "俟待也"
    [(seed, start, end)] = e["term_spans"]
    assert seed_text(seed)[start:end] == "俟"
    [e] = [e for e in entries if e["text"] == "竝并也"]  # 郑注 tells them apart: normalization keeps 竝
    assert (e["term"], e["definition"], e["term_witness"], e["definition_witness"]) == ("竝", "并", "竝", "并")


@pytest.mark.parametrize(
    "text",
    [
        "先升尊贤也",  # a reason, not a definition
        "后后也",  # the witness prints one character twice
        "不甚洁也",  # 不 opens an explanation
        "此耦谓士也",  # 此耦 is not in the 经
        "犹器之防也",  # no word before 犹
        "一人犹天子太仆正君之服位者也",  # 犹 "like", and too long
        "揖之入之也",  # the definition is too long for an unmarked gloss
        "东方谓之右个",  # 谓之: "is called", the other way round
    ],
)
def test_what_is_not_a_gloss(dump, entries, text):
    assert not [e for e in entries if e["text"] in text or text in e["text"]]


def test_the_term_stands_in_the_passages_jing(dump, entries):
    jing = {p["id"]: p["normalized"] for p in all_passages(dump)}
    for e in entries:
        assert e["term"] in jing[e["passage"]], e
        assert len(e["term_spans"]) == jing[e["passage"]].count(e["term"])


def test_spans_hold_the_printed_gloss(dump, entries):
    kept = {p["id"]: frozenset(p["kept"]) for p in all_passages(dump)}
    for e in entries:
        seed, start, end = e["span"]
        assert "".join(ch for ch in seed_text(seed)[start:end] if not is_markup(ch)) == e["text"]
        normalized = fold_keeping(e["text"], kept[e["passage"]])
        assert e["term"] in normalized and e["definition"] in normalized


def test_ordered_by_pinyin(entries):
    keys = [terms.sort_key(e["term"]) for e in entries]
    assert keys == sorted(keys)
    assert [e["term"] for e in entries[:3]] == ["楅", "宾从尸", "摈者"]  # bi1, bin1 cong2, bin4


def test_only_zhu_is_read(dump, entries):
    # 释犹舍也 is 张尔岐's (an 按 segment after ○), not 郑玄's
    assert [s["layer"] for p in all_passages(dump) for s in p["notes"] if "释犹舍也" in s["normalized"]] == ["an"]
    assert not [e for e in entries if "释犹舍" in e["text"]]


def test_counts(entries):
    assert len(entries) == 122
    assert len(glossary.by_term(entries)) == 111
    forms = {}
    for e in entries:
        forms[e["form"]] = forms.get(e["form"], 0) + 1
    assert forms == {"ye": 74, "you": 24, "wei": 21, "zhe": 3}


def test_clauses():
    assert glossary.clauses("俟待也今文俟为立") == [(0, 2, True), (3, 8, False)]
    assert glossary.clauses("强有力者犹倦焉张而不弛") == [(7, 11, False)]


def test_find_on_strings():
    found = glossary.find("还左还也作使也○", "司射还当上耦西面作上耦射")
    assert [(f, a, b) for f, a, b, *_ in found] == [("ye", 0, 4), ("ye", 4, 7)]
    assert glossary.find("后后也", "乃射上射既发挟弓矢而后下射射") == []


def test_only_the_notes_of_the_yili_are_zheng_xuans(whole_dump):
    """郑注训诂 gathers 郑玄's glosses of the 仪礼: every 篇 of the 句读 and the 通解's 仪礼 篇. The 注 of
    the other books the 通解 quotes are other hands' (朱熹's 章句 of 中庸: 庸平常也, 性即理也; 郭璞's of
    the 尔雅 in 亲属记: 曾猶重也): none is listed as 郑注."""
    from conv import datafiles as data
    yili = {f"judou-{c['id']}" for c in data.chapters()} | {
        f"tongjie-{c['id']}" for c in data.tongjie_chapters() if c.get("yili")}
    chapters = {e["passage"].rsplit("-", 1)[0] for e in whole_dump["glossary"]}
    assert chapters <= yili
    assert {"judou-pinli", "tongjie-pinli", "tongjie-xiangshe", "judou-sangfu"} <= chapters
    texts = {e["text"] for e in whole_dump["glossary"]}
    assert not texts & {"庸平常也", "性即理也", "致推極也", "曾猶重也"}
    assert {"俟待也", "格至也"} <= texts  # 格至也: 士冠禮, 孝友時格 (the 句读 and the 通解)
