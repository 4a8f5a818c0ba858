"""Citing passages (conv/sphinx_ext/domain.py, cite.py, permalink.py): the yl domain's objects in
objects.inv, ``yl:cite`` and ``{ref}``, redirected anchors, the permalink, LaTeX labels and page
references. The whole edition is built (``-j auto``) from a ledger with redirects
(``tests/citing.py``) and a hand-written page that cites passages."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sphinx.util.inventory import InventoryFile

from citing import FINAL, REDIRECTS, cited_edition_source
from conftest import ROOT
from smallsite import small_project


@pytest.fixture(scope="module")
def edition(tmp_path_factory, sphinx_build):
    src, _ = cited_edition_source(tmp_path_factory)
    return sphinx_build(src, "html", "-j", "auto")


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> dict:
    """The JSON export of the whole edition with the same ledger."""
    _, ledger = cited_edition_source(tmp_path_factory)
    proc = subprocess.run([sys.executable, "-m", "conv", "dump", "--edition", "seeds", "--json", "--ledger", str(ledger)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def inventory(edition) -> dict:
    with (edition.outdir / "objects.inv").open("rb") as handle:
        return InventoryFile.load(handle, "", lambda base, uri: uri)


@pytest.fixture(scope="module")
def site_ids(edition) -> dict[str, Counter]:
    """Page (relative path) → how often each id occurs on it, for every HTML page of the site."""
    found = {}
    for page in edition.outdir.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        found[page.relative_to(edition.outdir).as_posix()] = Counter(tag["id"] for tag in soup.find_all(id=True))
    return found


def anchors_of(export: dict) -> dict[str, tuple[str, str]]:
    """Every anchor of the export → (kind, page)."""
    out = {}
    for work in export["works"]:
        for chapter in work["chapters"]:
            page = f"{work['id']}/{chapter['id']}.html"
            out[f"{work['id']}-{chapter['id']}"] = ("chapter", page)
            for section in chapter["sections"]:
                out[section["id"]] = ("section", page)
                for passage in section["passages"]:
                    out[passage["id"]] = ("passage", page)
    return out


def item(inventory: dict, objtype: str, name: str):
    entry = inventory[objtype][name]
    return entry.uri, entry.display_name


# -- anchors in the built HTML -------------------------------------------------------------------

def test_every_anchor_is_unique_and_resolves(export, site_ids, inventory):
    anchors = anchors_of(export)
    assert sum(kind == "passage" for kind, _ in anchors.values()) > 400
    everywhere = Counter()
    for page, ids in site_ids.items():
        assert not [i for i, n in ids.items() if n > 1], f"duplicate ids on {page}"
        everywhere.update(ids)
    for anchor, (kind, page) in anchors.items():
        assert everywhere[anchor] == 1, (anchor, everywhere[anchor])
        assert site_ids[page][anchor] == 1, (anchor, page)
        uri, _ = item(inventory, f"yl:{kind}", anchor)
        assert uri == f"{page}#{anchor}"
    # redirected anchors: once, on the page of the passage they land on, which objects.inv names
    redirects = {r["from"]: r["to"] for r in export["redirects"]}
    assert redirects == FINAL
    for old, to in redirects.items():
        kind, page = anchors[to]
        assert everywhere[old] == 1 and site_ids[page][old] == 1
        uri, _ = item(inventory, f"yl:{kind}", old)
        assert uri == f"{page}#{to}"


def test_redirected_ids_are_on_the_target(edition):
    soup = BeautifulSoup(edition.html("judou/xiangshe"), "html.parser")
    passage = soup.find(id="judou-xiangshe-12")
    assert "yl-passage" in passage["class"]
    assert soup.find(id="judou-xiangshe-900").find_parent(class_="yl-passage") is passage
    assert soup.find(id="judou-xiangshe-901").find_parent(class_="yl-passage") is passage
    assert soup.find(id="judou-xiangshe-s900").find_parent("section")["id"] == "judou-xiangshe-s1"
    yanli = BeautifulSoup(edition.html("judou/yanli"), "html.parser")
    assert yanli.find(id="judou-yanli-900").find_parent("section")["id"] == "judou-yanli"


def test_objects_inv_names_and_display_names(inventory):
    uri, name = item(inventory, "yl:passage", "judou-xiangshe-12")
    assert (uri, name) == ("judou/xiangshe.html#judou-xiangshe-12", "《句读·乡射礼》司马出于下射之南还其后降…")
    assert item(inventory, "yl:section", "judou-xiangshe-s1") == ("judou/xiangshe.html#judou-xiangshe-s1", "《句读·乡射礼》司射诱射")
    assert item(inventory, "yl:chapter", "tongjie-dashe") == ("tongjie/dashe.html#tongjie-dashe", "《通解·大射仪》")
    # every passage is also a std label, with the same title
    assert item(inventory, "std:label", "judou-xiangshe-12") == (uri, name)
    assert item(inventory, "std:label", "judou-xiangshe-900") == (uri, name)
    assert set(inventory) >= {"yl:passage", "yl:section", "yl:chapter", "std:label"}


def test_domain_data_after_parallel_read(edition, export):
    import pickle

    with (edition.doctreedir / "environment.pickle").open("rb") as handle:
        data = pickle.load(handle).domaindata["yl"]
    anchors = anchors_of(export)
    assert set(data["passages"]) == {a for a, (kind, _) in anchors.items() if kind == "passage"}
    assert set(data["sections"]) == {a for a, (kind, _) in anchors.items() if kind != "passage"}
    assert {old: entry["to"] for old, entry in data["redirects"].items()} == FINAL


def test_apparatus_entries_are_citable_objects(edition, inventory):
    """Each 校勘记 entry is a ``yl:entry`` object under its id, named as the 校勘记 says to cite it:
    citable (``yl:cite``, other projects' intersphinx), never a search result (priority -1: the
    search finds its words on its page)."""
    import pickle

    assert item(inventory, "yl:entry", "judou-xiangshe-18-jiao-1") == (
        "apparatus/judou.html#judou-xiangshe-18-jiao-1", "句读·乡射礼18校1")
    with (edition.doctreedir / "environment.pickle").open("rb") as handle:
        entries = pickle.load(handle).domaindata["yl"]["entries"]
    assert entries["judou-xiangshe-18-jiao-1"] == {"docname": "apparatus/judou", "title": "乡射礼18校1",
                                                   "locus": "judou-xiangshe-18"}
    assert set(inventory["yl:entry"]) == set(entries) and len(entries) > 100
    assert "judou-xiangshe-18-jiao-1" not in (edition.outdir / "searchindex.js").read_text(encoding="utf-8")


# -- yl:cite and {ref} ---------------------------------------------------------------------------

def cites(edition) -> list:
    soup = BeautifulSoup(edition.html("cites"), "html.parser")
    return soup.select("article li")


def test_cite_page_resolves(edition):
    items = cites(edition)
    links = [(li.get_text(), li.a["href"] if li.a else None) for li in items]
    passage = "judou/xiangshe.html#judou-xiangshe-12"
    assert links == [
        ("默认：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("自定：乡射之文", passage),
        ("章：《句读·乡射礼》司射诱射", "judou/xiangshe.html#judou-xiangshe-s1"),
        ("篇：《通解·大射仪》", "tongjie/dashe.html#tongjie-dashe"),
        ("重定向：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("链式重定向：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("章重定向：《句读·乡射礼》司射诱射", "judou/xiangshe.html#judou-xiangshe-s1"),
        ("篇重定向：《句读·燕礼》", "judou/yanli.html#judou-yanli"),
        ("std：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("std 旧锚：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("any：《通解·大射仪》不胜者皆袭说决拾郤左手右…", "tongjie/dashe.html#tongjie-dashe-3"),
    ]
    cite = items[0].select_one("span.yl-cite")
    assert cite["data-anchor"] == "judou-xiangshe-12"
    assert cite.a["title"] == "《仪礼郑注句读·乡射礼》“司马出于下射之南还其后降…”，judou-xiangshe-12"
    assert "原锚点 judou-xiangshe-900" in items[4].a["title"]


BAD = """\
---
orphan: true
---

