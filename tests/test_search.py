"""The classical Chinese search language ``lzh`` (conv/sphinx_ext/search.py), Python side.

Exact outputs of the splitter, the fold and the query parser; the pairs recovered across inline
markup; and a build of the fixture (tests/fixtures/search): the language is the default, the
index holds folded characters and pairs, the fold table in ``language_data.js`` is the one
Python uses, and the size of ``searchindex.js`` (printed with ``-s``).
"""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from docutils import nodes

from conv import normalize

from conv import datafiles as data
from conv.sphinx_ext.search import language as search
from conv.sphinx_ext.search.fold import fold_table
from conv.sphinx_ext.search.language import (
    SearchClassicalChinese,
    boundary_pairs,
    needles,
    parse_scope,
    search_fold,
    split_query,
    split_text,
)

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "search"


# --- splitting and folding: exact outputs -----------------------------------------------------

@pytest.mark.parametrize(("query", "terms"), [
    ("释获者", ["释", "获", "者", "释获", "获者"]),
    ("司射", ["司", "射", "司射"]),
    ("觯", ["觯"]),
    ("觶", ["觯"]),  # traditional input
    ("賔", ["宾"]),  # 四库 variant form
    ("賓禮", ["宾", "礼", "宾礼"]),
    ("乗矢", ["乘", "矢", "乘矢"]),
    ("竒", ["奇"]),
    ("司射 释获者", ["司", "射", "司射", "释", "获", "者", "释获", "获者"]),  # a space separates words
    ("经:扑", ["扑"]),  # the 经 prefix is no term
    ("經：楅", ["楅"]),
    ("jing: 扑", ["扑"]),
    ("执\ueb8e", ["执", "弦", "执弦"]),  # PUA resolved
    ("谓\ue14b肝", ["谓", "\U000f0367", "肝", "谓\U000f0367", "\U000f0367肝"]),  # U+E14B: an unidentified character (&KR0871;)
    ("𫛪", ["鴽"]),  # t2s_keep, typed in its simplified form
    ("Sphinx 释获", ["释", "获", "释获", "Sphinx"]),
])
def test_split_query(query: str, terms: list[str]) -> None:
    assert split_query(query) == terms


@pytest.mark.parametrize(("text", "terms"), [
    ("吿于賔曰", ["告", "于", "宾", "曰", "告于", "于宾", "宾曰"]),
    ("众无\n不醉", ["众", "无", "不", "醉", "众无", "无不", "不醉"]),  # a source newline is no break
    ("谓\ue14b肝", ["谓", "\U000f0367", "肝", "谓\U000f0367", "\U000f0367肝"]),
    ("右執\ueb8e如", ["右", "执", "弦", "如", "右执", "执弦", "弦如"]),
    ("乡射礼“乃设楅”，郑注", ["乡", "射", "礼", "乡射", "射礼", "乃", "设", "楅", "乃设", "设楅", "郑", "注", "郑注"]),
    ("Sphinx 9 乗矢", ["乘", "矢", "乘矢", "Sphinx", "9"]),
    ("", []),
])
def test_split_text(text: str, terms: list[str]) -> None:
    assert split_text(text) == terms


def test_language_class() -> None:
    lang = SearchClassicalChinese({})
    assert lang.lang == search.LANG == "lzh"
    assert lang.split("释获者") == ["释", "获", "者", "释获", "获者"]
    assert lang.stem("賔") == "宾"
    assert lang.stem("觶") == "觯"
    assert lang.word_filter("宾") and lang.word_filter("宾主")
    assert not lang.word_filter("9")
    assert "var Stemmer" in lang.js_stemmer_code and "YL_SEARCH" in lang.js_stemmer_code
    assert lang.js_splitter_code.strip() == "var splitQuery = YL_SEARCH.splitQuery;"


def test_search_fold() -> None:
    assert search_fold("賔竒乗隂觶賓禮鄉射") == "宾奇乘阴觯宾礼乡射"
    assert search_fold("\uea20\ueb8e\ue5ab\ue172\ue14b") == "玄弦隶惠\U000f0367"
    assert search_fold("薴苧苎") == "苎苎苎"  # closed: 薴→苧→苎
    assert search_fold("𫛪鴽") == "鴽鴽"  # kept traditional form (t2s_keep) found from the simplified


