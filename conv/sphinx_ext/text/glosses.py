"""音义 glosses (音义): the role ``{yl:gloss}`弛尸纸反```.

The role's content is one gloss as printed (``苦穴反 [闋]``: one that prints no character glosses the
one right before its note, given in brackets; ``个音干 <个音幹>``: the 文渊阁 forms after). It is parsed with ``conv.parser.glosses.parse_run`` (char,
kind ``fanqie``/``zhiyin``/``ruzi``/``other``, upper and lower characters of a 反切 or the sound of
a 直音, second reading, context, scope, definition) and given its computed 广韵 position and
its status with ``conv.parser.phonology.reading(gloss)``.
The node's text is the gloss as printed (with ``yl_forms`` runs and ``yl_char`` nodes); the parsed
fields are attributes, written in HTML as ``data-*`` attributes with the position in words
(``data-words``: ``肿韵 · 见母 · 上声``, ``gloss_words``) and the link to the gloss's row in the
音义索引 (``data-entry``, the row id of :func:`entry_id`). ``static/gloss-tip.js`` shows them in one
tip that opens on hover, focus and tap (a popover: Escape or a tap elsewhere closes it) and stays
inside the window; without JavaScript, focus or hover shows ``data-tip`` (yili.css).

Role content in MyST is literal, like a code span; for symmetry with the escaped directive
bodies, a backslash before an ASCII punctuation character is taken as an escape.
"""
from __future__ import annotations

import functools
import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxRole

from conv.normalize import PUA_PATTERN, is_pua

from conv.sphinx_ext.util import add_node, depart_noop, visit_noop, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.nodes import yl_gloss, yl_passage, yl_title
from conv.sphinx_ext.text.gloss_words import position_words
from conv.parser import menfa, phonology
from conv.parser.guangyun_forms import filed_under
from conv.parser import gloss_remarks
from conv.parser.glosses import parse_run
from conv.sphinx_ext.text.chars import char_node, wrap_chars
from conv.sphinx_ext.text.gloss_rows import entry_id, rows_found, setup_gloss_rows

FIELDS = ("char", "kind", "upper", "lower", "sound", "context", "scope", "definition",
          "second", "position", "status", "why", "rule", "filed", "tone", "also", "also_position", "restored", "before")
_RESTORED = re.compile(r"(?s)(.+?) <([^<>]+)>")
#: ``苦穴反 [闋]``: a gloss that prints no character; it glosses the one right before its note.
_BEFORE = re.compile(r"(?s)(.+?) \[(.)\]")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def setup_glosses(app: Sphinx) -> None:
    add_node(
        app,
        yl_gloss,
        html=(visit_gloss_html, depart_gloss_html),
        latex=(visit_noop, depart_noop),
        text=(visit_noop, depart_noop),
    )
    app.add_role_to_domain("yl", "gloss", GlossRole())
    app.add_transform(SecondReadings)
    setup_gloss_rows(app)


