"""The critical apparatus of each work (校勘记) on its pages, with its marks in the text: every PUA
resolution, correction, intervention, drop and reading of the JSON export of the seeds (``python -m
conv dump --json``) is an entry of its work's page, linked both ways with the passage it is on, in
the seeds' edition built with ``-W -j 2``. (The other back matter: ``test_indices.py``.)
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bs4 import BeautifulSoup

from conv import unencoded

from backmatter_pages import entries, resolved, rows, work_of_seed
from conftest import ROOT
from pagetext import diplomatic


# -- the entries ----------------------------------------------------------------------------------

def test_apparatus_lists_every_pua_resolution_count(seeds_export, seeds_soup):
    works = work_of_seed(seeds_export)
    for work in ("judou", "tongjie"):
        page = seeds_soup(f"apparatus/{work}")
        expected = Counter((a["witness"], a["reading"]) for a in seeds_export["apparatus"]
                           if a["kind"] == "pua" and works[a["span"][0]] == work)
        assert expected
        summary = {cells[0].get_text(): (int(cells[1].get_text()), int(cells[2].get_text()))
                   for cells in rows(page.select_one("table.yl-app-summary"))}
        for (code, char), count in expected.items():
            shown = unencoded.markup(char) if unencoded.is_stand_in(char) else char  # U+E14B → &KR0871;
            row = next(v for k, v in summary.items() if k.startswith(f"私用区字 {code} → {shown}"))
            assert row[1] == count, (work, code)
        # the entries, one per passage and code point, add up to the same counts
        listed = Counter()
        for div in entries(page, "pua"):
            body = div.select_one(".yl-app-body").get_text()
            code = body.split("私用区码位 ")[1][:6]
            times = int(body.split("（")[1].split("处")[0]) if "处）" in body else 1
            listed[code] += times
        assert listed == Counter({code: n for (code, _), n in expected.items()})
    # U+E14B is an unidentified character (文渊阁本 &KR0871;), no longer a spurious code point
    assert not [a for a in seeds_export["apparatus"] if a["kind"] == "spurious"]
    page = seeds_soup("apparatus/tongjie")
    assert not entries(page, "spurious")
    (e14b,) = [div for div in entries(page, "pua") if "U+E14B" in div.get_text()]
    assert "未识字" in e14b.get_text() and "&KR0871;" in e14b.get_text()


def test_apparatus_lists_corrections_c1_to_c6_with_reasons(seeds_export, seeds_soup, edition_html):
    """The reader's page says in Chinese what each correction decided, quoting the witness; the
    reviewed reason and the seed's file:line:col are in the maintainers' listing."""
    works = work_of_seed(seeds_export)
    corrections = [a for a in seeds_export["apparatus"] if a["kind"] == "correction"]
    assert sorted(a["correction"] for a in corrections) == [f"c{i}" for i in range(1, 7)]
    listing = [line.split("\t") for line in
               (edition_html.outdir / "_maintainers" / "apparatus.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    for record in corrections:
        work = works[record["span"][0]]
        page = seeds_soup(f"apparatus/{work}")
        row = next(r for r in listing if r[6].startswith(f"{record['correction']} {record['decision']}: "))
        seed, start, _ = record["span"]
        assert row[0] == f"apparatus/{work}" and row[5] == f"{seed}:{record['line']}:{record['col']}"
        assert row[6].endswith(" ".join(record["reason"].split()))
        div = page.find(id=row[1])
        assert div["data-kind"] == "correction" and div.select_one(".yl-app-label").get_text() == row[2]
        text = diplomatic(div.select_one(".yl-app-body"))
        layer_or_title = record["decision"].split(": ", 1)[1]
        whole = False  # a run made a title whole: the witness is quoted in the decision
        if record["decision"].startswith("title:"):
            whole = text.startswith(f"底本“{layer_or_title}”定为章旨，不作经文")
            assert whole or f"定章旨为“{layer_or_title}”" in text
        else:
            assert text.startswith("此段注文定为" + {"an": "按语", "shu": "贾疏"}[layer_or_title.split()[0]])
        assert (whole or "底本作“" in text) and not re.search(r"[A-Za-z]{2,}", text), text
        assert div.select_one(".yl-app-source") is None and seed not in str(div)


def test_apparatus_lists_every_intervention_and_drop(seeds_export, seeds_soup):
    works = work_of_seed(seeds_export)
    for work in ("judou", "tongjie"):
        page = seeds_soup(f"apparatus/{work}")
        records = [a for a in seeds_export["apparatus"] if works[a["span"][0]] == work]
        listed = Counter(d["data-kind"] for d in entries(page) if d["data-kind"] not in ("reading", "unparsed"))
        expected = Counter(a["kind"] for a in records if a["kind"] != "pua")
        expected["dropped"] = sum(1 for d in seeds_export["dropped"] if works[d["span"][0]] == work)
        assert +Counter({k: v for k, v in listed.items() if k != "pua"}) == +expected
    dropped = entries(seeds_soup("apparatus/judou"), "dropped")
    assert "读书之家" in dropped[0].get_text() and dropped[0]["data-locus"] == "judou-shaolao-33"


def test_every_reading_is_on_its_apparatus_page(seeds_export, seeds_soup):
    works = work_of_seed(seeds_export)
    readings = seeds_export["variants"]["readings"]
    assert len(readings) == 47
    for work in ("judou", "tongjie"):
        page = seeds_soup(f"apparatus/{work}")
        mine = [r for r in readings if works[r["span"][0]] == work]
        divs = entries(page, "reading")
        assert len(divs) == len(mine)
        for div, reading in zip(divs, mine):  # in reading order
            assert div["data-locus"] == reading["passage"]
            body = diplomatic(div.select_one(".yl-app-body"))
            assert f"郑注：“{resolved(reading['statement'])}”" in body
            assert reading["tradition"] in body
            if reading["lemma"]:
                assert body.startswith(resolved(reading["lemma"]) + "〕")
            if reading["kind"] != "omit":
                assert f"“{resolved(reading['variant'])}”" in body
        unparsed = [u for u in seeds_export["variants"]["unparsed"] if works[u["span"][0]] == work]
        assert [d["data-locus"] for d in entries(page, "unparsed")] == [u["passage"] for u in unparsed]
    guan = next(d for d in entries(seeds_soup("apparatus/judou"), "reading") if "古文贯作" in diplomatic(d))
    assert diplomatic(guan.select_one(".yl-app-body")).startswith("贯〕古文作“闗”")


def test_passages_are_marked_and_linked_to_their_entries(seeds_soup):
    for work in ("judou", "tongjie"):
        page = seeds_soup(f"apparatus/{work}")
        for div in entries(page):
            locus = div["data-locus"]
            link = div.select_one(".yl-app-locus a")
            docname = (Path(f"apparatus/{link['href'].split('#')[0]}").as_posix()
                       .replace("apparatus/../", "").removesuffix(".html"))
            chapter = seeds_soup(docname)
            holder = chapter.find(id=locus)
            assert holder is not None, locus
            if holder.name == "section":  # a section: its printed title carries the mark
                holder = holder.find("div", attrs={"data-section": locus})
            marks = [a for sup in holder.select("sup.yl-appmark") for a in sup.select("a")]
            mark = next(a for a in marks if a["href"].endswith("#" + div["id"]))
            assert mark.get_text() == div.select_one(".yl-app-label").get_text()
            assert mark["href"] == f"../apparatus/{work}.html#{div['id']}"


def test_marks_are_not_witness_text(seeds_soup):
    """A mark never enters the passage's text: no whitespace, skipped by the search."""
    chapter = seeds_soup("judou/xiangshe")
    passage = chapter.find(id="judou-xiangshe-4")
    sup = passage.select_one("sup.yl-appmark")
    assert sup.get_text() == "异1" and "no-search" in sup["class"]
    words = passage.select_one(".yl-text")
    assert diplomatic(words) == "获者适侯执旌负侯而俟"


