"""Where a counterpart's copy comes from (互见之来源): ``refs/parallels._counterpart_sources``.

Each copy is made from the counterpart's page as Sphinx pickled it, without ids, apparatus marks,
editorial-note markers or the page's own counterpart control; a page's doctree is loaded once while
it is among the last few asked for, and only the passages asked for are copied."""
from __future__ import annotations

from types import SimpleNamespace

from docutils import nodes
from docutils.utils import new_document

from conv.sphinx_ext.nodes import yl_appmark, yl_parallel, yl_passage, yl_segment, yl_text
from conv.sphinx_ext.refs import parallels


def page(docname: str, count: int = 3) -> nodes.document:
    document = new_document(docname)
    for number in range(1, count + 1):
        anchor = f"{docname.replace('/', '-')}-{number}"
        passage = yl_passage("", ids=[anchor], anchor=anchor, layer="jing")
        passage += yl_text("", "", nodes.Text(f"经{number}"), yl_appmark(marks=[]), ids=[f"w{number}"], layer="jing")
        passage += yl_segment("", "", nodes.Text(f"注{number}"), layer="zhu", classes=["yl-note", "yl-zhu"])
        passage += yl_parallel(passage=anchor, counterparts=["x"], see_also=[])
        document += passage
        document.ids[anchor] = passage
    return document


class Environment:
    """``get_doctree`` as Sphinx's: a fresh tree at each call; the calls are counted."""

    def __init__(self) -> None:
        self.loads: list[str] = []

    def get_doctree(self, docname: str) -> nodes.document:
        self.loads.append(docname)
        return page(docname)


def test_a_copy_is_the_passage_words_and_notes_without_ids_or_marks():
    env, builder = Environment(), SimpleNamespace()
    copies = parallels._counterpart_sources(env, builder, "tongjie/a", "tongjie-a-2")
    assert [c.__class__ for c in copies] == [yl_text, yl_segment]
    assert [c.astext() for c in copies] == ["经2", "注2"]
    assert copies[0]["ids"] == [] and not list(copies[0].findall(yl_appmark))
    assert copies[1]["classes"] == ["yl-note", "yl-zhu"]


def test_each_request_gets_its_own_copy_of_one_loaded_page():
    env, builder = Environment(), SimpleNamespace()
    first = parallels._counterpart_sources(env, builder, "tongjie/a", "tongjie-a-1")
    again = parallels._counterpart_sources(env, builder, "tongjie/a", "tongjie-a-1")
    other = parallels._counterpart_sources(env, builder, "tongjie/a", "tongjie-a-3")
    assert env.loads == ["tongjie/a"]
    assert first[0] is not again[0] and first[0].pformat() == again[0].pformat()
    assert other[0].astext() == "经3"


def test_the_last_pages_asked_for_are_kept_the_oldest_forgotten():
    env, builder = Environment(), SimpleNamespace()
    names = [f"tongjie/p{number}" for number in range(parallels.KEPT_DOCTREES + 1)]
    for name in names:
        parallels._counterpart_sources(env, builder, name, f"{name.replace('/', '-')}-1")
    assert env.loads == names and len(builder.yl_counterpart_sources) == parallels.KEPT_DOCTREES
    parallels._counterpart_sources(env, builder, names[-1], f"{names[-1].replace('/', '-')}-2")
    assert env.loads == names  # still kept
    parallels._counterpart_sources(env, builder, names[0], f"{names[0].replace('/', '-')}-2")
    assert env.loads == [*names, names[0]]  # forgotten, loaded again


def test_an_anchor_the_page_does_not_have_copies_nothing():
    env, builder = Environment(), SimpleNamespace()
    assert parallels._counterpart_sources(env, builder, "tongjie/a", "tongjie-a-9") == []
