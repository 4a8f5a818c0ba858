"""Walking a page's structure (结构遍历): passages, titles and sections without their text.

``node.findall(cls)`` visits every node of a page: each character run, gloss and segment inside each
passage. The transforms that look for passages, section titles or sections only need the page's
skeleton. ``blocks`` yields the same nodes in the same (document) order as ``findall`` would, but
never looks inside a ``TextElement`` (a paragraph, a title, a passage's words or one of its segments:
no passage or section can stand there) nor inside a node it yields (a passage holds no passage).
"""
from __future__ import annotations

from collections.abc import Iterator

from docutils import nodes


def blocks(root: nodes.Node, types: type | tuple[type, ...], into: tuple[type, ...] = ()) -> Iterator[nodes.Element]:
    """Nodes of ``types`` under ``root`` (``root`` included), in document order.

    ``into``: yielded types that can hold further matches (``nodes.section`` holds sections and
    passages), so their children are searched too.
    """
    stack: list[nodes.Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, types):
            yield node
            if not isinstance(node, into):
                continue
        if isinstance(node, (nodes.TextElement, nodes.Text)) or not isinstance(node, nodes.Element):
            continue
        stack.extend(reversed(node.children))


def elements(root: nodes.Node, types: type | tuple[type, ...], skip: str = "") -> list[nodes.Element]:
    """Every node of ``types`` under ``root`` (``root`` included), in document order, inside text
    too: what ``findall`` finds, in one loop (``findall`` nests a generator per level of the tree,
    and a page of the whole 仪礼 has some hundred thousand nodes); nothing inside an element of
    the class ``skip``."""
    found: list[nodes.Element] = []
    stack: list[nodes.Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, nodes.Element) and not (skip and skip in node["classes"]):
            if isinstance(node, types):
                found.append(node)
            stack.extend(reversed(node.children))
    return found
