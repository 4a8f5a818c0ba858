"""The edition's text in the PDF, character for character (排印文字之忠实).

``PrintableText`` (LaTeX only) prepares every text of the doctree for XeLaTeX:

- **Characters that cannot be typeset** (``conv.normalize.CONTROL_PATTERN``: C0/C1 controls,
  zero-width characters, bidi controls, U+FEFF, noncharacters) are refused before LaTeX sees them:
  a ``yl.markup`` warning at the page's line naming the character and, inside a passage, the seed's
  ``file:line:col`` (an error under ``-W``, so ``make latexpdf`` stops before XeLaTeX), and the
  character is left out of the LaTeX source. The converter reports each as a problem too.
- **Long ASCII runs** in the witness's text (a passage, a note, a title, a metadata line) get a
  break point after every character (``\\allowbreak``): TeX would otherwise hyphenate them (adding
  a ``-`` that is not in the text) or let them run off the page (and out of the text layer).

The fonts do the rest: ``source/conf.py`` sets the Latin fonts with ``Ligatures={TeXOff,
CommonOff}``, so ``"`` `` ` `` ``'`` ``<<`` ``,,`` stay what they are (TeX's ligatures would print
” ‘ ’ « „).
"""
from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from conv.normalize import CONTROL_PATTERN, control_name
from conv.sphinx_ext.nodes import yl_chaptertitle, yl_meta, yl_passage, yl_segment, yl_text, yl_title
from conv.sphinx_ext.util import replace_node, warn
from conv.sphinx_ext.warnings_ import YlWarning

#: Printable ASCII runs that TeX could hyphenate (2 + 3 letters) or that could overflow a line.
LONG_ASCII = re.compile(r"[!-~]{5,}")
WITNESS_TEXT = (yl_text, yl_segment, yl_title, yl_chaptertitle, yl_meta)
BREAK = r"\allowbreak{}"


class PrintableText(SphinxPostTransform):
    """Refuse what cannot be typeset; let long ASCII runs break (see the module docstring)."""

    builders = ("latex",)
    default_priority = 950

    def run(self, **kwargs: Any) -> None:
        for text in list(self.document.findall(nodes.Text)):
            if isinstance(text.parent, (nodes.raw, nodes.literal_block)):
                continue
            value = str(text)
            if CONTROL_PATTERN.search(value):
                value = self.refuse(text, value)
            if LONG_ASCII.search(value) and _in_witness_text(text):
                replace_node(text, _breakable(value))
            elif value != str(text):
                replace_node(text, nodes.Text(value))

    def refuse(self, text: nodes.Text, value: str) -> str:
        names = ", ".join(dict.fromkeys(control_name(m.group()) for m in CONTROL_PATTERN.finditer(value)))
        passage = next((a for a in _ancestors(text) if isinstance(a, yl_passage)), None)
        seed = f" (seed {passage['source']})" if passage is not None and passage.get("source") else ""
        warn(f"{names} cannot be typeset{seed}: left out of the PDF; remove it from the seed",
             YlWarning.MARKUP, text.parent)
        return CONTROL_PATTERN.sub("", value)


def _ancestors(node: nodes.Node):
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _in_witness_text(node: nodes.Node) -> bool:
    return any(isinstance(a, WITNESS_TEXT) for a in _ancestors(node))


def _breakable(value: str) -> list[nodes.Node]:
    """``value`` with a break point after each character of its long ASCII runs."""
    out: list[nodes.Node] = []
    cursor = 0
    for match in LONG_ASCII.finditer(value):
        if match.start() > cursor:
            out.append(nodes.Text(value[cursor:match.start()]))
        for char in match.group():
            out.append(nodes.Text(char))
            out.append(nodes.raw("", BREAK, format="latex"))
        cursor = match.end()
    if cursor < len(value):
        out.append(nodes.Text(value[cursor:]))
    return out


def setup_latex_text(app: Sphinx) -> None:
    app.add_post_transform(PrintableText)
