"""The search data of a page (检索摘要数据): ``search/summaries.page_units`` on a small doctree
that holds what a chapter page holds — a section with its title, passages of words and notes,
layers inside a segment, characters with a reading form, a run of witness forms, an emendation,
a counterpart's copy (``no-search``), an element with an id outside the passages — and what
the units, segments, layers and forms of it are."""
from __future__ import annotations

from docutils import nodes
from docutils.utils import new_document
from hypothesis import given, settings
from hypothesis import strategies as st

from conv.sphinx_ext.nodes import yl_appmark, yl_char, yl_emend, yl_forms, yl_passage, yl_segment, yl_text
from conv.sphinx_ext.search.summaries import page_units


def passage(anchor: str, *children: nodes.Node, layer: str = "jing") -> yl_passage:
    return yl_passage("", *children, ids=[anchor], anchor=anchor, layer=layer,
                      classes=["yl-passage", f"yl-{layer}"])


def chapter() -> nodes.document:
    document = new_document("judou/xiangshe")
    section = nodes.section("", nodes.title("", "司射诱射"), ids=["judou-xiangshe-s1"])
    first = passage(
        "judou-xiangshe-1",
        yl_text("", "", nodes.Text("主人"), yl_char("", "賔", resolved="賔", normal="宾", kind="variant"),
                nodes.Text("于"), yl_appmark(marks=["x"]), nodes.Text("堂"), layer="jing"),
        yl_segment("", "", nodes.Text("宾"), nodes.inline("", "疏曰", classes=["yl-shu"]), nodes.Text("射也"),
                   layer="zhu", classes=["yl-note", "yl-zhu"]),
        yl_segment("", "", yl_forms("", "礼乐", witness="禮樂"), nodes.Text("之"),
                   yl_emend("", "䙝", printed="防", adopted="䙝", normal="亵"),
                   layer="an", classes=["yl-note", "yl-an"]),
        nodes.inline("", "", yl_text("", "互见之文", layer="jing"), classes=["no-search"]),
    )
    second = passage("judou-xiangshe-2", yl_text("", "", nodes.Text("乃射"),
                                                 yl_char("", "", resolved="", normal="", kind="pua-spurious"),
                                                 nodes.Text("矣"), layer="ji"), layer="ji")
    section += first
    section += second
    section += nodes.paragraph("", "", nodes.Text("右司射"), nodes.inline("", "诱射", ids=["app-1"]))
    document += section
    document += nodes.paragraph("", "卷五")
    return document


def test_each_passage_is_a_unit_of_its_segments_in_their_layers():
    data = page_units(chapter())
    assert data["h"] == ["司射诱射"]
    assert data["u"] == [
        ["judou-xiangshe-s1", 0, 0, [["", "司射诱射"], ["", "右司射"]]],
        ["judou-xiangshe-1", 1, 0, [["jing", "主人賔于堂"], ["zhu", "宾"], ["shu", "疏曰"], ["zhu", "射也"],
                                    ["an", "禮樂之防", "礼乐之亵"]]],
        ["judou-xiangshe-2", 1, 0, [["ji", "乃射矣"]]],
        ["app-1", 0, 0, [["", "诱射"]]],
        ["", 0, -1, [["", "卷五"]]],
    ]
    assert data["n"] == {"樂": "乐", "禮": "礼", "賔": "宾"} and data["p"] == "防"  # the emendation: printed 防, read 亵


def test_a_spurious_code_point_a_marker_and_a_copy_are_no_text():
    """The 衍 code point (``pua-spurious``), an apparatus mark and a counterpart's copy
    (``no-search``) give nothing; the text around them joins."""
    units = {unit[0]: unit[3] for unit in page_units(chapter())["u"]}
    assert units["judou-xiangshe-2"] == [["ji", "乃射矣"]]
    assert "互见之文" not in str(units)


layers = st.sampled_from(["jing", "zhu", "shu", "an", "yin"])
texts = st.text(alphabet="宾主射礼乐", min_size=1, max_size=3)


@st.composite
def segment_trees(draw):
    """A passage of words and notes whose segments hold inline layers nested a few deep."""
    def inline(depth: int) -> nodes.Node:
        if depth == 0 or draw(st.booleans()):
            return nodes.Text(draw(texts))
        element = nodes.inline("", "", classes=[f"yl-{draw(layers)}"] if draw(st.booleans()) else [])
        for _ in range(draw(st.integers(1, 3))):
            element += inline(depth - 1)
        return element

    document = new_document("p")
    body = passage("p-1", layer="jing")
    for _ in range(draw(st.integers(1, 4))):
        layer = draw(layers)
        segment = yl_segment("", "", layer=layer, classes=["yl-note", f"yl-{layer}"])
        for _ in range(draw(st.integers(1, 3))):
            segment += inline(3)
        body += segment
    document += body
    return document


@settings(max_examples=60, deadline=None)
@given(segment_trees())
def test_a_passage_keeps_every_character_once_in_order(document):
    """Whatever the nesting, the unit's texts are the passage's text, and two neighbours in one
    segment never share a layer (they would have been joined)."""
    (unit,) = page_units(document)["u"]
    assert "".join(segment[1] for segment in unit[3]) == document.astext()
    assert unit[:3] == ["p-1", 1, -1]
