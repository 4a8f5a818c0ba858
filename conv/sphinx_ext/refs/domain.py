"""The ``yl`` domain (仪礼域): the namespace of the edition's directives and roles, and the record
of its anchors, which it makes citable objects.

Components register their directives and roles into it (``app.add_directive_to_domain("yl",
…)``). The domain data hold every passage and section anchor with its document and a title,
the redirected anchors and the entries of the 校勘记::

    passages:  {anchor: {"docname", "layer", "title" (opening words, reading text)}}
    sections:  {anchor: {"docname", "title" (the heading), "printed" (the witness's 右… line or
                None), "level" (1 = the chapter)}}
    redirects: {old anchor: {"docname" (the page of its target), "to" (the target anchor)}}
    entries:   {entry id: {"docname", "title" (乡射礼18校1, as it is cited), "locus" (its passage)}}

Object types (``get_objects``, so they land in ``objects.inv``): ``passage``, ``section`` and
``chapter`` (a level-1 section of a page of the text: with passages, or a lost 篇's), each named
by its anchor, priority 1, with the display name ``《句读·乡射礼》司马出于下射之南还其后降…`` (work
and chapter, then the opening words in the reading text, or the section heading). A redirected
anchor is an object of its target's type with priority -1, pointing at the target (the old id is
on the target's node too, see ``conv.sphinx_ext.refs.cite``). An ``entry`` of the 校勘记 (its id,
``judou-xiangshe-18-jiao-1``; display name ``句读·乡射礼18校1``) has priority -1: citable, and
left out of the search's results, which find its words on its page.

The role ``yl:cite`` (all four types) resolves an anchor, following redirects (``{any}`` finds
them as the ``std`` labels they also are). A cite with no explicit text shows the display name;
the link's tooltip is the full citation (``citation``). An unknown anchor is a ``yl.cite``
warning at the citing file:line.

The data merge across parallel readers (``merge_domaindata``); a duplicate anchor is a warning
(``yl.anchor``).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole
from sphinx.util.nodes import make_refnode

from conv import datafiles as data
from conv.sphinx_ext.util import replace_node, warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.sphinx_ext.nodes import yl_cite
from conv.sphinx_ext.text.chars import private_chars, private_text
from conv.normalize import PUA_PATTERN

#: An anchor's work and chapter: ``judou-xiangshe``, ``judou-xiangshe-12``, ``judou-xiangshe-s3``.
ANCHOR_PARTS = re.compile(r"(?P<work>[a-z][a-z0-9]*)-(?P<chapter>[a-z][a-z0-9]*)(?:-s?[1-9][0-9]*)?")
#: Redirect chains longer than this are a cycle (the converter resolves them to the end anyway).
MAX_REDIRECTS = 20
#: The domain's tables, each {anchor: {"docname", …}} (the module docstring).
TABLES = ("passages", "sections", "redirects", "entries")


def setup_domain(app: Sphinx) -> None:
    app.add_domain(YiliDomain)


@dataclass(frozen=True)
class Target:
    """What an anchor names: ``kind`` (passage/section/chapter), its ``anchor``, page and titles;
    ``cited`` is the anchor as cited (an old one when it was redirected)."""

    kind: str
    anchor: str
    docname: str
    title: str
    cited: str
    work: str = ""  # the work's full title (仪礼郑注句读)
    short: str = ""  # its short name (句读)
    chapter: str = ""  # the chapter's name (乡射礼)
    page: str = ""  # the 文渊阁 page where it starts (卷五叶十五b)

    @property
    def redirected(self) -> bool:
        return self.cited != self.anchor

    @property
    def where(self) -> str:
        """``《句读·乡射礼》`` (or ``""`` outside the edition's works)."""
        return where_label(self.short, self.chapter)

    @property
    def dispname(self) -> str:
        """The short citation: ``《句读·乡射礼》司马出于下射之南还其后降…`` (link text, objects.inv)."""
        if self.kind == "chapter" and self.where:
            return self.where
        if self.kind == "entry":  # 句读·乡射礼18校1: as the 校勘记 says to cite it
            return f"{self.short}·{self.title}" if self.short else self.title
        return (self.where + self.title) or self.anchor

    @property
    def citation(self) -> str:
        """The full citation without the URL: ``《仪礼郑注句读·乡射礼》“司马出于…”，judou-xiangshe-12``."""
        parts = [p for p in (self.work, self.chapter) if p]
        where = f"《{'·'.join(parts)}》" if parts else ""
        if self.kind == "chapter":
            text = where or self.title
        elif self.kind == "entry":
            text = (f"《{self.work}》校勘记" if self.work else "") + self.title
        elif self.kind == "section":
            text = where + (self.title or "")
        else:
            text = where + (f"“{self.title}”" if self.title else "")
        if self.page:
            text += f"（文渊阁本{self.page}）"
        return f"{text}，{self.anchor}" if text else self.anchor


@lru_cache(maxsize=None)
def work_and_chapter(anchor: str) -> tuple[str, str, str]:
    """(work title, short name, chapter name) of an edition anchor, from ``conv/data``; empty
    strings for what the anchor does not name. Cached: the data files do not change during a
    build, and the indices ask for the same anchors again and again."""
    match = ANCHOR_PARTS.fullmatch(anchor)
    if match is None:
        return "", "", ""
    return _work_and_chapter(match["work"], match["chapter"])


@lru_cache(maxsize=None)
def _work_and_chapter(work_id: str, chapter_id: str) -> tuple[str, str, str]:
    work = next((w for w in data.works() if w["id"] == work_id), None)
    chapter = data.chapter_of(work_id, chapter_id)
    if work is None or chapter is None:
        return "", "", ""
    return work["title"], data.work_short(work["id"]), chapter["name"]


def page_title(env, docname: str) -> str:
    """A page as a list of pages names it (a search result, the window's title): a 篇 of a work
    (``<work>/<chapter>``, the converter's layout) with the work's short name, as a citation names
    it (句读·士冠礼: both works have a 士冠礼); any other page by its title."""
    title = env.titles[docname].astext() if docname in env.titles else docname
    work, _, page = docname.partition("/")
    if page and page != "index" and any(w["id"] == work for w in data.works()):
        return f"{data.work_short(work)}·{title}"
    return title


def where_label(short: str, chapter: str) -> str:
    """``《句读·乡射礼》`` from the work's short name and the chapter (``Target.where``)."""
    parts = [p for p in (short, chapter) if p]
    return f"《{'·'.join(parts)}》" if parts else ""


class YiliDomain(Domain):
    name = "yl"
    label = "仪礼"
    object_types = {
        "passage": ObjType("段落", "cite"),
        "section": ObjType("章", "cite"),
        "chapter": ObjType("篇", "cite"),
        "entry": ObjType("校勘记条目", "cite"),
    }
    directives: dict = {}
    roles: dict = {"cite": XRefRole(innernodeclass=nodes.inline, warn_dangling=True)}
    initial_data: dict[str, dict] = {"passages": {}, "sections": {}, "redirects": {}, "entries": {}}
    data_version = 3
    dangling_warnings = {"cite": "yl:cite: unknown anchor %(target)s"}

    @property
    def passages(self) -> dict[str, dict[str, Any]]:
        return self.data.setdefault("passages", {})

    @property
    def sections(self) -> dict[str, dict[str, Any]]:
        return self.data.setdefault("sections", {})

    @property
    def redirects(self) -> dict[str, dict[str, Any]]:
        return self.data.setdefault("redirects", {})

    @property
    def entries(self) -> dict[str, dict[str, Any]]:
        return self.data.setdefault("entries", {})

    # -- recording (while reading) -----------------------------------------------------------
    def note_passage(self, anchor: str, docname: str, layer: str, title: str,
                     location: object = None, page: str = "") -> None:
        entry = {"docname": docname, "layer": layer, "title": title}
        if page:
            entry["page"] = page  # 卷五叶十五b: the 文渊阁 page where it starts
        self._note("passages", anchor, entry, location)

    def note_section(self, anchor: str, docname: str, title: str, printed: str | None,
                     level: int = 2, location: object = None) -> None:
        entry = {"docname": docname, "title": title, "printed": printed, "level": level}
        self._note("sections", anchor, entry, location)

    def note_entry(self, entry_id: str, docname: str, title: str, locus: str, location: object = None) -> None:
        """An entry of the 校勘记 (``yl:app``): ``title`` as it is cited (乡射礼18校1), ``locus`` the
        anchor of its passage."""
        self._note("entries", entry_id, {"docname": docname, "title": title, "locus": locus}, location)

    def note_redirect(self, old: str, docname: str, to: str, location: object = None) -> None:
        """``old`` no longer names anything: its citations land on ``to`` (on page ``docname``)."""
        for kind in ("passages", "sections"):
            other = self.data.setdefault(kind, {}).get(old)
            if other is not None:
                warn(f"redirected anchor {old!r} still names a {kind[:-1]} in {other['docname']}",
                     YlWarning.ANCHOR, location)
        self._note("redirects", old, {"docname": docname, "to": to}, location)

    def _note(self, kind: str, anchor: str, entry: dict, location: object) -> None:
        self._changed()
        table = self.data.setdefault(kind, {})
        other = table.get(anchor)
        if other is not None and other["docname"] != entry["docname"]:
            warn(f"duplicate anchor {anchor!r}: also in {other['docname']}", YlWarning.ANCHOR, location)
        table[anchor] = entry

    def clear_doc(self, docname: str) -> None:
        self._changed()
        for kind in TABLES:
            table = self.data.setdefault(kind, {})
            for anchor in [a for a, e in table.items() if e["docname"] == docname]:
                del table[anchor]

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:
        self._changed()
        for kind in TABLES:
            table = self.data.setdefault(kind, {})
            for anchor, entry in otherdata.get(kind, {}).items():
                if entry["docname"] not in docnames:
                    continue
                other = table.get(anchor)
                if other is not None and other["docname"] != entry["docname"]:
                    warn(f"duplicate anchor {anchor!r}: in {other['docname']} and "
                         f"{entry['docname']}", YlWarning.ANCHOR, (entry["docname"], None))
                table[anchor] = entry

    # -- looking up --------------------------------------------------------------------------
    def _chapter_of(self, docname: str) -> str:
        """The title of the chapter (level-1 section) on ``docname``, if it has one."""
        for entry in self.sections.values():
            if entry["docname"] == docname and entry.get("level") == 1:
                return entry["title"]
        return ""

    def _target(self, anchor: str, cited: str) -> Target | None:
        """The live passage, section, chapter or 校勘记 entry ``anchor`` (no redirects)."""
        entry = self.passages.get(anchor)
        kind = "passage"
        if entry is None:
            entry = self.sections.get(anchor)
            kind = "chapter" if entry and entry.get("level") == 1 else "section"
        if entry is None:
            entry = self.entries.get(anchor)
            if entry is None:
                return None
            work, short, _ = work_and_chapter(entry["locus"])
            return Target("entry", anchor, entry["docname"], entry["title"], cited, work, short)
        work, short, chapter = work_and_chapter(anchor)
        if not chapter:
            chapter = self._chapter_of(entry["docname"])
        title = entry.get("title") or ""
        return Target(kind, anchor, entry["docname"], title, cited, work, short, chapter, entry.get("page", ""))

    def find(self, anchor: str) -> Target | None:
        """What ``anchor`` names, following redirects; ``None`` for an unknown anchor."""
        current = anchor
        for _ in range(MAX_REDIRECTS):
            found = self._target(current, anchor)
            if found is not None:
                return found
            redirect = self.redirects.get(current)
            if redirect is None:
                return None
            current = redirect["to"]
        return None

    def anchors(self) -> list[str]:
        """Every anchor that resolves: live ones and redirected ones."""
        return [*self.passages, *self.sections, *self.redirects]

    # -- objects.inv and cross-references ----------------------------------------------------
    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        """Every passage, section and chapter, then the redirected anchors (see the module).

        Tens of thousands of objects, asked for several times per build (the search index,
        ``objects.inv``): made once while the data stay the same (``_changed`` forgets them),
        the live anchors' display names computed without a ``Target`` each."""
        objects = getattr(self, "_objects", None)
        if objects is None:
            objects = self._objects = list(self._make_objects())
        return iter(objects)

    def _changed(self) -> None:
        self._objects = None

    def _make_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        chapters: dict[str, str] = {}  # docname → its chapter's title (anchors outside the works)
        for kind_of, table in ((None, self.passages), (True, self.sections)):
            for anchor, entry in table.items():
                docname = entry["docname"]
                kind = "passage" if kind_of is None else (
                    "chapter" if entry.get("level") == 1 else "section")
                _, short, chapter = work_and_chapter(anchor)
                if not chapter:
                    if docname not in chapters:
                        chapters[docname] = self._chapter_of(docname)
                    chapter = chapters[docname]
                where = where_label(short, chapter)
                if kind == "chapter" and where:
                    dispname = where
                else:
                    dispname = (where + (entry.get("title") or "")) or anchor
                yield anchor, dispname, kind, docname, anchor, 1
        for old in self.redirects:
            target = self.find(old)
            if target is not None:
                yield old, target.dispname, target.kind, target.docname, target.anchor, -1
        for entry_id in self.entries:  # citable, in objects.inv; not in the search's results (-1)
            target = self._target(entry_id, entry_id)
            yield entry_id, target.dispname, "entry", target.docname, entry_id, -1

    def get_full_qualified_name(self, node: nodes.Element) -> str | None:
        return node.get("reftarget")

    def reference(self, builder, fromdocname: str, target: Target, node: nodes.Element,
                  contnode: nodes.Element) -> nodes.Element:
        """The resolved citation: a ``yl_cite`` around the link to the target."""

        if not node.get("refexplicit"):
            text = target.dispname
            contnode = nodes.inline(text, text, classes=contnode.get("classes", []))
        for text in list(contnode.findall(nodes.Text)):  # a quoted character Unicode lacks: 〓, as in the text
            if PUA_PATTERN.search(text):
                replace_node(text, private_chars(str(text)))
        tooltip = private_text(target.citation) + (f"（原锚点 {target.cited}）" if target.redirected else "")
        ref = make_refnode(builder, fromdocname, target.docname, target.anchor, contnode, tooltip)
        return yl_cite("", "", ref, anchor=target.anchor, cited=target.cited, kind=target.kind)

    def resolve_xref(self, env, fromdocname: str, builder, typ: str, target: str,
                     node, contnode: nodes.Element) -> nodes.Element | None:
        found = self.find(target)
        if found is None or (typ != "cite" and typ in self.object_types and found.kind != typ):
            return None
        return self.reference(builder, fromdocname, found, node, contnode)

    def resolve_any_xref(self, env, fromdocname: str, builder, target: str, node,
                         contnode: nodes.Element) -> list[tuple[str, nodes.Element]]:
        found = self.find(target)
        if found is None or target in env.domains.standard_domain.labels:
            return []  # every anchor is a std label too: {any} takes that, unambiguously
        return [("yl:cite", self.reference(builder, fromdocname, found, node, contnode))]


def close_anchors(anchor: str, known: Iterable[str], count: int = 3) -> list[str]:
    """Known anchors that look like ``anchor`` (for the unknown-anchor message)."""
    import difflib

    return difflib.get_close_matches(anchor, list(known), n=count, cutoff=0.75)
