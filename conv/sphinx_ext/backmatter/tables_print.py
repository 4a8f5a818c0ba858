"""Data tables in print (数据表之印本): ``yl:datatable`` for LaTeX, text, man and texinfo, and the
cells as every writer reads them (``conv.sphinx_ext.backmatter.tables`` reads the directive and
writes HTML)."""
from __future__ import annotations

import math
import unicodedata

from docutils import nodes

from conv.sphinx_ext.nodes import yl_cite, yl_datatable
from conv.sphinx_ext.text.chars import char_node
from conv.normalize import is_pua

#: What an empty cell shows.
EMPTY = "—"
#: Print widths (:func:`print_widths`), in ems of the table's type: a locus's page reference
#: (`` (第1234页)``), the space xeCJK puts between a Han and a Latin character (云合三 B 支去), a
#: column's slack (a width that rounds down by a hundredth of a point put 反切 in two lines), the
#: share of a column's cells that fit its width on one line (the longest tenth wrap).
PAGEREF_EM = 5.5
GLUE_EM = 0.3
SLACK_EM = 0.2
FITTING_SHARE = 0.9
#: A column up to this wide keeps its width in print; the wider ones share what the narrow ones
#: leave of the line, in proportion: a short cell never wraps to make room for a long one. The narrow
#: ones take at most ``NARROW_TOTAL_EM`` (an A4 page of this edition holds 37 ems at 9 pt); beyond,
#: the widest of them share too.
NARROW_EM = 8
NARROW_TOTAL_EM = 24


def witness_cell(cell) -> tuple[str, str, dict[str, str]]:
    """``(text, keep, reads)`` of a witness cell: a string, ``[text, keep]`` or ``[text, keep, reads]``
    (``reads``: pairs of a character and the form it reads, ``閒间``, as a passage's ``read-as``)."""
    if isinstance(cell, str):
        return cell, "", {}
    pairs = cell[2] if len(cell) > 2 else ""
    keep = "".join(char for char in cell[1] if not is_pua(char))  # a PUA code point is never shown raw
    return cell[0], keep, dict(zip(pairs[::2], pairs[1::2]))


def read_cell(text: str, keep: str, reads: dict[str, str] | None, fold_char) -> str:
    """``text`` in reading forms: each character by ``fold_char`` but those of ``keep`` (as printed) and of
    ``reads`` (in their form: 閒 → 间)."""
    reads = reads or {}
    return "".join(char if char in keep else reads.get(char) or fold_char(char) for char in text)


def cell_text(kind: str, cell, fold) -> str:
    """A cell as plain text: witness text folded by ``fold(text, keep)``, a private-use code point
    of the converter's words (a text cell, a label) too."""
    if not cell:
        return EMPTY
    if kind == "witness":
        return fold(*witness_cell(cell))
    if kind == "pinyin":  # its syllables joined: yáoshēngzhézǔ
        return "".join(cell.split())
    words = (cell[0] or cell[1]) if kind == "cite" else cell
    return "".join(fold(char) if fold and is_pua(char) else char for char in words)


def ems(text: str) -> float:
    """How wide ``text`` is set, in ems: a wide character (Han, full-width punctuation) or an
    ambiguous one not a letter (·, —) one, any other a half (ASCII, the á of pinyin), and the
    space between a Han character and a letter or digit (``GLUE_EM``)."""
    narrow = [_narrow(char) for char in text]
    switches = sum(1 for before, after, char in zip(narrow, narrow[1:], text[1:]) if before != after and char != " ")
    return sum(0.5 if one else 1 for one in narrow) + GLUE_EM * switches


def _narrow(char: str) -> bool:
    width = unicodedata.east_asian_width(char)
    return width not in "WFA" or (width == "A" and unicodedata.category(char).startswith("L"))


def print_widths(tables: list[yl_datatable], fold) -> list[int]:
    """The columns' widths in print (tenths of an em) of tables of one kind (their class and
    columns: the 音义索引's page of each 摄): each column as wide as nine in ten of its cells in all
    of them (``FITTING_SHARE``; a locus with its page reference) and half its header (two lines at
    most), and its slack. Set alike, the tables read as one index, and a long cell of a short
    table does not narrow its other columns. The directive's ``widths`` are the screen's, where a
    locus has no page: in print they made the 音义索引 twelve rows a page, its loci wrapped over
    three or four lines. Tables without rows: as wide as their header."""
    first = tables[0]
    rows = [(row, table.get("targets", {})) for table in tables for row in table["rows"]]
    if not rows:
        return [round((ems(cell or EMPTY) + SLACK_EM) * 10) for cell in first["header"]]
    widths = []
    for column, kind in enumerate(first["cells"]):
        sizes = sorted(ems(cell_text(kind, row[column], fold))
                       + (PAGEREF_EM if kind == "cite" and row[column] and row[column][1] in targets else 0)
                       for row, targets in rows)
        fitting = max(sizes[math.ceil(FITTING_SHARE * len(sizes)) - 1], ems(first["header"][column] or EMPTY) / 2)
        widths.append(round((fitting + SLACK_EM) * 10))
    return widths


