"""The search index's terms changed in place (检索索引就地改写).

``searchindex.js`` is ``Search.setIndex({…})``: the frozen index as JSON, its keys in order, the
terms (``"terms":{"term":page,"term":[page,page],…}``, 180,000 of them on the whole 仪礼) the
largest part by far. After one editorial note is edited three pages are written again, and only
the terms those pages gained or lost change: this module changes the kept text at those terms
(:func:`splice_section`) instead of merging and writing the whole index again.

What it needs: the text as the last build wrote it and where each key's value lies in it
(:func:`assemble`), and the terms each written page held in the last build (:func:`page_terms`,
kept per page by ``conv.sphinx_ext.speed.search_index``). It finds a term by bisection in the
text: a key there is ``"…"`` (JSON, ASCII with ``\\u`` escapes) after ``{`` or ``,`` and a value
an integer or ``[integers]``, so ``,"`` begins a key — while no key holds a quote, a backslash
or a comma (:func:`plain_keys`; the edition's terms never do: any other text is written whole).
"""
from __future__ import annotations

import json
import re

from sphinx.search import _JavaScriptIndex  # private: Sphinx 9.0

#: A key the bisection cannot read in the text: a quote or backslash (escaped in JSON) or a comma.
_ODD_KEY = re.compile(r'[",\\]')


def plain_keys(keys) -> bool:
    """Whether no key holds a quote, a backslash or a comma."""
    return not any(_ODD_KEY.search(key) for key in keys)


def index_parts(frozen: dict) -> dict[str, str]:
    """Each key's value as JSON, in key order, as Sphinx's ``js_index.dumps`` writes them: the
    terms (already in key order, ``search_index.in_order``) as they are, the others with sorted keys."""
    return {key: json.dumps(value, separators=(",", ":")) if key == "terms"
            else json.dumps(value, separators=(",", ":"), sort_keys=True)
            for key, value in sorted(frozen.items(), key=lambda item: item[0])}


def assemble(parts: dict[str, str]) -> tuple[str, dict[str, tuple[int, int]]]:
    """``Search.setIndex({…})`` of the parts, and where each value lies in that text."""
    pieces, places = [_JavaScriptIndex.PREFIX, "{"], {}
    position = len(_JavaScriptIndex.PREFIX) + 1
    for number, (key, value) in enumerate(parts.items()):
        head = ("," if number else "") + json.dumps(key) + ":"
        position += len(head)
        places[key] = (position, position + len(value))
        position += len(value)
        pieces += [head, value]
    pieces += ["}", _JavaScriptIndex.SUFFIX]
    return "".join(pieces), places


def page_terms(frozen_terms: dict, names, pages) -> dict[str, set[str]]:
    """The terms each of ``pages`` holds in ``frozen_terms`` (``term → page number | [numbers]``,
    numbered by ``names``)."""
    wanted = {number: name for number, name in enumerate(names) if name in pages}
    found: dict[str, set[str]] = {name: set() for name in pages}
    for term, numbers in frozen_terms.items():
        for number in ([numbers] if type(numbers) is int else numbers):
            if number in wanted:
                found[wanted[number]].add(term)
    return found


def term_changes(old: dict[str, set[str]], new: dict[str, set[str]], numbers: dict[str, int]) -> dict:
    """``term → (page numbers it loses, page numbers it gains)`` when each page of ``old`` held
    those terms and now holds ``new``'s (none: a page gone)."""
    changes: dict = {}
    for page, before in old.items():
        after = new.get(page, set())
        number = numbers[page]
        for term in before - after:
            changes.setdefault(term, (set(), set()))[0].add(number)
        for term in after - before:
            changes.setdefault(term, (set(), set()))[1].add(number)
    return changes


def splice_section(body: str, changes: dict) -> str | None:
    """``body`` (``{…}``: ``term → page | [pages]`` as JSON, keys in order) with each changed term's
    pages changed (``term → (lost, gained)``): a term left on no page is left out, a new one goes
    in its place. ``None`` when the text does not hold what ``changes`` assume (a page to remove
    or to add that is, a term to remove that is not there) or a new key is not plain."""
    inner = body[1:-1]
    edits = []
    for term in sorted(changes):
        lost, gained = changes[term]
        start, found = _find(inner, term)
        if found is None:
            if lost or not plain_keys([term]):
                return None
            pages = set()
            end = start
        else:
            end, pages = found
            if not lost <= pages or gained & pages:
                return None
        pages = (pages - lost) | gained
        entry = None
        if pages:
            value = min(pages) if len(pages) == 1 else sorted(pages)
            entry = json.dumps(term) + ":" + json.dumps(value, separators=(",", ":"))
        edits.append((start, end, entry))
    chunks, done = [], 0
    for start, end, entry in edits:  # in key order, hence in place order
        run = inner[done:start].strip(",")  # an entry neither begins nor ends with a comma
        if run:
            chunks.append(run)
        if entry:
            chunks.append(entry)
        done = end
    run = inner[done:].strip(",")
    if run:
        chunks.append(run)
    return "{" + ",".join(chunks) + "}"


def _entry_at(inner: str, position: int) -> int | None:
    """Where the first entry at or after ``position`` begins."""
    if position <= 0:
        return 0 if inner else None
    found = inner.find(',"', position - 1)
    return None if found < 0 else found + 1


def _key(inner: str, start: int) -> tuple[str, int]:
    close = inner.index('"', start + 1)
    return json.loads(inner[start:close + 1]), close


def _find(inner: str, term: str) -> tuple[int, tuple[int, set[int]] | None]:
    """Where ``term``'s entry begins and, when it is there, where it ends and its pages; else
    where it would go (before the first greater key, or the end)."""
    low, high = 0, len(inner)
    # every entry beginning before ``low`` has a smaller key; every one at or after ``high`` not
    while low < high:
        middle = (low + high) // 2
        start = _entry_at(inner, middle)
        if start is None or start >= high:
            high = middle
        elif _key(inner, start)[0] < term:
            low = start + 1
        else:
            high = start
    start = _entry_at(inner, low)
    if start is None:
        return len(inner), None
    key, close = _key(inner, start)
    if key != term:
        return start, None
    value_start = close + 2
    if inner[value_start] == "[":
        end = inner.index("]", value_start) + 1
        pages = set(json.loads(inner[value_start:end]))
    else:
        comma = inner.find(",", value_start)
        end = len(inner) if comma < 0 else comma
        pages = {int(inner[value_start:end])}
    return start, (end, pages)
