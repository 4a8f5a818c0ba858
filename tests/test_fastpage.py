"""The fast reader of generated pages (快速读页, ``conv/sphinx_ext/fastpage.py``) gives exactly what
MyST gives (``yl_fast_pages = False``): the same block tokens, and for every page the same doctree
node by node (class, attributes, text, source, line), the same document-level tables (ids, names,
targets, substitutions), the same metadata and domain data in the environment, and the same
warnings at the same lines. Whatever it does not recognise exactly goes to MyST.

Parsing runs in process (``myst_app``, as ``tests/test_fastbody.py``); every page parsed is then
removed from the environment. Set ``YILI_LARGE=1`` to compare every page of the benchmark's large
corpus too (slow: about a minute)."""
from __future__ import annotations

import contextlib
import os
import pickle
import string
from dataclasses import dataclass

import pytest
from docutils import nodes
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from markdown_it.rules_core import StateCore
from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
from myst_parser.parsers.directives import parse_directive_text
from myst_parser.parsers.mdit import create_md_parser
from myst_parser.parsers.sphinx_ import MystParser

from conftest import InProcessSphinx
from conv.myst.escape import escape_inline
from conv.sphinx_ext import fastpage
from conv.sphinx_ext.fastpage import FastPageParser, page_tokens, parse_fence
from conv.myst.writer import pages as generated_pages
from conv.myst.writer import with_header
from test_fastbody import WITNESS, escaped_with_glosses, forget, signature

#: The only generated page not in the fast reader's repertoire (a list, ``{only}`` fences).
MYST_ONLY = {"apparatus/index"}


@pytest.fixture
def app(myst_app) -> InProcessSphinx:
    """The session's in-memory Sphinx, after one parse: docutils reports loading a language
    module (an INFO message in the doctree) only in the first parse of the process."""
    myst_app.parse("# 篇\n", "warm-up")
    forget(myst_app, "warm-up")
    myst_app.take_warnings()
    return myst_app


@contextlib.contextmanager
def fast_pages(app: InProcessSphinx, enabled: bool):
    config = app.app.config
    old = config.yl_fast_pages
    config.yl_fast_pages = enabled
    try:
        yield
    finally:
        config.yl_fast_pages = old


class Recorder:
    """Watches MyST at work: each page ``MystParser.parse`` reads, each directive whose options
    MyST's own parser reads (``run_directive``), each directive run with ``parse_fence``'s."""

    def __init__(self, monkeypatch) -> None:
        self.pages: list[str] = []
        self.myst_directives: list[tuple[str, int]] = []
        self.fast_directives: list[tuple[str, int]] = []
        parse, run, fast = (MystParser.parse, SphinxRenderer.run_directive,
                            fastpage.PageRenderer._run_parsed)

        def record_parse(parser, text, document):
            self.pages.append(document["source"])
            return parse(parser, text, document)

        def record_run(renderer, name, first_line, content, position, *args, **kwargs):
            self.myst_directives.append((name, position))
            return run(renderer, name, first_line, content, position, *args, **kwargs)

        def record_fast(renderer, fence, position, block_text):
            made = fast(renderer, fence, position, block_text)
            if made is not None:
                self.fast_directives.append((fence.name, position))
            return made

        monkeypatch.setattr(MystParser, "parse", record_parse)
        monkeypatch.setattr(SphinxRenderer, "run_directive", record_run)
        monkeypatch.setattr(fastpage.PageRenderer, "_run_parsed", record_fast)

    def take(self) -> tuple[list, list, list]:
        out = (list(self.pages), list(self.myst_directives), list(self.fast_directives))
        for seen in (self.pages, self.myst_directives, self.fast_directives):
            seen.clear()
        return out


@pytest.fixture
def recorder(monkeypatch) -> Recorder:
    return Recorder(monkeypatch)


@dataclass
class Parse:
    doctree: nodes.document
    warnings: str
    environment: dict  # what the page left in the environment (metadata, domain data)
    myst_pages: list  # pages MystParser.parse read
    myst_directives: list  # directives whose options MyST's parser read
    fast_directives: list  # directives run with parse_fence's options


