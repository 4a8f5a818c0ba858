"""sphinx-design's HTML transforms, only on the pages that hold its components (组件页).

sphinx-design rebuilds its asides, dropdowns and tab sets for HTML in three post-transforms that
run on every page written, each looking for its components with a function as the condition of
``findall``: docutils then walks every node of the page in its slow, general way, three times.
On the whole 仪礼 (150,000 nodes, the grid cards of the home page its only components) that is
about a second, spent in the main process, which resolves every page before it is written.

Here each of those transforms first asks whether the page holds any of sphinx-design's component
containers at all, by one walk that docutils makes in its fast way (``findall`` by node class;
sphinx-design makes every component a ``nodes.container`` with ``design_component``), and the
answer is kept on the page for the other two. A page without one is left alone, as the
transforms would leave it; a page with one is transformed as always.
"""
from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

#: sphinx-design's post-transforms that only act on component containers (module, class name).
GATED = {
    ("sphinx_design.aside", "AsideHtmlTransform"),
    ("sphinx_design.dropdown", "DropdownHtmlTransform"),
    ("sphinx_design.tabs", "TabSetHtmlTransform"),
}
_MARK = "yl_design_components"  # on the document: whether it holds a component container


def setup_design(app: Sphinx) -> None:
    app.connect("builder-inited", gate_design_transforms)


def has_components(document: nodes.document) -> bool:
    """Whether the page holds any sphinx-design component container (one walk per page)."""
    if _MARK not in document:
        document[_MARK] = any(node.get("design_component") is not None
                              for node in document.findall(nodes.container))
    return document[_MARK]


def gated(transform: type) -> type:
    """``transform`` that runs only on a page with components."""

    class Gated(transform):
        def is_supported(self) -> bool:
            return super().is_supported() and has_components(self.document)

    Gated.__name__ = Gated.__qualname__ = transform.__name__
    Gated.__module__ = __name__
    Gated.__doc__ = transform.__doc__
    return Gated


def gate_design_transforms(app: Sphinx) -> None:
    """Swap sphinx-design's post-transforms for their gated selves, in place (same order)."""
    registered = getattr(app.registry, "post_transforms", None)
    if not isinstance(registered, list):  # another Sphinx: leave sphinx-design as it is
        return
    for i, transform in enumerate(registered):
        if (transform.__module__, transform.__name__) in GATED:
            registered[i] = gated(transform)
