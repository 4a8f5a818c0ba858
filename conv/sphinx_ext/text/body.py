"""Parsing directive bodies (正文解析): witness text is inline MyST and nothing else.

The converter escapes every ASCII punctuation character of the witness (``conv.myst.escape``), so the
body of a ``yl:zhu`` (or the first paragraph of a ``yl:passage``) parses, as inline MyST, into
plain text and ``yl:gloss`` roles only. Escapes resolve in the parse. Anything else that shows
up (emphasis, a link, a literal…) means the converter failed to escape: the extension warns
(``yl.markup``) and keeps the node's text, so nothing is lost and nothing is injected.

Fast path (快速解析): a body exactly in the generated format (``conv.sphinx_ext.text.generated``, the
converter's own format, recognised by regular expressions: no private API) is not
handed to MyST; its nodes are built here directly (the glosses by the ``yl:gloss`` role itself),
the same nodes with the same source and line numbers as MyST's parse gives. Any other body
takes MyST's path (``fill_slow``, ``parse_inline_slow``). ``yl_fast_parse = False`` (a config
value) switches the fast path off.
"""
from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from conv.sphinx_ext.text.chars import wrap_chars
from conv.sphinx_ext.text.witness_forms import apply_trad
from conv.sphinx_ext.util import warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.text.generated import Words, split_body, split_inline
from conv.sphinx_ext.nodes import yl_char, yl_emend, yl_forms, yl_gloss, yl_segment, yl_text

try:
    from myst_parser.mocking import MockState
except ImportError:  # pragma: no cover - the extension is used with myst_parser
    MockState = None


def _allowed_inline() -> tuple[type, ...]:
    return (nodes.Text, yl_gloss, yl_char, yl_forms, yl_emend)


def _cite(node: nodes.Node) -> bool:
    """A ``{yl:cite}`` the converter wrote around witness text (a title of the 通解's 目録,
    ``conv.edition.catalogue``): kept, its text read as the rest is."""
    return isinstance(node, addnodes.pending_xref) and node.get("refdomain") == "yl"


def sanitize(children: list[nodes.Node], location: object) -> list[nodes.Node]:
    """Keep text, glosses and the converter's cites; report and flatten to text anything else."""
    allowed = _allowed_inline()
    out: list[nodes.Node] = []
    for child in children:
        if isinstance(child, allowed) or _cite(child):
            out.append(child)
        elif isinstance(child, nodes.system_message):
            continue  # already reported by the parser
        else:
            warn(f"witness text parsed as markup <{child.tagname}> (escape it): "
                 f"{child.astext()!r} kept as plain text", YlWarning.MARKUP, location)
            out.append(nodes.Text(child.astext()))
    return out


def fast_path(directive: SphinxDirective) -> bool:
    """Whether ``directive``'s body may be read by the fast path: it is MyST's (the generated
    format is MyST) and ``yl_fast_parse`` is on."""
    return (MockState is not None and isinstance(directive.state, MockState)
            and directive.config.yl_fast_parse)


def parse_inline(directive: SphinxDirective, text: str, lineno: int) -> list[nodes.Node]:
    """Parse ``text`` as inline MyST: resolved escapes, ``yl:gloss`` roles, ``yl_forms`` and ``yl_char`` nodes."""
    if fast_path(directive):
        parts = split_inline(text)
        if parts is not None:
            return inline_nodes(directive, parts, lineno + 1, directive.get_location())
    return parse_inline_slow(directive, text, lineno)


def parse_inline_slow(directive: SphinxDirective, text: str, lineno: int) -> list[nodes.Node]:
    """``parse_inline`` through MyST's inline parser."""
    location = directive.get_location()
    parsed, messages = directive.state.inline_text(text, lineno)
    return wrap_chars(sanitize(list(parsed), location), location) + list(messages)


def inline_nodes(directive: SphinxDirective, parts: list, lineno: int,
                 location: object) -> list[nodes.Node]:
    """The nodes of recognised inline ``parts`` (``fastbody.split_inline``) as MyST makes them on
    line ``lineno``: ``Text`` runs and what the ``yl:gloss`` role returns, then ``yl_forms`` and ``yl_char``."""
    return wrap_chars(sanitize(_roles(directive, parts, lineno), location), location)


