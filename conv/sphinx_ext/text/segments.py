"""Commentary layers (注疏层次): ``yl:zhu`` ``yl:shu`` ``yl:an`` ``yl:yin`` ``yl:mulu``, ``yl:chu`` (出处, the
source 朱熹 names after a paragraph of the 通解), ``yl:jiao`` (校语, his collation notes in 月令) and ``yl:small``, and the
``yl:legend`` that explains their styles.

Each segment directive's body is one commentary segment as inline MyST (escaped witness text,
``yl:gloss`` roles); option ``lacuna``: ``end`` (the segment is cut off) or ``start`` (its opening
is lost). A segment lives inside a ``yl:passage``, ``yl:title`` or ``yl:chaptertitle``; anywhere
else the build warns (``yl.structure``). The segments that follow one another make one 【…】 run,
a note of the witness; the CSS class ``yl-note`` and the LaTeX macro ``\\ylnote`` keep that name.
"""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from conv.sphinx_ext.text.body import parse_inline, segment_node
from conv.sphinx_ext.text.witness_forms import apply_trad
from conv.sphinx_ext.util import add_node, APART_LAYERS, LEGEND_NAMES, SEGMENT_LAYERS, TEXT_LAYERS, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.text.passage import gap_html, gap_latex, gap_text
from conv.sphinx_ext.nodes import yl_chaptertitle, yl_segment, yl_passage, yl_title


def setup_segments(app: Sphinx) -> None:
    add_node(
        app,
        yl_segment,
        html=(visit_segment_html, depart_segment_html),
        latex=(visit_segment_latex, depart_segment_latex),
        text=(visit_segment_text, depart_segment_text),
        other=(visit_segment_texinfo, depart_segment_texinfo),
    )
    for layer in SEGMENT_LAYERS:
        app.add_directive_to_domain("yl", layer, type(f"{layer.title()}Directive", (SegmentDirective,), {"layer": layer}))
    app.add_directive_to_domain("yl", "legend", LegendDirective)
    app.add_transform(SegmentPlacement)


class SegmentDirective(SphinxDirective):
    """A commentary segment of layer ``self.layer`` (one subclass per layer).

    In a passage or title in the generated format the directive does not run: the passage's
    fast path (``conv.sphinx_ext.text.body``) makes the same ``yl_segment`` with ``segment_node``.
    """

    layer = "zhu"
    has_content = True
    option_spec = {"lacuna": lambda arg: directives.choice(arg, ("start", "end")),
                   "trad": directives.unchanged}  # its text in the 文渊阁 forms (text/witness_forms.py)

    def run(self) -> list[nodes.Node]:
        node = segment_node(self.layer, self.options.get("lacuna", ""), *self.get_source_info())
        lines = list(self.content)
        if any(not line.strip() for line in lines):
            warn(f"{self.name}: a segment is one paragraph (blank line in its body)", YlWarning.STRUCTURE,
                 self.get_location())
        text = "\n".join(line for line in lines if line.strip())
        node.extend(parse_inline(self, text, self.lineno + self.content_offset))
        apply_trad(node, self.options.get("trad", ""), self.get_location())
        return [node]


class SegmentPlacement(SphinxTransform):
    """Warn about a segment outside a passage or title, and give it a paragraph to live in."""

    default_priority = 700

    def apply(self, **kwargs) -> None:
        for segment in list(self.document.findall(yl_segment)):
            if not isinstance(segment.parent, (yl_passage, yl_title, yl_chaptertitle)):
                warn(f"yl:{segment['layer']} outside a yl:passage, yl:title or yl:chaptertitle",
                     YlWarning.STRUCTURE, segment)
                if not isinstance(segment.parent, nodes.TextElement):
                    segment.replace_self(nodes.paragraph("", "", segment.deepcopy()))


def _segment_siblings(node: yl_segment) -> tuple[bool, bool]:
    """(first, last): whether ``node`` opens / closes a run of segments (one 【…】)."""
    parent = node.parent
    index = parent.index(node)
    first = index == 0 or not isinstance(parent[index - 1], yl_segment)
    last = index == len(parent) - 1 or not isinstance(parent[index + 1], yl_segment)
    return first, last


# -- HTML ------------------------------------------------------------------------------------
#
# A run of notes (one 【…】 of the witness) is written as the printed book sets it, so that a copy
# keeps the layers apart and the screen shows them quietly::
#
#     <span class="yl-run">
#       <span class="yl-ed yl-br">【</span>
#       <span class="yl-gap …">〔前阙〕</span> <sup class="yl-appmark">…</sup>   (outside the note:
#                                                   they stay when its layer is hidden)
#       <span class="yl-note yl-zhu">扑所以挞犯教者…</span>
#       <span class="yl-note yl-an"><span class="yl-ed yl-sep">○</span>
#           <span class="yl-ed yl-lead">〔按〕</span>反位所设中之西南东面也</span>
#       <span class="yl-ed yl-br">】</span>
#     </span>
#
# ``yl-ed`` marks what the edition adds (never witness text: the search and the tests leave it
# out). A separator sits inside the note it precedes and the brackets belong to the run, so hiding
# a layer hides its separator, and a run with every note hidden shows no brackets (yili.css).

