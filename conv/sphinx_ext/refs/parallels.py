"""Parallel passages (互见) in the edition: the counterpart control, 参见 links, parallel pages.

The converter (``conv.edition.parallels``) writes after a passage with parallels
``yl:parallel ANCHOR`` (options ``counterparts`` and ``see-also``: anchors), and on each shared
篇's parallel page one ``yl:pair`` per group of linked passages (options ``base`` and ``other``).

- Reading: ``IntoPassage`` puts each ``yl_parallel`` at the end of its passage.
- Writing HTML: ``FillParallels`` (a post-transform) copies each counterpart's words and notes
  from its page's doctree into a native disclosure (``<details>``: keyboard and no script, no
  server), adds the 参见 links, and fills the parallel pages' two columns the same way. The
  copies carry ``no-search``: a page's search data holds its own passages only.
- Writing LaTeX: each passage's counterparts go into the right margin beside its first line: their
  citation (通解·士冠礼5), 文渊阁 page and page in this book (``\\ylcounterpart``); a parallel page's
  groups are lines of two columns of citations (``ylpair``), the words being in the 篇.

A counterpart's page is a dependency of the page that copies it (``note_dependency``).
"""
from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from conv import datafiles as data
from conv.sphinx_ext.refs.domain import page_title
from conv.sphinx_ext.nodes import yl_appmark, yl_counterpart, yl_ednote_ref, yl_pair, yl_parallel, yl_passage, yl_segment, yl_text
from conv.sphinx_ext.util import add_node, builder_of, depart_noop, setup_builder_event, visit_noop, warn
from conv.sphinx_ext.warnings_ import YlWarning

CSS_FILE = "yili-parallels.css"
SEE_ALSO = "参见"


def setup_parallels(app: Sphinx) -> None:
    add_node(app, yl_parallel, html=(visit_parallel_html, depart_parallel_html),
             latex=(visit_parallel_latex, depart_noop), text=(skip, depart_noop), other=(skip, depart_noop))
    add_node(app, yl_counterpart, html=(visit_counterpart_html, depart_counterpart_html),
             latex=(skip, depart_noop), text=(skip, depart_noop), other=(skip, depart_noop))
    add_node(app, yl_pair, html=(visit_pair_html, depart_pair_html), latex=(visit_pair_latex, depart_pair_latex),
             text=(visit_noop, depart_noop))
    app.add_directive_to_domain("yl", "parallel", ParallelDirective)
    app.add_directive_to_domain("yl", "pair", PairDirective)
    app.add_transform(IntoPassage)
    app.add_post_transform(FillParallels)
    setup_builder_event(app)
    app.add_css_file(CSS_FILE)


def _anchors(argument: str) -> list[str]:
    return (argument or "").split()


def _page_of(anchor: str) -> str:
    """The page of a passage anchor: ``tongjie-shiguan-5`` → ``tongjie/shiguan`` (the converter's
    layout, ``conv/FORMAT.md``)."""
    parts = anchor.split("-")
    return f"{parts[0]}/{parts[1]}" if len(parts) >= 3 else ""


class _Depends(SphinxDirective):
    """The pages of the anchors a directive copies are dependencies of its page."""

    def depend_on(self, anchors: list[str]) -> None:
        for docname in {_page_of(anchor) for anchor in anchors}:
            if docname and docname != self.env.docname and docname in self.env.found_docs:
                self.env.note_dependency(self.env.doc2path(docname))


