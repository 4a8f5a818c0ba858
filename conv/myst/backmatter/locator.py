"""Where an entry belongs (定位): seed spans → the passage, section title or chapter title
that holds them; and the shared helpers of the back matter's tables."""
from __future__ import annotations

import bisect
import json
from dataclasses import dataclass

from conv import datafiles as data
from conv.analyses import senses
from conv.analyses.text import passages
from conv.model.tree import Chapter, Edition, Work, is_markup, text_char_offsets
from conv.myst.chapter import PageWriter
from conv.myst.escape import locus

DIR = "apparatus"

#: Chinese names of the apparatus kinds, in the order of the page's sections.
KIND_NAMES = {
    "correction": "校改",
    "collation": "对校（文渊阁本）",
    "pua": "私用区字",
    "unencoded": "文渊阁本外字（Unicode 未收）",
    "spurious": "衍字（私用区码位）",
    "page-break-note": "注文跨页接合",
    "page-break-text": "经文跨页接合",
    "lacuna-chapter-start": "节录始于篇中",
    "lacuna-start": "底本始于注中",
    "lacuna-end": "底本止于注中",
    "lacuna-chapter-end": "节录止于篇中",
    "dropped": "删除（非底本文字）",
    "witness-join": "底本转换（录入本与文渊阁本相接）",
    "restoration": "简体合并之字",
    "misprint": "讹字",
    "zhang-jianben": "张尔岐《监本正误》",
    "zhang-shiben": "张尔岐《石本误字》",
    "parallel": "句读本与通解本（异文、移易）",
    "note-words": "注文录作大字（括号外小字）",
    "unknown": "其他",
}
#: Sections of an apparatus page: (anchor suffix, heading, kinds).
SECTIONS = (
    ("corrections", "校改", ("correction",)),
    ("collation", "对校", ("collation",)),
    ("pua", "私用区字与外字", ("pua", "spurious", "unencoded")),
    ("page-breaks", "跨页接合", ("page-break-note", "page-break-text")),
    ("lacunae", "节录起讫与残缺", ("lacuna-chapter-start", "lacuna-start", "lacuna-end", "lacuna-chapter-end")),
    ("dropped", "删除", ("dropped",)),
    ("joins", "底本转换", ("witness-join",)),
    ("restorations", "简体合并之字", ("restoration",)),
    ("misprints", "讹字", ("misprint",)),
    ("zhang-jianben", "张尔岐《监本正误》", ("zhang-jianben",)),
    ("zhang-shiben", "张尔岐《石本误字》", ("zhang-shiben",)),
    ("parallels", "句读本与通解本", ("parallel",)),
    ("note-words", "注文录作大字", ("note-words",)),
)
#: 张尔岐's own collation notes (conv/edition/errata.py): listed under each 篇 they name.
ERRATA_KINDS = ("zhang-jianben", "zhang-shiben")
_BEFORE = {"lacuna-end", "lacuna-chapter-end", "dropped"}  # belong to what precedes them
PUA_KINDS = {"quebi": "缺笔", "variant": "异体", "spurious": "衍字", "unidentified": "未识字"}
#: Collation classes (conv.collate) as the 校勘记 names them.
COLLATION_CLASSES = {"placeholder": "代字", "substantive": "异文", "pua": "私用区字", "orthographic": "异体"}
GLOSS_KINDS = {"fanqie": "反切", "zhiyin": "直音", "ruzi": "如字", "other": "其他"}
STATUS_NAMES = {"matches": "合于本字", "other reading": "他字之音", "system difference": "音系差异",
                "suspect": "疑讹", "lost character": "录入失字", "unresolved": "未能推定"}
GLOSSARY_FORMS = {"you": "X犹Y也", "wei": "X谓Y", "ye": "X，Y也", "zhe": "X者，Y也"}
TRADITION_LABEL = "异"
INTERVENTION_LABEL = "校"



@dataclass(frozen=True)
class Locus:
    """A place in the text an entry refers to: a passage, a section title or a chapter title."""

    anchor: str
    kind: str  # passage | section | chapter
    work: Work
    chapter: Chapter
    label: str  # 乡射礼76, 乡射礼·司射诱射, 燕礼
    chapter_index: int  # the chapter's place in the work

    @property
    def full_label(self) -> str:
        """The label with the work's short name, for pages that mix works (句读·乡射礼76)."""
        return f"{data.work_short(self.work.id, self.work.title)}·{self.label}"


