"""The diagram of the dishes in the 句读's 公食大夫禮 (饌位圖, KR1d0038_009 l.144–152, 卷九叶八b–九a):
a reviewed entry of ``conv/data/diagrams.toml`` (a stale one stops the conversion at its line), read
as one passage of the layer ``figure`` with its printed columns → cells (``conv.reader.diagrams``,
``conv.parser.figures``), every character of the block in exactly one cell (conservation)."""
from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import given
from hypothesis import strategies as st

from conv import datafiles as data
from conv.edition import assemble, export
from conv.errors import ConservationError, ConversionError
from conv.model import conservation
from conv.model.tree import TEXT_CHAR, Cell, Column
from conv.myst import diagram as diagram_format
from conv.reader import diagrams, mandoku
from smallsite import build_site

ROOT = Path(__file__).resolve().parents[1]
GONGSHI = ROOT / "seeds" / "wenyuange" / "KR1d0038" / "KR1d0038_009.txt"
LINES = GONGSHI.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def converted():
    edition = assemble.convert([GONGSHI])
    return edition, export.edition(edition)


def figures(dump: dict) -> list[tuple[dict, int, dict]]:
    return [(s, i, p) for w in dump["works"] for c in w["chapters"] for s in c["sections"]
            for i, p in enumerate(s["passages"]) if p["layer"] == "figure"]


def shown(column: dict) -> list:
    """A column's cells as (kind, halves) — a gap as ("gap", its blanks)."""
    return [("gap", c["size"]) if c["kind"] == "gap" else (c["kind"], c["halves"]) for c in column["cells"]]


# -- the reviewed entry -----------------------------------------------------------------------------

def test_the_entry_names_the_block_and_its_columns():
    ((number, entry),) = [(n, e) for n, e in data.diagrams() if e["file"] == GONGSHI.name]
    assert (entry["first"], entry["last"]) == (144, 152) and entry["reason"]
    assert [line.lstrip("\u3000").startswith(b) for line, b in
            zip([LINES[n - 1] for n in range(144, 153) if n != 149], entry["begins"])] == [True] * 8
    assert data.read_text(data.DIAGRAMS, "").splitlines()[number - 1] == "[[diagram]]"


@pytest.mark.parametrize("change, line", [
    ({"begins": ["(飲酒豐麋臡", "(醓醢/韭菹)", "席東正饌", "戸", "南", "牖", "席西加饌", "(牛膷/)"]}, 148),
    ({"first": 145}, 145),
    ({"last": 153}, 144),
])
def test_a_stale_entry_stops_at_its_line(change, line):
    witness = mandoku.read(GONGSHI)
    ((number, entry),) = [(n, e) for n, e in data.diagrams() if e["file"] == GONGSHI.name]
    with pytest.raises(ConversionError) as caught:
        diagrams.blocks(witness, [(number, dict(entry, **change))])
    error = caught.value
    assert (error.seed, error.line) == ("conv/data/diagrams.toml", number)
    assert f"stale diagram: KR1d0038_009.txt:{line}:" in str(error)


def test_another_file_has_no_diagram():
    witness = mandoku.read(GONGSHI.with_name("KR1d0038_008.txt"))
    assert diagrams.blocks(witness) == []


# -- the model ----------------------------------------------------------------------------------------

def test_the_block_is_one_figure_after_its_title(converted):
    _, dump = converted
    ((section, index, figure),) = figures(dump)
    assert section["title"] == "右為賔設加饌" and index == len(section["passages"]) - 1
    assert figure["page"] == {"juan": 9, "leaf": 8, "side": "b"} and figure["notes"] == []
    assert figure["caption"] == "饌位圖（原書自右至左讀）"
    seed, start, end = figure["span"]
    text = GONGSHI.read_text(encoding="utf-8")
    assert seed == GONGSHI.name and text[start:].startswith("　　　　　(飲酒豐麋臡") and text[:end].endswith("(魚膾/)")
    assert figure["text"].startswith("飲酒豐麋臡昌本豕俎膚俎胃俎腸醓醢韭菹") and figure["text"].endswith("牛膷牛鮨羊炙魚膾")
    assert figure["normalized"].startswith("饮酒丰麋臡昌本豕俎肤俎胃俎肠")
    after = [p for s in dump["works"][0]["chapters"][0]["sections"] for p in s["passages"]]
    assert after[after.index(figure) + 1]["text"].startswith("贊升賔")


