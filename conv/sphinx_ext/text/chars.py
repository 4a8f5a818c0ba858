"""Diplomatic and normalized text (底本字形与规范字形): one node per character that folds.

The witness keeps its own forms (賔, 説, PUA code points); the reading text folds them with
``conv.normalize.fold_char``. Every character whose reading form differs is wrapped in a
``yl_char`` node carrying both forms, so one doctree serves both views:

- HTML shows the witness form by default and the reading form when the reader switches to the
  normalized view (the class ``yl-normalized`` on ``<html>``, set by ``yili.js``). A PUA code point
  is never written to HTML: its diplomatic form is the resolved character with a visible mark
  and a tooltip (``U+EB8E 缺笔 → 弦``); a spurious one shows a small 衍 mark; an unknown one
  shows 〓 and the build warns (``yl.pua``). A character Unicode lacks (``conv.unencoded``: the
  文渊阁 transcription's gaiji ``&KR0871;``, and U+E14B, which stands for it) is 〓 in both forms,
  its entity in the tooltip; ``stand_in`` is its stand-in, whose entity search finds
  (``conv.sphinx_ext.search.language.witness_terms``).
- LaTeX and text print the reading form by default (``yl_print_form = "normalized"``) or the
  witness form with PUA resolved (``yl_print_form = "diplomatic"``).
- ``astext()`` is the reading form (search, domain titles, table of contents).
"""
from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from conv import datafiles as data
from conv import unencoded
from conv.normalize import PUA_PATTERN, fold_char, is_pua

from conv.sphinx_ext.util import add_node, depart_noop, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.nodes import yl_char, yl_emend, yl_trad

PUA_KIND_LABELS = {"quebi": "缺笔", "variant": "异体", "spurious": "衍字", "unknown": "未识"}
UNKNOWN_MARK = "〓"  # U+3013 geta mark: the conventional sign for a character that cannot be shown
SPURIOUS_MARK = "衍"


def setup_chars(app: Sphinx) -> None:
    app.add_config_value("yl_print_form", "normalized", "env", types=[str])
    add_node(
        app,
        yl_char,
        html=(visit_char_html, None),
        latex=(visit_char_print, depart_noop),
        text=(visit_char_print, depart_noop),
        other=(visit_char_print, depart_noop),
    )


def char_node(char: str) -> yl_char | None:
    """A ``yl_char`` for ``char`` when its reading form differs, else ``None``."""
    if unencoded.is_stand_in(char):
        entity = unencoded.markup(char)
        return yl_char("", UNKNOWN_MARK, witness=char, normal=UNKNOWN_MARK, resolved=UNKNOWN_MARK,
                       kind="unencoded", code=entity, stand_in=char, title=f"{entity} 此字 Unicode 未收（汉籍リポジトリ外字编号）")
    if is_pua(char):
        entry = data.pua().get(char)
        code = f"U+{ord(char):04X}"
        if entry is None:
            kind, normal, resolved = "unknown", UNKNOWN_MARK, UNKNOWN_MARK
            title = f"{code} 未识私用区字，待校"
        elif unencoded.is_stand_in(entry["char"]):  # an unidentified character (未识字)
            entity = unencoded.markup(entry["char"])
            return yl_char("", UNKNOWN_MARK, witness=char, normal=UNKNOWN_MARK, resolved=UNKNOWN_MARK,
                           kind="unencoded", code=code, stand_in=entry["char"], title=f"{code} 未识字：文渊阁本作 {entity}（Unicode 未收）")
        else:
            kind, normal = entry["kind"], entry["char"]
            resolved = normal
            label = PUA_KIND_LABELS.get(kind, kind)
            arrow = f"→ {normal}" if normal else "删"
            title = f"{code} {label} {arrow}\n{entry.get('reason', '')}".strip()
        node = yl_char("", normal, witness=char, normal=normal, resolved=resolved,
                       kind=f"pua-{kind}", code=code, title=title)
        return node
    normal = fold_char(char)
    if normal == char:
        return None
    return yl_char("", normal, witness=char, normal=normal, resolved=char, kind="variant",
                   title=f"{char} → {normal}")


def keep_forms(node: nodes.Element, keep: str) -> None:
    """Show the characters of ``keep`` as printed in both views inside ``node``: each ``yl_char``
    of a variant form in ``keep`` becomes plain text (what 郑注 distinguishes in a passage, 竝 in
    竝并也: ``conv.analyses.distinctions``). Search still folds it (``conv.normalize.fold``). A PUA
    code point is never kept."""
    if not keep:
        return
    for char in list(node.findall(yl_char)):
        if char["kind"] == "variant" and char["witness"] in keep:
            char.parent.replace(char, nodes.Text(char["witness"]))


