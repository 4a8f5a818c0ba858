"""Helpers for the tests of the back matter's pages (书后附录的页面): the index of terms, the gloss
index, 郑注's glossary and the critical apparatus of each work (``test_indices.py``,
``test_apparatus_pages.py``), read against the JSON export of the seeds (``seeds_export``) in
the seeds' edition built as HTML (``seeds_soup``; both fixtures are in ``conftest.py``).
"""
from __future__ import annotations

from bs4 import BeautifulSoup


def resolved(text: str) -> str:
    """Witness text as the diplomatic view shows it: PUA code points resolved (县音U+EA20 → 县音玄)."""
    from conv import datafiles as data

    table = data.pua()
    return "".join(table[c]["char"] if c in table else c for c in text)


def anchor(href: str) -> str:
    return href.rsplit("#", 1)[-1]


def work_of_seed(export: dict) -> dict[str, str]:
    return {seed: work["id"] for work in export["works"] for chapter in work["chapters"]
            for seed in chapter["seeds"]}


def glosses_of(export: dict) -> list[dict]:
    found = []
    for work in export["works"]:
        for chapter in work["chapters"]:
            for segment in chapter["mulu"]:
                found += segment["glosses"]
            for section in chapter["sections"]:
                for passage in section["passages"]:
                    for segment in passage["notes"]:
                        found += segment["glosses"]
                for segment in section["title_notes"]:
                    found += segment["glosses"]
    return found


def gloss_index_pages(soup) -> list[tuple[str, BeautifulSoup]]:
    """The 音义索引's pages by position, as its overview links them: (link text, page)."""
    overview = soup("apparatus/glosses")
    links = overview.select("section#apparatus-glosses-by-position ul a.reference.internal")
    return [(a.get_text(), soup("apparatus/" + a["href"].split("#")[0].removesuffix(".html"))) for a in links]


def rows(table) -> list[list]:
    return [row.find_all("td") for row in table.select("tbody tr")]


def entries(page: BeautifulSoup, kind: str | None = None) -> list:
    """The apparatus entries of a page (of one ``kind``)."""
    selector = "div.yl-app" + (f".yl-app-{kind}" if kind else "")
    return page.select(selector)