def passage_number(anchor: str) -> str:
    return anchor.rsplit("-", 1)[-1]


class Locator:
    """Seed spans → the loci (passages, section titles, chapter titles) that hold them."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.spans: dict[str, list[tuple[int, int, Locus]]] = {}
        self._indexes: dict[str, _SpanIndex] = {}
        self.loci: dict[str, Locus] = {}
        for work in edition.works:
            for index, chapter in enumerate(work.chapters):
                chapter_locus = self._locus(f"{work.id}-{chapter.id}", "chapter", work, chapter, chapter.title, index)
                self._add(chapter.heading_span, chapter_locus)
                for item in [*chapter.mulu, *chapter.meta]:
                    self._add(item.span, chapter_locus)
                heading = PageWriter(edition, work, chapter).heading
                for section in chapter.sections:
                    section_locus = self._locus(section.id, "section", work, chapter,
                                                f"{chapter.title}·{heading(section)}", index)
                    self._add(section.title_span, section_locus)
                    for item in [*section.title_notes, *([section.ji_marker] if section.ji_marker else [])]:
                        self._add(item.span, section_locus)
                    for passage in section.passages:
                        locus = self._locus(passage.id, "passage", work, chapter,
                                            f"{chapter.title}{passage_number(passage.id)}", index)
                        for item in [passage, *passage.notes]:
                            self._add(item.span, locus)

    def _locus(self, anchor: str, *args) -> Locus:
        locus = self.loci[anchor] = Locus(anchor, *args)
        return locus

    def _add(self, span, locus: Locus) -> None:
        if span:
            self.spans.setdefault(span[0], []).append((span[1], span[2], locus))

    def overlapping(self, span, kind: str) -> Locus | None:
        """The first locus of ``kind`` whose element overlaps ``span`` (a corrected section title)."""
        seed, start, end = span
        found = [item for item in self.spans.get(seed, []) if item[2].kind == kind
                 and item[0] < max(end, start + 1) and start < item[1]]
        return min(found, key=lambda item: item[0])[2] if found else None

    def find(self, span, before: bool = False) -> Locus | None:
        """The locus whose element holds ``span``'s start (the innermost); else the next one, or
        with ``before`` the previous one (then the other way round). Ties go to the element
        added first."""
        seed, start = span[0], span[1]
        index = self._indexes.get(seed)
        if index is None:
            items = self.spans.get(seed)
            if not items:
                return None
            index = self._indexes[seed] = _SpanIndex(items)
        holding = index.holding(start)
        if holding is not None:
            return holding
        if before:
            return index.preceding(start) or index.following(start)
        return index.following(start) or index.preceding(start)


class _SpanIndex:
    """The elements of one seed, sorted for ``Locator.find`` (bisection, not a scan per entry)."""

    def __init__(self, items: list[tuple[int, int, Locus]]) -> None:
        numbered = [(start, end, order, locus) for order, (start, end, locus) in enumerate(items)]
        self.by_start = sorted(numbered, key=lambda item: (item[0], item[2]))
        self.starts = [item[0] for item in self.by_start]
        # by end; among equal ends the element added first comes last (``preceding`` takes it)
        self.by_end = sorted(numbered, key=lambda item: (item[1], -item[2]))
        self.ends = [item[1] for item in self.by_end]
        self.longest = max(end - start for start, end, _, _ in numbered)

    def holding(self, offset: int) -> Locus | None:
        """The shortest element with ``start <= offset < end``."""
        best = None
        i = bisect.bisect_right(self.starts, offset) - 1
        while i >= 0 and self.starts[i] >= offset - self.longest:
            start, end, order, locus = self.by_start[i]
            if end > offset and (best is None or (end - start, order) < best[0]):
                best = ((end - start, order), locus)
            i -= 1
        return best[1] if best else None

    def preceding(self, offset: int) -> Locus | None:
        """The element ending last at or before ``offset``."""
        i = bisect.bisect_right(self.ends, offset)
        return self.by_end[i - 1][3] if i else None

    def following(self, offset: int) -> Locus | None:
        """The element starting first at or after ``offset``."""
        i = bisect.bisect_left(self.starts, offset)
        return self.by_start[i][3] if i < len(self.by_start) else None


# -- MyST helpers -------------------------------------------------------------------------------

#: Characters ``json.dumps`` leaves raw that would end a line of the directive's body.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})
_ROW = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def cite(locus: Locus | None, full: bool = False) -> list[str] | None:
    """A locus cell: ``[label, anchor]`` (``None``: no locus, shown as a dash)."""
    if locus is None:
        return None
    return [locus.full_label if full else locus.label, locus.anchor]


def datatable(header: list[str], rows: list[list], widths: list[int], cells: str, cls: str) -> list[str]:
    """A ``yl:datatable`` (conv/sphinx_ext/tables.py): ``cells`` names each column's kind (``text``,
    ``witness``, ``cite``, ``pinyin``); the body is one JSON array per row, the header first. JSON strings are
    data, never markup, and no row can close the fence (each line starts with ``[``)."""
    if not rows:  # a table needs a body
        return ["无。", ""]
    encode = _ROW.encode
    lines = [":::{yl:datatable}", f":class: {cls}", f":widths: {' '.join(map(str, widths))}",
             f":cells: {cells}", ""]
    for row in [header, *rows]:  # whitespace runs are one space (whitespace is markup in the seeds)
        row = [" ".join(value.split()) if isinstance(value, str)
               else [" ".join(value[0].split()), *value[1:]] if value else value for value in row]
        lines.append(encode(row).translate(_LINE_BREAKS))
    return lines + [":::", ""]


class KeptForms:
    """What a quotation of a passage shows as the passage does in both views: the characters the passage keeps
    throughout (``Passage.kept``: what 郑注 distinguishes there, 竝) or reads in another form (``forms``: 閒
    read 间) that the quotation holds, and a character it keeps or reads so at some of its occurrences only
    (``kept_at``: a reviewed place, 徵) when the quotation's ``span`` holds occurrences of it and the passage
    keeps each of them."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.passages = {p.id: p for _, _, _, p in passages(edition, every=True) if p.kept or p.kept_at or p.forms}

    def __call__(self, anchor: str, text: str, span=None) -> tuple[str, str]:
        """``(keep, reads)``: the characters of ``text`` shown as printed, and those read in another form, in
        pairs (``閒间``)."""
        passage = self.passages.get(anchor)
        if passage is None:
            return "", ""
        keep = [char for char in passage.kept if char in text]
        reads = [char + form for char, form in passage.forms.items() if char not in passage.kept_at and char in text]
        for char in passage.kept_at:
            inside = [kept for seed, offset, kept in senses.occurrences(self.edition, passage, char)
                      if span and seed == span[0] and span[1] <= offset < span[2]]
            if char in text and inside and all(inside):
                form = passage.forms.get(char, char)
                if form == char:
                    keep.append(char)
                else:
                    reads.append(char + form)
        return "".join(keep), "".join(reads)

    def cell(self, anchor: str, text: str, span=None):
        """A witness cell of a ``yl:datatable`` (:func:`witness`) for ``text`` quoted from passage ``anchor``:
        ``[text, keep, reads]`` when it reads a character in another form."""
        keep, reads = self(anchor, text, span)
        return [text, keep, reads] if reads else witness(text, keep)


def witness(text: str, keep: str = ""):
    """A witness cell of a ``yl:datatable``: the text, or ``[text, keep]`` when it holds a
    character of ``keep``."""
    keep = "".join(char for char in keep if char in text)
    return [text, keep] if keep else text


def source_of(edition: Edition, span) -> str:
    seed, start = span[0], span[1]
    return locus(seed, *edition.sources[seed].position(start))


def witness_slice(edition: Edition, seed: str, start: int, end: int) -> str:
    """The witness's text characters between two offsets (markup and whitespace left out)."""
    text = edition.sources[seed].text
    return "".join(text[offset] for offset in text_char_offsets(text, start, end))


def context(edition: Edition, span, width: int = 8) -> tuple[str, str]:
    """Up to ``width`` text characters before and after a span."""
    seed, start, end = span
    text = edition.sources[seed].text
    before, i = [], start - 1
    while i >= 0 and len(before) < width:
        if not is_markup(text[i]):
            before.append(text[i])
        i -= 1
    after, j = [], end
    while j < len(text) and len(after) < width:
        if not is_markup(text[j]):
            after.append(text[j])
        j += 1
    return "".join(reversed(before)), "".join(after)


def shorten(text: str, length: int = 30) -> str:
    return text if len(text) <= length else text[:length] + "…"

