"""The back matter: the index of terms (``yl-terms`` and the general index), the gloss index and
郑注's glossary — checked against the JSON export of the seeds (``python -m conv dump --json``), in
the seeds' edition built with ``-W -j 2`` (HTML) and as LaTeX (the ``.tex`` only: xelatex is ``make
latexpdf``'s business). The critical apparatus's pages: ``test_apparatus_pages.py``.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest
from bs4 import BeautifulSoup

from backmatter_pages import anchor, entries, gloss_index_pages, glosses_of, resolved, rows
from conftest import ROOT
from pagetext import diplomatic

SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


@pytest.fixture(scope="module")
def latex(edition_source, sphinx_build) -> str:
    build = sphinx_build(edition_source, "latex")
    return (build.outdir / "yili.tex").read_text(encoding="utf-8")


# -- the index of terms ---------------------------------------------------------------------------

def term_entry(seeds_soup, term: str):
    """The ``dt`` of ``term`` on its category's page, reached from the overview's link."""
    link = next(a for a in seeds_soup("yl-terms").select("ul.yl-term-list a")
                if a.select_one(".yl-term").get_text() == term)
    page, fragment = link["href"].split("#")
    assert fragment == f"yl-term-{term}"
    dt = seeds_soup(page.removesuffix(".html")).find("dt", id=fragment)
    assert dt is not None, term
    return dt


def term_passages(seeds_soup, term: str) -> list[str]:
    dd = term_entry(seeds_soup, term).find_next_sibling()
    if dd is None or dd.name != "dd":
        return []
    return [a["data-anchor"] for a in dd.select("a[data-anchor]")]


def test_terms_index_lists_zhi_with_every_passage(seeds_export, seeds_soup):
    entry = next(t for c in seeds_export["terms"]["categories"] for t in c["terms"] if t["term"] == "觯")
    assert len(entry["passages"]) == 48 and entry["count"] == 93
    assert term_passages(seeds_soup, "觯") == entry["passages"]
    dt = term_entry(seeds_soup, "觯")
    assert dt.select_one(".yl-pinyin").get_text() == "zhì"
    assert dt.select_one(".yl-term-count").get_text() == "93次，48段"
    # every link lands on the passage's page and anchor
    dd = dt.find_next_sibling("dd")
    for link in dd.select("a[data-anchor]"):
        target = link["href"].split("#")[0]
        assert seeds_soup(target.removesuffix(".html")).find(id=link["data-anchor"]) is not None


def test_terms_index_matches_the_export_for_every_term(seeds_export, seeds_soup):
    """The overview lists, per category, the terms that occur (pinyin order, as exported; a term
    of the word list that never occurs is not listed); each category's page lists their passages."""
    page = seeds_soup("yl-terms")
    groups = page.select("section.yl-index-group")
    categories = [c for c in seeds_export["terms"]["categories"] if any(t["passages"] for t in c["terms"])]
    assert [g.find("h2").get_text() for g in groups] == [c["name"] for c in categories]
    absent = [t["term"] for c in seeds_export["terms"]["categories"] for t in c["terms"] if not t["passages"]]
    assert absent, "the word list has terms the text never uses"
    for group, category in zip(groups, categories):
        terms = [a.select_one(".yl-term").get_text() for a in group.select("ul.yl-term-list a")]
        assert terms == [t["term"] for t in category["terms"] if t["passages"]]
        category_page = seeds_soup(group.select_one(".yl-index-more a")["href"].removesuffix(".html"))
        assert [dt.select_one(".yl-term").get_text() for dt in category_page.select("dl.yl-terms > dt")] == terms
        for term in category["terms"]:
            if term["passages"]:
                assert term_passages(seeds_soup, term["term"]) == term["passages"], term["term"]
    for term in absent:
        assert not any(seeds_soup(f"yl-terms-{c['id']}").find("dt", id=f"yl-term-{term}")
                       for c in categories if "id" in c), term
    assert "未见" not in page.get_text()


