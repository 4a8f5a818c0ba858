"""``conv.sphinx_ext.walk.blocks`` finds what ``findall`` finds, in the same order, on every page
of the edition built from the seeds (the fixture project holds every kind of page)."""
from __future__ import annotations

import pytest
from docutils import nodes

from conv.sphinx_ext.nodes import yl_passage
from conv.sphinx_ext.nodes import yl_chaptertitle, yl_title
from conv.sphinx_ext.walk import blocks

CASES = [
    ((yl_passage, nodes.section), (nodes.section,)),
    ((yl_passage, yl_title, yl_chaptertitle), ()),
    (yl_passage, ()),
]


@pytest.fixture(scope="module")
def doctrees(fixture_html):
    names = sorted(p.relative_to(fixture_html.doctreedir).with_suffix("").as_posix()
                   for p in fixture_html.doctreedir.rglob("*.doctree"))
    return {name: fixture_html.doctree(name) for name in names}


@pytest.mark.parametrize("types, into", CASES)
def test_blocks_equal_findall_on_every_page(doctrees, types, into):
    total = 0
    for name, doctree in doctrees.items():
        expected = list(doctree.findall(types if isinstance(types, type) else
                                        (lambda n, t=types: isinstance(n, t))))
        found = list(blocks(doctree, types, into=into))
        assert [id(n) for n in found] == [id(n) for n in expected], name
        total += len(found)
    assert total >= 20  # the fixture pages hold passages, titles and sections
