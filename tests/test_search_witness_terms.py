"""Index terms the text's nodes do not give (``search/witness_terms.witness_texts``): the printed
form of each emendation with its neighbours, the entity of a character Unicode lacks, in the
order of the page, found however deep they lie, but never in a counterpart's copy (``no-search``:
the copied passage's words are found on its own page)."""
from __future__ import annotations

from docutils import nodes
from docutils.utils import new_document

from conv.sphinx_ext.nodes import yl_char, yl_emend, yl_passage, yl_segment, yl_text
from conv.sphinx_ext.search.witness_terms import witness_texts


def test_emendations_and_unencoded_characters_in_page_order():
    document = new_document("judou/xiangshe")
    first = yl_text("", "", nodes.Text("燕坐"), yl_emend("", "䙝", printed="防", adopted="䙝", normal="亵"),
                    nodes.Text("贵肴"), layer="jing")
    note = yl_segment("", "", nodes.Text("谓"),
                      nodes.inline("", "", yl_char("", "〓", resolved="\ue14b", normal="\ue14b", kind="unencoded",
                                                   stand_in=chr(0xF0000 + 871))),
                      nodes.Text("肝"), layer="zhu")
    copy = nodes.inline("", "", yl_text("", "", nodes.Text("尊"), yl_emend("", "𤣥", printed="玄", adopted="𤣥",
                                                                           normal="玄"),
                                        nodes.Text("酒"), layer="jing"), classes=["no-search"])
    document += yl_passage("", first, note, copy, ids=["p-1"], anchor="p-1")
    runs, words = witness_texts(document)
    assert runs == ["坐防贵"]
    assert words == ["KR0871"]


def test_a_page_without_them_gives_nothing():
    document = new_document("judou/a")
    document += nodes.paragraph("", "右司射诱射")
    assert witness_texts(document) == ([], [])
