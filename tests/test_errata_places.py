"""张尔岐's collation notes placed in the 句读 (监本正误 KR1d0038_018, 石本误字 _019): the notes the
grammar used to misread, whose lemma the 句读 prints in another form, that run across two passages,
that a reviewed decision links, or that the order of the notes places (conv/parser/errata.py,
conv/edition/errata.py, conv/data/errata.toml)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv.edition import assemble, export
from conv.model.tree import TEXT_CHAR
from conv.myst.backmatter.entry_words import errata_body
from conv.parser import errata

ROOT = Path(__file__).resolve().parents[1]
JUDOU = ROOT / "seeds" / "wenyuange" / "KR1d0038"
WHOLE = [*sorted((ROOT / "seeds").glob("*.txt")), *sorted(JUDOU.glob("KR1d0038_*.txt"))]


@pytest.fixture(scope="module")
def whole():
    edition = assemble.convert(WHOLE)
    return edition, export.edition(edition)


def note(dump, text: str) -> dict:
    return next(a for a in dump["apparatus"] if a["kind"].startswith("zhang-") and a["text"] == text)


def page(dump, anchor: str) -> dict:
    return next(p["page"] for c in dump["works"][0]["chapters"] for s in c["sections"] for p in s["passages"]
                if p["id"] == anchor)


def words(edition, span) -> str:
    seed, start, end = span
    return "".join(c for c in edition.sources[seed].text[start:end] if TEXT_CHAR.match(c))


def test_a_statement_of_two_places_read_right(whole):
    """梱之與梱復二梱字俱誤作棞: the statement is 二梱字俱誤作棞 (two places of 梱), not 俱誤作棞 after a
    lemma 梱之與梱復二梱字俱; 與 joins two quotes (a reviewed decision), 大射仪's 梱之 and 梱復."""
    edition, dump = whole
    entry = note(dump, "梱之與梱復二梱字俱誤作棞")
    assert (entry["lemma"], entry["subject"], entry["statement"], entry["class"], entry["times"]) == (
        "梱之與梱復", "梱", "二梱字俱誤作棞", "wrong", 2)
    assert entry["passage"] == "judou-dashe-172" and entry["passages"] == ["judou-dashe-172", "judou-dashe-180"]
    assert [words(edition, s) for s in entry["target_spans"]] == ["梱之", "梱復"]
    assert entry["page"] == {"juan": 18, "leaf": 4, "side": "b"} and page(dump, "judou-dashe-172") == {"juan": 7, "leaf": 23, "side": "b"}
    assert entry["quotes"] == ["梱之", "梱復"] and "KR1d0038_007:411" in entry["decision"]


def test_the_lower_omission_after_zhi_xia(whole):
    """御者四人皆坐持體之下脱男女改服四字: 之下脱 is the statement (below 持體 the 石本 lacks four
    characters); the lemma ends at 持體."""
    _, dump = whole
    entry = note(dump, "御者四人皆坐持體之下脱男女改服四字")
    assert (entry["lemma"], entry["statement"], entry["class"]) == ("御者四人皆坐持體", "之下脱男女改服四字", "omitted")
    assert entry["passage"] == "judou-jixi-169" and entry["page"] == {"juan": 19, "leaf": 4, "side": "b"}
    assert page(dump, "judou-jixi-169") == {"juan": 13, "leaf": 16, "side": "b"}


def test_a_lemma_quoting_the_zhu(whole):
    """…授以蓋降出註云授授先者一人: the 经's words before 註云, the 注's after, found in that passage's note."""
    edition, dump = whole
    entry = note(dump, "衆人騰羞者盡階不升堂授以蓋降出註云授授先者一人誤以一人二字大書同經文連下贊者句")
    assert (entry["lemma"], entry["commentary"], entry["statement"]) == (
        "衆人騰羞者盡階不升堂授以蓋降出", "授授先者一人", "誤以一人二字大書同經文連下贊者句")
    assert entry["passage"] == "judou-gongshi-89" and page(dump, "judou-gongshi-89") == {"juan": 9, "leaf": 8, "side": "b"}
    assert [words(edition, s) for s in entry["commentary_spans"]] == ["授授先者一人"]


