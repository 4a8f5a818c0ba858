"""Helpers for tests that read the built pages as a reader sees them."""
from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup


def page_soup(directory: Path, page: str) -> BeautifulSoup:
    """The built page ``page`` (``judou/xiangshe``) of the HTML output in ``directory``, parsed."""
    return BeautifulSoup((directory / f"{page}.html").read_text(encoding="utf-8"), "html.parser")


def witness_text(element) -> str:
    """The text of an element with every normalized form (``yl-n``) left out: the witness's own
    characters, apparatus marks included."""
    element = BeautifulSoup(str(element), "html.parser")
    for node in element.select(".yl-n"):
        node.decompose()
    return element.get_text()


def diplomatic(element) -> str:
    """The text of an element as the diplomatic view shows it (each folded character holds both
    forms: keep the witness's), without the marks of the apparatus."""
    element = BeautifulSoup(str(element), "html.parser")
    for node in element.select(".yl-char .yl-n, .yl-fs > .yl-n, .yl-appmark"):
        node.decompose()
    return element.get_text()
