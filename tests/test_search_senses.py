"""A character of two senses in search (一字两义之检索): the 文渊阁 text's 閒 reads 间 (between) at some places and
闲 (leisure) at others (``conv/data/senses.toml``), where search folded it 闲 everywhere. A place is found by the form
of its sense (间尝 finds 《大学》's 閒嘗, 闲尝 does not) and by the form it prints (閒嘗, either sense); the 规范 view's
snippet shows each place in its own sense's form, where the page's search data gave one form for every place.
An emendation is alike: the 底本 view's 燕坐防贵 (the seed's printed 防, the 文渊阁's 䙝 adopted) is found as it is shown.
"""
from __future__ import annotations

import pytest
from docutils import nodes
from docutils.utils import new_document

from conv.sphinx_ext.nodes import yl_emend, yl_forms, yl_passage, yl_text
from conv.sphinx_ext.search.language import needle_forms, split_text
from conv.sphinx_ext.search.summaries import page_units
from conv.sphinx_ext.search.witness_terms import witness_texts
from search_helpers import search_results


def passage(anchor: str, *children: nodes.Node) -> yl_passage:
    return yl_passage("", yl_text("", "", *children, layer="jing"), ids=[anchor], anchor=anchor,
                      classes=["yl-passage", "yl-jing"])


def daxue() -> nodes.document:
    """閒 of 閒嘗 read 间, 閒 of 閒居 and 燕閒 read 闲; 乾 kept in one passage (乾坤), folded in the other."""
    document = new_document("tongjie/daxue")
    document += passage("d-36", yl_forms("", "间尝", witness="閒嘗"), nodes.Text("窃取"))
    document += passage("d-39", nodes.Text("小人"), yl_forms("", "闲", witness="閒"), nodes.Text("居"))
    document += passage("d-40", nodes.Text("燕"), yl_forms("", "闲", witness="閒"))
    document += passage("d-41", nodes.Text("乾坤"))
    document += passage("d-42", yl_forms("", "干", witness="乾"), nodes.Text("肉"))
    return document


def test_the_search_data_reads_each_place_in_its_sense():
    """The page maps a character to the form most of its places read; a segment whose places read otherwise
    carries its reading (a third element), so 閒嘗 shows 间尝 and the kept 乾 stays 乾 in the 规范 view."""
    data = page_units(daxue())
    assert data["n"] == {"乾": "干", "嘗": "尝", "閒": "闲"}
    assert data["p"] == "閒"  # a character printed here that some place reads as search does not fold it
    assert [unit[3] for unit in data["u"]] == [
        [["jing", "閒嘗窃取", "间尝窃取"]], [["jing", "小人閒居"]], [["jing", "燕閒"]], [["jing", "乾坤", "乾坤"]],
        [["jing", "乾肉"]]]


def test_an_emendation_is_its_printed_form_in_the_text_and_the_adopted_in_the_reading():
    """The seed printed 防 where the 文渊阁 copy has 䙝 (亵): the 底本 view shows 防, the 规范 view 亵, and so does the
    page's search data, where the text was the adopted 䙝 (the 底本 view's snippet showed what the page does not)."""
    document = new_document("judou/xiangshe")
    document += passage("x-151", nodes.Text("不敢以燕坐"), yl_emend("", "亵", printed="防", adopted="䙝", normal="亵"),
                        nodes.Text("贵肴"))
    data = page_units(document)
    assert data["u"][0][3] == [["jing", "不敢以燕坐防贵肴", "不敢以燕坐亵贵肴"]]
    assert (data["n"], data["p"]) == ({}, "防")


def test_the_index_holds_what_the_witness_prints():
    """Where a character reads the form of its sense, the index holds the form the witness prints too (閒 folds
    闲: the query 閒嘗 asks for 闲尝) with its neighbours; a place read as the fold gives nothing more."""
    runs, _ = witness_texts(daxue())
    assert runs == ["閒嘗窃"]
    assert {"闲尝", "闲"} <= set(split_text(runs[0]))


