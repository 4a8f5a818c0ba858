"""The critical apparatus (校勘记): ``yl:app`` entries, their marks in the text, and ``yl:witness``.

The converter writes one apparatus page per work (``source/apparatus/<work>.md``, see
``conv/pages.py``): every editorial intervention of the conversion and every 今文/古文 reading,
one ``yl:app`` directive each::

    :::{yl:app} judou-xiangshe-18-jiao-1
    :label: 校1
    :kind: pua
    :locus: judou-xiangshe-18
    :locus-text: 乡射礼18
    :source: 000_065af0aba9fcdf9d.txt:7:704

    “弦”：底本作私用区码位 U\\+EB8E（缺笔），避康熙帝玄烨讳……
    :::

The argument is the entry's id (an HTML id, a LaTeX label), ``label`` what the reader sees (校 for
an intervention, 异 for a reading), ``locus`` the anchor of the passage (or section, or chapter)
the entry concerns, linked with ``yl:cite`` (text ``locus-text``), ``source`` the place in the
seed, ``keep`` the characters its passage shows as printed in both views (竝: what 郑注
distinguishes), ``read-as`` those it reads in another form (閒间, its passage's) and ``reason`` (optional) the data file's own reason: ``source`` and ``reason`` are
for maintainers, listed in ``build/html/_maintainers/apparatus.tsv`` (``write_maintainers_listing``)
and in the PDF's margin, never on the reader's HTML page. The body is one paragraph of escaped
inline text; its characters are folded like the witness text of the chapter pages (賔, PUA code points).

``ApparatusMarks`` (a post-transform) marks each locus in the text: right after the passage's words
(or, when it has none, at the start of its first note), a superscript label per entry linking to it —
HTML ``<sup class="yl-appmark">``, LaTeX ``\\textsuperscript{\\hyperref[…]{校3}}``, text
``[校3]``. The entries are collected while reading (``ApparatusCollector``, parallel-safe), so a
chapter page's marks come from whatever apparatus pages the project holds; when the entries
change, the pages with passages are written again (``env-updated``).

``{yl:witness}`賔从尸``` shows witness text outside the chapter pages (in a page's prose) with its
characters folded as in the text (diplomatic and normalized view, PUA resolved, never raw). The
back matter's tables fold the witness cells of their ``yl:datatable`` the same way
(``conv.sphinx_ext.backmatter.tables``).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, SphinxRole

from conv.datafiles import write_atomically
from conv.sphinx_ext.text.chars import keep_forms, wrap_chars
from conv.sphinx_ext.text.passage import read_as
from conv.sphinx_ext.util import add_node, BLOCK, ANCHOR_RE, builder_of, setup_builder_event, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.walk import blocks
from conv.sphinx_ext.text.glosses import _ESCAPE
from conv.sphinx_ext.nodes import yl_app, yl_appmark, yl_chaptertitle, yl_emend, yl_passage, yl_text, yl_title
from conv.myst.backmatter.locator import KIND_NAMES
from conv.sphinx_ext.refs.ednotes import write_only
from conv.sphinx_ext.text.segments import placed_already

#: What each kind of entry is, for tooltips: the converter's names of its kinds (the 校勘记's own,
#: ``conv.myst.backmatter.locator.KIND_NAMES``), shorter where a tip needs less.
KIND_TITLES = {
    **KIND_NAMES,
    "collation": "对校", "spurious": "衍字", "dropped": "删除", "unencoded": "外字", "witness-join": "底本转换",
    "reading": "今古文异文", "unparsed": "今古文（未能解析）", "parallel": "句读本与通解本",
}


def setup_apparatus(app: Sphinx) -> None:
    add_node(
        app,
        yl_app,
        html=(visit_app_html, depart_app_html),
        latex=(visit_app_latex, depart_app_latex),
        text=(visit_app_text, depart_app_text),
        other=BLOCK,
    )
    add_node(
        app,
        yl_appmark,
        html=(visit_mark_html, None),
        latex=(visit_mark_latex, None),
        text=(visit_mark_text, None),
        other=(skip, None),
    )
    app.add_directive_to_domain("yl", "app", AppDirective)
    app.add_role_to_domain("yl", "witness", WitnessRole())
    app.add_env_collector(ApparatusCollector)
    app.connect("build-finished", write_maintainers_listing)
    app.add_post_transform(ApparatusMarks)
    setup_builder_event(app)  # ApparatusMarks keeps its marks on the builder
    app.connect("env-updated", rewrite_marked_pages)


class AppDirective(SphinxDirective):
    """``yl:app ENTRY-ID``: see the module docstring."""

    required_arguments = 1
    has_content = True
    option_spec = {
        "label": directives.unchanged_required,
        "kind": directives.unchanged_required,
        "locus": directives.unchanged,
        "locus-text": directives.unchanged,
        "source": directives.unchanged,
        "keep": directives.unchanged,
        "read-as": read_as,  # 閒间: as its passage reads them (text.passage)
        "reason": directives.unchanged,
        "collation": directives.unchanged,  # a collation entry's record, JSON (for maintainers)
    }

    def run(self) -> list[nodes.Node]:
        entry_id = self.arguments[0]
        kind = self.options.get("kind", "")
        label = self.options.get("label", entry_id)
        locus = self.options.get("locus", "")
        node = yl_app(label=label, kind=kind, locus=locus, source=self.options.get("source", ""),
                      reason=self.options.get("reason", ""), collation=self.options.get("collation", ""), classes=["yl-app", f"yl-app-{kind}" if kind else "yl-app-other"])
        self.set_source_info(node)
        document = self.state.document
        if not ANCHOR_RE.match(entry_id):
            warn(f"yl:app {entry_id!r}: not a valid id (letters, digits, - _ .)", YlWarning.ANCHOR,
                 self.get_location())
        elif entry_id in document.ids:
            warn(f"yl:app {entry_id!r}: duplicate id on this page", YlWarning.ANCHOR, self.get_location())
        else:
            node["ids"].append(entry_id)
            document.ids[entry_id] = node
            cited = (self.options.get("locus-text") or "") + label  # 乡射礼18校1: citable with yl:cite
            self.env.get_domain("yl").note_entry(entry_id, self.env.docname, cited, locus, self.get_location())
        if locus:
            text = self.options.get("locus-text") or locus
            xref = addnodes.pending_xref(
                "", nodes.inline(text, text, classes=["xref", "yl", "yl-cite"]),
                refdomain="yl", reftype="cite", reftarget=locus, refexplicit=True, refwarn=True,
                refdoc=self.env.docname)
            self.set_source_info(xref)
            node += nodes.inline("", "", xref, classes=["yl-app-locus"])
            node += nodes.Text("\u3000")
        body = nodes.inline("", "", classes=["yl-app-body"])
        text = " ".join(line.strip() for line in self.content if line.strip())
        if text:
            parsed, messages = self.state.inline_text(text, self.content_offset + 1)
            body.extend(wrap_chars(list(parsed), self.get_location()))
            keep_forms(body, self.options.get("keep", ""), reads=self.options.get("read-as", {}))
            node += body
            node.extend(messages)
        summary = body.astext()
        summary = summary if len(summary) <= 60 else summary[:60] + "…"
        name = KIND_TITLES.get(kind, KIND_TITLES["unknown"])  # 张尔岐's notes name their list themselves
        node["summary"] = f"{label}　{summary}" if summary.startswith(name) else f"{label}　{name}：{summary}"
        return [node]


class WitnessRole(SphinxRole):
    """``{yl:witness}`text```: witness text with its characters folded as on the chapter pages."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        text = _ESCAPE.sub(r"\1", self.text)
        node = nodes.inline(self.rawtext, "", classes=["yl-witness"])
        self.set_source_info(node)
        node.extend(wrap_chars([nodes.Text(text)], self.get_location()))
        return [node], []


