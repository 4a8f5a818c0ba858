"""Diplomatic and normalized text (底本字形与规范字形): one node per run of text that folds.

The witness keeps its own forms (賔, 説, PUA code points); the reading text folds them with
``conv.normalize.fold_char``. A run of text holding characters whose reading form differs is one
``yl_forms`` node (its child the reading form, its ``witness`` the witness's forms); a PUA code
point and a character Unicode lacks keep a ``yl_char`` of their own (code, tooltip). One doctree
serves both views, and holds a few nodes per run, not two per folding character:

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

HTML writes a ``yl_forms`` run as one span holding each of its forms once (``visit_forms_html``:
``<span class="yl-fs" title="禮→礼"><span class="yl-w">曲禮曰</span><span class="yl-n">曲礼曰</span></span>``),
not a span per folding character: the views show the same characters, in a third of the bytes.
"""
from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from conv import datafiles as data
from conv import unencoded
from conv.normalize import PUA_PATTERN, fold_char, is_pua

from conv.sphinx_ext.util import add_node, depart_noop, replace_node, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.nodes import yl_char, yl_emend, yl_forms, yl_trad
from conv.sphinx_ext.text.witness_forms import UNKNOWN_MARK, trad_html

PUA_KIND_LABELS = {"quebi": "缺笔", "variant": "异体", "spurious": "衍字", "unknown": "未识"}
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
    add_node(
        app,
        yl_forms,
        html=(visit_forms_html, None),
        latex=(visit_forms_print, depart_noop),
        text=(visit_forms_print, depart_noop),
        other=(visit_forms_print, depart_noop),
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


def keep_forms(node: nodes.Element, keep: str, places: dict[str, tuple[str, frozenset[int]]] | None = None,
               reads: dict[str, str] | None = None) -> dict[str, int]:
    """Show the characters of ``keep`` as printed in both views inside ``node``: each variant
    form in ``keep`` becomes plain text in its ``yl_forms`` run, without a 繁体 form (what 郑注
    distinguishes in a passage, 竝 in 竝并也: ``conv.analyses.distinctions``). ``reads``: a character
    the normalized view reads in the form of its sense (閒 → 间, where the fold gives 闲). ``places``: a
    character so shown (its own form) or read (another) at some of its occurrences only → that form and
    their ordinals, 1-based, in the order of the runs (a passage's ``keep-at``, a reviewed place:
    ``conv.analyses.senses``). Search still folds them (``conv.normalize.fold``). A PUA code point is
    never kept. Returns how many of each character of ``places`` the runs hold."""
    places, reads = places or {}, reads or {}
    seen = dict.fromkeys(places, 0)
    if not keep and not places and not reads:
        return seen
    for run in list(node.findall(yl_forms)):
        witness, trad, shown = run["witness"], run.get("trad", ""), run.astext()
        forms = []  # the form each character reads in its sense, or None: the fold
        for char in witness:
            if char in seen:
                seen[char] += 1
                form, ordinals = places[char]
                forms.append(form if seen[char] in ordinals else None)
            else:
                forms.append(char if char in keep else reads.get(char))
        reading = "".join(r if f is None else f for r, f in zip(shown, forms))
        if trad:
            trad = "".join(w if f is not None and w != r else t for w, r, t, f in zip(witness, shown, trad, forms))
        if reading == witness and trad in ("", witness):
            replace_node(run, nodes.Text(witness))
            continue
        run.children = []
        run += nodes.Text(reading)
        run["trad"] = "" if trad == witness else trad
    return seen


def wrap_chars(children: list[nodes.Node], location: object = None) -> list[nodes.Node]:
    """Split the Text nodes of ``children`` (recursively) so each folding character is a
    ``yl_char``. Returns the new list; element children are rewritten in place."""
    result: list[nodes.Node] = []
    for child in children:
        if isinstance(child, nodes.Text):
            result.extend(_split_text(str(child), location))
        elif isinstance(child, (yl_char, yl_forms, yl_emend, yl_trad, nodes.FixedTextElement, nodes.literal,
                                nodes.raw)):
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


def _own_node(char: str) -> bool:
    """Does ``char`` need a ``yl_char`` of its own (a PUA code point, a character Unicode lacks,
    or one whose reading form is not one character)?"""
    return is_pua(char) or unencoded.is_stand_in(char) or len(fold_char(char)) != 1


def _split_text(text: str, location: object, quiet: bool = False) -> list[nodes.Node]:
    folding = set(text.translate(_FOLDING))
    if not folding:
        return [nodes.Text(text)] if text else []
    own = {char for char in folding if _own_node(char)}
    out: list[nodes.Node] = []
    start = 0
    for at, char in enumerate(text):
        if char not in own:
            continue
        out.extend(_runs(text[start:at], folding))
        node = char_node(char)
        if node["kind"] == "pua-unknown" and not quiet:
            warn(f"unknown private-use code point {node['code']} (not in conv/data/pua.toml); "
                 f"shown as {UNKNOWN_MARK}", YlWarning.PUA, location)
        out.append(node)
        start = at + 1
    out.extend(_runs(text[start:], folding))
    return out


def _runs(text: str, folding: set[str]) -> list[nodes.Node]:
    """``text`` (no character of its own node) as ``Text`` and ``yl_forms`` runs: a run goes from
    a folding character to the last one not parted from it by a newline (``CJKNewlines`` may drop
    a newline from a ``Text``, never from a run)."""
    out: list[nodes.Node] = []
    last = 0  # the end of the text already placed
    begin = end = -1  # the run being made: text[begin:end]
    for at, char in enumerate(text):
        if char not in folding:
            continue
        if begin >= 0 and "\n" in text[end:at]:
            out.append(_run_node(text[begin:end]))
            last, begin = end, -1
        if begin < 0:
            if at > last:
                out.append(nodes.Text(text[last:at]))
            begin = at
        end = at + 1
    if begin >= 0:
        out.append(_run_node(text[begin:end]))
        last = end
    if last < len(text):
        out.append(nodes.Text(text[last:]))
    return out


def _run_node(run: str) -> yl_forms:
    """A run of text holding folding characters."""
    return yl_forms("", "".join(fold_char(char) for char in run), witness=run, trad="")


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


def forms_title(witness: str, reading: str) -> str:
    """The tooltip of a run: each distinct fold once, in order (``禮→礼 於→于``)."""
    pairs = dict.fromkeys(f"{w}→{r}" for w, r in zip(witness, reading) if w != r)
    return " ".join(pairs)


def visit_forms_html(self, node: yl_forms) -> None:
    """A run as one span holding each of its forms once: the witness's (``yl-w``, the 底本 view),
    the reading form (``yl-n``, 规范) and, where the 文渊阁 copy differs, its forms (``yl-t``,
    繁体); ``yili.css`` shows one per view. Each view's form is one text node (find-in-page and
    search-word highlighting match across the run)."""
    witness, reading, trad = node["witness"], node.astext(), node.get("trad", "")
    if witness == reading:  # every fold kept as printed (keep_forms): only its 文渊阁 forms differ
        self.body.append(trad_html(self, witness, trad))
        raise nodes.SkipNode
    classes = "yl-fs yl-char-t" if trad else "yl-fs"
    out = [f'<span class="{classes}" title="{self.attval(forms_title(witness, reading))}">'
           f'<span class="yl-w">{self.encode(witness)}</span><span class="yl-n">{self.encode(reading)}</span>']
    if trad:
        out.append(f'<span class="yl-t" lang="zh-Hant">{self.encode(trad)}</span>')
    out.append("</span>")
    self.body.append("".join(out))
    raise nodes.SkipNode


def witness_html(self, text: str) -> str:
    """The HTML of witness ``text`` as a passage's is written (its runs, its characters of their
    own), for a writer that renders data directly (``backmatter.tables``): the reader warned."""
    saved, self.body = self.body, []
    try:
        for node in _split_text(text, None, quiet=True):
            if isinstance(node, nodes.Text):
                self.body.append(self.encode(str(node)))
                continue
            try:
                (visit_forms_html if isinstance(node, yl_forms) else visit_char_html)(self, node)
            except nodes.SkipNode:
                pass
        return "".join(self.body)
    finally:
        self.body = saved


def visit_forms_print(self, node: yl_forms) -> None:
    """LaTeX, text, man, texinfo: the reading form (the child), or the witness form."""
    if self.config.yl_print_form == "diplomatic" and node["witness"] != node.astext():
        nodes.Text(node["witness"]).walkabout(self)
        raise nodes.SkipNode
