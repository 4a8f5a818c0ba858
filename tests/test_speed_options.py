"""Simple options read at once (``conv/sphinx_ext/speed/options.py``): wherever the fast reading
of a directive's ``:key: value`` lines answers, it answers exactly what MyST's own reading does —
on every option block of the seeds' edition, on generated blocks full of what the restricted YAML
treats specially, and in the doctree of a whole chapter page."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from myst_parser.parsers import directives as myst_directives

from conv.sphinx_ext.speed import options as fast

FENCE = re.compile(r"^(:{3,})\{yl:([a-z]+)\}.*$", re.M)


def myst_reading(content, directive_class):
    original = getattr(myst_directives._parse_directive_options, "yl_original",
                       myst_directives._parse_directive_options)
    return original(content, directive_class, False, 7)


def same(found, expected) -> None:
    assert found.content == expected.content
    assert found.options == expected.options
    assert expected.warnings == [] and found.warnings == []
    assert (found.has_options, found.option_line_count) == (expected.has_options, expected.option_line_count)


@pytest.fixture(scope="module")
def yl(myst_app):
    return myst_app.app.env.get_domain("yl")


def test_every_option_block_of_the_seeds_edition(edition_source, yl):
    read = blocks = 0
    for page in sorted(edition_source.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for fence in FENCE.finditer(text):
            directive = yl.directive(fence.group(2))
            if directive is None or not directive.option_spec:
                continue
            content = text[fence.end() + 1:].split(fence.group(1) + "\n", 1)[0]
            blocks += content.lstrip().startswith(":")
            found = fast.fast_options(content, directive, False, 7)
            if found is not None:
                same(found, myst_reading(content, directive))
                read += 1
    # passages, apparatus entries, tables: nearly every generated block is read at once (not an
    # apparatus entry's quoted reason)
    assert blocks > 500 and read > 0.95 * blocks


# what MyST's tokenizer treats specially (quotes, block scalars, comments, tabs, line breaks,
# leading and trailing spaces, colons, a BOM), one at most in a line of ordinary witness text
SAFE = st.text(alphabet="ab1.-_賔玄\u3000\\`*", min_size=1, max_size=4)
SPECIAL = st.sampled_from(["", "", " ", "  ", ":", ": ", "'", '"', "|", ">", "#", " #", "\t", "\x85",
                           "\u2028", "\ufeff", "\x0c", "\r"])
VALUES = st.builds(lambda a, special, b, at: (special + a + b, a + special + b, a + b + special)[at],
                   SAFE, SPECIAL, SAFE | st.just(""), st.integers(0, 2))
KEYS = st.sampled_from(["keep", "page", "trad", "source", "layer", "nokey", "a b"])
LINES = st.builds(lambda indent, key, gap, value: f"{indent}:{key}:{gap}{value}",
                  st.sampled_from(["", "", " "]), KEYS, st.sampled_from([" ", " ", " ", "", "  ", "\t"]),
                  VALUES | st.just(""))


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(LINES, min_size=1, max_size=5),
       body=st.sampled_from(["", "\n", "\n鄉射之禮", "鄉射之禮\n", "::::", ":::{yl:zhu}\n注\n:::"]))
def test_generated_blocks_read_as_myst_reads_them(yl, lines, body):
    content = "\n".join(lines) + ("\n" + body if body else "")
    directive = yl.directive("passage")
    found = fast.fast_options(content, directive, False, 7)
    if found is not None:
        same(found, myst_reading(content, directive))


@pytest.mark.parametrize("content, options, rest", [
    (":layer: jing\n:source: KR1d0038_005.txt:13:1\n:page: 卷五叶一a\n\n鄉射之禮",
     {"layer": "jing", "source": "KR1d0038_005.txt:13:1", "page": "卷五叶一a"}, "\n鄉射之禮"),
    (":keep:\n:layer: ji", {"keep": "", "layer": "ji"}, ""),
    (":trad: 鄉射 之禮", {"trad": "鄉射 之禮"}, ""),
])
def test_simple_lines_are_read_at_once(yl, content, options, rest):
    found = fast.fast_options(content, yl.directive("passage"), False, 1)
    assert found is not None
    assert (found.options, found.content) == (options, rest)


@pytest.mark.parametrize("content", [
    ":layer: 'jing'",  # a quoted value
    ":keep: a #b",  # a comment
    ":keep: |\n  x",  # a block scalar
    ":keep: x ",  # a trailing space
    ":layer:\tjing",  # a tab
    ":layer: jingg",  # a value the spec refuses: MyST warns
    ":colour: red",  # a key the spec lacks: MyST warns
    "---\nlayer: jing\n---",  # the YAML block form
])
def test_anything_else_is_left_to_myst(yl, content):
    assert fast.fast_options(content, yl.directive("passage"), False, 1) is None


def test_only_the_edition_s_directives(yl, myst_app):
    from sphinx.directives.patches import Code

    assert fast.own_directive(yl.directive("passage"))
    assert fast.fast_options(":class: x", Code, False, 1) is None


def test_a_chapter_page_parses_to_the_same_doctree(edition_source, myst_app):
    text = (edition_source / "judou" / "xiangshe.md").read_text(encoding="utf-8")
    docname = "speed-options-probe"
    fast.install(myst_app.app)
    assert myst_directives._parse_directive_options is not myst_directives._parse_directive_options.yl_original
    with_fast = myst_app.parse(text, docname).pformat()
    myst_app.app.env.clear_doc(docname)
    fast.uninstall(myst_app.app, None)
    assert not hasattr(myst_directives._parse_directive_options, "yl_original")
    plain = myst_app.parse(text, docname).pformat()
    myst_app.app.env.clear_doc(docname)
    myst_app.take_warnings()
    fast.install(myst_app.app)
    assert with_fast == plain
    assert with_fast.count("<yl_passage") > 100
