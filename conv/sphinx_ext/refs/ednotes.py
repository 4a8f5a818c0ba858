"""Editorial notes (编者校注): hand-written MyST notes attached to passage anchors.

Notes live apart from the generated text, one page per chapter, ``source/notes/<work>/<chapter>.md``
(the converter never writes there). A note names the passage it is about by its anchor::

    :::{yl:note} judou-xiangshe-51
    :author: 编者
    :date: 2025-11-30

    「兴共而俟」之「共」读为「拱」…… (full MyST: *emphasis*, footnotes[^1], [links](https://…),
    roles such as ``{yl:cite}``)

    [^1]: ……
    :::

The argument is one anchor or a range ``judou-xiangshe-12..judou-xiangshe-14`` (the same as
``:to: judou-xiangshe-14``); a section or chapter anchor works too. Options: ``author``, ``date``
(ISO ``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``), ``to``, ``name`` (the note's id, default
``note-<anchor>``).

How a note reaches its passage
------------------------------
1. *Read* (notes page). ``EditorialNoteDirective`` makes a ``yl_ednote`` with the parsed body and
   records the note in ``env.yl_notes`` (``{docname: [note, …]}``). ``NoteFootnotes`` moves the
   footnotes a note refers to into the note (MyST puts them at the end of the page). Every page
   with passages records its anchors in reading order in ``env.yl_targets`` (``doctree-read``).
   Both merge across parallel readers (``env-merge-info``).
2. *After reading* (``env-updated``, every build, on the whole edition). ``resolve`` follows the
   ledger's redirects (``conv.anchors.assign.redirect_table``; ``yl_anchor_ledger`` names another
   ledger), finds each note's page and place, numbers the notes of each chapter page in reading
   order (〔一〕〔二〕…), and warns (``yl.note``, at the note's file and line) about a note whose
   anchor the edition does not have — a typo, or an anchor retired without a redirect. It
   returns the pages whose rendering changed: editing one note rewrites its notes page (read
   again) and the chapter page it is attached to (written again from its pickled doctree, not
   read again — cheaper than ``env.note_dependency``, which would re-parse the chapter);
   regenerating a chapter rewrites the notes pages that point into it. A page written again
   without being read again keeps its title and table of contents, so the pages whose toctree
   lists it (Sphinx writes those too, for any page it writes) are left alone (``write_only``).
3. *Writing* (``PlaceNotes``, a post-transform before references are resolved). On a chapter
   page, each passage with notes gets a ``yl_ednote_ref`` at its end: the number and a copy of
   the note's body (footnote ids made unique, cross-references rebased on the chapter page). On
   a notes page, each note gets its head: number, a link back to the passage, the passage's
   opening words, author and date.

Output: HTML, a ``<details>`` at the end of the passage whose ``<summary>`` is the marker 〔一〕
(a disclosure: keyboard and no JavaScript); the notes page shows every note in full. LaTeX, a
``\\footnote`` at the passage with the whole note; the notes page lists the notes with the page of
their passage. Text, man, texinfo: the marker at the passage, the notes in full on the notes page.
"""
from __future__ import annotations


from sphinx.application import Sphinx

from conv.sphinx_ext.util import depart_noop, setup_builder_event, visit_noop
from conv.sphinx_ext.nodes import yl_ednote, yl_ednote_ref

from conv.sphinx_ext.refs.ednotes_directive import EditorialNoteDirective, NoteFootnotes, merge_info, purge_doc, record_targets
from conv.sphinx_ext.refs.ednotes_safety import setup_safety
from conv.sphinx_ext.refs.ednotes_place import (
    PlaceNotes, depart_ednote_html, depart_ref_html, depart_ref_latex, visit_ednote_html, visit_ednote_latex,
    visit_ref_html, visit_ref_latex, visit_ref_text,
)
from conv.sphinx_ext.refs.ednotes_resolve import (
    note_read_pages, pages_to_write, resolve, restore_parents, spare_parents_of_unread_pages, write_only,
)

CSS_FILE = "yili-notes.css"
__all__ = ["pages_to_write", "write_only"]


def setup_ednotes(app: Sphinx) -> None:
    # the ledger whose redirects notes follow ("" = the committed conv/data/anchors.tsv)
    app.add_config_value("yl_anchor_ledger", "", "env", types=[str])
    for node, html, latex, text in (
        (yl_ednote, (visit_ednote_html, depart_ednote_html), (visit_ednote_latex, None),
         (visit_noop, depart_noop)),
        (yl_ednote_ref, (visit_ref_html, depart_ref_html), (visit_ref_latex, depart_ref_latex),
         (visit_ref_text, None)),
    ):
        app.add_node(node, html=html, latex=latex, text=text, man=text, texinfo=text)
    app.add_directive_to_domain("yl", "note", EditorialNoteDirective)
    app.add_transform(NoteFootnotes)
    setup_safety(app)
    app.add_post_transform(PlaceNotes)
    setup_builder_event(app)
    app.add_css_file(CSS_FILE)  # static/ is on html_static_path (conv.sphinx_ext.output.toolbar)
    app.connect("doctree-read", record_targets)
    app.connect("env-purge-doc", purge_doc)
    app.connect("env-merge-info", merge_info)
    app.connect("env-updated", resolve)
    app.connect("env-before-read-docs", note_read_pages)
    app.connect("write-started", spare_parents_of_unread_pages)
    app.connect("build-finished", restore_parents)
