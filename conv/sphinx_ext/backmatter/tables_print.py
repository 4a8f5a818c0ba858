"""Data tables in print (数据表之印本): ``yl:datatable`` for LaTeX, text, man and texinfo, and the
cells as every writer reads them (``conv.sphinx_ext.backmatter.tables`` reads the directive and
writes HTML)."""
from __future__ import annotations

from docutils import nodes

from conv.sphinx_ext.nodes import yl_cite, yl_datatable
from conv.sphinx_ext.text.chars import char_node
from conv.normalize import is_pua

#: What an empty cell shows.
EMPTY = "—"


def witness_cell(cell) -> tuple[str, str]:
    """``(text, keep)`` of a witness cell: a string, or ``[text, keep]``."""
    if isinstance(cell, str):
        return cell, ""
    return cell[0], "".join(char for char in cell[1] if not is_pua(char))  # a PUA code point is never shown raw


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

    def text(self, text: str, keep: str = "") -> str:
        if keep:
            return "".join(char if char in keep else self.char(char) for char in text)
        return "".join(map(self.char, text))


def visit_datatable_latex(self, node: yl_datatable) -> None:
    """A ``longtable`` in Sphinx's table style, its cells as Sphinx writes a table's (each in a
    ``varwidth``: ragged lines, tight rows); the header is repeated on every page."""
    encode = self.encode
    form = _PrintForm(self.config)
    targets = node.get("targets", {})
    pagerefs = self.config.latex_show_pagerefs
    count, total = len(node["cells"]), sum(node["widths"])
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
    out = ["\n\\begin{savenotes}\n\\sphinxatlongtablestart\n\\sphinxthistablewithglobalstyle\n",
           "\\makeatletter\n  \\LTleft \\@totalleftmargin plus1fill\n"
           "  \\LTright\\dimexpr\\columnwidth-\\@totalleftmargin-\\linewidth\\relax plus1fill\n"
           "\\makeatother\n",
           "\\begin{longtable}{%s}\n" % "".join(r"\X{%d}{%d}" % (w, total) for w in node["widths"]),
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
                     for kind, cell in zip(node["cells"], row)) + "\\\\\n" for row in node["rows"]]
    out.append("\\sphinxhline".join(rows))
    out.append("\\sphinxbottomrule\n\\end{longtable}\n\\sphinxtableafterendhook\n"
               "\\sphinxatlongtableend\n\\end{savenotes}\n")
    self.body.append("".join(out))
    raise nodes.SkipNode


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
