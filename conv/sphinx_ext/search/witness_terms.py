"""Index terms the text's nodes do not give (校本检索词): what the 底本 view shows of an
emendation or of a character read in the form of its sense, and the entity of a character Unicode lacks.

- A character of two senses read in the form of one (閒 of 閒嘗 read 间, ``conv/data/senses.toml``), which the
  index gets as text: the printed form is indexed too, with its neighbours, folded as search folds it (閒嘗窃 →
  闲尝, the terms of the query 閒嘗, which means either sense: ``search/fold.sense_chars``).
- An emendation (``yl_emend``, ``conv.sphinx_ext.text.witness_forms``) is the witness's character
  in the reading text, which the index gets as text; the seed's printed form (防) is indexed too,
  with its neighbours (坐防, 防贵), so a reader who searches what the 底本 view shows finds it.
- A character Unicode lacks is shown 〓; its Kanripo entity (``KR0871`` for ``&KR0871;``) is
  indexed, so that searching the entity finds it (the search page matches the stand-in the search
  data holds: ``static/search-lzh.js``).
"""
from __future__ import annotations

from docutils import nodes

from conv import unencoded
from conv.sphinx_ext.nodes import yl_char, yl_emend, yl_forms
from conv.sphinx_ext.search.fold import search_fold, sense_chars
from conv.sphinx_ext.walk import elements


def entity_word(char: str) -> str:
    """The search word of a character Unicode lacks: ``KR0871`` for ``&KR0871;`` (a composed
    character has none: its description is no word)."""
    markup = unencoded.markup(char)
    return markup[1:-1] if markup.startswith("&") else ""


def _with_neighbours(node: nodes.Element, printed: str) -> str:
    """``printed`` between the last character of the node before ``node`` and the first of the node after."""
    parent, at = node.parent, node.parent.index(node)
    before = parent[at - 1].astext()[-1:] if at else ""
    after = parent[at + 1].astext()[:1] if at + 1 < len(parent) else ""
    return before + printed + after


def witness_texts(doctree: nodes.Node) -> tuple[list[str], list[str]]:
    """``(runs, words)``: the printed form of each emendation and of each run read in the form of a
    sense with its neighbours, to be split like the text; the entity words of the characters Unicode lacks."""
    runs: list[str] = []
    words: list[str] = []
    senses = sense_chars().keys()
    for node in elements(doctree, (yl_char, yl_emend, yl_forms), skip="no-search"):  # not a counterpart's copy
        if isinstance(node, yl_forms):
            if not senses.isdisjoint(node["witness"]) and search_fold(node.astext()) != search_fold(node["witness"]):
                runs.append(_with_neighbours(node, node["witness"]))
        elif isinstance(node, yl_emend):
            if node["printed"]:
                runs.append(_with_neighbours(node, node["printed"]))
            words += [entity_word(c) for c in node["adopted"] if unencoded.is_stand_in(c)]
        elif node["kind"] == "unencoded" and node.get("stand_in"):  # U+E14B stands for &KR0871;
            words.append(entity_word(node["stand_in"]))
    return runs, list(dict.fromkeys(word for word in words if word))
