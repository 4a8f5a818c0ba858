"""The back matter's data tables (``yl:datatable``) built by Sphinx on a small project: HTML whose loci
link like ``yl:cite`` (redirects followed, an unknown anchor a ``yl.cite`` warning at its row), a
LaTeX longtable with page references, the text, man and texinfo builders' tables; and the converter's
back matter holds no list-table. (What the converter writes and that no cell injects markup, in
process: ``test_tables.py``.)"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT
from smallsite import small_project
from latex_tables import latex_cells

# -- a real build: links, LaTeX, text ---------------------------------------------------------------

REDIRECTED = """\
---
orphan: true
---

(redirected)=
# 旧段

::::{yl:passage} probe-1
:layer: jing

旧文

::::

:::{yl:redirect} probe-9
:to: probe-1
:::
"""

TABLES = """\
---
orphan: true
---

(tables)=
# 表

:::{yl:datatable}
:class: yl-probe
:widths: 2 3 2
:cells: text witness cite

["类别<b>","文\\\\textbf{x}","出处"]
["a & b $x$ % # _ ^ ~ {y}","吿于賔\ueb8e",__CITE__]
["重定向","—",["旧段","probe-9"]]
["本页","",["本页之段","probe-2"]]
["无",null,null]
["《广韵》未收\U000f0367","\U000f0367",["有司彻·\U000f0367","judou-xiangshe-3"]]
:::

见{yl:cite}`乡射礼·󰍧 <judou-xiangshe-3>`。

::::{yl:passage} probe-2
:layer: jing

本页

