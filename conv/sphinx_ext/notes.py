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

import hashlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util import docname_join
from sphinx.util.nodes import make_refnode

from conv.sphinx_ext.common import ANCHOR_RE, depart_noop, visit_noop, warn
from conv.sphinx_ext.walk import blocks

CSS_FILE = "yili-notes.css"
RANGE = ".."
DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


def setup_notes(app: Sphinx) -> None:
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
    app.add_post_transform(PlaceNotes)
    app.add_css_file(CSS_FILE)  # static/ is on html_static_path (conv.sphinx_ext.toolbar)
    app.connect("doctree-read", record_targets)
    app.connect("env-purge-doc", purge_doc)
    app.connect("env-merge-info", merge_info)
    app.connect("env-updated", resolve)
    app.connect("env-before-read-docs", note_read_pages)
    app.connect("write-started", spare_parents_of_unread_pages)
    app.connect("build-finished", restore_parents)


# -- nodes -----------------------------------------------------------------------------------

class yl_ednote(nodes.General, nodes.Element):  # noqa: N801
    """An editorial note on its notes page::

        <yl_ednote ids="note-judou-xiangshe-51" target="judou-xiangshe-51" end=""
                   author="编者" date="2025-11-30" classes="yl-ednote">
            <paragraph classes="yl-ednote-head">      (added when written: PlaceNotes)
                <inline classes="yl-ednote-number">〔一〕
                <reference refuri="../../judou/xiangshe.html#judou-xiangshe-51">乡射礼 …
                …
            <container classes="yl-ednote-body">
                <paragraph>…                           (the note's MyST, its footnotes last)

    HTML ``<div class="yl-ednote" id=…>``; LaTeX: the head and the page of the passage (the body
    is printed as a footnote at the passage); text: head and body.
    """


class yl_ednote_ref(nodes.General, nodes.Element):  # noqa: N801
    """A note at its passage (the last child of the ``yl_passage``; after a heading for a
    section or chapter anchor), made when the chapter page is written::

        <yl_ednote_ref number="1" label="〔一〕" note="notes/judou/xiangshe#note-judou-xiangshe-51"
                       classes="yl-ednote-ref">
            <container classes="yl-ednote-body">       (a copy of the note's body)
            <paragraph classes="yl-ednote-foot">       (author, date, link to the notes page)

    HTML: ``<details class="yl-ednote-ref no-search"><summary>〔一〕</summary>…</details>``
    (``no-search``: the passage search matches the note on its notes page, not here). LaTeX:
    ``\\footnote{…}``. Text, man, texinfo: the label only.
    """


# -- the directive ---------------------------------------------------------------------------

def _anchor(argument: str) -> str:
    value = directives.unchanged_required(argument).strip()
    if not ANCHOR_RE.match(value):
        raise ValueError(f"{value!r} is not an anchor (letters, digits, - _ .)")
    return value


def _date(argument: str) -> str:
    value = directives.unchanged_required(argument).strip()
    if not DATE_RE.match(value):
        raise ValueError(f"{value!r} is not a date (YYYY-MM-DD, YYYY-MM or YYYY)")
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
                 "note", self.get_location())
        end = end or self.options.get("to", "")
        for anchor in filter(None, (start, end)):
            if not ANCHOR_RE.match(anchor):
                warn(f"yl:note: {anchor!r} is not an anchor", "note", self.get_location())
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
            warn(f"yl:note {self.arguments[0]}: the note is empty", "note", self.get_location())
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
    from conv.sphinx_ext.passage import yl_passage

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


# -- resolving: redirects, places, numbers, dangling notes -----------------------------------

_LEDGERS: dict[tuple, tuple[dict[str, str], set[str]]] = {}


def ledger_view(app: Sphinx) -> tuple[dict[str, str], set[str]]:
    """(redirect table, every anchor the ledger ever issued) of the configured ledger; read only
    for an anchor no page has (the pages carry the ledger's redirects as ids already)."""
    from conv.anchors.assign import redirect_table
    from conv.errors import ConversionError
    from conv.anchors.ledger import DEFAULT_PATH, Ledger

    configured = app.config.yl_anchor_ledger
    path = Path(app.confdir, configured) if configured else DEFAULT_PATH
    key = (str(path), path.stat().st_mtime_ns if path.exists() else None)
    if key not in _LEDGERS:
        try:
            ledger = Ledger.load(path)
        except ConversionError as error:
            warn(f"editorial notes: cannot read the anchor ledger: {error}", "note")
            ledger = Ledger([], path)
        _LEDGERS.clear()
        _LEDGERS[key] = (redirect_table(ledger), set(ledger.entries))
    return _LEDGERS[key]