def test_fold_table_is_closed_and_agrees_with_normalize() -> None:
    table = fold_table()
    assert all(table.get(target, target) == target for target in table.values())

    def fixpoint(text: str) -> str:
        while normalize.fold(text) != text:
            text = normalize.fold(text)
        return text

    kept_reverse = {simplified for simplified in data.t2s_keep().values()}
    for char in normalize.search_table():
        assert search_fold(char) == fixpoint(normalize.fold(char)), char
    # every BMP Han character: search folds exactly like the normalized reading text
    for low, high in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF)):
        for char in map(chr, range(low, high + 1)):
            if char not in kept_reverse:
                assert search_fold(char) == fixpoint(normalize.fold(char)), char
    for variant, standard in data.variants().items():
        assert search_fold(variant) == search_fold(standard)


@pytest.mark.parametrize(("query", "expected"), [
    ("经:扑", (True, "扑")),
    ("經：扑", (True, "扑")),
    (" 经 : 司射", (True, "司射")),
    ("JING:扑", (True, "扑")),
    ("经扑", (False, "经扑")),
    ("扑经:", (False, "扑经:")),
])
def test_parse_scope(query: str, expected: tuple[bool, str]) -> None:
    assert parse_scope(query) == expected


@pytest.mark.parametrize(("query", "expected"), [
    ("释获者", ["释获者"]),
    ("司射 释获者", ["司射", "释获者"]),
    ("經:賔", ["宾"]),
    ("执\ueb8e如", ["执弦如"]),
    ("ABC_d 觶", ["abc", "d", "觯"]),
])
def test_needles(query: str, expected: list[str]) -> None:
    assert needles(query) == expected


def test_is_han() -> None:
    assert all(search.is_han(c) for c in "觯楅〇々\ueb8e𫛪\U00030000⺀")
    assert not any(search.is_han(c) for c in "a1　。，〓︰")


# --- pairs cut by inline markup ---------------------------------------------------------------

def _inline(*children, classes=()):
    return nodes.inline("", "", *children, classes=list(classes))


def test_boundary_pairs_across_inline_characters() -> None:
    # as chars.py writes 吿于賔曰: every folding character in its own inline node
    para = nodes.paragraph("", "", _inline(nodes.Text("告")), nodes.Text("于"), _inline(nodes.Text("宾")),
                           nodes.Text("曰"))
    assert boundary_pairs(para) == ["告于", "于宾", "宾曰"]


def test_boundary_pairs_keep_layers_apart() -> None:
    para = nodes.paragraph("", "",
                           _inline(nodes.Text("三耦卒射"), classes=["yl-text", "yl-jing"]),
                           _inline(nodes.Text("去扑乃升"), classes=["yl-note", "yl-zhu"]))
    assert boundary_pairs(para) == []


def test_boundary_pairs_skip_marks_and_whitespace() -> None:
    para = nodes.paragraph("", "", nodes.Text("谓"), _inline(nodes.Text("衍"), classes=["no-search"]),
                           nodes.Text("肝"), nodes.Text("\n"), nodes.Text("膋"))
    assert boundary_pairs(para) == ["谓肝", "肝膋"]


def test_boundary_pairs_in_yl_nodes() -> None:
    """A passage's yl_text and each yl_segment are blocks of their own (inline nodes whose parent
    is no text element)."""

    class passage(nodes.General, nodes.Element):
        pass

    class text(nodes.Inline, nodes.TextElement):
        pass

    node = passage("", text("", "", nodes.Text("执"), _inline(nodes.Text("弦")), classes=["yl-text", "yl-jing"]),
                   text("", "", nodes.Text("如司射"), classes=["yl-note", "yl-zhu"]))
    assert boundary_pairs(node) == ["执弦"]


def test_no_boundary_pairs_from_a_block_inside_no_search() -> None:
    """The copy of a counterpart passage (``yl-parallel no-search``) is searched on its own page
    only: its blocks give this page no pairs."""
    copy = nodes.container("", nodes.paragraph("", "", nodes.Text("在下"), _inline(nodes.Text("谓")),
                                               nodes.Text("宾党")), classes=["yl-parallel", "no-search"])
    page = nodes.section("", nodes.paragraph("", "", nodes.Text("执"), _inline(nodes.Text("弦"))), copy)
    assert boundary_pairs(page) == ["执弦"]


def test_component_is_registered() -> None:
    from conv.sphinx_ext import components

    assert search.setup_search in components.SETUPS


# --- a build of the fixture (conftest.sphinx_build: a sphinx-build subprocess with -W) --------