def test_terms_index_opens_per_category(edition_html):
    """No page holds every passage of every term: the overview only counts, each category's
    page lists its own terms' passages."""
    out = edition_html.outdir
    overview = (out / "yl-terms.html").read_text(encoding="utf-8")
    assert "data-anchor" not in overview
    pages = sorted(out.glob("yl-terms-*.html"))
    assert len(pages) >= 8
    total = sum(p.read_text(encoding="utf-8").count("data-anchor=") for p in pages)
    assert total > 2000
    assert max(p.stat().st_size for p in pages) < 250_000 and len(overview) < 120_000


def test_terms_index_shows_the_senses(seeds_export, seeds_soup):
    zun = term_entry(seeds_soup, "尊")  # on its category's page (the index opens per category)
    assert zun.select_one(".yl-term-count").get_text().startswith("5次")
    assert "设尊" in zun.select_one(".yl-term-note").get_text()
    sui = term_entry(seeds_soup, "遂")
    assert sui.find_parent("section")["id"] == "yl-terms-she"
    assert "决遂" in sui.select_one(".yl-term-note").get_text() and len(term_passages(seeds_soup, "遂")) == 20
    assert term_passages(seeds_soup, "县") == ["judou-yanli-3"]
    page = seeds_soup("yl-terms")  # the overview: the rule, and what no sense rule places
    assert "一字多义" in page.select_one(".yl-index-intro").get_text()
    assert page.find(id="yl-terms-unplaced") is None  # every occurrence of the seeds is placed


def test_terms_index_states_the_rule_for_terms_inside_longer_terms(seeds_soup):
    intro = seeds_soup("yl-terms").select_one(".yl-index-intro").get_text()
    for words in ("长词优先", "“司射”“上射”中不计“射”", "“释获者”中不计“获者”", "先起者先得", "同形异词"):
        assert words in intro


def test_general_index_lists_the_terms(seeds_export, seeds_soup):
    page = seeds_soup("genindex")
    entry = next(t for c in seeds_export["terms"]["categories"] for t in c["terms"] if t["term"] == "觯")
    item = next(li for li in page.select("li")
                if (li.find(string=True, recursive=False) or "").strip() == "觯")
    subentries = [li.find("a").get_text() for li in item.select("ul > li")]
    assert sorted(subentries) == sorted(["句读·乡射礼", "句读·特牲馈食礼", "句读·少牢馈食礼",
                                         "通解·乡饮酒礼", "通解·大射仪"])  # Sphinx orders them
    assert {anchor(a["href"]) for a in item.select("a")} == set(entry["passages"])
    # under its pinyin initial, not under a group of its own
    heading = item.find_previous("h2")
    assert heading.get_text().strip() == "Z"


def test_terms_are_found_in_the_text_not_placed_by_hand(edition_source):
    for page in (edition_source / "judou").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "{index}" not in text and ":::{index" not in text and "{yl:app}" not in text


# -- the gloss index -----------------------------------------------------------------------------

def test_gloss_index_orders_by_guangyun_position(seeds_export, seeds_soup):
    """One page per 摄 present, in the 十六摄's order (the overview links them), each holding only its
    own 摄's glosses in 广韵 order; the glosses no position was found for on a page after them."""
    from conv.parser import phonology

    pages = gloss_index_pages(seeds_soup)
    assert [title for title, _ in pages] == [
        "通摄", "江摄", "止摄", "遇摄", "蟹摄", "臻摄", "山摄", "效摄", "果摄", "假摄", "宕摄", "梗摄", "曾摄", "流摄",
        "咸摄", "未能推定音韵地位者"]  # no gloss of the seeds is of 深摄
    assert "遇摄：魚、虞、模，13 条" in seeds_soup("apparatus/glosses").get_text()
    found = []
    for title, page in pages:
        table = page.select_one("table.yl-gloss-index")
        positions = [cells[0].get_text().split("（")[0] for cells in rows(table)]
        if title == "未能推定音韵地位者":
            assert set(positions) == {"—"}
        else:
            assert {phonology.rhyme_group(p) for p in positions} == {title[0]}, title
            assert positions == sorted(positions, key=phonology.sort_key), title
            assert page.select_one("h1").get_text().strip("#¶ ") == title
            rhymes = "、".join(dict.fromkeys(phonology.rhyme_of(p) for p in positions))
            assert f"本摄音义 {len(positions)} 条，所涉之韵：{rhymes}（" in page.select_one("h1 ~ p").get_text()
        found += rows(table)
    glosses = glosses_of(seeds_export)
    assert len(found) == len(glosses) == 120  # 120 since 膊音纯又説文之允反 is two glosses (session 15)
    assert Counter(diplomatic(cells[1]) for cells in found) == Counter(resolved(g["text"]) for g in glosses)
    chi = next(cells for cells in found if diplomatic(cells[1]) == "弛尸纸反")
    assert [c.get_text() for c in chi[:6]] == ["書開三支上", "弛尸纸反", "弛", "反切", "尸纸反", "合于本字"]
    assert anchor(chi[6].find("a")["href"]) == "judou-xiangshe-78"


