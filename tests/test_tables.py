"""The back matter's data tables (``yl:datatable``, conv/sphinx_ext/tables.py): what the converter
writes (``conv.myst.backmatter.locator.datatable``), that no cell can inject markup (HTML, LaTeX, MyST) whatever it
holds, that witness cells fold as the chapter pages do, and a pinyin cell breaks between syllables
only, all in process. (Built by Sphinx — links, LaTeX, the text builders —: ``test_tables_built.py``;
the real tables of the seeds — gloss index, glossary, apparatus overview — against the JSON export:
``test_indices.py``.)"""
from __future__ import annotations

import re
import string

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from latex_tables import latex_cells

from conv.myst.backmatter.locator import datatable
from conv.sphinx_ext.backmatter.tables_print import column_specs, print_widths
from conv.sphinx_ext.nodes import yl_datatable

# -- what the converter writes ------------------------------------------------------------------------

def test_converter_writes_one_directive_with_a_json_row_per_line():
    lines = datatable(["词", "读音", "出处"], [["賔", "bīn", ["句读·乡射礼25", "judou-xiangshe-25"]],
                                               ["a  b\n`c`", "", None]],
                      [2, 1, 3], "witness text cite", "yl-glossary")
    assert lines == [
        ":::{yl:datatable}",
        ":class: yl-glossary",
        ":widths: 2 1 3",
        ":cells: witness text cite",
        "",
        '["词","读音","出处"]',
        '["賔","bīn",["句读·乡射礼25","judou-xiangshe-25"]]',
        '["a b `c`","",null]',  # whitespace runs are one space, as escape_inline made them
        ":::",
        "",
    ]


def test_no_cell_can_break_a_line_of_the_directive():
    """Characters Python's ``splitlines`` breaks at are whitespace (collapsed) or escaped."""
    [row] = [line for line in datatable(["h"], [["x\u2028y\x85z\u2029"]], [1], "text", "c")
             if line.startswith('["x')]
    assert row == '["x y z"]'
    [row] = [line for line in datatable(["h", "c"], [["x", ["a\u2028b", "bad\u2028anchor"]]], [1, 1],
                                        "text cite", "c") if line.startswith('["x')]
    assert row == '["x",["a b","bad\\u2028anchor"]]' and len(row.splitlines()) == 1


def test_an_empty_table_is_a_sentence():
    assert datatable(["h"], [], [1], "text", "c") == ["无。", ""]


# -- no injection: any text round-trips (in process) ------------------------------------------------

METACHARACTERS = ["`", "{", "}", ":::", "$", "\\", "%", "#", "<", ">", "&", "*", "_", "[", "]", "^",
                  "~", '"', "'", "|", "{yl:witness}`x`", "<b>", "</td>", "&amp;", "$x$", "[a](b)",
                  "**", "```", ":::{yl:app}", "(x)=", "---", "- ", "> ", "\\textbf{x}", "\\\\",
                  "\\end{longtable}", "&\\\\", "\\u2028", "null", '["a"]', "]]", "@"]
HAN = "司马命获者执旌以负侯賔説竒宾吿○【】　"
PUA = "\ueb8e\ue14b\uea20"  # 缺笔 弦, the unidentified &KR0871;, 缺笔 玄


def texts(han: str):
    return st.lists(st.one_of(st.sampled_from(METACHARACTERS), st.sampled_from(list(han)),
                              st.sampled_from(list(string.punctuation)),
                              st.sampled_from([" ", "\n", "\t", "\u2028", "\x85", "a", "Z", "0"])),
                    max_size=30).map("".join)


GAIJI = "\U000f0367"  # the 文渊阁 transcription's &KR0871; (conv.unencoded): a character Unicode lacks
#: Text cells and the labels of loci are the converter's words, which may quote a witness character
#: (``《广韵》未收X``, a locus ``有司彻·X``); witness cells are the seeds' text.
TEXT, WITNESS = texts(HAN + PUA + GAIJI), texts(HAN + PUA + GAIJI)
CELLS = "text witness cite"


def collapsed(text: str) -> str:
    return " ".join(text.split())


def diplomatic(text: str) -> str:
    """What the diplomatic view shows of witness text: PUA resolved, a spurious one as 衍, one that
    stands for a character Unicode lacks (U+E14B: &KR0871;) as 〓."""
    from conv import datafiles as data
    from conv import unencoded

    table = data.pua()
    out = []
    for char in text:
        entry = table.get(char)
        shown = char if entry is None else (entry["char"] or "衍")
        out.append("〓" if unencoded.is_stand_in(shown) else shown)
    return "".join(out)


