"""The ``yl`` domain (仪礼域): the namespace of the edition's directives and roles, and the record
of its anchors.

Components register their directives and roles into it (``app.add_directive_to_domain("yl",
…)``). The domain data hold every passage and section anchor with its document and a title::

    passages: {anchor: {"docname", "layer", "title" (opening words, reading text), "lineno"}}
    sections: {anchor: {"docname", "title" (the heading), "printed" (the witness's 右… line or
               None), "level" (1 = chapter)}}

so that anchor objects, ``objects.inv`` and cross-references can be built on them. The data
merge across parallel readers (``merge_domaindata``); a duplicate anchor is a warning
(``yl.anchor``).
"""
from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.domains import Domain

from .common import warn


def setup_domain(app: Sphinx) -> None:
    app.add_domain(YiliDomain)


class YiliDomain(Domain):
    name = "yl"
    label = "仪礼"
    directives: dict = {}
    roles: dict = {}
    initial_data: dict[str, dict] = {"passages": {}, "sections": {}}
    data_version = 1

    @property
    def passages(self) -> dict[str, dict[str, Any]]:
        return self.data.setdefault("passages", {})

    @property
    def sections(self) -> dict[str, dict[str, Any]]:
        return self.data.setdefault("sections", {})

    def note_passage(self, anchor: str, docname: str, layer: str, title: str,
                     location: object = None) -> None:
        self._note("passages", anchor, {"docname": docname, "layer": layer, "title": title}, location)

    def note_section(self, anchor: str, docname: str, title: str, printed: str | None,
                     level: int = 2, location: object = None) -> None:
        entry = {"docname": docname, "title": title, "printed": printed, "level": level}
        self._note("sections", anchor, entry, location)

    def _note(self, kind: str, anchor: str, entry: dict, location: object) -> None:
        table = self.data.setdefault(kind, {})
        other = table.get(anchor)
        if other is not None and other["docname"] != entry["docname"]:
            warn(f"duplicate anchor {anchor!r}: also in {other['docname']}", "anchor", location)
        table[anchor] = entry

    def clear_doc(self, docname: str) -> None:
        for kind in ("passages", "sections"):
            table = self.data.setdefault(kind, {})
            for anchor in [a for a, e in table.items() if e["docname"] == docname]:
                del table[anchor]

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:
        for kind in ("passages", "sections"):
            table = self.data.setdefault(kind, {})
            for anchor, entry in otherdata.get(kind, {}).items():
                if entry["docname"] not in docnames:
                    continue
                other = table.get(anchor)
                if other is not None and other["docname"] != entry["docname"]:
                    warn(f"duplicate anchor {anchor!r}: in {other['docname']} and "
                         f"{entry['docname']}", "anchor", (entry["docname"], None))
                table[anchor] = entry