def test_columns_right_to_left_with_their_lines_and_pages(converted):
    _, dump = converted
    ((_, _, figure),) = figures(dump)
    assert [c["line"] for c in figure["columns"]] == [144, 145, 146, 147, 148, 150, 151, 152]
    b8, a9 = {"juan": 9, "leaf": 8, "side": "b"}, {"juan": 9, "leaf": 9, "side": "a"}
    assert [c["page"] for c in figure["columns"]] == [b8] * 5 + [a9] * 3


def test_exact_cells_of_three_columns(converted):
    _, dump = converted
    ((_, _, figure),) = figures(dump)
    first, third, last = (figure["columns"][i] for i in (0, 2, 7))
    assert shown(first) == [("gap", 5), ("pair", ["飲酒豐麋臡", "昌本"]), ("gap", 1), ("pair", ["豕俎膚俎胃俎", "腸"])]
    assert shown(third) == [("label", ["席東正饌"]), ("gap", 1), ("pair", ["牛鉶", "羊鉶"]), ("gap", 1),
                            ("pair", ["牛鉶", "豕鉶"]), ("gap", 1), ("pair", ["黍簋", "稷簋"]), ("gap", 1),
                            ("pair", ["稷簋", "黍簋"])]
    assert shown(last) == [("gap", 10), ("pair", ["牛膷", ""]), ("gap", 1), ("pair", ["牛鮨", ""]), ("gap", 1),
                           ("pair", ["羊炙", ""]), ("gap", 1), ("pair", ["魚膾", ""])]
    text = GONGSHI.read_text(encoding="utf-8")
    cell = first["cells"][3]
    assert text[cell["span"][1]:cell["span"][2]] == "(豕俎膚俎胃俎/      腸)"


def test_every_character_of_the_block_in_exactly_one_cell(converted):
    _, dump = converted
    ((_, _, figure),) = figures(dump)
    text = GONGSHI.read_text(encoding="utf-8")
    counted = [o for c in figure["columns"] for cell in c["cells"] for o in range(cell["span"][1], cell["span"][2])
               if TEXT_CHAR.match(text[o]) and text[o] not in "()/¶"]
    start = text.index("　　　　　(飲酒豐麋臡")
    end = text.index("(魚膾/)") + len("(魚膾/)")
    block = [o for o in range(start, end) if TEXT_CHAR.match(text[o]) and text[o] not in "()/¶"
             and not text[text.rfind("\n", 0, o) + 1:].startswith("<pb:")]
    assert sorted(counted) == block and len(counted) == len(set(counted)) == len(figure["text"]) == 102


def test_the_conservation_check_counts_the_cells(converted):
    edition, _ = converted
    conservation.check(edition)
    broken = copy.deepcopy(edition)
    figure = next(p for c in broken.works[0].chapters for s in c.sections for p in s.passages if p.columns)
    del figure.columns[2].cells[2]  # 牛鉶/羊鉶 in no cell
    with pytest.raises(ConservationError) as caught:
        conservation.check(broken)
    assert "'牛' at offset" in str(caught.value) and "lost" in str(caught.value)
    assert (caught.value.line, caught.value.col) == (146, 7)


def test_no_cell_is_a_note_without_text(converted):
    _, dump = converted
    assert [p for p in dump["problems"] if p["kind"] == "note-without-text"] == []


# -- cells of any column ------------------------------------------------------------------------------

HAN = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=6)
CELL = st.one_of(st.tuples(st.just("pair"), HAN, st.one_of(st.just(""), HAN)),
                 st.tuples(st.just("label"), HAN), st.tuples(st.just("gap"), st.integers(1, 6)))