def page(header: list[str], rows: list[list]) -> str:
    return "# 表\n\n" + "\n".join(datatable(header, rows, [1, 2, 1], CELLS, "yl-probe")) + "\n"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=st.lists(texts(HAN), min_size=3, max_size=3), rows=st.lists(  # headers: column names
    st.tuples(TEXT, WITNESS, TEXT), min_size=1, max_size=4))
def test_any_cell_text_round_trips(myst_app, header, rows):
    data = [[plain, witness, [label, "judou-xiangshe-3"]] for plain, witness, label in rows]
    doctree = myst_app.parse(page(header, data))
    assert myst_app.take_warnings() == ""
    [table] = list(doctree.findall(yl_datatable))
    # one node, data only: no markup was parsed out of any cell
    assert [child.tagname for child in table.children] == ["#text"]
    assert table["header"] == [collapsed(cell) for cell in header]
    assert table["rows"] == [[collapsed(p), collapsed(w), [collapsed(label), "judou-xiangshe-3"]]
                             for p, w, [label, _] in data]
    assert table["cells"] == CELLS.split() and table["widths"] == [1, 2, 1]
    # the HTML holds the text and nothing else: only the table's own elements
    soup = BeautifulSoup(myst_app.html(table), "html.parser")
    allowed = {"div", "table", "colgroup", "col", "thead", "tbody", "tr", "th", "td", "p", "span"}
    assert {tag.name for tag in soup.find_all(True)} <= allowed
    spans = {" ".join(tag.get("class", [])) for tag in soup.find_all("span")}
    assert spans <= {"yl-witness", "yl-fs", "yl-w", "yl-n", "yl-w yl-mark", "xref yl yl-cite"} | {
        f"yl-char yl-char-{kind}" for kind in ("variant", "unencoded")} | {
        f"yl-char yl-char-pua-{kind} yl-pua" for kind in ("quebi", "variant", "spurious", "unknown")}
    assert [th.get_text() for th in soup.select("thead th")] == [collapsed(c) or "—" for c in header]
    for hidden in soup.select(".yl-n"):
        hidden.decompose()
    found = [[td.get_text() for td in tr.select("td")] for tr in soup.select("tbody tr")]
    # private-use code points of text cells and labels shown as in witness text, nothing else folded
    assert found == [[diplomatic(collapsed(p)) or "—", diplomatic(collapsed(w)) or "—",
                      diplomatic(collapsed(label)) or "judou-xiangshe-3"] for p, w, [label, _] in data]
    # no PUA code point of the witness text is ever written raw
    assert not re.search("[\ue000-\uf8ff\U000f0000-\U0010ffff]", str(soup))


class LatexProbe:
    """Just what ``visit_datatable_latex`` uses of Sphinx's LaTeX translator: its escaping, and the
    document it writes (the tables of a kind are set alike: here, one outside it)."""

    def __init__(self, print_form: str = "normalized") -> None:
        from types import SimpleNamespace

        from docutils.utils import new_document
        from sphinx.util import texescape

        texescape.init()
        self.body: list[str] = []
        self.config = SimpleNamespace(yl_print_form=print_form, latex_show_pagerefs=True)
        self.encode = lambda text: texescape.escape(text, "xelatex")
        self.document = new_document("probe")

    def idescape(self, anchor: str) -> str:
        from sphinx.writers.latex import LaTeXTranslator

        return LaTeXTranslator.idescape(self, anchor)


