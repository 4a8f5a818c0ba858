"""Comparing doctrees in tests (文档树比较): every node in document order with its attributes,
text, source and line (``signature``), and the alphabet of witness text the property tests draw
from (``HAN``: characters of the seeds, their markup, a full-width space and two PUA code points)."""
from __future__ import annotations

from docutils import nodes

HAN = "司马命获者执旌以负侯賔説竒宾欲令射者见侯与旌深有志于中疏云○【】　\ue000\ueb8e"


def signature(node: nodes.Node, depth: int = 0, out: list | None = None) -> list[tuple]:
    """Every node of the tree in document order: its class, attributes, text, source, line and
    raw source."""
    out = [] if out is None else out
    if isinstance(node, nodes.Text):
        out.append((depth, "#text", str(node), node.source, node.line))
        return out
    attributes = repr(sorted(node.attributes.items()))
    out.append((depth, type(node).__name__, attributes, node.source, node.line, node.rawsource))
    for child in node.children:
        signature(child, depth + 1, out)
    return out
