"""The terms as index nodes (索引节点): for the search index, LaTeX (pinyin sort keys) and other builders."""
from __future__ import annotations


from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

from conv import datafiles as data
from conv.analyses import terms as term_index

from conv.sphinx_ext.walk import blocks
from conv.sphinx_ext.nodes import yl_passage, yl_text

from conv.sphinx_ext.backmatter.terms_found import _anchor_of, _pages, passage_entries, where


# -- the terms as index nodes, for what reads nodes ------------------------------------------

def feed_terms_to_search(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """HTML: the search index's entries of a page (``IndexBuilder.feed``, when the page is
    written) are those of its ``index`` nodes. One node at the end of the page holds every entry
    of its terms: the same set of entries the passages' nodes gave, and the HTML writer prints
    no ``index`` node."""
    if getattr(app.builder, "indexer", None) is None:  # no search index (LaTeX, epub, …)
        return
    # The index domain holds the page's entries as read: the terms' and those of the page's own
    # index nodes, which the feed reads again from their nodes into the same set. Taken from
    # there, the entries need not be made again (their category keys need pypinyin's readings,
    # which an incremental build that keeps the index of terms never loads).
    entries = app.env.get_domain("index").entries.get(docname)
    if _pages(app.env).get(docname) and entries:
        doctree.append(addnodes.index(entries=list(entries), inline=False))


def _passages_with_terms(env: BuildEnvironment) -> dict[str, tuple[str, str, list[str]]]:
    """anchor → ``(docname, layer, terms)`` of every passage with terms (made once per build)."""
    if getattr(env, "yl_passages_with_terms", None) is None:
        env.yl_passages_with_terms = {anchor: (docname, layer, found)
                                      for docname, rows in _pages(env).items()
                                      for anchor, layer, found in rows}
    return env.yl_passages_with_terms


def record_builder_format(app: Sphinx) -> None:
    """The builder's format, for the post-transforms (which get the environment, not the
    builder: ``SphinxTransform.app`` is deprecated)."""
    app.env.yl_builder_format = app.builder.format


class TermIndexNodes(SphinxPostTransform):
    """Every builder but HTML: each passage with terms gets its ``index`` node back, right
    before it, as the page had it when it was read (``entries``, the terms as ``yl_terms``, the
    passage as ``yl_anchor`` and ``yl_layer``), for the LaTeX index (``PinyinIndexKeys``),
    Texinfo's ``@index``, the XML builders. First of the post-transforms, so that every other
    one sees the page as it was."""

    default_priority = 1

    def is_supported(self) -> bool:
        return self.env.yl_builder_format != "html"  # recorded by ``record_builder_format``

    def run(self, **kwargs) -> None:
        table = _passages_with_terms(self.env)
        if not table:
            return
        for passage in list(blocks(self.document, yl_passage)):  # nodes are inserted
            anchor = _anchor_of(passage)
            row = table.get(anchor)
            if row is None or anchor not in passage["ids"]:
                continue
            docname, layer, found = row
            parent = passage.parent
            at = parent.index(passage)
            if at and isinstance(parent[at - 1], addnodes.index) \
                    and parent[at - 1].get("yl_anchor") == anchor:
                continue  # a page read by an earlier version of this module: it has its node
            parent.insert(at, addnodes.index(entries=passage_entries(anchor, found, docname),
                                             inline=False, yl_terms=list(found), yl_anchor=anchor,
                                             yl_layer=layer))


# -- LaTeX: pinyin sort keys for the general index --------------------------------------------

class PinyinIndexKeys(SphinxPostTransform):
    """LaTeX: the terms' ``index`` nodes (``TermIndexNodes``) become
    ``\\index{zhi4 觯@\\spxentry{觯}!…}`` so that ``makeindex`` sorts them by pinyin (the
    sub-entries, the chapters, in reading order)."""

    builders = ("latex",)
    default_priority = 30

    def run(self, **kwargs) -> None:
        works = {w["id"]: i for i, w in enumerate(data.works())}
        for node in list(blocks(self.document, addnodes.index)):  # the terms' nodes: block level
            if not node.get("yl_terms"):
                continue
            anchor = node["yl_anchor"]
            parts = anchor.split("-")
            chapter = data.chapter_of(parts[0], parts[1]) if len(parts) > 2 else None
            sub_key = (f"{works.get(parts[0], 9)}{chapter['number'] if chapter else 99:02d}"
                       if len(parts) > 2 else "9")
            sub = _latex_text(where(anchor, self.env))
            tex = "".join(
                r"\index{%s %s@\spxentry{%s}!%s@\spxentry{%s}}"
                % (term_index.pinyin(word).replace(" ", ""), word, word, sub_key, sub)
                for word in dict.fromkeys(node["yl_terms"]))
            raw = nodes.raw("", tex, format="latex")
            parent, at = node.parent, node.parent.index(node)
            passage = parent[at + 1] if at + 1 < len(parent) else None  # it stands right before it
            words = next((c for c in passage.children if isinstance(c, yl_text)), None) \
                if isinstance(passage, yl_passage) else None
            if words is not None:
                node.parent.remove(node)
                words.insert(0, raw)  # inside the passage's words: its page, no paragraph break
            else:
                node.replace_self(raw)


def _latex_text(text: str) -> str:
    """Index text is Han characters and ``·``; anything makeindex or TeX would read is dropped."""
    return "".join(c for c in text if c not in '\\{}@!|"%#&$^_~')
