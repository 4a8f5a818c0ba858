"""The apparatus of a work (校勘记): every intervention and 今古文 reading, grouped and numbered."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from conv import datafiles as data
from conv import unencoded
from conv.analyses import readings
from conv.parser import errata
from conv.myst.chapter import page_label
from conv.model.tree import Edition, Work
from conv.myst.backmatter.locator import (
    _BEFORE, ERRATA_KINDS, INTERVENTION_LABEL, KIND_NAMES, PUA_KINDS, SECTIONS, TRADITION_LABEL, Locator, Locus, context,
    KeptForms, datatable, source_of, witness_slice,
)
from conv.myst.backmatter.entry_words import collation_body, correction_words, errata_body, note_words_body, reading_body
from conv.myst.backmatter.crossrefs import cross_links
from conv.myst.backmatter.parallels import HEADING as PARALLEL_HEADING, INTRODUCTION as PARALLEL_INTRODUCTION, parallel_body
from conv.myst.escape import escape_inline

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
    keep: str = ""  # characters shown as printed in both views (its passage's ``kept``: 竝)
    reads: str = ""  # characters read in another form, in pairs (its passage's ``forms``: 閒间)
    source: str = ""  # seed:line:col (for maintainers: the reader's page cites the passage)
    reason: str = ""  # the data file's own reason, as written (for maintainers)
    collation: dict | None = None  # a collation entry's record for maintainers (:func:`collation_row`)
    record: dict | None = None  # the record of a parallel, misprint or 张尔岐 entry (``crossrefs.cross_links``)


class Apparatus:
    """The entries of every work, grouped and numbered."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.locator = Locator(edition)
        self.seed_index = {name: i for i, name in enumerate(edition.sources)}
        self.interventions: dict[str, list[Entry]] = {w.id: [] for w in edition.works}
        self.readings: dict[str, list[Entry]] = {w.id: [] for w in edition.works}
        self.pua_counts: dict[str, Counter] = {w.id: Counter() for w in edition.works}
        self._pua_groups: dict[tuple[str, str, str], Entry] = {}  # (work, code point, locus) → entry
        self.kept = KeptForms(edition)  # what 郑注 distinguishes, a sense keeps (conv.analyses.distinctions, senses)
        for record in edition.apparatus:
            if shown(record):
                self._intervention(record)
        for record in edition.dropped:
            if record.get("kind") != "collated":  # the witness's text where a seed stands: the dump has it
                self._intervention({**record, "kind": "dropped"})
        collected = readings.collect(edition)
        for reading in collected["readings"]:
            self._reading(reading)
        for unparsed in collected["unparsed"]:
            self._reading({**unparsed, "unparsed": True})
        for work in edition.works:
            self._number(work.id)
        cross_links([entry for entries in self.interventions.values() for entry in entries])

    def _work_of(self, locus: Locus | None) -> str | None:
        if locus is None:
            return None
        return locus.work.id

    def _intervention(self, record: dict) -> None:
        kind = record.get("kind", "unknown")
        span = record["span"]
        locus = self.locator.find(span, before=kind in _BEFORE)
        if record.get("passage"):  # 张尔岐's note on a passage of the 句读 (its span: the note itself)
            locus = self.locator.loci.get(record["passage"])
        if kind == "correction" and str(record.get("decision", "")).startswith("title"):
            locus = self.locator.overlapping(span, "section") or locus  # the title it settles
        work = self._work_of(locus)
        if work is None:
            return
        body = self._body(kind, record, zheng=data.is_yili(work, locus.chapter.id))
        entry = Entry(kind if kind in KIND_NAMES else "unknown", locus, list(span), body,
                      source=source_of(self.edition, span), reason=maintainer_reason(kind, record),
                      collation=collation_row(record) if kind == "collation" else None,
                      record=record if kind in ("parallel", "misprint", *ERRATA_KINDS) else None)
        entry.keep, entry.reads = self.kept(locus.anchor, body, span)  # as its passage shows them
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
        if kind == "restoration":  # the distinction is the entry: the 规范 view must not fold 幹 to 干
            entry.keep = record.get("reading", "")
        if kind in ("collation", "misprint"):  # the forms are what it says: the 规范 view and the PDF keep 䙝, 䘮, 鼔
            quoted = record.get("witness_text", "") if kind == "collation" else record["witness"] + record["reading"]
            entry.keep = "".join(dict.fromkeys(entry.keep + quoted))
        if kind == "spurious":
            entry.code = record.get("witness", "")
            self.pua_counts[work][entry.code] += 1
        self.interventions[work].append(entry)

    def _body(self, kind: str, record: dict, count: int = 1, zheng: bool = True) -> str:
        """The entry as a reader reads it: in Chinese, the witness quoted; the data files' own
        reasons (in English) and the seed's file:line:col go to the maintainers' listing. ``zheng``:
        the chapter's 注 is 郑玄's (a 篇 of the 仪礼), else its book's commentator's."""
        edition = self.edition
        reason = record.get("reason", "")
        if kind == "correction":
            seed, start, end = record["span"]
            return escape_inline(correction_words(record.get("decision", ""), witness_slice(edition, seed, start, end), zheng))
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
        if kind == "restoration":
            return escape_inline(f"“{record.get('witness', '')}”，文渊阁本作“{record.get('reading', '')}”"
                                 f"（{record.get('page', '')}：{record.get('quote', '')}）。{reason}。录入本（简体）合二字为一，底本视图照录。")
        if kind == "misprint":
            then = "今改从正字，底本视图照录。" if record.get("words") else "底本照录，音读从正字。"  # the words read right, or the 音义
            return escape_inline(f"“{record.get('witness', '')}”当作“{record.get('reading', '')}”（{record.get('context', '')}）："
                                 f"{reason}。{then}")
        if kind == "dropped":
            return escape_inline(f"删去“{record.get('text', '')}”：非底本文字（数字化者所加）。")
        if kind == "collation":
            return escape_inline(collation_body(record))
        if kind == "parallel":
            return parallel_body(record, self.locator)
        if kind == "note-words":
            return note_words_body(record, self.locator)
        if kind == "unencoded":
            known = errata.gaiji().get(record.get("witness", ""))  # &KR1114; in 张尔岐's leaf references
            said = f"据上下文当为“{known['reading']}”（{known['reason']}）。" if known else ""
            return escape_inline(f"“{record.get('witness', '')}”：文渊阁本此字 Unicode 未收（汉籍リポジトリ外字），存其位，以〓标之。{said}")
        if kind in ERRATA_KINDS:
            return escape_inline(errata_body(record))
        if kind == "witness-join":
            witness = "录入本（简体录文，已与文渊阁本对校）" if record.get("witness") == "seed" else "文渊阁本（汉籍リポジトリ录文）"
            return escape_inline(f"自此以下据{witness}。")
        return escape_inline(f"{kind}：{reason}")

    def _reading(self, reading: dict) -> None:
        locus = self.locator.loci.get(reading["passage"]) or self.locator.find(reading["span"])
        work = self._work_of(locus)
        if work is None:
            return
        keep, reads = self.kept(reading["passage"], reading.get("statement", ""), reading["span"])
        self.readings[work].append(Entry("unparsed" if reading.get("unparsed") else "reading", locus,
                                         list(reading["span"]), reading_body(reading),
                                         source=source_of(self.edition, reading["span"]), keep=keep, reads=reads,
                                         reason=reading.get("reason", "") if reading.get("unparsed")
                                         else reading.get("decision", "")))  # a reviewed decision's reason

    def _key(self, entry: Entry) -> tuple:
        chapter = entry.locus.chapter_index if entry.locus else 0
        return (chapter, self.seed_index.get(entry.span[0], 0), entry.span[1])

    def _number(self, work: str) -> None:
        kinds = [kind for _, _, section_kinds in SECTIONS for kind in section_kinds] + ["unknown"]
        section = {kind: number for number, (_, _, section_kinds) in enumerate(SECTIONS) for kind in section_kinds}
        # per section of the page, per 篇 (per_chapter), then per kind: numbered as the page lists them
        entries = sorted(self.interventions[work], key=lambda e: (
            section.get(e.kind, len(SECTIONS)), e.locus.chapter_index if e.locus else 0, kinds.index(e.kind), self._key(e)))
        self.interventions[work] = entries
        _number_per_locus(entries, "jiao", INTERVENTION_LABEL)
        entries = sorted(self.readings[work], key=lambda e: (e.kind == "unparsed", self._key(e)))
        self.readings[work] = entries
        _number_per_locus(entries, "yi", TRADITION_LABEL)


