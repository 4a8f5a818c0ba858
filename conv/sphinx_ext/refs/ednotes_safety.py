"""Safe editorial notes (校注之安全): a note from a contributor can be merged without review of
its markup.

- ``RefuseRawHtml``: on the pages under ``notes/`` (``source/notes/``), raw HTML — an HTML block,
  inline HTML, a ``{raw}`` directive (MyST makes each a ``raw`` node) — is refused: a ``yl.note``
  warning at its ``file:line`` (an error under ``-W``), and the node is left out of the page, so no
  script a note holds ever runs, whatever the build's options.
- ``quiet_copies``: a note is shown on its notes page and, as a copy, at its passage
  (``ednotes_place``, which sets ``COPY_FLAG`` on the copy's references); a reference in the copy
  that does not resolve was already reported on the notes page, so it is not reported a second
  time (Sphinx runs every ``warn-missing-reference`` handler: ``cite.warn_unknown_anchor`` checks
  the flag too).
"""
from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from conv.sphinx_ext.util import warn
from conv.sphinx_ext.warnings_ import YlWarning

NOTES_DIR = "notes/"
COPY_FLAG = "yl_note_copy"


class RefuseRawHtml(SphinxTransform):
    """Leave raw HTML out of the editorial-note pages, with a warning at its line."""

    default_priority = 200

    def apply(self, **kwargs: Any) -> None:
        if not (self.env.docname or "").startswith(NOTES_DIR):
            return
        for raw in list(self.document.findall(nodes.raw)):
            warn("editorial notes are MyST without raw HTML: this HTML (or {raw} directive) is left out; "
                 "write the note in MyST (emphasis, links, footnotes, roles)", YlWarning.NOTE, raw)
            raw.parent.remove(raw)


def quiet_copies(app: Sphinx, domain, node: nodes.Element) -> bool | None:
    """``warn-missing-reference``: no second warning for a reference in a note's copy."""
    return True if node.get(COPY_FLAG) else None


def setup_safety(app: Sphinx) -> None:
    app.add_transform(RefuseRawHtml)
    app.connect("warn-missing-reference", quiet_copies, priority=100)