def test_a_needle_keeps_the_characters_typed():
    """A needle is folded, and keeps what was typed: on a page whose 閒 some place reads 间 (its search data's ``p``),
    閒 typed is either sense, matched on the printed forms folded; 闲 and 间 typed are one sense each, matched on the
    reading forms."""
    assert needle_forms("閒嘗 闲居 间") == [("闲尝", "閒嘗"), ("闲居", "闲居"), ("间", "间")]
    assert needle_forms("經:閒 閒 闲") == [("闲", "閒"), ("闲", "闲")]


@pytest.mark.browser
def test_search_finds_a_place_by_its_sense_and_as_printed(page, whole_site):
    """《大学》: 閒嘗竊取程子之意 (间, 'once') and 小人閒居為不善 (闲, 'at leisure') on one page."""
    assert "tongjie-daxue-36" in search_results(page, whole_site, "间尝窃取")
    assert "tongjie-daxue-36" in search_results(page, whole_site, "閒嘗竊取")
    assert "tongjie-daxue-36" not in search_results(page, whole_site, "闲尝")
    assert "tongjie-daxue-39" in search_results(page, whole_site, "小人闲居")
    assert "tongjie-daxue-39" in search_results(page, whole_site, "小人閒居")
    assert "tongjie-daxue-39" not in search_results(page, whole_site, "小人间居")
    # 士昬禮's 記: 設洗于阼階東南 … 水于堂下階閒加勺, as printed
    assert "tongjie-shihun-173" in search_results(page, whole_site, "堂下階閒")
    assert "tongjie-shihun-173" in search_results(page, whole_site, "堂下阶间")


@pytest.mark.browser
def test_search_finds_an_emendation_as_each_view_shows_it(page, whole_site):
    """鄉射禮 注 不敢以燕坐䙝貴肴: the seed printed 防, the 文渊阁 copy has 䙝 (褻, 亵)."""
    for query in ("燕坐防贵", "燕坐䙝贵", "燕坐亵贵", "燕坐褻貴"):
        assert "judou-xiangshe-151" in search_results(page, whole_site, query), query
    assert "燕坐防贵" in search_results(page, whole_site, "燕坐防贵")["judou-xiangshe-151"]  # the 底本 view, as the page


@pytest.mark.browser
def test_the_normalized_snippet_shows_each_place_in_its_sense(page, whole_site):
    page.goto(f"{whole_site}/tongjie/daxue.html")
    page.locator(".yl-toolbar").wait_for()
    page.get_by_role("radio", name="规范").check()
    assert "间尝窃取" in search_results(page, whole_site, "閒嘗竊取")["tongjie-daxue-36"]
    assert "小人闲居" in search_results(page, whole_site, "小人閒居")["tongjie-daxue-39"]


def test_the_front_page_tells_how_a_character_of_two_senses_reads(whole_html, whole_dump):
    """The reading notes say that the 规范 view reads 閒 by its sense and how search finds it; their examples are the
    edition's own: each printed form → its reading stands in some passage of the dump, printed and read so."""
    import re
    from html import unescape

    index = unescape(re.sub(r"<[^>]+>", "", (whole_html.outdir / "index.html").read_text(encoding="utf-8")))
    assert "一字多义者依其义定字" in index and "检索时输入原字（閒）两义兼得" in index
    examples = re.findall(r"（([^（）→]+)→([^（）→]+)）", index.split("一字多义者", 1)[1].split("检索时", 1)[0])
    assert examples == [("房户閒", "房户间"), ("閒居", "闲居")]
    passages = [passage for work in whole_dump["works"] for chapter in work["chapters"]
                for section in chapter["sections"] for passage in section["passages"]]
    for printed, read in examples:
        assert any(printed in p["text"] and read in p["normalized"]
                   and p["normalized"].index(read) == p["text"].index(printed) for p in passages), printed
