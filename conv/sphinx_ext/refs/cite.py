"""Citing passages (引用): the ``yl:cite`` role, redirected anchors and ``std`` labels.

- ``` {yl:cite}`judou-xiangshe-12` ``` links to the passage (or section, or chapter) with its
  short citation as the text, ``《句读·乡射礼》司马出于下射之南还其后降…`` (work and chapter,
  then the opening words in the reading text); ``` {yl:cite}`这一段 <judou-xiangshe-12>` ```
  gives the text. A redirected anchor resolves to the passage its citations land on. An unknown
  anchor is a ``yl.cite`` warning at the citing file:line (an error under ``-W``), with the
  anchors it may have meant. Resolution is the ``yl`` domain's (``conv.sphinx_ext.refs.domain``);
  the resolved node is a ``yl_cite`` around the link: HTML ``<span class="yl-cite">``, LaTeX the
  ``\\hyperref`` followed by its page: Sphinx's ``(\\autopageref*{…})`` where ``conf.py`` sets
  ``latex_show_pagerefs`` (the edition does), else ``（第\\pageref{…}页）``.
- ``yl:redirect OLD`` with ``:to: NEW`` (written by ``conv.myst.writer`` on the page of ``NEW`` for
  each redirect of the anchor ledger, see ``conv/anchors.py``): the old anchor becomes a second
  id of the target's node (an HTML id, a LaTeX label), so old links land on the new passage, and
  a domain object with priority -1.
- Every passage anchor and every redirected anchor is also a ``std`` label (sections already
  are, through their MyST labels), so ``` {ref}`judou-xiangshe-12` ``` works, here and through
  intersphinx, with the short citation as its title.

Another Sphinx project can load this module alone (``extensions = ["conv.sphinx_ext.refs.cite",
"sphinx.ext.intersphinx"]``) to get the ``yl`` domain and cite the edition's passages through
``objects.inv``; without it, ``{ref}`` with intersphinx reaches the same anchors.
"""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from conv.sphinx_ext.util import add_node, ANCHOR_RE, depart_noop, visit_noop, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.refs.ednotes_safety import COPY_FLAG
from conv.sphinx_ext.walk import blocks
from conv.sphinx_ext.nodes import yl_cite, yl_diagram, yl_passage, yl_redirect
from conv.sphinx_ext.refs.domain import close_anchors, setup_domain


def setup_cite(app: Sphinx) -> None:
    add_node(
        app,
        yl_cite,
        html=(visit_cite_html, depart_cite_html),
        latex=(visit_noop, depart_cite_latex),
        text=(visit_noop, depart_noop),
    )
    app.add_node(yl_redirect)  # removed while reading; never written
    app.add_directive_to_domain("yl", "redirect", RedirectDirective)
    app.add_transform(CiteTargets)
    app.connect("warn-missing-reference", warn_unknown_anchor)


def setup(app: Sphinx) -> dict:
    """Load the ``yl`` domain and ``yl:cite`` alone (for projects that cite the edition)."""

    if "yl" not in app.registry.domains:
        setup_domain(app)
        setup_cite(app)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}