def kind_of(table: yl_datatable) -> tuple:
    """What makes tables one kind, set alike in print: their class, their columns, their header."""
    return tuple(table["classes"]), tuple(table["cells"]), tuple(table["header"])


def column_specs(widths: list[int]) -> list[str]:
    """The longtable's column of each width (tenths of an em): a narrow one its width
    (``p{4.5em}``), the wide ones (``NARROW_EM``; at least the widest) their share of what the narrow
    ones leave (``\\ylcolumn``, yili.sty)."""
    wide = {index for index, width in enumerate(widths) if width > NARROW_EM * 10}
    for index in sorted(range(len(widths)), key=lambda i: -widths[i]):
        if wide and sum(w for i, w in enumerate(widths) if i not in wide) <= NARROW_TOTAL_EM * 10:
            break
        wide.add(index)
    narrow = sum(w for i, w in enumerate(widths) if i not in wide)
    shared = sum(widths[i] for i in wide)
    return [r"\ylcolumn{%d}{%d}{%gem}{%d}" % (width, shared, narrow / 10, 2 * len(widths)) if index in wide
            else "p{%gem}" % (width / 10) for index, width in enumerate(widths)]


# -- print: LaTeX, text, man, texinfo --------------------------------------------------------------

class _PrintForm:
    """Witness text as the print builders show it (``yl_print_form``, as ``chars.visit_char_print``):
    the reading form, or the witness form with PUA code points resolved."""

    def __init__(self, config) -> None:
        self.diplomatic = config.yl_print_form == "diplomatic"
        self.cache: dict[str, str] = {}

    def char(self, char: str) -> str:
        try:
            return self.cache[char]
        except KeyError:
            pass
        node = char_node(char)
        if node is None:
            shown = char
        elif self.diplomatic and node["resolved"] != node["normal"]:
            shown = node["resolved"]
        else:
            shown = node["normal"]
        self.cache[char] = shown
        return shown

    def words(self, text: str) -> str:
        """The converter's words (a text cell, a label): a private-use code point in its print
        form, as in witness text; nothing else folded."""
        return "".join(self.char(char) if is_pua(char) else char for char in text)

    def text(self, text: str, keep: str = "", reads: dict[str, str] | None = None) -> str:
        if keep or reads:
            return read_cell(text, keep, reads, self.char)
        return "".join(map(self.char, text))


def visit_datatable_latex(self, node: yl_datatable) -> None:
    """A ``longtable`` in Sphinx's table style, its cells as Sphinx writes a table's (each in a
    ``varwidth``: ragged lines, tight rows); the header is repeated on every page. Set in
    ``\\yltablesize``, each column as wide as its cells are (:func:`print_widths`: ``\\ylcolumn``,
    yili.sty)."""
    encode = self.encode
    form = _PrintForm(self.config)
    targets = node.get("targets", {})
    pagerefs = self.config.latex_show_pagerefs
    count = len(node["cells"])
    # ragged right: a narrow column of citations is never letter-spaced (通 解 · 乡)
    start = "\\begin{varwidth}[t]{\\sphinxcolwidth{1}{%d}}\n\\raggedright\n" % count
    end = "\n\\sphinxbeforeendvarwidth\n\\end{varwidth}%\n"

    def cell_tex(kind: str, cell) -> str:
        if not cell:
            return EMPTY
        if kind == "witness":
            return r"\DUrole{yl-witness}{%s}" % encode(form.text(*witness_cell(cell)))
        if kind == "text":
            return encode(form.words(cell))
        if kind == "pinyin":  # a narrow column breaks it between syllables only
            return r"\allowbreak{}".join(encode(syllable) for syllable in cell.split())
        label, anchor = cell
        text = r"\DUrole{xref}{\DUrole{yl}{\DUrole{yl-cite}{%s}}}" % encode(form.words(label or anchor))
        target = targets.get(anchor)
        if target is None:
            return text
        label_id = self.idescape(f"{target[0]}:{target[1]}")
        page = (r" (\autopageref*{%s})" % label_id) if pagerefs else (r"（第\pageref{%s}页）" % label_id)
        return r"{\hyperref[%s]{\sphinxcrossref{%s}}}%s" % (label_id, text, page)

    header = "&".join(start + "\\sphinxstyletheadfamily \\sphinxAtStartPar\n" + encode(cell or EMPTY) + end
                      for cell in node["header"]) + "\\\\\n"
    out = ["\n\\begin{savenotes}\\yltablesize\n\\sphinxatlongtablestart\n\\sphinxthistablewithglobalstyle\n",
           "\\makeatletter\n  \\LTleft \\@totalleftmargin plus1fill\n"
           "  \\LTright\\dimexpr\\columnwidth-\\@totalleftmargin-\\linewidth\\relax plus1fill\n"
           "\\makeatother\n",
           "\\begin{longtable}{%s}\n" % "".join(_columns(self, node, form)),
           "\\sphinxtoprule\n", header, "\\sphinxmidrule\n\\endfirsthead\n\n",
           "\\multicolumn{%d}{c}{\\sphinxnorowcolor\n    \\makebox[0pt]{\\sphinxtablecontinued"
           "{\\tablename\\ \\thetable{} \\textendash{} %s}}%%\n}\\\\\n"
           % (count, encode(_translate("continued from previous page"))),
           "\\sphinxtoprule\n", header, "\\sphinxmidrule\n\\endhead\n\n",
           "\\sphinxbottomrule\n\\multicolumn{%d}{r}{\\sphinxnorowcolor\n    \\makebox[0pt][r]"
           "{\\sphinxtablecontinued{%s}}%%\n}\\\\\n\\endfoot\n\n\\endlastfoot\n"
           % (count, encode(_translate("continues on next page"))),
           "\\sphinxtableatstartofbodyhook\n"]
    rows = ["&".join(start + "\\sphinxAtStartPar\n" + cell_tex(kind, cell) + end
                     for kind, cell in zip(node["cells"], row)) + end_of_row
            for row, end_of_row in zip(node["rows"], row_ends(len(node["rows"])))]
    out.append("\\sphinxhline".join(rows))
    out.append("\\sphinxbottomrule\n\\end{longtable}\n\\sphinxtableafterendhook\n"
               "\\sphinxatlongtableend\n\\end{savenotes}\n")
    self.body.append("".join(out))
    raise nodes.SkipNode


