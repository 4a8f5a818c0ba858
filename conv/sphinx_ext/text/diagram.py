"""Diagrams of the book (图): ``yl:diagram ANCHOR``, one line per printed column.

Options ``source`` (``seed:line:col``), ``page`` (卷九叶八b) and ``caption`` (the Chinese caption of
``conv/data/diagrams.toml``); the body is the figure's columns in reading order, right to left, in
the line format of ``conv.myst.diagram`` (cells ``|``, halves ``/``, a gap ``_`` per position). The
directive makes one ``yl_diagram`` (an anchor, a passage-like object of the ``yl`` domain, so
``yl:redirect`` and ``yl:cite`` land on it) holding ``yl_diagram_part`` nodes; the cells' words are
text nodes (folded as a passage's: ``chars.wrap_chars``), so the edition's search finds them.

- HTML: a ``<figure>``: the columns in a box with ``writing-mode: vertical-rl`` (right to left, as
  the book), scrolling inside itself when wider than the page; a pair's halves side by side, right
  then left, in small characters; a gap as many empty positions as it has blanks; the caption, the
  page and the 引 permalink under it.
- LaTeX: a table of one row per printed column (numbered 一, 二 …), its caption saying so.
- text: the caption, then one line per column.
"""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conv.myst.diagram import cells as read_cells
from conv.reader.mandoku_lex import chinese_number
from conv.sphinx_ext.nodes import yl_diagram, yl_diagram_part, yl_diagram_text
from conv.sphinx_ext.text.chars import wrap_chars
from conv.sphinx_ext.text.passage import PAGE_TITLE, register_id
from conv.sphinx_ext.text.permalink import permalink_html
from conv.sphinx_ext.util import BLOCK, add_node, depart_noop, opening_words, visit_noop, warn
from conv.sphinx_ext.warnings_ import YlWarning

#: What the printed table says of itself in the PDF (its rows are the book's columns).
LATEX_NOTE = "此表每行即原書一行"


def setup_diagram(app: Sphinx) -> None:
    add_node(app, yl_diagram, html=(visit_diagram_html, depart_diagram_html),
             latex=(visit_diagram_latex, depart_diagram_latex), text=(visit_diagram_text, depart_diagram_text),
             other=BLOCK)
    for node in (yl_diagram_part, yl_diagram_text):
        add_node(app, node, html=(visit_part_html, depart_part_html),
                 latex=(visit_part_latex, depart_part_latex), text=(visit_part_text, depart_part_text),
                 other=(visit_noop, depart_noop))
    app.add_directive_to_domain("yl", "diagram", DiagramDirective)


class DiagramDirective(SphinxDirective):
    """``yl:diagram ANCHOR``: see the module docstring and ``yl_diagram``."""

    required_arguments = 1
    has_content = True
    option_spec = {"source": directives.unchanged_required, "page": directives.unchanged,
                   "caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        anchor = self.arguments[0]
        node = yl_diagram(anchor=anchor, page=self.options.get("page", ""), source=self.options.get("source", ""),
                          caption=self.options.get("caption", ""), classes=["yl-diagram"])
        self.set_source_info(node)
        register_id(self, node, anchor)
        location = self.get_location()
        for number, line in enumerate((line for line in self.content if line.strip()), 1):
            found = read_cells(line.strip())
            if found is None:
                warn(f"yl:diagram: {line.strip()!r} is no column (cells | halves / gaps _)", YlWarning.MARKUP, location)
                continue
            column = yl_diagram_part(part="column", number=number)
            for kind, value in found:
                if kind == "gap":
                    column += yl_diagram_part(part="gap", size=value)
                elif kind == "pair":
                    column += yl_diagram_part("", *(yl_diagram_text("", "", *wrap_chars([nodes.Text(half)], location),
                                                                    part="half") for half in value), part="pair")
                else:
                    column += yl_diagram_text("", "", *wrap_chars([nodes.Text(value[0])], location), part="label")
            node += column
        self.env.get_domain("yl").note_passage(anchor, self.env.docname, "figure",
                                               opening_words(node["caption"] or node.astext()),
                                               location=node, page=node["page"])
        return [node]


# -- HTML ------------------------------------------------------------------------------------------

def visit_diagram_html(self, node: yl_diagram) -> None:
    self.body.append(self.starttag(node, "figure", "", **{"data-layer": "figure"}))
    self.body.append('<div class="yl-diagram-box"><div class="yl-diagram-columns">')


def depart_diagram_html(self, node: yl_diagram) -> None:
    self.body.append('</div></div><figcaption class="yl-diagram-caption">')
    self.body.append(self.encode(node["caption"]))
    if node.get("page"):
        self.body.append(f'<span class="yl-page" title="{PAGE_TITLE}">{self.encode(node["page"])}</span>')
    self.body.append(permalink_html(self, node))
    self.body.append("</figcaption></figure>\n")


def visit_part_html(self, node: yl_diagram_part) -> None:
    part = node["part"]
    if part == "gap":
        self.body.append(f'<span class="yl-dgap" style="--yl-gap: {int(node["size"])}"></span>')
        raise nodes.SkipNode
    self.body.append(self.starttag(node, "div" if part == "column" else "span", "", CLASS=f"yl-d{part}"))


def depart_part_html(self, node: yl_diagram_part) -> None:
    self.body.append("</div>" if node["part"] == "column" else "</span>")


# -- LaTeX -----------------------------------------------------------------------------------------

def visit_diagram_latex(self, node: yl_diagram) -> None:
    self.body.append("\n\\begin{center}%s{\\small %s（%s）}\\par\\smallskip\n"
                     "\\begin{tabular}{|r|l|}\\hline\n"
                     % (self.hypertarget_to(node, anchor=True), self.encode(node["caption"]), LATEX_NOTE))


def depart_diagram_latex(self, node: yl_diagram) -> None:
    self.body.append("\\hline\n\\end{tabular}\\end{center}\n")


def visit_part_latex(self, node: yl_diagram_part) -> None:
    part = node["part"]
    if part == "column":
        self.body.append("%s & " % chinese_number(int(node["number"])))
    elif part == "gap":
        self.body.append("\\hspace*{%dem}" % int(node["size"]))
        raise nodes.SkipNode
    elif part == "pair":
        self.body.append("{\\footnotesize(")
    elif part == "half" and node.parent.index(node):
        self.body.append("／")


def depart_part_latex(self, node: yl_diagram_part) -> None:
    part = node["part"]
    if part == "column":
        self.body.append("\\\\\n")
    elif part == "pair":
        self.body.append(")}")


# -- text ------------------------------------------------------------------------------------------

def visit_diagram_text(self, node: yl_diagram) -> None:
    self.new_state(0)
    self.add_text(node["caption"])
    self.end_state()


def depart_diagram_text(self, node: yl_diagram) -> None:
    pass


def visit_part_text(self, node: yl_diagram_part) -> None:
    part = node["part"]
    if part == "column":
        self.new_state(0)
    elif part == "gap":
        self.add_text("\u3000" * int(node["size"]))
        raise nodes.SkipNode
    elif part == "pair":
        self.add_text("（")
    elif part == "half" and node.parent.index(node):
        self.add_text("／")


def depart_part_text(self, node: yl_diagram_part) -> None:
    if node["part"] == "column":
        self.end_state()
    elif node["part"] == "pair":
        self.add_text("）")