def _number_per_locus(entries: list[Entry], part: str, label: str) -> None:
    """Number ``entries`` (in page order) within their locus: ``tongjie-zhongyong-77-jiao-2`` and 校2 are the second
    intervention of 中庸77, an id that an entry added to another passage does not change (citable)."""
    numbers: Counter = Counter()
    for entry in entries:
        numbers[entry.locus.anchor] += 1
        number = numbers[entry.locus.anchor]
        entry.id, entry.label = f"{entry.locus.anchor}-{part}-{number}", f"{label}{number}"


def maintainer_reason(kind: str, record: dict) -> str:
    """The data file's own reason for an intervention, with the correction's id (for maintainers)."""
    reason = str(record.get("reason", ""))
    if kind == "correction":
        return f"{record.get('correction', '')} {record.get('decision', '')}: {reason}".strip()
    if kind == "collation" and record.get("correction"):  # a reviewed emendation (kind emend)
        return f"{record['correction']} emend: {reason}"
    return reason if kind in ("dropped", "unknown", "note-words") else ""


def _app_directive(entry: Entry, full: bool = False) -> list[str]:
    locus = entry.locus
    lines = [f":::{{yl:app}} {entry.id}", f":label: {entry.label}", f":kind: {entry.kind}"]
    if locus is not None:
        lines += [f":locus: {locus.anchor}", f":locus-text: {locus.full_label if full else locus.label}"]
    lines.append(":source: " + entry.source)
    if entry.keep:
        lines.append(":keep: " + entry.keep)
    if entry.reads:
        lines.append(":read-as: " + entry.reads)
    if entry.collation:
        lines.append(":collation: " + json.dumps(entry.collation, ensure_ascii=False))
    if entry.reason:
        # a double-quoted string: the reason may open with a quote or hold a colon
        lines.append(":reason: " + json.dumps(" ".join(entry.reason.split()), ensure_ascii=False))
    return lines + ["", entry.body, ":::", ""]