def test_front_page_links_the_back_matter(seeds_soup):
    links = {a["href"] for a in seeds_soup("index").select(".sd-card a.reference.internal")}
    for page in ("apparatus/index.html", "apparatus/judou.html", "apparatus/tongjie.html",
                 "apparatus/glosses.html", "apparatus/glossary.html", "yl-terms.html", "genindex.html"):
        assert page in links, page
    contents = seeds_soup("apparatus/index")
    assert contents.select_one('a[href="../yl-terms.html"]') is not None


def test_marks_follow_the_apparatus_in_incremental_builds(tmp_path):
    """A hand-written page may hold entries too; when an entry changes, the chapter page it marks
    is written again although its own source did not change."""
    from conftest import FIXTURE_PROJECT

    src, out = tmp_path / "src", tmp_path / "html"
    shutil.copytree(FIXTURE_PROJECT, src)
    (src / "conf.py").write_text(  # the fixture's conf.py finds source/conf.py relative to itself
        f"from pathlib import Path\n_conf = Path({str(ROOT / 'source' / 'conf.py')!r})\n"
        "exec(compile(_conf.read_text(encoding='utf-8'), str(_conf), 'exec'))\n", encoding="utf-8")
    page = src / "mine.md"

    def build(label: str) -> str:
        page.write_text("---\norphan: true\n---\n\n# 校记\n\n:::{yl:app} mine-1\n"
                        f":label: {label}\n:kind: correction\n:locus: judou-xiangshe-18\n"
                        ":locus-text: 乡射礼18\n\n试校\\.\n:::\n", encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
                               "-d", str(tmp_path / "doctrees"), str(src), str(out)],
                              capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr[-3000:]
        chapter = BeautifulSoup((out / "judou" / "xiangshe.html").read_text(encoding="utf-8"), "html.parser")
        mark = chapter.find(id="judou-xiangshe-18").select_one("sup.yl-appmark a")
        assert mark["href"] == "../mine.html#mine-1"
        return mark.get_text()

    assert build("校甲") == "校甲"
    assert build("校乙") == "校乙"