class ParallelDirective(_Depends):
    """``yl:parallel ANCHOR`` with ``:counterparts:`` and ``:see-also:`` (see the module doc)."""

    required_arguments = 1
    option_spec = {"counterparts": directives.unchanged, "see-also": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        counterparts, see_also = _anchors(self.options.get("counterparts")), _anchors(self.options.get("see-also"))
        node = yl_parallel(passage=self.arguments[0], counterparts=counterparts, see_also=see_also,
                           classes=["yl-parallel", "no-search"])
        self.set_source_info(node)
        self.depend_on(counterparts)
        return [node]


class PairDirective(_Depends):
    """``yl:pair`` with ``:base:`` and ``:other:`` (anchors): a row of a parallel page."""

    option_spec = {"base": directives.unchanged, "other": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        base, other = _anchors(self.options.get("base")), _anchors(self.options.get("other"))
        node = yl_pair(base=base, other=other, classes=["yl-pair", "no-search"])
        self.set_source_info(node)
        self.depend_on(base + other)
        return [node]


class IntoPassage(SphinxTransform):
    """Each ``yl_parallel`` goes to the end of its passage (the passage just before it)."""

    default_priority = 500

    def apply(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(yl_parallel)):
            parent = node.parent
            index = parent.index(node)
            before = next((parent[i] for i in range(index - 1, -1, -1) if isinstance(parent[i], yl_passage)), None)
            if before is None or before.get("anchor") != node["passage"]:
                warn(f"yl:parallel {node['passage']!r} does not follow its passage", YlWarning.STRUCTURE, node)
                parent.remove(node)
                continue
            parent.remove(node)
            before += node


class FillParallels(SphinxPostTransform):
    """Fill ``yl_parallel`` and ``yl_pair`` nodes for the builder at hand (see the module doc)."""

    default_priority = 5  # before ReferencesResolver (10), as the editorial notes

    def run(self, **kwargs: Any) -> None:
        self.builder = builder_of(self.env)  # once: each emit of the builder event costs a log call
        self.latex = self.builder.format == "latex"
        self.passages = self.env.get_domain("yl").data.get("passages", {})
        found = list(self.document.findall(lambda n: isinstance(n, (yl_parallel, yl_pair))))
        for node in (n for n in found if isinstance(n, yl_parallel)):
            here = _docname_of(node, self.env.docname)
            if self.latex:  # the margin, at the passage's start (beside its first line)
                node["margin"] = [self.margin(anchor) for anchor in node["counterparts"] if anchor in self.passages]
                passage = node.parent
                passage.remove(node)
                passage.insert(0, node)
                continue
            if node["counterparts"]:
                label = "·".join(sorted({self.short(anchor) for anchor in node["counterparts"]}))
                disclosure = yl_counterpart(label=label, classes=["yl-counterpart"])
                for anchor in node["counterparts"]:
                    disclosure += self.item(anchor, here)
                node += disclosure
            links = [self.link(anchor, here) for anchor in node["see_also"] if anchor in self.passages]
            if links:
                holder = nodes.inline("", "", nodes.inline("", SEE_ALSO, classes=["yl-seealso-label"]),
                                      classes=["yl-seealso"])
                for link in links:
                    holder += link
                node += holder
        for node in (n for n in found if isinstance(n, yl_pair)):
            here = _docname_of(node, self.env.docname)
            for anchors in (node["base"], node["other"]):
                side = nodes.container(classes=["yl-pair-side"])
                for anchor in anchors:
                    side += nodes.paragraph("", "", self.link(anchor, here)) if self.latex else self.item(anchor, here)
                node += side

    def short(self, anchor: str) -> str:
        """The work's short name (句读, 通解) of an anchor."""
        return data.work_short(anchor.split("-", 1)[0])

    def cite(self, anchor: str) -> str:
        """``通解·士冠礼5``: the passage's 篇 with its work, as lists of pages name it
        (``domain.page_title``), and its number (``anchor`` is one of ``self.passages``)."""
        return f"{page_title(self.env, self.passages[anchor]['docname'])}{anchor.rsplit('-', 1)[-1]}"

    def link(self, anchor: str, here: str) -> nodes.Node:
        entry = self.passages.get(anchor)
        if entry is None:
            return nodes.inline("", f"〔{anchor}〕", classes=["yl-parallel-missing"])
        text = self.cite(anchor) + (f"（{entry['page']}）" if entry.get("page") else "")
        return make_refnode(self.builder, here, entry["docname"], anchor,
                            nodes.inline("", text, classes=["yl-parallel-cite"]), entry.get("title", ""))

    def item(self, anchor: str, here: str) -> nodes.Element:
        """A counterpart: its citation (a link) and a copy of its words and notes."""
        item = nodes.container(classes=["yl-counterpart-item"])
        item += nodes.inline("", "", self.link(anchor, here), classes=["yl-counterpart-head"])
        entry = self.passages.get(anchor)
        if entry is None:
            return item
        # ``copy_of``: the passage these words are of, for what they hold (a gloss's row in the 音义索引)
        body = nodes.inline(classes=["yl-counterpart-text", f"yl-{entry.get('layer', 'jing')}"], copy_of=anchor)
        for child in _counterpart_sources(self.env, self.builder, entry["docname"], anchor):
            body += child
        item += body
        return item

    def margin(self, anchor: str) -> tuple[str, str, str]:
        entry = self.passages[anchor]
        return self.cite(anchor), entry.get("page", ""), f"{entry['docname']}:{anchor}"


#: How many pages' doctrees a process keeps for copying counterparts from (a chapter's counterparts
#: are mostly on one or two pages; the pages are written in order of their names).
KEPT_DOCTREES = 4


def _counterpart_sources(env, builder, docname: str, anchor: str) -> list[nodes.Element]:
    """The words and note segments of passage ``anchor`` of page ``docname``, copied (:func:`_copy`)
    for one counterpart. Each copy is made when it is asked for, from the page's doctree: loading
    one costs a tenth of a second on the whole 仪礼, so the last ``KEPT_DOCTREES`` loaded are kept
    (their passages by anchor) on the builder, for this build and process only; copying only the
    passages asked for spares the copies of passages no page written here shows (an incremental
    build writes one chapter)."""
    pages = getattr(builder, "yl_counterpart_sources", None)  # {docname: {anchor: passage}}, oldest first
    if pages is None:
        pages = builder.yl_counterpart_sources = {}
    passages = pages.pop(docname, None)
    if passages is None:
        doctree = env.get_doctree(docname)
        passages = {passage["anchor"]: passage for passage in doctree.findall(yl_passage) if passage.get("anchor")}
        while len(pages) >= KEPT_DOCTREES:
            del pages[next(iter(pages))]
    pages[docname] = passages  # the most recent last
    source = passages.get(anchor)
    if source is None:  # not a passage's own anchor (another id on the page)
        source = env.get_doctree(docname).ids.get(anchor)
    return _bodies(source)


def _bodies(source: nodes.Node | None) -> list[nodes.Element]:
    if not isinstance(source, yl_passage):
        return []
    document = source.document
    return [_copy(child, document) for child in source.children if isinstance(child, (yl_text, yl_segment))]


#: What a counterpart's copy leaves out: apparatus marks, editorial notes' markers, the page's own control.
_LEFT_OUT = (yl_appmark, yl_ednote_ref, yl_parallel)


def _copy(node: nodes.Element, document: nodes.document | None = None) -> nodes.Element:
    """A copy of a passage's words or segment without ids, apparatus marks or editorial notes,
    made in one walk: what is left out is not copied, each element's ``ids`` are empty. Else as
    ``deepcopy`` copies (an element's ``copy``; a child's missing source and line from the
    ``document`` of the original)."""
    copy = node.copy()
    copy["ids"] = []
    children = copy.children
    for child in node.children:
        if isinstance(child, nodes.Element):
            if isinstance(child, _LEFT_OUT):
                continue
            child_copy = _copy(child, document)
        else:
            child_copy = child.deepcopy()
        child_copy.parent = copy
        if document:
            child_copy.document = document
            if child_copy.source is None:
                child_copy.source = document.current_source
            if child_copy.line is None:
                child_copy.line = document.current_line
        children.append(child_copy)
    return copy


def _docname_of(node: nodes.Node, default: str) -> str:
    """The page a node stands on (in LaTeX's single tree, the section's ``docname``)."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.section) and parent.get("docname"):
            return parent["docname"]
        parent = parent.parent
    return default


# -- visitors ------------------------------------------------------------------------------

def skip(self, node: nodes.Node) -> None:
    raise nodes.SkipNode


def visit_parallel_html(self, node: yl_parallel) -> None:
    self.body.append(self.starttag(node, "span", ""))


def depart_parallel_html(self, node: yl_parallel) -> None:
    self.body.append("</span>")


def visit_counterpart_html(self, node: yl_counterpart) -> None:
    label = self.encode(node["label"])
    self.body.append(self.starttag(node, "details", "")
                     + f'<summary title="{self.attval("此段经文在" + node["label"] + "中的对应段落，连同其注")}">'
                     + f"{label}</summary>")


def depart_counterpart_html(self, node: yl_counterpart) -> None:
    self.body.append("</details>")


def visit_pair_html(self, node: yl_pair) -> None:
    self.body.append(self.starttag(node, "div", ""))


def depart_pair_html(self, node: yl_pair) -> None:
    self.body.append("</div>\n")


def visit_pair_latex(self, node: yl_pair) -> None:
    """A group of the parallel page: its two sides in two columns (``ylpair`` in ``yili.sty``); the
    first a little below the introduction."""
    index = node.parent.index(node)
    first = index == 0 or not isinstance(node.parent[index - 1], yl_pair)
    self.body.append(("\n\\medskip" if first else "") + "\n\\begin{ylpair}")


def depart_pair_latex(self, node: yl_pair) -> None:
    self.body.append("\n\\end{ylpair}\n")


def visit_parallel_latex(self, node: yl_parallel) -> None:
    """The counterparts in the margin: ``\\ylcounterpart{\\ylcp{通解·士冠礼5}{卷二叶三a}{label}…}``."""
    margin = node.get("margin", [])
    if margin:
        self.body.append("\\ylcounterpart{%s}%%\n" % "".join(
            "\\ylcp{%s}{%s}{%s}" % (self.encode(cite), self.encode(page), self.idescape(label))
            for cite, page, label in margin))
    raise nodes.SkipNode