def work_page(apparatus: Apparatus, work: Work) -> str:
    entries = apparatus.interventions[work.id]
    readings = apparatus.readings[work.id]
    example = next((e for e in entries if e.label != f"{INTERVENTION_LABEL}1"), entries[0] if entries else None)
    out = [f"(apparatus-{work.id})=", f"# {escape_inline(work.title)}校勘记", ""]
    out += [
        escape_inline(
            f"本篇逐条列出整理《{work.title}》底本时所作的每一处处理：经审定的校改，私用区码位的校正与删除，"
            "跨页文字的接合，节录起讫与残缺，删去的非底本文字，简体录入本合并而文渊阁本有别之字；又列郑注所载今文、古文异文。"
        ),
        "",
        escape_inline(
            f"每条前为条目号：{INTERVENTION_LABEL}为校勘，{TRADITION_LABEL}为今古文异文，每段各自起讫；次为所在经文段落（篇名与段号），"
            "点击可至该段。正文中相应段落的经文之后以上标条目号标出，点击可至此。"
            + (f"引用一条，以段与号并称，如“{example.locus.label}{example.label}”：他段增删条目，其号不变。" if example else "")
        ),
        "",
    ]
    if any(e.kind in ERRATA_KINDS for e in entries):
        out += [escape_inline("又列张尔岐《监本正误》《石本误字》（本书卷十八、十九）所校各条，分篇系于其所校之段；"
                              "未能确定所指之段者，不列于此，仍见于卷十八、十九原文。"), ""]
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
                    shown = unencoded.markup(info["char"]) if unencoded.is_stand_in(info["char"]) else info["char"]
                    rows.append([f"私用区字 {code} → {shown}（{PUA_KINDS.get(info['kind'], info['kind'])}）",
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
        if heading == PARALLEL_HEADING:
            out += [escape_inline(PARALLEL_INTRODUCTION), ""]
        out += per_chapter(chosen, f"apparatus-{work.id}-{suffix}")
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


# -- the page's parts, the maintainers' listing ------------------------------------------------------


def per_chapter(entries: list[Entry], label: str) -> list[str]:
    """The entries of a section grouped per 篇 (they are in reading order), each group under the
    篇's title (``label-<chapter id>``)."""
    out: list[str] = []
    current = None
    for entry in entries:
        chapter = entry.locus.chapter if entry.locus else None
        if chapter is not None and chapter is not current:
            out += [f"({label}-{chapter.id})=", f"### {escape_inline(chapter.title)}", ""]
            current = chapter
        out += _app_directive(entry)
    return out


def collation_row(record: dict) -> dict:
    """What the maintainers' listing of the collation holds of an entry (English class, both
    places as ``file:start-end`` offsets, the page, both texts, the aligner's note)."""
    seed, start, end = record["span"]
    witness, witness_start, witness_end = record["witness_span"]
    page = record.get("page")
    return {"class": record.get("class", ""), "op": record.get("op", ""), "seed": f"{seed}:{start}-{end}",
            "witness": f"{witness}:{witness_start}-{witness_end}", "page": page_label(page) if page else "",
            "seed_text": unencoded_text(record.get("text", "")), "witness_text": unencoded_text(record.get("witness_text", "")),
            "emended": bool(record.get("emended")), "note": record.get("note", "")}


def unencoded_text(text: str) -> str:
    """``text`` with each character Unicode lacks as the witness writes it (``&KR0871;``)."""
    return "".join(unencoded.markup(c) if unencoded.is_stand_in(c) else c for c in text)


def shown(record: dict) -> bool:
    """Is this apparatus record an entry of the reader's 校勘记? Not another form of the same
    character, nor a private-use code point the witness confirms (the dump keeps them all)."""
    if record["kind"] != "collation":
        return True
    return record.get("class") != "orthographic" and not record.get("confirmed")
