"""Walks that find nothing are not taken (不走空路): transforms that look for kinds of nodes a
page does not hold skip the page.

Sphinx (its code, image, LaTeX and i18n modules), sphinx-design and furo register transforms and
post-transforms that walk every page in search of their own nodes — tab sets, dropdowns, asides,
links to open in a new tab, code blocks, images, tables and math, footnotes, ``only``
directives, object descriptions, translated messages, and in the read substitutions, module targets, block quotes of doctests,
index entries, glossaries and citations. The converter's chapter pages hold none of them, yet each walk visits every
node of a page (on the whole 仪礼, millions), about a tenth of a cold build in all.

So, once per page and phase, one walk takes a census (:class:`Census`: the classes of the nodes on
the page and the few attributes the gated transforms look for), and each transform of
``GATES`` runs only when the census shows what it looks for; otherwise it returns, having found
nothing, as its own walk would have. The census is taken when the first gated transform runs (in
the read: after ``Locale``; in the write: after the edition's notes and counterparts are copied
into the page and references are resolved), and every transform that runs between two gated
ones, creating nodes, creates none of the kinds a gated one looks for
(``tests/test_speed_walks.py`` holds the reviewed order). The pages come out the same.

Private API (checked against Sphinx 9.0): the registry's lists ``app.registry.transforms`` and
``app.registry.post_transforms`` (each gated class is replaced by a subclass), the listeners of
``doctree-resolved`` and ``doctree-read`` in ``app.events.listeners`` (sphinx-design's new-tab handler,
the image and download collectors), and
``env._builder_cls`` (as ``TranslationProgressTotaliser`` itself reads it).
"""
from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from conv.sphinx_ext.speed.versions import compatible
from conv.sphinx_ext.util import builder_of

#: The attributes some gated transform looks for on an element.
MARKS = ("design_component", "sd_new_tab", "translated", "translatable", "ismod", "refname")


@dataclass
class Census:
    """What a page holds (页内普查): the classes of its nodes and which of ``MARKS`` its elements carry."""

    kinds: set[type] = field(default_factory=set)
    marks: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, document: nodes.document) -> Census:
        census = cls()
        kinds, marks = census.kinds, census.marks
        for node in document.findall():
            kinds.add(node.__class__)
            attributes = getattr(node, "attributes", None)
            if attributes:
                for mark in MARKS:
                    if mark in attributes:
                        marks.add(mark)
        return census

    def holds(self, *classes: type) -> bool:
        """Does the page hold a node of one of ``classes`` (or of a subclass)?"""
        return any(issubclass(kind, classes) for kind in self.kinds)


#: document → {phase: its census}. The phase is ``read`` (transforms) or ``write``
#: (post-transforms): with ``-j 1`` Sphinx writes the very document it has just read.
_CENSUS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def census_of(document: nodes.document, phase: str) -> Census:
    taken = _CENSUS.setdefault(document, {})
    if phase not in taken:
        taken[phase] = Census.of(document)
    return taken[phase]


def _translation_progress(transform: Any) -> None:
    """What ``TranslationProgressTotaliser`` records on a page without a translated node."""
    from sphinx.builders.gettext import MessageCatalogBuilder

    if not issubclass(transform.env._builder_cls, MessageCatalogBuilder):
        transform.document["translation_progress"] = {"total": 0, "translated": 0}


