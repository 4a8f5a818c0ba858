"""Metadata lines and lacunae (著录与残缺): ``yl:meta KIND`` and ``yl:lacuna KIND``.

``yl:meta`` keeps the lines that are not text of the 仪礼 but must not be lost: 卷 lines
(``juan``), ``钦定四库全书`` (``siku``), the author line (``author``), the catalogue line
(``catalogue``), the 记 marker (``ji-marker``), and in the 通解 the part line (``part``: 家禮一之上), a label
inside a 篇 (``label``: 經七) and a 篇's note that it is lost (``lost``: 此一篇原闕); in the 句读's
提要 the 四库 editors who checked the copy (``credits``). ``yl:lacuna`` marks where the witness is cut
off (``start``, ``end``) or has a gap (``gap``); its label is made by the visitors, so it is
never indexed as text.
"""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conv.sphinx_ext.text.body import parse_inline
from conv.sphinx_ext.util import add_node, BLOCK, LACUNA_LABELS, LACUNA_TITLES, META_KINDS
from conv.sphinx_ext.nodes import yl_lacuna, yl_meta


def setup_meta(app: Sphinx) -> None:
    add_node(
        app,
        yl_meta,
        html=(visit_meta_html, depart_meta_html),
        latex=(visit_meta_latex, depart_meta_latex),
        text=(visit_meta_text, depart_meta_text),
        other=BLOCK,
    )
    add_node(
        app,
        yl_lacuna,
        html=(visit_lacuna_html, None),
        latex=(visit_lacuna_latex, None),
        text=(visit_lacuna_text, None),
        other=(visit_lacuna_skip, None),
    )
    app.add_directive_to_domain("yl", "meta", MetaDirective)
    app.add_directive_to_domain("yl", "lacuna", LacunaDirective)


class MetaDirective(SphinxDirective):
    """``yl:meta KIND``: the line as printed (escaped inline text)."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        kind = directives.choice(self.arguments[0], META_KINDS)
        node = yl_meta("", kind=kind, classes=["yl-meta", f"yl-meta-{kind}"])
        self.set_source_info(node)
        text = "\n".join(line for line in self.content if line.strip())
        node.extend(parse_inline(self, text, self.lineno + self.content_offset))
        return [node]


class LacunaDirective(SphinxDirective):
    """``yl:lacuna start|end|gap``."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        kind = directives.choice(self.arguments[0], tuple(LACUNA_LABELS))
        node = yl_lacuna(kind=kind, classes=["yl-lacuna", f"yl-lacuna-{kind}"])
        self.set_source_info(node)
        return [node]


def visit_meta_html(self, node: yl_meta) -> None:
    self.body.append(self.starttag(node, "p", "", **{"data-kind": node["kind"]}))


def depart_meta_html(self, node: yl_meta) -> None:
    self.body.append("</p>\n")


def visit_meta_latex(self, node: yl_meta) -> None:
    self.body.append("\n\\begin{ylline}{meta}%\n")


def depart_meta_latex(self, node: yl_meta) -> None:
    self.body.append("%\n\\end{ylline}\n")


def visit_meta_text(self, node: yl_meta) -> None:
    self.new_state(0)


def depart_meta_text(self, node: yl_meta) -> None:
    self.end_state()


def visit_lacuna_html(self, node: yl_lacuna) -> None:
    kind = node["kind"]
    self.body.append(self.starttag(node, "div", "", role="note", title=LACUNA_TITLES[kind]))
    self.body.append(f"〔{LACUNA_LABELS[kind]}〕</div>\n")
    raise nodes.SkipNode


def visit_lacuna_latex(self, node: yl_lacuna) -> None:
    self.body.append("\n\\par\\ylgap{%s}\\par\n" % LACUNA_LABELS[node["kind"]])
    raise nodes.SkipNode


def visit_lacuna_text(self, node: yl_lacuna) -> None:
    self.new_state(0)
    self.add_text(f"〔{LACUNA_LABELS[node['kind']]}〕")
    self.end_state()
    raise nodes.SkipNode


def visit_lacuna_skip(self, node: yl_lacuna) -> None:
    raise nodes.SkipNode