class RedirectDirective(SphinxDirective):
    """``yl:redirect OLD`` ``:to: NEW``: citations of the old anchor land on ``NEW`` (a passage,
    section or chapter anchor on this page)."""

    required_arguments = 1
    option_spec = {"to": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        old, to = self.arguments[0], self.options.get("to", "")
        for name, anchor in (("anchor", old), (":to:", to)):
            if not ANCHOR_RE.match(anchor):
                warn(f"yl:redirect {old}: {name} {anchor!r} is not a valid anchor", YlWarning.ANCHOR,
                     self.get_location())
                return []
        node = yl_redirect(old=old, to=to)
        self.set_source_info(node)
        return [node]


class CiteTargets(SphinxTransform):
    """Redirected anchors become ids of their target; passages and redirected anchors become
    ``std`` labels (after ``SectionAnchors``, which settles the sections' ids)."""

    default_priority = 810

    def apply(self, **kwargs) -> None:
        domain = self.env.get_domain("yl")
        std = self.env.get_domain("std")
        docname = self.env.docname
        for node in list(self.document.findall(yl_redirect)):
            old, to = node["old"], node["to"]
            target = self.document.ids.get(to)
            if target is None or to not in target["ids"]:
                warn(f"yl:redirect {old}: its target {to!r} is not on this page", YlWarning.ANCHOR, node)
            elif old in self.document.ids:
                warn(f"yl:redirect {old}: {old!r} is already an id on this page", YlWarning.ANCHOR, node)
            else:
                target["ids"].append(old)
                self.document.ids[old] = target
                domain.note_redirect(old, docname, to, location=node)
                self._label(std, old, to, node)
            node.parent.remove(node)
        for passage in blocks(self.document, (yl_passage, yl_diagram)):
            if passage["ids"]:
                self._label(std, passage["ids"][0], passage["ids"][0], passage)

    def _label(self, std, name: str, labelid: str, node: nodes.Element) -> None:
        """``name`` as a ``std`` label of ``labelid`` on this page, titled with its citation."""
        docname = self.env.docname
        other = std.labels.get(name) or std.anonlabels.get(name)
        if other is not None and other[0] != docname:
            warn(f"anchor {name!r} is also a label in {other[0]}", YlWarning.ANCHOR, node)
            return
        found = self.env.get_domain("yl")._target(labelid, name)
        title = found.dispname if found is not None else name
        std.labels[name] = (docname, labelid, title)
        std.anonlabels[name] = (docname, labelid)


def warn_unknown_anchor(app: Sphinx, domain, node: nodes.Element) -> bool | None:
    """``warn-missing-reference``: see ``report_unknown_anchor``."""
    return report_unknown_anchor(domain, node)


def report_unknown_anchor(domain, node: nodes.Element) -> bool | None:
    """``yl:cite`` of an unknown anchor: a ``yl.cite`` warning at the citing file:line naming
    the anchor and the known anchors it may have meant (None: not the ``yl`` domain's)."""
    if domain is None or domain.name != "yl":
        return None
    if node.get(COPY_FLAG):  # a note's copy at its passage: reported on the notes page
        return True

    anchor = node.get("reftarget", "")
    message = f"yl:cite: unknown anchor {anchor!r}: no passage, section, chapter or 校勘记 entry has it"
    near = close_anchors(anchor, domain.anchors())
    if near:
        message += f" (did you mean {', '.join(near)}?)"
    warn(message, YlWarning.CITE, node)
    return True


# -- visitors --------------------------------------------------------------------------------

def visit_cite_html(self, node: yl_cite) -> None:
    self.body.append(self.starttag(node, "span", "", CLASS="yl-cite", **{"data-anchor": node["anchor"]}))


def depart_cite_html(self, node: yl_cite) -> None:
    self.body.append("</span>")


def depart_cite_latex(self, node: yl_cite) -> None:
    """After the link (``\\hyperref``): the page it points to. With ``latex_show_pagerefs`` (the
    edition's ``conf.py``) Sphinx's own ``(\\autopageref*{…})`` after every internal link is it."""
    if self.config.latex_show_pagerefs:
        return
    label = latex_label(self, node)
    if label:
        self.body.append(r"（第\pageref{%s}页）" % self.idescape(label))


def latex_label(translator, node: yl_cite) -> str:
    """The LaTeX label (``docname:anchor``) the cite's reference points to, or ``""``."""
    ref = next(iter(node.findall(nodes.reference)), None)
    if ref is None:
        return ""
    uri = ref.get("refuri", "")
    if not uri and ref.get("refid"):
        return f"{translator.curfilestack[-1]}:{ref['refid']}"
    if uri.startswith("#"):
        return f"{translator.curfilestack[-1]}:{uri[1:]}"
    if uri.startswith("%") and "#" in uri:
        return uri[1:].replace("#", ":", 1)
    return ""
