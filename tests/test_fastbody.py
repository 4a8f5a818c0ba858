"""The fast path of the ``yl:`` directive bodies (快速解析, ``conv/sphinx_ext/fastbody.py``) builds
exactly the doctree that MyST builds (the slow path, ``yl_fast_parse = False``): the same nodes,
attributes, text, source and line numbers, and the same warnings; whatever it does not recognise
exactly falls back to MyST.

Parsing runs in process (``myst_app``); every page parsed is then removed from the environment."""
from __future__ import annotations

import contextlib
import re
import string
from dataclasses import dataclass

import pytest
from docutils import nodes
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import InProcessSphinx
from doctrees import HAN, signature
from conv.myst.escape import escape_inline
from conv.sphinx_ext.text import body
from conv.sphinx_ext.util import witness_text
from conv.sphinx_ext.text.generated import Gloss, SegmentBlock, Words, split_body, split_inline
from conv.sphinx_ext.nodes import yl_segment
from conv.sphinx_ext.nodes import yl_passage, yl_text
from conv.sphinx_ext.nodes import yl_chaptertitle, yl_title

LINES = (yl_passage, yl_title, yl_chaptertitle)


@pytest.fixture
def app(myst_app) -> InProcessSphinx:
    """The session's in-memory Sphinx (one per process: Sphinx's logging is global). Each page
    parsed here is forgotten afterwards (``forget``), so other tests never see its anchors."""
    return myst_app


class Recorder:
    """Watches the bodies being read: each use of the slow path (MyST parsing a body), and where
    each ``fill`` leaves the document's current line (MyST stamps it on nodes made without one)."""

    def __init__(self, monkeypatch) -> None:
        self.slow: list[str] = []
        self.lines: list[tuple] = []
        fill, fill_slow, inline = (body.LineDirective.fill, body.LineDirective.fill_slow,
                                   body.parse_inline_slow)

        def record_fill(directive, *args):
            fill(directive, *args)
            self.lines.append((directive.name, directive.lineno,
                               directive.state.document.current_line))

        def record_fill_slow(directive, *args):
            self.slow.append(f"{directive.name} line {directive.lineno}")
            return fill_slow(directive, *args)

        def record_inline(directive, text, lineno):
            self.slow.append(f"{directive.name} line {directive.lineno}: {text!r}")
            return inline(directive, text, lineno)

        monkeypatch.setattr(body.LineDirective, "fill", record_fill)
        monkeypatch.setattr(body.LineDirective, "fill_slow", record_fill_slow)
        monkeypatch.setattr(body, "parse_inline_slow", record_inline)

    def take(self) -> tuple[list, list]:
        out = (list(self.slow), list(self.lines))
        self.slow.clear()
        self.lines.clear()
        return out


@pytest.fixture
def recorder(monkeypatch) -> Recorder:
    return Recorder(monkeypatch)


@contextlib.contextmanager
def fast_parse(app: InProcessSphinx, enabled: bool):
    config = app.app.config
    old = config.yl_fast_parse
    config.yl_fast_parse = enabled
    try:
        yield
    finally:
        config.yl_fast_parse = old


def forget(app: InProcessSphinx, docname: str) -> None:
    """Remove what parsing ``docname`` left in the environment (as a rebuild does)."""
    app.app.events.emit("env-purge-doc", app.app.env, docname)
    app.app.env.clear_doc(docname)


@dataclass
class Parse:
    doctree: nodes.document
    warnings: str
    slow: list[str]  # the bodies MyST parsed
    lines: list[tuple]  # (directive, its line, the current line after its body)


def parse_both(app: InProcessSphinx, recorder: Recorder, text: str,
               docname: str = "probe") -> tuple[Parse, Parse]:
    """The MyST page ``text`` parsed with the fast path, then without."""
    out = []
    app.take_warnings()  # only this page's
    for enabled in (True, False):
        forget(app, docname)
        recorder.take()
        with fast_parse(app, enabled):
            doctree = app.parse(text, docname)
        out.append(Parse(doctree, app.take_warnings(), *recorder.take()))
    forget(app, docname)
    return out[0], out[1]


