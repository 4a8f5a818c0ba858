"""The data the search page reads its results from (检索摘要数据): one small file per page.

The search index (``searchindex.js``) finds the pages that hold every character and pair of a
query. To turn them into results — the passages that contain the query as a string, each linked
to its anchor with a snippet of its own characters — the search page used to download every
candidate page's HTML (宾: every chapter). Instead, each page's text is written when the page is
written, as data for the purpose: ``_search/<docname>.json`` (``doctree-resolved``, in whichever
process writes the page)::

    {"t": "句读·士冠礼",                                            the page as a result names it (refs.domain.page_title)
     "u": [[anchor, passage?, heading, [[layer, text, reading?], …]], …],   units in reading order
     "h": [heading, …],                                           section headings, once each
     "n": {"賔": "宾", …},                                        reading forms of the page
     "p": "閒防"}                                                 printed characters some place reads otherwise

A *unit* is a passage (``yl_passage``: its words and notes, one segment each) or, outside the
passages, the nearest element with an id (a section, an apparatus entry…) or the page. The text is
the diplomatic view's (PUA resolved, a spurious code point left out); ``n`` maps each character
whose reading form differs to it, for a search page in the normalized view and for matching: the form most of
its places on the page read. A segment where some place reads otherwise carries its reading text (as long as its
text, a code point for a code point): a character of two senses read by its sense (閒 of 閒嘗 read 间 where the
page's 閒 read 闲: ``conv/data/senses.toml``), a character kept as printed (乾 of 乾坤), an emendation (the
seed's printed 防, the 底本 view's, read 亵: the 文渊阁's 䙝). ``p`` names the printed characters some place of the
page reads as search does not fold them (閒 read 间, 防 read 亵): a query typing one is matched on the printed text
folded, any other on the reading text (``static/search-lzh.js``). What the HTML page
adds (brackets, lead marks, 引, marks of the apparatus, 〔前阙〕, editorial notes' markers) is not
text of the edition and is not there. ``static/search-lzh.js`` matches and highlights on this
data exactly as it did on the pages' HTML, for about a quarter of the bytes.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from conv import unencoded
from conv.datafiles import write_atomically
from conv.sphinx_ext.search.fold import search_fold
from conv.sphinx_ext.refs.domain import page_title
from conv.sphinx_ext.nodes import yl_appmark, yl_char, yl_ednote_ref, yl_emend, yl_forms, yl_segment, yl_text

#: Where the files go, under the HTML output.
DIRECTORY = "_search"
#: The layers a text can be in (classes ``yl-<layer>``), as the search page names them.
LAYERS = ("jing", "ji", "zhu", "shu", "an", "jiao", "yin", "mulu", "chu", "title", "meta", "front", "errata", "small")
# yl-mark: the 衍 of a spurious code point; yl-n: the reading form of an element of the class
# yl-char that holds both forms (its witness form, yl-w, is the text: ``n`` maps it)
_SKIP_CLASSES = {"no-search", "toctree-wrapper", "yl-legend", "headerlink", "yl-mark", "yl-n"}
# nodes.meta: the index-only keywords (search_pairs) among them
_SKIP_NODES = (nodes.comment, nodes.raw, nodes.system_message, nodes.meta, yl_appmark,
               yl_ednote_ref, nodes.Invisible)
# the classes of an element whose texts are a segment of their own (besides a layer's)
_SEGMENT_CLASSES = frozenset(("yl-text", "yl-note"))


def _is_passage(node: nodes.Element) -> bool:
    """A passage: a ``yl_passage``, or any element with the class ``yl-passage`` and an id."""
    return "yl-passage" in node["classes"] and bool(node["ids"])


_LAYER_OF_CLASS = {f"yl-{layer}": layer for layer in LAYERS}


def _classes_layer(node: nodes.Element) -> str:
    """The layer of the first of ``node``'s classes that names one (``yl-zhu`` → ``zhu``), or ``""``."""
    return next((_LAYER_OF_CLASS[cls] for cls in node["classes"] if cls in _LAYER_OF_CLASS), "")