def test_the_lemma_in_another_form(whole):
    """降階受笲腵脩腶誤作□: the note writes 腵 in its lemma and 腶 in its statement, as the 句读 writes
    腵脩 in the 经 and 腶脩 in its 注 ([same]); so the lemma is 降階受笲腵脩, the subject 腶."""
    edition, dump = whole
    entry = note(dump, "降階受笲腵脩腶誤作□")
    assert (entry["lemma"], entry["subject"], entry["statement"], entry["class"]) == ("降階受笲腵脩", "腶", "腶誤作□", "wrong")
    assert entry["passage"] == "judou-shihun-71" and entry["page"] == {"juan": 19, "leaf": 1, "side": "a"}
    assert page(dump, "judou-shihun-71") == {"juan": 2, "leaf": 11, "side": "a"}
    assert words(edition, entry["target_spans"][0]).endswith("腵脩")
    two = note(dump, "賔北面自閒坐左擁簠梁左誤作右簠誤作簋")  # 梁 for the text's 粱; two statements
    assert (two["lemma"], two["subject"], two["also"], two["passage"]) == ("賔北面自閒坐左擁簠梁", "左", ["簠", "簋"], "judou-gongshi-127")


def test_the_text_reads_as_the_jianben(whole):
    """適左个中皆如之皆如作亦如: the 文渊阁 text itself prints 亦如, the 监本's reading: found so."""
    _, dump = whole
    entry = note(dump, "適左个中皆如之皆如作亦如")
    assert (entry["lemma"], entry["found_as"], entry["passage"]) == ("適左个中皆如之", "適左个中亦如之", "judou-xiangshe-96")
    assert errata_body(entry) == "张尔岐《监本正误》：“適左个中皆如之”，皆如作亦如（本书作“適左个中亦如之”，第五十葉；见本书卷十八叶三a）。"


def test_without_the_character_the_other_witnesses_lack(whole):
    """壻𫝊曰何以緦也唐石經無也字: the 句读 follows the 唐石經 (壻 | 傳曰何以緦報之也): the lemma without 也,
    which runs across two passages (壻 and its 传): linked to the first, its span across both."""
    edition, dump = whole
    entry = note(dump, "壻𫝊曰何以緦也唐石經無也字")
    assert (entry["lemma"], entry["statement"], entry["class"], entry["found_as"]) == (
        "壻𫝊曰何以緦也", "唐石經無也字", "remark", "壻𫝊曰何以緦")
    assert entry["passage"] == "judou-sangfu-159" and entry["passages"] == ["judou-sangfu-159", "judou-sangfu-160"]
    assert words(edition, entry["target_spans"][0]).startswith("壻") and words(edition, entry["target_spans"][0]).endswith("傳曰何以緦")
    assert entry["page"] == {"juan": 18, "leaf": 7, "side": "a"} and page(dump, "judou-sangfu-159") == {"juan": 11, "leaf": 38, "side": "a"}
    assert note(dump, "小臣又請媵爵者二大夫大夫媵爵如初監本吳本俱不再出大夫二字")["found_as"] == "小臣又請媵爵者二大夫媵爵如初"


def test_a_lemma_across_two_passages_goes_to_the_first(whole):
    """天子賜舍曰伯父脱曰字: the 句读 cuts 天子賜舍 | 曰伯父 into two passages; the note goes on the first."""
    edition, dump = whole
    entry = note(dump, "天子賜舍曰伯父脱曰字")
    assert entry["passage"] == "judou-jinli-7" and entry["passages"] == ["judou-jinli-7", "judou-jinli-8"]
    assert words(edition, entry["target_spans"][0]).startswith("天子賜舍") and words(edition, entry["target_spans"][0]).endswith("曰伯父")