def assert_same(fast: nodes.Node, slow: nodes.Node) -> None:
    assert fast.pformat() == slow.pformat()
    assert signature(fast) == signature(slow)


# -- (1) the generated pages of the seeds ------------------------------------------------------

@pytest.fixture(scope="module")
def chapter_pages(edition) -> dict[str, str]:
    """docname → the chapter page exactly as ``python -m conv build`` writes it."""
    from conv.myst.chapter import PageWriter
    from conv.myst.format import with_header

    return {f"{work.id}/{chapter.id}": with_header(PageWriter(edition, work, chapter).page(),
                                                    chapter.seeds)
            for work in edition.works for chapter in work.chapters}


def test_generated_pages_fast_equals_slow(app, chapter_pages, recorder):
    counts = dict.fromkeys(LINES, 0)
    for docname, text in chapter_pages.items():
        fast, slow = parse_both(app, recorder, text, docname)
        assert fast.slow == [], f"{docname}: the fast path fell back"
        assert fast.warnings == slow.warnings
        assert fast.lines == slow.lines
        fast_lines = list(fast.doctree.findall(lambda n: isinstance(n, LINES)))
        slow_lines = list(slow.doctree.findall(lambda n: isinstance(n, LINES)))
        assert len(fast_lines) == len(slow_lines)
        for a, b in zip(fast_lines, slow_lines):
            assert_same(a, b)
            counts[type(a)] += 1
        assert_same(fast.doctree, slow.doctree)  # the whole page: nothing around them changed
    # every kind of body was compared, many times
    assert counts[yl_passage] > 300 and counts[yl_title] > 20 and counts[yl_chaptertitle] >= 1, counts


def test_generated_notes_carry_their_lines(app, chapter_pages):
    """Warnings name file:line: the fast path's nodes carry the line of their directive."""
    text = chapter_pages["judou/xiangshe"]
    lines = text.splitlines()
    doctree = app.parse(text, "judou/xiangshe")
    app.take_warnings()
    forget(app, "judou/xiangshe")
    note = next(doctree.findall(yl_segment))
    assert note.source.endswith("judou/xiangshe.md")
    assert lines[note.line - 1] == f":::{{yl:{note['layer']}}}"
    words = next(doctree.findall(yl_text))
    assert escape_inline(witness_text(words)) == lines[words.line - 1]


# -- (2) arbitrary witness text ----------------------------------------------------------------

METACHARACTERS = ["`", "{", "}", ":::", "$", "\\", "%", "#", "<", "&", "*", "_", "[", "]",
                  "{yl:zhu}", "{yl:gloss}`x`", "<b>", "&amp;", "$x$", "[a](b)", "**", "```",
                  ":::{yl:an}", "(x)=", "---", "- ", "1. ", "> ", "|", "~~", "http://a.b/c",
                  "\\(", "$$", "\\\\", "{{x}}", "+++", "%%", "<!-- -->", "\\begin{x}", "^", "\x00"]
ALPHABET = st.one_of(
    st.sampled_from(METACHARACTERS),
    st.sampled_from(list(HAN)),
    st.sampled_from(list(string.punctuation)),
    st.sampled_from([" ", "  ", "\n", "\t", "\r", "\u00a0", "a", "Z", "0", "9"]),
)
WITNESS = st.lists(ALPHABET, min_size=0, max_size=30).map("".join)
CONTROL = re.compile("[\x00-\x1f\x7f]")
UNESCAPE = re.compile("\\\\([" + re.escape(string.punctuation) + "])")
GLOSS = st.lists(st.sampled_from(list("弛尸纸反仆音赴纯之闰又章允如字賔\ueb8e") + ["\\*", "\\", "{", "*"]),
                 min_size=1, max_size=8).map("".join)


