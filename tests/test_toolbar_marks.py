"""What the toolbar needs of a page (``output/toolbar``): which commentary layers its segments
are in (in the toolbar's order), whether it has passages or titles at all, whether it shows
文渊阁 forms (the 繁体 view), found in one walk; and the toolbar each page gets."""
from __future__ import annotations

import re

from docutils import nodes
from docutils.utils import new_document

from conv.sphinx_ext.nodes import yl_char, yl_emend, yl_forms, yl_passage, yl_segment, yl_text, yl_title, yl_trad
from conv.sphinx_ext.output.toolbar import add_toolbar, has_witness_forms, page_layers


def page(*children: nodes.Node) -> nodes.document:
    document = new_document("judou/xiangshe")
    section = nodes.section("", nodes.title("", "乡射礼"), ids=["s"])
    for child in children:
        section += child
    document += section
    return document


def passage(*segments: nodes.Node, words: nodes.Node | None = None) -> yl_passage:
    return yl_passage("", words or yl_text("", "主人", layer="jing"), *segments, ids=["p"], anchor="p")


def test_the_layers_of_a_page_in_the_toolbars_order():
    document = page(passage(yl_segment("", "音", layer="yin"), yl_segment("", "疏", layer="shu")),
                    nodes.paragraph("", "", nodes.inline("", "", yl_segment("", "注", layer="zhu"))))
    assert page_layers(document) == ["zhu", "shu", "yin"]
    assert has_witness_forms(document) is False


def test_a_page_without_passages_or_titles_has_no_toolbar():
    document = page(nodes.paragraph("", "", yl_segment("", "注", layer="zhu")))
    assert page_layers(document) is None
    context = {"body": "<p>x</p>"}
    add_toolbar(None, "notes", "page.html", context, document)
    assert context["body"] == "<p>x</p>" and "<script>" in context["metatags"]


def test_a_title_alone_gives_a_toolbar_without_layers():
    assert page_layers(page(yl_title("", yl_text("", "右司射", layer="title")))) == []


def test_witness_forms_each_kind():
    plain = yl_forms("", "宾", witness="賔")
    assert has_witness_forms(page(passage(words=yl_text("", "", plain, layer="jing")))) is False
    for mark in (yl_trad("", "賓", witness="宾"), yl_emend("", "䙝", printed="防", adopted="䙝"),
                 yl_char("", "宾", trad="賓"), yl_forms("", "宾", witness="賔", trad="賓")):
        document = page(passage(words=yl_text("", "", nodes.inline("", "", mark), layer="jing")))
        assert has_witness_forms(document) is True, mark


def test_the_toolbar_offers_the_traditional_view_only_with_forms():
    with_forms = {"body": "<p/>"}
    add_toolbar(None, "judou/x", "page.html", with_forms,
                page(passage(yl_segment("", "注", layer="zhu"), words=yl_text("", "", yl_trad("", "賓"), layer="jing"))))
    without = {"body": "<p/>"}
    add_toolbar(None, "judou/x", "page.html", without, page(passage(yl_segment("", "注", layer="zhu"))))
    assert 'data-layer="zhu"' in with_forms["body"] and 'data-view="traditional"' in with_forms["body"]
    assert 'data-layer="zhu"' in without["body"] and 'data-view="traditional"' not in without["body"]
    assert with_forms["body"].endswith("<p/>")


def test_a_page_without_layers_has_no_empty_layers_group():
    """原序 and the lost 书数 have text but no commentary: their toolbar offers the 字形 views
    alone, without a 「层次」 legend over nothing."""
    context = {"body": "<p/>"}
    add_toolbar(None, "tongjie/shushu", "page.html", context,
                page(passage(words=yl_text("", "", yl_trad("", "闕"), layer="jing"))))
    assert "层次" not in context["body"] and "yl-toolbar-layers" not in context["body"]
    assert '<legend>字形</legend>' in context["body"] and 'data-view="traditional"' in context["body"]


def test_the_layers_are_named_as_each_page_has_them():
    """The toolbar's tips name a page's 注 and 疏 as its 篇 has them: 郑注 and 贾疏 on the 仪礼's 篇 (the
    句读 and the 通解's 仪礼 篇), 朱熹章句 on the 通解's 中庸 and 大学, 郭璞注 on its 亲属记, and on its other
    篇, whose 注 are many hands' (郑玄's 礼记, 何休's 公羊 …), 注 and 疏 of the books quoted."""
    names = {}
    for pagename in ("judou/xiangshe", "tongjie/xiangshe", "tongjie/zhongyong", "tongjie/qinshuji", "tongjie/hunyi"):
        context = {"body": ""}
        add_toolbar(None, pagename, "page.html", context,
                    page(passage(yl_segment("", "注", layer="zhu"), yl_segment("", "疏曰", layer="shu"))))
        names[pagename] = re.findall(r'title="显示或隐藏([^"]*)"><input type="checkbox" data-layer="(\w+)"', context["body"])
    assert names == {
        "judou/xiangshe": [("郑注", "zhu"), ("贾疏", "shu")],
        "tongjie/xiangshe": [("郑注", "zhu"), ("贾疏", "shu")],
        "tongjie/zhongyong": [("朱熹章句", "zhu"), ("疏（所录他书之疏）", "shu")],
        "tongjie/qinshuji": [("郭璞注", "zhu"), ("疏（所录他书之疏）", "shu")],
        "tongjie/hunyi": [("注（所录他书之注）", "zhu"), ("疏（所录他书之疏）", "shu")],
    }
