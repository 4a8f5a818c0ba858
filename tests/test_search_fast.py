"""The search indexing's fast paths give exactly what the plain definitions give (检索索引快速路径).

``conv/sphinx_ext/search.py`` feeds Sphinx's ``IndexBuilder`` a compact tree per page (its titles,
one keywords node with every word of the page, its index entries) instead of the page's doctree,
splits all the texts of a page at once, folds with ``str.translate`` and memoises the stemmer and
the word filter. Each shortcut is compared here with the computation it replaces: the fold with
a character-by-character fold, :func:`page_terms` with :func:`split_text` text by text, and the
compact feed with Sphinx's own feed of the whole doctree, on generated doctrees and on the
fixture project's pages; a build with the compact feed writes the index a build without writes.
"""
from __future__ import annotations

import pickle
import shutil
import types
from pathlib import Path

import pytest
from docutils import nodes
from docutils.utils import new_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sphinx import addnodes
from sphinx.search import IndexBuilder, SearchLanguage

from conv.sphinx_ext.search import language as search
from conv.sphinx_ext.speed.search_feed import CompactFeed
from conv.sphinx_ext.search.fold import fold_table
from conv.sphinx_ext.search.language import (
    TEXT_BREAK,
    SearchClassicalChinese,
    page_terms,
    search_fold,
    split_text,
    text_terms,
)

ROOT = Path(__file__).resolve().parents[1]
SEARCH_FIXTURE = ROOT / "tests" / "fixtures" / "search"

# Han characters that fold (賔 乗 竒 traditional 禮 觶, PUA 弦, spurious U+E14B, 薴 closed over 苧),
# ones that do not, whitespace (a source newline, U+3000), punctuation, letters, digits, the
# escape null of docutils and the break page_terms puts between texts.
ALPHABET = "司射宾賔乗竒禮觶\ueb8e\ue14b薴苧之也𫛪鴽 \n\u3000\t，。;,:ab Z9_\x00\x01"
TEXTS = st.text(alphabet=ALPHABET, max_size=30)


def plain_fold(text: str) -> str:
    table = fold_table()
    return "".join(table.get(char, char) for char in text)


# -- folding and splitting ---------------------------------------------------------------------

def test_fold_of_every_table_key_is_its_target() -> None:
    keys = "".join(sorted(fold_table()))
    assert search_fold(keys) == plain_fold(keys)
    for char, target in fold_table().items():
        assert search_fold(char) == target


@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
def test_fold_is_the_character_by_character_fold(text: str) -> None:
    assert search_fold(text) == plain_fold(text)


@settings(max_examples=500, deadline=None)
@given(text=TEXTS)
def test_text_terms_are_the_terms_of_split_text(text: str) -> None:
    assert text_terms(text) == set(split_text(text))


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(TEXTS, max_size=8))
def test_page_terms_are_the_union_of_split_text(texts: list[str]) -> None:
    expected = {term for text in texts for term in split_text(text)}
    assert page_terms(texts) == expected


def test_page_terms_keep_texts_apart() -> None:
    # no pair, no word across two texts; a text's own whitespace between Han characters is no break
    assert page_terms(["司", "射"]) == {"司", "射"}
    assert page_terms(["ab", "cd"]) == {"ab", "cd"}
    assert page_terms(["司\n射", "賔"]) == {"司", "射", "司射", "宾"}
    assert TEXT_BREAK not in "".join(fold_table().values())


@settings(max_examples=200, deadline=None)
@given(word=TEXTS)
def test_memoised_stem_and_filter(word: str) -> None:
    lang = SearchClassicalChinese({})
    for _ in range(2):  # computed, then looked up
        assert lang.stem(word) == search_fold(word)
        assert lang.word_filter(word) == SearchLanguage.word_filter(lang, word)


# -- the compact feed --------------------------------------------------------------------------

def new_indexer() -> IndexBuilder:
    """An ``IndexBuilder`` of the language ``lzh`` over an environment of its own."""
    env = types.SimpleNamespace(
        domains=None, version=1, _search_index_titles={}, _search_index_filenames={},
        _search_index_mapping={}, _search_index_title_mapping={}, _search_index_all_titles={},
        _search_index_index_entries={}, _search_index_objtypes={}, _search_index_objnames={})
    return IndexBuilder(env, search.LANG, {}, "")


@pytest.fixture
def lzh(monkeypatch):
    """``new_indexer``, with ``lzh`` among Sphinx's search languages (as a build registers it)."""
    import sphinx.search

    monkeypatch.setitem(sphinx.search.languages, search.LANG, SearchClassicalChinese)
    return new_indexer


def state(builder: IndexBuilder) -> dict:
    return {name: getattr(builder, name) for name in (
        "_titles", "_filenames", "_mapping", "_title_mapping", "_all_titles", "_index_entries")}


