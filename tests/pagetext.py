"""Helpers for tests that read the built pages as a reader sees them."""
from __future__ import annotations

from bs4 import BeautifulSoup


def diplomatic(element) -> str:
    """The text of an element as the diplomatic view shows it (each folded character holds both
    forms: keep the witness's), without the marks of the apparatus."""
    element = BeautifulSoup(str(element), "html.parser")
    for node in element.select(".yl-char .yl-n, .yl-fs > .yl-n, .yl-appmark"):
        node.decompose()
    return element.get_text()