::::
"""


def tables_project(base: Path, text: str) -> Path:
    return small_project(base, {"tables.md": text, "redirected.md": REDIRECTED}, toctree=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    text = TABLES.replace("__CITE__", '["乡射礼3","judou-xiangshe-3"]')
    return tables_project(tmp_path_factory.mktemp("tables"), text)


def test_html_table_links_like_yl_cite(project, sphinx_build):
    build = sphinx_build(project, "html")
    soup = BeautifulSoup((build.outdir / "tables.html").read_text(encoding="utf-8"), "html.parser")
    wrapper = soup.select_one("section#tables div.table-wrapper")
    assert wrapper["class"] == ["table-wrapper", "colwidths-given", "yl-probe", "docutils", "container"]
    table = wrapper.select_one("table")
    assert table["class"] == ["yl-probe", "docutils", "align-default"]
    assert [col["style"] for col in table.select("colgroup col")] == [
        "width: 28.6%", "width: 42.9%", "width: 28.6%"]
    assert [th.get_text() for th in table.select("thead th")] == ["类别<b>", "文\\textbf{x}", "出处"]
    rows = table.select("tbody tr")
    assert [tr["class"] for tr in rows] == [["row-even"], ["row-odd"], ["row-even"], ["row-odd"], ["row-even"]]
    cells = [tr.select("td") for tr in rows]
    # each cell names its column (a phone shows the name above the cell: yili-indices.css)
    assert [[td["data-label"] for td in row] for row in cells] == [["类别<b>", "文\\textbf{x}", "出处"]] * 5
    assert cells[0][0].get_text() == "a & b $x$ % # _ ^ ~ {y}"
    # a live anchor: the passage's page, its citation as the tooltip
    assert str(cells[0][2].select_one("span.yl-cite")) == (
        '<span class="yl-cite" data-anchor="judou-xiangshe-3"><a class="reference internal" '
        'href="judou/xiangshe.html#judou-xiangshe-3" title="《仪礼郑注句读·乡射礼》“司马命获者执旌以负侯”，'
        'judou-xiangshe-3"><span class="xref yl yl-cite">乡射礼3</span></a></span>')
    # a redirected anchor lands on the passage it was redirected to
    link = cells[1][2].select_one("span.yl-cite a")
    assert cells[1][2].select_one("span.yl-cite")["data-anchor"] == "probe-1"
    assert link["href"] == "redirected.html#probe-1" and link["title"].endswith("（原锚点 probe-9）")
    # a section of the same page: a fragment only
    assert cells[2][2].select_one("a")["href"] == "#probe-2"
    assert [td.get_text() for td in cells[2][:2]] == ["本页", "—"]
    assert [td.get_text() for td in cells[3]] == ["无", "—", "—"]
    # a character Unicode lacks (a gaiji of the 文渊阁 transcription) quoted in the converter's words
    # and in a citation's title: 〓 with its entity, as in the text; never its private-use stand-in
    assert [td.get_text() for td in cells[4]] == ["《广韵》未收〓〓", "〓〓", "有司彻·〓〓"]  # 〓 in both views
    assert [c["data-code"] for c in cells[4][0].select("span.yl-char-unencoded")] == ["&KR0871;"]
    cite = soup.select_one("section#tables > p span.yl-cite")
    assert cite.select_one("span.yl-char-unencoded")["data-code"] == "&KR0871;"
    html = (build.outdir / "tables.html").read_text(encoding="utf-8")
    assert not re.search("[\ue000-\uf8ff\U000f0000-\U0010ffff]", html)
    # the search index has the table's words (reading forms), not its markup
    index = (build.outdir / "searchindex.js").read_text(encoding="utf-8")
    assert '"\\u544a\\u4e8e"' in index  # 告于, folded from 吿于


def test_latex_table_is_a_longtable_with_page_references(project, sphinx_build):
    """As Sphinx writes a list-table (each cell in a varwidth), loci linked with their pages."""
    build = sphinx_build(project, "latex")
    tex = (build.outdir / "yili.tex").read_text(encoding="utf-8")
    # in print each column is as wide as 9 in 10 of its cells are, in ems (a Han character 1, an
    # ASCII one ½) and a fifth of an em of slack: the first the ASCII row's 23 characters (11.5), the second
    # 告于宾弦 (4), the third 有司彻·〓 with its page reference (5 + 5.5: ` (第1234页)`), in the smaller
    # size of a table; the narrow one keeps its width, the two wide ones share the rest of the line;
    # the directive's widths (2 3 2) are the screen's
    start = tex.index("\\begin{savenotes}\\yltablesize\n")
    assert tex.index(r"\begin{longtable}{\ylcolumn{117}{224}{4.2em}{6}p{4.2em}\ylcolumn{107}{224}{4.2em}{6}}") > start
    table = tex[start:tex.index(r"\end{longtable}", start)]
    assert ("\\sphinxtoprule\n\\begin{varwidth}[t]{\\sphinxcolwidth{1}{3}}\n\\raggedright\n\\sphinxstyletheadfamily "
            "\\sphinxAtStartPar\n类别<b>\n\\sphinxbeforeendvarwidth\n\\end{varwidth}%\n&") in table
    assert latex_cells(tex[start - 200:]) == [
        [r"a \& b \$x\$ \% \# \_ \textasciicircum{} \textasciitilde{} \{y\}",
         r"\DUrole{yl-witness}{告于宾弦}",
         r"{\hyperref[\detokenize{judou/xiangshe:judou-xiangshe-3}]{\sphinxcrossref{"
         r"\DUrole{xref}{\DUrole{yl}{\DUrole{yl-cite}{乡射礼3}}}}}} "
         r"(\autopageref*{\detokenize{judou/xiangshe:judou-xiangshe-3}})"],
        ["重定向", r"\DUrole{yl-witness}{—}",
         r"{\hyperref[\detokenize{redirected:probe-1}]{\sphinxcrossref{"  # the redirect's target
         r"\DUrole{xref}{\DUrole{yl}{\DUrole{yl-cite}{旧段}}}}}} (\autopageref*{\detokenize{redirected:probe-1}})"],
        ["本页", "—",
         r"{\hyperref[\detokenize{tables:probe-2}]{\sphinxcrossref{"
         r"\DUrole{xref}{\DUrole{yl}{\DUrole{yl-cite}{本页之段}}}}}} (\autopageref*{\detokenize{tables:probe-2}})"],
        ["无", "—", "—"],
        ["《广韵》未收〓", r"\DUrole{yl-witness}{〓}",
         r"{\hyperref[\detokenize{judou/xiangshe:judou-xiangshe-3}]{\sphinxcrossref{"
         r"\DUrole{xref}{\DUrole{yl}{\DUrole{yl-cite}{有司彻·〓}}}}}} "
         r"(\autopageref*{\detokenize{judou/xiangshe:judou-xiangshe-3}})"]]
    assert r"文\textbackslash{}textbf\{x\}" in table  # the header's
    assert r"\endhead" in table and table.count(r"\sphinxhline") == 4
    # no page break after the first two rows nor after the last two: no row alone at a page's foot or
    # head, no foot on a page of its own
    assert table.count("\\\\*\n\\sphinxhline") == 3 and table.endswith("\\\\*\n\\sphinxbottomrule\n")
    assert not re.search("[\ue000-\uf8ff\U000f0000-\U0010ffff]", tex)  # no private-use code point, no stand-in


def test_latex_table_diplomatic_and_without_pagerefs(project, sphinx_build):
    build = sphinx_build(project, "latex", "-D", "yl_print_form=diplomatic", "-D", "latex_show_pagerefs=0")
    tex = (build.outdir / "yili.tex").read_text(encoding="utf-8")
    assert r"\DUrole{yl-witness}{吿于賔弦}" in tex
    assert (r"{\hyperref[\detokenize{judou/xiangshe:judou-xiangshe-3}]{\sphinxcrossref{"
            r"\DUrole{xref}{\DUrole{yl}{\DUrole{yl-cite}{乡射礼3}}}}}}"
            r"（第\pageref{\detokenize{judou/xiangshe:judou-xiangshe-3}}页）") in tex


def grid(text: str) -> list[list[str]]:
    """The cells of the text builder's grid table, row by row (each cell's lines joined; the
    cells hold no ``|``)."""
    rows, current = [], None
    for line in text.splitlines():
        if line.startswith(("+", "|=")):  # a border, or the line under the header
            if current:
                rows.append(["".join(part.split()) for part in current])
            current = []
        elif line.startswith("|") and current is not None:
            parts = line.strip().strip("|").split("|")
            current = current or [""] * len(parts)
            current = [before + " " + part for before, part in zip(current, parts)]
    return rows


def test_text_builder_prints_the_table(project, sphinx_build):
    """The builder's grid table, its column widths the directive's (as the list-tables had them)."""
    build = sphinx_build(project, "text")
    text = (build.outdir / "tables.txt").read_text(encoding="utf-8")
    assert grid(text) == [["类别<b>", "文\\textbf{x}", "出处"],
                          ["a&b$x$%#_^~{y}", "告于宾弦", "*乡射礼3*"],  # a link: the builder's *…*
                          ["重定向", "—", "*旧段*"], ["本页", "—", "*本页之段*"], ["无", "—", "—"],
                          ["《广韵》未收〓", "〓", "*有司彻·〓*"]]
    assert "\ueb8e" not in text and "\U000f0367" not in text


def test_man_and_texinfo_print_the_table(project, sphinx_build):
    """Their own tables, the loci linked as the builders link references."""
    man = next(sphinx_build(project, "man").outdir.glob("*.1")).read_text(encoding="utf-8")
    assert "告于宾弦" in man and "乡射礼3 \\%<#\\:judou-xiangshe-3>" in man
    texinfo = next(sphinx_build(project, "texinfo").outdir.glob("*.texi")).read_text(encoding="utf-8")
    assert "告于宾弦" in texinfo and re.search(r"@ref\{[0-9a-f]+,,乡射礼3\}", texinfo)
    assert "@multitable" in texinfo


def test_unknown_anchor_warns_at_its_row(tmp_path, sphinx_build):
    text = TABLES.replace("__CITE__", '["乡射礼99","judou-xiangshe-99"]')
    build = sphinx_build(tables_project(tmp_path, text), "html", check=False)
    assert build.returncode != 0
    lines = [line for line in build.warnings.splitlines() if "unknown anchor" in line]
    assert len(lines) == 1, build.warnings[-3000:]
    assert re.search(r"tables\.md:14: WARNING: yl:cite: unknown anchor 'judou-xiangshe-99'.*did you mean "
                     r"judou-xiangshe-9\b.*\[yl\.cite\]", lines[0]), lines[0]
    soup = BeautifulSoup((build.outdir / "tables.html").read_text(encoding="utf-8"), "html.parser")
    cell = soup.select("tbody tr")[0].select("td")[2]
    assert cell.decode_contents() == '<p><span class="xref yl yl-cite">乡射礼99</span></p>'  # no link


def test_the_converter_keeps_no_list_tables(tmp_path):
    """The back matter's tables are data tables: no list-table, no role in a table cell."""
    src = tmp_path / "source"
    proc = subprocess.run([sys.executable, "-m", "conv", "build", "--edition", "seeds", "--out", str(src)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("glosses-zhi", "glosses-doubtful", "glossary", "judou", "tongjie"):
        text = (src / "apparatus" / f"{name}.md").read_text(encoding="utf-8")
        assert "list-table" not in text and "{yl:witness}" not in text and "{yl:cite}" not in text
        assert ":::{yl:datatable}" in text