# -- collecting the entries -------------------------------------------------------------------

def _entries(env: BuildEnvironment) -> dict[str, list[tuple[str, str, str, str, str]]]:
    """docname → its entries ``(id, label, kind, locus, summary)`` in page order."""
    if not hasattr(env, "yl_apparatus"):
        env.yl_apparatus = {}
    return env.yl_apparatus


def _collation(env: BuildEnvironment) -> dict[str, list[tuple[str, str, str]]]:
    """docname → ``(id, label, record as JSON)`` of its collation entries (the maintainers'
    listing of the collation)."""
    if not hasattr(env, "yl_apparatus_collation"):
        env.yl_apparatus_collation = {}
    return env.yl_apparatus_collation


def _sources(env: BuildEnvironment) -> dict[str, list[tuple[str, str, str, str, str, str]]]:
    """docname → ``(id, label, kind, locus, seed:line:col, reason)`` of its entries: what the
    maintainers' listing holds and the reader's page does not show."""
    if not hasattr(env, "yl_apparatus_sources"):
        env.yl_apparatus_sources = {}
    return env.yl_apparatus_sources


class ApparatusCollector(EnvironmentCollector):
    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _entries(env).pop(docname, None)
        _sources(env).pop(docname, None)
        _collation(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: set[str],
                    other: BuildEnvironment) -> None:
        for mine, theirs in ((_entries(env), _entries(other)), (_sources(env), _sources(other)),
                             (_collation(env), _collation(other))):
            for docname in docnames:
                if docname in theirs:
                    mine[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        entries = [n for n in doctree.findall(yl_app) if n["ids"]]
        found = [(n["ids"][0], n["label"], n["kind"], n["locus"], n["summary"])
                 for n in entries if n.get("locus")]
        if found:
            _entries(app.env)[app.env.docname] = found
        sources = [(n["ids"][0], n["label"], n["kind"], n.get("locus", ""), n.get("source", ""),
                    n.get("reason", "")) for n in entries if n.get("source") or n.get("reason")]
        if sources:
            _sources(app.env)[app.env.docname] = sources
        collated = [(n["ids"][0], n["label"], n["collation"]) for n in entries if n.get("collation")]
        if collated:
            _collation(app.env)[app.env.docname] = collated


#: The maintainers' listing of the apparatus, under the HTML output (linked from no page).
MAINTAINERS_LISTING = "_maintainers/apparatus.tsv"


def write_maintainers_listing(app: Sphinx, exception: Exception | None) -> None:
    """Every apparatus entry with the seed's ``file:line:col`` and the data file's own reason
    (``build/html/_maintainers/apparatus.tsv``, tab-separated, one entry a line): the reader's
    pages cite the passage and say what was done in Chinese; a maintainer finds the place in the
    seed and the reviewed reason here (and in ``python -m conv dump --json``)."""
    if exception is not None or app.builder.format != "html":
        return
    sources = _sources(app.env)
    lines = ["page\tentry\tlabel\tkind\tlocus\tsource\treason"]
    for docname in sorted(sources):
        for row in sources[docname]:
            lines.append("\t".join([docname, *(" ".join(str(c).split()) for c in row)]))
    target = Path(app.builder.outdir) / MAINTAINERS_LISTING
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, "\n".join(lines) + "\n")
    write_collation_listing(app)