def cn_number(n: int) -> str:
    """1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 105 → 一百零五."""
    digits = "零一二三四五六七八九"
    if n < 10:
        return digits[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return ("" if tens == 1 else digits[tens]) + "十" + (digits[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    tail = "" if rest == 0 else ("零" + digits[rest] if rest < 10 else
                                 ("一" + cn_number(rest) if rest < 20 else cn_number(rest)))
    return cn_number(hundreds) + "百" + tail


def label(number: int) -> str:
    return f"〔{cn_number(number)}〕"


def resolve(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Place and number every note; warn about dangling ones; return the pages to rewrite."""
    notes: dict[str, list[dict]] = _store(env, "yl_notes")
    where: dict[str, tuple[str, str, int]] = {}  # any anchor → (its node's anchor, page, place)
    for docname, places in _store(env, "yl_targets").items():
        for position, ids in enumerate(places):
            for anchor in ids:
                where[anchor] = (ids[0], docname, position)

    def locate(anchor: str, note: dict, notedoc: str) -> tuple[str, str, int] | None:
        # a redirected anchor is an id of its target's node (yl:redirect, written from the
        # ledger by the converter); the ledger itself is the fallback
        if anchor in where:
            return where[anchor]
        redirects, issued = ledger_view(app)
        final = redirects.get(anchor, anchor)
        if final in where:
            return where[final]
        if final != anchor:
            why = f"the ledger redirects it to {final!r}, which is not in the edition"
        elif anchor in issued:
            why = ("the ledger issued it but the edition no longer has it: it was retired without "
                   f"a redirect (record one: python -m conv anchors --redirect {anchor} TARGET)")
        else:
            why = "no passage, section or chapter has it (python -m conv dump --json lists the anchors)"
        warn(f"editorial note {note['id']!r}: anchor {anchor!r} does not exist: {why}", "note",
             (notedoc, note["line"]))
        return None

    resolved: dict[str, dict] = {}
    placed: dict[str, list[tuple[int, str, int, str]]] = defaultdict(list)
    for notedoc in sorted(notes):
        for index, note in enumerate(notes[notedoc]):
            key = f"{notedoc}#{note['id']}"
            info = {**note, "doc": notedoc, "number": 0, "chapter": "", "anchor": "", "start": "",
                    "stop": "", "redirected": {}}
            resolved[key] = info
            start = locate(note["target"], note, notedoc)
            stop = locate(note["end"], note, notedoc) if note["end"] else start
            if start is None or stop is None:
                continue
            if start[1] != stop[1] or stop[2] < start[2]:
                warn(f"editorial note {note['id']!r}: the range {note['target']}..{note['end']} "
                     "must run forward on one page", "note", (notedoc, note["line"]))
                continue
            info.update(chapter=start[1], anchor=stop[0], start=start[0],
                        stop=stop[0] if note["end"] else "",
                        redirected={a: f[0] for a, f in ((note["target"], start), (note["end"], stop))
                                    if a and a != f[0]})
            placed[start[1]].append((stop[2], notedoc, index, key))
    at: dict[str, list[str]] = defaultdict(list)
    for chapter, entries in placed.items():
        for number, (_, _, _, key) in enumerate(sorted(entries), 1):
            resolved[key]["number"] = number
            at[resolved[key]["anchor"]].append(key)
    env.yl_notes_state = {"notes": resolved, "at": dict(at)}
    return write_only(env, _changed_pages(env, resolved))


def _changed_pages(env: BuildEnvironment, resolved: dict[str, dict]) -> list[str]:
    """Pages whose notes render differently than in the last build (kept in env)."""
    domain = env.get_domain("yl")

    def title(anchor: str) -> str:
        entry = domain.passages.get(anchor) or domain.sections.get(anchor) or {}
        return entry.get("title", "")

    signatures: dict[str, list] = defaultdict(list)
    for key, info in sorted(resolved.items()):
        shown = (info["number"], info["chapter"], info["start"], info["stop"], info["author"],
                 info["date"], sorted(info["redirected"].items()))
        signatures[info["doc"]].append((key, shown, title(info["start"]), title(info["stop"])))
        if info["chapter"]:
            signatures[info["chapter"]].append((key, shown, info["anchor"], info["digest"]))
    previous = getattr(env, "yl_notes_signatures", {})
    env.yl_notes_signatures = dict(signatures)
    changed = {d for d in set(previous) | set(signatures) if previous.get(d) != signatures.get(d)}
    return sorted(d for d in changed if d in env.all_docs)


# -- pages written again without being read again ------------------------------------------------

_READ: dict[int, set[str]] = {}  # id(env) → the pages this build reads
_WRITE_ONLY: dict[int, set[str]] = {}  # id(env) → pages written again, not read again
_SPARED: dict[int, dict[str, set[str]]] = {}  # id(env) → the toctree parents set aside


def note_read_pages(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    _READ[id(env)] = set(docnames)
    _WRITE_ONLY.pop(id(env), None)


def write_only(env: BuildEnvironment, docnames) -> list[str]:
    """``docnames`` (pages to write again, from an ``env-updated`` handler), remembering those
    this build does not read: their titles and tables of contents are those of the last build."""
    docnames = sorted(docnames)
    _WRITE_ONLY.setdefault(id(env), set()).update(set(docnames) - _READ.get(id(env), set()))
    return docnames


def pages_to_write(env: BuildEnvironment) -> set[str]:
    """The pages this build reads and those written again for their notes (or marks) without
    being read (known from ``env-updated`` until ``write-started``)."""
    return _READ.get(id(env), set()) | _WRITE_ONLY.get(id(env), set())


def spare_parents_of_unread_pages(app: Sphinx, builder) -> None:
    """Sphinx writes, with every page it writes, the pages whose toctree lists it (its title or
    sections may have changed). Not for a page that was not read again: while Sphinx collects
    those parents (right after ``write-started``, after the environment is pickled), such a page
    has none (``env.files_to_rebuild``); ``build-finished`` gives them back."""
    env = app.env
    pages = _WRITE_ONLY.pop(id(env), set()) - _READ.pop(id(env), set())
    spared = _SPARED.setdefault(id(env), {})
    for docname in pages:
        parents = env.files_to_rebuild.pop(docname, None)
        if parents is not None:
            spared[docname] = parents


def restore_parents(app: Sphinx, exception: Exception | None) -> None:
    env = app.env
    for docname, parents in _SPARED.pop(id(env), {}).items():
        env.files_to_rebuild.setdefault(docname, set()).update(parents)


def notes_state(env: BuildEnvironment) -> dict:
    return getattr(env, "yl_notes_state", None) or {"notes": {}, "at": {}}


# -- writing: heads on notes pages, notes at their passages ----------------------------------

class PlaceNotes(SphinxPostTransform):
    """Give each note on a notes page its head; put each note at its passage (see module doc)."""

    default_priority = 5  # before ReferencesResolver (10): the copies' references resolve here

    def run(self, **kwargs: Any) -> None:
        state = notes_state(self.env)
        if not state["notes"]:
            return
        docname = self.env.current_document.docname or self.config.root_doc
        for note in list(self.document.findall(yl_ednote)):
            self.add_head(note, state, _docname_of(note, docname))
        if not state["at"]:
            return
        from conv.sphinx_ext.passage import yl_passage

        doctrees: dict[str, nodes.document] = {}
        for target in [node for node in blocks(self.document, (yl_passage, nodes.section),
                                               into=(nodes.section,)) if node["ids"]]:
            keys = [k for anchor in target["ids"] for k in state["at"].get(anchor, ())]
            here = _docname_of(target, docname)
            refs = [self.note_at(state["notes"][k], doctrees, here) for k in keys]
            refs = [r for r in refs if r is not None]
            if not refs:
                continue
            if isinstance(target, yl_passage):
                target.extend(refs)
            else:  # a section or chapter anchor: after its heading
                holder = nodes.container("", *refs, classes=["yl-ednote-at-heading"])
                index = 1 if target.children and isinstance(target[0], nodes.title) else 0
                target.insert(index, holder)

    # -- the head on the notes page ------------------------------------------------------------
    def add_head(self, note: yl_ednote, state: dict, here: str) -> None:
        key = f"{here}#{note['ids'][0]}" if note["ids"] else ""
        info = state["notes"].get(key)
        parts: list[nodes.Node] = []
        if info is None or not info["chapter"]:
            missing = note["target"] + (RANGE + note["end"] if note["end"] else "")
            parts.append(nodes.inline("", f"〔{missing}：锚点不存在〕", classes=["yl-ednote-missing"]))
        else:
            note["chapter"], note["anchor"] = info["chapter"], info["start"]
            parts.append(nodes.inline("", label(info["number"]), classes=["yl-ednote-number"]))
            parts.append(self.passage_link(here, info))
            quoted = self.opening(info["start"])
            if quoted:
                parts.append(nodes.inline("", f"「{quoted}」", classes=["yl-ednote-quote"]))
            if info["redirected"]:
                moved = "，".join(f"{a} 已转至 {b}" for a, b in info["redirected"].items())
                parts.append(nodes.inline("", f"（锚点 {moved}）", classes=["yl-ednote-redirect"]))
        byline = _byline(note["author"], note["date"])
        if byline:
            parts.append(nodes.inline("", byline, classes=["yl-ednote-byline"]))
        head = nodes.paragraph(classes=["yl-ednote-head"])
        for index, part in enumerate(parts):
            if index:  # HTML: the head is a flex box (spaces between items vanish); LaTeX: \quad
                head += [nodes.Text(" "), nodes.raw("", "\\quad{}", format="latex")]
            head += part
        note.insert(0, head)

    def passage_link(self, here: str, info: dict) -> nodes.Node:
        chapter = info["chapter"]
        title = self.env.titles[chapter].astext() if chapter in self.env.titles else chapter
        content = nodes.inline("", "", nodes.Text(title + " "),
                               nodes.literal("", info["start"], classes=["yl-ednote-anchor"]))
        if info["stop"]:
            content += nodes.Text(" 至 ")
            content += nodes.literal("", info["stop"], classes=["yl-ednote-anchor"])
        return make_refnode(self.app.builder, here, chapter, info["start"], content,
                            f"{title} {content.astext()[len(title) + 1:]}")

    def opening(self, anchor: str) -> str:
        domain = self.env.get_domain("yl")
        entry = domain.passages.get(anchor) or domain.sections.get(anchor) or {}
        return entry.get("title", "")

    # -- the note at its passage ---------------------------------------------------------------
    def note_at(self, info: dict, doctrees: dict, here: str) -> yl_ednote_ref | None:
        if info["doc"] not in doctrees:
            doctrees[info["doc"]] = self.env.get_doctree(info["doc"])
        source = doctrees[info["doc"]].ids.get(info["id"])
        if not isinstance(source, yl_ednote):
            return None
        body = source[0].deepcopy()
        prefix = f"{info['anchor']}-n{info['number']}-"
        _unique_ids(body, prefix)
        _renumber_footnotes(body)
        _rebase_xrefs(body, info["doc"], here)
        latex = self.app.builder.format == "latex"
        if latex:
            _inline_footnotes(body)
            _inline_urls(body)
            if body.children and isinstance(body[0], nodes.paragraph):  # 〔四〕 as on the notes page
                body[0].insert(0, nodes.strong("", label(info["number"])))
        ref = yl_ednote_ref(number=info["number"], label=label(info["number"]),
                            note=f"{info['doc']}#{info['id']}", classes=["yl-ednote-ref"])
        ref.source, ref.line = source.source, source.line
        ref += body
        foot = nodes.paragraph(classes=["yl-ednote-foot"])
        byline = _byline(info["author"], info["date"])
        if byline:
            foot += nodes.inline("", byline, classes=["yl-ednote-byline"])
        if not latex:
            link = make_refnode(self.app.builder, here, info["doc"], info["id"],
                                nodes.inline("", "见校注页"), "本篇校注")
            foot += link
        if foot.children:
            ref += foot
        return ref


def _docname_of(node: nodes.Node, default: str) -> str:
    """The page a node stands on: ``default``, or, in a tree of several pages (LaTeX), the
    ``docname`` Sphinx gives each page's sections when it inlines the pages."""
    parent = node if isinstance(node, nodes.section) else node.parent
    while parent is not None:
        if isinstance(parent, (nodes.section, addnodes.start_of_file)) and parent.get("docname"):
            return parent["docname"]
        parent = parent.parent
    return default


def _byline(author: str, date: str) -> str:
    return "　".join(filter(None, (author, date)))


def _unique_ids(body: nodes.Element, prefix: str) -> None:
    """Prefix every id in a copied body (footnotes, targets) and the references to them; a
    footnote reference whose footnote is not in the copy becomes its label."""
    renamed: dict[str, str] = {}
    for node in body.findall(nodes.Element):
        if node["ids"]:
            renamed.update({i: prefix + i for i in node["ids"]})
            node["ids"] = [prefix + i for i in node["ids"]]
        node["names"] = []
    for node in list(body.findall(nodes.Element)):
        if node.get("refid"):
            if node["refid"] in renamed:
                node["refid"] = renamed[node["refid"]]
            elif isinstance(node, nodes.footnote_reference):
                node.replace_self(nodes.superscript("", node.astext()))
                continue
        if node.get("backrefs"):
            node["backrefs"] = [renamed[b] for b in node["backrefs"] if b in renamed]


def _renumber_footnotes(body: nodes.Element) -> None:
    """A note's footnotes, numbered on its notes page (3, 4), are 1, 2 in a copy."""
    labels: dict[str, str] = {}
    for number, footnote in enumerate(body.findall(nodes.footnote), 1):
        if footnote.children and isinstance(footnote[0], nodes.label) and footnote.get("auto"):
            labels[footnote["ids"][0]] = str(number)
            footnote[0].children = [nodes.Text(str(number))]
    for ref in body.findall(nodes.footnote_reference):
        if ref.get("refid") in labels:
            ref.children = [nodes.Text(labels[ref["refid"]])]


def _rebase_xrefs(body: nodes.Element, origin: str, here: str) -> None:
    """Cross-references in a copy resolve from the page it is shown on: a relative ``{doc}``
    target is made absolute first (it was relative to the notes page)."""
    for xref in body.findall(addnodes.pending_xref):
        if xref.get("reftype") == "doc" and xref.get("refdomain") == "std":
            xref["reftarget"] = "/" + docname_join(xref.get("refdoc", origin), xref["reftarget"])
        xref["refdoc"] = here


def _inline_footnotes(body: nodes.Element) -> None:
    """LaTeX: a note is itself a footnote, and footnotes do not nest. Its footnotes become
    numbered lines at its end, their references superscript numbers."""
    footnotes = list(body.findall(nodes.footnote))
    for ref in list(body.findall(nodes.footnote_reference)):
        ref.replace_self(nodes.superscript("", ref.astext()))
    for footnote in footnotes:
        number = footnote[0].astext() if footnote.children and isinstance(footnote[0], nodes.label) else ""
        footnote.parent.remove(footnote)
        paragraphs = [c for c in footnote.children if not isinstance(c, nodes.label)]
        line = nodes.paragraph(classes=["yl-ednote-footnote"])
        line += nodes.superscript("", number)
        for child in paragraphs:
            line.extend(child.children if isinstance(child, nodes.paragraph) else [child])
        body += line


def _inline_urls(body: nodes.Element) -> None:
    """LaTeX: an external link in a note shows its URL in parentheses after the text (Sphinx
    would make it a footnote, and footnotes do not nest)."""
    for ref in list(body.findall(nodes.reference)):
        uri = ref.get("refuri", "")
        if "://" not in uri or ref.astext() == uri:
            continue
        parent, index = ref.parent, ref.parent.index(ref)
        parent[index:index + 1] = [*ref.children, nodes.Text("（"),
                                   nodes.reference(uri, uri, refuri=uri), nodes.Text("）")]


# -- visitors --------------------------------------------------------------------------------

def visit_ednote_html(self, node: yl_ednote) -> None:
    attributes = {"data-target": node["target"]}
    if node.get("end"):
        attributes["data-end"] = node["end"]
    self.body.append(self.starttag(node, "div", "", role="note", **attributes))


def depart_ednote_html(self, node: yl_ednote) -> None:
    self.body.append("</div>\n")


def visit_ref_html(self, node: yl_ednote_ref) -> None:
    number = node["label"]
    self.body.append(self.starttag(node, "details", "", CLASS="no-search"))
    self.body.append(
        f'<summary class="yl-ednote-mark" title="编者校注{self.attval(number)}（展开或收起）">'
        f"{self.encode(number)}</summary>"
        f'<div class="yl-ednote-panel" role="note" aria-label="编者校注{self.attval(number)}">')


def depart_ref_html(self, node: yl_ednote_ref) -> None:
    self.body.append("</div></details>")


def visit_ednote_latex(self, node: yl_ednote) -> None:
    """The notes page in print: the head and where the passage is (its body is the footnote)."""
    self.body.append("\n\\par\\noindent" + self.hypertarget_to(node) + "%\n")
    for child in node.children:
        if isinstance(child, nodes.paragraph) and "yl-ednote-head" in child["classes"]:
            child.walkabout(self)
    if node.get("chapter") and not self.config.latex_show_pagerefs:
        target = self.idescape(f"{node['chapter']}:{node['anchor']}")
        self.body.append("\\nobreak\\hfill{\\small 见第\\pageref{%s}页}\\par\n" % target)
    raise nodes.SkipNode


def visit_ref_latex(self, node: yl_ednote_ref) -> None:
    self.body.append("\\footnote{")


def depart_ref_latex(self, node: yl_ednote_ref) -> None:
    self.body.append("}")


def visit_ref_text(self, node: yl_ednote_ref) -> None:
    if hasattr(self, "add_text"):
        self.add_text(node["label"])
    else:
        self.body.append(node["label"])
    raise nodes.SkipNode