def fed_both_ways(lzh, doctrees: dict[str, nodes.Node]) -> tuple[dict, dict]:
    """The indexer's state after Sphinx's own feed of each doctree, and after the compact feed."""
    plain, compact = lzh(), lzh()
    fast = CompactFeed(compact.feed, search.LANG)
    for docname, doctree in doctrees.items():
        plain.feed(docname, f"{docname}.md", f"title of {docname}", doctree)
        fast(docname, f"{docname}.md", f"title of {docname}", doctree)
    return state(plain), state(compact)


ENTRIES = [
    ("single", "主人; 通解·乡射礼", "judou-xiangshe-1", "", "Z"),
    ("single", "主人; 通解·乡射礼", "judou-xiangshe-2", "main", "Z"),
    ("single", "射", "", "", None),
    ("single", "a; b; c", "x", "", None),  # the second part holds a ;
    ("single", "a;", "x", "", None),  # one part with its ;
    ("pair", "宾; 主", "y", "", None),
    ("triple", "a; b", "y", "", None),  # invalid: left out
    ("see", "賔; 宾", "z", "", None),
    ("seealso", "觯; 爵", "", "", None),
    ("nonsense", "x", "", "", None),  # invalid type: left out
]

CLASSES = st.sampled_from([[], ["no-search"], ["yl-jing"], ["yl-zhu", "yl-note"], ["x"]])
IDS = st.lists(st.sampled_from(["s1", "s2", "", "passage-3"]), max_size=2)


class _RawText(nodes.Text):
    """A text node of another class with an ``astext`` of its own (escape nulls kept, a 賔 added)."""

    def astext(self) -> str:
        return str(self) + "賔"


def _text(text: str, raw: bool) -> nodes.Text:
    return _RawText(text) if raw else nodes.Text(text)


def _element(draw_kind: str, children: list[nodes.Node], classes: list[str], ids: list[str],
             text: str, entries: list, words: list[str], lang: str | None) -> nodes.Node:
    texts = [child.deepcopy() for child in children if isinstance(child, nodes.Text)]
    if draw_kind == "paragraph":
        return nodes.paragraph("", "", *children, classes=classes)
    if draw_kind == "inline":
        return nodes.inline("", "", *children, classes=classes)
    if draw_kind == "container":
        return nodes.container("", *children, classes=classes, ids=ids)
    if draw_kind == "section":
        return nodes.section("", nodes.title("", "", *texts), *children, ids=ids)
    if draw_kind == "title":
        return nodes.title("", "", *children, classes=classes)
    if draw_kind == "comment":
        return nodes.comment("", text)
    if draw_kind == "raw":
        return nodes.raw("", f"<p class='a'>{text}</p><script>射</script>", classes=classes,
                         format=["html", "latex", "html latex"][len(text) % 3])
    if draw_kind == "keywords":
        attributes = {} if lang is None else {"lang": lang}
        return nodes.meta(name="keywords", content=",".join(words), **attributes)
    if draw_kind == "description":
        return nodes.meta(name="description", content=",".join(words))
    if draw_kind == "pairs":
        return search.search_pairs("", name="keywords", content=",".join(words))
    if draw_kind == "index":
        return addnodes.index(entries=entries, classes=classes)
    raise AssertionError(draw_kind)


KINDS = st.sampled_from(["paragraph", "inline", "container", "section", "title", "comment", "raw",
                         "keywords", "description", "pairs", "index"])


def trees() -> st.SearchStrategy[nodes.Node]:
    leaves = st.builds(_text, TEXTS, st.booleans())
    return st.recursive(leaves, lambda children: st.builds(
        _element, KINDS, st.lists(children, max_size=4), CLASSES, IDS, TEXTS,
        st.lists(st.sampled_from(ENTRIES), max_size=3),
        st.lists(st.sampled_from(["宾", "司射", " a b ", "", "9", "X"]), max_size=3),
        st.sampled_from([None, search.LANG, "en"])), max_leaves=25)


# (the fixture only registers the language: each example makes its indexers anew)
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(children=st.lists(trees(), max_size=5))
def test_compact_feed_indexes_what_sphinx_indexes(lzh, children: list[nodes.Node]) -> None:
    doctree = new_document("probe")
    doctree.extend(children)
    plain, compact = fed_both_ways(lzh, {"probe": doctree})
    assert compact == plain