@st.composite
def escaped_with_glosses(draw) -> tuple[str, str]:
    """(MyST inline text as the converter writes it, the witness text it must read as)."""
    pieces, plain = [], []
    for _ in range(draw(st.integers(0, 3))):
        text, gloss = draw(WITNESS), draw(GLOSS)
        pieces += [escape_inline(text), "{yl:gloss}`" + gloss + "`"]
        plain += [" ".join(text.split()), UNESCAPE.sub(r"\1", gloss)]
    text = draw(WITNESS)
    pieces.append(escape_inline(text))
    plain.append(" ".join(text.split()))
    return "".join(pieces), "".join(plain)


@settings(max_examples=400, deadline=None)
@given(text=WITNESS)
@example(text="司马\u3000命获者【执旌】○以负侯")
@example(text="{yl:gloss}`x` *a* \\ ` $x$ <b> \\begin{x}")
def test_escaped_text_is_recognised(text):
    """Whatever the witness holds, its escaped form is recognised, as one run of its text."""
    escaped = escape_inline(text)
    parts = split_inline(escaped)
    expected = " ".join(text.split())
    if not escaped or CONTROL.search(escaped):
        assert parts is None  # nothing to recognise, or MyST's own rule (NUL → U+FFFD): MyST decides
        return
    assert parts == [expected]


@pytest.mark.parametrize("text", [
    "a*b", "a  b", " a", "a ", "a\\", "a\\b", "\\", "`x`", "{yl:zhu}`x`", "{yl:gloss}``x``",
    "{yl:gloss}`x``", "{yl:gloss}``", "{yl:gloss}`x", "a\nb", "a\tb", "a\u3000b", "a\u00a0b",
    "a\x00b", "\\{yl:gloss}`x`", "<b>", "&amp;", "$x$", ":::", "",
])
def test_anything_else_is_not_recognised(text):
    assert split_inline(text) is None


def test_glosses_are_recognised():
    assert split_inline("声不絶\\*{yl:gloss}`仆音赴`{yl:gloss}`又\\*音`") == [
        "声不絶*", Gloss("仆音赴"), Gloss("又\\*音")]
    assert split_inline("\\\\{yl:gloss}`x`") == ["\\", Gloss("x")]


def test_bodies_are_recognised():
    lines = ["经文", "", ":::{yl:zhu}", "注文", ":::", "", ":::{yl:an}", ":lacuna: start", "按",
             ":::", ""]
    assert split_body(lines) == [Words(0, ["经文"]), SegmentBlock(2, "zhu", "", ["注文"]),
                                 SegmentBlock(6, "an", "start", ["按"])]
    assert split_body([]) == []
    assert split_body([":::{yl:yin}", "{yl:gloss}`仆音赴`", ":::"]) == [
        SegmentBlock(0, "yin", "", [Gloss("仆音赴")])]
    for odd in (["经文", ":::{yl:zhu}", "注", ":::"],      # no blank line after the words
                ["经", "", "文"],                          # two paragraphs
                [":::{yl:zhu}", "注", ":::", "", "经"],    # words after a note
                [":::{yl:zhu}", "注", "", "注", ":::"],    # a blank line in a note
                [":::{yl:zhu}", "", ":::"],                # an empty note
                [":::{yl:zhu}", ":lacuna: middle", "注", ":::"],
                [":::{yl:zhu}", ":class: x", "注", ":::"],
                [":::{yl:meta} juan", "注", ":::"],        # another directive
                [":::{yl:zhu} x", "注", ":::"],
                ["::::{yl:zhu}", "注", "::::"],
                [":::{yl:zhu}", "注", "::::"],
                [" ", "经"], ["经 "], ["*经*"]):
        assert split_body(odd) is None, odd