def test_a_reviewed_decision(whole):
    """大史在千侯之東北: 千 is a slip for 干 (the 句读 prints 干侯); recorded, with its reason."""
    edition, dump = whole
    entry = note(dump, "大史在千侯之東北大史誤作大夫")
    assert (entry["lemma"], entry["statement"], entry["passage"]) == ("大史在千侯之東北", "大史誤作大夫", "judou-dashe-21")
    assert words(edition, entry["target_spans"][0]) == "大史在干侯之東北" and page(dump, "judou-dashe-21") == {"juan": 7, "leaf": 5, "side": "b"}
    two = note(dump, "主人降洗爵作洗觶主人實爵作實觶")
    assert (two["lemma"], two["statement"], two["passages"]) == ("主人降洗爵", "作洗觶主人實爵作實觶", ["judou-yousiche-81", "judou-yousiche-82"])


def test_every_decision_is_used(whole):
    """Each reviewed decision names an entry of the notes, and links it, with its reason."""
    _, dump = whole
    decisions = errata._table()["decision"]
    decided = {a["text"]: a for a in dump["apparatus"] if a["kind"].startswith("zhang-") and "decision" in a}
    assert len(decisions) == 13 and set(decided) == {d["note"] for d in decisions}
    assert all(decided[d["note"]]["quotes"] == d["quotes"] and decided[d["note"]]["decision"] == d["reason"] for d in decisions)


def test_placed_by_the_order_of_the_notes(whole):
    """命去侯侯作俟 (监本 leaf 37): 命去侯 stands four times in 大射仪, once between the passages of the
    notes before (主人洗觚升實散, leaf 24) and after it (司射進與司馬正交于階前, leaf 38)."""
    _, dump = whole
    entry = note(dump, "命去侯侯作俟")
    assert (entry["lemma"], entry["statement"], entry["class"]) == ("命去侯", "侯作俟", "reads")
    assert (entry["passage"], entry["settled_by"], entry["between"]) == ("judou-dashe-142", "order", ["judou-dashe-82", "judou-dashe-146"])
    assert page(dump, "judou-dashe-142") == {"juan": 7, "leaf": 19, "side": "b"} and entry["page"] == {"juan": 18, "leaf": 4, "side": "a"}
    assert "据前后条次第定其处" in errata_body(entry)
    # 石本误字's own note on these words names its 节 (三耦射節), and the text links it to the same passage
    assert note(dump, "南揚弓命去侯侯誤作俟")["passages"] == ["judou-dashe-142"]
    assert note(dump, "妾為君為誤作謂")["passage"] == "judou-sangfu-10"  # the first note of 丧服: before 持重於大宗者


def test_the_order_of_the_notes_holds(whole):
    """Within each 篇 the sure notes of each list follow the text: of 148 neighbouring pairs, one
    goes back (石本误字's 公答再拜, placed by its 節 記, before 自西階升受); 149 since 司射適堂西袒決遂 is placed
    by a reviewed decision (its 節, 請射), 150 since 擯者出請入告 is (its 监本 leaf)."""
    _, dump = whole
    order = {p["id"]: i for c in dump["works"][0]["chapters"] for i, p in enumerate(p for s in c["sections"] for p in s["passages"])}
    pairs = []
    for kind in ("zhang-jianben", "zhang-shiben"):
        notes = sorted((a for a in dump["apparatus"] if a["kind"] == kind and a.get("settled_by") != "order"), key=lambda a: a["span"][1])
        pairs += [(a, b) for a, b in zip(notes, notes[1:]) if a["chapter"] == b["chapter"]]
    back = [b["text"] for a, b in pairs if order.get(b["passage"], -1) < order.get(a["passage"], -1)]
    assert len(pairs) == 150 and back == ["公答再拜再誤作爯"]