def wrap_chars(children: list[nodes.Node], location: object = None) -> list[nodes.Node]:
    """Split the Text nodes of ``children`` (recursively) so each folding character is a
    ``yl_char``. Returns the new list; element children are rewritten in place."""
    result: list[nodes.Node] = []
    for child in children:
        if isinstance(child, nodes.Text):
            result.extend(_split_text(str(child), location))
        elif isinstance(child, (yl_char, yl_emend, yl_trad, nodes.FixedTextElement, nodes.literal, nodes.raw)):
            result.append(child)
        elif isinstance(child, nodes.Element):
            new = wrap_chars(list(child.children), location)
            child.children = []
            child.extend(new)
            result.append(child)
        else:
            result.append(child)
    return result


def private_chars(text: str) -> list[nodes.Node]:
    """``text`` (the converter's or a title's words) with only its private-use code points as
    ``yl_char`` nodes (a locus ``有司彻·X`` quoting a character Unicode lacks); nothing else folds."""
    if not PUA_PATTERN.search(text):
        return [nodes.Text(text)]
    out: list[nodes.Node] = []
    start = 0
    for found in PUA_PATTERN.finditer(text):
        if found.start() > start:
            out.append(nodes.Text(text[start:found.start()]))
        out.append(char_node(found.group()))
        start = found.end()
    if start < len(text):
        out.append(nodes.Text(text[start:]))
    return out


def private_text(text: str) -> str:
    """``text`` with each private-use code point in its reading form (〓 for a character Unicode
    lacks): for an attribute (a tooltip), where no ``yl_char`` can stand."""
    if not PUA_PATTERN.search(text):
        return text
    return PUA_PATTERN.sub(lambda found: char_node(found.group())["normal"] or UNKNOWN_MARK, text)


class _Folding(dict):
    """A ``str.translate`` table keeping only the characters ``char_node`` wraps (a PUA code
    point, or one whose reading form differs), each computed once: ``text.translate(_FOLDING)``
    is empty for a text with none (most runs of text)."""

    def __missing__(self, code: int) -> int | None:
        char = chr(code)
        kept = code if is_pua(char) or fold_char(char) != char else None
        self[code] = kept
        return kept


_FOLDING = _Folding()


def _split_text(text: str, location: object) -> list[nodes.Node]:
    folding = set(text.translate(_FOLDING))
    if not folding:
        return [nodes.Text(text)] if text else []
    out: list[nodes.Node] = []
    run: list[str] = []
    for char in text:
        if char not in folding:
            run.append(char)
            continue
        node = char_node(char)
        if node["kind"] == "pua-unknown":
            warn(f"unknown private-use code point {node['code']} (not in conv/data/pua.toml); "
                 f"shown as {UNKNOWN_MARK}", YlWarning.PUA, location)
        if run:
            out.append(nodes.Text("".join(run)))
            run = []
        out.append(node)
    if run:
        out.append(nodes.Text("".join(run)))
    return out


def visit_char_html(self, node: yl_char) -> None:
    kind = node["kind"]
    classes = ["yl-char", f"yl-char-{kind}"]
    if kind.startswith("pua-"):
        classes.append("yl-pua")
    attributes = {"title": node["title"]}
    if node.get("code"):
        attributes["data-code"] = node["code"]
    trad = node.get("trad", "")
    if trad:  # the 文渊阁 form (繁体 view: conv.sphinx_ext.text.witness_forms)
        classes.append("yl-char-t")
    self.body.append(self.starttag(node, "span", "", CLASS=" ".join(classes), **attributes))
    if kind == "pua-spurious":
        shown = f'<span class="yl-w yl-mark">{SPURIOUS_MARK}</span>'
    else:
        shown = f'<span class="yl-w">{self.encode(node["resolved"])}</span>'
    trad = f'<span class="yl-t">{self.encode(trad)}</span>' if trad else ""
    self.body.append(shown + f'<span class="yl-n">{self.encode(node["normal"])}</span>{trad}</span>')
    raise nodes.SkipNode


def visit_char_print(self, node: yl_char) -> None:
    """LaTeX, text, man, texinfo: the reading form, or the resolved witness form (〓 for a
    character Unicode lacks, in both)."""
    if self.config.yl_print_form == "diplomatic" and node["resolved"] != node["normal"]:
        node = node.deepcopy()
        node.children = [nodes.Text(node["resolved"])] if node["resolved"] else []
        for child in node.children:
            child.walkabout(self)
        raise nodes.SkipNode
    # the child Text node (the reading form) is visited by the translator as usual
    if not node.children:
        raise nodes.SkipNode
