"""The 文渊阁 witness's forms in the text (校本字形): emendations (据改) and the 繁体 view.

The converter (``conv.myst.chapter``) writes, for a seed collated with the 文渊阁 transcription:

- ``{yl:emend}`防→䙝 <judou-xiangshe-151-jiao-1>```: the seed printed 防 for a character it could not encode,
  the witness has 䙝, and the reading text takes it (the apparatus entry ``judou-xiangshe-151-jiao-1`` says
  so); ``{yl:emend}`→𤣥 <…>```: the seed printed nothing for it. :class:`EmendRole` makes a
  ``yl_emend`` node: the 底本 view shows what the seed printed, marked (a dotted underline; a
  small 脱 where it printed nothing), the 规范 view the reading form, the 繁体 view the witness's
  form; each links to its apparatus entry. LaTeX and text print the reading form; search indexes
  it, and the printed form too (``conv.sphinx_ext.search.language``).
- ``{yl:misprint}`閒→聞 <tongjie-zhongyong-77-jiao-1>```: the same for a misprint of the 文渊阁 text's own words
  (``conv/data/misprints.toml``, ``words = true``), the tip saying 当作; it gives the page no 繁体 view.
- ``:trad:`` on a passage, a section title or a segment: its text in the witness's forms,
  character for character. :func:`apply_trad` gives each run of characters whose form differs a
  ``yl_trad`` node (and each ``yl_char`` or ``yl_forms`` run its ``trad`` forms), shown only in the 繁体 view
  (``html.yl-traditional``, set by the toolbar like the other views). The witness's own passages
  need none: their text is the witness's.
"""
from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxRole

from conv import unencoded
from conv.collate.forms import reading_form
from conv.normalize import is_pua

from conv.sphinx_ext.nodes import yl_char, yl_emend, yl_forms, yl_trad
from conv.sphinx_ext.util import add_node, depart_noop, replace_node, visit_noop, warn
from conv.sphinx_ext.warnings_ import YlWarning

_EMEND = re.compile(r"(?s)([^→]*)→([^→<>\s]+)(?: <([A-Za-z0-9._-]+)>)?")
UNKNOWN_MARK = "〓"  # U+3013 geta mark: the conventional sign for a character that cannot be shown
DROPPED_MARK = "脱"  # the seed printed nothing here


def setup_witness_forms(app: Sphinx) -> None:
    add_node(app, yl_emend, html=(visit_emend_html, None), latex=(visit_noop, depart_noop),
             text=(visit_noop, depart_noop))
    add_node(app, yl_trad, html=(visit_trad_html, None), latex=(visit_noop, depart_noop),
             text=(visit_noop, depart_noop))
    app.add_role_to_domain("yl", "emend", EmendRole())
    app.add_role_to_domain("yl", "misprint", EmendRole(basis="misprint"))


def shown(char: str) -> str:
    """A character as a page shows it: 〓 for one Unicode lacks."""
    return UNKNOWN_MARK if unencoded.is_stand_in(char) else char


def entity(text: str) -> str:
    """The witness's own markup of ``text``: ``&KR0871;`` for a character Unicode lacks."""
    return "".join(unencoded.markup(c) if unencoded.is_stand_in(c) else c for c in text)


class EmendRole(SphinxRole):
    """``{yl:emend}`PRINTED→ADOPTED <ENTRY>```: see the module docstring. ``basis``: ``collation`` (the
    文渊阁 witness has ADOPTED) or ``misprint`` (``{yl:misprint}``: the witness's own misprint of its words)."""

    def __init__(self, basis: str = "collation") -> None:
        super().__init__()
        self.basis = basis

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        match = _EMEND.fullmatch(self.text)
        if match is None:
            warn(f"yl:emend {self.text!r}: expected PRINTED→ADOPTED <ENTRY>", YlWarning.MARKUP, self.get_location())
            return [nodes.Text(self.text)], []
        printed, adopted, entry = match.group(1), match.group(2), match.group(3) or ""
        normal = "".join(shown(c) for c in reading_form(adopted))
        node = yl_emend(self.rawtext, normal, printed=printed, adopted=adopted, normal=normal, entry=entry,
                        refdoc="", basis=self.basis, classes=["yl-char", "yl-emend", "yl-char-t"])
        self.set_source_info(node)
        return [node], []


def emend_title(node: yl_emend) -> str:
    """The tooltip of an emendation, in the 校勘记's words."""
    if node.get("basis") == "misprint":
        return f"底本作“{node['printed']}”，当作“{entity(node['adopted'])}”，今改"
    if not node["printed"]:
        return f"底本无，文渊阁本有“{entity(node['adopted'])}”，据补"
    return f"底本作“{node['printed']}”，文渊阁本作“{entity(node['adopted'])}”，据改"