#: Layers whose notes open with a lead mark, as in the print (``\ylnote@shu``, ``\ylnote@an``).
LEAD_MARKS = ("shu", "an", "jiao", "chu")


def _edition_mark(kind: str, text: str) -> str:
    return f'<span class="yl-ed yl-{kind}">{text}</span>'


def _placed(self) -> set:
    """Ids of the nodes a note's visitor has already written (its leading apparatus marks)."""
    if not hasattr(self, "_yl_placed"):
        self._yl_placed = set()
    return self._yl_placed


def visit_segment_html(self, node: yl_segment) -> None:
    first, _ = _segment_siblings(node)
    if first:
        self.body.append('<span class="yl-run">' + _edition_mark("br", "【"))
    if node.get("lacuna") == "start":
        self.body.append(gap_html(self, "start"))
    for child in list(node.children):  # marks of the apparatus at its start: outside the note
        if child.tagname != "yl_appmark":
            break
        child.walkabout(self)
        _placed(self).add(id(child))
    self.body.append(self.starttag(node, "span", "", **{"data-layer": node["layer"]}))
    if not first:
        self.body.append(_edition_mark("sep", "○"))
    if node["layer"] in LEAD_MARKS:
        self.body.append(_edition_mark("lead", f"〔{SEGMENT_LAYERS[node['layer']]}〕"))


def depart_segment_html(self, node: yl_segment) -> None:
    self.body.append("</span>")
    if node.get("lacuna") == "end":
        self.body.append(gap_html(self, "end"))
    _, last = _segment_siblings(node)
    if last:
        self.body.append(_edition_mark("br", "】") + "</span>")


def placed_already(translator, node) -> bool:
    """Whether ``node`` was written by its note's visitor (``visit_segment_html``) already."""
    return id(node) in getattr(translator, "_yl_placed", ())


# -- LaTeX -----------------------------------------------------------------------------------

def visit_segment_latex(self, node: yl_segment) -> None:
    first, _ = _segment_siblings(node)
    self.body.append(r"\ylopen{}" if first else r"\ylsep{}")
    self.body.append("{\\ylnote{%s}{%s}" % (node["layer"], SEGMENT_LAYERS[node["layer"]]))
    if node.get("lacuna") == "start":
        self.body.append(gap_latex("start"))


def depart_segment_latex(self, node: yl_segment) -> None:
    if node.get("lacuna") == "end":
        self.body.append(gap_latex("end"))
    self.body.append("}")
    _, last = _segment_siblings(node)
    if last:
        self.body.append(r"\ylclose{}")


# -- text ----------------------------------------------------------------------------------

def visit_segment_text(self, node: yl_segment) -> None:
    first, _ = _segment_siblings(node)
    self.add_text(("【" if first else "　") + SEGMENT_LAYERS[node["layer"]] + "：")
    if node.get("lacuna") == "start":
        self.add_text(gap_text("start"))


def depart_segment_text(self, node: yl_segment) -> None:
    if node.get("lacuna") == "end":
        self.add_text(gap_text("end"))
    _, last = _segment_siblings(node)
    if last:
        self.add_text("】")


def visit_segment_texinfo(self, node: yl_segment) -> None:
    first, _ = _segment_siblings(node)
    self.body.append(("【" if first else "　") + SEGMENT_LAYERS[node["layer"]] + "：")


def depart_segment_texinfo(self, node: yl_segment) -> None:
    _, last = _segment_siblings(node)
    if last:
        self.body.append("】")


# -- the legend ------------------------------------------------------------------------------

class LegendDirective(SphinxDirective):
    """``yl:legend``: one line per layer, its label in the layer's own style::

        <bullet_list classes="yl-legend">
            <list_item>
                <paragraph>
                    <inline classes="yl-sample yl-sample-zhu">注
                    \u3000郑注（《通解》所录他书之注各从其书…）

    (``yl-sample-*`` share the colours of the layers but are never hidden by the toolbar.)
    """

    has_content = False

    def run(self) -> list[nodes.Node]:
        items = nodes.bullet_list(classes=["yl-legend"])
        labels = {**TEXT_LAYERS, **SEGMENT_LAYERS, "title": "右…"}
        for layer, label in labels.items():
            if layer in APART_LAYERS:
                continue
            sample = nodes.inline(label, label, classes=["yl-sample", f"yl-sample-{layer}"])
            para = nodes.paragraph("", "", sample, nodes.Text("\u3000" + LEGEND_NAMES[layer]))
            items += nodes.list_item("", para)
        return [items]
