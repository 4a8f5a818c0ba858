"""The search index kept between builds (检索索引留存, ``conv/sphinx_ext/speed/search_index.py``).

An incremental build merges the terms of the pages it writes into the index the last build wrote
instead of parsing ``searchindex.js`` again: the merge must give what Sphinx's own freezing of
the whole index gives (property test against ``IndexBuilder.get_terms``), and a rebuild after a
note is edited must use the kept index (it does not parse ``searchindex.js``: it changes the terms
of the pages written in its text, ``tests/test_search_splice.py``) and write the file a clean build
writes, with the note's new words found on its pages.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sphinx.search import js_index

from conv.sphinx_ext.speed.search_index import SEARCH_INDEX_CACHE, in_order, index_text, merge_terms
from incremental_project import NOTES_PAGE, add_sentence, build, differences, edition
from search_helpers import RESULTS_JS, frozen_terms, invert

NEW_WORDS = "鹪鹩巢林"
PAGES = [f"p{i}" for i in range(8)]
TERMS = list("甲乙丙丁戊己庚辛")


page_words = st.dictionaries(st.sampled_from(PAGES), st.sets(st.sampled_from(TERMS)), min_size=1)


@settings(max_examples=300, deadline=None)
@given(before=page_words, fed=page_words, gone=st.sets(st.sampled_from(PAGES)))
def test_merge_equals_freezing_the_whole_index(before, fed, gone):
    """Pages written again (``fed``) replace their old terms, pages gone lose theirs, the others
    keep them; page numbers follow the new list of pages (a page added or gone renumbers)."""
    old_names = tuple(sorted(before))
    after = {page: terms for page, terms in before.items() if page not in fed and page not in gone}
    after.update(fed)
    new_names = tuple(sorted(after))
    kept = frozen_terms(invert(before), old_names)
    fed_frozen = frozen_terms(invert(fed), new_names)
    merged = merge_terms(kept, fed_frozen, old_names, new_names, set(fed) | gone)
    assert merged == frozen_terms(invert(after), new_names)


def test_merge_by_hand():
    kept = {"甲": [0, 1, 2], "乙": 1, "丙": [1, 2], "丁": 2}
    # p1 written again with 乙 and 戊; p2 left the edition
    merged = merge_terms(kept, {"乙": 1, "戊": 1}, ("p0", "p1", "p2"), ("p0", "p1"), {"p1"})
    assert merged == {"甲": 0, "乙": 1, "戊": 1}


frozen_pages = st.one_of(st.integers(0, 200), st.lists(st.integers(0, 200), min_size=2, unique=True).map(sorted))
#: Any terms, in any order: Han characters and pairs, but also quotes, backslashes, controls, astral characters.
any_terms = st.dictionaries(st.text(min_size=1, max_size=3), frozen_pages, max_size=30)


@settings(max_examples=300, deadline=None)
@given(terms=any_terms, titles=any_terms, names=st.lists(st.text(max_size=4), max_size=4))
def test_the_index_text_is_sphinx_own(terms, titles, names):
    """``searchindex.js`` as Sphinx's ``js_index`` writes it, whatever the order of the terms."""
    frozen = {"docnames": tuple(names), "filenames": [f"{n}.md" for n in names], "titles": tuple(names),
              "terms": terms, "titleterms": titles, "objects": {"": [[0, 1, 2, "a"]]},
              "objnames": {"1": ["yl", "passage", "段"]}, "objtypes": {"1": "yl:passage"},
              "envversion": {"sphinx": 65}, "alltitles": {"乡射礼": [[0, None]]}, "indexentries": {}}
    assert index_text(frozen) == js_index.dumps(frozen)
    ordered = in_order(terms)
    assert ordered == terms and list(ordered) == sorted(terms)
    assert in_order(ordered) is ordered  # in order already: not copied


#: Appended to the project's conf.py: whether tshet-uinh was loaded by the end of the build, and
#: whether the build parsed ``searchindex.js`` (Sphinx's ``IndexBuilder.load``) or merged the whole
#: kept index (``merge_terms``) instead of changing its terms in place.
PROBE = """

def _yl_probe(app, exception):
    import sys
    from pathlib import Path
    Path(app.doctreedir, "probe.txt").write_text(" ".join(str(found) for found in (
        "tshet_uinh" in sys.modules, _yl_called.get("load", False), _yl_called.get("merge", False))))


_yl_called = {}


def _yl_spy(owner, name, key):
    original = getattr(owner, name)

    def spy(*args, **kwargs):
        _yl_called[key] = True
        return original(*args, **kwargs)
    setattr(owner, name, spy)


def setup(app):
    import sphinx.search
    import conv.sphinx_ext.speed.search_index as search_index
    _yl_spy(sphinx.search.IndexBuilder, "load", "load")
    _yl_spy(search_index, "merge_terms", "merge")
    app.connect("build-finished", _yl_probe)
"""


def _index(html: Path) -> dict:
    text = (html / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[len("Search.setIndex("):-1])


@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> tuple[Path, Path]:
    """The seeds' edition built, a note edited and built again; then a clean build of the edited
    sources. The two ``html`` directories."""
    base = tmp_path_factory.mktemp("search-kept")
    src = edition(base / "inc")
    with open(src / "conf.py", "a", encoding="utf-8") as conf:
        conf.write(PROBE)
    out = base / "inc-out"
    build(src, out, "-j", "2")
    # the cold build placed glosses; it had no index to parse or merge
    assert (out / "doctrees" / "probe.txt").read_text() == "True False False"
    assert (out / "doctrees" / SEARCH_INDEX_CACHE).is_file()
    add_sentence(src / NOTES_PAGE, f"校记补一：{NEW_WORDS}。")
    build(src, out, "-j", "2")
    # no tshet-uinh; searchindex.js neither parsed nor merged whole: its terms changed in place
    assert (out / "doctrees" / "probe.txt").read_text() == "False False False"
    clean_src = base / "clean" / "source"
    shutil.copytree(src, clean_src)
    clean_out = base / "clean-out"
    build(clean_src, clean_out, "-j", "2")
    return out / "html", clean_out / "html"


def test_note_edit_uses_the_kept_index_and_equals_a_clean_build(edited):
    """The rebuild changes the kept index's terms in place (``edited`` asserts it parsed and merged
    nothing) and writes what a clean build writes; the note's new words are found on the notes page and on the chapter page that shows
    the note. Writing the chapter page again (its glosses' tips) does not load tshet-uinh: the
    positions in words were found when the page was read (``edited`` asserts both builds')."""
    html, clean = edited
    assert differences(html, clean) == []
    index = _index(html)
    pages = index["terms"]["鹪鹩"]
    assert sorted(index["docnames"][n] for n in ([pages] if isinstance(pages, int) else pages)) == [
        "judou/xiangshe", "notes/judou/xiangshe"]


@pytest.mark.browser
def test_search_finds_the_edited_note_in_a_browser(edited, http_server, page):
    """The search page of the rebuilt site finds the note's new words, highlighted, in the note
    on its notes page (a chapter page's results are its passages; the note shown there is the
    notes page's)."""
    base = http_server(edited[0])
    page.goto(f"{base}/search.html?q={quote(NEW_WORDS)}")
    page.wait_for_function("() => { const s = document.querySelector('#search-results p.search-summary');"
                           " return !!(s && s.innerText.trim()); }", timeout=20000)
    results = page.evaluate(RESULTS_JS)
    assert [(urlsplit(r["href"]).path, urlsplit(r["href"]).fragment, r["marked"]) for r in results] == [
        ("notes/judou/xiangshe.html", "note-judou-xiangshe-51", [NEW_WORDS])]
