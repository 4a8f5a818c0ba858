"""A chapter page (篇页): the model of one chapter → its MyST text (``conv/FORMAT.md``)."""
from __future__ import annotations

import bisect
from itertools import groupby

from conv import datafiles as data
from conv.analyses import stretches
from conv.analyses.text import occurrence_count
from conv.collate.forms import Emendation, traditional
from conv.model.tree import Chapter, Edition, Passage, Section, Segment, Work, text_offsets
from conv.myst.diagram import line as diagram_line
from conv.myst.escape import escape_inline, locus
from conv.normalize import fold
from conv.parser import gloss_remarks
from conv.reader.mandoku_lex import Page, chinese_number


def emended(text: str, offsets, start: int, end: int, emends: list[Emendation]) -> str:
    """Escaped ``text[start:end]`` with each emendation of its characters as a ``{yl:emend}`` role:
    ``{yl:emend}`防→䙝 <judou-xiangshe-151-jiao-1>``` (printed → adopted, the apparatus entry); a character the
    seed dropped is ``{yl:emend}`→𤣥 <…>``` before the character it stands before; a misprint of the
    witness's words, ``{yl:misprint}`閒→聞 <tongjie-zhongyong-77-jiao-1>```."""
    out, cursor = [], start
    for emendation in emends:
        at = bisect.bisect_left(offsets, emendation.start, start, end)
        if at >= end or offsets[at] != emendation.start or at < cursor:
            continue
        stop = at + len(emendation.printed)
        if text[at:stop] != emendation.printed or stop > end:
            continue
        entry = f" <{emendation.entry}>" if emendation.entry else ""
        out += [escape_inline(text[cursor:at]), f"{{yl:{emendation.role}}}`", emendation.printed, "→", emendation.adopted, entry, "`"]
        cursor = stop
    out.append(escape_inline(text[cursor:end]))
    return "".join(out)


def inline(segment_text: str, offsets: list[int], glosses, emends: list[Emendation] = ()) -> str:
    """Escaped text with each gloss wrapped in a ``{yl:gloss}`` role (a second reading 又… or a remark
    such as 揃同翦 in the same role as the gloss it follows, so the role's text always parses on its own). A gloss with
    characters restored from the 文渊阁 text (``Gloss.restored``) gives the restored form after the
    printed one: ``{yl:gloss}`个音干 <个音幹>```; one that prints no character gives the character it
    glosses, right before its note, in brackets: ``{yl:gloss}`苦穴反 [闋]```. Emendations outside the
    glosses: :func:`emended`."""
    out = []
    cursor = 0
    groups: list[list] = []
    for gloss in sorted(glosses, key=lambda g: g.span[1]):
        if gloss_remarks.attached(gloss) and groups and groups[-1][-1].span[2] <= gloss.span[1]:
            groups[-1].append(gloss)  # 纯之闰反又章允反, 挋之慎反揃同翦: a second reading or remark stays with its gloss
        else:
            groups.append([gloss])
    for group in groups:
        start = bisect.bisect_left(offsets, group[0].span[1])
        end = bisect.bisect_left(offsets, group[-1].span[2])
        piece = segment_text[start:end]
        if start < cursor or not piece or "`" in piece:
            continue
        out.append(emended(segment_text, offsets, cursor, start, emends))
        restored = piece
        for gloss in group:
            if gloss.restored:
                at = bisect.bisect_left(offsets, gloss.span[1]) - start
                restored = restored[:at] + gloss.restored + restored[at + len(gloss.restored):]
        out.append("{yl:gloss}`" + piece + (f" <{restored}>" if restored != piece else "")
                   + (f" [{group[0].char}]" if group[0].before else "") + "`")
        cursor = end
    out.append(emended(segment_text, offsets, cursor, len(segment_text), emends))
    return "".join(out)