@settings(max_examples=120, deadline=None)
@given(rows=st.lists(st.tuples(TEXT, WITNESS, TEXT), min_size=1, max_size=4))
def test_any_cell_text_round_trips_in_latex(rows):
    from sphinx.util import texescape

    from conv.sphinx_ext.backmatter.tables import visit_datatable_latex
    from docutils import nodes

    data = [[collapsed(plain), collapsed(witness), [collapsed(label), "judou-xiangshe-3"]]
            for plain, witness, label in rows]
    node = yl_datatable("", classes=["yl-probe"], widths=[1, 2, 1], cells=CELLS.split(),
                        header=["a", "b", "c"], rows=data,
                        targets={"judou-xiangshe-3": ("judou/xiangshe", "judou-xiangshe-3", "")})
    probe = LatexProbe()
    with pytest.raises(nodes.SkipNode):
        visit_datatable_latex(probe, node)
    tex = "".join(probe.body)
    escape = lambda text: texescape.escape(text, "xelatex")  # noqa: E731
    link = (r"{\hyperref[\detokenize{judou/xiangshe:judou-xiangshe-3}]{\sphinxcrossref{"
            r"\DUrole{xref}{\DUrole{yl}{\DUrole{yl-cite}{%s}}}}}} "
            r"(\autopageref*{\detokenize{judou/xiangshe:judou-xiangshe-3}})")
    expected = [[escape(private(plain)) or "—",
                 r"\DUrole{yl-witness}{%s}" % escape(reading(witness)) if witness else "—",
                 link % escape(private(label) or "judou-xiangshe-3")]
                for plain, witness, [label, _] in data]
    assert latex_cells(tex) == expected
    assert not re.search("[\ue000-\uf8ff\U000f0000-\U0010ffff]", tex)  # no private-use code point, no stand-in


def test_a_pinyin_cell_breaks_only_between_its_syllables(myst_app):
    """读音 of a term of four syllables (肴升折俎) in a narrow column: written with its syllables spaced,
    shown joined (yáoshēngzhézǔ) with a break allowed between syllables, never inside one: ``<wbr>`` in
    HTML, ``\\allowbreak`` in LaTeX; the search text and the text builders have the word whole."""
    from docutils import nodes

    from conv.sphinx_ext.backmatter.tables import visit_datatable_latex

    body = datatable(["词", "读音"], [["肴升折俎", "yáo  shēng zhé zǔ"], ["飨", "xiǎng"], ["无", ""]], [1, 1],
                     "witness pinyin", "yl-probe")
    assert body[6] == '["肴升折俎","yáo shēng zhé zǔ"]'
    doctree = myst_app.parse("# 表\n\n" + "\n".join(body) + "\n")
    assert myst_app.take_warnings() == ""
    [table] = list(doctree.findall(yl_datatable))
    assert table.astext().splitlines()[1:] == ["| 肴升折俎 | yáoshēngzhézǔ |", "| 飨 | xiǎng |", "| 无 | — |"]
    soup = BeautifulSoup(myst_app.html(table), "html.parser")
    cell = soup.select("tbody tr")[0].select("td")[1]
    assert cell.get_text() == "yáoshēngzhézǔ" and len(cell.find_all("wbr")) == 3
    assert soup.select("tbody tr")[2].select("td")[1].get_text() == "—"
    probe = LatexProbe()
    with pytest.raises(nodes.SkipNode):
        visit_datatable_latex(probe, table)
    assert [row[1] for row in latex_cells("".join(probe.body))] == [
        r"yáo\allowbreak{}shēng\allowbreak{}zhé\allowbreak{}zǔ", "xiǎng", "—"]


def private(text: str) -> str:
    """The converter's words as the PDF prints them: a private-use code point in its reading form
    (〓 for a character Unicode lacks), every other character as it is."""
    from conv.normalize import is_pua

    return "".join(reading(char) if is_pua(char) else char for char in text)


def reading(text: str) -> str:
    """Witness text as the PDF prints it by default: the reading form (PUA resolved; a character
    Unicode lacks, such as U+E14B's &KR0871;, printed 〓)."""
    from conv import unencoded
    from conv.normalize import fold

    return "".join("〓" if unencoded.is_stand_in(char) else char for char in fold(text))


def test_witness_cells_fold_like_the_chapter_pages(myst_app):
    doctree = myst_app.parse(page(["a", "b", "c"], [["賔", "吿于賔\ueb8e\ue14b", ["乡射礼3", "judou-xiangshe-3"]]]))
    assert myst_app.take_warnings() == ""
    [table] = list(doctree.findall(yl_datatable))
    assert table.astext() == "| a | b | c |\n| 賔 | 告于宾弦〓 | 乡射礼3 |"  # reading forms (search)
    html = myst_app.html(table)
    cells = BeautifulSoup(html, "html.parser").select("tbody td")
    assert cells[0].decode_contents() == "<p>賔</p>"  # a text cell is not folded
    witness = cells[1].select_one("span.yl-witness")
    assert [(c["class"], c.select_one(".yl-w").get_text(), c.select_one(".yl-n").get_text())
            for c in witness.select("span.yl-char, span.yl-fs")] == [
        (["yl-fs"], "吿于賔", "告于宾"),  # a run of folding text, as on a chapter page
        (["yl-char", "yl-char-pua-quebi", "yl-pua"], "弦", "弦"),
        (["yl-char", "yl-char-unencoded"], "〓", "〓")]
    # the same spans as the yl:witness role renders
    role = myst_app.parse("{yl:witness}`吿于賔\ueb8e\ue14b`\n")
    assert myst_app.take_warnings() == ""
    expected = BeautifulSoup(myst_app.html(role), "html.parser").select_one("span.yl-witness")
    assert str(witness) == str(expected)


