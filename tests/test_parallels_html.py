"""Parallel passages as a reader sees them (互见): a small edition of one shared 篇 from both works
(士相见礼: 句读 卷三, 通解 卷六), built with the edition's extension: the 「通解」/「句读」 control
in the browser, the parallel page in two columns and in one, the margin of the PDF."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pagetext import page_soup as soup, witness_text as printed

ROOT = Path(__file__).resolve().parents[1]
JUDOU = ROOT / "seeds" / "wenyuange" / "KR1d0038" / "KR1d0038_003.txt"
TONGJIE = ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_006.txt"
PASSAGE = "judou-shixiangjian-2"  # 主人對曰某子命某見吾子有辱…
COUNTERPART = "tongjie-shixiangjian-5"  # 二人對曰某子命某見吾子有辱… (the 通解's reading 二人)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("parallel") / "source"
    src.mkdir()
    shutil.copy(ROOT / "source" / "conf.py", src / "conf.py")
    (src / "index.md").write_text("# 仪礼\n\n```{toctree}\njudou/index\ntongjie/index\napparatus/index\n```\n",
                                  encoding="utf-8")
    convert = subprocess.run([sys.executable, "-m", "conv", "build", str(JUDOU), str(TONGJIE), "--out", str(src)],
                             capture_output=True, text=True, cwd=ROOT)
    assert convert.returncode == 0, convert.stderr[-3000:]
    return src


def _build(project: Path, builder: str) -> Path:
    out = project.parent / f"_{builder}"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", builder,
                            str(project), str(out)], capture_output=True, text=True, cwd=ROOT)
    assert build.returncode == 0, build.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def site(project) -> Path:
    return _build(project, "html")


def test_the_control_holds_the_counterpart_with_its_notes(site):
    passage = soup(site, "judou/shixiangjian").select_one(f"#{PASSAGE}")
    control = passage.select_one("details.yl-counterpart")
    assert control.summary.get_text() == "通解"
    link = control.select_one("a.reference")
    assert link["href"] == f"../tongjie/shixiangjian.html#{COUNTERPART}"
    assert link.get_text() == "通解·士相见礼5（卷六叶二a）"
    copied = control.select_one(".yl-counterpart-text")
    assert printed(copied.select_one(".yl-text")).startswith("二人對曰某子命某見吾子有辱")
    assert printed(copied.select_one(".yl-note.yl-zhu")).startswith("有又也某子命某徃見")  # the 通解's own 徃
    assert not copied.select("[id]")  # copies carry no ids (each anchor stays unique)
    back = soup(site, "tongjie/shixiangjian").select_one(f"#{COUNTERPART} details.yl-counterpart")
    assert back.summary.get_text() == "句读"
    assert back.select_one("a.reference")["href"] == f"../judou/shixiangjian.html#{PASSAGE}"


def test_the_copies_are_not_searched_on_the_page_that_copies_them(site):
    data = json.loads((site / "_search" / "judou" / "shixiangjian.json").read_text(encoding="utf-8"))
    assert "二人對曰某子命某" not in json.dumps(data, ensure_ascii=False)
    assert "二人對曰某子命某" in (site / "_search" / "tongjie" / "shixiangjian.json").read_text(encoding="utf-8")


def test_the_control_opens_with_the_keyboard(site, page, http_server):
    base = http_server(site)
    page.goto(f"{base}/judou/shixiangjian.html#{PASSAGE}")
    control = page.locator(f"#{PASSAGE} details.yl-counterpart")
    words = control.locator(".yl-counterpart-text .yl-text")
    assert not words.is_visible()
    control.locator("summary").focus()
    page.keyboard.press("Enter")
    assert words.is_visible()
    assert words.inner_text().startswith("二人對曰某子命某見吾子有辱")
    box = control.locator("summary").bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24  # a 24 px target
    control.locator("a.reference").click()
    page.wait_for_url(f"**/tongjie/shixiangjian.html#{COUNTERPART}")


def test_the_parallel_page_two_columns_wide_one_on_phones(site, browser, http_server, screenshots):
    base = http_server(site)
    page_soup = soup(site, "apparatus/parallel-shixiangjian")
    pairs = page_soup.select("div.yl-pair")
    assert len(pairs) > 30
    row = next(p for p in pairs if p.select_one(f'a[href$="#{PASSAGE}"]'))
    assert row.select_one(f'a[href$="#{COUNTERPART}"]')
    for width, height, columns in ((1366, 900, 2), (390, 844, 1)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
        tab = context.new_page()
        tab.goto(f"{base}/apparatus/parallel-shixiangjian.html")
        sides = tab.locator("div.yl-pair").nth(1).locator(".yl-pair-side")
        left, right = sides.nth(0).bounding_box(), sides.nth(1).bounding_box()
        if columns == 2:
            assert right["x"] >= left["x"] + left["width"] and abs(right["y"] - left["y"]) < 2
        else:
            assert right["y"] >= left["y"] + left["height"] and abs(right["x"] - left["x"]) < 2
        tab.screenshot(path=str(screenshots / f"parallel-page-{width}.png"))
        context.close()


def test_the_apparatus_lists_the_readings_with_both_pages(site):
    text = soup(site, "apparatus/judou").select_one("#apparatus-judou-parallels").get_text()
    assert "郑注“固”（卷三叶二a），通解本作“故”（通解·士相见礼10，卷六叶二a）。" in text.replace("\n", "")
    assert "通解本作“徃”" not in text  # 往/徃: forms of one character, no reading
    assert "file" not in text and ".txt" not in text


@pytest.fixture(scope="module")
def latex(project) -> Path:
    return _build(project, "latex")


def test_the_margin_names_the_counterpart_in_latex(latex):
    tex = (latex / "yili.tex").read_text(encoding="utf-8")
    start = tex.index(r"\label{\detokenize{judou/shixiangjian:judou-shixiangjian-2}}")
    opening = tex[start:tex.index("\n", tex.index("\n", start) + 1)]
    assert (r"\ylcounterpart{\ylcp{通解·士相见礼5}{卷六叶二a}"
            r"{\detokenize{tongjie/shixiangjian:tongjie-shixiangjian-5}}}") in opening


@pytest.fixture(scope="module")
def pdf(latex) -> Path:
    if not shutil.which("latexmk") or not shutil.which("pdftotext"):
        pytest.skip("latexmk or pdftotext missing")
    made = subprocess.run(["make", "-C", str(latex), "all-pdf"], capture_output=True, text=True)
    assert made.returncode == 0, made.stdout[-2000:]
    return latex / "yili.pdf"


@pytest.mark.latex
def test_the_margin_in_the_pdf(pdf):
    # the right margin alone (A4 595 pt wide, 30 mm margins: the text block ends at 510 pt)
    text = subprocess.run(["pdftotext", "-x", "511", "-y", "0", "-W", "84", "-H", "842", str(pdf), "-"],
                          capture_output=True, text=True).stdout
    assert re.search(r"通解·士相见礼\s*5\s*卷六叶二\s*a\s*第9页", text)  # the 通解 passage's page in this PDF
    assert "??" not in text


@pytest.mark.latex
def test_the_parallel_page_in_the_pdf_is_two_columns(latex, pdf):
    """The parallel page in print: each group a line, the 句读's passages left and the 通解's right,
    as its introduction says (one citation a line, alternately, before: 170 pages of the whole
    edition), and no word of the screen's (窄屏, 点击)."""
    pairs = (latex / "yili.tex").read_text(encoding="utf-8").count(r"\begin{ylpair}")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    page = next(page for page in text.split("\f") if "句读与通解对照" in page and "左为张尔岐" in page)
    assert "窄屏" not in page and "点击" not in page
    side_by_side = [line for line in text.splitlines() if re.search(r"句读·士相见礼\s*\d+.*通解·士相见礼\s*\d+", line)]
    assert pairs >= 10 and len(side_by_side) == pairs, (pairs, side_by_side[:3])
    first = side_by_side[0]
    assert re.search(r"句读·士相见礼\s*1（卷三叶[^）]+）\s*\(第\d+页\)\s+通解·士相见礼\s*1（卷六叶", first), first


