"""The typeset edition's book structure (排印本结构): front matter, works, back matter.

The LaTeX builder assembles the root document and every document its toctrees include into one
doctree, each included document in a ``start_of_file`` node; with ``latex_toplevel_sectioning =
"part"`` the documents of the root toctree are parts (the works), theirs chapters (the 篇).
``BookStructure`` marks that tree up for ``yili.sty``::

    <section>                                   the root document (its title is the book's)
        <raw> \\ylpreface                         before the front page's own text (说明)
        <paragraph> …
        <compound classes="toctree-wrapper">
            <start_of_file docname="judou/index">       a work: holds passages
                <section> <title> 仪礼郑注句读           → \\part
                    <raw> \\begin{ylpartintro}           its opening lines stay on the part page
                    <paragraph> 张尔岐撰
                    <raw> \\end{ylpartintro}
                    <compound> <start_of_file docname="judou/xiangshe"> …
            <start_of_file docname="tongjie/index">     a work whose toctrees have captions
                <section> <title> 仪礼经传通解
                    <compound> <raw> \\ylcontentsname{卷首}   the 目录 names a 篇 as its toctree entry
                               <start_of_file docname="tongjie/juanshou"> …
                    <compound> <raw> \\yldivision{家礼}     a caption: a part (门) of the work
                               <raw> \\ylcontentsname{第一　士冠礼}
                               <start_of_file docname="tongjie/shiguan"> …
            <raw> \\ylbackmatter                      before the first document after the last work
            <start_of_file docname="apparatus/judou">
                <section> <title> 仪礼郑注句读校勘记   a chapter, its intro
                    <raw> \\ylkeepwithtable             before a heading whose table follows (text between at most)
                    <section> <title> 总览
                        <yl_datatable>                  (a longtable: tables_print.py)
                    <table classes="longtable">         a table of a section may run over pages

Nothing here changes what the HTML builder sees.
"""
from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.texescape import escape
from conv.sphinx_ext.nodes import yl_datatable, yl_passage

#: Nodes that print nothing: they never make a front matter or a part intro on their own.
_SILENT = (nodes.target, nodes.comment, nodes.substitution_definition, nodes.raw,
           addnodes.index, addnodes.only)


def setup_latex(app: Sphinx) -> None:
    app.add_post_transform(BookStructure)


def _raw(tex: str) -> nodes.raw:
    return nodes.raw("", tex, format="latex")


def _holds(node: nodes.Node, cls: type) -> bool:
    """Whether ``node`` is or contains a node of ``cls``."""
    return next(node.findall(cls), None) is not None


class BookStructure(SphinxPostTransform):
    """Front matter, part intros, back matter and page-breaking tables of the assembled LaTeX
    document (see the module docstring)."""

    builders = ("latex",)
    default_priority = 900

    def run(self, **kwargs) -> None:
        top = list(_outermost(self.document, addnodes.start_of_file))
        if not top:
            return  # not the assembled book (a single document)
        root = next(_outermost(self.document, nodes.section), None)
        if root is not None:
            self.preface(root)
        for sof in top:
            part = next(_outermost(sof, nodes.section), None)
            if part is not None:
                self.part_intro(part)
        for table in self.document.findall(nodes.table):
            if isinstance(table.parent, nodes.section) and "longtable" not in table["classes"]:
                table["classes"].append("longtable")  # a table may run over pages
        works = [i for i, sof in enumerate(top) if _holds(sof, yl_passage)]
        for i in works:
            self.divisions(top[i])
        if works and works[-1] + 1 < len(top):
            after = top[works[-1] + 1]
            after.parent.insert(after.parent.index(after), _raw(r"\ylbackmatter"))
            for sof in top[works[-1] + 1:]:
                self.keep_with_tables(sof)

    @staticmethod
    def _lead(section: nodes.Element) -> list[nodes.Node]:
        """The children of ``section`` that print something, before its first subsection or
        included document."""
        lead = []
        for child in section.children:
            if _holds(child, nodes.section) or _holds(child, addnodes.start_of_file):
                break
            if not isinstance(child, (nodes.title, *_SILENT)):
                lead.append(child)
        return lead

    def divisions(self, work: addnodes.start_of_file) -> None:
        """Before each document a work's toctree includes, the name its toctree entry gives it (the
        目录's line: ``第二十六　书数（阙）``), and before the first of a toctree with a caption, the
        caption as a part (门) of the work (the 通解's 家礼 …): the captions and titles are the
        toctree's, which the assembled document no longer holds."""
        captions: dict[str, str] = {}
        titles: dict[str, str] = {}
        for toctree in self.env.get_doctree(work["docname"]).findall(addnodes.toctree):
            if toctree.get("caption") and toctree["includefiles"]:
                captions[toctree["includefiles"][0]] = toctree["caption"]
            titles.update((ref, title) for title, ref in toctree["entries"] if title)
        for sof in list(_outermost(work, addnodes.start_of_file)):
            here = sof.parent.index(sof)
            if sof["docname"] in titles:
                sof.parent.insert(here, _raw(rf"\ylcontentsname{{{escape(titles[sof['docname']])}}}"))
            if sof["docname"] in captions:
                sof.parent.insert(here, _raw(rf"\yldivision{{{escape(captions[sof['docname']])}}}"))

    def keep_with_tables(self, document: addnodes.start_of_file) -> None:
        """Before each heading of the back matter that leads a table (text at most between them:
        遇摄, 本摄音义 584 条…), ``\\ylkeepwithtable``: the heading starts a new page unless the
        table's header and first rows fit under it (longtable breaks the page before its header
        when they do not, which left the heading alone at the foot of a page)."""
        for section in list(document.findall(nodes.section)):
            # what the heading leads: its first child but the title, paragraphs and what prints nothing
            first = next((n for n in section.children
                          if not isinstance(n, (nodes.title, nodes.paragraph, *_SILENT))), None)
            if isinstance(first, (nodes.table, yl_datatable)):
                _insert_before_heading(section, _raw(r"\ylkeepwithtable"))

    def preface(self, root: nodes.section) -> None:
        lead = self._lead(root)
        if lead:
            root.insert(root.index(lead[0]), _raw(r"\ylpreface"))

    def part_intro(self, part: nodes.section) -> None:
        lead = self._lead(part)
        if lead:
            part.insert(part.index(lead[0]), _raw(r"\begin{ylpartintro}"))
            part.insert(part.index(lead[-1]) + 1, _raw(r"\end{ylpartintro}"))


def _insert_before_heading(section: nodes.section, node: nodes.Node) -> None:
    """Insert ``node`` where it prints right before the heading of ``section`` and its labels: before
    the targets that end what comes before it (docutils leaves a heading's explicit target at the
    end of the section before; the LaTeX writer sets it as the heading's label only when nothing
    stands between them, else once more on its own)."""
    parent, at = section.parent, section.parent.index(section)
    while at:
        before = parent[at - 1]
        if isinstance(before, nodes.target):
            at -= 1
        elif isinstance(before, (nodes.section, addnodes.start_of_file)) and before.children:
            parent, at = before, len(before.children)
        else:
            break
    parent.insert(at, node)


def _outermost(node: nodes.Node, cls: type):
    """The nodes of ``cls`` under ``node`` that are not under another one (in document order).
    (The documents inside a ``start_of_file`` do not know their parent: walk down, never up.)"""
    for child in node.children:
        if isinstance(child, cls):
            yield child
        elif isinstance(child, nodes.Element):
            yield from _outermost(child, cls)
