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


# -- the copy itself: one walk, as a deep copy with the left-out nodes removed and ids emptied ----

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from conv.sphinx_ext.nodes import yl_ednote_ref  # noqa: E402


@st.composite
def bodies(draw):
    """A passage's words or segment: inline elements with ids, apparatus marks, editorial-note
    markers and counterpart controls nested in each other, texts between."""
    def inline(depth: int) -> nodes.Node:
        kind = draw(st.sampled_from(["text", "inline", "appmark", "ednote", "parallel"] if depth else ["text"]))
        if kind == "text":
            return nodes.Text(draw(st.text(alphabet="经注疏", min_size=1, max_size=2)))
        element = {"inline": nodes.inline, "appmark": yl_appmark, "ednote": yl_ednote_ref,
                   "parallel": yl_parallel}[kind](ids=draw(st.lists(st.sampled_from(["a", "b"]), max_size=2)),
                                                  classes=["k"])
        for _ in range(draw(st.integers(0, 3))):
            element += inline(depth - 1)
        return element

    document = new_document("tongjie/a")
    body = (yl_text if draw(st.booleans()) else yl_segment)("", "", ids=["w"], layer="jing")
    for _ in range(draw(st.integers(1, 4))):
        body += inline(3)
    document += yl_passage("", body, ids=["p"], anchor="p")
    return body


def reference_copy(node: nodes.Element) -> nodes.Element:
    """What the copy means: a deep copy, its left-out nodes removed, every element's ids emptied."""
    copy = node.deepcopy()
    for inner in list(copy.findall(lambda n: isinstance(n, (yl_appmark, yl_ednote_ref, yl_parallel)))):
        inner.parent.remove(inner)
    for inner in copy.findall(nodes.Element):
        inner["ids"] = []
    return copy


@settings(max_examples=150, deadline=None)
@given(bodies())
def test_the_copy_is_a_deep_copy_without_marks_or_ids(body):
    copy = parallels._copy(body, body.document)
    expected = reference_copy(body)
    assert copy.pformat() == expected.pformat()
    assert [(n.source, n.line) for n in copy.findall()] == [(n.source, n.line) for n in expected.findall()]
    assert all(n.parent is p for p in copy.findall(nodes.Element) for n in p.children)
    assert body.findall(yl_appmark) is not None and body.parent is not None  # the original untouched
