"""The rows of the 音义索引 (音义索引之行): the id of each row and the page it stands on.

The index of glosses is several pages (``conv.myst.backmatter.glosses``: one per 摄, the glosses no
position was found for, the classes listed apart). A gloss on a chapter page links to its row in
a table of class ``yl-gloss-index`` (``ROW_TARGETS``), whichever page that is: the rows' ids are
worked out from the table's data (:func:`row_ids`, the same for the HTML writer) and collected
while reading (``GlossRowsCollector``, parallel-safe) into ``env.yl_gloss_rows`` (row id →
docname). A gloss whose row no page holds gets no link.
"""
from __future__ import annotations

import hashlib

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector

from conv.sphinx_ext.nodes import yl_datatable

#: Tables whose rows are link targets: table class → (column of the printed gloss, column of
#: its ``cite``: ``[label, anchor]``).
ROW_TARGETS = {"yl-gloss-index": (1, 6)}


def setup_gloss_rows(app: Sphinx) -> None:
    app.add_env_collector(GlossRowsCollector)


def entry_id(anchor: str, printed: str) -> str:
    """The id of a gloss's row in the 音义索引: the passage (section, chapter) it stands in and the
    gloss as printed (``yin-judou-xiangshe-41-<8 hex digits>``; the same gloss twice in one
    passage: one row id, the first)."""
    return f"yin-{anchor}-{hashlib.sha1(printed.encode('utf-8')).hexdigest()[:8]}"


def row_ids(node: yl_datatable) -> list[str]:
    """The id of each row of a data table, ``""`` for a row that is no link target (a table of
    another class, a row citing no passage, a gloss a row before it on the page already holds)."""
    targets_of = next((ROW_TARGETS[c] for c in node["classes"] if c in ROW_TARGETS), None)
    if targets_of is None:
        return [""] * len(node["rows"])
    printed, cited = targets_of
    seen: set[str] = set()
    ids = []
    for row in node["rows"]:
        gloss = row[printed][0] if isinstance(row[printed], list) else row[printed]  # a witness cell: [text, keep …]
        row_id = entry_id(row[cited][1], gloss or "") if isinstance(row[cited], list) else ""
        ids.append("" if row_id in seen else row_id)
        seen.add(row_id)
    return ids


def rows_found(env: BuildEnvironment) -> dict[str, str]:
    """Row id → the docname of the page that holds the row."""
    if not hasattr(env, "yl_gloss_rows"):
        env.yl_gloss_rows = {}
    return env.yl_gloss_rows


class GlossRowsCollector(EnvironmentCollector):
    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        found = rows_found(env)
        for row_id in [r for r, page in found.items() if page == docname]:
            del found[row_id]

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: set[str],
                    other: BuildEnvironment) -> None:
        rows_found(env).update((r, page) for r, page in rows_found(other).items() if page in docnames)

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        found = rows_found(app.env)
        for table in doctree.findall(yl_datatable):
            found.update((row_id, app.env.docname) for row_id in row_ids(table) if row_id)