def visit_emend_html(self, node: yl_emend) -> None:
    printed = node["printed"]
    witness = (self.encode(printed) if printed
               else f'<span class="yl-mark">{DROPPED_MARK}</span>')
    attributes = {"title": emend_title(node), "data-printed": printed, "data-adopted": entity(node["adopted"])}
    tag = "span"
    if node.get("refdoc") and node.get("entry"):
        tag = "a"
        current = getattr(self.builder, "current_docname", "")
        attributes["href"] = self.builder.get_relative_uri(current, node["refdoc"]) + "#" + node["entry"]
    self.body.append(self.starttag(node, tag, "", **attributes))
    self.body.append(f'<span class="yl-w">{witness}</span><span class="yl-n">{self.encode(node["normal"])}</span>'
                     f'<span class="yl-t">{self.encode(shown(node["adopted"]))}</span></{tag}>')
    raise nodes.SkipNode


def trad_html(self, shown: str, trad: str) -> str:
    """The HTML of text ``shown`` whose 文渊阁 forms are ``trad`` (the 繁体 view shows ``yl-t``)."""
    return (f'<span class="yl-s">{self.encode(shown)}</span>'
            f'<span class="yl-t" lang="zh-Hant">{self.encode(trad)}</span>')


def visit_trad_html(self, node: yl_trad) -> None:
    self.body.append(trad_html(self, node.astext(), node["trad"]))
    raise nodes.SkipNode


def _plan(element: nodes.Element, trad: str, plan: list) -> int:
    """Walk ``element`` as :func:`apply_trad` does: ``plan`` gets (node, form) pairs; returns the
    number of characters of ``trad`` used."""
    used = 0
    for child in element.children:
        if isinstance(child, yl_emend):
            used += len(child["printed"])
        elif isinstance(child, yl_char):
            plan.append((child, trad[used:used + 1]))
            used += 1
        elif isinstance(child, yl_forms):
            plan.append((child, trad[used:used + len(child["witness"])]))
            used += len(child["witness"])
        elif isinstance(child, nodes.Text):
            text = str(child)
            plan.append((child, trad[used:used + len(text)]))
            used += len(text)
        elif isinstance(child, nodes.Element):
            used += _plan(child, trad[used:], plan)
    return used


def _runs(text: str, forms: str) -> list[nodes.Node]:
    """``text`` as Text and ``yl_trad`` runs (where ``forms`` differs)."""
    out: list[nodes.Node] = []
    start = 0
    while start < len(text):
        differs = text[start] != forms[start]
        end = start + 1
        while end < len(text) and (text[end] != forms[end]) == differs:
            end += 1
        piece = text[start:end]
        out.append(yl_trad(piece, piece, trad=forms[start:end]) if differs else nodes.Text(piece))
        start = end
    return out


def _length(node: nodes.Node) -> int:
    """How many characters of the text, as printed, ``node`` holds in a plan."""
    if isinstance(node, yl_char):
        return 1
    return len(node["witness"]) if isinstance(node, yl_forms) else len(node)


def _shows(form: str, witness: str) -> bool:
    """Does a folding character show the 文渊阁 form ``form`` in the 繁体 view?"""
    return form != witness and not is_pua(form) and not unencoded.is_stand_in(form)


def apply_trad(element: nodes.Element, trad: str, location: object = None) -> None:
    """Give the text of ``element`` its 文渊阁 forms ``trad`` (one per character of its text, as
    printed: an emendation counts its printed characters). A ``trad`` that does not fit the text
    is reported (``yl.markup``) and left out."""
    if not trad:
        return
    plan: list = []
    used = _plan(element, trad, plan)
    if used != len(trad) or any(len(form) != _length(node) for node, form in plan):
        warn(f"the 文渊阁 forms (:trad:) have {len(trad)} characters, the text {used}: left out "
             "(convert the seeds again)", YlWarning.MARKUP, location)
        return
    for node, form in plan:
        if isinstance(node, yl_char):
            if _shows(form, node["witness"]):
                node["trad"] = form
        elif isinstance(node, yl_forms):
            # a folding character shows its form as a yl_char does; a plain one as a yl_trad
            forms = "".join(f if w == r or _shows(f, w) else w
                            for w, r, f in zip(node["witness"], node.astext(), form))
            node["trad"] = "" if forms == node["witness"] else forms
        elif form != str(node):
            replace_node(node, _runs(str(node), form))