class PageWriter:
    """Builds the MyST text of one chapter page."""

    def __init__(self, edition: Edition, work: Work, chapter: Chapter,
                 emends: dict[str, list[Emendation]] | None = None,
                 parallels: dict[str, tuple[list[str], list[str]]] | None = None) -> None:
        self.edition, self.work, self.chapter = edition, work, chapter
        self.emends = emends or {}  # seed → its emendations (conv.collate.forms), with their entries
        self.out: list[str] = []
        self.redirected: dict[str, list[str]] = {}  # target anchor → old anchors landing on it
        for redirect in edition.redirects:
            self.redirected.setdefault(redirect["to"], []).append(redirect["from"])
        self._parallels = parallels  # parallel_index(edition), shared by the pages of one edition
        self.prefix = f"{work.id}-{chapter.id}-"  # the anchors of its passages
        self.links: dict[str, list[tuple[int, str, str]]] = {}  # the 目録's titles (conv.edition.catalogue)
        self.listed: dict | None = None  # the 目録's line naming this chapter
        for entry in edition.catalogue:
            if entry["anchor"] and entry["passage"].startswith(self.prefix):
                self.links.setdefault(entry["passage"], []).append((entry["at"], entry["text"], entry["anchor"]))
            if self.listed is None and (entry["work"], entry["chapter"]) == (work.id, chapter.id):
                self.listed = entry

    def source(self, span) -> str:
        seed, start, _ = span
        return locus(seed, *self.edition.sources[seed].position(start))

    def emit(self, *lines: str) -> None:
        self.out.extend(lines)

    def redirects(self, anchor: str) -> None:
        """The ledger's redirects that land on ``anchor`` (right after its markup)."""
        for old in self.redirected.get(anchor, []):
            self.emit(f":::{{yl:redirect}} {old}", f":to: {anchor}", ":::", "")

    def trad(self, span, text: str, offsets) -> list[str]:
        """The ``:trad:`` option of a block of a collated seed: its text in the 文渊阁 forms
        (``conv.collate.forms.traditional``), when they differ from the seed's."""
        found = self.edition.collations.get(span[0]) if offsets is not None else None
        if found is None or not found.aligned:
            return []
        forms = traditional(found.collation, offsets, text)
        return [f":trad: {forms}"] if forms != text else []

    def words(self, span, text: str, links=()) -> tuple[list[str], str]:
        """The ``:trad:`` option and the escaped, emended line of a passage's or title's words;
        ``links`` (index, text, anchor): a 目録 title in ``{yl:cite}`士冠禮第一 <tongjie-shiguan>```,
        its characters as printed (``conv.edition.catalogue``: CJK only, nothing to escape)."""
        offsets = text_offsets(self.edition.sources[span[0]].text, span, text)
        if offsets is None:
            return [], escape_inline(text)
        emends = self.emends.get(span[0], [])
        out, cursor = [], 0
        for at, linked, anchor in links:
            out += [emended(text, offsets, cursor, at, emends), "{yl:cite}`", linked, f" <{anchor}>`"]
            cursor = at + len(linked)
        out.append(emended(text, offsets, cursor, len(text), emends))
        return self.trad(span, text, offsets), "".join(out)

    def segment(self, segment: Segment, fence: str = ":::") -> None:
        self.emit(f"{fence}{{yl:{segment.layer}}}")
        if segment.lacuna:
            self.emit(f":lacuna: {segment.lacuna}")
        self.emit(*self.trad(segment.span, segment.text, segment.offsets))
        self.emit(inline(segment.text, segment.offsets, segment.glosses, self.emends.get(segment.span[0], [])), fence, "")

    def figure(self, passage: Passage) -> None:
        """A diagram of the book (图): ``yl:diagram ANCHOR``, one line per printed column
        (``conv.myst.format.diagram_line``), then the redirects to it."""
        self.emit(f"::::{{yl:diagram}} {passage.id}", f":source: {self.source(passage.span)}",
                  *([f":page: {page_label(passage.page)}"] if passage.page else []), f":caption: {passage.caption}", "",
                  *(diagram_line(column) for column in passage.columns), "::::", "")
        self.redirects(passage.id)

    def passage(self, passage: Passage) -> None:
        if passage.columns:
            self.figure(passage)
            return
        if passage.joined:
            self.emit(f":::{{yl:lacuna}} join-{passage.joined}", ":::", "")
        self.emit(f"::::{{yl:passage}} {passage.id}", f":layer: {passage.layer}", f":source: {self.source(passage.span)}")
        if passage.page:
            self.emit(f":page: {page_label(passage.page)}")
        if passage.lacuna:
            self.emit(f":lacuna: {passage.lacuna}")
        if passage.on_marker:
            self.emit(f":on-marker: {passage.on_marker}")  # 記 or ○記 (conv.parser.passages.JI_MARK)
        if passage.kept:
            self.emit(f":keep: {passage.kept}")
        read_as = "".join(char + form for char, form in passage.forms.items() if char not in passage.kept_at)
        if read_as:  # 閒间: read in the form of its sense throughout (conv.analyses.senses)
            self.emit(f":read-as: {read_as}")
        if passage.kept_at:  # 徵2,4,5/5, 閒=间2/3: the occurrences read in that sense, of all
            self.emit(":keep-at: " + " ".join(_keep_at(passage, char) for char in passage.kept_at))
        trad, line = self.words(passage.span, passage.text, self.links.get(passage.id, ())) if passage.text else ([], "")
        self.emit(*trad)
        self.emit("")
        if passage.text:
            self.emit(line, "")
        for segment in passage.notes:
            self.segment(segment)
        self.emit("::::", "")
        self.redirects(passage.id)
        if self._parallels is None:
            self._parallels = parallel_index(self.edition)
        counterparts, see_also = self._parallels.get(passage.id, ([], [])) if passage.id.startswith(self.prefix) else ([], [])
        if counterparts or see_also:  # 互见 (conv.edition.parallels): after its passage
            self.emit(f":::{{yl:parallel}} {passage.id}",
                      *([f":counterparts: {' '.join(counterparts)}"] if counterparts else []),
                      *([f":see-also: {' '.join(see_also)}"] if see_also else []), ":::", "")

    def title(self, section: Section) -> None:
        if section.title_joined:
            self.emit(f":::{{yl:lacuna}} join-{section.title_joined}", ":::", "")
        trad, line = self.words(section.title_span, section.title)
        self.emit(f"::::{{yl:title}} {section.id}", *(trad + [""] if trad else []), line, "")
        for segment in section.title_notes:
            self.segment(segment)
        self.emit("::::", "")

    def heading(self, section: Section) -> str:
        """The navigation heading: the title without its 右/记 marker, in normalized form (it goes
        into the table of contents, where the diplomatic/normalized switch cannot reach it); the
        printed title stays in the ``yl:title`` directive."""
        if section.title:
            return fold(section.title[1:] if section.marker in ("右", "记") else section.title)
        opening = (data.chapter_of(self.work.id, self.chapter.id) or {}).get("opening")
        if opening and section.passages and all(p.layer not in ("jing", "ji") for p in section.passages):
            return opening  # the 提要, the 序, the preface of the collation notes: no 章 of their own
        opening = next((p.normalized for p in section.passages if p.text), "")
        return f"〔{opening[:8]}…〕" if opening else "〔阙〕"

    def section(self, section: Section) -> None:
        self.emit(f"({section.id})=", f"## {escape_inline(self.heading(section))}", "")
        self.redirects(section.id)
        pending_title = section.title is not None
        for passage in section.passages:
            if pending_title and passage.span[0] == section.title_span[0] and passage.span[1] > section.title_span[1]:
                self.title(section)
                pending_title = False
                if section.ji_marker:
                    self.emit(":::{yl:meta} ji-marker", escape_inline(section.ji_marker.text), ":::", "")
            self.passage(passage)
        if pending_title:
            self.title(section)

    def page(self) -> str:
        chapter = self.chapter
        self.emit(f"({self.work.id}-{chapter.id})=", f"# {escape_inline(chapter.title)}", "")
        self.redirects(f"{self.work.id}-{chapter.id}")
        witnesses = stretches.line(chapter)
        if witnesses:  # which stretch comes from which witness (the join marks stand in the text)
            self.emit(":::{yl:meta} witnesses", escape_inline(witnesses), ":::", "")
        if chapter.lost and not any(kind == "meta" and item.kind == "lost" for kind, item in chapter.order):
            self.emit(":::{yl:lacuna} lost", ":::", "")  # listed in the book, printed nowhere (卜筮)
            listed = self.listed
            if listed:  # where the book lists it
                page = f"（{page_label(listed['page'])}）" if listed["page"] else ""
                line = f"{{yl:cite}}`目录 <{listed['passage']}>`有此篇{page}，正文无。"
                self.emit(":::{yl:meta} witnesses", line, ":::", "")
        for kind, item in chapter.order:
            if kind == "meta":
                self.emit(f":::{{yl:meta}} {item.kind}", escape_inline(item.text), ":::", "")
            elif kind == "heading":
                self.emit("::::{yl:chaptertitle}", escape_inline(chapter.heading), "")
                for segment in chapter.mulu:
                    self.segment(segment)
                self.emit("::::", "")
            elif kind == "lacuna":
                self.emit(f":::{{yl:lacuna}} {item}", ":::", "")
            elif kind == "section":
                self.section(item)
        return "\n".join(self.out).rstrip("\n") + "\n"


