"""Placing editorial notes (校注排印): heads on notes pages, notes at their passages, visitors."""
from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join
from sphinx.util.nodes import make_refnode

from conv.sphinx_ext.util import builder_of
from conv.sphinx_ext.walk import blocks
from conv.sphinx_ext.nodes import yl_ednote, yl_ednote_ref, yl_passage

from conv.sphinx_ext.refs.ednotes_resolve import label, notes_state
from conv.sphinx_ext.refs.ednotes_directive import RANGE
from conv.sphinx_ext.refs.ednotes_safety import COPY_FLAG


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
        return make_refnode(builder_of(self.env), here, chapter, info["start"], content,
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
        latex = builder_of(self.env).format == "latex"
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
            link = make_refnode(builder_of(self.env), here, info["doc"], info["id"],
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
    target is made absolute first (it was relative to the notes page). They are flagged as a
    copy's: one that does not resolve was reported on the notes page."""
    for xref in body.findall(addnodes.pending_xref):
        if xref.get("reftype") == "doc" and xref.get("refdomain") == "std":
            xref["reftarget"] = "/" + docname_join(xref.get("refdoc", origin), xref["reftarget"])
        xref["refdoc"] = here
        xref[COPY_FLAG] = True  # reported on the notes page, not again here (ednotes_safety)


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
