"""The fixture project (real seed text in the FORMAT.md format) builds with ``-W`` and renders
every layer: doctree nodes, their exact texts, the ``yl`` domain data and the HTML."""
from __future__ import annotations

import pickle
import re

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT
from conv.sphinx_ext.nodes import yl_char, yl_forms
from conv.sphinx_ext.util import witness_text
from conv.sphinx_ext.nodes import yl_gloss
from conv.sphinx_ext.nodes import yl_segment
from conv.sphinx_ext.nodes import yl_lacuna, yl_meta
from conv.sphinx_ext.nodes import yl_passage, yl_text
from conv.sphinx_ext.nodes import yl_chaptertitle, yl_title

CHAPTERS = ["judou/xiangshe", "judou/yanli", "tongjie/xiangyinjiu", "tongjie/dashe"]
SEED_OF = {
    "judou/xiangshe": "000_065af0aba9fcdf9d.txt",
    "judou/yanli": "001_45851f803ca218c2.txt",
    "tongjie/xiangyinjiu": "003_888d6f7486f7550d.txt",
    "tongjie/dashe": "004_5ef5e70c2cb7984b.txt",
}
PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
MARKUP = re.compile(r"[\s【】○\u3000]")


def seed_text(name: str) -> str:
    """The seed without whitespace and markup characters (【】○, U+3000)."""
    return MARKUP.sub("", (ROOT / "seeds" / name).read_text(encoding="utf-8"))


def notes_of(node) -> list[tuple[str, str]]:
    return [(n["layer"], witness_text(n)) for n in node.children if isinstance(n, yl_segment)]


def words_of(node) -> str:
    return "".join(witness_text(n) for n in node.children if isinstance(n, yl_text))


def passage(doctree, anchor: str):
    found = [p for p in doctree.findall(yl_passage) if anchor in p["ids"]]
    assert len(found) == 1, anchor
    return found[0]


@pytest.fixture(scope="module")
def doctrees(fixture_html):
    return {name: fixture_html.doctree(name) for name in CHAPTERS}


@pytest.fixture(scope="module")
def soups(fixture_html):
    return {name: BeautifulSoup(fixture_html.html(name), "html.parser") for name in CHAPTERS}


# -- the build ------------------------------------------------------------------------------------

def test_build_has_no_warnings(fixture_html):
    assert fixture_html.returncode == 0
    assert "WARNING" not in fixture_html.stderr
    assert "ERROR" not in fixture_html.stderr


# -- doctree: every passage is the witness, nothing lost or changed -------------------------------

@pytest.mark.parametrize("docname", CHAPTERS)
def test_every_line_is_witness_text(doctrees, docname):
    """Words + notes of each passage, title and chapter title, markup removed, stand in the seed
    exactly as printed (witness forms and PUA code points included)."""
    seed = seed_text(SEED_OF[docname])
    lines = list(doctrees[docname].findall(
        lambda n: isinstance(n, (yl_passage, yl_title, yl_chaptertitle, yl_meta))))
    assert lines
    for line in lines:
        text = witness_text(line)
        if isinstance(line, yl_meta):
            text = MARKUP.sub("", text)
        assert text and text in seed, (line.get("ids") or line.tagname, text[:40])


def test_passage_layers_exact(doctrees):
    xiangshe = doctrees["judou/xiangshe"]
    p = passage(xiangshe, "judou-xiangshe-3")
    assert p["layer"] == "jing" and p["source"] == "000_065af0aba9fcdf9d.txt:7:1"
    assert words_of(p) == "司马命获者执旌以负侯"
    assert notes_of(p) == [
        ("zhu", "欲令射者见侯与旌深有志于中"),
        ("an", "上文命张侯倚旌疏云同是西阶前至此未有他事当亦西阶前命之也"),
    ]
    p = passage(xiangshe, "judou-xiangshe-13")
    assert words_of(p) == "司射进与司马交于阶前相左由堂下西阶之东北面视上射命曰无射获无猎获上射揖司射退反位"
    assert notes_of(p) == [
        ("zhu", "射获谓矢中人也猎矢从旁"),
        ("shu", "疏云相左之时在西阶之西司马由北而西行司射由南而东行各以左相近故云相左也"),
        ("yin", "无射之射食亦反"),
    ]
    tongjie = doctrees["tongjie/xiangyinjiu"]
    p = passage(tongjie, "tongjie-xiangyinjiu-2")
    assert words_of(p) == "主人揖升坐取爵于西楹下降洗升实爵于西阶上献众宾众宾之长升拜受者三人"
    assert [layer for layer, _ in notes_of(p)] == ["yin", "zhu", "shu"]
    assert notes_of(p)[0] == ("yin", "长丁丈反")