def parallel_index(edition: Edition) -> dict[str, tuple[list[str], list[str]]]:
    """Passage anchor → its counterparts in the other work and its 参见 passages (互见), each in
    the order of the links, once: one pass over the links for all the pages."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for link in edition.parallels:
        kind = link["kind"]
        if kind == "counterpart":
            ends = (link["base"], link["other"])
        elif kind == "see-also":
            ends = (link["a"], link["b"])
        else:
            continue
        for mine, theirs in (ends, ends[::-1]):
            chosen = out.setdefault(mine, ([], []))[0 if kind == "counterpart" else 1]
            if theirs not in chosen:
                chosen.append(theirs)
    return out


def work_index(work: Work) -> str:
    info = next(w for w in data.works() if w["id"] == work.id)
    lines = [f"({work.id})=", f"# {escape_inline(work.title)}", "", escape_inline(f"{info['author']}撰"), ""]
    parts = {part["id"]: part["name"] for part in data.tongjie_parts()}
    groups = [(part, [f"{chapter_label(c.number, c.title, bool(c.lost), data.apart(work.id, c.id))} <{c.id}>"
                      for c in chapters])
              for part, chapters in groupby(work.chapters, key=lambda c: c.part)]
    for number, (part, entries) in enumerate(groups):  # the 通解's parts (家礼 …) each under its caption
        caption = [f":caption: {parts[part]}"] if part in parts else []
        lines += ["" if number else None, "```{toctree}", *caption, ":maxdepth: 1", "", *entries, "```"]
    return "\n".join(line for line in lines if line is not None) + "\n"


def chapter_label(number: int, name: str, lost: bool = False, apart: bool = False) -> str:
    """A 篇 as the navigation lists it, numbered in its work: ``第一　士冠礼``, ``第二十五　书数（阙）``;
    the front matter (number 0) and a chapter outside the 篇 (``apart``: 监本正误): its name alone."""
    label = f"第{chinese_number(number)}　{name}" if number and not apart else name
    return label + ("（阙）" if lost else "")


def page_label(page: dict) -> str:
    """``{"juan": 5, "leaf": 15, "side": "b"}`` → ``卷五叶十五b``."""
    return Page(**page).label()


def _keep_at(passage, char: str) -> str:
    """A ``keep-at`` token (``conv/FORMAT.md``): the character, ``=`` and the form it reads when not itself, the
    ordinals, and how many the passage holds."""
    form = f"={passage.forms[char]}" if char in passage.forms else ""
    count = occurrence_count(passage, char)
    return f"{char}{form}{','.join(map(str, passage.kept_at[char]))}/{count}"
