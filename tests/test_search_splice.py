"""The search index's terms changed in place (检索索引就地改写, ``conv/sphinx_ext/speed/search_splice.py``).

After one editorial note is edited, three pages are written again and a handful of terms gain or
lose a page: the kept ``searchindex.js`` text is changed at those terms only. Whatever pages are
written again and whatever words they hold now, the spliced text must be the one the whole index,
frozen and written again, gives (``index_text`` of ``merge_terms``, themselves tested against
Sphinx's own freezing and writing in ``tests/test_search_kept.py``).
"""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from conv.sphinx_ext.speed.search_index import in_order, index_text, merge_terms
from conv.sphinx_ext.speed.search_splice import assemble, index_parts, page_terms, plain_keys, splice_section, term_changes
from search_helpers import frozen_terms, invert

PAGES = [f"p{i}" for i in range(6)]
#: Han characters, astral ones, ASCII words (numbers among them: a key's text holds digits too).
TERMS = list("甲乙丙丁戊己庚辛") + ["\U00020000", "ab", "a1", "1", "z", "乡射", "射", "ㄅ"]

page_words = st.dictionaries(st.sampled_from(PAGES), st.sets(st.sampled_from(TERMS)), min_size=1)


def layout(frozen: dict) -> tuple[str, dict]:
    """The index text and where each key's value lies in it."""
    return assemble(index_parts(frozen))


def frozen_of(words: dict[str, set[str]], names: tuple[str, ...]) -> dict:
    terms = frozen_terms(invert(words), names)
    return {"docnames": names, "filenames": [f"{n}.md" for n in names], "titles": names,
            "terms": in_order(terms), "titleterms": {"篇": 0}, "objects": {}, "objnames": {}, "objtypes": {},
            "envversion": {"sphinx": 65}, "alltitles": {}, "indexentries": {}}


@settings(max_examples=400, deadline=None)
@given(before=page_words, fed=st.dictionaries(st.sampled_from(PAGES), st.sets(st.sampled_from(TERMS))))
def test_splice_equals_writing_the_whole_index(before, fed):
    """The pages ``fed`` (written again, on the same list of pages) replace their terms; the text
    changed at the terms that gained or lost a page is the text of the whole index written again."""
    names = tuple(sorted(before))
    fed = {page: terms for page, terms in fed.items() if page in before}
    after = before | fed
    old_text, old_places = layout(frozen_of(before, names))
    new_frozen = frozen_of(after, names)
    fed_frozen = frozen_terms(invert(fed), names)
    # what the splice is given: each written page's old terms (kept from the last build) and new ones
    old_pages = {page: before[page] for page in fed}
    new_pages = page_terms(fed_frozen, names, fed)
    assert new_pages == {page: fed[page] for page in fed}
    changes = term_changes(old_pages, new_pages, {name: number for number, name in enumerate(names)})
    start, end = old_places["terms"]
    body = splice_section(old_text[start:end], changes)
    assert body is not None
    expected, places = layout(new_frozen)
    assert expected == index_text(new_frozen)
    new_start, new_end = places["terms"]
    assert body == expected[new_start:new_end]
    # the merge of the kept index agrees (the path taken when the splice cannot be)
    merged = merge_terms(frozen_terms(invert(before), names), fed_frozen, names, names, set(fed))
    assert json.dumps(in_order(merged), separators=(",", ":")) == body


def test_splice_by_hand():
    """``乙`` loses page 1 and is gone, ``甲`` loses it and keeps 0 and 2, ``戊`` is new on page 1,
    ``丙`` gains page 1."""
    text, places = layout(frozen_of({"p0": {"甲", "丙"}, "p1": {"甲", "乙"}, "p2": {"甲"}}, ("p0", "p1", "p2")))
    start, end = places["terms"]
    changes = term_changes({"p1": {"甲", "乙"}}, {"p1": {"丙", "戊"}}, {"p0": 0, "p1": 1, "p2": 2})
    assert changes == {"甲": ({1}, set()), "乙": ({1}, set()), "丙": (set(), {1}), "戊": (set(), {1})}
    body = splice_section(text[start:end], changes)
    assert json.loads(body) == {"丙": [0, 1], "戊": 1, "甲": [0, 2]}
    assert body == json.dumps({"丙": [0, 1], "戊": 1, "甲": [0, 2]}, separators=(",", ":"))


def test_a_page_it_does_not_hold_or_a_new_odd_key_is_refused():
    """A kept text that does not hold what the pages' old terms say (a page to remove is not
    there), or a new key the splice cannot find its way among (a quote, a comma, a backslash): no
    text (the whole index is written instead)."""
    text, places = layout(frozen_of({"p0": {"甲"}, "p1": {"乙"}}, ("p0", "p1")))
    start, end = places["terms"]
    body = text[start:end]
    assert splice_section(body, {"甲": ({1}, set())}) is None
    assert splice_section(body, {"丙": ({0}, set())}) is None
    for odd in ('a"b', "a,", "a\\b"):
        assert not plain_keys([odd])
        assert splice_section(body, {odd: (set(), {0})}) is None
    assert plain_keys(["甲", "a b", "\U00020000"])


def test_places_are_the_values_in_the_index_text():
    frozen = frozen_of({"p0": {"甲"}, "p1": {"乙", "甲"}}, ("p0", "p1"))
    text, places = layout(frozen)
    assert text == index_text(frozen)
    for key in ("terms", "titleterms"):
        start, end = places[key]
        assert json.loads(text[start:end]) == json.loads(json.dumps(frozen[key]))
