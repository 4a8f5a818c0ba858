"""The index of terms (conv.analyses.terms, conv/data/terms.toml) on the five real seeds."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv.analyses import terms
from conv.model.tree import is_markup
from conv.normalize import fold
from seedtext import as_read

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


@pytest.fixture(scope="module")
def catalogue():
    return terms.load()


def all_passages(dump):
    for w in dump["works"]:
        for c in w["chapters"]:
            for s in c["sections"]:
                yield from s["passages"]


def passage_with(dump, text):
    """The one passage whose normalized 经/记 text is ``text`` (ids are the ledger's business)."""
    found = [p for p in all_passages(dump) if p["normalized"] == text]
    assert len(found) == 1, (text, len(found))
    return found[0]


def entry(dump, term):
    return next(t for c in dump["terms"]["categories"] for t in c["terms"] if t["term"] == term)


def seed_text(name):
    return (ROOT / "seeds" / name).read_text(encoding="utf-8")


# -- the term list ---------------------------------------------------------------------------------

def test_at_least_120_terms_in_the_named_categories(catalogue):
    assert len(catalogue.terms) >= 120
    assert [c.id for c in catalogue.categories] == ["qi", "gong", "guan", "she", "fu", "li", "yue", "sheng"]
    for word in "爵 觚 觯 角 散 丰 篚 洗 尊 壶 豆 笾 俎 鼎".split():
        assert catalogue.terms[word].category == "qi", word
    for word in "阼阶 西阶 楹 序 堂 房 户 门 庭 夹".split():
        assert catalogue.terms[word].category == "gong", word
    for word in "司射 司马 获者 释获者 大师 乐正 小臣 宗人 祝 尸 主人 宾 介".split():
        assert catalogue.terms[word].category == "guan", word
    for word in "侯 楅 算 中 弓 矢 决 拾 扑 旌 乏".split():
        assert catalogue.terms[word].category == "she", word
    for word in "献 酢 酬 拜 揖".split():
        assert catalogue.terms[word].category == "li", word


def test_terms_are_written_in_the_normalized_form(catalogue):
    for form, word in catalogue.forms.items():
        assert fold(form) == form, form
    for word, term in catalogue.terms.items():
        for variant in term.variants:
            assert variant != word and fold(variant) != word, (word, variant)  # else the variant is pointless
        for context in term.homographs:
            assert word in context and fold(context) == context


def test_the_data_file_lists_each_term_once():
    raw = tomllib.loads((ROOT / "conv" / "data" / "terms.toml").read_text(encoding="utf-8"))
    listed = [word for category in raw["category"] for word in category["terms"]]
    assert len(listed) == len(set(listed))


def test_a_term_listed_twice_is_refused(tmp_path):
    path = tmp_path / "terms.toml"
    path.write_text('[[category]]\nid = "a"\nname = "甲"\nterms = ["爵"]\n[[category]]\nid = "b"\nname = "乙"\nterms = ["爵"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="listed twice"):
        terms.load(path)


def test_a_homograph_context_must_contain_its_term(tmp_path):
    path = tmp_path / "terms.toml"
    path.write_text('[[category]]\nid = "a"\nname = "甲"\nterms = ["洗"]\n[homographs]\n"洗" = ["降盥"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="does not contain"):
        terms.load(path)


# -- leftmost-longest ------------------------------------------------------------------------------

def found(dump, text):
    return [(text[a:b], word) for a, b, word in terms.find(passage_with(dump, text)["normalized"])]


def test_a_term_inside_a_longer_term_is_not_counted(dump):
    # 射 inside 司射 and 上射 is not 射; 获 inside 获者 and 释获者 is not 获
    assert found(dump, "司射还当上耦西面作上耦射") == [("司射", "司射"), ("上耦", "上耦"), ("上耦", "上耦"), ("射", "射")]
    assert found(dump, "获者适侯执旌负侯而俟") == [("获者", "获者"), ("侯", "侯"), ("旌", "旌"), ("侯", "侯")]
    assert found(dump, "释获者执鹿中一人执算以从之") == [("释获者", "释获者"), ("鹿中", "鹿中"), ("算", "算")]
    assert found(dump, "获者坐而获") == [("获者", "获者"), ("获", "获")]
    # 折俎 takes its 俎; 荐 and 脯醢 are terms of their own
    assert ("俎", "俎") not in found(dump, "荐脯醢设折俎俎与荐皆三祭")[:4]
    assert found(dump, "荐脯醢设折俎俎与荐皆三祭") == [
        ("荐", "荐"), ("脯", "脯"), ("醢", "醢"), ("折俎", "折俎"), ("俎", "俎"), ("荐", "荐"), ("祭", "祭"),
    ]


def test_overlaps_are_settled_by_position_first():
    # 兄弟弟子: 兄弟 starts first and is taken; then 弟子
    assert [(w, a) for a, _, w in terms.find("兄弟弟子举觯")] == [("兄弟", 0), ("弟子", 2), ("觯", 5)]


def test_counted_occurrences_never_overlap(edition):
    index = terms.index(edition)
    by_passage: dict[str, list[tuple[int, int]]] = {}
    for occurrences in index.values():
        for o in occurrences:
            by_passage.setdefault(o["passage"], []).append((o["start"], o["end"]))
    for spans in by_passage.values():
        spans.sort()
        for (a, b), (c, _) in zip(spans, spans[1:]):
            assert b <= c


def test_homographs_are_not_counted(dump):
    # 洗 the basin counts, 降洗 "descend and wash" does not; in 适洗洗爵 the first 洗 is the basin
    assert found(dump, "司马洗爵升实之以降献获者于侯") == [("司马", "司马"), ("爵", "爵"), ("献", "献"), ("获者", "获者"), ("侯", "侯")]
    washing = found(dump, "司射适阶西释弓矢去扑说决拾袭适洗洗爵升实之以降献释获者于其位少南荐脯醢折俎有祭")
    assert washing.count(("洗", "洗")) == 1
    # 中 the tally-holder counts, 中等 "the middle step" does not
    assert ("中", "中") not in found(dump, "司射反位上耦揖进上射在左并行当阶北面揖及阶揖上射先升三等下射从之中等")


def test_variant_spellings_count_as_the_term(dump):
    # 通解 大射 writes 搢朴 for 搢扑
    passage = passage_with(dump, "司射适堂西袒决遂取弓挟一个适阶西搢朴以反位")
    assert passage["id"] in entry(dump, "扑")["passages"]
    # 賔 and 宾 are one character: the witness's 賔 is found under 宾
    p = passage_with(dump, "宾揖")
    assert p["text"] == "賔揖" and p["id"] in entry(dump, "宾")["passages"]


def test_the_entry_for_zhi_lists_exactly_the_passages_that_hold_it(dump):
    expected = [p["id"] for p in all_passages(dump) if "觯" in p["normalized"]]
    got = entry(dump, "觯")
    assert got["passages"] == expected
    assert got["count"] == sum(p["normalized"].count("觯") for p in all_passages(dump))
    assert len(expected) == 48


def test_a_term_no_longer_term_contains_is_counted_everywhere(dump, catalogue):
    for word in ("司射", "释获者", "楅", "乏", "丰"):
        assert not any(word in other and word != other for other in catalogue.forms)
        assert entry(dump, word)["count"] == sum(p["normalized"].count(word) for p in all_passages(dump)), word


def test_occurrences_point_at_the_witness(dump, catalogue):
    for category in dump["terms"]["categories"]:
        for t in category["terms"]:
            forms = {t["term"], *t["variants"]}
            for o in t["occurrences"]:
                seed, start, end = o["span"]
                offsets = [i for i in range(start, end) if not is_markup(seed_text(seed)[i])]
                witness = as_read("".join(seed_text(seed)[i] for i in offsets), seed, offsets, dump["apparatus"])
                assert fold(witness) in forms, (t["term"], witness)  # (a reviewed misprint read right: 司官 is 司宮)
                passage = next(p for p in all_passages(dump) if p["id"] == o["passage"])
                assert passage["normalized"][o["start"] : o["end"]] in forms
                assert o["layer"] == passage["layer"] in ("jing", "ji")


def test_only_jing_and_ji_text_is_searched(dump):
    # 觚 stands in the notes of 乡饮酒礼 and 大射 far more often than in their 经
    assert entry(dump, "觚")["count"] == sum(p["normalized"].count("觚") for p in all_passages(dump)) == 5


# -- pinyin order ----------------------------------------------------------------------------------

def test_pinyin_with_tone_numbers():
    assert terms.pinyin("觯") == "zhi4"
    assert terms.pinyin("司射") == "si1 she4"
    assert terms.pinyin("乐正") == "yue4 zheng4"  # the data file's reading, not pypinyin's le4
    assert terms.pinyin("大师") == "tai4 shi1"  # 大音泰
    assert terms.pinyin("右个") == "you4 gan4"  # 个音干


def test_order_is_by_pinyin_syllable_by_syllable_then_tone():
    assert terms.order(["众", "中", "钟"]) == ["中", "钟", "众"]  # zhong1 中/钟 by character, then zhong4
    assert terms.order(["笾", "匕", "篚"]) == ["匕", "笾", "篚"]  # bi3 before bian1
    assert terms.order(["司马正", "司马", "司射"]) == ["司马", "司马正", "司射"]


def test_each_category_is_in_pinyin_order(dump):
    for category in dump["terms"]["categories"]:
        keys = [terms.sort_key(t["term"]) for t in category["terms"]]
        assert keys == sorted(keys)
        assert all(t["pinyin"] == terms.pinyin(t["term"]) for t in category["terms"])


def test_export_shape(dump, catalogue):
    index = dump["terms"]
    assert index["rule"] == "leftmost-longest"
    assert [c["id"] for c in index["categories"]] == [c.id for c in catalogue.categories]
    assert sum(len(c["terms"]) for c in index["categories"]) == len(catalogue.terms)
    first = index["categories"][0]
    assert (first["name"], first["label"]) == ("器物", "vessels and implements")
    for c in index["categories"]:
        for t in c["terms"]:
            assert set(t) == {"term", "pinyin", "variants", "count", "passages", "occurrences", "note"}
            assert t["count"] == len(t["occurrences"])


def test_traditional_text_is_found_through_normalization():
    traditional = "司射還當上耦西面作上耦射獲者執旌負侯而俟賔揖"
    assert [w for _, _, w in terms.find(fold(traditional))] == ["司射", "上耦", "上耦", "射", "获者", "旌", "侯", "宾", "揖"]


# characters of the terms, without those of terms that have homographs or senses (their rules
# consume characters without counting them, which this property does not model)
_HOMOGRAPHS = {word for word, term in terms.load().terms.items() if term.ruled}
_ALPHABET = sorted({ch for form in terms.load().forms for ch in form} - set("".join(_HOMOGRAPHS)) | set("之而以于"))


@given(st.text(alphabet=_ALPHABET, max_size=40))
@settings(max_examples=300, deadline=None)
def test_find_is_leftmost_longest(text):
    catalogue = terms.load()
    found = terms.find(text)
    position = 0
    for start, end, word in found:
        assert start >= position  # in order, never overlapping
        form = text[start:end]
        assert catalogue.forms[form] == word
        longer = [text[start : start + n] for n in range(end - start + 1, min(catalogue.longest, len(text) - start) + 1)]
        assert not any(f in catalogue.forms for f in longer)  # the longest form starting here
        # no form starts between the previous match and this one (else it would have been taken)
        for at in range(position, start):
            assert not any(text[at : at + n] in catalogue.forms for n in range(1, min(catalogue.longest, len(text) - at) + 1))
        position = end
    for at in range(position, len(text)):  # nor after the last one
        assert not any(text[at : at + n] in catalogue.forms for n in range(1, min(catalogue.longest, len(text) - at) + 1))


# -- senses (issue 23, point 7) ----------------------------------------------------------------------

def test_zun_the_verb_is_not_the_vessel(dump):
    zun = entry(dump, "尊")
    assert zun["count"] == 5
    texts = {p["id"]: p["normalized"] for p in all_passages(dump)}
    for occurrence in zun["occurrences"]:
        text = texts[occurrence["passage"]]
        assert text[occurrence["start"] - 1 : occurrence["end"] + 1] in {
            "公尊瓦", "在尊南", "于尊南", "于尊西", "之尊而"}
    # the five verbs of the issue: 司宫尊于…, 尊士旅食 (燕礼5), 尊两壶, 尊两甒, 尊侯于
    assert "judou-tesheng-19" not in zun["passages"] and "judou-shaolao-33" not in zun["passages"]
    assert sum(o["passage"] == "judou-yanli-5" for o in zun["occurrences"]) == 2  # 公尊, 在尊南
    assert all(o["placed"] for o in zun["occurrences"])


@pytest.mark.parametrize("term,absent,note", [
    ("舌", "judou-tesheng-9", "心舌"),          # the victim's heart and tongue
    ("拾", "judou-xiangshe-43", "既拾取"),       # 既拾取乘矢: in turn
    ("序", "judou-xiangshe-166", "序则物当栋"),  # the school
    ("鼓", "tongjie-xiangyinjiu-36", "鼓之"),    # strikes the 磬
])
def test_senses_leave_out_the_other_word(dump, catalogue, term, absent, note):
    assert absent not in entry(dump, term)["passages"]
    assert note in catalogue.terms[term].note


def test_the_armguard_and_the_hung_instruments_are_terms(dump, catalogue):
    sui = entry(dump, "遂")
    texts = {p["id"]: p["normalized"] for p in all_passages(dump)}
    assert sui["count"] == 20 and catalogue.terms["遂"].category == "she"
    assert all(texts[o["passage"]][o["start"] - 1 : o["end"]] == "决遂" for o in sui["occurrences"])
    assert "judou-xiangshe-2" not in sui["passages"]  # 遂适阶西: "then"
    xian = entry(dump, "县")
    assert (xian["passages"], catalogue.terms["县"].category) == (["judou-yanli-3"], "yue")


def test_find_placed():
    found = terms.find_placed("司宫尊于东楹之西在尊南宫尊而献遂适袒决遂")
    assert [(w, placed) for _, _, w, placed in found if w in "尊遂"] == [
        ("尊", True),   # 在尊南: the vessel (尊于 is the verb: not counted)
        ("尊", False),  # 宫尊而: no rule places it: counted, reported
        ("遂", True),   # 决遂 only (遂适: "then", not counted)
    ]


def test_no_occurrence_of_the_seeds_is_unplaced(dump):
    assert not [p for p in dump["problems"] if p["kind"] == "term-unplaced"]


def test_an_unplaced_occurrence_is_a_problem_with_its_place(edition, tmp_path):
    path = tmp_path / "terms.toml"
    path.write_text('[[category]]\nid = "qi"\nname = "器物"\nterms = ["尊"]\n'
                    '[senses."尊"]\ninclude = ["尊南"]\nreason = "test"\n', encoding="utf-8")
    found = terms.problems(edition, terms.load(path))  # only 尊南 is placed: every other 尊 is reported
    assert {p["kind"] for p in found} == {"term-unplaced"}
    assert [(p["seed"][:3], p["line"], p["col"]) for p in found] == [
        ("001", 43, 363), ("001", 43, 378), ("001", 43, 394), ("002", 6, 1), ("002", 27, 417),
        ("004", 7, 3), ("004", 7, 24), ("004", 45, 182)]
    assert "judou-yanli-5 (…酒南上公尊瓦大两有…)" in found[1]["message"]
    assert "[senses]" in found[1]["message"] and "[homographs]" in found[1]["message"]


def test_a_sense_needs_include_and_a_reason(tmp_path):
    path = tmp_path / "terms.toml"
    path.write_text('[[category]]\nid = "qi"\nname = "器物"\nterms = ["尊"]\n'
                    '[senses."尊"]\ninclude = ["尊南"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="reason"):
        terms.load(path)