def _words_and_notes(element) -> list[str]:
    """The texts of a passage's words and note segments (outermost ones), marks of the apparatus
    and of editorial notes left out, each as the 录入本 view shows it."""
    element = BeautifulSoup(str(element), "html.parser")
    for mark in element.select(".yl-appmark, .yl-ednote-ref, details.yl-counterpart, .yl-seealso"):
        mark.decompose()
    found = element.select(".yl-text, .yl-note")
    outer = {id(e) for e in found}  # by identity: a Tag's == compares whole subtrees
    return [printed(e) for e in found if not any(id(p) in outer for p in e.parents)]


def test_every_copy_is_its_counterpart_on_its_own_page(site):
    """Each counterpart copied into a page (the 句读's 士相见礼, the 通解's, and the parallel page),
    however many times a passage is copied, holds its passage's words and notes as its own page shows them."""
    pages = {}
    copies = 0
    for page in ("judou/shixiangjian", "tongjie/shixiangjian", "apparatus/parallel-shixiangjian"):
        for item in soup(site, page).select(".yl-counterpart-item"):
            href = item.select_one(".yl-counterpart-head a.reference")["href"]
            target_page, anchor = href.split("#")
            target_page = os.path.normpath(os.path.join(os.path.dirname(page), target_page))[: -len(".html")]
            if target_page not in pages:  # each page parsed once, its elements by id
                pages[target_page] = {e["id"]: e for e in soup(site, target_page).select("[id]")}
            source = pages[target_page][anchor]
            assert _words_and_notes(item.select_one(".yl-counterpart-text")) == _words_and_notes(source), anchor
            copies += 1
    assert copies >= 20