def test_ji_passages_after_title(doctrees):
    tongjie = doctrees["tongjie/xiangyinjiu"]
    ji = [p for p in tongjie.findall(yl_passage) if p["layer"] == "ji"]
    assert [words_of(p) for p in ji][:2] == ["众宾之长一人辞洗如宾礼", "乐正与立者皆荐以齿"]
    assert all("yl-ji" in p["classes"] and "yl-ji" in p[0]["classes"] for p in ji)
    markers = [m for m in tongjie.findall(yl_meta) if m["kind"] == "ji-marker"]
    assert [m.astext() for m in markers] == ["记", "记"]


def test_pua_and_variant_characters(doctrees):
    p = passage(doctrees["judou/xiangshe"], "judou-xiangshe-18")
    chars = list(p.findall(yl_char))
    assert [(c["witness"], c["normal"], c["kind"]) for c in chars] == [("\ueb8e", "弦", "pua-quebi")]
    assert notes_of(p) == [("zhu", "不挟亦右执\ueb8e如司射")]
    assert p.astext().endswith("不挟亦右执弦如司射")  # the reading text resolves it
    p = passage(doctrees["judou/xiangshe"], "judou-xiangshe-21")
    variants = {(w, r) for c in p.findall(yl_forms) for w, r in zip(c["witness"], c.astext()) if w != r}
    assert ("賔", "宾") in variants and ("吿", "告") in variants
    # U+E14B: the unidentified character the 文渊阁本 writes &KR0871; (〓 in both forms)
    unidentified = [c for c in doctrees["tongjie/dashe"].findall(yl_char) if c["kind"] == "unencoded"]
    assert [(c["witness"], c["normal"], c.astext()) for c in unidentified] == [("\ue14b", "〓", "〓")]
    assert "&KR0871;" in unidentified[0]["title"] and "U+E14B" in unidentified[0]["title"]


def test_glosses(doctrees):
    glosses = {g.astext(): g for g in doctrees["judou/yanli"].findall(yl_gloss)}
    assert list(glosses)[:6] == ["大音泰", "绤去逆反", "锡悉历反", "圜音圆", "甒亡甫反", "緆悉历反"]  # reading text
    chun = glosses["纯之闰反又章允反"]  # a gloss with its second reading
    assert chun["char"] == "纯" and (chun["upper"], chun["lower"]) == ("之", "闰")
    assert chun["also"] == "又章允反" and chun["also_position"]
    fu = next(g for g in doctrees["judou/xiangshe"].findall(yl_gloss) if g.astext() == "仆音赴")
    assert (fu["char"], fu["kind"], fu["sound"]) == ("仆", "zhiyin", "赴")
    assert fu["position"]  # computed by conv.parser.phonology
    she = next(g for g in doctrees["judou/xiangshe"].findall(yl_gloss) if g["context"])
    assert (she["char"], she["context"], she["upper"], she["lower"]) == ("射", "无射", "食", "亦")


def test_titles_and_sections(doctrees):
    from docutils import nodes

    xiangshe = doctrees["judou/xiangshe"]
    sections = {s["ids"][0]: s for s in xiangshe.findall(nodes.section)}
    assert list(sections) == ["judou-xiangshe", "judou-xiangshe-s1", "judou-xiangshe-s2"]
    assert all(len(s["ids"]) == 1 for s in sections.values())  # no id1: the label only
    titles = list(xiangshe.findall(yl_title))
    assert [(t["section"], witness_text(t)) for t in titles] == [
        ("judou-xiangshe-s1", "右司射诱射"), ("judou-xiangshe-s2", "右三耦射")]
    dashe_title = next(doctrees["tongjie/dashe"].findall(yl_title))
    assert words_of(dashe_title) == "右饮不胜者"
    assert notes_of(dashe_title) == [("an", "若饮君则夹爵见前章")]
    chapter = next(doctrees["judou/yanli"].findall(yl_chaptertitle))
    assert words_of(chapter) == "燕礼第六"
    assert [layer for layer, _ in notes_of(chapter)] == ["mulu", "shu"]
    assert notes_of(chapter)[0][1].startswith("郑目录云诸侯无事若卿大夫有勤劳之功与羣臣燕饮以乐之")


def test_meta_and_lacunae(doctrees):
    yanli = doctrees["judou/yanli"]
    assert [(m["kind"], witness_text(m)) for m in yanli.findall(yl_meta)] == [
        ("catalogue", "<经部,礼类,仪礼之属,仪礼郑注句读>"),
        ("siku", "钦定四库全书"),
        ("juan", "仪礼郑注句读卷六"),
        ("author", "济阳张尔岐撰"),
    ]
    assert [n["kind"] for n in doctrees["tongjie/dashe"].findall(yl_lacuna)] == ["start", "gap", "gap"]
    first = passage(doctrees["judou/xiangshe"], "judou-xiangshe-1")
    assert first["lacuna"] == "start" and words_of(first) == ""