# 坏引用

见 {yl:cite}`judou-xiangshe-1`。

又见 {yl:cite}`judou-xiangshe-99`，再见 {yl:cite}`旧文 <nowhere-at-all>`。
"""


def test_unknown_anchor_fails_the_build_at_file_and_line(tmp_path, sphinx_build):
    build = sphinx_build(small_project(tmp_path, {"bad.md": BAD}), "html", check=False)
    assert build.returncode != 0
    lines = [line for line in build.warnings.splitlines() if "unknown anchor" in line]
    assert len(lines) == 2, build.warnings[-3000:]
    assert re.search(r"bad\.md:9: WARNING: yl:cite: unknown anchor 'judou-xiangshe-99'.*did you mean "
                     r"judou-xiangshe-9\b.*\[yl\.cite\]", lines[0]), lines[0]
    assert re.search(r"bad\.md:9: WARNING: yl:cite: unknown anchor 'nowhere-at-all'", lines[1]), lines[1]


# -- yl:redirect -----------------------------------------------------------------------------------

PAGE = """\
({p}-chapter)=
# 乡射礼

({p}-s1)=
## 司射诱射

::::{{yl:passage}} {p}-1
:layer: jing

司马命获者执旌以负侯
::::

{redirect}
"""


def probe(myst_app, name: str, redirect: str):
    """Parse a page whose anchors start with ``name`` (unique in the shared app): (doctree, warnings)."""
    myst_app.take_warnings()
    doctree = myst_app.parse(PAGE.format(p=name, redirect=redirect.format(p=name)), docname=name)
    return doctree, myst_app.take_warnings()


@pytest.mark.parametrize("name, redirect, message", [
    ("redir-a", ":::{{yl:redirect}} {p}-9\n:to: {p}-2\n:::", "its target 'redir-a-2' is not on this page"),
    ("redir-b", ":::{{yl:redirect}} {p}-s1\n:to: {p}-1\n:::", "'redir-b-s1' is already an id on this page"),
    ("redir-c", ":::{{yl:redirect}} {p}-9\n:::", ":to: '' is not a valid anchor"),
])
def test_bad_redirects_warn(myst_app, name, redirect, message):
    _, warnings = probe(myst_app, name, redirect)
    assert message in warnings and "[yl.anchor]" in warnings


def test_redirect_lands_on_the_passage_in_process(myst_app):
    from conv.sphinx_ext.nodes import yl_passage

    doctree, warnings = probe(myst_app, "redir-ok", ":::{{yl:redirect}} {p}-7\n:to: {p}-1\n:::")
    assert warnings == ""
    passage = next(doctree.findall(yl_passage))
    assert passage["ids"] == ["redir-ok-1", "redir-ok-7"]
    html = myst_app.html(passage)
    assert html.startswith('<div class="yl-passage yl-jing" data-layer="jing" id="redir-ok-1"><span id="redir-ok-7"></span>')
    assert html.endswith('<a class="yl-permalink" href="#redir-ok-1" data-anchor="redir-ok-1" data-cite="《乡射礼》“司马命获者执旌以负侯”，redir-ok-1" '
                         'title="引用此段：复制引文（篇名、锚点、网址）" aria-label="引用此段 redir-ok-1"></a></span></div>\n')


def test_writer_emits_the_ledgers_redirects(tmp_path):
    from conv.edition import assemble
    from conv.myst import writer
    from conv.anchors.ledger import Ledger

    from citing import write_ledger

    edition = assemble.convert(sorted((ROOT / "seeds").glob("*.txt")), ledger=Ledger.load(write_ledger(tmp_path / "a.tsv")))
    pages = writer.pages(edition)
    xiangshe = pages["judou/xiangshe.md"]
    passage = xiangshe.index("::::{yl:passage} judou-xiangshe-12\n")
    redirect = xiangshe.index(":::{yl:redirect} judou-xiangshe-900\n:to: judou-xiangshe-12\n:::\n")
    assert passage < redirect < xiangshe.index("::::{yl:passage} judou-xiangshe-13\n")
    assert ":::{yl:redirect} judou-xiangshe-901\n:to: judou-xiangshe-12\n:::\n" in xiangshe
    assert "## 司射诱射\n\n:::{yl:redirect} judou-xiangshe-s900\n:to: judou-xiangshe-s1\n:::\n" in xiangshe
    assert "# 燕礼\n\n:::{yl:redirect} judou-yanli-900\n:to: judou-yanli\n:::\n" in pages["judou/yanli.md"]
    assert sum(page.count("{yl:redirect}") for page in pages.values()) == len(REDIRECTS)


# -- the permalink ---------------------------------------------------------------------------------

def test_every_passage_has_a_permalink(edition, export):
    anchors = anchors_of(export)
    for page in sorted({page for kind, page in anchors.values()}):
        soup = BeautifulSoup((edition.outdir / page).read_text(encoding="utf-8"), "html.parser")
        for div in soup.select("div.yl-passage"):
            links = div.select("a.yl-permalink")
            # one, in the passage's end (after its page, at the right of its last line)
            assert len(links) == 1 and links[0].parent.parent is div and "yl-end" in links[0].parent["class"], div["id"]
            link = links[0]
            assert link["href"] == f"#{div['id']}" and link["data-anchor"] == div["id"]
            assert link.get_text() == ""  # the mark is generated content: never part of the text
            assert link["data-cite"].endswith("，" + div["id"]) and link["aria-label"]
    soup = BeautifulSoup(edition.html("judou/xiangshe"), "html.parser")
    link = soup.select_one("#judou-xiangshe-12 a.yl-permalink")
    assert link["data-cite"] == "《仪礼郑注句读·乡射礼》“司马出于下射之南还其后降…”，judou-xiangshe-12"
    head = edition.html("judou/xiangshe")
    assert "_static/permalink.js" in head and "_static/permalink.css" in head


# -- LaTeX -----------------------------------------------------------------------------------------

LATEX_CITES = """\
# 引用