class _Page:
    """The units of one page, filled in one walk of its doctree."""

    def __init__(self) -> None:
        self.units: list[list] = []
        self.by_key: dict[int, list] = {}
        self.headings: list[str] = []
        self.heading_index: dict[str, int] = {}
        #: (character, its reading form) → how many of its places read so (a character read as itself too)
        self.forms: Counter[tuple[str, str]] = Counter()

    def heading(self, node: nodes.Node) -> int:
        while node is not None and not isinstance(node, nodes.section):
            node = node.parent
        if node is None or not node.children or not isinstance(node[0], nodes.title):
            return -1
        text = node[0].astext().strip()
        if text not in self.heading_index:
            self.heading_index[text] = len(self.headings)
            self.headings.append(text)
        return self.heading_index[text]

    def unit(self, holder: nodes.Element | None, passage: bool, anchor: str) -> list:
        key = id(holder)
        if key not in self.by_key:
            unit = [anchor, 1 if passage else 0, self.heading(holder) if holder is not None else -1, []]
            self.by_key[key] = unit
            self.units.append(unit)
        return self.by_key[key]

    def add(self, unit: list, segment: int, layer: str, text: str, reading: str) -> None:
        segments = unit[3]
        if segments and segments[-1][0] == segment:
            segments[-1][2] += text
            segments[-1][3] += reading
        else:
            segments.append([segment, layer, text, reading])

    def read(self, shown: str, normal: str) -> str:
        """The places of ``shown`` read ``normal``, a character for a character: counted for the page's map
        (in C); the reading of the places (``shown`` itself where the two are not as long)."""
        if len(shown) != len(normal):
            return shown
        self.forms.update(zip(shown, normal))
        return normal

    def reading_forms(self) -> dict[str, str]:
        """Each character → the reading form other than itself most of its places read (the first met of equals)."""
        best: dict[str, tuple[int, str]] = {}
        for (shown, normal), count in self.forms.items():
            if shown != normal and count > best.get(shown, (0, ""))[0]:
                best[shown] = (count, normal)
        return {shown: normal for shown, (_, normal) in sorted(best.items())}

    def segments(self, unit: list, table: dict[int, str]) -> list[list]:
        """A unit's segments as written: ``[layer, text]``, and the reading where the page's map does not give it."""
        return [[layer, text] if text.translate(table) == reading else [layer, text, reading]
                for _, layer, text, reading in unit[3]]

    def printed_otherwise(self, forms: dict[str, str], units: list[list]) -> str:
        """The printed characters some place of the page reads in a form search does not fold them to (閒 read 间,
        防 read 亵), in code point order: from the page's map and the segments that carry their reading."""
        found = {char for char, form in forms.items() if search_fold(char) != search_fold(form)}
        for unit in units:
            for segment in unit[3]:
                if len(segment) == 3:
                    found.update(char for char, form in zip(segment[1], segment[2])
                                 if char != form and search_fold(char) != search_fold(form))
        return "".join(sorted(found))


def _skipped(node: nodes.Element) -> bool:
    return isinstance(node, _SKIP_NODES) or not _SKIP_CLASSES.isdisjoint(node["classes"])


def _both_forms(node: nodes.Element) -> tuple[str, str] | None:
    """An element of the class ``yl-char`` holding ``yl-w`` and ``yl-n`` (the witness and the
    reading form, one character each): the pair."""
    shown = [c.astext() for c in node.children if isinstance(c, nodes.Element) and "yl-w" in c["classes"]]
    normal = [c.astext() for c in node.children if isinstance(c, nodes.Element) and "yl-n" in c["classes"]]
    if len(shown) == len(normal) == 1 and len(shown[0]) == len(normal[0]) == 1:
        return shown[0], normal[0]
    return None


