"""Back matter (校勘记与索引): the pages the converter writes beside the chapters, under
``source/apparatus/`` (see ``conv/FORMAT.md``, "Back matter"):

- ``apparatus/<work>.md`` — the critical apparatus (校勘记) of one work: every editorial
  intervention of the conversion (``Edition.apparatus``: reviewed corrections with their reasons,
  private-use code points resolved or removed, page breaks joined, where the excerpt is cut off),
  the material dropped (``Edition.dropped``) and every 今文/古文 reading 郑注 reports
  (``conv.readings``), each entry a ``yl:app`` directive that names the passage it concerns; the
  extension marks that passage in the text with the entry's label (校3, 异5) linking back;
- ``apparatus/glosses.md`` — the 音义 glosses ordered by their computed 广韵 position
  (``conv.phonology.sort_key``: 韵, 声调, then 母 …), and those whose position is not the glossed
  character's own (``other reading``) or could not be computed (``unresolved``) apart;
- ``apparatus/glossary.md`` — 郑注's definitions (``conv.glossary``), ordered by pinyin;
- ``apparatus/index.md`` — the table of contents of the back matter.

The index of terms (名物索引) is not written here: the extension computes it from the text of the
passages it reads (``conv.sphinx_ext.indices``, the domain index ``yl-terms``).

Entries are located by their seed span: the passage (with its notes), section title (with its
notes) or chapter title line (with its 郑目录, and metadata lines) whose span holds the entry's
start (a correction that settles a section title: that title); an entry between them (where an excerpt is cut off, a dropped line) belongs to the next
passage, or for what ends an excerpt (``lacuna-end``, ``lacuna-chapter-end``, ``dropped``) to
the previous one. Entry ids (``judou-jiao-3``, ``judou-yi-5``) and labels (校3, 异5) are numbered
per work in page order: they are not citable anchors and change when entries are added.
"""
from __future__ import annotations

import bisect
import json
from collections import Counter
from dataclasses import dataclass

from . import data
from .escape import escape_inline
from .model import Chapter, Edition, Segment, Work, is_markup

DIR = "apparatus"

#: Chinese names of the apparatus kinds, in the order of the page's sections.
KIND_NAMES = {
    "correction": "校改",
    "pua": "私用区字",
    "spurious": "衍字（私用区码位）",
    "page-break-note": "注文跨页接合",
    "page-break-text": "经文跨页接合",
    "lacuna-chapter-start": "节录始于篇中",
    "lacuna-start": "底本始于注中",
    "lacuna-end": "底本止于注中",
    "lacuna-chapter-end": "节录止于篇中",
    "dropped": "删除（非底本文字）",
    "unknown": "其他",
}
#: Sections of an apparatus page: (anchor suffix, heading, kinds).
SECTIONS = (
    ("corrections", "校改", ("correction",)),
    ("pua", "私用区字", ("pua", "spurious")),
    ("page-breaks", "跨页接合", ("page-break-note", "page-break-text")),
    ("lacunae", "节录起讫与残缺", ("lacuna-chapter-start", "lacuna-start", "lacuna-end", "lacuna-chapter-end")),
    ("dropped", "删除", ("dropped",)),
)
_BEFORE = {"lacuna-end", "lacuna-chapter-end", "dropped"}  # belong to what precedes them
PUA_KINDS = {"quebi": "缺笔", "variant": "异体", "spurious": "衍字"}
GLOSS_KINDS = {"fanqie": "反切", "zhiyin": "直音", "ruzi": "如字", "other": "其他"}
STATUS_NAMES = {"matches": "合于本字", "other reading": "非本字之音", "unresolved": "未能推定"}
GLOSSARY_FORMS = {"you": "X犹Y也", "wei": "X谓Y", "ye": "X，Y也", "zhe": "X者，Y也"}
TRADITION_LABEL = "异"
INTERVENTION_LABEL = "校"