def test_every_gloss_links_to_its_row_on_its_page(edition_html, seeds_soup):
    """A gloss on a chapter page links to the row of the 音义索引 that lists it, on the page of its 摄."""
    linked = 0
    for path in sorted(edition_html.outdir.glob("*/*.html")):
        if path.parent.name not in ("judou", "tongjie"):
            continue
        page = seeds_soup(f"{path.parent.name}/{path.stem}")
        for gloss in page.select(".yl-gloss"):
            href = gloss.get("data-entry")
            assert href, (path.stem, gloss.get("data-printed"))
            target, row_id = href.split("#")
            assert target.startswith("../apparatus/glosses-"), href
            row = seeds_soup("apparatus/" + target.rsplit("/", 1)[1].removesuffix(".html")).find(id=row_id)
            assert row is not None, href
            assert diplomatic(row.find_all("td")[1]) == resolved(gloss["data-printed"]) or (
                gloss["data-printed"].startswith(diplomatic(row.find_all("td")[1]))), (href, gloss["data-printed"])
            linked += 1
    assert linked == 118  # the 120 glosses of the index in 118 roles: 膊音纯又説文之允反 and 纯之闰反又章允反 hold two each


CLASSES = {"other": "other reading", "system": "system difference", "suspect": "suspect",
           "lost": "lost character", "unresolved": "unresolved"}


def test_gloss_index_lists_each_class_apart(seeds_export, seeds_soup):
    page = seeds_soup("apparatus/glosses-doubtful")
    glosses = glosses_of(seeds_export)
    for section, status in CLASSES.items():
        table = page.select_one(f"section#apparatus-glosses-{section} table")
        listed = [diplomatic(c[0]) for c in rows(table)] if table else []
        assert listed == [resolved(g["text"]) for g in glosses if g["status"] == status], section
    heads = {s: page.select_one(f"section#apparatus-glosses-{s} h2").get_text().strip("#¶ ") for s in CLASSES}
    assert heads == {"other": "他字之音", "system": "音系差异", "suspect": "疑讹", "lost": "录入失字",
                     "unresolved": "未能推定"}
    other = rows(page.select_one("section#apparatus-glosses-other table"))
    gong = [c for c in other if diplomatic(c[0]).startswith("共九勇反")]
    assert len(gong) == 2
    for cells in gong:
        assert [c.get_text() for c in cells[1:4]] == ["見三C鍾上", "拱", "見三C鍾平、羣三C鍾去"]  # 拱's 小韵
    assert {anchor(c[5].find("a")["href"]) for c in gong} == {"judou-xiangshe-51", "tongjie-xiangyinjiu-45"}
    assert not any(diplomatic(c[0]) == "弛尸纸反" for c in other)
    # the seeds' own cases of each class (issue 23, points 3 and 4)
    placed = {diplomatic(c[0]): section for section in CLASSES
              for c in rows(page.select_one(f"section#apparatus-glosses-{section} table") or page.new_tag("table"))}
    assert {text: placed.get(text) for text in ("拊者甫反", "篠息小反", "岐其宜反", "了音了", "蒙音蒙", "臑奴报反",
                                                 "累力追反", "共九勇反")} == {
        "拊者甫反": "suspect", "篠息小反": "system", "岐其宜反": "system", "了音了": "lost", "蒙音蒙": "lost",
        "臑奴报反": None, "累力追反": None, "共九勇反": "other"}  # 臑 and 累 match through 腝 and 纍
    statuses = {diplomatic(c[1]): c[5].get_text() for _, page in gloss_index_pages(seeds_soup)
                for c in rows(page.select_one("table.yl-gloss-index"))}
    assert statuses["臑奴报反"] == "合于本字" and statuses["了音了"] == "录入失字"


