"""Titles (标题): the section title as printed (章旨, ``yl:title``), the chapter title line with its
郑目录 (``yl:chaptertitle``), and the section headings' anchors.

A section's heading (``## 司射诱射``, with its label ``(judou-xiangshe-s1)=``) is the editor's;
``yl:title judou-xiangshe-s1`` is the witness's own line (``右司射诱射``), where the witness
prints it (at the end of the section it sums up). ``SectionAnchors`` checks that they agree,
keeps only the label as the section's id (never ``id1``), and records each section in the
``yl`` domain.
"""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

from conv import datafiles as data
from conv import unencoded
from conv.normalize import is_pua

from conv.sphinx_ext.text.body import LineDirective
from conv.sphinx_ext.text.chars import UNKNOWN_MARK
from conv.sphinx_ext.util import add_node, BLOCK, ANCHOR_RE, AUTO_ID_RE, replace_child, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.nodes import yl_chaptertitle, yl_lacuna, yl_passage, yl_title


def setup_titles(app: Sphinx) -> None:
    for node in (yl_title, yl_chaptertitle):
        add_node(
            app,
            node,
            html=(visit_line_html, depart_line_html),
            latex=(visit_line_latex, depart_line_latex),
            text=(visit_line_text, depart_line_text),
            other=BLOCK,
        )
    app.add_directive_to_domain("yl", "title", TitleDirective)
    app.add_directive_to_domain("yl", "chaptertitle", ChapterTitleDirective)
    app.add_transform(HeadingText)
    app.add_transform(SectionAnchors)


class TitleDirective(LineDirective):
    """``yl:title SECTION-ANCHOR``: the printed title, then its notes (option ``trad``: the
    title in the 文渊阁 forms, ``text/witness_forms.py``)."""

    required_arguments = 1
    option_spec = {"trad": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        anchor = self.arguments[0]
        if not ANCHOR_RE.match(anchor):
            warn(f"yl:title: section anchor {anchor!r} is not a valid id", YlWarning.ANCHOR,
                 self.get_location())
        node = yl_title(section=anchor, classes=["yl-title"])
        self.set_source_info(node)
        self.fill(node, "title", "yl-text-title")
        return [node]


class ChapterTitleDirective(LineDirective):
    """``yl:chaptertitle``: the printed chapter title (燕礼第六), then its ``yl:mulu``."""

    def run(self) -> list[nodes.Node]:
        node = yl_chaptertitle(classes=["yl-chaptertitle"])
        self.set_source_info(node)
        self.fill(node, "chaptertitle", "yl-text-chaptertitle")
        return [node]


# -- visitors (shared by both line kinds) ----------------------------------------------------

def visit_line_html(self, node: nodes.Element) -> None:
    attributes = {"data-section": node["section"]} if node.get("section") else {}
    self.body.append(self.starttag(node, "div", "", **attributes))


def depart_line_html(self, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def visit_line_latex(self, node: nodes.Element) -> None:
    kind = "chaptertitle" if isinstance(node, yl_chaptertitle) else "title"
    self.body.append("\n\\begin{ylline}{%s}%%\n" % kind)


def depart_line_latex(self, node: nodes.Element) -> None:
    self.body.append("%\n\\end{ylline}\n")


def visit_line_text(self, node: nodes.Element) -> None:
    self.new_state(0)


def depart_line_text(self, node: nodes.Element) -> None:
    self.end_state()


# -- transforms ------------------------------------------------------------------------------

class HeadingText(SphinxTransform):
    """Headings are plain text (they go to the table of contents): resolve PUA code points in
    them, so none is ever shown raw (an unknown one becomes 〓 and the build warns; a character
    Unicode lacks, ``conv.unencoded``, becomes 〓 too, its entry in the apparatus)."""

    default_priority = 720

    def apply(self, **kwargs) -> None:
        table = data.pua()
        for title in self.document.findall(nodes.title):
            for text in list(title.findall(nodes.Text)):
                if not any(is_pua(c) for c in text):
                    continue
                out = []
                for char in str(text):
                    if not is_pua(char):
                        out.append(char)
                    elif unencoded.is_stand_in(char):  # a character Unicode lacks: the mark
                        out.append(UNKNOWN_MARK)
                    elif char in table:
                        resolved = table[char]["char"]
                        out.append(UNKNOWN_MARK if unencoded.is_stand_in(resolved) else resolved)
                    else:
                        warn(f"unknown private-use code point U+{ord(char):04X} in a heading; "
                             f"shown as {UNKNOWN_MARK}", YlWarning.PUA, title)
                        out.append(UNKNOWN_MARK)
                replace_child(text, nodes.Text("".join(out)))


def _is_yl_page(document: nodes.document) -> bool:
    """A page of the edition's text: it has passages or titles, or it is a lost 篇's (its lacuna alone: 卜筮)."""
    return any(True for _ in document.findall(
        lambda n: isinstance(n, (yl_passage, yl_title, yl_chaptertitle, yl_lacuna))))


class SectionAnchors(SphinxTransform):
    """On pages of the text (:func:`_is_yl_page`): every section heading has an explicit label,
    which is its only id; each ``yl:title`` names the section it stands in; sections go to the
    ``yl`` domain."""

    default_priority = 800

    def apply(self, **kwargs) -> None:
        if not _is_yl_page(self.document):
            return
        domain = self.env.get_domain("yl")
        for section in self.document.findall(nodes.section):
            explicit = [i for i in section["ids"] if not AUTO_ID_RE.match(i)]
            heading = section[0].astext() if section.children else ""
            if not explicit:
                warn(f"section {heading!r} has no label: write (anchor)= before its heading",
                     YlWarning.ANCHOR, section)
                continue
            section["ids"] = explicit
            printed = [t for t in _own(section, yl_title) if t["section"] in explicit]
            domain.note_section(
                explicit[0], self.env.docname, heading,
                printed[0][0].astext() if printed and printed[0].children else None,
                level=_level(section), location=section,
            )
        for title in self.document.findall(yl_title):
            section = title.parent
            while section is not None and not isinstance(section, nodes.section):
                section = section.parent
            if section is None or title["section"] not in section["ids"]:
                where = section["ids"][0] if section is not None and section["ids"] else None
                warn(f"yl:title {title['section']!r} stands in section {where!r}", YlWarning.ANCHOR, title)


def _own(section: nodes.section, cls: type) -> list[nodes.Element]:
    """Nodes of ``cls`` in ``section`` but not in its subsections."""
    found = []
    for child in section.children:
        if isinstance(child, nodes.section):
            continue
        found.extend(child.findall(cls))
    return found


def _level(section: nodes.section) -> int:
    level, parent = 1, section.parent
    while parent is not None:
        if isinstance(parent, nodes.section):
            level += 1
        parent = parent.parent
    return level
