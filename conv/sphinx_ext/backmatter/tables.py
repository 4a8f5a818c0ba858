"""Data tables of the back matter (数据表): ``yl:datatable``, one node per table.

The converter writes the tables of the back matter — the gloss index (音义索引), 郑注's glossary
(郑注训诂), the overview of each apparatus page — as one directive each, whose body is data, one
JSON array per line (the first line is the header)::

    :::{yl:datatable}
    :class: yl-gloss-index
    :widths: 4 3 1 2 2 2 3
    :cells: text witness witness text witness text cite

    ["广韵地位","音义","字","类别","切语／直音","合否","出处"]
    ["書開三支上","弛尸纸反","弛","反切","尸纸反","合于本字",["句读·乡射礼78","judou-xiangshe-78"]]
    :::

``cells`` gives each column's kind: ``text`` (a string, shown as it is), ``witness`` (witness text,
its characters folded as on the chapter pages: the diplomatic and the normalized form, PUA code
points never raw — ``conv.sphinx_ext.text.chars``; ``[text, keep]`` shows the characters of
``keep`` as printed in both views, as a passage's ``keep`` option: 竝 in 竝并也; ``[text, keep, reads]`` reads
characters in another form too, in pairs, as its ``read-as``: ``閒间``) or ``cite`` (``[label, anchor]``: a link to the
passage, section or chapter, as ``yl:cite`` with an explicit text renders it, redirects of the
anchor ledger followed; an unknown anchor is a ``yl.cite`` warning at the row's line) or ``pinyin``
(读音, its syllables spaced: ``yáo shēng zhé zǔ``, shown joined with a line break allowed only
between syllables: ``<wbr>`` in HTML, ``\\allowbreak`` in LaTeX, whole in the search text). An empty
string or ``null`` shows as ``—``. ``widths`` are relative column widths, ``class`` the table's
class. No cell is ever parsed as markup: JSON strings are data.

The directive makes ONE node, ``yl_datatable``, holding the rows as plain data (no paragraph,
inline or reference nodes per cell: a table of thousands of rows is one node for the transforms,
the pickled doctree and the writers). Its only child is a ``Text`` with the table in reading
form, ``| cell | cell |`` per row (``astext()``, the search index). The cited anchors are resolved
after reading (``TableCitations``, a post-transform like Sphinx's reference resolver) and the
writers render the data directly:

- HTML: the markup the list-tables had (``<table class="… docutils align-default">`` in a
  ``div.table-wrapper``, ``<colgroup>``, ``<thead>``, ``<tr class="row-even">``, ``<td><p>``), each
  cell naming its column (``data-label``: a phone shows a row as a card, the names above), each
  witness cell a ``span.yl-witness`` with the spans a passage has (``chars.witness_html``), each
  locus the ``span.yl-cite`` link of ``yl:cite``; every string through ``encode``/``attval``.
- LaTeX: a ``longtable`` as Sphinx writes a ``list-table`` (its table style, each cell in a
  ``varwidth``, the header repeated on each page), loci as ``\\hyperref`` with their page; in 9 pt,
  its columns as wide as their cells, alike in the tables of a kind (``tables_print.print_widths``).
- text, man, texinfo: a docutils table built on the fly and handed to the builder's own table
  code (the print form of the witness text).
"""
from __future__ import annotations

import json
from functools import lru_cache

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

from conv.normalize import PUA_PATTERN, is_pua

from conv.sphinx_ext.text.chars import char_node, forms_title, visit_char_html, witness_html, wrap_chars
from conv.sphinx_ext.text.gloss_rows import row_ids
from conv.sphinx_ext.util import add_node, ANCHOR_RE, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.nodes import yl_datatable
from conv.sphinx_ext.refs.cite import report_unknown_anchor
from conv.sphinx_ext.backmatter.tables_print import (
    EMPTY, cell_text, read_cell, visit_datatable_latex, visit_datatable_table, witness_cell,
)

#: The kinds of cells.
CELL_KINDS = ("text", "witness", "cite", "pinyin")


def setup_tables(app: Sphinx) -> None:
    add_node(
        app,
        yl_datatable,
        html=(visit_datatable_html, None),
        latex=(visit_datatable_latex, None),
        text=(visit_datatable_table, None),
        other=(visit_datatable_table, None),
    )
    app.add_directive_to_domain("yl", "datatable", DataTableDirective)
    app.add_post_transform(TableCitations)


# -- reading -------------------------------------------------------------------------------------