# -- 郑注's glossary ----------------------------------------------------------------------------

def test_glossary_page_has_every_definition_in_pinyin_order(seeds_export, seeds_soup):
    table = seeds_soup("apparatus/glossary").select_one("table.yl-glossary")
    found = rows(table)
    assert len(found) == len(seeds_export["glossary"]) == 122
    for cells, entry in zip(found, seeds_export["glossary"]):
        assert diplomatic(cells[0]) == resolved(entry["term_witness"])
        assert diplomatic(cells[2]) == resolved(entry["definition_witness"])
        assert diplomatic(cells[3]) == resolved(entry["text"])
        assert anchor(cells[5].find("a")["href"]) == entry["passage"]
    bi = found[0]
    assert [c.get_text() for c in bi[:2]] == ["楅", "bī"]
    # a term of several syllables: joined, a line may break between syllables only (yl:datatable's pinyin)
    row = next(cells for cells in found if diplomatic(cells[0]) == resolved("长如笴"))
    assert row[1].get_text() == "chángrúgǎn" and len(row[1].find_all("wbr")) == 2


# -- LaTeX ----------------------------------------------------------------------------------------

def test_latex_back_matter(latex):
    """The back matter follows the works; labels, marks, the domain index and pinyin-keyed general
    index entries are in the .tex."""
    first = latex.index(r"\label{\detokenize{apparatus/index::doc}}")
    assert latex.index(r"\label{\detokenize{tongjie/dashe::doc}}") < first
    if r"\ylbackmatter" in latex:
        assert latex.index(r"\ylbackmatter") < first
    assert r"\phantomsection\label{\detokenize{apparatus/judou:judou-xiangshe-1-jiao-1}}\textbf{校1}" in latex
    assert r"\textsuperscript{\hyperref[\detokenize{apparatus/judou:judou-xiangshe-4-yi-1}]{异1}}" in latex
    # several marks: each its own superscript, a line may break after each comma (never an overfull line)
    assert re.search(r"\\textsuperscript\{\\hyperref\[[^]]*\]\{[校异]\d+\},\}\\allowbreak\\textsuperscript\{", latex)
    assert not re.search(r"\\hyperref\[[^]]*\]\{[校异]\d+\},\\hyperref", latex)
    assert r"\index{zhi4 觯@\spxentry{觯}!005@\spxentry{句读·乡射礼}}" in latex
    assert r"\renewcommand{\indexname}{名物索引}" in latex
    assert "U+EB8E" in latex and not any(0xE000 <= ord(c) <= 0xF8FF for c in latex)


# -- the converter's side ----------------------------------------------------------------------------

def test_tone_marks():
    from conv.myst.backmatter.terms import tone_marks

    assert tone_marks("zhi4") == "zhì"
    assert tone_marks("lv4") == "lǜ"
    assert tone_marks("gui1") == "guī"
    assert tone_marks("liu2") == "liú"
    assert tone_marks("xiong1 di4") == "xiōngdì"
    assert tone_marks("de5") == "de"


def test_locator_places_entries_where_they_belong():
    from conv.edition import assemble
    from conv.myst.backmatter.apparatus import Apparatus

    apparatus = Apparatus(assemble.convert(SEEDS))
    by_kind = {}
    for work in ("judou", "tongjie"):
        for entry in apparatus.interventions[work]:
            by_kind.setdefault(entry.kind, []).append(entry)
    corrections = {e.reason.split()[0]: e.locus for e in by_kind["correction"]}  # "c2 title: …: reason"
    assert corrections["c2"].kind == "section" and corrections["c3"].kind == "section"
    assert corrections["c1"].anchor == "judou-tesheng-s3"  # the section whose 记… title it settles
    assert corrections["c6"].anchor == "judou-xiangshe-1"  # the remark opening the excerpt
    assert {e.locus.anchor for e in by_kind["lacuna-end"]} == {"judou-shaolao-33"}
    assert {e.locus.anchor for e in by_kind["dropped"]} == {"judou-shaolao-33"}