见 {yl:cite}`judou-xiangshe-12` 与 {yl:cite}`司射 <judou-xiangshe-s1>`。
"""


@pytest.fixture(scope="module")
def latex_project(tmp_path_factory) -> Path:
    return small_project(tmp_path_factory.mktemp("latex-cites"), {"cites.md": LATEX_CITES}, toctree=True)


def test_latex_anchors_are_labels_and_cites_page_references(latex_project, sphinx_build):
    from conv.sphinx_ext.nodes import yl_passage

    build = sphinx_build(latex_project, "latex")
    tex = (build.outdir / "yili.tex").read_text(encoding="utf-8")
    html = sphinx_build(latex_project, "html")
    for docname in ("judou/xiangshe", "judou/yanli", "tongjie/xiangyinjiu", "tongjie/dashe"):
        for passage in html.doctree(docname).findall(yl_passage):
            label = r"\label{\detokenize{%s:%s}}" % (docname, passage["ids"][0])
            assert tex.count(label) == 1, label
    assert r"\label{\detokenize{judou/xiangshe:judou-xiangshe-s1}}" in tex
    link = r"{\hyperref[\detokenize{judou/xiangshe:judou-xiangshe-12}]{\sphinxcrossref{"
    assert link in tex
    # the edition's conf.py sets latex_show_pagerefs: Sphinx's own page reference, once
    after = tex[tex.index(link):][:400]
    assert r"(\autopageref*{\detokenize{judou/xiangshe:judou-xiangshe-12}})" in after
    assert r"\pageref{" not in after


def test_latex_page_reference_without_show_pagerefs(latex_project, sphinx_build):
    build = sphinx_build(latex_project, "latex", "-D", "latex_show_pagerefs=0")
    tex = (build.outdir / "yili.tex").read_text(encoding="utf-8")
    assert re.search(r"\{\\hyperref\[\\detokenize\{judou/xiangshe:judou-xiangshe-12\}\]\{\\sphinxcrossref\{.*?《句读·乡射礼》"
                     r"司马出于下射之南还其后降…\}+（第\\pageref\{\\detokenize\{judou/xiangshe:judou-xiangshe-12\}\}页）", tex)
    assert r"（第\pageref{\detokenize{judou/xiangshe:judou-xiangshe-s1}}页）" in tex
    assert r"\autopageref" not in tex[tex.index("judou-xiangshe-12}]"):][:300]


# -- in a browser ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(edition, http_server) -> str:
    return http_server(edition.outdir)


CITATION = "《仪礼郑注句读·乡射礼》“司马出于下射之南还其后降…”，judou-xiangshe-12 {url}#judou-xiangshe-12"


@pytest.mark.browser
def test_permalink_copies_the_citation(browser, site, screenshots):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    try:
        page = context.new_page()
        page.goto(f"{site}/judou/xiangshe.html#judou-xiangshe-12")
        link = page.locator("#judou-xiangshe-12 > .yl-end > a.yl-permalink")
        assert link.is_visible()
        box = link.bounding_box()
        assert box["width"] > 4 and box["height"] > 4
        assert page.evaluate("getComputedStyle(document.querySelector('#judou-xiangshe-12 > .yl-end > a.yl-permalink'), '::before').content") == '"引"'
        link.focus()  # keyboard: focusable, Enter activates
        assert page.evaluate("document.activeElement.matches('#judou-xiangshe-12 > .yl-end > a.yl-permalink')")
        page.keyboard.press("Enter")
        shown = page.locator(".yl-cite-box")
        shown.wait_for()
        expected = CITATION.format(url=f"{site}/judou/xiangshe.html")
        assert shown.locator(".yl-cite-box-message").inner_text() == "已复制引文"
        assert shown.locator("textarea").input_value() == expected
        assert page.evaluate("navigator.clipboard.readText()") == expected
        page.screenshot(path=str(screenshots / "permalink-copied.png"))
        page.keyboard.press("Escape")
        assert page.locator(".yl-cite-box").count() == 0
        assert page.evaluate("document.activeElement.matches('#judou-xiangshe-12 > .yl-end > a.yl-permalink')")
        assert page.evaluate("location.hash") == "#judou-xiangshe-12"
    finally:
        context.close()


@pytest.mark.browser
def test_permalink_shows_the_citation_without_a_clipboard(browser, site, screenshots):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined});"
                            "document.execCommand = function () { return false; };")
    try:
        page = context.new_page()
        page.goto(f"{site}/judou/xiangshe.html")
        page.locator("#judou-xiangshe-12 > .yl-end > a.yl-permalink").click()
        shown = page.locator(".yl-cite-box")
        shown.wait_for()
        assert shown.is_visible()
        assert "请复制引文" in shown.locator(".yl-cite-box-message").inner_text()
        field = shown.locator("textarea")
        assert field.input_value() == CITATION.format(url=f"{site}/judou/xiangshe.html")
        selected = page.evaluate("[document.activeElement.selectionStart, document.activeElement.selectionEnd]")
        assert selected == [0, len(field.input_value())]  # selected, ready for Ctrl+C
        page.screenshot(path=str(screenshots / "permalink-fallback.png"))
        page.locator("h1").click()
        assert page.locator(".yl-cite-box").count() == 0
    finally:
        context.close()


@pytest.mark.browser
def test_old_anchor_lands_on_the_new_passage(page, site):
    page.goto(f"{site}/judou/xiangshe.html#judou-xiangshe-900")
    page.wait_for_function("window.scrollY > 0")  # the scroll to the fragment follows the load
    page.wait_for_timeout(300)
    top = page.evaluate("document.getElementById('judou-xiangshe-12').getBoundingClientRect().top")
    toolbar = page.evaluate("document.querySelector('.yl-toolbar').getBoundingClientRect().bottom")
    assert toolbar <= top < 300  # below the sticky toolbar, at the top of the window
    assert page.evaluate("document.querySelector('.yl-passage:has(> span[id]:target)').id") == "judou-xiangshe-12"