def test_domain_data(fixture_html):
    with (fixture_html.doctreedir / "environment.pickle").open("rb") as handle:
        env = pickle.load(handle)
    data = env.domaindata["yl"]
    assert data["passages"]["judou-xiangshe-3"] == {
        "docname": "judou/xiangshe", "layer": "jing", "title": "司马命获者执旌以负侯"}
    assert data["passages"]["tongjie-xiangyinjiu-1"]["title"].startswith("〔按〕得一拜乡射疏又云")
    assert data["sections"]["judou-xiangshe-s1"] == {
        "docname": "judou/xiangshe", "title": "司射诱射", "printed": "右司射诱射", "level": 2}
    assert data["sections"]["judou-yanli"]["level"] == 1
    assert data["sections"]["tongjie-dashe-s1"]["printed"] == "右饮不胜者"
    passages = sum(1 for d in CHAPTERS for _ in fixture_html.doctree(d).findall(yl_passage))
    assert len(data["passages"]) == passages


# -- HTML -----------------------------------------------------------------------------------------

def test_html_passage(soups):
    div = soups["judou/xiangshe"].select_one("div#judou-xiangshe-13")
    assert div["class"] == ["yl-passage", "yl-jing"] and div["data-layer"] == "jing"
    # words, the run of notes in the print's 【】, the end (the permalink: the seeds edition has no pages); no whitespace
    assert [c.name for c in div.children] == ["span", "span", "span"]
    assert [c.name for c in div.select_one(".yl-end").children] == ["a"]
    assert div.select_one(".yl-run").get_text() == (
        "【射获谓矢中人也猎矢从旁○〔疏〕疏云相左之时在西阶之西司马由北而西行司射由南而东行各以左相近故云相左也"
        "○无射之射食亦反】")
    words = div.select_one("span.yl-text.yl-jing")
    assert words.get_text() == "司射进与司马交于阶前相左由堂下西阶之东北面视上射命曰无射获无猎获上射揖司射退反位"
    notes = div.select("span.yl-note")
    assert [n["class"] for n in notes] == [
        ["yl-note", "yl-zhu"], ["yl-note", "yl-shu"], ["yl-note", "yl-yin"]]
    assert witness_only(notes[1]) == "疏云相左之时在西阶之西司马由北而西行司射由南而东行各以左相近故云相左也"
    gloss = notes[2].select_one("span.yl-gloss")
    assert gloss.get_text() == "无射之射食亦反" and gloss["data-char"] == "射" and gloss["data-kind"] == "fanqie"
    assert witness_only(notes[2]) == "无射之射食亦反"


def witness_only(element) -> str:
    """The text of ``element`` without what the edition adds (``yl-ed``: 【】 ○ 〔疏〕 〔按〕)."""
    element = BeautifulSoup(str(element), "html.parser")
    for added in element.select(".yl-ed"):
        added.decompose()
    return element.get_text()


def shown(element, hide: str) -> str:
    """Text of ``element`` without ``hide`` (.yl-n: the diplomatic view, .yl-w: the normalized
    view) and without the lacuna marks."""
    element = BeautifulSoup(str(element), "html.parser")
    for hidden in element.select(f"{hide}, .yl-gap, .yl-ed"):
        hidden.decompose()
    return element.get_text()


def expected_diplomatic(node) -> str:
    """What the diplomatic view must show: witness forms, PUA resolved, 衍 for a spurious one."""
    from docutils import nodes

    if isinstance(node, yl_char):
        return "衍" if node["kind"] == "pua-spurious" else node["resolved"]
    if isinstance(node, yl_forms):
        return node["witness"]
    if isinstance(node, nodes.Text):
        return str(node)
    return "".join(expected_diplomatic(child) for child in node.children)


def test_html_layers_every_page(soups, doctrees):
    for name in CHAPTERS:
        soup, doctree = soups[name], doctrees[name]
        for node in doctree.findall(yl_passage):
            div = soup.find(id=node["ids"][0])
            assert div is not None and "yl-passage" in div["class"]
            assert [n["class"][1] for n in div.select("span.yl-note")] == [
                f"yl-{layer}" for layer, _ in notes_of(node)]
            # diplomatic view: the witness with PUA resolved; normalized: the reading text
            assert shown(div, ".yl-n") == expected_diplomatic(node)
            assert shown(div, ".yl-w") == node.astext()
            assert not re.search(r"\s", div.get_text()), "whitespace between CJK characters"