# -- what 郑注 distinguishes (issue 23, point 1) ----------------------------------------------------

def normalized_view(element) -> str:
    """The text of an element as the normalized view shows it (each folded character's .yl-n)."""
    element = BeautifulSoup(str(element), "html.parser")
    for node in element.select(".yl-char .yl-w, .yl-fs > .yl-w, .yl-appmark, .yl-permalink"):
        node.decompose()
    return element.get_text()


def test_what_zheng_distinguishes_stays_in_both_views(seeds_soup):
    passage = seeds_soup("judou/shaolao").select_one("#judou-shaolao-28")
    zhu = passage.select_one(".yl-zhu")
    for view in (diplomatic, normalized_view):
        assert "竝并也" in view(zhu) and "今文竝皆为并" in view(zhu)
        assert "以竝肠三" in view(passage.select_one(".yl-text"))
    assert not [c for c in passage.select(".yl-char, .yl-fs") if "竝" in c["title"]]
    assert "说文" in normalized_view(passage)  # 説 still folds in the same passage
    entry = next(e for e in seeds_soup("apparatus/judou").select(".yl-app") if "今文竝皆为并" in diplomatic(e))
    assert normalized_view(entry.select_one(".yl-app-body")).startswith("竝〕今文皆作“并”")
    row = next(r for r in rows(seeds_soup("apparatus/glossary").select_one("table.yl-glossary"))
               if diplomatic(r[3]) == "竝并也")
    assert [normalized_view(c) for c in (row[0], row[2], row[3])] == ["竝", "并", "竝并也"]


# -- merges of the simplified seeds (issue 23, point 5) -------------------------------------------

def test_merged_characters_are_listed_and_the_gloss_reads_the_restored_form(seeds_export, seeds_soup):
    page = seeds_soup("apparatus/judou")
    section = page.select_one("section#apparatus-judou-restorations")
    assert section.find("h2").get_text().strip("¶ ") == "简体合并之字"
    bodies = [diplomatic(e.select_one(".yl-app-body")) for e in entries(page, "restoration")]
    assert len(bodies) == 8 and all("文渊阁本作" in b for b in bodies)
    assert bodies[1].startswith("“干”，文渊阁本作“幹”（卷五叶二十六b：个音幹）")  # the page as the reader cites it
    assert not [b for b in bodies if "KR1d" in b]  # no file id on a reader page
    # the 规范 view and the mark's tip keep the form the entry is about (幹 is not folded to 干)
    body = entries(page, "restoration")[1].select_one(".yl-app-body")
    assert normalized_view(body).startswith("“干”，文渊阁本作“幹”（卷五叶二十六b：个音幹）。幹，古案切")
    chapter = seeds_soup("judou/xiangshe")
    gloss = next(g for g in chapter.select("#judou-xiangshe-94 .yl-gloss") if diplomatic(g) == "个音干")
    assert (gloss["data-restored"], gloss["data-position"]) == ("个音幹", "見開一寒去")
    assert "音读据正字：个音幹" in gloss["data-tip"]  # the tip (no title tooltip: the popover shows it); the
    # 文渊阁 form of a merged character, or the right one of a misprint (tests/test_misprints.py)
    marks = [a.get_text() for a in chapter.select("#judou-xiangshe-94 .yl-appmark")]
    assert marks == ["校1,校2"]  # 东方干为右个, 个音干: the passage's own two entries, whatever there are before
    tips = [a["title"] for a in chapter.select("#judou-xiangshe-94 .yl-appmark a")]
    assert tips[1].startswith("校2　简体合并之字：“干”，文渊阁本作“幹”（卷五叶二十六b：个音幹）")