class DataTableDirective(SphinxDirective):
    """``yl:datatable``: see the module docstring."""

    has_content = True
    option_spec = {
        "class": directives.class_option,
        "widths": directives.positive_int_list,
        "cells": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        kinds = self.options.get("cells", "").split()
        bad = [kind for kind in kinds if kind not in CELL_KINDS]
        if not kinds or bad:
            warn(f"yl:datatable: :cells: must name a kind ({', '.join(CELL_KINDS)}) per column",
                 YlWarning.MARKUP, location)
            return []
        widths = self.options.get("widths") or [1] * len(kinds)
        if len(widths) != len(kinds):
            warn(f"yl:datatable: {len(widths)} widths for {len(kinds)} columns", YlWarning.MARKUP, location)
            return []
        # the source line of the content's first line (MyST counts the content's offset from the
        # line after the directive's opening fence)
        first = self.lineno + 1 + self.content_offset
        rows, lines, header = [], [], None
        for index, line in enumerate(self.content):
            if not line.strip():
                continue
            where = (self.env.docname, first + index)
            row = _row(line, kinds if header is not None else ["text"] * len(kinds), where)
            if row is None:
                continue
            if header is None:
                header = row
            else:
                rows.append(row)
                lines.append(first + index)
        if header is None:
            warn("yl:datatable: no header row", YlWarning.MARKUP, location)
            return []
        node = yl_datatable("", classes=self.options.get("class", []), widths=widths, cells=kinds,
                            header=header, rows=rows, lines=lines, docname=self.env.docname)
        self.set_source_info(node)
        node += nodes.Text(search_text(kinds, header, rows))
        return [node]


def _row(line: str, kinds: list[str], where: tuple[str, int]) -> list | None:
    """One row of data: its cells checked against the kinds of the columns (``None`` when bad)."""
    try:
        row = json.loads(line)
    except ValueError as error:
        warn(f"yl:datatable: a row is not a JSON array ({error})", YlWarning.MARKUP, where)
        return None
    if not isinstance(row, list) or len(row) != len(kinds):
        warn(f"yl:datatable: a row must be a JSON array of {len(kinds)} cells", YlWarning.MARKUP, where)
        return None
    for kind, cell in zip(kinds, row):
        if cell is None:
            continue
        if kind == "cite":
            if (not isinstance(cell, list) or len(cell) != 2
                    or not all(isinstance(part, str) for part in cell)):
                warn("yl:datatable: a cite cell is [label, anchor] or null", YlWarning.MARKUP, where)
                return None
            if not ANCHOR_RE.match(cell[1]):
                warn(f"yl:datatable: {cell[1]!r} is not a valid anchor", YlWarning.ANCHOR, where)
                return None
        elif kind == "witness" and isinstance(cell, list):
            if (len(cell) not in (2, 3) or not all(isinstance(part, str) for part in cell)
                    or (len(cell) == 3 and len(cell[2]) % 2)):
                warn("yl:datatable: a witness cell is a string, [text, keep], [text, keep, reads] (pairs: 閒间) or null",
                     YlWarning.MARKUP, where)
                return None
        elif not isinstance(cell, str):
            warn(f"yl:datatable: a {kind} cell is a string or null", YlWarning.MARKUP, where)
            return None
        if kind == "witness" and cell and PUA_PATTERN.search(witness_cell(cell)[0]):
            wrap_chars([nodes.Text(witness_cell(cell)[0])], where)  # warns (yl.pua) for an unknown code point
    return row


@lru_cache(maxsize=None)
def _reading(char: str) -> str:
    """The reading form of one witness character (what a ``yl_char``'s text is)."""
    node = char_node(char)
    return char if node is None else node["normal"]


def reading_text(text: str, keep: str = "", reads: dict[str, str] | None = None) -> str:
    if keep or reads:
        return read_cell(text, keep, reads, _reading)
    return "".join(map(_reading, text))


def search_text(kinds: list[str], header: list, rows: list[list]) -> str:
    """The table as text, reading forms: ``| cell | cell |`` per row (no two cells join)."""
    lines = ["| " + " | ".join(cell_text("text", cell, None) for cell in header) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(cell_text(kind, cell, reading_text)
                                       for kind, cell in zip(kinds, row)) + " |")
    return "\n".join(lines)


# -- resolving the loci --------------------------------------------------------------------------

class TableCitations(SphinxPostTransform):
    """Resolve the cited anchors of every table through the ``yl`` domain (redirects followed);
    an unknown anchor is a ``yl.cite`` warning at its row (as an unresolved ``yl:cite``)."""

    default_priority = 10  # with Sphinx's ReferencesResolver

    def run(self, **kwargs) -> None:
        domain = self.env.get_domain("yl")
        for node in self.document.findall(yl_datatable):
            columns = [i for i, kind in enumerate(node["cells"]) if kind == "cite"]
            if not columns:
                continue
            targets: dict[str, tuple[str, str, str]] = {}
            for number, row in enumerate(node["rows"]):
                for column in columns:
                    cell = row[column]
                    if not cell or cell[1] in targets:
                        continue
                    found = domain.find(cell[1])
                    if found is None:
                        xref = addnodes.pending_xref("", refdomain="yl", reftype="cite",
                                                     reftarget=cell[1])
                        xref.source, xref.line = node.source, node["lines"][number]
                        report_unknown_anchor(domain, xref)
                        continue
                    tooltip = found.citation + (f"（原锚点 {found.cited}）" if found.redirected else "")
                    targets[cell[1]] = (found.docname, found.anchor, tooltip)
            node["targets"] = targets


# -- HTML ----------------------------------------------------------------------------------------

class _Chars:
    """The HTML of witness characters, folding ones rendered once by ``visit_char_html``."""

    def __init__(self, translator) -> None:
        self.translator = translator
        self.cache: dict[str, str | None] = {}

    def html(self, char: str) -> str | None:
        try:
            return self.cache[char]
        except KeyError:
            pass
        node = char_node(char)
        html = None
        if node is not None:
            translator = self.translator
            saved, translator.body = translator.body, []
            try:
                visit_char_html(translator, node)
            except nodes.SkipNode:
                pass
            html = "".join(translator.body)
            translator.body = saved
        self.cache[char] = html
        return html

    def read_as(self, char: str, form: str) -> str:
        """A character read in another form (閒 → 间): a run of its own, as a passage's (``chars.keep_forms``)."""
        encode = self.translator.encode
        return (f'<span class="yl-fs" title="{self.translator.attval(forms_title(char, form))}"><span class="yl-w">'
                f'{encode(char)}</span><span class="yl-n">{encode(form)}</span></span>')

    def words(self, text: str) -> str:
        """The converter's words (a text cell, a label): escaped, a private-use code point shown
        as in witness text (a character it quotes: ``《广韵》未收X``), nothing else folded."""
        if not PUA_PATTERN.search(text):
            return self.translator.encode(text)
        return self.witness(text, "".join({char for char in text if not is_pua(char)}))

    def witness(self, text: str, keep: str = "", reads: dict[str, str] | None = None) -> str:
        if not keep and not reads:  # as a passage writes it: runs of folding text (chars.visit_forms_html)
            return witness_html(self.translator, text)
        encode, reads = self.translator.encode, reads or {}
        out, run = [], []
        for char in text:
            html = None if char in keep else self.read_as(char, reads[char]) if char in reads else self.html(char)
            if html is None:
                run.append(char)
                continue
            if run:
                out.append(encode("".join(run)))
                run = []
            out.append(html)
        if run:
            out.append(encode("".join(run)))
        return "".join(out)


def visit_datatable_html(self, node: yl_datatable) -> None:
    encode, attval = self.encode, self.attval
    chars = getattr(self, "yl_table_chars", None)
    if chars is None:
        chars = self.yl_table_chars = _Chars(self)
    current = getattr(self.builder, "current_docname", "")
    targets = node.get("targets", {})
    uris: dict[str, str] = {}

    def cite(cell) -> str:
        label, anchor = cell
        target = targets.get(anchor)
        text = f'<span class="xref yl yl-cite">{chars.words(label or anchor)}</span>'
        if target is None:
            return text
        docname, live, tooltip = target
        if docname not in uris:
            uris[docname] = "" if docname == current else self.builder.get_relative_uri(current, docname)
        href = uris[docname] + "#" + live
        return (f'<span class="yl-cite" data-anchor="{attval(live)}"><a class="reference internal" '
                f'href="{attval(href)}" title="{attval(tooltip)}">{text}</a></span>')

    def cell_html(kind: str, cell) -> str:
        if not cell:
            return EMPTY
        if kind == "witness":
            return f'<span class="yl-witness">{chars.witness(*witness_cell(cell))}</span>'
        if kind == "cite":
            return cite(cell)
        if kind == "pinyin":
            return "<wbr>".join(map(chars.words, cell.split()))
        return chars.words(cell)

    wrapper = attval(" ".join(["table-wrapper", "colwidths-given", *node["classes"], "docutils", "container"]))
    classes = attval(" ".join([*node["classes"], "docutils", "align-default"]))
    ids = "".join(f' id="{attval(id_)}"' for id_ in node["ids"][:1])
    out = [f'<div class="{wrapper}">\n', f'<table{ids} class="{classes}">\n<colgroup>\n']
    total = sum(node["widths"])
    out += [f'<col style="width: {width / total:.1%}" />\n' for width in node["widths"]]
    out.append("</colgroup>\n<thead>\n")
    out.append('<tr class="row-odd">' + "\n".join(
        f'<th class="head"><p>{encode(cell or EMPTY)}</p></th>' for cell in node["header"]) + "\n</tr>\n")
    out.append("</thead>\n<tbody>\n")
    kinds = node["cells"]
    # each cell names its column: a phone sets a row as a card, each field under its name (yili-indices.css)
    opening = [f'<td data-label="{attval(cell or EMPTY)}"><p>' for cell in node["header"]]
    for number, (row, row_id) in enumerate(zip(node["rows"], row_ids(node))):
        parity = "even" if number % 2 == 0 else "odd"
        id_attribute = f' id="{attval(row_id)}"' if row_id else ""
        out.append(f'<tr class="row-{parity}"{id_attribute}>' + "\n".join(
            f"{td}{cell_html(kind, cell)}</p></td>" for td, kind, cell in zip(opening, kinds, row)) + "\n</tr>\n")
    out.append("</tbody>\n</table>\n</div>\n")
    self.body.append("".join(out))
    raise nodes.SkipNode