def load_index(out: Path) -> dict:
    text = (out / "searchindex.js").read_text(encoding="utf-8")
    assert text.startswith("Search.setIndex(") and text.endswith(")")
    return json.loads(text[len("Search.setIndex("):-1])


def docs_of(index: dict, term: str) -> set[str]:
    found = set()
    for mapping in (index["terms"], index["titleterms"]):
        value = mapping.get(term)
        if value is not None:
            found |= {index["docnames"][i] for i in (value if isinstance(value, list) else [value])}
    return found


@pytest.fixture(scope="module")
def out(sphinx_build) -> Path:
    """The fixture built as HTML (no warnings: the build runs with -W)."""
    return sphinx_build(FIXTURE, "html").outdir


def test_lzh_is_the_default_search_language(out: Path) -> None:
    # conf.py sets language = 'zh_CN' and no html_search_language: the extension chose lzh
    assert "YL_SEARCH" in (out / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert 'lang="zh-CN"' in (out / "search.html").read_text(encoding="utf-8")  # UI stays zh_CN


def test_index_holds_folded_characters_and_pairs(out: Path) -> None:
    index = load_index(out)
    pages = {"judou-xiangshe", "tongjie-dashe"}
    assert docs_of(index, "宾") >= pages  # 賔 in 句读, 宾 in 通解
    assert docs_of(index, "乘") >= pages  # 乗 / 乘
    assert "judou-xiangshe" in docs_of(index, "奇")
    for term in ("觯", "扑", "楅", "司射", "释获", "获者"):
        assert docs_of(index, term), term
    for raw in ("賔", "乗", "竒", "隂", "\ueb8e", "\ue14b"):
        assert not docs_of(index, raw), raw  # only folded forms are indexed
    # pairs that only exist across inline markup or a source newline
    assert "judou-xiangshe" in docs_of(index, "执弦")  # 执<yl-char>弦</yl-char>
    assert "judou-xiangshe" in docs_of(index, "于宾")  # 吿于<yl-char>賔</yl-char>
    assert "tongjie-dashe" in docs_of(index, "谓\U000f0367")  # 谓<U+E14B, the unidentified &KR0871;>肝
    assert not docs_of(index, "谓肝")
    assert "tongjie-dashe" in docs_of(index, "无不")  # 众无\n不醉
    assert not docs_of(index, "位扑")  # 以反位 | 【扑所以…】: 经 and 注 never join


def test_language_data_carries_the_generated_table(out: Path) -> None:
    js = (out / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert "ChineseStemmer" not in js
    match = re.search(r"const table = (\{.*?\});\n", js)
    assert match, "fold table missing from language_data.js"
    assert json.loads(match.group(1)) == fold_table()
    assert "var splitQuery = YL_SEARCH.splitQuery;" in js


def test_search_page_loads_the_passage_search(out: Path) -> None:
    page = (out / "search.html").read_text(encoding="utf-8")
    assert re.search(r'<script defer="defer" src="_static/search-lzh\.js', page)
    assert "_static/search-lzh.css" in page
    assert "search-lzh" not in (out / "judou-xiangshe.html").read_text(encoding="utf-8")
    assert (out / "_static" / "search-lzh.js").is_file()
    assert (out / "_static" / "search-lzh.css").is_file()


def test_index_size_of_the_fixture(out: Path) -> None:
    size = (out / "searchindex.js").stat().st_size
    print(f"\nsearchindex.js (fixture, 3 pages of seed text): {size} bytes")
    assert size < 64_000


def test_index_size_of_all_seeds(tmp_path: Path, sphinx_build) -> None:
    """All five seeds as plain paragraphs (no notes markup): the size to expect per 100 kB of text."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['myst_parser', 'conv.sphinx_ext.search.language']\nlanguage = 'zh_CN'\nhtml_theme = 'basic'\n",
        encoding="utf-8")
    names, han = [], 0
    for seed in sorted((ROOT / "seeds").glob("*.txt")):
        text = seed.read_text(encoding="utf-8")
        han += sum(1 for char in text if search.is_han(char))
        paragraphs = [p.strip() for p in re.split(r"[【】○\u3000\n]+", text) if p.strip()]
        names.append(f"s{seed.name[:3]}")
        (src / f"{names[-1]}.md").write_text(f"# {names[-1]}\n\n" + "\n\n".join(paragraphs) + "\n",
                                             encoding="utf-8")
    (src / "index.md").write_text("# index\n\n```{toctree}\n" + "\n".join(names) + "\n```\n", encoding="utf-8")
    out = sphinx_build(src, "html").outdir
    index = load_index(out)
    size = (out / "searchindex.js").stat().st_size
    singles = sum(1 for term in index["terms"] if len(term) == 1)
    pairs = sum(1 for term in index["terms"] if len(term) == 2)
    print(f"\nsearchindex.js (all seeds, {han} Han characters, 5 pages): {size} bytes, "
          f"{singles} characters, {pairs} pairs")
    assert size < 600_000
    assert pairs > 10 * singles


def test_fixture_is_generated(tmp_path: Path) -> None:
    """The committed fixture pages are what make_fixture.py writes (from the seeds)."""
    spec = importlib.util.spec_from_file_location("make_fixture", FIXTURE / "make_fixture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.HERE = tmp_path
    module.main()
    for path in tmp_path.iterdir():
        assert path.read_text(encoding="utf-8") == (FIXTURE / path.name).read_text(encoding="utf-8"), path.name


def test_no_character_folds_beyond_the_fonts():
    """The normalized text never holds a character of CJK Extension G or later (U+30000…): no
    font the edition sets (Noto CJK, HanaMinA/B) has one, so the PDF and most browsers would show
    tofu. OpenCC t2s folds 繐 菕 譅 鋂 鑀 𪈼 there (繐 → U+30B38, in 丧服); they are kept as printed
    (``conv/data/t2s_keep.tsv``), as 鴽 is."""
    for low, high in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2EBEF)):
        for char in map(chr, range(low, high + 1)):
            assert all(ord(c) < 0x30000 for c in normalize.fold(char)), char
    assert normalize.fold("繐衰") == "繐衰"


# The pairs as first written (an upward walk from every text node to its block): the oracle of the
# one-walk-down algorithm of ``boundary_pairs``.
def _reference_pairs(doctree) -> list[str]:
    from conv.sphinx_ext.search.language import LAYER_CLASSES, is_han, search_fold, search_pairs

    def segment_of(text, block):
        node, segment = text.parent, None
        while node is not None:
            if isinstance(node, (nodes.comment, nodes.raw, search_pairs)):
                return None
            if isinstance(node, nodes.Element) and "no-search" in node.get("classes", ()):
                return None
            if segment is None and isinstance(node, nodes.Element) and (
                    node is block or LAYER_CLASSES.intersection(node.get("classes", ()))):
                segment = node
            if node is block:
                break
            node = node.parent
        while node is not None:  # a block inside an element search leaves out is not searched
            if isinstance(node, (nodes.comment, nodes.raw, search_pairs)) or (
                    isinstance(node, nodes.Element) and "no-search" in node.get("classes", ())):
                return None
            node = node.parent
        return segment

    pairs = []
    for block in doctree.findall(nodes.TextElement):
        if isinstance(block.parent, nodes.TextElement):
            continue
        previous_segment, previous_char = None, ""
        for text in block.findall(nodes.Text):
            segment = segment_of(text, block)
            if segment is None:
                continue
            stripped = search_fold(str(text)).strip()
            if not stripped:
                continue
            if segment is previous_segment and previous_char and is_han(previous_char) and is_han(stripped[0]):
                pairs.append(previous_char + stripped[0])
            previous_segment, previous_char = segment, stripped[-1]
    return list(dict.fromkeys(pairs))


_CLASSES = st.lists(st.sampled_from(["yl-jing", "yl-zhu", "yl-text", "no-search", "yl-w", "other"]),
                    max_size=2, unique=True)
_TEXT = st.text(alphabet="宾曰于賔 \na", min_size=0, max_size=3).map(nodes.Text)


def _tree(children):
    element = st.sampled_from([nodes.paragraph, nodes.inline, nodes.container, nodes.comment, nodes.section])
    return st.builds(lambda kind, classes, kids: kind("", "", *kids, classes=classes)
                     if issubclass(kind, nodes.TextElement) else kind("", *kids, classes=classes),
                     element, _CLASSES, st.lists(children, max_size=4))


@given(st.recursive(_TEXT, _tree, max_leaves=25).filter(lambda n: isinstance(n, nodes.Element)))
@settings(max_examples=300, deadline=None)
def test_boundary_pairs_as_the_upward_walk_found_them(tree) -> None:
    """Any tree of paragraphs, inlines, containers, comments and sections, with layer and
    ``no-search`` classes, blocks inside blocks: the same pairs in the same order."""
    document = nodes.document(None, None)
    document += tree
    assert boundary_pairs(document) == _reference_pairs(document)