#: The maintainers' listing of the collation with the 文渊阁 witness, beside ``MAINTAINERS_LISTING``.
COLLATION_LISTING = "_maintainers/collation.tsv"
COLLATION_COLUMNS = ("class", "op", "seed", "witness", "page", "seed_text", "witness_text", "emended", "note")


def write_collation_listing(app: Sphinx) -> None:
    """Every collation entry of the 校勘记 (``build/html/_maintainers/collation.tsv``): its page,
    id and label, its English class and operation, the seed's and the witness's ``file:start-end``
    offsets, the 文渊阁 page, both texts (a character Unicode lacks as its entity), whether the
    reading text was emended, the aligner's note. Orthographic forms and confirmed code points are
    in ``python -m conv dump --json`` only (they are no entries)."""
    rows = ["\t".join(("page", "entry", "label") + COLLATION_COLUMNS)]
    collation = _collation(app.env)
    for docname in sorted(collation):
        for entry_id, label, record in collation[docname]:
            try:
                values = json.loads(record)
            except ValueError:
                values = {}
            cells = [str(values.get(column, "")) for column in COLLATION_COLUMNS]
            rows.append("\t".join(" ".join(cell.split()) for cell in [docname, entry_id, label, *cells]))
    write_atomically(Path(app.builder.outdir) / COLLATION_LISTING, "\n".join(rows) + "\n")


def marks_by_locus(env: BuildEnvironment) -> dict[str, list[tuple[str, str, str, str]]]:
    """locus anchor → ``(docname, entry id, label, tooltip)`` of every entry that names it."""
    marks: dict[str, list[tuple[str, str, str, str]]] = {}
    entries = _entries(env)
    for docname in sorted(entries):
        for entry_id, label, _kind, locus, summary in entries[docname]:
            marks.setdefault(locus, []).append((docname, entry_id, label, summary))
    return marks