def test_a_witness_cell_reads_a_character_as_its_passage_does(myst_app):
    """``[text, keep, reads]``: 閒 between reads 间 (its passage's ``read-as``), 徵 kept, the rest folded."""
    doctree = myst_app.parse(page(["a", "b", "c"], [["x", ["房户閒聲徵", "徵", "閒间"], None]]), docname="reads-probe")
    assert myst_app.take_warnings() == ""
    [table] = list(doctree.findall(yl_datatable))
    assert table.astext() == "| a | b | c |\n| x | 房户间声徵 | — |"
    witness = BeautifulSoup(myst_app.html(table), "html.parser").select_one("span.yl-witness")
    assert [(c.select_one(".yl-w").get_text(), c.select_one(".yl-n").get_text())
            for c in witness.select("span.yl-fs, span.yl-char")] == [("閒", "间"), ("聲", "声")]
    assert witness.get_text() == "房户閒间聲声徵"


def test_unknown_private_use_code_point_warns(myst_app):
    myst_app.parse(page(["a", "b", "c"], [["x", "乡\ue999", None]]), docname="pua-probe")
    warnings = myst_app.take_warnings()
    assert "unknown private-use code point U+E999" in warnings and "[yl.pua]" in warnings


@pytest.mark.parametrize("body, message", [
    ('["a","b"]\n["x","y"]', "a row must be a JSON array of 3 cells"),
    ('["a","b","c"]\n["x","y",["z"]]', "a cite cell is [label, anchor] or null"),
    ('["a","b","c"]\n["x","y",["z","not an anchor"]]', "'not an anchor' is not a valid anchor"),
    ('["a","b","c"]\n{"x": 1}', "a row must be a JSON array of 3 cells"),
    ('["a","b","c"]\n["x",1,null]', "a witness cell is a string or null"),
    ('["a","b","c"]\n["x",["y","","閒"],null]', "a witness cell is a string, [text, keep], [text, keep, reads]"),
    ('["a","b","c"]\n["x","y",null', "a row is not a JSON array"),
])
def test_bad_rows_warn_at_their_line(myst_app, body, message):
    text = f"# 表\n\n:::{{yl:datatable}}\n:cells: {CELLS}\n\n{body}\n:::\n"
    doctree = myst_app.parse(text, docname="bad-rows")
    warnings = myst_app.take_warnings()
    bad_line = 6 if body.startswith('["a","b"]\n') else 7
    assert f"bad-rows.md:{bad_line}: WARNING: yl:datatable: {message}" in warnings, warnings
    tables = list(doctree.findall(yl_datatable))
    assert len(tables) <= 1 and all(not t["rows"] for t in tables)


@pytest.mark.parametrize("widths, specs", [
    # a narrow column keeps its width; the wide ones share the rest of the line
    ([60, 15, 25, 35, 185], ["p{6em}", "p{1.5em}", "p{2.5em}", "p{3.5em}", r"\ylcolumn{185}{185}{13.5em}{10}"]),
    # all narrow: the widest shares what the others leave
    ([45, 30, 15], [r"\ylcolumn{45}{45}{4.5em}{6}", "p{3em}", "p{1.5em}"]),
    # narrow ones that would take more than 24 ems: the widest of them share too
    ([75, 80, 75, 75, 70], [r"\ylcolumn{75}{155}{22em}{10}", r"\ylcolumn{80}{155}{22em}{10}", "p{7.5em}", "p{7.5em}",
                            "p{7em}"]),
])
def test_print_columns_keep_short_cells_on_one_line(widths, specs):
    assert column_specs(widths) == specs


def test_a_table_without_rows_is_as_wide_as_its_header_in_print():
    """(The directive's relative widths, 4 3 1, would have been read as tenths of an em.)"""
    node = yl_datatable("", classes=["yl-probe"], widths=[4, 3, 1], cells=["text", "witness", "cite"],
                        header=["广韵地位", "音义", "出处"], rows=[])
    assert print_widths([node], str) == [42, 22, 22]