PAGE = """\
(probe)=
# 篇

(probe-s1)=
## 章

::::{{yl:passage}} probe-1
:layer: jing
:source: x.txt:1:1

{words}

:::{{yl:zhu}}
{note}
:::

:::{{yl:an}}
:lacuna: end
{other}
:::

::::

::::{{yl:title}} probe-s1
{title}

:::{{yl:yin}}
{note}
:::

::::

:::{{yl:shu}}
{note}
:::
"""


def check_page(app, recorder, page: str, must_be_fast: bool) -> Parse:
    fast, slow = parse_both(app, recorder, page)
    assert fast.warnings == slow.warnings
    assert_same(fast.doctree, slow.doctree)
    assert fast.lines == slow.lines
    if must_be_fast:
        assert fast.slow == []
    return fast


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(words=escaped_with_glosses(), note=escaped_with_glosses(), other=escaped_with_glosses(),
       title=escaped_with_glosses())
def test_escaped_bodies_fast_equals_slow(app, recorder, words, note, other, title):
    """Escaped text with glosses in every body: the fast path is taken and builds MyST's doctree."""
    texts = {"words": words, "note": note, "other": other, "title": title}
    page = PAGE.format(**{name: escaped for name, (escaped, _) in texts.items()})
    recognised = all(split_inline(escaped) is not None for escaped, _ in texts.values())
    fast = check_page(app, recorder, page, must_be_fast=recognised)
    if recognised:
        passage = next(fast.doctree.findall(yl_passage))
        read = [witness_text(n) for n in passage.children if isinstance(n, (yl_text, yl_segment))]
        assert read == [words[1], note[1], other[1]]


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(words=WITNESS, note=WITNESS, other=WITNESS, title=WITNESS)
@example(words="*经*", note="`注` [a](b)", other="{yl:zhu}`x`", title="右\n\n章")
@example(words="经\n\n:::{yl:zhu}\n注\n:::", note="注\n\n注", other="", title="")
def test_raw_bodies_fast_equals_slow(app, recorder, words, note, other, title):
    """Unescaped, hand-written, malformed bodies: the same doctree and warnings either way."""
    check_page(app, recorder, PAGE.format(words=words, note=note, other=other, title=title),
               must_be_fast=False)


HAND_WRITTEN = [
    # a note outside a passage (yl.structure), with a gloss
    ":::{yl:zhu}\n注{yl:gloss}`仆音赴`\n:::\n",
    # markup in the words and in a note (yl.markup, file:line)
    "::::{yl:passage} p-1\n\n*经*文\n\n:::{yl:zhu}\n`注`\n:::\n::::\n",
    # a passage whose body starts with a note, a multi-line note
    "::::{yl:passage} p-1\n:::{yl:yin}\n仆音赴\n{yl:gloss}`与音预`\n:::\n::::\n",
    # a nested directive of another kind, a second paragraph
    "::::{yl:passage} p-1\n\n经\n\n```{note}\nx\n```\n\n又\n::::\n",
    # an unknown private-use code point, a variant, a meta line
    "::::{yl:passage} p-1\n\n执\ue000弓賔\n\n:::{yl:zhu}\n\ue000\n:::\n::::\n\n:::{yl:meta} juan\n卷\ue000\n:::\n",
    # a blank line inside a note
    "::::{yl:passage} p-1\n\n经\n\n:::{yl:zhu}\n注\n\n注\n:::\n::::\n",
]


@pytest.mark.parametrize("page", HAND_WRITTEN)
def test_hand_written_bodies_fast_equals_slow(app, recorder, page):
    check_page(app, recorder, page, must_be_fast=False)


def test_a_page_ending_in_a_passage(app, recorder):
    """MyST leaves the document's current line at the last block it read (nodes made later without
    a line get it): the fast path leaves it there too."""
    page = ("::::{yl:passage} p-1\n:layer: jing\n\n司马命获者\n\n:::{yl:zhu}\n注\n:::\n\n"
            ":::{yl:an}\n:lacuna: start\n按\n:::\n\n::::\n")
    fast = check_page(app, recorder, page, must_be_fast=True)
    assert fast.lines == [("yl:passage", 1, 10)]