class GlossRole(SphinxRole):
    """``{yl:gloss}`弛尸纸反```; ``{yl:gloss}`个音干 <个音幹>```: the printed gloss, then the gloss
    with the 文渊阁 forms of characters the simplified transcription merged, which the 广韵
    position is computed from (``conv/data/restorations.toml``)."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        text = _ESCAPE.sub(r"\1", self.text)
        location = self.get_location()
        before = _BEFORE.fullmatch(text)
        char = ""
        if before:
            text, char = before.groups()
        restored = _RESTORED.fullmatch(text)
        fields = parse_gloss(char + (restored.group(2) if restored else text), location)
        if restored:
            text = restored.group(1)
            fields.update(restored=restored.group(2))
        if char:
            fields.update(before="1")
        fields.update(printed=text)
        node = yl_gloss(self.rawtext, "", classes=["yl-gloss"], **fields)
        self.set_source_info(node)
        node.extend(wrap_chars([nodes.Text(text)], location))
        return [node], []


def parse_gloss(text: str, location: object = None, previous: str = "") -> dict[str, str]:
    """The parsed fields of one gloss.

    ``previous`` is the gloss printed just before (for a second reading ``又…反``). A role that
    holds other than one gloss (and its second readings) is warned about at ``location``, each
    time it occurs.
    """
    fields, found = _parsed(text, previous)
    if found is not None:
        warn(f"yl:gloss {text!r}: conv.parser.glosses finds {found} glosses, expected one "
             "(and its second readings 又…反)", YlWarning.GLOSS, location)
    return dict(fields)


@functools.lru_cache(maxsize=8192)
def _parsed(text: str, previous: str) -> tuple[dict[str, str], int | None]:
    """The fields of ``text`` (after ``previous``), and the number of glosses found when it is
    not one gloss with its second readings (else None). A pure function of the printed text:
    a work prints the same 反切 and 直音 again and again (the whole 仪礼 about ten times each),
    so each is parsed and placed in the 《广韵》 once. Callers get copies (``parse_gloss``)."""

    fields = dict.fromkeys(FIELDS, "")
    fields["printed"] = text
    glosses, _unparsed = parse_run(previous + text)
    if previous:
        glosses = [g for g in glosses if g.start >= len(previous)]
    # one gloss, possibly followed by its second readings (纯之闰反又章允反) or remarks (揃同翦)
    found = None
    if not glosses or not all(gloss_remarks.attached(g) for g in glosses[1:]):
        found = len(glosses)
        if not glosses:
            return fields, found
    gloss = glosses[0]
    for name in FIELDS:
        value = getattr(gloss, name, None)
        if isinstance(value, bool):
            value = "1" if value else ""
        fields[name] = value or ""
    fields.update(_phonology(gloss))
    # the position in words, computed while the page is read (the 《广韵》 is loaded for the
    # position then anyway): a page written again from its pickled doctree needs no tshet-uinh
    fields["words"] = position_words(fields["position"].split(" / ")[0]) if fields["position"] else ""
    seconds = [g for g in glosses[1:] if getattr(g, "second", False)]
    if seconds:
        fields["also"] = " ".join(g.text for g in seconds)
        fields["also_position"] = " ; ".join(_phonology(g).get("position", "") for g in seconds)
    return fields, found


def _phonology(gloss: object) -> dict[str, str]:
    """``position`` (广韵 音韵地位, several joined by ``/``) and ``status`` from conv.parser.phonology; ``why`` no
    position could be found (its note: 如字, 《广韵》未收…, 行去声二读…); the ``rule``, the 门法 a position was
    read by (类隔, 之韵无唇音…: ``conv.parser.menfa``); the form the 《广韵》 ``filed`` that reading under when the
    witness writes the character otherwise (朐 → 胊: ``conv/data/gloss_forms.tsv``); the ``tone`` a gloss gives
    (長上聲: 上)."""
    result = phonology.reading(gloss)
    why = result.note if result.status == phonology.UNRESOLVED and not result.positions else ""
    rule = menfa.rule_for(result.note) if result.positions else None
    char = getattr(gloss, "char", None)
    filed = filed_under(char).get(result.positions[0], "") if char and result.positions else ""
    return {"position": " / ".join(result.positions or []), "status": result.status or "", "why": why,
            "rule": rule.note if rule else "", "filed": filed, "tone": phonology.tone_of(gloss) or ""}


class SecondReadings(SphinxTransform):
    """A second reading ``又章允反`` printed right after ``纯之闰反`` glosses 纯, not 又:
    parse it together with the gloss before it."""

    default_priority = 710

    def apply(self, **kwargs) -> None:
        for node in list(self.document.findall(yl_gloss)):
            printed = node.get("printed", "")
            if not printed.startswith("又"):
                continue
            parent = node.parent
            index = parent.index(node)
            if index == 0 or not isinstance(parent[index - 1], yl_gloss):
                continue
            previous = parent[index - 1].get("printed", "")
            fields = parse_gloss(printed, node, previous=previous)
            if fields.get("second"):
                node.attributes.update(fields)


STATUS_LABELS = {"matches": "合于本字之音", "other reading": "他字之音", "system difference": "音系差异",
                 "suspect": "疑讹", "lost character": "录入失字", "unresolved": "未能推定"}


def _shown(text: str) -> str:
    """``text`` with PUA code points resolved (a tooltip never shows one raw)."""
    if PUA_PATTERN.search(text) is None:  # (nearly every text: nothing to resolve)
        return text
    out = []
    for char in text:
        node = char_node(char) if is_pua(char) else None
        out.append(node["resolved"] if node is not None and node["kind"] != "pua-spurious" else
                   ("" if node is not None else char))
    return "".join(out)


def first_position(node: yl_gloss) -> str:
    return node.get("position", "").split(" / ")[0]


def words_of(node: yl_gloss) -> str:
    """The first position in words (``肿韵 · 见母 · 上声``): as the page's reading found them,
    else computed now (a node made without them)."""
    words = node.get("words")
    return words if words is not None else position_words(first_position(node))


def gloss_title(node: yl_gloss) -> str:
    """The tip as text: ``音义：弛尸纸反`` then ``广韵：纸韵 · 书母 · 上声（書開三支上，合于本字之音）``."""
    title = "音义：" + node.get("printed", node.astext())
    if node.get("second") and node.get("char"):
        title += f"（{node['char']}之又音）"
    elif node.get("before") and node.get("char"):
        title += f"（{node['char']}之音，字在注前）"
    if node.get("position"):
        words = words_of(node)
        title += f"\n广韵：{words}（{node['position']}" if words else f"\n广韵：（{node['position']}"
        if node.get("status") in STATUS_LABELS:
            title += f"，{STATUS_LABELS[node['status']]}"
        title += "）"
    elif node.get("why"):  # 行去聲: 未能推定, and why
        title += f"\n广韵：{STATUS_LABELS['unresolved']}（{node['why']}）"
    if node.get("rule"):  # 比毗志反: how a 反切 that spells nothing was read
        title += f"\n门法：{node['rule']}"
    if node.get("filed"):  # 朐其于反: the 《广韵》 writes 胊
        title += f"\n字形：《广韵》收于{node['filed']}"
    if node.get("also_position"):
        title += f"；{node['also']}：{node['also_position']}"
    if node.get("restored"):  # the 文渊阁 form of a merged character (restorations) or the right one of a misprint
        title += f"\n音读据正字：{node['restored']}"
    return _shown(title)


def _anchor_of(node: nodes.Node) -> str:
    """The anchor of the passage, section title or chapter title a gloss stands in (in the copy of
    another passage's words, a counterpart's: that passage's)."""
    parent = node.parent
    while parent is not None:
        if parent.get("copy_of"):
            return parent["copy_of"]
        if isinstance(parent, yl_passage):
            return parent.get("anchor") or (parent["ids"][0] if parent["ids"] else "")
        if isinstance(parent, yl_title):
            return parent.get("section", "")
        if isinstance(parent, nodes.section) and parent["ids"]:
            return parent["ids"][0]  # a chapter title's 郑目录: the chapter
        parent = parent.parent
    return ""


def entry_href(translator, node: yl_gloss) -> str:
    """The link from a gloss to its row in the 音义索引 (``""`` when no page holds that row)."""
    builder = translator.builder
    anchor = _anchor_of(node)
    if not anchor:
        return ""
    printed = node.get("printed", "")
    found = rows_found(builder.env)
    # the 音义索引's row lists the role's first gloss alone or with what follows it (its second
    # readings, remarks: 弟大計反又作悌下孝弟同), as the converter read them: the shortest it lists
    for end in range(1, len(printed) + 1):
        row_id = entry_id(anchor, printed[:end])
        if row_id in found:
            current = getattr(builder, "current_docname", "")
            return builder.get_relative_uri(current, found[row_id]) + "#" + row_id
    return ""


def visit_gloss_html(self, node: yl_gloss) -> None:
    attributes = {f"data-{name.replace('_', '-')}": _shown(node[name])
                  for name in FIELDS if node.get(name)}
    attributes["data-printed"] = _shown(node.get("printed", node.astext()))
    attributes["data-tip"] = gloss_title(node)  # without JavaScript: shown on focus and hover
    if node.get("position"):
        attributes["data-words"] = words_of(node)
    href = entry_href(self, node)
    if href:
        attributes["data-entry"] = href
    # a control: focus or a tap opens its tip (static/gloss-tip.js)
    attributes.update({"tabindex": "0", "role": "button", "aria-haspopup": "dialog",
                       "aria-expanded": "false"})
    self.body.append(self.starttag(node, "span", "", **attributes))


def depart_gloss_html(self, node: yl_gloss) -> None:
    self.body.append("</span>")