def test_the_leaf_of_the_jianben_decides_between_two_places(whole):
    """擯者出請入告 stands twice between its neighbours' passages (judou-jixi-69, judou-jixi-77); the 监本
    leaf the note gives (第二十六葉) is that of the second, where 经 and 注 stand from the 篇's start
    (a reviewed decision of errata.toml): linked there, and the reader is told how."""
    _, dump = whole
    problems = {p["message"].split(": ")[0]: p for p in dump["problems"] if p["kind"].startswith("errata-")}
    assert list(problems) == ["张尔岐's note 用薦嵗事薦誤作為"]
    entry = note(dump, "擯者出請入告脱出字")
    assert entry["passages"] == ["judou-jixi-77"] and entry["reference_reading"] == "第二十六葉"
    assert entry["remark"] == "此文篇中两见，据监本叶数定其处" and "leaf 24.9 to 26.8" in entry["decision"]
    jixi = [p for c in dump["works"][0]["chapters"] if c["id"] == "jixi" for s in c["sections"] for p in s["passages"]]
    starts, at = {}, 0  # characters of 经 and 注 from the 篇's start, as the decision counts them
    for passage in jixi:
        starts[passage["id"]] = at
        at += len(passage["text"]) + sum(len(n["text"]) for n in passage["notes"] if n["layer"] == "zhu")
    assert [starts[f"judou-jixi-{n}"] for n in (50, 69, 77, 147)] == [1670, 2119, 2397, 4119]


FREE = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"  # characters the grammar never reads as a statement


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FREE), min_size=1, max_size=10), st.sampled_from(FREE),
       st.sampled_from(["唐石經無{}字", "監本吳本俱不再出{}二字", "監本吳氏本止一{}字"]))
def test_without_variants_for_any_lemma(chars, lacking, form):
    """A statement that other witnesses print the lemma without a character: the lemma is the text
    before it, and its variants are the lemma with one occurrence of that character left out, each once."""
    lemma = "".join(chars) + lacking
    reading = errata.read(lemma + form.format(lacking))
    assert (reading.lemma, reading.without, reading.cls) == (lemma, lacking, "remark")
    expected = {lemma[:i] + lemma[i + 1:] for i, c in enumerate(lemma) if c == lacking} - {""}
    assert set(errata.variants(reading)) == expected and len(errata.variants(reading)) == len(expected)


@pytest.mark.parametrize("text, lemma, subject, statement, times", [
    ("兩方壺兩圜壺兩壺獻酒三壺字幷誤作壼", "兩方壺兩圜壺兩壺獻酒", "壺", "三壺字幷誤作壼", 3),
    ("兩圜壺兩壺獻酒俱誤作壼", "兩圜壺兩壺獻酒", "", "俱誤作壼", 1),
    ("尊兩壺于房户之間加二勺于兩壺壺並誤作壼", "尊兩壺于房户之間加二勺于兩壺", "壺", "壺並誤作壼", 1),
])
def test_statements_of_several_places(text, lemma, subject, statement, times):
    reading = errata.read(text)
    assert (reading.lemma, reading.subject, reading.statement, reading.times) == (lemma, subject, statement, times)


def test_a_decision_naming_the_passage(monkeypatch):
    """An ambiguous note a reviewed decision settles by naming the passage among its places; a
    decision naming a passage that does not hold the words is reported, not followed."""
    from conv.edition import errata as linking

    table = {"擯者出請入告脱出字": {"note": "擯者出請入告脱出字", "quotes": ["擯者出請入告"], "passage": "judou-jixi-77",
                                   "reason": "test"},
             "妾為君為誤作謂": {"note": "妾為君為誤作謂", "quotes": ["妾為君"], "passage": "judou-jixi-77", "reason": "test"}}
    monkeypatch.setattr(linking.errata, "decisions", lambda: table)
    dump = export.edition(assemble.convert(WHOLE))
    assert note(dump, "擯者出請入告脱出字")["passages"] == ["judou-jixi-77"]
    problem = next(p for p in dump["problems"] if "妾為君為誤作謂" in p["message"])
    assert problem["kind"] == "errata-not-found" and "(in judou-jixi-77)" in problem["message"]
