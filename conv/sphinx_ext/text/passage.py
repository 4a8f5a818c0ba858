"""The passage (经文段落): a stretch of 经 or 记 with its notes, the unit a reader cites.

``yl:passage ANCHOR`` with options ``layer`` (``jing``/``ji``), ``source`` (``seed:line:col``),
``lacuna`` (``start``: the witness is cut off before it), ``on-marker`` (a passage without words
whose notes are on the 记 mark printed before it, ``記``: nothing is lost, so no 〔记文阙〕) and
``keep`` (characters both views show as printed in this passage: what 郑注 distinguishes,
``chars.keep_forms``), ``read-as`` (a character the normalized view reads in the form of its sense,
in pairs: ``閒间``) and ``keep-at`` (a character shown as printed, or read ``閒=间``, at some of its
occurrences only, ``徵2,4,5/5``: the ordinals and how many the passage holds). Its body is the 经/记
words (one paragraph, possibly absent) followed by segment directives (``yl:zhu`` …, see
``segments``). The segments stay inline after the words they explain, as in the printed book.
"""
from __future__ import annotations

import re

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from conv.sphinx_ext.text.body import LineDirective
from conv.sphinx_ext.util import (
    BLOCK,
    add_node,
    ANCHOR_RE,
    LACUNA_LABELS,
    LACUNA_TITLES,
    SEGMENT_LAYERS,
    TEXT_LAYERS,
    depart_noop,
    opening_words,
    visit_noop,
    warn,
)
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.nodes import yl_lacuna, yl_segment, yl_passage, yl_text
from conv.sphinx_ext.text.chars import keep_forms
from conv.sphinx_ext.text.permalink import permalink_html


PAGE_TITLE = "文渊阁《四库全书》本页次（卷、叶、面）"


def setup_passage(app: Sphinx) -> None:
    # the fast path of the generated bodies (conv/sphinx_ext/body.py); off: MyST parses them all
    app.add_config_value("yl_fast_parse", True, "env", types=[bool])
    add_node(
        app,
        yl_passage,
        html=(visit_passage_html, depart_passage_html),
        latex=(visit_passage_latex, depart_passage_latex),
        text=(visit_passage_text, depart_passage_text),
        other=BLOCK,
    )
    add_node(
        app,
        yl_text,
        html=(visit_text_html, depart_text_html),
        latex=(visit_text_latex, depart_text_latex),
        text=(visit_noop, depart_noop),
    )
    app.add_directive_to_domain("yl", "passage", PassageDirective)


KEEP_AT = re.compile(r"(\S)(?:=(\S))?(\d+(?:,\d+)*)/(\d+)")


def keep_places(argument: str) -> dict[str, tuple[str, frozenset[int], int]]:
    """``徵2,4,5/5 閒=间2/3`` → ``{"徵": ("徵", frozenset({2, 4, 5}), 5), "閒": ("间", frozenset({2}), 3)}``."""
    places = {}
    for token in (argument or "").split():
        found = KEEP_AT.fullmatch(token)
        if not found:
            raise ValueError(f"{token!r} is not a character, its ordinals and their count (徵2,4,5/5)")
        char = found.group(1)
        places[char] = (found.group(2) or char, frozenset(map(int, found.group(3).split(","))), int(found.group(4)))
    return places


def read_as(argument: str) -> dict[str, str]:
    """``閒间`` (pairs: a character, the form it reads) → ``{"閒": "间"}``."""
    pairs = "".join((argument or "").split())
    if len(pairs) % 2:
        raise ValueError(f"{argument!r} is not pairs of a character and the form it reads (閒间)")
    return dict(zip(pairs[::2], pairs[1::2]))


