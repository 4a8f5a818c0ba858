"""Reading generated pages (快速读页): the converter's pages without markdown-it's block parser and
MyST's directive-option parser.

A page ``python -m conv build`` writes (``conv/FORMAT.md``) is a fixed repertoire of blocks, each
on lines of a known shape: the front matter ``yili-generated: conv`` with the checksum of the
page, the HTML comment after it, targets ``(anchor)=``, headings ``#``…, one-line paragraphs of
escaped text (the back matter) and fenced directives (``:::{yl:…}``, ``::::{yl:passage}``,
```` ```{toctree} ````) with ``:key: value`` options. ``FastPageParser`` recognises exactly such a
page and builds its doctree with MyST's own machinery, minus the two parsers that cost the most:

- **blocks**: instead of markdown-it's block tokenizer, ``page_tokens`` cuts the lines into the
  block tokens markdown-it would make (``front_matter``, ``html_block``, ``myst_target``,
  ``heading_*``, ``paragraph_*``, ``colon_fence``/``fence``, with the same ``info``, ``content``,
  ``markup`` and ``map``); markdown-it's core rules then run on them as after its own block parse
  (inline text, ``text_join``, the word count), and MyST's renderer renders them: targets,
  sections, front matter, the directives' ``run()``, line numbers, source attributes and warnings
  all stay MyST's and Sphinx's code;
- **directive options**: ``PageRenderer.run_directive`` reads an options block of plain
  ``:key: value`` lines itself (``parse_fence``, the result MyST's ``parse_directive_text`` gives
  for it) and runs the directive as MyST runs it.

Anything else falls back, as a whole or in part, to MyST unchanged: a page that is not generated,
was edited by hand (its checksum), or holds a line of any other shape is parsed by
``MystParser.parse``; a directive whose options are not plain (quotes, comments, unknown keys,
invalid values: MyST's warnings) is run by MyST's ``run_directive``. ``yl_fast_pages = False``
in ``conf.py`` sends every page to MyST. ``tests/test_fastpage.py`` checks that both ways give
the same tokens, doctrees and warnings.
"""
from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

from docutils import nodes
from docutils.parsers.rst import DirectiveError, directives
from docutils.parsers.rst.directives.body import ParsedLiteral
from docutils.parsers.rst.directives.misc import Include, TestDirective
from docutils.parsers.rst.directives.tables import RSTTable
from docutils.parsers.rst.states import MarkupError
from docutils.statemachine import StringList
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
from myst_parser.mocking import MockingError, MockState, MockStateMachine
from myst_parser.parsers.directives import (
    DirectiveParsingResult,
    is_option_line,
    parse_directive_arguments,
)
from myst_parser.parsers.mdit import create_md_parser
from myst_parser.parsers.sphinx_ import MystParser
from sphinx.application import Sphinx

from conv.myst.writer import GENERATED, split_header


def setup_fastpage(app: Sphinx) -> None:
    # off: every page goes through MyST's parser (as yl_fast_parse = False does for the bodies)
    app.add_config_value("yl_fast_pages", True, "env", types=[bool])
    app.add_source_parser(FastPageParser, override=True)  # replaces myst_parser's MystParser


class FastPageParser(MystParser):
    """MyST's Sphinx parser, reading generated pages by the fast path (see the module docstring);
    any other page is ``MystParser.parse``'s."""

    def parse(self, inputstring: str, document: nodes.document) -> None:
        env = document.settings.env
        tokens = page_tokens(inputstring) if env.config.yl_fast_pages else None
        if tokens is None:
            super().parse(inputstring, document)
            return
        # MystParser.parse merges the front matter's ``myst`` settings into the configuration;
        # a generated page's front matter holds only yili-* keys, so the global one applies
        md = create_md_parser(env.myst_config, PageRenderer)
        md.options["document"] = document
        md_env: dict = {}
        # the block rule finds nothing in an empty source: the other core rules (inline text,
        # text_join, the word count) run on our tokens as after markdown-it's own block parse
        state = StateCore("", md, md_env, tokens)
        md.core.process(state)
        md.renderer.render(state.tokens, md.options, md_env)


# -- recognising a page: the block tokens markdown-it would make -------------------------------