def environment_state(app: InProcessSphinx, docname: str) -> dict:
    env = app.app.env
    return {"metadata": dict(env.metadata.get(docname, {})),
            "domaindata": pickle.dumps(env.domaindata)}


def parse_both(app: InProcessSphinx, recorder: Recorder, text: str,
               docname: str = "probe") -> tuple[Parse, Parse]:
    """The page ``text`` read by the fast reader, then by MyST alone."""
    out = []
    app.take_warnings()
    with known_document(app, docname):
        for enabled in (True, False):
            forget(app, docname)
            recorder.take()
            with fast_pages(app, enabled):
                doctree = app.parse(text, docname)
            out.append(Parse(doctree, app.take_warnings(), environment_state(app, docname),
                             *recorder.take()))
        forget(app, docname)
    return out[0], out[1]


@contextlib.contextmanager
def known_document(app: InProcessSphinx, docname: str):
    """``docname`` among the project's documents while it is parsed (a toctree looks for it)."""
    found = app.app.env.found_docs
    added = docname not in found
    found.add(docname)
    try:
        yield
    finally:
        if added:
            found.discard(docname)


def _tables(value):
    """Document-level tables with their nodes replaced by signatures (nodes compare by identity)."""
    if isinstance(value, nodes.Node):
        return tuple(signature(value))
    if isinstance(value, dict):
        return {key: _tables(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_tables(item) for item in value]
    return value


DOCUMENT_TABLES = ("ids", "nameids", "nametypes", "refnames", "refids", "substitution_defs",
                   "substitution_names", "footnote_refs", "citation_refs", "autofootnotes",
                   "autofootnote_refs", "symbol_footnotes", "footnotes", "citations",
                   "indirect_targets", "parse_messages", "transform_messages")


def assert_same(fast: Parse, slow: Parse) -> None:
    assert fast.warnings == slow.warnings
    assert signature(fast.doctree) == signature(slow.doctree)
    for table in DOCUMENT_TABLES:
        assert _tables(getattr(fast.doctree, table)) == _tables(getattr(slow.doctree, table)), table
    assert fast.environment == slow.environment
    assert slow.fast_directives == []


def generated(body: str) -> str:
    """A page as ``conv.myst.writer`` writes it: header, checksum, comment, ``body``."""
    return with_header(body, ["000_x.txt"])


# -- (1) the generated pages of the seeds ------------------------------------------------------

@pytest.fixture(scope="module")
def seed_pages(edition) -> dict[str, str]:
    """docname → every page ``python -m conv build`` writes for the seeds."""
    return {path.removesuffix(".md"): text for path, text in generated_pages(edition).items()}


def markdown_it_tokens(app: InProcessSphinx, text: str) -> tuple[list, dict]:
    md = create_md_parser(app.app.env.myst_config, SphinxRenderer)
    env: dict = {}
    return md.parse(text, env), env


def fast_tokens(app: InProcessSphinx, text: str) -> tuple[list, dict] | None:
    """``page_tokens`` after markdown-it's core rules, as ``FastPageParser.parse`` runs them."""
    tokens = page_tokens(text)
    if tokens is None:
        return None
    md = create_md_parser(app.app.env.myst_config, SphinxRenderer)
    env: dict = {}
    state = StateCore("", md, env, tokens)
    md.core.process(state)
    return state.tokens, env


def test_tokens_are_markdown_its(app, seed_pages):
    """Every token field (type, tag, map, info, content, markup, children, …) and the word count
    markdown-it leaves in its environment."""
    recognised = 0
    for docname, text in seed_pages.items():
        fast = fast_tokens(app, text)
        if docname in MYST_ONLY:
            assert fast is None
            continue
        assert fast is not None, docname
        assert fast == markdown_it_tokens(app, text), docname
        recognised += 1
    assert recognised == len(seed_pages) - len(MYST_ONLY)


#: Lines of every kind: the generated shapes, and others markdown-it reads otherwise.
ODD_LINES = [" ", "(a b)=", "## 章 #", "### \\#", "#x", "####### x", ":::{yl:zhu} a|b", ":::",
             "::::", ":::::", " :::", "\t::::", ":::note", "```{x} `y`", "~~~", ":-:", "---",
             "|---|", "-|-", "===", "***", "+++", "% x", "- x", "1. x", "1) x", "> x",
             "<!-- x -->", "<b>", "[x]: /y", "[^1]: x", "$$", "    code", "a | b", "\u3000经", "经 "]
BODY = ["", "经文", "注\\*文", "{yl:gloss}`仆音赴`", ":layer: jing", ":::{yl:zhu}", ":::", "::::",
        "---", "|---|", ":-:", "- x", "# x", "(x)=", "    code", "```", "\t:::", " ::::"]
TEXT = st.sampled_from(["经文", "注\\*文", "{yl:gloss}`仆音赴`", "12 条", "a | b", "\\(x\\)=", "\\#",
                        "x #", "1\\. x", "\\- x", "<b>", "经 ", "`x`"])


@st.composite
def blocks(draw) -> list[str]:
    """One block of a page: a target, heading, paragraph or fence as the converter writes them
    (with odd body lines), or an odd line."""
    kind = draw(st.sampled_from(["target", "heading", "paragraph", "fence", "fence", "odd"]))
    if kind == "target":
        return [draw(st.sampled_from(["(probe-1)=", "(judou-xiangshe-s1)="])), ""]
    if kind == "heading":
        return [draw(st.sampled_from(["#", "##", "###"])) + " " + draw(TEXT), ""]
    if kind == "paragraph":
        return [draw(TEXT), ""]
    if kind == "odd":
        return [draw(st.sampled_from(ODD_LINES))]
    marker = draw(st.sampled_from([":::", "::::", "```"]))
    opening = marker + draw(st.sampled_from(["{yl:zhu}", "{yl:passage} p-1", "{toctree}"]))
    return [opening, *draw(st.lists(st.sampled_from(BODY), max_size=5)), marker, ""]


@settings(max_examples=1500, deadline=None)
@given(page=st.lists(blocks(), max_size=8))
@example(page=[[":::{yl:zhu} a|b", "---|---", ":::"]])
@example(page=[["# a|b", ":-:"]])
def test_any_lines_tokens_are_markdown_its(myst_app, page):
    """Pages of generated blocks and odd lines: wherever the fast reader recognises a page, its
    tokens are markdown-it's."""
    text = generated("\n".join(line for block in page for line in block) + "\n")
    fast = fast_tokens(myst_app, text)
    event("recognised" if fast is not None else "left to MyST")
    if fast is not None:
        assert fast == markdown_it_tokens(myst_app, text)


def test_generated_pages_fast_equals_myst(app, seed_pages, recorder):
    kinds = set()
    for docname, text in seed_pages.items():
        fast, slow = parse_both(app, recorder, text, docname)
        assert_same(fast, slow)
        if docname in MYST_ONLY:
            assert len(fast.myst_pages) == 1 and not fast.fast_directives
            continue
        assert fast.myst_pages == [], f"{docname}: the page fell back to MyST"
        # directives with a plain options block never reach MyST's option parser
        options = {name for name, _ in fast.fast_directives}
        assert not options & {name for name, _ in fast.myst_directives}, docname
        kinds |= options
    assert kinds >= {"yl:passage", "yl:app", "yl:datatable", "toctree"}, kinds


def test_the_page_fast_path_is_registered(app, seed_pages, recorder):
    assert app.app.registry.get_source_parser("markdown") is FastPageParser
    text = seed_pages["judou/xiangshe"]
    with fast_pages(app, False):  # off: the page is MyST's
        recorder.take()
        app.parse(text, "judou/xiangshe")
        forget(app, "judou/xiangshe")
        app.take_warnings()
        pages, _, fast = recorder.take()
    assert len(pages) == 1 and fast == []


# -- (2) directive options read as MyST reads them -----------------------------------------------

def _directive_classes():
    from docutils.parsers.rst.directives.images import Image
    from sphinx.directives.code import CodeBlock
    from sphinx.directives.other import TocTree

    from conv.sphinx_ext.apparatus import AppDirective
    from conv.sphinx_ext.layers import NoteDirective
    from conv.sphinx_ext.passage import PassageDirective
    from conv.sphinx_ext.tables import DataTableDirective
    from conv.sphinx_ext.titles import ChapterTitleDirective

    return [PassageDirective, AppDirective, DataTableDirective, NoteDirective,
            ChapterTitleDirective, TocTree, CodeBlock, Image]


ODD_KEYS = ["x", "Layer", "layer:", "la yer", "'layer'", "#layer", "-", ""]
VALUE_PIECES = ["jing", "ji", "start", "end", "x.txt:3:1", "乡射礼1", "a b", " ", "  ", "\t", ":",
                ": ", "#", " #", "'", '"', "|", ">", "-", "[", "{", "}", "*", "&", "!", "%",
                "\\", "\u3000", "\ufeff", "\x00", "\x1c", "\u2028", "1", "2 3", "yes", "~"]
PLAIN_VALUES = st.sampled_from(["jing", "ji", "start", "end", "000_x.txt:3:1", "乡射礼1", "1",
                                "乡射礼·司射 1", "2 3", "yl-glossary", "text witness", "a:b", "a#b",
                                "校1", "a'b", "-x", "[x]", "{x}", "*", "&a", "!x", "%", "\\x"])
#: Values as the converter writes them (nine times in ten) or made of metacharacters.
VALUES = st.integers(0, 9).flatmap(
    lambda n: PLAIN_VALUES if n else st.lists(st.sampled_from(VALUE_PIECES), max_size=5).map("".join))
FORMS = st.sampled_from([":{}: {}"] * 24 + [":{}:{}", " :{}: {}", ":{}:  {}", ":{}: {} ", "::{}: {}"])
BODY_LINES = st.lists(st.sampled_from(["", " ", "经文", ":::{yl:zhu}", "注", ":::", ":x: y",
                                       "---", "\t", "[\"a\"]"]), max_size=5)


@st.composite
def option_lines(draw, directive_class) -> list[str]:
    """Option lines for ``directive_class``: mostly its own keys in the plain form."""
    own = sorted(directive_class.option_spec or {})
    keys = st.sampled_from(own * 8 + ODD_KEYS) if own else st.sampled_from(ODD_KEYS)
    lines = draw(st.lists(st.tuples(keys, VALUES, FORMS), min_size=1, max_size=3))
    return [form.format(key, value) for key, value, form in lines]


def first_lines(directive_class) -> st.SearchStrategy[str]:
    """Mostly what ``directive_class`` takes on its first line (one argument or none)."""
    takes = directive_class.required_arguments or directive_class.optional_arguments
    return st.one_of(st.just("judou-xiangshe-1" if takes else ""),
                     st.sampled_from(["", "judou-xiangshe-1", "a b", " "]))


@settings(max_examples=1000, deadline=None)
@given(data=st.data(), body=BODY_LINES, trailing=st.sampled_from(["", "\n", "\n\n"]))
def test_options_are_read_as_myst_reads_them(data, body, trailing):
    """Whatever ``parse_fence`` accepts, it reads as MyST's ``parse_directive_text`` does (and
    MyST has nothing to warn about)."""
    directive_class = data.draw(st.sampled_from(_directive_classes()))
    first_line = data.draw(first_lines(directive_class))
    content = "\n".join(data.draw(option_lines(directive_class)) + body) + trailing
    ours = parse_fence(directive_class, first_line, content)
    event("read by parse_fence" if ours is not None else "left to MyST")
    if ours is None:
        return
    try:
        theirs = parse_directive_text(directive_class, first_line, content, line=1)
    except Exception as error:  # noqa: BLE001 - MyST refused what we accepted
        pytest.fail(f"MyST raised {error!r} where parse_fence read {ours}")
    assert ours == theirs


VALUE_CHARACTERS = st.sampled_from(list("jingstartend乡射礼1 :#'\"|>-[]{}*&!%\\~\t") +
                                   ["\u3000", "\ufeff", "\x00", "\x1c", "\u2028", "\x85"])


@settings(max_examples=1000, deadline=None)
@given(data=st.data(), body=BODY_LINES, trailing=st.sampled_from(["", "\n", "\n\n"]))
def test_plain_options_are_read_as_myst_reads_them(data, body, trailing):
    """Options in the converter's form (the directive's own keys, ``:key: value``), values of
    any characters: where ``parse_fence`` reads them, MyST reads the same."""
    directive_class = data.draw(st.sampled_from([c for c in _directive_classes() if c.option_spec]))
    keys = st.sampled_from(sorted(directive_class.option_spec))
    values = st.text(alphabet=VALUE_CHARACTERS, min_size=1, max_size=8)
    options = data.draw(st.dictionaries(keys, values, min_size=1, max_size=3))
    lines = [f":{key}: {value}" for key, value in options.items()]
    takes = directive_class.required_arguments or directive_class.optional_arguments
    first_line = "judou-xiangshe-1" if takes else ""
    content = "\n".join(lines + body) + trailing
    ours = parse_fence(directive_class, first_line, content)
    event("read by parse_fence" if ours is not None else "left to MyST")
    if ours is not None:
        assert ours == parse_directive_text(directive_class, first_line, content, line=1)


def test_generated_options_are_recognised():
    from conv.sphinx_ext.apparatus import AppDirective
    from conv.sphinx_ext.passage import PassageDirective

    content = ":layer: jing\n:source: 000_x.txt:3:1\n:lacuna: start\n\n经文\n\n:::{yl:zhu}\n注\n:::\n\n"
    parsed = parse_fence(PassageDirective, "judou-xiangshe-1", content)
    assert parsed == parse_directive_text(PassageDirective, "judou-xiangshe-1", content)
    assert parsed.options == {"layer": "jing", "source": "000_x.txt:3:1", "lacuna": "start"}
    assert parsed.body_offset == 4
    content = (":label: 校1\n:kind: correction\n:locus: judou-xiangshe-1\n:locus-text: 乡射礼·司射 1\n"
               ":source: 000_x.txt:3:1\n\n校改表 c6：layer\\: an\n")
    assert parse_fence(AppDirective, "judou-jiao-1", content) == parse_directive_text(
        AppDirective, "judou-jiao-1", content)
    for odd in (":layer: 'jing'\n", ":layer: jing # c\n", ":layer: jing\n:layer: ji\n",
                ":layer: foo\n", ":colour: red\n", ":layer:  jing\n", ":source: |\n  x\n"):
        assert parse_fence(PassageDirective, "p-1", odd) is None, odd


# -- (3) arbitrary witness text on generated pages ---------------------------------------------

PAGE = """\
(probe)=
# {heading}

:::{{yl:meta}} juan
{meta}
:::

::::{{yl:chaptertitle}}
{title}

:::{{yl:mulu}}
{note}
:::
::::

:::{{yl:lacuna}} start
:::

(probe-s1)=
## {heading2}

::::{{yl:passage}} probe-1
:layer: jing
:source: {source}
:lacuna: start

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

(probe-s2)=
### {heading}

{paragraph}

:::{{yl:app}} probe-jiao-1
:label: 校1
:kind: correction
:locus: probe-1
:locus-text: {locus}
:source: {source}

{paragraph}
:::

:::{{yl:datatable}}
:class: yl-glossary
:widths: 1 2
:cells: text witness

["{cell}","{cell}"]
:::
"""


@st.composite
def page_texts(draw, text) -> dict[str, str]:
    """The places of ``PAGE``, filled: witness text (``text``) in headings, paragraphs and
    bodies, and option values and table cells of arbitrary characters."""
    fields = {name: draw(text) for name in ("heading", "heading2", "meta", "title", "note",
                                            "words", "other", "paragraph")}
    value = st.text(alphabet=st.sampled_from(list("乡射礼1 :#'\"|>-\t\\") + ["\u3000", "\ufeff"]),
                    max_size=8)
    fields["source"] = draw(st.one_of(st.just("000_x.txt:3:1"), value))
    fields["locus"] = draw(st.one_of(st.just("乡射礼1"), value))
    fields["cell"] = draw(st.sampled_from(["词", "", "a\\\"b", "}", "::::"]))
    return fields


ESCAPED = escaped_with_glosses().map(lambda pair: pair[0])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fields=page_texts(ESCAPED))
def test_escaped_pages_fast_equals_myst(app, recorder, fields):
    """Witness text escaped as the converter escapes it, anywhere: the page is read by the fast
    reader (unless a heading is empty: markdown-it's own case) and gives MyST's doctree."""
    text = generated(PAGE.format(**fields))
    fast, slow = parse_both(app, recorder, text)
    assert_same(fast, slow)
    # a paragraph opening with a role, or a heading ending in an escaped #, is left to MyST
    # (harmless, but not worth recognising); NUL is markdown-it's to replace
    # (an empty paragraph is no block at all; an empty heading is markdown-it's own case)
    headings, paragraph = [fields["heading"], fields["heading2"]], fields["paragraph"]
    plain = (all(line and not line.endswith("#") for line in headings)
             and not paragraph.startswith("{"))
    assert (fast.myst_pages == []) == (plain and "\x00" not in text)
    event("page left to MyST" if fast.myst_pages else "page read by the fast reader")
    event(f"{len(fast.fast_directives)} directives read by parse_fence")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fields=page_texts(WITNESS))
