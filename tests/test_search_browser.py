"""The search page in a browser: headless Debian chromium driven by playwright.

The fixture (tests/fixtures/search) is built three times into a temporary directory served on
127.0.0.1: with the ``lzh`` search language under furo (the edition's theme) and under alabaster,
and as a plain Sphinx build with ``language = 'zh_CN'`` (Sphinx's own Chinese search) as the
baseline. Every query of the set must find exactly the passages ``units.json`` says contain it —
the right page and the right anchor —, with the printed form highlighted in the snippet; the
baseline must find fewer.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest

from conv.sphinx_ext.search.language import needle_forms, needles, parse_scope, search_fold, split_query
from search_helpers import RESULTS_JS

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "search"
UNITS = json.loads((FIXTURE / "units.json").read_text(encoding="utf-8"))

J, T, N = "judou-xiangshe", "tongjie-dashe", "notes"
BIN = {(J, "judou-xiangshe-6"), (J, "judou-xiangshe-7"), (J, "judou-xiangshe-10"),
       (T, "tongjie-dashe-3"), (T, "tongjie-dashe-6"), (T, "tongjie-dashe-8")}
ZHI = {(T, "tongjie-dashe-5"), (T, "tongjie-dashe-9")}
SHENG = {(J, "judou-xiangshe-3"), (T, "tongjie-dashe-4")}
#: query → passages it must find (the result set must also equal what units.json implies)
QUERIES: dict[str, set[tuple[str, str]]] = {
    "觯": ZHI,
    "扑": {(J, "judou-xiangshe-1"), (J, "judou-xiangshe-6"), (J, "judou-xiangshe-10"),
          (T, "tongjie-dashe-1"), (T, "tongjie-dashe-3")},
    "楅": {(J, "judou-xiangshe-8"), (J, "judou-xiangshe-9"), (J, "judou-xiangshe-12"), (N, "note-bi")},
    "司射": {(J, "judou-xiangshe-s1"), (J, "judou-xiangshe-6"), (T, "tongjie-dashe-1"), (T, "tongjie-dashe-3")},
    "释获者": {(J, "judou-xiangshe-10"), (J, "judou-xiangshe-11"), (J, "judou-xiangshe-12"),
            (T, "tongjie-dashe-1"), (T, "tongjie-dashe-2")},
    "释获者坐": {(J, "judou-xiangshe-12")},
    "賔": BIN,
    "宾": BIN,
    "賓": BIN,  # traditional input
    "竒": {(J, "judou-xiangshe-14")},
    "奇": {(J, "judou-xiangshe-14")},
    "乗": SHENG,
    "乘": SHENG,
    "觶": ZHI,  # traditional input
    "禮": {(T, "tongjie-dashe-6"), (N, "note-bi")},  # traditional input, simplified text
    "執弦": {(J, "judou-xiangshe-5")},  # 执 + a PUA 弦 (避讳缺笔) in its own element
    "肝膋": {(T, "tongjie-dashe-7")},  # after U+E14B, the unidentified character (&KR0871;)
    "谓肝": set(),  # U+E14B stands between them: a character, not a spurious code point
    "众无不醉": {(T, "tongjie-dashe-8")},  # a page break (newline) in the 经
    "𫛪": {(T, "tongjie-dashe-7")},  # the page prints 鴽 (t2s_keep)
    "説决拾": {(J, "judou-xiangshe-6"), (T, "tongjie-dashe-1"), (N, "note-shuo")},
    "东面立": set(),  # every character and pair is on the 句读 page, the string is not
    "经:扑": {(J, "judou-xiangshe-1"), (J, "judou-xiangshe-6"), (J, "judou-xiangshe-10"),
             (T, "tongjie-dashe-1"), (T, "tongjie-dashe-3")},
    "經:獲者": {(J, "judou-xiangshe-2"), (J, "judou-xiangshe-4"), (J, "judou-xiangshe-10"),
             (J, "judou-xiangshe-11"), (J, "judou-xiangshe-12"), (T, "tongjie-dashe-1"), (T, "tongjie-dashe-2")},
}


def _match_text(text: str) -> str:
    return search_fold("".join(text.split())).lower()


def expected(query: str, classic: bool = False) -> set[tuple[str, str]]:
    """What the search page must return for ``query``, from units.json (independent of the JS)."""
    prefixed, rest = parse_scope(query)
    classic = classic or prefixed
    wanted = needles(rest)
    found = set()
    for doc, units in UNITS.items():
        for unit in units:
            segments = [_match_text(text) for layer, text in unit["segments"]
                        if not classic or (unit["passage"] and layer in ("jing", "ji"))]
            if segments and all(any(n in s for s in segments) for n in wanted):
                found.add((doc, unit["anchor"]))
    return found


def test_the_oracle_agrees_with_the_query_set() -> None:
    for query, must in QUERIES.items():
        assert must <= expected(query), query


# --- builds, server, browser (conftest: sphinx_build, http_server, browser, page) ---------------

@pytest.fixture(scope="module")
def builds(sphinx_build) -> dict[str, Path]:
    return {
        "lzh": sphinx_build(FIXTURE, "html").outdir,
        "lzh-alabaster": sphinx_build(FIXTURE, "html", "-D", "html_theme=alabaster").outdir,
        # Sphinx's own Chinese search: language zh_CN, no project search language
        "baseline": sphinx_build(FIXTURE, "html", "-D", "extensions=myst_parser", check=False).outdir,
    }


@pytest.fixture(scope="module")
def sites(builds, http_server) -> dict[str, str]:
    """Base URL of each build, served on 127.0.0.1."""
    return {name: http_server(outdir) for name, outdir in builds.items()}


@pytest.fixture
def page(page):
    """conftest's page (own context, zh-CN), recording script errors in ``page.errors``."""
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def wait_for_results(page, timeout: float = 10.0) -> bool:
    """Wait until the search page reports it has finished (or a script error stops it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = page.evaluate("() => { const s = document.querySelector('#search-results p.search-summary');"
                             " return !!(s && s.innerText.trim()); }")
        if done:
            return True
        if page.errors:
            page.wait_for_timeout(300)  # give a broken search a moment, then give up
            return False
        page.wait_for_timeout(50)
    return False


def search(page, base: str, query: str, extra: str = "") -> list[dict]:
    """Run ``query`` on the search page at ``base``; the results as {href, classes, marked}."""
    page.goto(f"{base}/search.html?q={quote(query)}{extra}")
    wait_for_results(page)
    return page.evaluate(RESULTS_JS)


def target(href: str) -> tuple[str, str]:
    parts = urlsplit(href)
    doc = parts.path.rsplit("/", 1)[-1].removesuffix(".html")
    return doc, unquote(parts.fragment)


def found(results: list[dict]) -> set[tuple[str, str]]:
    return {target(result["href"]) for result in results}


# --- the query set ----------------------------------------------------------------------------

#: the whole set under furo (the edition's theme); a sample under alabaster (Sphinx's basic layout)
CASES = [("lzh", query) for query in QUERIES] + [
    ("lzh-alabaster", query) for query in ("觯", "释获者", "賔", "奇", "觶", "執弦", "东面立", "经:扑")
]


@pytest.mark.parametrize(("site", "query"), CASES)
def test_query_finds_its_passages(page, sites, site: str, query: str) -> None:
    results = search(page, sites[site], query)
    assert page.errors == []
    hits = found(results)
    assert len(hits) == len(results), "a passage listed twice"
    assert QUERIES[query] <= hits
    assert hits == expected(query)
    for result in results:
        doc, anchor = target(result["href"])
        assert anchor, "every result links to an anchor"
        assert result["marked"], f"no highlighted match in the snippet of {doc}#{anchor}"


def test_false_positive_page_is_dropped(builds) -> None:
    """东面立: the index alone would return the 句读 page (every character and pair is there)."""
    text = (builds["lzh"] / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[len("Search.setIndex("):-1])
    page_id = index["docnames"].index(J)
    for term in split_query("东面立"):
        value = index["terms"][term]
        assert page_id in (value if isinstance(value, list) else [value]), term
    assert expected("东面立") == set()


@pytest.mark.parametrize(("query", "anchor", "printed"), [
    ("宾", "judou-xiangshe-6", "賔"),  # the page prints the variant: it is what is highlighted
    ("宾", "tongjie-dashe-6", "宾"),
    ("賔", "tongjie-dashe-6", "宾"),
    ("奇", "judou-xiangshe-14", "竒"),
    ("乘", "judou-xiangshe-3", "乗"),
    ("乗", "tongjie-dashe-4", "乘"),
    ("觶", "tongjie-dashe-9", "觯"),
    ("執弦", "judou-xiangshe-5", "执弦"),
    ("众无不醉", "tongjie-dashe-8", "众无不醉"),
    ("释获者", "judou-xiangshe-11", "释获者"),
])
def test_snippet_highlights_the_printed_form(page, sites, query: str, anchor: str, printed: str) -> None:
    results = search(page, sites["lzh"], query)
    result = next(r for r in results if target(r["href"])[1] == anchor)
    assert printed in result["marked"]
    assert "yl-search-passage" in result["classes"]


def test_result_opens_the_passage_with_the_match_highlighted(page, sites) -> None:
    search(page, sites["lzh"], "宾")
    page.click('#search-results a[href*="#judou-xiangshe-6"]')
    page.wait_for_url("**/judou-xiangshe.html*#judou-xiangshe-6")
    assert page.evaluate("() => location.hash") == "#judou-xiangshe-6"
    assert page.evaluate("() => document.getElementById('judou-xiangshe-6').classList.contains('yl-passage')")
    page.wait_for_selector("#judou-xiangshe-6 span.highlighted")
    marked = page.evaluate("() => [...document.querySelectorAll('#judou-xiangshe-6 span.highlighted')]"
                           ".map(s => s.textContent)")
    assert "賔" in marked
    assert page.errors == []


def test_classic_only_checkbox(page, sites) -> None:
    results = search(page, sites["lzh"], "楅", "&jing=1")
    classic = {(J, "judou-xiangshe-8"), (J, "judou-xiangshe-9"), (J, "judou-xiangshe-12")}
    assert found(results) == expected("楅", classic=True) == classic
    assert page.is_checked("#yl-search-classic")
    # unticking searches everything again: the section title 取矢委楅…, the 校记 note
    page.uncheck("#yl-search-classic")
    page.wait_for_url(lambda url: "jing=" not in url)
    wait_for_results(page)
    everything = found(page.evaluate(RESULTS_JS))
    assert everything == expected("楅")
    assert everything >= classic | {(J, "judou-xiangshe-s3"), (N, "note-bi")}
    # the prefix ticks the box and gives the same passages
    assert found(search(page, sites["lzh"], "经:楅")) == classic
    assert page.is_checked("#yl-search-classic")
    assert page.errors == []


def test_classic_only_leaves_out_commentary(page, sites) -> None:
    # 射讲武 is only in the 郑注 of judou-xiangshe-4
    everything = found(search(page, sites["lzh"], "射讲武"))
    assert everything == {(J, "judou-xiangshe-4")}
    assert found(search(page, sites["lzh"], "经:射讲武")) == set()


PARITY = ["释获者", "司射 释获者", "賔乗竒", "經:禮", "jing: 司射", "abc 釋獲者 d_e", "执\ueb8e\ue14b肝", "𫛪鴽薴",
          "Hello World", "司射\u3000释获者", "宾。主人", "众无\n不醉",
          "閒嘗 闲居 間", "經:閒 閒 闲"]


def test_javascript_splits_and_folds_like_python(page, sites) -> None:
    page.goto(sites["lzh"] + "/search.html")
    page.wait_for_function("() => typeof YL_SEARCH !== 'undefined' && typeof splitQuery === 'function'")
    got = page.evaluate("(xs) => xs.map(s => [splitQuery(s), YL_SEARCH.needles(s), YL_SEARCH.needleForms(s),"
                        " YL_SEARCH.fold(s), new Stemmer().stemWord(s)])", PARITY)
    for text, (terms, wanted, forms, folded, stemmed) in zip(PARITY, got):
        assert terms == split_query(text), text
        assert wanted == needles(text), text
        assert [tuple(form) for form in forms] == needle_forms(text), text
        assert folded == stemmed == search_fold(text), text


def test_query_without_han_characters_uses_sphinx_search(page, sites) -> None:
    search(page, sites["lzh"], "yili")
    assert wait_for_results(page)
    assert page.errors == []


def test_baseline_sphinx_chinese_search_finds_fewer(page, sites, capsys) -> None:
    def score(site: str) -> int:
        hits = 0
        for query, must in QUERIES.items():
            if not must:
                continue
            page.errors.clear()
            docs = {doc for doc, _ in found(search(page, sites[site], query))}
            hits += bool(docs & {doc for doc, _ in must})
        return hits

    ours, baseline = score("lzh"), score("baseline")
    with capsys.disabled():
        print(f"\nqueries finding their page: lzh {ours}/{sum(1 for m in QUERIES.values() if m)}, "
              f"Sphinx zh_CN baseline {baseline}")
    assert ours == sum(1 for m in QUERIES.values() if m)
    assert baseline < ours


def test_the_pages_a_query_names_come_first(page, whole_html, http_server) -> None:
    """On the whole edition, 鄉射禮: Sphinx scores alike every page with 乡, 射 or 礼 in a title (乡射义, 乡饮酒礼…), ties
    by name; the 篇 named 乡射礼 come first, the 句读's then the 通解's, each opening with its head, then the pages whose
    title holds the query (its notes, its table of parallels), then the rest, each group in the edition's order."""
    results = search(page, http_server(whole_html.outdir), "鄉射禮")
    assert not page.errors, page.errors
    pages = list(dict.fromkeys(urlsplit(result["href"]).path for result in results))
    assert pages[:4] == ["judou/xiangshe.html", "tongjie/xiangshe.html", "notes/judou/xiangshe.html",
                         "apparatus/parallel-xiangshe.html"], pages[:6]
    assert target(results[0]["href"]) == ("xiangshe", "judou-xiangshe")
    # the rest as the books have them: the 句读's 鄉飲酒禮 before the 通解's, both before the 通解's 鄉射義
    rest = pages[4:]
    assert rest.index("judou/xiangyinjiu.html") < rest.index("tongjie/xiangyinjiu.html") < rest.index(
        "tongjie/xiangsheyi.html"), rest
