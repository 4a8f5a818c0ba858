"""The editorial note directive (编者校注 ``yl:note``) and what the environment records of notes."""
from __future__ import annotations

import datetime
import hashlib
import re
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from conv.sphinx_ext.util import ANCHOR_RE, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.walk import blocks
from conv.sphinx_ext.nodes import yl_ednote, yl_passage


RANGE = ".."
DATE_RE = re.compile(r"^\d{4}(-(\d{2})(-(\d{2}))?)?$")



# -- the directive ---------------------------------------------------------------------------

def _anchor(argument: str) -> str:
    value = directives.unchanged_required(argument).strip()
    if not ANCHOR_RE.match(value):
        raise ValueError(f"{value!r} is not an anchor (letters, digits, - _ .)")
    return value


def _date(argument: str) -> str:
    value = directives.unchanged_required(argument).strip()
    match = DATE_RE.match(value)
    try:  # a calendar date: 2026-13-45 and 2026-02-30 are not
        datetime.date(int(value[:4]), int(match.group(2) or 1), int(match.group(4) or 1))
    except (AttributeError, ValueError):
        raise ValueError(f"{value!r} is not a date (YYYY-MM-DD, YYYY-MM or YYYY, a day of the calendar)") from None
    return value


class EditorialNoteDirective(SphinxDirective):
    """``yl:note ANCHOR`` or ``yl:note FIRST..LAST``: see the module docstring and ``yl_ednote``."""

    required_arguments = 1
    final_argument_whitespace = False
    has_content = True
    option_spec = {
        "author": directives.unchanged,
        "date": _date,
        "to": _anchor,
        "name": _anchor,
        "class": directives.class_option,
    }

    def run(self) -> list[nodes.Node]:
        start, _, end = self.arguments[0].partition(RANGE)
        if end and "to" in self.options and self.options["to"] != end:
            warn(f"yl:note {self.arguments[0]}: the range and :to: {self.options['to']} disagree",
                 YlWarning.NOTE, self.get_location())
        end = end or self.options.get("to", "")
        for anchor in filter(None, (start, end)):
            if not ANCHOR_RE.match(anchor):
                warn(f"yl:note: {anchor!r} is not an anchor", YlWarning.NOTE, self.get_location())
                return []
        if end == start:
            end = ""
        notes = _store(self.env, "yl_notes").setdefault(self.env.current_document.docname, [])
        note_id = self.options.get("name") or f"note-{start}"
        taken = {n["id"] for n in notes} | set(self.state.document.ids)
        base, k = note_id, 1
        while note_id in taken:
            k += 1
            note_id = f"{base}-{k}"
        author = self.options.get("author", "").strip()
        date = self.options.get("date", "")
        node = yl_ednote(target=start, end=end, author=author, date=date,
                         classes=["yl-ednote", *self.options.get("class", [])])
        node["ids"].append(note_id)
        self.state.document.ids[note_id] = node
        self.set_source_info(node)
        body = nodes.container(classes=["yl-ednote-body"])
        self.state.nested_parse(self.content, self.content_offset, body)
        if not body.children:
            warn(f"yl:note {self.arguments[0]}: the note is empty", YlWarning.NOTE, self.get_location())
        node += body
        notes.append({
            "id": note_id,
            "line": self.lineno,
            "target": start,
            "end": end,
            "author": author,
            "date": date,
            "digest": hashlib.sha256(self.block_text.encode("utf-8")).hexdigest()[:16],
        })
        return [node]


class NoteFootnotes(SphinxTransform):
    """Move the footnotes a note refers to into the note (MyST collects every footnote at the
    end of the page), so a note carries its footnotes wherever it is shown."""

    default_priority = 760  # after the footnote transforms of docutils (620) and MyST (623)

    def apply(self, **kwargs: Any) -> None:
        moved = False
        for note in self.document.findall(yl_ednote):
            body = note[0]
            for ref in list(note.findall(nodes.footnote_reference)):
                footnote = self.document.ids.get(ref.get("refid", ""))
                if isinstance(footnote, nodes.footnote) and not _inside(footnote, yl_ednote):
                    footnote.parent.remove(footnote)
                    body += footnote
                    moved = True
        if moved:  # MyST's separator before the page's footnotes, if none are left after it
            for transition in list(self.document.findall(nodes.transition)):
                parent = transition.parent
                following = parent.children[parent.index(transition) + 1:]
                if "footnotes" in transition["classes"] and not any(
                        isinstance(n, nodes.footnote) for n in following):
                    parent.remove(transition)


def _inside(node: nodes.Node, cls: type) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, cls):
            return True
        parent = parent.parent
    return False


# -- environment: anchors in reading order, notes, merge ---------------------------------------

def _store(env: BuildEnvironment, name: str) -> dict:
    if not hasattr(env, name):
        setattr(env, name, {})
    return getattr(env, name)


def record_targets(app: Sphinx, doctree: nodes.document) -> None:
    """Anchors of a page with passages, in reading order: its sections and passages."""

    docname = app.env.current_document.docname
    anchors: list[list[str]] = []  # per node: its anchor, then the redirected ones it carries
    has_passages = False
    for node in blocks(doctree, (yl_passage, nodes.section), into=(nodes.section,)):
        if isinstance(node, yl_passage):
            has_passages = True
        if node["ids"]:
            anchors.append(list(node["ids"]))
    targets = _store(app.env, "yl_targets")
    if has_passages:
        targets[docname] = anchors
    else:
        targets.pop(docname, None)


def purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for name in ("yl_notes", "yl_targets"):
        _store(env, name).pop(docname, None)


def merge_info(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    for name in ("yl_notes", "yl_targets"):
        mine, theirs = _store(env, name), _store(other, name)
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]