class PassageDirective(LineDirective):
    """``yl:passage ANCHOR``: see the module docstring and ``yl_passage``."""

    required_arguments = 1
    final_argument_whitespace = False
    option_spec = {
        "layer": lambda arg: directives.choice(arg, tuple(TEXT_LAYERS)),
        "source": directives.unchanged_required,
        "lacuna": lambda arg: directives.choice(arg, ("start", "end")),
        "on-marker": directives.unchanged,  # no words: its notes are on the 记 mark before it (記)
        "keep": directives.unchanged,
        "keep-at": keep_places,
        "read-as": read_as,
        "page": directives.unchanged,  # the 文渊阁 page where it starts: 卷五叶十五b
        "trad": directives.unchanged,  # its words in the 文渊阁 forms (text/witness_forms.py)
    }

    def run(self) -> list[nodes.Node]:
        anchor = self.arguments[0]
        layer = self.options.get("layer", "jing")
        node = yl_passage(
            anchor=anchor,
            layer=layer,
            source=self.options.get("source", ""),
            lacuna=self.options.get("lacuna", ""),
            on_marker=self.options.get("on-marker", ""),
            page=self.options.get("page", ""),
            classes=["yl-passage", f"yl-{layer}"],
        )
        self.set_source_info(node)
        register_id(self, node, anchor)
        self.fill(node, layer, f"yl-{layer}")
        places = self.options.get("keep-at", {})
        held = keep_forms(node, self.options.get("keep", ""), {char: place[:2] for char, place in places.items()},
                          self.options.get("read-as", {}))
        for char, (_, _, count) in places.items():
            if held[char] != count:
                warn(f"yl:passage {anchor}: :keep-at: counts {count} {char}, the passage holds {held[char]} (convert "
                     "again, or correct the count)", YlWarning.MARKUP, node)
        self.env.get_domain("yl").note_passage(
            anchor, self.env.docname, layer, passage_label(node), location=node, page=node["page"]
        )
        return [node]


def register_id(directive, node: nodes.Element, anchor: str) -> None:
    """Give ``node`` the id ``anchor`` (an HTML id, a LaTeX label) after checking it."""
    if not ANCHOR_RE.match(anchor):
        warn(f"anchor {anchor!r} is not a valid id (letters, digits, - _ .)", YlWarning.ANCHOR,
             directive.get_location())
        return
    document = directive.state.document
    if anchor in document.ids:
        warn(f"duplicate anchor {anchor!r} in this document", YlWarning.ANCHOR, directive.get_location())
        return
    node["ids"].append(anchor)
    document.ids[anchor] = node


def passage_label(node: nodes.Element) -> str:
    """Opening words of a passage (reading text): of its words, else of its first segment."""

    for child in node.children:
        if isinstance(child, yl_text) and child.astext().strip():
            return opening_words(child.astext())
    for child in node.children:
        if isinstance(child, yl_segment):
            return "〔" + SEGMENT_LAYERS[child["layer"]] + "〕" + opening_words(child.astext())
    return ""


# -- lacuna marks inside a line (shared with layers) ----------------------------------------

def gap_html(self, kind: str) -> str:
    return (f'<span class="yl-gap yl-gap-{kind}" title="{self.attval(LACUNA_TITLES[kind])}">'
            f"〔{LACUNA_LABELS[kind]}〕</span>")


def gap_latex(kind: str) -> str:
    return r"\ylgap{" + LACUNA_LABELS[kind] + "}"


def gap_text(kind: str) -> str:
    return f"〔{LACUNA_LABELS[kind]}〕"


def passage_gap(node: yl_passage, kind: str) -> bool:
    """Whether the passage itself shows the lacuna mark ``kind`` (``start``/``end``): not when
    its first (last) segment already carries it. Only the witness's words and segments count (an
    editorial note's marker, ``conv.sphinx_ext.refs.ednotes``, follows them)."""

    own = [c for c in node.children if isinstance(c, (yl_text, yl_segment))]
    if node.get("lacuna") != kind or not own:
        return node.get("lacuna") == kind
    edge = own[0] if kind == "start" else own[-1]
    return not (isinstance(edge, yl_segment) and edge.get("lacuna") == kind)


# -- HTML ------------------------------------------------------------------------------------

#: What a passage without words (the excerpt starts inside its note) shows where they would be.
NO_WORDS = {"jing": ("经文阙", "此段经文不在底本节录之内：底本始于其注中"),
            "ji": ("记文阙", "此段记文不在底本节录之内：底本始于其注中")}
