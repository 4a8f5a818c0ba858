"""The front page's reading notes (阅读) against the pages they describe (``test_reader_pages.py`` for the
seeds' edition, ``test_whole_html.py`` for the whole one)."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

MARK = re.compile(r"〔[^〔〕]+〕")
#: An editor's note's number (〔一〕〔二〕: the reading notes give two as an example of the series).
NUMBER = re.compile(r"〔[一二三四五六七八九十百]+〕")


def marks_named_but_missing(outdir: Path) -> list[str]:
    """The marks (〔前阙〕, 〔以下据文渊阁本〕, 〔一〕…) the front page's reading notes name that no page of
    the works shows: a reader is told to look for what the edition does not have."""
    front = (outdir / "index.html").read_text(encoding="utf-8")
    start = front.index("阅读</div>", front.index("<article"))
    card = front[start:front.index("</div>", start + len("阅读</div>"))]
    named = set(MARK.findall(unescape(re.sub(r"<[^>]+>", "", card))))
    shown: set[str] = set()
    for work in ("judou", "tongjie"):
        for page in (outdir / work).glob("*.html"):
            shown.update(MARK.findall(unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))))
    series = {NUMBER.sub("〔n〕", mark) for mark in shown}
    return sorted(mark for mark in named if NUMBER.sub("〔n〕", mark) not in series)