@given(st.lists(CELL, min_size=1, max_size=10))
def test_cells_give_back_any_column(drawn):
    cells = []
    for cell in drawn:  # two labels or two gaps side by side are one label, one gap
        if cells and cell[0] in ("label", "gap") and cells[-1][0] == cell[0]:
            continue
        cells.append(cell)
    written = "".join(f"({c[1]}/{c[2]})" if c[0] == "pair" else c[1] if c[0] == "label" else "\u3000" * c[1]
                      for c in cells)
    found = diagrams.cells(written + "¶", 0, len(written))
    assert [(c.kind, [written[a:b] for a, b in c.halves] if c.kind != "gap" else c.end - c.start) for c in found] == \
        [(c[0], list(c[1:]) if c[0] != "gap" else c[1]) for c in cells]
    assert "".join(written[c.start:c.end] for c in found) == written


def test_a_stray_parenthesis_is_no_cell():
    assert diagrams.cells("(醢/)　醢)", 0, 7) == 6


# -- the line format of yl:diagram ------------------------------------------------------------------

@given(st.lists(CELL, min_size=1, max_size=10))
def test_a_column_line_reads_back_as_its_cells(drawn):
    column = Column(1, ("s", 0, 0), None, [Cell(c[0], [] if c[0] == "gap" else list(c[1:]), ("s", 0, 0),
                                                c[1] if c[0] == "gap" else 0) for c in drawn])
    assert diagram_format.cells(diagram_format.line(column)) == \
        [("gap", c.size) if c.kind == "gap" else (c.kind, c.halves) for c in column.cells]


def test_a_cell_holding_a_mark_of_the_format_is_refused():
    with pytest.raises(ValueError):
        diagram_format.line(Column(1, ("s", 0, 0), None, [Cell("label", ["a|b"], ("s", 0, 0))]))
    assert diagram_format.cells("醢/|") is None and diagram_format.cells("醢_") is None


# -- the page: HTML, LaTeX, text, search ------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    src = tmp_path_factory.mktemp("diagram")
    return src, build_site(src, [GONGSHI])


def test_the_myst_writes_one_line_per_column(site):
    src, _ = site
    page = (src / "judou" / "gongshi.md").read_text(encoding="utf-8")
    start = page.index("::::{yl:diagram} judou-gongshi-91")
    assert page[start:].split("\n")[1:13] == [
        ":source: KR1d0038_009.txt:144:1", ":page: 卷九叶八b", ":caption: 饌位圖（原書自右至左讀）", "",
        "_____|飲酒豐麋臡/昌本|_|豕俎膚俎胃俎/腸", "_____|醓醢/韭菹|_|菁菹/鹿臡|_|羊俎/牛俎|_|腊俎/魚俎",
        "席東正饌|_|牛鉶/羊鉶|_|牛鉶/豕鉶|_|黍簋/稷簋|_|稷簋/黍簋", "_|戸|___|醯醬/太羮|____|黍簋/|_|稷簋/",
        "北|__|蒲/筵", "_|牖|___|粱簠/稻簠|___|牛炙/|_|醢/|__|豕炙/|_|醢/",
        "席西加饌|_|漿飲豐/|__|豕膮/羊臐|_|牛胾/醢|_|醢胾/羊|_|豕胾/芥醬", "__________|牛膷/|_|牛鮨/|_|羊炙/|_|魚膾/"]
    assert page.index("::::{yl:title} judou-gongshi-s7") < start < page.index("贊升賔")
    assert "{yl:redirect} judou-gongshi-92\n:to: judou-gongshi-91" in page


def printed(element) -> str:
    """An element's text as the witness prints it (the 底本 view: each folding run's ``yl-w``)."""
    element = copy.copy(element)
    for normalized in element.select(".yl-n"):
        normalized.decompose()
    return element.get_text()


