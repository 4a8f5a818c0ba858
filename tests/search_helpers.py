"""Helpers for the search tests (检索测试): what the search page shows in a browser (``RESULTS_JS``),
and Sphinx's own freezing of a ``term → pages`` mapping, against which the kept index's merge is
read (``test_search_browser.py``, ``test_search_kept.py``, ``test_search_splice.py``), and
``searchindex.js`` as data (:func:`search_index`)."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from sphinx.search import IndexBuilder

RESULTS_JS = """() => [...document.querySelectorAll('#search-results ul.search li')].map(li => {
  const a = li.querySelector('a');
  return {href: a ? a.getAttribute('href') : '', classes: li.className,
          marked: [...li.querySelectorAll('.highlighted')].map(s => s.textContent)};
})"""


def search_index(html: Path) -> dict:
    """Sphinx's ``searchindex.js`` of the HTML output ``html``, as data."""
    text = (html / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1:text.rindex(")")])


def frozen_terms(mapping: dict[str, set[str]], names: tuple[str, ...]) -> dict:
    """``IndexBuilder.get_terms`` (Sphinx's own freezing) of ``term → pages``."""
    indexer = SimpleNamespace(_mapping=mapping, _title_mapping={})
    return IndexBuilder.get_terms(indexer, {name: number for number, name in enumerate(names)})[0]


def invert(words: dict[str, set[str]]) -> dict[str, set[str]]:
    mapping: dict[str, set[str]] = {}
    for page, terms in words.items():
        for term in terms:
            mapping.setdefault(term, set()).add(page)
    return mapping


def search_results(page, site: str, query: str) -> dict[str, str]:
    """The passages (and other units with an anchor) the search page finds for ``query`` on the site served at
    ``site`` → the text of their snippet, once the page says it is done."""
    from urllib.parse import quote

    page.goto(f"{site}/search.html?q={quote(query)}")
    page.wait_for_function("() => { const s = document.querySelector('#search-results p.search-summary');"
                           " return !!(s && s.innerText.trim()); }", timeout=60000)
    return page.evaluate("() => Object.fromEntries([...document.querySelectorAll('#search-results ul.search li')]"
                         ".filter(li => li.querySelector('a').href.includes('#'))"
                         ".map(li => [li.querySelector('a').href.split('#')[1], li.querySelector('p')?.innerText ?? '']))")