@example(fields={"heading": "x #", "heading2": "1. a", "meta": ":::", "title": "::::",
                 "note": "  :::", "words": "\t::::", "other": "```", "paragraph": "<b>x</b>",
                 "source": "'x'", "locus": "a #b", "cell": "::::"})
def test_raw_pages_fast_equals_myst(app, recorder, fields):
    """Unescaped text (MyST, HTML, LaTeX metacharacters, fences, list markers, comments in option
    values): whatever the fast reader does with it, the doctree and warnings are MyST's."""
    fast, slow = parse_both(app, recorder, generated(PAGE.format(**fields)))
    assert_same(fast, slow)
    event("page left to MyST" if fast.myst_pages else "page read by the fast reader")


# -- (4) what goes to MyST ---------------------------------------------------------------------

SMALL = "(probe)=\n# 篇\n\n::::{yl:passage} probe-1\n:layer: jing\n\n经\n\n:::{yl:zhu}\n注\n:::\n::::\n"

FALLBACKS = {
    "not generated": SMALL,
    "edited by hand": generated(SMALL).replace("经", "经经"),
    "carriage return": generated(SMALL).replace("\n", "\r\n"),
    "a list": generated(SMALL + "\n- 一\n- 二\n"),
    "a paragraph of two lines": generated(SMALL + "\n甲\n乙\n"),
    "a fence never closed": generated(SMALL + "\n:::{yl:zhu}\n注\n"),
    "an indented closing line": generated(SMALL.replace("\n::::\n", "\n ::::\n") + "::::\n"),
    "a longer closing line": generated(SMALL.replace("\n::::\n", "\n:::::\n")),
    "a heading ending in #": generated(SMALL + "\n## 章 #\n"),
    "an ordered list": generated(SMALL + "\n1. 一\n"),
    "a target of another shape": generated(SMALL + "\n(a b)=\n"),
    "a fence that is not a directive": generated(SMALL + "\n:::note\nx\n:::\n"),
    "a comment": generated(SMALL + "\n% x\n"),
    "a table's header": generated(SMALL + "\n:::{yl:zhu} a|b\n---|---\n:::\n"),
}