#: … and one right after a change of 底本 (``yl:lacuna join-…``): its notes go on from the passage
#: before, whose words are there (a seed starts or ends inside a note; the whole edition joins them).
JOINED_NO_WORDS = ("注接上段", "此段无经文：上段之注至此更换底本，以下注文接续上段")


def has_words(node: yl_passage) -> bool:
    return any(isinstance(c, yl_text) and c.astext().strip() for c in node.children)


def no_words_label(node: yl_passage) -> tuple[str, str] | None:
    """(label, title) a passage without words shows where its words would be: none where it has words
    or its notes are on the 记 mark before it (``on_marker``); 〔注接上段〕 right after a change of 底本;
    else 〔经文阙〕 / 〔记文阙〕."""
    if has_words(node) or node["layer"] not in NO_WORDS or node.get("on_marker"):
        return None
    before = node.previous_sibling()
    if isinstance(before, yl_lacuna) and before.get("kind", "").startswith("join-"):
        return JOINED_NO_WORDS
    return NO_WORDS[node["layer"]]


def visit_passage_html(self, node: yl_passage) -> None:
    # the seed's file:line:col (``source``) is for maintainers: not written into a reader's page
    self.body.append(self.starttag(node, "div", "", **{"data-layer": node["layer"]}))
    if passage_gap(node, "start"):
        self.body.append(gap_html(self, "start"))
    label_title = no_words_label(node)  # said so, and never hidden with the notes
    if label_title:
        label, title = label_title
        self.body.append(f'<span class="yl-gap yl-gap-nowords" title="{self.attval(title)}">'
                         f"〔{label}〕</span>")


def depart_passage_html(self, node: yl_passage) -> None:
    if passage_gap(node, "end"):
        self.body.append(gap_html(self, "end"))
    # the passage's end, at the right of its last line or of a line of its own (yili.css): the 文渊阁 page, quiet,
    # then 引, which copies a citation (conv/sphinx_ext/permalink.py)
    self.body.append('<span class="yl-end">')
    if node.get("page"):
        self.body.append(f'<span class="yl-page" title="{PAGE_TITLE}">{self.encode(node["page"])}</span>')
    self.body.append(permalink_html(self, node) + "</span></div>\n")


def visit_text_html(self, node: yl_text) -> None:
    self.body.append(self.starttag(node, "span", ""))


def depart_text_html(self, node: yl_text) -> None:
    self.body.append("</span>")


# -- LaTeX -----------------------------------------------------------------------------------

def visit_passage_latex(self, node: yl_passage) -> None:
    """``\\begin{ylpassage}{jing}\\phantomsection\\label{…:ANCHOR}\\ylnum{N}``: the anchor is a
    label (references print its page), N (the anchor's last part) stands in the margin."""
    number = node["anchor"].rsplit("-", 1)[-1]
    self.body.append("\n\\begin{ylpassage}{%s}%s\\ylnum{%s}{%s}%%\n"
                     % (node["layer"], self.hypertarget_to(node, anchor=True), self.encode(number),
                        self.encode(node.get("page", ""))))
    if passage_gap(node, "start"):
        self.body.append(gap_latex("start"))
    label_title = no_words_label(node)  # as the page says it (〔经文阙〕, 〔注接上段〕)
    if label_title:
        self.body.append(r"\ylgap{%s}" % label_title[0])


def depart_passage_latex(self, node: yl_passage) -> None:
    if passage_gap(node, "end"):
        self.body.append(gap_latex("end"))
    self.body.append("%\n\\end{ylpassage}\n")


def visit_text_latex(self, node: yl_text) -> None:
    self.body.append("{\\yltext{%s}" % node["layer"])


def depart_text_latex(self, node: yl_text) -> None:
    self.body.append("}")


# -- text ------------------------------------------------------------------------------------

def visit_passage_text(self, node: yl_passage) -> None:
    self.new_state(0)
    if passage_gap(node, "start"):
        self.add_text(gap_text("start"))


def depart_passage_text(self, node: yl_passage) -> None:
    if passage_gap(node, "end"):
        self.add_text(gap_text("end"))
    self.end_state()


# -- man, texinfo: a paragraph ---------------------------------------------------------------