def row_ends(count: int) -> list[str]:
    """How each of ``count`` rows ends: ``\\\\*`` (no page break after it) for the first two and the
    last two, so that no row stands alone under its header at a page's foot (the 摄's table after
    its heading) nor alone at the next page's head, and the table's foot never goes to a page of
    its own (its header repeated over no row); ``\\\\`` for the others."""
    kept = {0, 1, count - 2, count - 1}
    return ["\\\\*\n" if index in kept else "\\\\\n" for index in range(count)]


def _columns(translator, node: yl_datatable, form: _PrintForm) -> list[str]:
    """The node's column specs: those of its kind, computed for every kind at the first table the
    writer meets, in one walk of the book (the LaTeX writer's one document holds every page); a
    table outside that document is a kind of its own."""
    kinds = getattr(translator, "yl_table_columns", None)
    if kinds is None:
        tables: dict[tuple, list[yl_datatable]] = {}
        for table in translator.document.findall(yl_datatable):
            tables.setdefault(kind_of(table), []).append(table)
        kinds = translator.yl_table_columns = {kind: column_specs(print_widths(group, form.text))
                                               for kind, group in tables.items()}
    return kinds.get(kind_of(node)) or column_specs(print_widths([node], form.text))


def _translate(message: str) -> str:
    """A message of Sphinx's own catalogue (续下页), as its table template has it."""
    from sphinx.locale import _

    return _(message)


def as_table(node: yl_datatable, builder) -> nodes.table:
    """A docutils table of the node's data in print form (for the text, man and texinfo writers),
    each locus the link ``yl:cite`` resolves to (the text builder prints it ``*乡射礼3*``, man
    with its URI, texinfo as a ``@ref``, as they printed the list-tables' links)."""
    from sphinx.util.nodes import make_refnode


    form = _PrintForm(builder.config)
    targets = node.get("targets", {})
    table = nodes.table(classes=list(node["classes"]))
    group = nodes.tgroup(cols=len(node["cells"]))
    table += group
    group.extend(nodes.colspec(colwidth=width) for width in node["widths"])

    def entry(kind: str, cell) -> nodes.entry:
        text = cell_text(kind, cell, form.text)
        if kind == "cite" and cell:
            content = nodes.inline(text, text, classes=["xref", "yl", "yl-cite"])
            target = targets.get(cell[1])
            if target is not None:
                docname, anchor, tooltip = target
                link = make_refnode(builder, node.get("docname", ""), docname, anchor, content, tooltip)
                content = yl_cite("", "", link, anchor=anchor, cited=cell[1])
        else:
            content = nodes.Text(text)
        return nodes.entry("", nodes.paragraph("", "", content))

    def row(kinds, cells) -> nodes.row:
        return nodes.row("", *(entry(kind, cell) for kind, cell in zip(kinds, cells)))

    group += nodes.thead("", row(["text"] * len(node["header"]), node["header"]))
    group += nodes.tbody("", *(row(node["cells"], cells) for cells in node["rows"]))
    return table


def visit_datatable_table(self, node: yl_datatable) -> None:
    """text, man, texinfo: the builder's own table of the data."""
    as_table(node, self.builder).walkabout(self)
    raise nodes.SkipNode