@pytest.mark.parametrize("name", list(FALLBACKS))
def test_other_pages_are_mysts(app, recorder, name):
    fast, slow = parse_both(app, recorder, FALLBACKS[name])
    assert_same(fast, slow)
    assert len(fast.myst_pages) == 1 and fast.fast_directives == []


ODD_OPTIONS = """\
(probe)=
# 篇

::::{yl:passage} probe-1
:layer: foo
:source: x.txt:1:1

经

:::{yl:zhu}
注
:::
::::

::::{yl:passage} probe-2
:layer: jing
:colour: red
::::

::::{yl:passage} probe-3
:layer: jing
:source: 'x.txt:1:1'
::::

::::{yl:passage} probe-4
:source: x.txt # where
:layer: ji
::::

:::{yl:meta} juan
:class: x
卷{yl:gloss}`某某某`
:::

:::{yl:lacuna} start
body
:::

::::{yl:passage} probe-5
:layer: jing
:layer: ji
::::

::::{yl:passage} probe-6 extra
:layer: jing
::::

::::{yl:passage} probe-7
:layer: jing
:source: x.txt:1:1
::::
"""


def test_odd_directives_on_a_generated_page_are_mysts(app, recorder):
    """On a recognised page, a directive MyST would warn about (a bad value, an unknown key, a
    comment, a repeated key, a body where none is allowed, an extra argument) or whose value
    is quoted is run by MyST, with MyST's warnings at their lines; the plain one is not."""
    text = generated(ODD_OPTIONS)
    fast, slow = parse_both(app, recorder, text)
    assert_same(fast, slow)
    assert fast.myst_pages == []
    opening = {line.split()[1]: number for number, line in enumerate(text.splitlines(), 1)
               if line.startswith("::::{yl:passage}")}
    assert fast.fast_directives == [("yl:passage", opening.pop("probe-7"))]
    assert {line for name, line in fast.myst_directives if name == "yl:passage"} == set(
        opening.values())
    assert (f".md:{opening['probe-1'] + 1}: WARNING: 'yl:passage': Invalid option value for "
            "'layer'") in fast.warnings
    assert (f".md:{opening['probe-2'] + 2}: WARNING: 'yl:passage': Unknown option key: 'colour'"
            in fast.warnings)