#: Characters that end a line for ``str.splitlines`` (MyST splits directive bodies with it) or
#: that markdown-it rewrites before parsing (``\r``, NUL): a page holding one is MyST's to read.
_ODD = re.compile("[\r\0\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_TARGET = re.compile(r"\(([A-Za-z][A-Za-z0-9_.-]*)\)=")
_HEADING = re.compile(r"(#{1,6}) (.+)")
#: A fence opening a directive; no "|" (markdown-it would take the line for a table's header
#: if the next line looked like a delimiter row).
_FENCE = re.compile(r"(:{3,}|`{3,})(\{[^|]*)")
#: A line markdown-it would start an ordered list with.
_ORDERED = re.compile(r"\d{1,9}[.)](?:[ \t]|$)")
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[]^_`{|}~")  # ASCII punctuation but "\\"
#: The lines that markdown-it may take for the end of a fence opened by a marker: the marker
#: after spaces or tabs (the fence's content is opaque to it otherwise).
_CLOSERS: dict[str, re.Pattern] = {}
_HEADER_LINES = 7  # front matter (5 lines), comment, blank line: conv.myst.writer.with_header


def page_tokens(text: str) -> list[Token] | None:
    """The block tokens of a generated page, equal to markdown-it's (before its core rules
    parse the inline text); ``None`` unless every line of ``text`` is of a known shape."""
    if not text.endswith("\n") or _ODD.search(text) or not _untouched(text):
        return None
    head = text.split("\n", _HEADER_LINES)
    tokens = _header(head)
    if tokens is None:
        return None
    cursor = _Cursor(text, len(text) - len(head[-1]), _HEADER_LINES)
    while cursor.pos < len(text):
        line = cursor.line()
        if not line:
            cursor.advance(line)
        elif not _block(cursor, line, tokens):
            return None
    return tokens


class _Cursor:
    """The start (``pos``) and number (``number``, from 0) of the current line of ``text``."""

    def __init__(self, text: str, pos: int, number: int) -> None:
        self.text, self.pos, self.number = text, pos, number

    def line(self) -> str:
        return self.text[self.pos : self.text.index("\n", self.pos)]

    def advance(self, line: str) -> None:
        """Move past the current line, ``line``."""
        self.pos += len(line) + 1
        self.number += 1


def _untouched(text: str) -> bool:
    """Whether ``text`` is a page the converter wrote and nobody edited: its checksum holds (the
    test ``conv.myst.writer.check_untouched`` makes before overwriting a page)."""
    parsed = split_header(text)
    if parsed is None:
        return False
    fields, body = parsed
    return hashlib.sha256(body.encode("utf-8")).hexdigest() == fields.get("yili-checksum")


def _block_token(kind: str, tag: str, nesting: int, start: int, end: int, **fields) -> Token:
    return Token(kind, tag, nesting, map=[start, end], block=True, **fields)


def _header(head: list[str]) -> list[Token] | None:
    """The front matter and the comment after it, as ``conv.myst.writer.with_header`` writes them
    (``head``: the first lines of the page, then the rest)."""
    if (len(head) <= _HEADER_LINES or head[0] != "---" or head[1] != GENERATED
            or not head[2].startswith("yili-seeds: ") or not head[3].startswith("yili-checksum: ")
            or head[4] != "---" or head[6]):
        return None
    comment = head[5]
    if not comment.startswith("<!--") or "-->" not in comment:  # an HTML block of one line
        return None
    return [
        _block_token("front_matter", "", 0, 0, 5, content="\n".join(head[1:4]), markup="---",
                     hidden=True),
        _block_token("html_block", "", 0, 5, 6, content=comment + "\n"),
    ]


def _block(cursor: _Cursor, line: str, tokens: list[Token]) -> bool:
    """Add the tokens of the block starting at the current line (``line``, not blank) and move
    past it; ``False`` if it is of no known shape."""
    first = line[0]
    if first == "(":
        return _target(cursor, line, tokens)
    if first == "#":
        return _heading(cursor, line, tokens)
    if first in ":`":
        return _fence(cursor, line, tokens)
    return _paragraph(cursor, line, tokens)


def _target(cursor: _Cursor, line: str, tokens: list[Token]) -> bool:
    """``(anchor)=``."""
    match = _TARGET.fullmatch(line)
    if match is None:
        return False
    number = cursor.number
    tokens.append(_block_token("myst_target", "", 0, number, number + 1, content=match[1],
                               attrs={"class": "myst-target"}))
    cursor.advance(line)
    return True


def _inline(content: str, number: int) -> Token:
    """An inline token whose children markdown-it's inline rule will parse."""
    return Token("inline", "", 0, map=[number, number + 1], level=1, children=[],
                 content=content, block=True)


def _heading(cursor: _Cursor, line: str, tokens: list[Token]) -> bool:
    """``## text``: text without surrounding whitespace, not ending in ``#`` (markdown-it cuts
    a closing ``#`` run)."""
    match = _HEADING.fullmatch(line)
    if match is None:
        return False
    marks, text = match.groups()
    if text != text.strip() or text.endswith("#"):
        return False
    tag, number = f"h{len(marks)}", cursor.number
    tokens += [
        _block_token("heading_open", tag, 1, number, number + 1, markup=marks),
        _inline(text, number),
        Token("heading_close", tag, -1, markup=marks, block=True),
    ]
    cursor.advance(line)
    return True


def _paragraph(cursor: _Cursor, line: str, tokens: list[Token]) -> bool:
    """A paragraph of one line (a blank line or the end after it) that no block rule of
    markdown-it could read as anything else: no leading ASCII punctuation but an escape, no
    whitespace around it, not an ordered list item."""
    if line[0] in _PUNCTUATION or line != line.strip() or _ORDERED.match(line):
        return False
    after = cursor.pos + len(line) + 1
    if after < len(cursor.text) and cursor.text[after] != "\n":
        return False
    number = cursor.number
    tokens += [
        _block_token("paragraph_open", "p", 1, number, number + 1),
        _inline(line, number),
        Token("paragraph_close", "p", -1, block=True),
    ]
    cursor.advance(line)
    return True


def _fence(cursor: _Cursor, line: str, tokens: list[Token]) -> bool:
    """A fenced directive (``:::{name} …``, ```` ```{name} … ````) and its content up to the
    closing line, which is exactly the opening marker. Its content is opaque to markdown-it but
    for a line that could close it: any other line starting (after spaces or tabs) with the
    marker is left to markdown-it's rules."""
    match = _FENCE.fullmatch(line)
    if match is None:
        return False
    marker, info = match.groups()
    if marker[0] == "`" and "`" in info:  # CommonMark: no backtick in a backtick fence's info
        return False
    closer = _CLOSERS.get(marker)
    if closer is None:
        closer = _CLOSERS[marker] = re.compile("^[ \t]*" + re.escape(marker), re.MULTILINE)
    text, start = cursor.text, cursor.pos + len(line) + 1
    found = closer.search(text, start)
    if found is None or text[found.start() : found.start() + len(marker) + 1] != marker + "\n":
        return False  # never closed (markdown-it closes it at the end), or an odd closing line
    content = text[start : found.start()]
    opening, closing = cursor.number, cursor.number + 1 + content.count("\n")
    kind = "colon_fence" if marker[0] == ":" else "fence"
    tokens.append(_block_token(kind, "code", 0, opening, closing + 1, info=info, content=content,
                               markup=marker))
    cursor.pos, cursor.number = found.start() + len(marker) + 1, closing + 1
    return True


# -- directives: a plain options block read without MyST's option parser ----------------------

#: ``:key: value``: a value MyST's option tokenizer reads as exactly itself (a plain scalar on one
#: line: not quoted, no block scalar, no comment, single spaces between words, no control or
#: line-break character).
_OPTION = re.compile(
    r":([A-Za-z][A-Za-z0-9_-]*): "
    r"([^\s'\"|>#\x00-\x1f\x7f](?:[^\s\x00-\x1f\x7f]| (?=[^\s#\x00-\x1f\x7f]))*)"
)


class Fence(NamedTuple):
    """A directive as ``run_directive`` receives it."""

    name: str
    first_line: str
    content: str


def parse_fence(directive_class: type, first_line: str, content: str) -> DirectiveParsingResult | None:
    """What MyST's ``parse_directive_text`` returns for a directive whose content opens with an
    options block of plain ``:key: value`` lines, none of them repeated, each valid for
    ``directive_class`` (so MyST would report nothing); ``None`` for any other content (MyST's
    own parse is then used, which is cheap when there is no options block to tokenize)."""
    spec = directive_class.option_spec
    if (not spec or content.startswith("---") or not content.lstrip().startswith(":")
            or issubclass(directive_class, TestDirective)):
        return None
    lines = content.splitlines()
    count = 0  # MyST: the options block is every line from the first that looks like an option
    while count < len(lines) and is_option_line(lines[count]):
        count += 1
    options = _converted_options(spec, lines[:count])
    arguments = _arguments(directive_class, first_line)
    if options is None or arguments is None:
        return None
    body = "\n".join(lines[count:]).splitlines()  # MyST joins the rest and splits it again
    blank_line_removed = bool(body) and not body[0].strip()
    if blank_line_removed:  # MyST: a blank line may separate the options from the body
        body = body[1:]
    if body and not directive_class.has_content:  # MyST warns
        return None
    return DirectiveParsingResult(arguments, options, body, count + blank_line_removed, [],
                                  blank_line_removed)


def _converted_options(spec: dict, lines: list[str]) -> dict | None:
    """The options of ``lines`` converted by ``spec``'s functions as MyST converts them, or
    ``None`` if MyST would warn about one."""
    options = {}
    for line in lines:
        match = _OPTION.fullmatch(line)
        if match is None or match[1] in options or match[1] not in spec:
            return None
        converter, value = spec[match[1]], match[2]
        try:
            # MyST passes None to a flag whatever its value (the value here is never empty)
            options[match[1]] = converter(None if converter is directives.flag else value)
        except (ValueError, TypeError):
            return None
    return options


def _arguments(directive_class: type, first_line: str) -> list[str] | None:
    if not (directive_class.required_arguments or directive_class.optional_arguments):
        # MyST would take the text as the first body line
        return None if first_line.strip() else []
    try:
        return parse_directive_arguments(directive_class, first_line)
    except MarkupError:
        return None


def _plain_directive(directive_class: type | None) -> bool:
    """Whether MyST runs ``directive_class`` in the common way (not ``include``, a table with a
    caption continuation or a parsed literal, which MyST treats apart)."""
    return (directive_class is not None and not issubclass(directive_class, (Include, ParsedLiteral))
            and directive_class.run is not RSTTable.run)


class PageRenderer(SphinxRenderer):
    """MyST's Sphinx renderer for a recognised page: a directive with a plain options block is
    given its options by ``parse_fence`` instead of MyST's option parser."""

    def run_directive(self, name: str, first_line: str, content: str, position: int,
                      additional_options: dict[str, str] | None = None, *,
                      block_text: str | None = None) -> list[nodes.Element]:
        if additional_options is None and block_text is not None:
            made = self._run_parsed(Fence(name, first_line, content), position, block_text)
            if made is not None:
                return made
        return super().run_directive(name, first_line, content, position, additional_options,
                                     block_text=block_text)

    def _run_parsed(self, fence: Fence, position: int, block_text: str) -> list[nodes.Element] | None:
        """``run_directive`` with the options read by ``parse_fence``; ``None`` (and nothing done
        but the look-up of the directive) where that does not apply. The steps are MyST's
        (``DocutilsRenderer.run_directive``): a mocked state on the directive's line, the
        directive's ``run()``, its errors turned into system messages."""
        self.document.current_line = position
        directive_class, _ = directives.directive(fence.name, self.language_module_rst,
                                                  self.document)
        if not _plain_directive(directive_class):
            return None
        parsed = parse_fence(directive_class, fence.first_line, fence.content)
        if parsed is None:
            return None
        state_machine = MockStateMachine(self, position)
        directive = directive_class(
            name=fence.name,
            arguments=parsed.arguments,
            options=parsed.options,
            content=StringList(parsed.body, self.document["source"]),
            lineno=position,
            content_offset=parsed.body_offset,
            block_text=block_text,
            state=MockState(self, state_machine, position),
            state_machine=state_machine,
        )
        try:
            return directive.run()
        except DirectiveError as error:
            message = self.reporter.system_message(error.level, error.msg, line=position)
            message += nodes.literal_block(fence.content, fence.content)
            return [message]
        except MockingError as error:
            return [self.reporter.error(
                f"Directive '{fence.name}' cannot be mocked: {error.__class__.__name__}: {error}",
                nodes.literal_block(fence.content, fence.content), line=position)]
