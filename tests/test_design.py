"""sphinx-design's HTML post-transforms run only on pages holding its components
(``conv/sphinx_ext/design.py``): the same pages come out, the others are not walked three times."""
from __future__ import annotations

from docutils import nodes

from conv.sphinx_ext import design

DROPDOWN = """# 附录

:::{dropdown} 校语
射侯之制
:::
"""
PLAIN = "# 乡射礼\n\n射侯之制\n"


def _resolved(myst_app, text: str, docname: str):
    doctree = myst_app.parse(text, docname=docname)
    myst_app.app.env.apply_post_transforms(doctree, docname)
    return doctree


def test_the_three_transforms_are_gated(myst_app):
    names = {(t.__module__, t.__name__) for t in myst_app.app.registry.post_transforms}
    assert not names & design.GATED
    gated = [t for t in myst_app.app.registry.post_transforms if t.__module__ == design.__name__]
    assert sorted(t.__name__ for t in gated) == ["AsideHtmlTransform", "DropdownHtmlTransform",
                                                 "TabSetHtmlTransform"]


def test_a_page_with_a_dropdown_is_still_transformed(myst_app):
    doctree = _resolved(myst_app, DROPDOWN, "design-dropdown")
    assert doctree[design._MARK] is True
    # sphinx-design's DropdownHtmlTransform turns the container into its <details> node
    from sphinx_design.dropdown import dropdown_main, dropdown_title

    (main,) = doctree.findall(dropdown_main)
    assert [n.astext().startswith("校语") for n in main.findall(dropdown_title)] == [True]
    assert "射侯之制" in main.astext()


def test_a_page_without_components_is_left_alone(myst_app, monkeypatch):
    from sphinx_design.aside import AsideHtmlTransform
    from sphinx_design.dropdown import DropdownHtmlTransform
    from sphinx_design.tabs import TabSetHtmlTransform

    ran = []
    for transform in (AsideHtmlTransform, DropdownHtmlTransform, TabSetHtmlTransform):
        monkeypatch.setattr(transform, "run", lambda self, **kwargs: ran.append(type(self).__name__))
    doctree = _resolved(myst_app, PLAIN, "design-plain")
    assert doctree[design._MARK] is False
    assert ran == []
    _resolved(myst_app, DROPDOWN, "design-dropdown-2")
    assert sorted(ran) == ["AsideHtmlTransform", "DropdownHtmlTransform", "TabSetHtmlTransform"]
    assert not [n for n in doctree.findall(nodes.container) if n.get("design_component")]
