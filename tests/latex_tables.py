"""The rows of a LaTeX ``longtable`` as the data tables print them (数据表的 LaTeX 格): each cell's text
out of its ``varwidth`` (``test_tables.py``, ``test_tables_built.py``)."""
from __future__ import annotations

import re

# each cell ragged right (a narrow column of citations is never letter-spaced: 通 解 · 乡)
VARWIDTH = re.compile(r"\\begin\{varwidth\}\[t\]\{\\sphinxcolwidth\{1\}\{\d+\}\}\n\\raggedright\n(?:\\sphinxstyletheadfamily )?"
                      r"\\sphinxAtStartPar\n(.*)\n\\sphinxbeforeendvarwidth\n\\end\{varwidth\}%\n", re.S)


def latex_cells(tex: str) -> list[list[str]]:
    """The body rows of a longtable, cut at its unescaped ``&`` (``\\&`` is text), each cell's
    text taken out of its ``varwidth``."""
    body = tex.split("\\sphinxtableatstartofbodyhook\n", 1)[1].split("\\sphinxbottomrule\n\\end{longtable}")[0]
    rows = re.split(r"\\\\\*?\n\\sphinxhline", body)  # a row ends \\ or \\* (no page break after it)
    rows[-1] = re.sub(r"\\\\\*?\n$", "", rows[-1])
    return [[VARWIDTH.fullmatch(cell)[1] for cell in re.split(r"(?<!\\)&", row)] for row in rows]