def rewrite_marked_pages(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """When the apparatus changed, pages with passages get their marks again (rewritten)."""

    # a digest, not the marks themselves: the environment is pickled (and loaded) every build
    signature = hashlib.sha256(repr(sorted(marks_by_locus(env).items())).encode("utf-8")).hexdigest()
    previous = getattr(env, "yl_apparatus_signature", None)
    env.yl_apparatus_signature = signature
    if previous is None or previous == signature:
        return []
    domain = env.get_domain("yl")
    return write_only(app.builder, {e["docname"] for e in [*domain.passages.values(), *domain.sections.values()]})


# -- marks in the text ------------------------------------------------------------------------

class ApparatusMarks(SphinxPostTransform):
    """Put each locus's marks after its words (see the module docstring)."""

    default_priority = 20

    def run(self, **kwargs) -> None:
        marks, pages = self.marks()
        if not marks:
            return
        for emend in self.document.findall(yl_emend):  # each emendation links to its entry
            emend["refdoc"] = pages.get(emend["entry"], "")
        for node in list(blocks(self.document, (yl_passage, yl_title, yl_chaptertitle))):
            if isinstance(node, yl_passage):
                anchors = [node.get("anchor")] if node.get("anchor") else list(node["ids"][:1])
            elif isinstance(node, yl_title):
                anchors = [node.get("section")]
            else:
                anchors = [_section_id(node)]
            found = [mark for anchor in anchors if anchor for mark in marks.get(anchor, [])]
            if not found:
                continue
            mark = yl_appmark(marks=found)
            words = next((c for c in node.children if isinstance(c, yl_text)), None)
            if words is not None:  # right after the words (the words stay text only)
                node.insert(node.index(words) + 1, mark)
            elif node.children and isinstance(node[0], nodes.TextElement):
                node[0].insert(0, mark)  # no words: at the start of the first note, inside its 【】
            else:
                node += mark

    def marks(self) -> tuple[dict[str, list[tuple[str, str, str, str]]], dict[str, str]]:
        """:func:`marks_by_locus` and each entry's page, worked out once per build and process
        (on the builder: the environment no longer changes while pages are written)."""
        builder = builder_of(self.env)
        found = getattr(builder, "yl_apparatus_marks", None)
        if found is None:
            marks = marks_by_locus(self.env)
            pages = {entry_id: docname for found in marks.values() for docname, entry_id, _, _ in found}
            found = builder.yl_apparatus_marks = (marks, pages)
        return found


def _section_id(node: nodes.Node) -> str:
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.section):
        parent = parent.parent
    return parent["ids"][0] if parent is not None and parent["ids"] else ""


# -- visitors ---------------------------------------------------------------------------------

def skip(self, node: nodes.Node) -> None:
    raise nodes.SkipNode


def visit_app_html(self, node: yl_app) -> None:
    attributes = {"data-kind": node["kind"]}
    if node.get("locus"):
        attributes["data-locus"] = node["locus"]
    self.body.append(self.starttag(node, "div", "", **attributes))
    self.body.append(f'<span class="yl-app-label">{self.encode(node["label"])}</span>')


def depart_app_html(self, node: yl_app) -> None:
    # the seed's file:line:col and the data file's reason are for maintainers (MAINTAINERS_LISTING)
    self.body.append("</div>\n")


def visit_app_latex(self, node: yl_app) -> None:
    target = self.hypertarget(node["ids"][0], anchor=True) if node["ids"] else ""
    self.body.append("\n\\par\\noindent\\hangindent=2em\\hangafter=1 %s\\textbf{%s}\\quad "
                     % (target, self.encode(node["label"])))


def depart_app_latex(self, node: yl_app) -> None:
    # as in HTML: the seed's file:line:col is for maintainers (MAINTAINERS_LISTING), not the book
    self.body.append("\\par\n")


def visit_app_text(self, node: yl_app) -> None:
    self.new_state(0)
    self.add_text(node["label"] + " ")


def depart_app_text(self, node: yl_app) -> None:
    # as in HTML and LaTeX: the entry's text names the witness and its page; the seed's
    # file:line:col is for maintainers (MAINTAINERS_LISTING)
    self.end_state()


def visit_mark_html(self, node: yl_appmark) -> None:
    if placed_already(self, node):  # written before its note (outside it: never hidden with it)
        raise nodes.SkipNode
    links = []
    current = getattr(self.builder, "current_docname", "")
    for docname, entry_id, label, title in node["marks"]:
        uri = self.builder.get_relative_uri(current, docname) + "#" + entry_id
        # the entry as the title: a tooltip without script; static/gloss-tip.js shows it in its tip
        links.append(f'<a href="{self.attval(uri)}" title="{self.attval(title)}">'
                     f"{self.encode(label)}</a>")
    self.body.append('<sup class="yl-appmark no-search">' + "<span>,</span>".join(links) + "</sup>")
    raise nodes.SkipNode


def visit_mark_latex(self, node: yl_appmark) -> None:
    links = [r"\hyperref[%s]{%s}" % (self.idescape(f"{docname}:{entry_id}"), self.encode(label))
             for docname, entry_id, label, _ in node["marks"]]
    # each mark its own superscript, a line may break after its comma (a passage with 17 marks)
    marks = [link + ("," if number < len(links) else "") for number, link in enumerate(links, 1)]
    self.body.append(r"\allowbreak".join(r"\textsuperscript{%s}" % mark for mark in marks))
    raise nodes.SkipNode


def visit_mark_text(self, node: yl_appmark) -> None:
    self.add_text("[" + ",".join(label for _, _, label, _ in node["marks"]) + "]")
    raise nodes.SkipNode