def test_compact_feed_of_what_sphinx_skips_or_takes_apart(lzh) -> None:
    """Each rule of Sphinx's walk, once: what it leaves out, what it takes as it is."""
    index = addnodes.index(entries=[ENTRIES[0], ENTRIES[4]])
    doctree = new_document("probe")
    doctree += nodes.section(
        "", nodes.title("", "乡射礼"),
        nodes.paragraph("", "", nodes.Text("司射\x00 适堂西"), nodes.comment("", "注释"),
                        nodes.inline("", "衍字", classes=["no-search"])),
        nodes.raw("", "<b>賔</b>曰<style>觶</style>", format="html"),
        nodes.raw("", "\\textbf{乗}", format="latex"),
        nodes.raw("", "<i>隐</i>", format="html", classes=["no-search"]),
        nodes.container("", nodes.paragraph("", "不索"), index.deepcopy(), classes=["no-search"]),
        nodes.comment("", "", addnodes.index(entries=[ENTRIES[5]])),
        nodes.meta(name="keywords", content="甲, 乙丙 ,,", lang=search.LANG),
        nodes.meta(name="keywords", content="english", lang="en"),
        nodes.meta(name="description", content="描述"),
        index, _RawText("丁\x00戊"),
        ids=["s1"])
    plain, compact = fed_both_ways(lzh, {"probe": doctree})
    assert compact == plain
    words = set(compact["_mapping"])
    assert {"司射", "适堂", "宾", "曰", "甲", "乙丙", "", "丁", "戊宾"} <= words  # 賔 folded
    assert not words & {"注", "衍", "觯", "乘", "隐", "索", "english", "描"}


def test_compact_feed_of_a_page_without_text(lzh) -> None:
    plain, compact = fed_both_ways(lzh, {"empty": new_document("empty")})
    assert compact == plain
    assert "" not in compact["_mapping"]  # no empty keywords node, no empty word


def test_compact_feed_titles_and_their_ids(lzh) -> None:
    doctree = new_document("probe")
    doctree += nodes.section("", nodes.title("", "乡射礼"), nodes.paragraph("", "司射适堂西"),
                             ids=["top"])
    doctree += nodes.section("", nodes.title("", "", nodes.Text("吿于"), nodes.inline("", "賔")),
                             ids=["s1", "s1b"])
    doctree += nodes.section("", nodes.title("", "无id"))
    plain, compact = fed_both_ways(lzh, {"probe": doctree})
    assert compact == plain
    assert compact["_all_titles"]["probe"] == [("乡射礼", None), ("吿于賔", "s1"), ("无id", None)]


def test_compact_feed_on_the_fixture_pages(lzh, fixture_html, sphinx_build) -> None:
    """The fixture project's pages (the edition's own nodes) and the search fixture's, as read."""
    for build in (fixture_html, sphinx_build(SEARCH_FIXTURE, "html")):
        doctrees = {}
        for path in sorted(build.doctreedir.rglob("*.doctree")):
            docname = path.relative_to(build.doctreedir).with_suffix("").as_posix()
            with path.open("rb") as handle:
                doctree = pickle.load(handle)
            pairs = search.boundary_pairs(doctree)
            if pairs:  # as _add_boundary_pairs adds them when the page is resolved
                doctree.append(search.search_pairs("", name="keywords", content=",".join(pairs)))
            doctrees[docname] = doctree
        assert len(doctrees) > 2
        plain, compact = fed_both_ways(lzh, doctrees)
        assert compact == plain
        assert compact["_mapping"]  # the pages have text


# -- in a build --------------------------------------------------------------------------------

#: Appended to the search fixture's conf.py: records which feed the indexer had, and with
#: ``PLAIN_FEED`` disconnects the compact feed (a build in a subprocess, as ``make html`` runs
#: it: an in-process Sphinx would take over the logging of the session's other applications).
PROBE = """

def setup(app):
    from pathlib import Path

    from conv.sphinx_ext.speed import search_feed

    if PLAIN_FEED:
        for listener in list(app.events.listeners["doctree-resolved"]):
            if listener.handler is search_feed._compact_feed:
                app.disconnect(listener.id)

    def record(app, exception):
        feed = app.builder.indexer.feed
        (Path(app.outdir) / "feed.txt").write_text(type(feed).__name__, encoding="utf-8")

    app.connect("build-finished", record)
"""


def build_search_fixture(sphinx_build, tmp_path: Path, plain: bool, *args: str) -> tuple[bytes, str]:
    """The search fixture built; its ``searchindex.js`` and the class of the indexer's feed."""
    src = tmp_path / f"src-{plain}-{'-'.join(args)}"
    shutil.copytree(SEARCH_FIXTURE, src)
    with (src / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f"\nPLAIN_FEED = {plain}\n" + 'extensions.append("conv.sphinx_ext.speed.search_feed")\n' + PROBE)
    out = sphinx_build(src, "html", *args).outdir
    return (out / "searchindex.js").read_bytes(), (out / "feed.txt").read_text(encoding="utf-8")


def test_a_build_feeds_compactly_and_writes_the_same_index(sphinx_build, tmp_path: Path) -> None:
    plain_index, feed = build_search_fixture(sphinx_build, tmp_path, True)
    assert feed == "method"  # IndexBuilder.feed itself
    for args in ((), ("-j", "2")):
        fast_index, feed = build_search_fixture(sphinx_build, tmp_path, False, *args)
        assert feed == CompactFeed.__name__
        assert fast_index == plain_index