class _Context:
    """What a text inside an element belongs to (文本之所属), worked out once per element from its
    parent's: the innermost passage, else the innermost element with an id (the unit); the
    segment (texts in different segments never join: a block, a layer's element, up to the
    passage); the layer (the nearest around the text, the passage's own last)."""

    __slots__ = ("passage", "identified", "segment", "layer")

    def __init__(self, passage: nodes.Element | None, identified: nodes.Element | None,
                 segment: int | None, layer: str) -> None:
        self.passage, self.identified, self.segment, self.layer = passage, identified, segment, layer

    def inside(self, element: nodes.Element) -> _Context:
        """The context of the texts of ``element``, a child of this context's element."""
        if _is_passage(element):
            return _Context(element, self.identified, None, _classes_layer(element))
        layer = _classes_layer(element)
        own = layer or (element.get("layer", "") if isinstance(element, (yl_text, yl_segment)) else "")
        segment = self.segment
        if (isinstance(element, (yl_text, yl_segment)) or layer
                or not _SEGMENT_CLASSES.isdisjoint(element["classes"])
                or (isinstance(element, nodes.TextElement) and not isinstance(element.parent, nodes.TextElement))):
            segment = id(element)
        identified = element if element["ids"] else self.identified
        return _Context(self.passage, identified, segment, own or self.layer)


def page_units(doctree: nodes.document) -> dict:
    """The search data of a page (see the module docstring), in one walk of its doctree."""
    page = _Page()

    def add(text: str, element: nodes.Element, context: _Context, reading: str | None = None) -> None:
        if not text:
            return
        if context.passage is not None:
            holder, is_passage = context.passage, True
        else:
            holder, is_passage = context.identified, False
        anchor = holder["ids"][0] if holder is not None else ""
        # outside any segment (a passage's own text, or none around): the text's parent element
        segment = context.segment if context.segment is not None else id(element)
        unit = page.unit(holder, is_passage, anchor)
        page.add(unit, segment, context.layer, text, text if reading is None else reading)

    def visit(element: nodes.Element, context: _Context) -> None:
        for node in element.children:
            if isinstance(node, nodes.Text):
                add(str(node), element, context)
            elif _skipped(node):
                continue
            elif isinstance(node, yl_char):
                if node["kind"] == "pua-spurious":
                    continue
                shown = node["resolved"]
                if node["kind"] == "unencoded":  # its stand-in: the search page shows 〓, finds its entity
                    shown = node.get("stand_in") or shown
                    add(shown, element, context)
                else:
                    add(shown, element, context, page.read(shown, node["normal"]))
            elif isinstance(node, yl_forms):  # the witness's forms, each read in its place's form
                text = node["witness"]
                add(text, element, context, page.read(text, node.astext()))
            elif isinstance(node, yl_emend):  # the 底本 view's printed form, read as the witness's character
                printed, adopted, normal = node["printed"], node["adopted"], node["normal"]
                if unencoded.is_stand_in(adopted):  # found by its entity
                    add(adopted, element, context)
                elif printed and len(printed) == len(normal):
                    add(printed, element, context, normal)
                else:  # the seed printed nothing (脱): the adopted character
                    add(adopted, element, context, page.read(adopted, normal))
            elif "yl-char" in node["classes"] and (pair := _both_forms(node)) is not None:
                add(pair[0], element, context, page.read(*pair))
            else:
                visit(node, context.inside(node))

    visit(doctree, _Context(None, None, None, _classes_layer(doctree)))
    forms = page.reading_forms()
    table = str.maketrans(forms)
    units = [[*unit[:3], page.segments(unit, table)] for unit in page.units]
    return {"u": units, "h": page.headings, "n": forms, "p": page.printed_otherwise(forms, units)}


def write_page_data(app: Sphinx, doctree: nodes.document, docname: str, language: str) -> None:
    """``doctree-resolved``: write ``_search/<docname>.json`` for the HTML builder's search in
    ``language`` (the edition's, ``lzh``)."""
    builder = app.builder
    if builder.format != "html" or not getattr(builder, "search", False):
        return
    if (app.config.html_search_language or app.config.language) != language:
        return
    target = Path(builder.outdir) / DIRECTORY / f"{docname}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    found = {"t": page_title(app.env, docname), **page_units(doctree)}
    write_atomically(target, json.dumps(found, ensure_ascii=False, separators=(",", ":")))


def setup_summaries(app: Sphinx, language: str) -> None:
    """Write the search data of each page (called by ``language.setup_search``)."""
    app.connect("doctree-resolved", lambda app, doctree, docname: write_page_data(app, doctree, docname, language))