def test_the_html_figure_reads_right_to_left(site):
    _, out = site
    soup = BeautifulSoup((out / "judou" / "gongshi.html").read_text(encoding="utf-8"), "html.parser")
    figure = soup.find("figure", id="judou-gongshi-91")
    assert figure["class"] == ["yl-diagram"] and figure.find_previous(class_="yl-title").get_text().startswith("右為賔設加饌")
    columns = figure.select(".yl-dcolumn")
    assert len(columns) == 8
    first = columns[0]
    assert [c["class"][0] for c in first.find_all(recursive=False)] == ["yl-dgap", "yl-dpair", "yl-dgap", "yl-dpair"]
    assert first.select_one(".yl-dgap")["style"] == "--yl-gap: 5"
    assert [printed(h) for h in first.select(".yl-dhalf")] == ["飲酒豐麋臡", "昌本", "豕俎膚俎胃俎", "腸"]
    assert [printed(label) for label in figure.select(".yl-dlabel")] == ["席東正饌", "戸", "北", "牖", "席西加饌"]
    caption = figure.find("figcaption")
    assert caption.get_text().startswith("饌位圖（原書自右至左讀）卷九叶八b") and caption.find("a", class_="yl-permalink")
    assert all(soup.find(id=f"judou-gongshi-{n}").find_parent("figure") is figure for n in range(92, 122))
    assert not re.search(r"KR1d0038|\.txt", str(figure))  # no file names for readers


def test_the_css_lays_the_columns_right_to_left_and_scrolls_inside():
    css = (ROOT / "conv" / "sphinx_ext" / "static" / "yili.css").read_text(encoding="utf-8")
    rule = css[css.index(".yl-diagram-columns {"):]
    assert "writing-mode: vertical-rl" in rule[:rule.index("}")]
    assert "overflow-x: auto" in css[css.index(".yl-diagram-box {"):][:80]


def test_the_search_finds_the_cells_words_and_no_pair_across_cells(site):
    _, out = site
    text = (out / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(text[text.index("(") + 1:text.rindex(")")])["terms"]
    assert {"醓醢", "韭菹", "牛铏", "席东"} <= set(terms)
    assert not {"本豕", "馔牛", "臡昌"} & set(terms)  # 昌本|豕俎…, 席東正饌|牛鉶, 飲酒豐麋臡/昌本


def test_latex_and_text_give_one_row_per_column(site):
    src, _ = site
    for builder in ("latex", "text"):
        run = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", builder, str(src),
                              str(src / f"_{builder}")], capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == 0, run.stderr[-2000:]
    tex = (src / "_latex" / "yili.tex").read_text(encoding="utf-8")
    start = tex.index("饌位圖（原書自右至左讀）")
    table = tex[start:tex.index("\\end{tabular}", start)]
    rows = [row.strip() for row in table.split("\\\\\n")[:-1]]
    assert "饌位圖（原書自右至左讀）（此表每行即原書一行）" in table and len(rows) == 8
    # the PDF prints the reading forms, as it does a passage's text (鉶 → 铏)
    assert rows[2].endswith("三 & 席东正馔\\hspace*{1em}{\\footnotesize(牛铏／羊铏)}\\hspace*{1em}"
                            "{\\footnotesize(牛铏／豕铏)}\\hspace*{1em}{\\footnotesize(黍簋／稷簋)}\\hspace*{1em}"
                            "{\\footnotesize(稷簋／黍簋)}")
    assert {f"\\label{{\\detokenize{{judou/gongshi:judou-gongshi-{n}}}}}" for n in range(91, 122)} <= set(
        re.findall(r"\\label\{\\detokenize\{[^}]*\}\}", tex[tex.rindex("\\begin{center}", 0, start):start]))
    lines = (src / "_text" / "judou" / "gongshi.txt").read_text(encoding="utf-8").splitlines()
    at = lines.index("饌位圖（原書自右至左讀）")
    # one paragraph per column in reading order (the text writer wraps long ones), reading forms
    assert lines[at + 2] == "\u3000" * 5 + "（饮酒丰麋臡／昌本）\u3000（豕俎肤俎胃俎／肠）"
    assert "北\u3000\u3000（蒲／筵）" in lines[at + 3:at + 16]


def test_without_the_entry_the_cells_are_reported_and_say_what_to_do(monkeypatch):
    """No diagram from the layout alone: without its entry the block is read as before, each cell a
    note without text whose message names the data file."""
    monkeypatch.setattr(data, "diagrams", lambda: [])
    dump = export.edition(assemble.convert([GONGSHI]))
    cells = [p for p in dump["problems"] if p["kind"] == "note-without-text"]
    assert [(p["line"], p["col"]) for p in cells][:3] == [(144, 6), (144, 17), (145, 14)] and len(cells) == 26
    assert all("record it in conv/data/diagrams.toml" in p["message"] for p in cells)
    assert figures(dump) == []