RECOGNISED = [
    # a chapter title on the directive's own line (MyST counts its body from there)
    "::::{yl:chaptertitle} 燕礼第六\n\n:::{yl:mulu}\n郑目录云{yl:gloss}`仆音赴`\n:::\n::::\n",
    # a title with notes only (MyST adds a blank line before a body that opens with a fence)
    "(s-1)=\n## 章\n\n::::{yl:title} s-1\n:::{yl:an}\n:lacuna: start\n按\n:::\n::::\n",
    # no blank line between notes, extra blank lines around
    "::::{yl:passage} p-1\n:layer: ji\n:lacuna: start\n\n\n\n记文\n\n\n:::{yl:zhu}\n注\n:::\n"
    ":::{yl:shu}\n疏\n:::\n\n\n::::\n",
    # an empty body
    "::::{yl:passage} p-1\n:layer: jing\n::::\n",
]


@pytest.mark.parametrize("page", RECOGNISED)
def test_unusual_recognised_bodies_fast_equals_slow(app, recorder, page):
    check_page(app, recorder, page, must_be_fast=True)


def test_collated_page_fast_equals_slow(app, recorder):
    """A seed collated with the 文渊阁 witness: its page's {yl:emend} roles and :trad: options
    (passages, titles, segments) read the same without MyST as through it."""
    from pathlib import Path

    from conv.edition.assemble import convert
    from conv.myst import writer
    from conv.sphinx_ext.nodes import yl_emend, yl_trad

    root = Path(__file__).resolve().parents[1]
    edition = convert([next((root / "seeds").glob("000_*.txt")),
                       root / "seeds" / "wenyuange" / "KR1d0038" / "KR1d0038_005.txt"])
    text = writer.pages(edition)["judou/xiangshe.md"]
    assert "{yl:emend}" in text and ":trad:" in text
    fast, slow = parse_both(app, recorder, text, "judou/xiangshe")
    assert fast.slow == [] and fast.warnings == slow.warnings and not fast.warnings
    assert_same(fast.doctree, slow.doctree)
    assert len(list(fast.doctree.findall(yl_emend))) == 1 and len(list(fast.doctree.findall(yl_trad))) > 1000


def test_catalogue_page_fast_equals_slow(app, recorder):
    """The 通解's 卷首 with its 目録's titles as {yl:cite} roles (conv/edition/catalogue.py): read the
    same without MyST as through it, the cite kept around the text (its 禮 a folding character, as elsewhere)."""
    from pathlib import Path

    from sphinx import addnodes

    from conv.edition.assemble import convert
    from conv.myst import writer

    witness = Path(__file__).resolve().parents[1] / "seeds" / "wenyuange" / "KR1d0085"
    edition = convert([witness / "KR1d0085_000.txt", witness / "KR1d0085_001.txt"])
    text = writer.pages(edition)["tongjie/juanshou.md"]
    assert text.count("{yl:cite}") == 2 and "\n{yl:cite}`士冠禮第一 <tongjie-shiguan>`\n" in text  # 卷一: 士冠禮, 冠義
    fast, slow = parse_both(app, recorder, text, "tongjie/juanshou")
    assert fast.slow == [] and fast.warnings == slow.warnings and not fast.warnings
    assert_same(fast.doctree, slow.doctree)
    xref, _ = fast.doctree.findall(addnodes.pending_xref)
    assert (xref["refdomain"], xref["reftype"], xref["reftarget"]) == ("yl", "cite", "tongjie-shiguan")
    assert xref.astext() == "士冠礼第一" and xref.parent["classes"] == ["yl-text", "yl-front"]  # the 卷首 is no 经
