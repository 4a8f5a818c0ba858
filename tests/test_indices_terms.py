"""The index of terms without nodes in the doctree (术语索引的记录): what a page's terms give the
general index, the search index and the LaTeX index, and how that follows the pages.

``conv.sphinx_ext.backmatter.terms.TermOccurrences`` records each passage's terms in the environment (the
index domain's entries and ``env.yl_terms``) instead of putting an ``index`` node before the
passage into the doctree; the HTML builder's search index gets a page's entries when the page is
written, other builders (LaTeX) get the nodes back where they stood. These tests check the
records against the terms ``conv.analyses.terms.find`` finds in the passages' words, and that incremental
and parallel builds keep them right. (The outputs themselves: ``test_indices.py``.)
"""
from __future__ import annotations

import json
import pickle
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from sphinx import addnodes

from conftest import FIXTURE_PROJECT, ROOT
from conv.analyses import terms as term_index
from conv.sphinx_ext.nodes import yl_passage, yl_text
from incremental_project import edition
from search_helpers import search_index

CHAPTERS = ["judou/xiangshe", "judou/yanli", "tongjie/xiangyinjiu", "tongjie/dashe"]


# -- helpers ----------------------------------------------------------------------------------

def project_copy(base: Path) -> Path:
    """The fixture project in ``base/src``, its ``conf.py`` pointing at the real one."""
    src = base / "src"
    shutil.copytree(FIXTURE_PROJECT, src)
    (src / "conf.py").write_text(
        f"from pathlib import Path\n_conf = Path({str(ROOT / 'source' / 'conf.py')!r})\n"
        "exec(compile(_conf.read_text(encoding='utf-8'), str(_conf), 'exec'))\n", encoding="utf-8")
    return src