#: The rule of the index of terms (conv/terms.py), for its page and the back matter's contents.
TERMS_RULE = (
    "收词：conv/data/terms.toml 所列名物，分器物、宫室位次、职官人物、射器、服饰、礼节、乐、牲体馔具八类；"
    "类内按汉语拼音（连声调，逐音节）排列。",
    "检索范围：经文与记文，注疏、章旨、卷次不计；依规范字形检索，故底本之“賔”即“宾”，"
    "词表所列异写亦计入其词。索引由程序据正文自动生成，不在正文中人工标注。",
    "长词优先（词中之词不计）：自左至右读经文，每处取从此字起能匹配的最长词条，其字即归此词，"
    "不再计入较短之词；此处无词条可起，则前进一字。故“司射”“上射”中不计“射”，“获者”“释获者”中不计“获”，"
    "“释获者”中不计“获者”，“折俎”中不计“俎”，“众宾”中不计“宾”。两词相叠，先起者先得："
    "“兄弟弟子”取“兄弟”，再取“弟子”。",
    "同形异词：词表为若干词注明非名物的语境，如“降洗”之“洗”（洗手，非洗器）、“中等”之“中”（非盛算之中），"
    "在此语境中其字占位而不计。",
)


# -- pinyin ------------------------------------------------------------------------------------

_MARKS = {"a": "āáǎà", "e": "ēéěè", "i": "īíǐì", "o": "ōóǒò", "u": "ūúǔù", "ü": "ǖǘǚǜ"}


def tone_marks(pinyin: str) -> str:
    """``zhi4 shi4`` (tone numbers, ``v`` for ü) → ``zhìshì``; syllables joined without spaces."""
    out = []
    for syllable in pinyin.split():
        tone = syllable[-1] if syllable[-1:].isdigit() else "5"
        body = syllable.rstrip("012345").replace("v", "ü").replace("u:", "ü")
        if tone in "1234":
            index = _mark_position(body)
            if index is not None:
                body = body[:index] + _MARKS[body[index]][int(tone) - 1] + body[index + 1 :]
        out.append(body)
    return "".join(out)


def _mark_position(body: str) -> int | None:
    for vowel in "ae":
        if vowel in body:
            return body.index(vowel)
    if "ou" in body:
        return body.index("o")
    for index in range(len(body) - 1, -1, -1):
        if body[index] in "iouü":
            return index
    return None


# -- where an entry belongs ---------------------------------------------------------------------

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
        return f"{short_title(self.work)}·{self.label}"


def short_title(work: Work) -> str:
    """句读, 通解: the name scholars use (the last two characters of the title)."""
    return work.title[-2:] if len(work.title) > 2 else work.title


def passage_number(anchor: str) -> str:
    return anchor.rsplit("-", 1)[-1]