def test_html_characters(soups):
    pua = soups["judou/xiangshe"].select_one("#judou-xiangshe-18 .yl-pua")
    assert pua["title"].startswith("U+EB8E 缺笔 → 弦")
    assert pua.select_one(".yl-w").get_text() == "弦" and pua.select_one(".yl-n").get_text() == "弦"
    variant = soups["judou/xiangshe"].select_one("#judou-xiangshe-21 .yl-fs")  # one run: 吿于賔
    assert variant["title"] == "吿→告 賔→宾"
    assert variant.select_one(".yl-w").get_text() == "吿于賔" and variant.select_one(".yl-n").get_text() == "告于宾"
    unidentified = soups["tongjie/dashe"].select_one(".yl-char-unencoded")
    assert unidentified.select_one(".yl-w").get_text() == "〓" == unidentified.select_one(".yl-n").get_text()
    assert "U+E14B" in unidentified["title"] and "&KR0871;" in unidentified["title"]


def test_no_pua_in_any_output(fixture_html):
    """A PUA code point is never written out: not as text, not in an attribute, not in the
    search index or the inventory (the search folding table in _static may name them)."""
    import zlib

    for path in fixture_html.outdir.rglob("*"):
        if path.suffix == ".html" or path.name in {"searchindex.js", "objects.inv"}:
            data = path.read_bytes()
            if path.name == "objects.inv":  # four lines of header, then zlib
                data = zlib.decompress(data.split(b"\n", 4)[4])
            assert not PUA.search(data.decode("utf-8")), path


def test_html_titles_meta_lacunae(soups):
    soup = soups["judou/xiangshe"]
    section = soup.select_one("section#judou-xiangshe-s1")
    assert section.find("h2").get_text().startswith("司射诱射")
    assert not soup.select("section > span[id^=id]")  # no unstable id1 anchors
    title = section.select_one("div.yl-title")
    assert title["data-section"] == "judou-xiangshe-s1"
    assert title.select_one("span.yl-text-title").get_text() == "右司射诱射"
    assert soup.select_one("div.yl-lacuna.yl-lacuna-start").get_text() == "〔前阙〕"
    first = soups["tongjie/xiangyinjiu"].select_one("#tongjie-xiangyinjiu-1")
    assert first.get_text().count("〔前阙〕") == 1  # passage and note both cut: one mark
    yanli = soups["judou/yanli"]
    assert [p["class"][1] for p in yanli.select("p.yl-meta")] == [
        "yl-meta-catalogue", "yl-meta-siku", "yl-meta-juan", "yl-meta-author"]
    assert yanli.select_one("p.yl-meta-catalogue").get_text() == "<经部,礼类,仪礼之属,仪礼郑注句读>"
    chapter = yanli.select_one("div.yl-chaptertitle")
    assert chapter.select_one(".yl-text-chaptertitle").get_text() == "燕礼第六"
    assert chapter.select_one(".yl-note.yl-mulu").get_text().startswith("郑目录云")


def test_html_assets_and_front_page(fixture_html):
    page = BeautifulSoup(fixture_html.html("judou/xiangshe"), "html.parser")
    assert page.select_one('link[href*="_static/yili.css"]')
    assert page.select_one('script[src*="_static/yili.js"]')
    assert (fixture_html.outdir / "_static" / "yili.css").is_file()
    index = BeautifulSoup(fixture_html.html("index"), "html.parser")
    assert len(index.select(".sd-card")) >= 3
    legend = index.select("ul.yl-legend li")
    assert [li.select_one(".yl-sample").get_text() for li in legend] == [
        "经", "记", "注", "疏", "按", "校语", "音义", "目录", "出处", "右…"]
    # the 注 of the books the 通解 quotes besides the 仪礼 are their own commentators'
    assert "郑注（《通解》所录他书之注各从其书，如大学、中庸为朱熹章句" in legend[2].get_text()


def test_front_page_source_links_every_chapter(edition_html):
    """source/index.md lists each work's 篇 (``yl:contents``): every chapter the edition has, by
    its page (the seeds' edition here; the whole one in tests/test_whole_html.py)."""
    text = (ROOT / "source" / "index.md").read_text(encoding="utf-8")
    assert "```{yl:contents} judou\n```" in text and "```{yl:contents} tongjie\n```" in text
    html = edition_html.html("index")
    for page in sorted(edition_html.outdir.glob("*/*.html")):
        if page.parent.name in ("judou", "tongjie") and page.name != "index.html":
            assert f'href="{page.parent.name}/{page.name}"' in html, page
    assert "第五　乡射礼" in html and "第十二　乡饮酒礼" in html  # the 通解 numbers its own 篇
    assert "judou/index" in text and "tongjie/index" in text