def _roles(directive: SphinxDirective, parts: list, lineno: int) -> list[nodes.Node]:
    """Text runs and glosses, before ``sanitize``: each gloss made by the role MyST would call
    (the ``yl`` domain's ``gloss``), with MyST's arguments."""
    out: list[nodes.Node] = []
    for part in parts:
        if isinstance(part, str):
            out.append(nodes.Text(part))
            continue
        role = directive.env.get_domain("yl").role(part.role)
        made, messages = role(f"yl:{part.role}", f":yl:{part.role}:`{part.content}`", part.content, lineno,
                              directive.state.inliner)
        out += made + messages
    return out


def segment_node(layer: str, lacuna: str, source: str, line: int) -> yl_segment:
    """An empty ``yl_segment`` of ``layer`` at ``source``:``line`` (its directive's place); the
    segments of a passage read by the fast path (``LineDirective.fill_fast``) are made here too."""
    node = yl_segment(layer=layer, lacuna=lacuna, classes=["yl-note", f"yl-{layer}"])
    node.source, node.line = source, line
    return node


def _location(source: str, line: int) -> str:
    """A directive's location for warnings, as ``SphinxDirective.get_location`` writes it."""
    if source and line:
        return f"{source}:{line}"
    return f"{source}:" if source else f"<unknown>:{line}"


class LineDirective(SphinxDirective):
    """Shared body rule of ``yl:passage``, ``yl:title`` and ``yl:chaptertitle``.

    The body is an optional first paragraph (the printed words), then segment directives
    (``yl:zhu`` …, ``conv.sphinx_ext.text.segments``).
    """

    has_content = True

    def fill(self, line: nodes.Element, text_layer: str, text_class: str) -> None:
        """Parse the body into ``line``: a ``yl_text`` (class ``text_class``), then segments."""
        blocks = split_body(list(self.content)) if fast_path(self) else None
        if blocks is None:
            self.fill_slow(line, text_layer, text_class)
        else:
            self.fill_fast(line, text_layer, text_class, blocks)

    def fill_fast(self, line: nodes.Element, text_layer: str, text_class: str,
                  blocks: list) -> None:
        """``fill`` from the recognised ``blocks`` (``fastbody.split_body``): the nodes, source,
        lines and warnings (in the same order) of ``fill_slow``, without MyST."""
        document = self.state.document
        source = document["source"]
        first = self.lineno + self.content_offset + 1  # the body's first line, as MyST counts
        words, segments = None, []
        for block in blocks:
            at = first + block.index
            if isinstance(block, Words):
                # MyST calls the roles while parsing, but wraps the words after the segments
                words = (_roles(self, block.parts, at), at)
            else:
                segment = segment_node(block.layer, block.lacuna, source, at)
                # as SegmentDirective.run: parse_inline at the segment's body line (its directive
                # line + MyST's content_offset: 1, 2 after a :lacuna: line), where MyST calls
                # the roles one line further
                content_offset = 1 + bool(block.lacuna) + bool(block.trad)
                segment.extend(inline_nodes(self, block.parts, at + content_offset,
                                            _location(source, at)))
                apply_trad(segment, block.trad, _location(source, at))
                segments.append(segment)
            document.current_line = at  # where MyST leaves it
        if words is not None:
            location = self.get_location()
            children, at = words
            text = yl_text("", "", *wrap_chars(sanitize(children, location), location),
                           layer=text_layer, classes=["yl-text", text_class])
            text.source, text.line = source, at
            apply_trad(text, self.options.get("trad", ""), location)
            line += text
        line.extend(segments)

    def fill_slow(self, line: nodes.Element, text_layer: str, text_class: str) -> None:
        """``fill`` through MyST: a nested parse of the body."""

        location = self.get_location()
        holder = nodes.Element()
        self.state.nested_parse(self.content, self.content_offset, holder)
        seen_text = seen_segment = False
        for child in holder.children:
            if isinstance(child, nodes.paragraph) and not seen_text and not seen_segment:
                words = wrap_chars(sanitize(list(child.children), location), location)
                text = yl_text("", "", *words, layer=text_layer,
                               classes=["yl-text", text_class])
                text.source, text.line = child.source, child.line
                apply_trad(text, self.options.get("trad", ""), location)
                line += text
                seen_text = True
            elif isinstance(child, yl_segment):
                line += child
                seen_segment = True
            elif isinstance(child, nodes.system_message):
                line += child
            else:
                warn(f"unexpected <{child.tagname}> in {self.name}: its body is the printed "
                     "words in one paragraph, then segment directives (yl:zhu …)", YlWarning.STRUCTURE, location)
                line += child
