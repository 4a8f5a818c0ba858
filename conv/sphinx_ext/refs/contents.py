"""The contents of a work (篇目): ``yl:contents WORK`` lists its 篇 in the book's order.

The front page names every 篇 of both works, each a link to its page, in the work's own order: the
句读's seventeen; the 通解's five parts (家礼 … 王朝礼), each a line of its numbered 篇, a lost one
marked 阙. The order, numbers and parts are the converter's tables (``conv/data/chapters.toml``,
``tongjie_chapters.toml``); a 篇 is listed when its page is in the project, so the small edition of
the seeds (``yl_edition = "seeds"``) lists the 篇 it has and refers to no page it lacks::

    +-- paragraph (yl-contents)            one per part (the 句读: one)
        +-- strong "家礼"                   the part's name, the 通解 only
        +-- pending_xref (std:doc) "第一　士冠礼"  "、" between them; a lost one "第二十五　书数（阙）"

The links are ``std:doc`` references, resolved like ``{doc}`` (HTML and LaTeX alike). When pages
come or go (another edition converted), the pages with the directive are read again
(``env-get-outdated``).
"""
from __future__ import annotations

from itertools import groupby

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from conv import datafiles as data
from conv.myst.chapter import chapter_label


def setup_contents(app: Sphinx) -> None:
    app.add_directive_to_domain("yl", "contents", ContentsDirective)
    app.connect("env-get-outdated", reread_contents)


class ContentsDirective(SphinxDirective):
    """``yl:contents judou|tongjie``: the work's 篇, one line per part."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        work = self.arguments[0]
        if work not in {w["id"] for w in data.works()}:
            raise self.error(f"yl:contents: unknown work {work!r} (known: {', '.join(w['id'] for w in data.works())})")
        self.env.metadata[self.env.docname]["yl-contents"] = "1"
        parts = {part["id"]: part["name"] for part in data.tongjie_parts()}
        found = self.env.found_docs
        out = []
        for part, chapters in groupby(data.chapters_of(work), key=lambda info: info.get("part") or ""):
            present = [info for info in chapters if f"{work}/{info['id']}" in found]
            if not present:
                continue
            line = nodes.paragraph(classes=["yl-contents"])
            if part in parts:
                line += nodes.strong(text=f"{parts[part]}　")
            for number, info in enumerate(present):
                if number:
                    line += nodes.Text("、")
                ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget=f"/{work}/{info['id']}",
                                            refexplicit=True, refwarn=True, refdoc=self.env.docname)
                lost = bool(info.get("lost") or info.get("absent"))
                ref += nodes.inline(text=chapter_label(info["number"], info["name"], lost, data.apart(work, info["id"])))
                line += ref
            self.set_source_info(line)
            out.append(line)
        return out


def reread_contents(app: Sphinx, env, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """Pages come or go: the pages listing the contents are read again."""
    if not (added or removed):
        return []
    return [docname for docname, meta in env.metadata.items()
            if meta.get("yl-contents") and docname not in removed and docname not in changed]