#: ``module.Class`` of a transform → (does the page need it?, what it does when it is skipped).
GATES: dict[str, tuple[Callable[[Census], bool], Callable[[Any], None] | None]] = {
    # read
    "sphinx.transforms.i18n.TranslationProgressTotaliser": (lambda c: "translated" in c.marks, _translation_progress),
    "sphinx.transforms.i18n.RemoveTranslatableInline": (lambda c: "translatable" in c.marks, None),
    "sphinx.builders.latex.transforms.FootnoteDocnameUpdater": (
        lambda c: c.holds(nodes.footnote, nodes.footnote_reference), None),
    "sphinx.transforms.DefaultSubstitutions": (lambda c: c.holds(nodes.substitution_reference), None),
    "sphinx.transforms.MoveModuleTargets": (lambda c: "ismod" in c.marks, None),
    "sphinx.transforms.HandleCodeBlocks": (lambda c: c.holds(nodes.block_quote), None),
    "sphinx.transforms.AutoIndexUpgrader": (lambda c: c.holds(addnodes.index), None),
    "sphinx.transforms.ReorderConsecutiveTargetAndIndexNodes": (lambda c: c.holds(addnodes.index), None),
    "sphinx.transforms.DoctestTransform": (lambda c: c.holds(nodes.doctest_block), None),
    "sphinx.transforms.GlossarySorter": (lambda c: c.holds(addnodes.glossary), None),
    "sphinx.domains.citation.CitationDefinitionTransform": (lambda c: c.holds(nodes.citation), None),
    "sphinx.domains.citation.CitationReferenceTransform": (lambda c: c.holds(nodes.citation_reference), None),
    # a reference by name still to resolve (an rST `name`_, a footnote or citation reference)
    "sphinx.transforms.references.SphinxDanglingReferences": (lambda c: "refname" in c.marks, None),
    # write (post-transforms)
    "sphinx.transforms.post_transforms.images.ImageDownloader": (lambda c: c.holds(nodes.image), None),
    "sphinx.transforms.post_transforms.images.DataURIExtractor": (lambda c: c.holds(nodes.image), None),
    "sphinx_design.aside.AsideHtmlTransform": (lambda c: "design_component" in c.marks, None),
    "sphinx_design.tabs.TabSetHtmlTransform": (lambda c: "design_component" in c.marks, None),
    "sphinx_design.dropdown.DropdownHtmlTransform": (lambda c: "design_component" in c.marks, None),
    "sphinx.transforms.post_transforms.code.HighlightLanguageTransform": (
        lambda c: c.holds(nodes.literal_block, nodes.doctest_block, addnodes.highlightlang), None),
    "sphinx.transforms.post_transforms.code.TrimDoctestFlagsTransform": (
        lambda c: c.holds(nodes.literal_block, nodes.doctest_block), None),
    "furo.WrapTableAndMathInAContainerTransform": (lambda c: c.holds(nodes.table, nodes.math_block), None),
    # ``only`` directives kept or dropped for the builder's tags; a desc node's domain as a class
    "sphinx.transforms.post_transforms.OnlyNodeTransform": (lambda c: c.holds(addnodes.only), None),
    "sphinx.transforms.post_transforms.PropagateDescDomain": (lambda c: c.holds(addnodes.desc_signature), None),
}
#: ``module.function`` of a listener → (its event, the census's phase, does the page need it?)
LISTENERS: dict[str, tuple[str, str, Callable[[Census], bool]]] = {
    "sphinx_design.extension._resolve_new_tab_refs": ("doctree-resolved", "write", lambda c: "sd_new_tab" in c.marks),
    "sphinx.environment.collectors.asset.ImageCollector.process_doc": (
        "doctree-read", "read", lambda c: c.holds(nodes.image)),
    "sphinx.environment.collectors.asset.DownloadFileCollector.process_doc": (
        "doctree-read", "read", lambda c: c.holds(addnodes.download_reference)),
}


def skipped(builder: Any) -> Counter:
    """``module.Class`` → the pages this build (in this process) skipped it on, as
    ``builder.yl_walks_skipped`` (for tests and measurements)."""
    counter = getattr(builder, "yl_walks_skipped", None)
    if counter is None:
        counter = builder.yl_walks_skipped = Counter()
    return counter


def name_of(obj: Any) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def gated(transform: type, phase: str) -> type:
    """A subclass of ``transform`` that runs only on pages whose census shows what it looks for."""
    needed, instead = GATES[name_of(transform)]
    method = "run" if issubclass(transform, SphinxPostTransform) else "apply"

    def skip_or_run(self, **kwargs: Any) -> None:
        if needed(census_of(self.document, phase)):
            return getattr(super(cls, self), method)(**kwargs)
        # docutils' own transforms (the dangling references) have no ``env``: the document's settings do
        skipped(builder_of(self.document.settings.env))[name_of(transform)] += 1
        if instead is not None:
            instead(self)
        return None

    cls = type(transform.__name__, (transform,), {method: skip_or_run, "__module__": transform.__module__,
                                                 "__qualname__": transform.__qualname__, "yl_gated": True})
    return cls


def gate_listener(handler: Callable) -> Callable:
    _event, phase, needed = LISTENERS[name_of(handler)]

    def skip_or_run(app: Sphinx, doctree: nodes.document, *rest: Any) -> None:
        if needed(census_of(doctree, phase)):
            handler(app, doctree, *rest)
        else:
            skipped(app.builder)[name_of(handler)] += 1

    skip_or_run.yl_gated = True  # type: ignore[attr-defined]
    return skip_or_run


def install_gates(app: Sphinx) -> None:
    """Replace each registered transform of ``GATES`` (and listener of ``LISTENERS``) by its gated
    form. At ``builder-inited``: the theme (furo) has registered its transform by then."""
    registry = app.registry
    for kind, phase in (("transforms", "read"), ("post_transforms", "write")):
        registered = getattr(registry, kind)
        registered[:] = [gated(t, phase) if name_of(t) in GATES and not getattr(t, "yl_gated", False) else t
                         for t in registered]
    for event in {event for event, _, _ in LISTENERS.values()}:
        listeners = app.events.listeners.get(event, [])
        for index, listener in enumerate(listeners):
            if name_of(listener.handler) in LISTENERS and not getattr(listener.handler, "yl_gated", False):
                listeners[index] = listener._replace(handler=gate_listener(listener.handler))


def setup_walks(app: Sphinx) -> None:
    if compatible("walks"):
        app.connect("builder-inited", install_gates, priority=900)


def setup(app: Sphinx) -> dict:
    """The gates alone, as an extension (``conv.sphinx_ext.speed`` loads them with the rest)."""
    setup_walks(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
