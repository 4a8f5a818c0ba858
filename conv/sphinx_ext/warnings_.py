"""The extension's warnings (警告类型): one member per kind, as myst-parser's ``MystWarnings``.

Every warning the extension emits has ``type="yl"`` and one of these subtypes, shown at its end
(``[yl.cite]``), so a project can silence one kind in ``conf.py``::

    suppress_warnings = ["yl.gloss"]          # or YlWarning.GLOSS.type

``make html`` runs with ``-W``: an unsuppressed warning fails the build.
"""
from __future__ import annotations

from enum import Enum


class YlWarning(Enum):
    """The subtypes of the extension's warnings (``yl.<value>``)."""

    MARKUP = "markup"
    """Witness text parsed into something other than text and ``yl:gloss`` roles (the converter
    failed to escape it), a ``yl:datatable`` whose options or rows are malformed, or a character
    that cannot be typeset (a control character: left out of the PDF, refused before LaTeX)."""

    STRUCTURE = "structure"
    """A directive in the wrong place: a segment (``yl:zhu`` …) outside a passage or title, a
    block in a passage's text, a segment of more than one paragraph."""

    ANCHOR = "anchor"
    """A missing, malformed or duplicate anchor: of a passage, a section, a ``yl:redirect``, an
    apparatus entry (``yl:app``) or a ``yl:datatable`` cite cell; a heading with no label."""

    CITE = "cite"
    """A ``yl:cite`` (or a ``yl:datatable`` cite cell) of an anchor no passage, section or chapter
    has."""

    NOTE = "note"
    """An editorial note (``yl:note``) on an anchor the edition does not have, a malformed or empty
    one, raw HTML in a note (left out), or an anchor ledger that cannot be read."""

    PUA = "pua"
    """A private-use code point the PUA table (``conv/data/pua.toml``) does not know: shown as 〓,
    never raw."""

    GLOSS = "gloss"
    """A ``yl:gloss`` role ``conv.parser.glosses`` cannot parse as one gloss."""

    @property
    def type(self) -> str:
        """``yl.<value>``: the name ``suppress_warnings`` takes and the warning shows."""
        return f"yl.{self.value}"
