"""Print and plain-text output: every builder renders the layers with ``-W``, the notes follow the
words they explain, the resolved character stands for each PUA code point. (The PDF of the whole
edition: ``test_pdf.py``.)"""
from __future__ import annotations

import json
import re

from conftest import FIXTURE_PROJECT, without_index_entries

PUA = re.compile("[\ue000-\uf8ff]")


def test_text_builder(sphinx_build):
    build = sphinx_build(FIXTURE_PROJECT, "text")
    text = (build.outdir / "judou" / "xiangshe.txt").read_text(encoding="utf-8")
    flat = text.replace("\n", "")
    assert ("司马命获者执旌以负侯【注：欲令射者见侯与旌深有志于中　"
            "按：上文命张侯倚旌疏云同是西阶前至此未有他事当亦西阶前命之也】") in flat
    assert "卒射皆执弓不挟南面揖揖如升射【注：不挟亦右执弦如司射】" in flat
    assert "吿于宾曰" not in flat and "告于宾曰三耦卒射" in flat  # reading text by default
    assert "〔前阙〕【按：出其位南北回适堂西者" in flat  # one mark, then the note
    assert "右司射诱射" in flat
    for path in build.outdir.rglob("*.txt"):
        assert not PUA.search(path.read_text(encoding="utf-8")), path


def test_text_builder_diplomatic(sphinx_build):
    build = sphinx_build(FIXTURE_PROJECT, "text", "-D", "yl_print_form=diplomatic")
    flat = (build.outdir / "judou" / "xiangshe.txt").read_text(encoding="utf-8").replace("\n", "")
    assert "吿于賔曰三耦卒射" in flat
    assert "不挟亦右执弦如司射" in flat  # PUA resolved in both forms
    dashe = (build.outdir / "tongjie" / "dashe.txt").read_text(encoding="utf-8").replace("\n", "")
    assert "所进众羞谓〓肝膋狗胾醢也" in dashe  # U+E14B: an unidentified character (文渊阁本 &KR0871;)


def test_json_builder(sphinx_build):
    """The json builder writes each page's context: the index of terms holds its entries (a list
    of ``(category, entries)``, each entry Sphinx's ``IndexEntry`` as an array)."""
    build = sphinx_build(FIXTURE_PROJECT, "json")
    terms = json.loads((build.outdir / "yl-terms.fjson").read_text(encoding="utf-8"))
    assert [category for category, _ in terms["content"]] == [
        "器物", "宫室位次", "职官人物", "射器", "服饰", "礼节", "乐", "牲体馔具"]
    assert terms["content"][0][1][:2] == [
        ["方壶", 1, "judou/yanli", "judou-yanli-5", "fānghú", "", "1次，1段"],
        ["\u3000句读·燕礼 第5段", 2, "judou/yanli", "judou-yanli-5", "", "", "司宫尊于东楹之西两方壶左…"]]
    page = json.loads((build.outdir / "judou" / "xiangshe.fjson").read_text(encoding="utf-8"))
    assert page["title"] == "句读·乡射礼"  # a 篇 with its work, as the window's title (output/page_titles.py)
    assert page["body"].count('class="yl-passage') == 22


def test_latex_source(sphinx_build):
    build = sphinx_build(FIXTURE_PROJECT, "latex")
    tex = without_index_entries((build.outdir / "yili.tex").read_text(encoding="utf-8"))
    assert (build.outdir / "yili.sty").is_file()
    assert r"\usepackage{yili}" in tex
    assert (r"\begin{ylpassage}{jing}\phantomsection\label{\detokenize{judou/xiangshe:judou-xiangshe-3}}"
            r"\ylnum{3}") in tex
    assert r"{\yltext{jing}司马命获者执旌以负侯}\ylopen{}{\ylnote{zhu}{注}欲令射者见侯与旌深有志于中}" in tex
    assert r"{\ylnote{an}{按}上文命张侯倚旌疏云同是西阶前至此未有他事当亦西阶前命之也}\ylclose{}" in tex
    assert r"深有志于中}\ylsep{}{\ylnote{an}{按}" in tex  # between two notes of one 【】
    assert r"\begin{ylline}{chaptertitle}" in tex and r"\ylnote{mulu}{目录}郑目录云" in tex
    assert r"\ylgap{前阙}" in tex
    # the first passage of 乡射礼 has no words (seed 000 starts inside its note): said as on the page
    first = tex[tex.index(r"\label{\detokenize{judou/xiangshe:judou-xiangshe-1}}"):]
    assert first[:first.index(r"\ylopen{}")].endswith(r"\ylgap{经文阙}")
    assert "不挟亦右执弦如司射" in tex
    assert not PUA.search(tex)


def test_man_and_texinfo(sphinx_build):
    for builder, suffix in (("man", ".1"), ("texinfo", ".texi")):
        build = sphinx_build(FIXTURE_PROJECT, builder)
        out = next(build.outdir.glob(f"*{suffix}")).read_text(encoding="utf-8")
        assert "司马命获者执旌以负侯【注：欲令射者见侯与旌深有志于中" in out, builder
        assert not PUA.search(out)


def test_text_builder_apparatus_names_no_file(sphinx_build, tmp_path):
    """The plain-text 校勘记 shows what the reader sees in the PDF: the label, the passage and the
    entry's text (with its witness and page), never the seed's file:line:col (those are in the
    maintainers' listing, build/html/_maintainers/)."""
    import shutil
    import subprocess
    import sys

    from conftest import ROOT

    seed = next((ROOT / "seeds").glob("000_*.txt"))
    convert = subprocess.run([sys.executable, "-m", "conv", "build", str(seed), "--out", str(tmp_path)],
                             capture_output=True, text=True, cwd=ROOT)
    assert convert.returncode == 0, convert.stderr[-3000:]
    shutil.copy(ROOT / "source" / "conf.py", tmp_path / "conf.py")
    (tmp_path / "index.md").write_text("# 仪礼\n\n```{toctree}\njudou/index\napparatus/index\n```\n", encoding="utf-8")
    build = sphinx_build(tmp_path, "text")
    flat = (build.outdir / "apparatus" / "judou.txt").read_text(encoding="utf-8").replace("\n", "")
    assert "校1 *乡射礼18*　“弦”：底本作私用区码位 U+EB8E（缺笔），避康熙帝玄烨讳，弦字所从玄缺末笔；据文渊阁本校为弦" in flat
    assert not re.findall(r"\w+\.txt:\d+:\d+", flat), re.findall(r".{20}\w+\.txt:\d+:\d+", flat)[:3]