LOCATIONS = """\
(probe)=
# 篇

::::{yl:passage} probe-1
:layer: jing
:source: x.txt:1:1

经文

:::{yl:zhu}
注文
:::

:::{yl:yin}
{yl:gloss}`某某某`
:::

:::{yl:yin}
:lacuna: end
乙{yl:gloss}`某某某`
:::
::::

:::{yl:meta} juan
卷{yl:gloss}`某某某`
:::

:::{yl:app} probe-jiao-1
:label: 校1
:kind: correction
:locus: probe-99
:locus-text: 乡射礼99
:source: x.txt:1:1

校改
:::
"""


def test_warnings_name_their_line_on_a_generated_page(app, recorder):
    """As ``tests/test_locations.py``, on a page read by the fast reader."""
    import re

    fast, slow = parse_both(app, recorder, generated(LOCATIONS))
    assert_same(fast, slow)
    assert fast.myst_pages == []
    offset = 7  # the header and comment conv.myst.writer puts before the body
    found = [int(line) for line in re.findall(r"probe\.md:(\d+): WARNING: yl:gloss", fast.warnings)]
    assert found == [15 + offset, 20 + offset, 25 + offset]


# -- (5) the large corpus (opt-in) -------------------------------------------------------------

@pytest.mark.skipif(not os.environ.get("YILI_LARGE"), reason="set YILI_LARGE=1 (about a minute)")
def test_large_corpus_fast_equals_myst(app, recorder, tmp_path):
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    if str(root) not in sys.path:  # bench/ is run from the project root, not installed
        sys.path.insert(0, str(root))
    from bench import corpus
    from conv.edition import assemble
    from conv.anchors.ledger import Ledger

    made = corpus.generate(tmp_path, target_chars=800_000)
    edition = assemble.convert(made.paths, ledger=Ledger.load(tmp_path / "no-ledger.tsv"))
    pages = {path.removesuffix(".md"): text for path, text in generated_pages(edition).items()}
    assert len(pages) > 40
    for docname, text in pages.items():
        fast, slow = parse_both(app, recorder, text, docname)
        assert_same(fast, slow)
        assert (fast.myst_pages == []) == (docname not in MYST_ONLY), docname


def test_metacharacters_survive_the_template():
    """``PAGE`` puts escaped text where the converter puts it (a sanity check of the test)."""
    text = "a*b`c{yl:zhu}"
    assert escape_inline(text) == "a\\*b\\`c\\{yl\\:zhu\\}"
    assert set(string.punctuation) <= set(escape_inline(string.punctuation))