class Locator:
    """Seed spans → the loci (passages, section titles, chapter titles) that hold them."""

    def __init__(self, edition: Edition) -> None:
        from .writer import PageWriter

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
    ``witness``, ``cite``); the body is one JSON array per row, the header first. JSON strings are
    data, never markup, and no row can close the fence (each line starts with ``[``)."""
    if not rows:  # a table needs a body
        return ["无。", ""]
    encode = _ROW.encode
    lines = [":::{yl:datatable}", f":class: {cls}", f":widths: {' '.join(map(str, widths))}",
             f":cells: {cells}", ""]
    for row in [header, *rows]:  # whitespace runs are one space (whitespace is markup in the seeds)
        row = [" ".join(value.split()) if isinstance(value, str)
               else [" ".join(value[0].split()), value[1]] if value else value for value in row]
        lines.append(encode(row).translate(_LINE_BREAKS))
    return lines + [":::", ""]


def source_of(edition: Edition, span) -> str:
    seed, start = span[0], span[1]
    line, col = edition.sources[seed].position(start)
    return f"{seed}:{line}:{col}"


def witness_slice(edition: Edition, seed: str, start: int, end: int) -> str:
    """The witness's text characters between two offsets (markup and whitespace left out)."""
    return "".join(c for c in edition.sources[seed].text[start:end] if not is_markup(c))


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


# -- the apparatus of a work --------------------------------------------------------------------

@dataclass
class Entry:
    kind: str
    locus: Locus | None
    span: list
    body: str  # MyST inline text, escaped
    count: int = 1  # PUA occurrences grouped into this entry
    code: str = ""  # PUA code point (U+EB8E)
    id: str = ""
    label: str = ""
    source: str = ""  # seed:line:col


class Apparatus:
    """The entries of every work, grouped and numbered."""

    def __init__(self, edition: Edition) -> None:
        from . import readings

        self.edition = edition
        self.locator = Locator(edition)
        self.seed_index = {name: i for i, name in enumerate(edition.sources)}
        self.interventions: dict[str, list[Entry]] = {w.id: [] for w in edition.works}
        self.readings: dict[str, list[Entry]] = {w.id: [] for w in edition.works}
        self.pua_counts: dict[str, Counter] = {w.id: Counter() for w in edition.works}
        self._pua_groups: dict[tuple[str, str, str], Entry] = {}  # (work, code point, locus) → entry
        for record in edition.apparatus:
            self._intervention(record)
        for record in edition.dropped:
            self._intervention({**record, "kind": "dropped"})
        collected = readings.collect(edition)
        for reading in collected["readings"]:
            self._reading(reading)
        for unparsed in collected["unparsed"]:
            self._reading({**unparsed, "unparsed": True})
        for work in edition.works:
            self._number(work.id)

    def _work_of(self, locus: Locus | None) -> str | None:
        if locus is None:
            return None
        return locus.work.id

    def _intervention(self, record: dict) -> None:
        kind = record.get("kind", "unknown")
        span = record["span"]
        locus = self.locator.find(span, before=kind in _BEFORE)
        if kind == "correction" and str(record.get("decision", "")).startswith("title"):
            locus = self.locator.overlapping(span, "section") or locus  # the title it settles
        work = self._work_of(locus)
        if work is None:
            return
        body = self._body(kind, record)
        entry = Entry(kind if kind in KIND_NAMES else "unknown", locus, list(span), body,
                      source=source_of(self.edition, span))
        if kind == "pua":
            entry.code = record.get("witness", "")
            self.pua_counts[work][entry.code] += 1
            group = (work, entry.code, locus.anchor)
            previous = self._pua_groups.get(group)
            if previous is not None:  # the same code point in the same passage: one entry
                previous.count += 1
                previous.body = self._body(kind, record, previous.count)
                return
            self._pua_groups[group] = entry
        if kind == "spurious":
            entry.code = record.get("witness", "")
            self.pua_counts[work][entry.code] += 1
        self.interventions[work].append(entry)

    def _body(self, kind: str, record: dict, count: int = 1) -> str:
        edition = self.edition
        reason = record.get("reason", "")
        if kind == "correction":
            seed, start, end = record["span"]
            printed = shorten(witness_slice(edition, seed, start, end))
            return escape_inline(f"校改表 {record.get('correction', '')}：{record.get('decision', '')}。"
                                 f"底本作“{printed}”。{reason}")
        if kind == "pua":
            code = record.get("witness", "")
            entry = data.pua().get(chr(int(code[2:], 16))) if code.startswith("U+") else None
            what = PUA_KINDS.get(entry["kind"], entry["kind"]) if entry else ""
            times = f"（{count}处）" if count > 1 else ""
            return escape_inline(f"“{record.get('reading', '')}”{times}：底本作私用区码位 {code}"
                                 f"（{what}），{reason}")
        if kind == "spurious":
            before, after = context(edition, record["span"])
            return escape_inline(f"删私用区码位 {record.get('witness', '')}（“{before}〇{after}”）：{reason}")
        if kind in ("page-break-note", "page-break-text"):
            before, after = context(edition, record["span"])
            where = "注文" if kind == "page-break-note" else "经文"
            return escape_inline(f"{where}为分页所隔，今接合：“{before}｜{after}”（｜为原分页处）。")
        if kind == "lacuna-chapter-start":
            return escape_inline("节录始于篇中：此前篇文不在底本节录之内。")
        if kind == "lacuna-chapter-end":
            return escape_inline("节录止于篇中：此后篇文不在底本节录之内。")
        if kind == "lacuna-start":
            return escape_inline("底本始于注中：所注经文及注首不在节录之内。")
        if kind == "lacuna-end":
            return escape_inline("底本止于注中：注文后半不在节录之内。")
        if kind == "dropped":
            return escape_inline(f"删去“{record.get('text', '')}”：{reason}")
        return escape_inline(f"{kind}：{reason}")

    def _reading(self, reading: dict) -> None:
        locus = self.locator.loci.get(reading["passage"]) or self.locator.find(reading["span"])
        work = self._work_of(locus)
        if work is None:
            return
        self.readings[work].append(Entry("unparsed" if reading.get("unparsed") else "reading", locus,
                                         list(reading["span"]), reading_body(reading),
                                         source=source_of(self.edition, reading["span"])))

    def _key(self, entry: Entry) -> tuple:
        chapter = entry.locus.chapter_index if entry.locus else 0
        return (chapter, self.seed_index.get(entry.span[0], 0), entry.span[1])

    def _number(self, work: str) -> None:
        kinds = [kind for _, _, section_kinds in SECTIONS for kind in section_kinds] + ["unknown"]
        entries = sorted(self.interventions[work], key=lambda e: (kinds.index(e.kind), self._key(e)))
        self.interventions[work] = entries
        for number, entry in enumerate(entries, 1):
            entry.id, entry.label = f"{work}-jiao-{number}", f"{INTERVENTION_LABEL}{number}"
        entries = sorted(self.readings[work], key=lambda e: (e.kind == "unparsed", self._key(e)))
        self.readings[work] = entries
        for number, entry in enumerate(entries, 1):
            entry.id, entry.label = f"{work}-yi-{number}", f"{TRADITION_LABEL}{number}"


def reading_body(reading: dict) -> str:
    """A 今文/古文 reading as an apparatus line: ``俟〕今文作“立”。郑注：“今文俟为立”``."""
    if reading.get("unparsed"):
        return escape_inline(f"未能解析：郑注“{reading['statement']}”。{reading['reason']}")
    tradition, kind = reading["tradition"], reading["kind"]
    lemma, variant = reading.get("lemma") or "", reading.get("variant") or ""
    qualifier = ("皆" if reading.get("all") else "") + ("或" if reading.get("alternative") else "")
    if kind == "omit":
        where = f"“{reading['context']}”中" if reading.get("context") else ""
        line = f"{lemma}〕{tradition}{where}无"
    elif lemma:
        line = f"{lemma}〕{tradition}{qualifier}作“{variant}”"
    else:
        line = f"{tradition}{qualifier}作“{variant}”（经中未能对齐）"
    line += f"。郑注：“{reading['statement']}”"
    if reading.get("check") == "not-found":
        line += "。〔经中未见此字〕"
    elif reading.get("check") == "no-text":
        line += "。〔此段底本无经文〕"
    return escape_inline(line)


def _app_directive(entry: Entry, full: bool = False) -> list[str]:
    locus = entry.locus
    lines = [f":::{{yl:app}} {entry.id}", f":label: {entry.label}", f":kind: {entry.kind}"]
    if locus is not None:
        lines += [f":locus: {locus.anchor}", f":locus-text: {locus.full_label if full else locus.label}"]
    return lines + [":source: " + entry.source, "", entry.body, ":::", ""]


def work_page(apparatus: Apparatus, work: Work) -> str:
    entries = apparatus.interventions[work.id]
    readings = apparatus.readings[work.id]
    out = [f"(apparatus-{work.id})=", f"# {escape_inline(work.title)}校勘记", ""]
    out += [
        escape_inline(
            f"本篇逐条列出转换《{work.title}》底本时所作的每一处处理：据校改表（conv/data/corrections.toml）"
            "所作的校改及其理由，私用区码位的校正与删除，跨页文字的接合，节录起讫与残缺，删去的非底本文字；"
            "又列郑注所载今文、古文异文。"
        ),
        "",
        escape_inline(
            f"每条前为条目号：{INTERVENTION_LABEL}为校勘，{TRADITION_LABEL}为今古文异文；次为所在经文段落（篇名与段号），"
            "末为底本位置（文件:行:列）。正文中相应段落的经文之后以上标条目号标出，点击可至此。"
        ),
        "",
    ]
    # overview
    counts = Counter(e.kind for e in entries)
    occurrences = Counter()
    for entry in entries:
        occurrences[entry.kind] += entry.count
    rows = []
    for _, _, kinds in SECTIONS:
        for kind in kinds:
            if counts[kind] and kind != "pua":
                rows.append([KIND_NAMES[kind], str(counts[kind]), str(occurrences[kind])])
            elif kind == "pua":
                for code, n in sorted(apparatus.pua_counts[work.id].items()):
                    char = chr(int(code[2:], 16))
                    info = data.pua().get(char)
                    if info is None or info["kind"] == "spurious":
                        continue
                    groups = sum(1 for e in entries if e.kind == "pua" and e.code == code)
                    rows.append([f"私用区字 {code} → {info['char']}（{PUA_KINDS.get(info['kind'], info['kind'])}）",
                                 str(groups), str(n)])
    if counts["unknown"]:
        rows.append([KIND_NAMES["unknown"], str(counts["unknown"]), str(occurrences["unknown"])])
    parsed = sum(1 for e in readings if e.kind == "reading")
    unparsed = len(readings) - parsed
    if parsed:
        rows.append(["今古文异文", str(parsed), str(parsed)])
    if unparsed:
        rows.append(["今古文：未能解析", str(unparsed), str(unparsed)])
    out += [f"(apparatus-{work.id}-summary)=", "## 总览", ""]
    out += datatable(["类别", "条目", "底本处数"], rows, [6, 1, 1], "text text text", "yl-app-summary")
    for suffix, heading, kinds in SECTIONS:
        chosen = [e for e in entries if e.kind in kinds]
        if not chosen:
            continue
        out += [f"(apparatus-{work.id}-{suffix})=", f"## {heading}", ""]
        for entry in chosen:
            out += _app_directive(entry)
    others = [e for e in entries if e.kind == "unknown"]
    if others:
        out += [f"(apparatus-{work.id}-other)=", "## 其他", ""]
        for entry in others:
            out += _app_directive(entry)
    if readings:
        out += [f"(apparatus-{work.id}-readings)=", "## 今古文异文", ""]
        out += [escape_inline(
            "郑玄注《仪礼》，兼采今文、古文两家之本，于注中记其异文：“今文某为某”“古文某作某”。"
            "“〕”前为郑玄所从之经文，后为另一家之异文。"), ""]
        for entry in readings:
            out += _app_directive(entry)
    return "\n".join(out).rstrip("\n") + "\n"


# -- glosses ------------------------------------------------------------------------------------

@dataclass
class GlossRow:
    gloss: object
    locus: Locus | None
    order: int


def gloss_rows(edition: Edition, locator: Locator) -> list[GlossRow]:
    rows: list[GlossRow] = []

    def add(segments: list[Segment], anchor: str) -> None:
        for segment in segments:
            for gloss in segment.glosses:
                rows.append(GlossRow(gloss, locator.loci.get(anchor), len(rows)))

    for work in edition.works:
        for chapter in work.chapters:
            add(chapter.mulu, f"{work.id}-{chapter.id}")
            for section in chapter.sections:
                for passage in section.passages:
                    add(passage.notes, passage.id)
                add(section.title_notes, section.id)
    return rows


def _sound(gloss) -> str:
    if gloss.kind == "fanqie" and gloss.upper and gloss.lower:
        return f"{gloss.upper}{gloss.lower}反"
    if gloss.kind == "zhiyin" and gloss.sound:
        return f"音{gloss.sound}"
    if gloss.kind == "ruzi":
        return "如字"
    return ""


def _kind(gloss) -> str:
    name = GLOSS_KINDS.get(gloss.kind, gloss.kind)
    return name + ("（又音）" if gloss.second else "")


def glosses_page(edition: Edition, locator: Locator) -> str:
    from . import phonology

    rows = gloss_rows(edition, locator)
    keys = {p: phonology.sort_key(p) for p in {r.gloss.position for r in rows} if p}  # once per position
    ordered = sorted(rows, key=lambda r: (r.gloss.position is None, keys.get(r.gloss.position, ()), r.order))
    out = ["(apparatus-glosses)=", "# 音义索引", ""]
    out += [
        escape_inline(
            "底本注中所附音义（反切、直音、如字等），按所推《广韵》音韵地位排列：先依韵（东、冬、钟……，"
            "《广韵》韵目之序），次声调，次声母（帮、滂、并、明……），次开合、等、类。反切以 tshet-uinh "
            "（切韵音系）据《广韵》执行，直音取所注字之音；底本简体字先以 OpenCC 转为繁体再查。"
        ),
        "",
        escape_inline(
            "“合否”一栏：合于本字，谓推得之音为被注字在《广韵》中的一读；非本字之音，谓被注字在《广韵》中"
            "另有其音，而所推之音不在其中（如共九勇反，推得見三C鍾上，乃拱字之音）；未能推定，谓反切用字"
            "不见于《广韵》、反切无法执行或音义未给出读音（如字）。后两类另列于下节。"
        ),
        "",
        f"共 {len(rows)} 条；合于本字 {sum(1 for r in rows if r.gloss.status == 'matches')} 条，"
        f"非本字之音 {sum(1 for r in rows if r.gloss.status == 'other reading')} 条，"
        f"未能推定 {sum(1 for r in rows if r.gloss.status == 'unresolved')} 条。",
        "",
        "(apparatus-glosses-by-position)=",
        "## 依广韵音韵地位",
        "",
    ]
    table = []
    for row in ordered:
        gloss = row.gloss
        others = [p for p in gloss.positions if p != gloss.position]
        position = gloss.position or "—"
        if others:
            position += "（又可为" + "、".join(others) + "）"
        table.append([position, gloss.text, gloss.char, _kind(gloss),
                      _sound(gloss), STATUS_NAMES.get(gloss.status, gloss.status or "—"),
                      cite(row.locus, full=True)])
    out += datatable(["广韵地位", "音义", "字", "类别", "切语／直音", "合否", "出处"], table,
                     [4, 3, 1, 2, 2, 2, 3], "text witness witness text witness text cite",
                     "yl-gloss-index")
    out += ["(apparatus-glosses-mismatches)=", "## 音韵地位存疑", ""]
    for status, heading, intro in (
        ("other reading", "非本字之音",
         "推得之音不是被注字在《广韵》中的任何一读：或为破读、假借（以他字之音读此字），或为底本、推算之误，待考。"),
        ("unresolved", "未能推定", "未能推得《广韵》音韵地位者。"),
    ):
        chosen = [r for r in sorted(rows, key=lambda r: r.order) if r.gloss.status == status]
        out += [f"(apparatus-glosses-{'other' if status == 'other reading' else 'unresolved'})=", f"### {heading}", "",
                escape_inline(intro), ""]
        if not chosen:
            out += ["无。", ""]
            continue
        table = []
        for row in chosen:
            gloss = row.gloss
            own = phonology.readings(gloss.char) if gloss.char else []
            table.append([gloss.text, "、".join(gloss.positions) or "—", "、".join(own) or "（《广韵》未收）",
                          gloss.note or "—", cite(row.locus, full=True)])
        out += datatable(["音义", "推得之音", "本字《广韵》之音", "说明", "出处"], table, [4, 4, 4, 4, 3],
                         "witness text text text cite", "yl-gloss-mismatches")
    return "\n".join(out).rstrip("\n") + "\n"


# -- 郑注 glossary ----------------------------------------------------------------------------

def glossary_page(edition: Edition, locator: Locator) -> str:
    from . import glossary

    entries = glossary.collect(edition)
    out = ["(apparatus-glossary)=", "# 郑注训诂", ""]
    out += [
        escape_inline(
            "郑玄注中对经文字词的训释（“某，某也”“某犹某也”“某谓某”“某者，某也”），按所释之词的汉语拼音排列，"
            "同一词依经文先后。底本无标点，故只收体例明确者，宁缺勿滥。"
        ),
        "",
        f"共 {len(entries)} 条，{len({e['term'] for e in entries})} 词。",
        "",
    ]
    rows = []
    for entry in entries:
        rows.append([entry["term_witness"], tone_marks(entry["pinyin"]),
                     entry["definition_witness"], entry["text"],
                     GLOSSARY_FORMS.get(entry["form"], entry["form"]),
                     cite(locator.loci.get(entry["passage"]), full=True)])
    out += datatable(["词", "读音", "释义", "郑注原文", "体例", "出处"], rows, [2, 2, 3, 4, 2, 3],
                     "witness text witness witness text cite", "yl-glossary")
    return "\n".join(out).rstrip("\n") + "\n"


# -- the contents page --------------------------------------------------------------------------

def index_page(edition: Edition) -> str:
    works = [w for w in edition.works]
    out = ["(apparatus)=", "# 校勘记与索引", ""]
    out += [
        escape_inline(
            "本编所附校勘记与索引，皆由转换程序据底本与校改表生成，随底本更新："
            "各书校勘记逐条列出转换时的每一处校改与今古文异文；音义索引按《广韵》音韵地位排列注中音义；"
            "郑注训诂汇集郑玄对经文字词的训释。"
        ),
        "",
        "名物索引的收词与计数之法：",
        "",
        *[f"- {escape_inline(paragraph)}" for paragraph in TERMS_RULE],
        "",
        "```{only} html",
        "- {ref}`名物索引 <yl-terms>`：每一名物所见的全部经文段落。",
        "- {ref}`总索引 <genindex>`：名物按拼音首字母，下分各篇。",
        "```",
        "",
        "```{only} latex",
        "名物索引与总索引附于书末。",
        "```",
        "",
        "```{toctree}",
        ":maxdepth: 2",
        "",
    ]
    out += [w.id for w in works] + ["glosses", "glossary", "```"]
    return "\n".join(out) + "\n"


def pages(edition: Edition) -> dict[str, str]:
    """Relative path (under ``source/``) → MyST body (without the generated-page header)."""
    apparatus = Apparatus(edition)
    out = {f"{DIR}/index.md": index_page(edition)}
    for work in edition.works:
        out[f"{DIR}/{work.id}.md"] = work_page(apparatus, work)
    out[f"{DIR}/glosses.md"] = glosses_page(edition, apparatus.locator)
    out[f"{DIR}/glossary.md"] = glossary_page(edition, apparatus.locator)
    return out

