"""Witness text cannot inject markup: whatever a seed holds, escaped with ``conv.myst.escape`` and put in
a directive body, comes out of MyST → doctree → HTML as exactly the same text.

Parsing runs in process (``myst_app``): one Sphinx application, many examples."""
from __future__ import annotations

import string

from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conv.myst.escape import escape_inline
from conv.sphinx_ext.nodes import yl_forms
from conv.sphinx_ext.util import witness_text
from conv.sphinx_ext.nodes import yl_gloss
from conv.sphinx_ext.nodes import yl_segment
from conv.sphinx_ext.nodes import yl_passage, yl_text

METACHARACTERS = ["`", "{", "}", ":::", "$", "\\", "%", "#", "<", "&", "*", "_", "[", "]",
                  "{yl:zhu}", "{yl:gloss}`x`", "<b>", "&amp;", "$x$", "[a](b)", "**", "```",
                  ":::{yl:an}", "(x)=", "---", "- ", "1. ", "> ", "|", "~~", "http://a.b/c"]
HAN = "司马命获者执旌以负侯賔説竒宾欲令射者见侯与旌深有志于中疏云○【】　"
ALPHABET = st.one_of(
    st.sampled_from(METACHARACTERS),
    st.sampled_from(list(HAN)),
    st.sampled_from(list(string.punctuation)),
    st.sampled_from([" ", "\n", "\t", "a", "Z", "0", "9"]),
)
WITNESS = st.lists(ALPHABET, min_size=1, max_size=40).map("".join).filter(lambda s: s.strip())

PAGE = """\
::::{{yl:passage}} probe-1
:layer: jing

{words}

:::{{yl:zhu}}
{note}
:::
::::
"""


def expected(text: str) -> str:
    """What the witness must read as: escape_inline collapses whitespace runs to one space."""
    return " ".join(text.split())


def render(myst_app, words: str, note: str):
    doctree = myst_app.parse(PAGE.format(words=escape_inline(words), note=escape_inline(note)))
    return doctree, myst_app.take_warnings()


def check_html(myst_app, node) -> tuple[str, str]:
    """(words, note) as the diplomatic view shows them; only the edition's own spans."""
    html = myst_app.html(node)
    soup = BeautifulSoup(html, "html.parser")
    # nothing but the edition's own spans (and the passage's permalink): no <em>, <a>, <code>, <b>, math…
    tags = {(tag.name, tag.get("class", [""])[0]) for tag in soup.find_all(True)}
    assert tags <= {("div", "yl-passage"), ("span", "yl-text"), ("span", "yl-note"),
                    ("span", "yl-run"), ("span", "yl-ed"),
                    ("span", "yl-char"), ("span", "yl-fs"), ("span", "yl-w"), ("span", "yl-n"),
                    ("span", "yl-end"), ("a", "yl-permalink")}, tags
    assert len(soup.select("a")) == len(soup.select("div.yl-passage > .yl-end:last-child > a.yl-permalink:last-child")) == 1
    for hidden in soup.select(".yl-n, .yl-ed"):  # the other form; the edition's 【】 ○ 〔按〕
        hidden.decompose()
    words = soup.select_one(".yl-text")
    note = soup.select_one(".yl-note")
    return words.get_text() if words else "", note.get_text() if note else ""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=WITNESS, note=WITNESS)
def test_witness_text_round_trips(myst_app, words, note):
    doctree, warnings = render(myst_app, words, note)
    assert warnings == ""
    passages = list(doctree.findall(yl_passage))
    assert len(passages) == 1
    passage = passages[0]
    # the doctree holds text only (and yl_forms, yl_char for folding characters), never markup
    text_nodes = [n for n in passage.findall(yl_text)]
    notes = [n for n in passage.findall(yl_segment)]
    assert len(text_nodes) == 1 and len(notes) == 1
    for node in (*text_nodes, *notes):
        for child in node.findall(include_self=False):
            assert child.tagname in {"#text", "yl_char", "yl_forms"}, child.tagname
        assert not list(node.findall(yl_gloss))
    assert witness_text(text_nodes[0]) == expected(words)
    assert witness_text(notes[0]) == expected(note)
    # and so does the HTML (diplomatic view: the witness's own forms)
    html_words, html_note = check_html(myst_app, passage)
    assert html_words == expected(words)
    assert html_note == expected(note)


def test_gloss_role_in_a_note(myst_app):
    """The one markup a note may hold: a ``yl:gloss`` role, next to escaped text."""
    page = PAGE.format(words="仆", note=escape_inline("声不絶*") + "{yl:gloss}`仆音赴`")
    doctree = myst_app.parse(page)
    assert myst_app.take_warnings() == ""
    note = next(doctree.findall(yl_segment))
    assert witness_text(note) == "声不絶*仆音赴"
    assert [g["char"] for g in note.findall(yl_gloss)] == ["仆"]
    assert [(c["witness"], c.astext()) for c in note.findall(yl_forms)] == [("絶", "绝")]


def test_second_reading_in_its_own_role(myst_app):
    page = PAGE.format(words="纯", note="{yl:gloss}`纯之闰反`{yl:gloss}`又章允反`")
    doctree = myst_app.parse(page)
    assert myst_app.take_warnings() == ""
    first, second = doctree.findall(yl_gloss)
    assert (first["char"], first["second"]) == ("纯", "")
    assert (second["char"], second["second"], second["upper"], second["lower"]) == ("纯", "1", "章", "允")


def test_unescaped_markup_is_reported_and_kept_as_text(myst_app):
    doctree = myst_app.parse(PAGE.format(words="*经*", note="`注` [a](b)"))
    warnings = myst_app.take_warnings()
    assert warnings.count("[yl.markup]") == 3
    passage = next(doctree.findall(yl_passage))
    assert witness_text(next(passage.findall(yl_text))) == "经"
    assert witness_text(next(passage.findall(yl_segment))) == "注 a"


def test_note_outside_a_passage_is_reported(myst_app):
    myst_app.parse(":::{yl:zhu}\n注\n:::\n")
    assert "[yl.structure]" in myst_app.take_warnings()


def test_unknown_pua_is_reported_never_shown(myst_app):
    doctree = myst_app.parse(PAGE.format(words="执\ue000弓", note="注"))
    assert "U+E000" in myst_app.take_warnings()
    html = myst_app.html(next(doctree.findall(yl_passage)))
    assert "\ue000" not in html and "〓" in html


def test_cjk_newlines_dropped_other_newlines_kept(myst_app):
    doctree = myst_app.parse("一二\n三四 abc\ndef 五\n六\n\n::::{yl:passage} p-1\n:::{yl:yin}\n仆音赴\n{yl:gloss}`与音预`\n:::\n::::\n")
    myst_app.take_warnings()
    paragraph = doctree[0]
    assert paragraph.astext() == "一二三四 abc\ndef 五六"
    note = next(doctree.findall(yl_segment))
    assert witness_text(note) == "仆音赴与音预"
    soup = BeautifulSoup(myst_app.html(note), "html.parser")
    assert soup.get_text() == "【仆音赴与音预】"  # a run of one note: the print's brackets
    assert soup.select_one(".yl-note").get_text() == "仆音赴与音预"