def run_build(src: Path, out: Path, doctrees: Path, builder: str = "html", *args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", builder,
                           "-d", str(doctrees), *args, str(src), str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return proc.stdout


def load_env(doctrees: Path):
    with (doctrees / "environment.pickle").open("rb") as handle:
        return pickle.load(handle)


def passage_terms(doctree) -> list[tuple[str, str, list[str]]]:
    """``(anchor, layer, terms)`` of each passage with terms, found in its words as the index
    of terms finds them (``conv.analyses.terms.find``, leftmost-longest)."""
    catalogue = term_index.load()
    found = []
    for passage in doctree.findall(yl_passage):
        anchor = passage.get("anchor") or (passage["ids"][0] if passage["ids"] else "")
        words = next((c for c in passage.children if isinstance(c, yl_text)), None)
        if not anchor or words is None or anchor not in passage["ids"]:
            continue
        words_found = [w for _, _, w in term_index.find(words.astext(), catalogue)]
        if words_found:
            found.append((anchor, passage.get("layer", ""), words_found))
    return found


def expected_entries(docname: str, rows) -> list[tuple]:
    """The general index's entries of a page's terms (``single``, ``觯; 句读·乡射礼``)."""
    from conv.sphinx_ext.backmatter.terms_found import initial, where

    return [("single", f"{word}; {where(anchor, None, docname)}", anchor, "", initial(word))
            for anchor, _layer, found in rows for word in dict.fromkeys(found)]


# -- the doctrees and the environment ---------------------------------------------------------

def test_doctrees_hold_no_term_index_nodes(fixture_html):
    """The terms are recorded in the environment: every later transform, post-transform and
    writer walks a doctree without the ``index`` nodes (one per passage with terms)."""
    for docname in CHAPTERS:
        doctree = fixture_html.doctree(docname)
        assert not list(doctree.findall(addnodes.index)), docname


def test_environment_records_the_terms_of_each_passage(fixture_html):
    env = load_env(fixture_html.doctreedir)
    entries = env.domaindata["index"]["entries"]
    total = 0
    for docname in CHAPTERS:
        rows = passage_terms(fixture_html.doctree(docname))
        assert rows, docname
        assert env.yl_terms[docname] == rows, docname
        assert entries[docname] == expected_entries(docname, rows), docname
        total += len(rows)
    assert total >= 30


def test_search_index_holds_the_terms_of_written_pages(fixture_html):
    """The search index's entries of a page: its terms and their chapters, linked to the
    passages, as Sphinx makes them from a page's index entries (``IndexBuilder.feed``)."""
    from sphinx.util.index_entries import split_index_msg

    env = load_env(fixture_html.doctreedir)
    index = search_index(fixture_html.outdir)
    docnames = index["docnames"]
    found: dict[str, set] = {}
    for entry, places in index["indexentries"].items():
        for doc, anchor, main in places:
            found.setdefault(docnames[doc], set()).add((entry, anchor, main))
    for docname in CHAPTERS:
        expected = {(part.lower(), anchor, main == "main")
                    for kind, value, anchor, main, _ in env.domaindata["index"]["entries"][docname]
                    for part in split_index_msg(kind, value)}
        assert expected and found.get(docname) == expected, docname
        for anchor, _layer, words in env.yl_terms[docname]:
            assert {(word, anchor, False) for word in words} <= expected, anchor


@pytest.fixture(scope="module")
def fixture_latex(sphinx_build):
    return sphinx_build(FIXTURE_PROJECT, "latex")


def test_latex_marks_every_passage_with_its_terms(fixture_latex):
    """Each passage's words open with the pinyin-keyed ``\\index`` entries of its terms (the
    LaTeX builder gets the nodes back where they stood)."""
    from conv import datafiles as data
    from conv.sphinx_ext.backmatter.terms_found import where

    works = {w["id"]: i for i, w in enumerate(data.works())}
    chapters = {w: {c["id"]: c["number"] for c in data.chapters_of(w)} for w in works}  # the 通解's own order
    tex = (fixture_latex.outdir / "yili.tex").read_text(encoding="utf-8")
    env = load_env(fixture_latex.doctreedir)
    expected = Counter()
    for docname in CHAPTERS:
        for anchor, _layer, found in env.yl_terms[docname]:
            work, chapter, _ = anchor.split("-")
            sub = f"{works[work]}{chapters[work][chapter]:02d}@\\spxentry{{{where(anchor)}}}"
            expected["".join(r"\index{%s %s@\spxentry{%s}!%s}" % (
                term_index.pinyin(w).replace(" ", ""), w, w, sub) for w in dict.fromkeys(found))] += 1
    # each run of entries stands alone (one passage's), right before the passage's words
    runs = Counter(re.findall(r"(?:\\index\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})+(?!\\index\{)", tex))
    assert runs == expected and sum(expected.values()) > 30
    assert not list(fixture_latex.doctree("judou/xiangshe").findall(addnodes.index))


def test_latex_term_index_gives_a_line_per_chapter(fixture_latex):
    """In print the 名物索引 lists a term's places by chapter, one line each with its passages'
    numbers and the page of the first (a line per passage made the whole edition's 325 pages);
    the HTML pages keep one entry per passage."""
    tex = (fixture_latex.outdir / "yili.tex").read_text(encoding="utf-8")
    jue = tex[tex.index(r"\sphinxstyleindexentry{爵}"):]
    jue = jue[:re.search(r"\\sphinxstyleindexentry\{(?!　)", jue[30:]).start() + 30]  # up to the next term
    # 爵: its four passages of 乡饮酒礼 on one line, none on a line of its own
    assert re.findall(r"\\sphinxstyleindexentry\{　([^}]*)\}", jue) == ["通解·乡饮酒礼 第2、4、5、8段"]
    assert r"\sphinxstyleindexpageref{tongjie/xiangyinjiu:\detokenize{tongjie-xiangyinjiu-2}}" in jue
    lines = re.findall(r"\\sphinxstyleindexentry\{　([^}]*)\}", tex)
    places = re.findall(r"\\sphinxstyleindexentry\{　\S+ 第([\d、]+)段\}", tex)
    assert len(lines) == len(places) > 50 and sum(p.count("、") for p in places) > 30


# -- incremental and parallel builds ----------------------------------------------------------

def test_removing_a_term_from_a_passage_updates_every_index(tmp_path):
    """A chapter page edited so that a passage loses a term: the environment, the general index,
    the index of terms and the search index forget it, as a clean build of the edited page."""
    from incremental_project import differences

    src = project_copy(tmp_path / "inc")
    out, doctrees = tmp_path / "inc" / "html", tmp_path / "inc" / "doctrees"
    run_build(src, out, doctrees)
    env = load_env(doctrees)
    assert ("judou-xiangshe-2", "jing", ["阶", "扑"]) in env.yl_terms["judou/xiangshe"]
    assert "judou-xiangshe-2" in (out / "yl-terms-she.html").read_text(encoding="utf-8")  # 扑
    page = src / "judou" / "xiangshe.md"
    text = page.read_text(encoding="utf-8")
    assert text.count("遂适阶西取扑搢之以反位\n") == 1
    page.write_text(text.replace("遂适阶西取扑搢之以反位\n", "遂适阶西取某搢之以反位\n"),
                    encoding="utf-8")
    stdout = run_build(src, out, doctrees)
    assert "1 changed" in stdout
    env = load_env(doctrees)
    assert ("judou-xiangshe-2", "jing", ["阶"]) in env.yl_terms["judou/xiangshe"]
    entries = env.domaindata["index"]["entries"]["judou/xiangshe"]
    assert not [e for e in entries if e[1].startswith("扑;") and e[2] == "judou-xiangshe-2"]
    assert ("扑", "judou-xiangshe-2", False) not in {
        (entry, anchor, main) for entry, places in search_index(out)["indexentries"].items()
        for _, anchor, main in places}
    # and nothing else: as a clean build of the edited sources (the search index's words
    # aside: Sphinx keeps a word the page lost as an empty list of pages, a clean build has none)
    clean = tmp_path / "clean"
    shutil.copytree(src, clean / "src")
    run_build(clean / "src", clean / "html", clean / "doctrees")
    assert [d for d in differences(out, clean / "html") if not d.startswith("searchindex.js")] == []
    mine, theirs = search_index(out), search_index(clean / "html")
    assert {k: v for k, v in mine["terms"].items() if v != []} == theirs["terms"]
    assert {k: v for k, v in mine.items() if k != "terms"} == {
        k: v for k, v in theirs.items() if k != "terms"}


def test_mixed_page_keeps_the_document_order_of_its_entries(tmp_path):
    """A hand-written page with index entries before and after a passage with terms: the index
    domain lists the page's entries in document order, the terms' where the passage stands."""
    src = project_copy(tmp_path)
    (src / "mixed.md").write_text(
        "---\norphan: true\n---\n\n(mixed)=\n# 混合\n\n前文{index}`前词`。\n\n"
        "::::{yl:passage} mixed-1\n:layer: jing\n\n司射适阶西\n::::\n\n后文{index}`后词`。\n",
        encoding="utf-8")
    doctrees = tmp_path / "doctrees"
    run_build(src, tmp_path / "html", doctrees)
    entries = load_env(doctrees).domaindata["index"]["entries"]["mixed"]
    values = [value for _, value, *_ in entries]
    assert values == ["前词", "司射; mixed", "阶; mixed", "后词"]
    assert [e[2] for e in entries[1:3]] == ["mixed-1", "mixed-1"]


def test_parallel_read_records_what_a_serial_read_records(tmp_path):
    """``-j 2`` reads pages in forked processes; their records are merged into the main
    environment: the same entries and terms as ``-j 1``."""
    src = edition(tmp_path)
    envs = []
    for jobs in ("1", "2"):
        doctrees = tmp_path / f"doctrees-{jobs}"
        run_build(src, tmp_path / f"html-{jobs}", doctrees, "html", "-j", jobs)
        envs.append(load_env(doctrees))
    serial, parallel = envs
    assert serial.yl_terms and parallel.yl_terms == serial.yl_terms
    mine = serial.domaindata["index"]["entries"]
    theirs = parallel.domaindata["index"]["entries"]
    assert {d: e for d, e in theirs.items() if e} == {d: e for d, e in mine.items() if e}
    assert sum(len(e) for e in mine.values()) > 1000


# -- finding the terms ------------------------------------------------------------------------

def test_term_words_equal_find_on_every_passage(edition):
    """The matcher of the build (one regular expression over the term list) finds what
    ``conv.analyses.terms.find`` finds, in order, in every passage of the seeds."""
    from conv.analyses.text import passage_text, passages
    from conv.sphinx_ext.backmatter.terms_found import term_words

    catalogue = term_index.load()
    checked = 0
    for _, _, _, passage in passages(edition):
        text = passage_text(edition, passage).normalized
        assert term_words(text, catalogue) == [w for _, _, w in term_index.find(text, catalogue)]
        checked += 1
    assert checked > 300


def test_term_words_equal_find_on_term_soup():
    """Random strings of term characters, homograph and sense contexts and other characters:
    overlaps, terms inside longer terms, homographs and senses at every position."""
    from conv.sphinx_ext.backmatter.terms_found import term_words

    catalogue = term_index.load()
    pieces = (list(catalogue.forms) + [c for t in catalogue.terms.values() for c in t.homographs + t.include]
              + list("之而以其也者射获宾中洗尊遂"))
    rng = random.Random(1234)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        cut = rng.randint(0, len(text))  # pieces cut in the middle, too
        text = text[cut:] + text[:cut]
        assert term_words(text, catalogue) == [w for _, _, w in term_index.find(text, catalogue)], text


# -- the domain index's content -----------------------------------------------------------------

CONTENT_LENGTHS = """
import json, sys
from sphinx.application import Sphinx
from conv.sphinx_ext.backmatter import terms as indices

src, out, doctrees = sys.argv[1:4]
app = Sphinx(src, src, out, doctrees, "html", status=None, warning=None)
domain = app.env.get_domain("yl")
found = []
for docnames in (None, {"judou/xiangshe"}, {"judou/xiangshe", "tongjie/dashe"}):
    indices.forget_listing(app, app.env)
    content, collapse = indices.TermIndex(domain).generate(docnames)
    length = len(content)  # before the content is read
    found.append([length, collapse, len(list(content)),
                  len(indices.TermIndex(domain)._generate(docnames))])
print(json.dumps(found))
"""


def test_index_content_length_is_its_length(fixture_html, tmp_path):
    """``TermIndex.generate`` tells Sphinx how many categories the index has without making
    the content (an HTML build never reads it); read, the content has that many. (In another
    process: a Sphinx application made here would take over the logging of the session's.)"""
    doctrees = tmp_path / "doctrees"
    shutil.copytree(fixture_html.doctreedir, doctrees)
    for kept in doctrees.glob("yl-*.pickle"):
        kept.unlink()
    proc = subprocess.run([sys.executable, "-c", CONTENT_LENGTHS, str(fixture_html.srcdir),
                           str(tmp_path / "out"), str(doctrees)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for length, collapse, read, made in json.loads(proc.stdout.strip().splitlines()[-1]):
        assert length and collapse is True
        assert read == length == made


def test_an_occurrence_no_sense_rule_places_is_listed_apart(tmp_path):
    """尊 in 宫尊而 is neither the vessel's context (尊南, 之尊 …) nor the verb's (尊于 …): counted,
    and listed under 未能归类 on the index page (issue 23, point 7)."""
    src = project_copy(tmp_path)
    (src / "senses.md").write_text(
        "---\norphan: true\n---\n\n(senses)=\n# 义项\n\n"
        "::::{yl:passage} senses-1\n:layer: jing\n\n司宫尊而献之袒决遂\n::::\n", encoding="utf-8")
    doctrees = tmp_path / "doctrees"
    run_build(src, tmp_path / "html", doctrees)
    env = load_env(doctrees)
    assert env.yl_terms_unplaced == {"senses": [("senses-1", "尊")]}
    assert env.yl_terms["senses"] == [("senses-1", "jing", ["司宫", "尊", "献", "袒", "决", "遂"])]
    page = (tmp_path / "html" / "yl-terms.html").read_text(encoding="utf-8")
    section = page[page.index('id="yl-terms-unplaced"'):]
    assert "未能归类" in section and 'href="senses.html#senses-1"' in section
