"""Parsing directive bodies (正文解析): witness text is inline MyST and nothing else.

The converter escapes every ASCII punctuation character of the witness (``conv.escape``), so the
body of a ``yl:zhu`` (or the first paragraph of a ``yl:passage``) parses, as inline MyST, into
plain text and ``yl:gloss`` roles only. Escapes resolve in the parse. Anything else that shows
up (emphasis, a link, a literal…) means the converter failed to escape: the extension warns
(``yl.markup``) and keeps the node's text, so nothing is lost and nothing is injected.
"""
from __future__ import annotations

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .chars import wrap_chars
from .common import warn


def _allowed_inline() -> tuple[type, ...]:
    from .chars import yl_char
    from .glosses import yl_gloss

    return (nodes.Text, yl_gloss, yl_char)


def sanitize(children: list[nodes.Node], location: object) -> list[nodes.Node]:
    """Keep text and glosses; report and flatten to text anything else."""
    allowed = _allowed_inline()
    out: list[nodes.Node] = []
    for child in children:
        if isinstance(child, allowed):
            out.append(child)
        elif isinstance(child, nodes.system_message):
            continue  # already reported by the parser
        else:
            warn(f"witness text parsed as markup <{child.tagname}> (escape it): "
                 f"{child.astext()!r} kept as plain text", "markup", location)
            out.append(nodes.Text(child.astext()))
    return out


def parse_inline(directive: SphinxDirective, text: str, lineno: int) -> list[nodes.Node]:
    """Parse ``text`` as inline MyST: resolved escapes, ``yl:gloss`` roles, ``yl_char`` nodes."""
    location = directive.get_location()
    parsed, messages = directive.state.inline_text(text, lineno)
    return wrap_chars(sanitize(list(parsed), location), location) + list(messages)


class LineDirective(SphinxDirective):
    """Shared body rule of ``yl:passage``, ``yl:title`` and ``yl:chaptertitle``.

    The body is an optional first paragraph (the printed words), then note directives.
    """

    has_content = True

    def fill(self, line: nodes.Element, text_layer: str, text_class: str) -> None:
        """Parse the body into ``line``: a ``yl_text`` (class ``text_class``), then notes."""
        from .layers import yl_note
        from .passage import yl_text

        location = self.get_location()
        holder = nodes.Element()
        self.state.nested_parse(self.content, self.content_offset, holder)
        seen_text = seen_note = False
        for child in holder.children:
            if isinstance(child, nodes.paragraph) and not seen_text and not seen_note:
                words = wrap_chars(sanitize(list(child.children), location), location)
                text = yl_text("", "", *words, layer=text_layer,
                               classes=["yl-text", text_class])
                text.source, text.line = child.source, child.line
                line += text
                seen_text = True
            elif isinstance(child, yl_note):
                line += child
                seen_note = True
            elif isinstance(child, nodes.system_message):
                line += child
            else:
                warn(f"unexpected <{child.tagname}> in {self.name}: its body is the printed "
                     "words in one paragraph, then note directives", "structure", location)
                line += child
