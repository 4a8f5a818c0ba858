"""今文/古文 readings (今古文异文) that 郑注 reports: ``今文俟为立``, ``古文缩皆为蹙``, ``今文无射``.

郑玄 established his text from two traditions of the 仪礼, the 今文 (modern-script) and the 古文
(old-script) copies, and recorded in his note where the other tradition reads differently. This
module finds those statements in the 郑注 segments (layer ``zhu``) of every passage and parses
each into readings ``{tradition, kind, lemma, variant, …}``: in place of *lemma* (the 经 as 郑玄
adopted it) the *tradition* reads *variant*.

A statement runs from 今文/古文 to the next 今文/古文 or the end of the segment, and may hold
several clauses (``今文糅为缩韬为翿``). The clause grammar (on the normalized text):

====================  ==========  ==========================================================
clause                kind        example
====================  ==========  ==========================================================
``X为Y`` ``X作Y``      replace     今文俟为立 · 古文贯作关 · 古文缩皆为蹙 (``皆``: every
                                  occurrence, ``all``) · 今文改弓为肱 · 今文遵为僎或为全
                                  (``或为``: a second variant, ``alternative``)
``无X``                omit        今文无射: the tradition lacks X
``A无B``               omit        今文司马师无司马: in A the tradition lacks B; or A is the
                                  tradition's reading of a stretch of the 经 that lacks (part of)
                                  B: 公答拜无再拜, the 经's 公答再拜 without 再 (lemma 再,
                                  context 公答再拜)
``曰X`` ``或言X``      add, omit,  古文曰再拜受爵: the tradition reads X; the 经 stretch it
                      replace,    stands for is found by alignment (``add`` 再, ``order`` 坐反 →
                      order,      反坐); where no alignment is convincing the lemma is left
                      reads       open (``reads``, ``check: unaligned``)
====================  ==========  ==========================================================

``X为Y``: X runs from the clause start to the first 为/作; Y has X's length (郑玄's variants
replace character for character). What follows Y is a further clause, a ``或为`` variant, a
closing 也, or — when it begins with Y itself — 郑玄's remark on the variant (``今文苦为芐芐乃地黄
非也``: ``note``). Anything else, a Y shorter than X, or an ``X为Y`` that is itself a stretch of
the 经 (``今文君射则为下``: a quoted reading, not a replacement) is not guessed at: it is returned
in ``unparsed`` with its position, for an editor (``problems``).

The check (``check``): the lemma is looked up in the note's reach (``conv.analyses.reading_places``:
the passage's own 经/记 text, the note's own glosses such as 肫或作纯, the passages just before it):
``found`` with ``lemma_spans``, ``not-found``, or ``no-text`` when the passage has no 经 text in the
witness. ``passage`` is the passage where the lemma stands, ``note_passage`` the note's;
``lemma_in_text`` the 经's own form where it differs (肫 for 纯), ``via`` the gloss that led there.
More forms (X或为Y, 无X字, 又曰 …, prose after a reading): ``conv.analyses.reading_grammar``.
Lemma and variant are given as the witness prints them (``lemma``, ``variant``: 竝 and 并 stay
apart although normalization folds both to 并) and normalized (``lemma_normalized``, …).
Only 郑注 is searched: a 贾疏 quoting 郑玄 (``云今文厌皆为揖不从者``) is not a new statement.

A reading (``collect()["readings"]``, in reading order): ``tradition`` 今文|古文, ``kind``
replace|omit|add|order|reads, ``form`` (为 作 皆为 皆作 改为 或为 无 A无B 曰 或言), ``lemma``/``variant``
(witness) and ``*_normalized``, ``all``, ``alternative``, ``context`` (A of A无B), ``note``,
``check``, ``lemma_spans`` (seed spans in the 经), ``passage``/``layer`` (the passage the note is
on), ``text``/``span`` (the clause as printed, and where), ``statement``/``statement_span`` (the
whole statement from 今文/古文 on). An aligned ``曰`` reading gives whole stretches: lemma 拜受爵,
variant 再拜受爵.
"""
from __future__ import annotations

from conv import datafiles
from conv.analyses.reading_grammar import Clause, Statement, align, gloss_before, parse
from conv.analyses.reading_places import REACH, Reach, occurrences
from conv.analyses.text import MappedText, passage_text, position, segment_text
from conv.model.tree import Edition
from conv.normalize import fold

TRADITIONS = ("今文", "古文")
DECISIONS = datafiles.DATA_DIR / "readings.toml"
__all__ = ["Clause", "Statement", "align", "collect", "export", "parse", "problems", "statements"]


def statements(text: str) -> list[tuple[str, int, int]]:
    """Every statement in a normalized 注 text: ``(tradition, start, end)``."""
    found = sorted(
        (at, tradition) for tradition in TRADITIONS for at in _all(text, tradition)
    )
    result = []
    for index, (at, tradition) in enumerate(found):
        end = found[index + 1][0] if index + 1 < len(found) else len(text)
        result.append((tradition, at, end))
    return result


def _all(text: str, word: str):
    at = text.find(word)
    while at != -1:
        yield at
        at = text.find(word, at + len(word))


def _reading(clause: Clause, statement: Statement, seg: MappedText, reach: Reach, note_passage) -> dict:
    own_passage, own = reach.candidates[0]
    if clause.lemma_from_jing is not None:
        lemma_witness = own.witness_slice(*clause.lemma_from_jing)
    elif clause.lemma_at is not None:
        lemma_witness = seg.witness_slice(*clause.lemma_at)
    else:
        lemma_witness = None
    variant_witness = seg.witness_slice(*clause.variant_at) if clause.variant_at else ""
    passage, in_text, via = note_passage, None, None
    if clause.lemma is None:
        check, spans = "unaligned", []
    elif clause.lemma_from_jing is not None:  # aligned with the note's own 经
        places = [clause.lemma_from_jing] + [p for p in occurrences(own.normalized, clause.lemma, clause.context)
                                             if p != clause.lemma_from_jing]
        check, spans = "found", [own.span(a, b) for a, b in places]
    else:
        place = reach.find(clause.lemma, clause.context, upto=statement.start)
        if place is None:
            check, spans = ("not-found" if own.normalized else "no-text"), []
        else:
            passage, check = place.passage, "found"
            spans = [place.jing.span(a, b) for a, b in place.places]
            printed = place.jing.witness_slice(*place.places[0])
            in_text = printed if printed != lemma_witness else None
            via = seg.witness_slice(*place.via) if place.via else None
    return {
        "tradition": statement.tradition, "kind": clause.kind, "form": clause.form,
        "lemma": lemma_witness, "variant": variant_witness,
        "lemma_normalized": clause.lemma, "variant_normalized": clause.variant,
        "all": clause.all, "alternative": clause.alternative, "context": clause.context, "note": clause.note,
        "check": check, "lemma_spans": spans, "lemma_in_text": in_text, "via": via,
        "passage": passage.id, "layer": passage.layer, "note_passage": note_passage.id,
        "text": seg.witness_slice(clause.start, clause.end), "span": seg.span(clause.start, clause.end),
        "statement": seg.witness_slice(statement.start, statement.end), "statement_span": seg.span(statement.start, statement.end),
    }


def collect(edition: Edition) -> dict:
    """All readings and unparsed statements of the edition, in reading order.

    ``{"readings": [...], "unparsed": [...], "set_aside": [...]}`` (``set_aside``: statements a reviewed
    decision of ``conv/data/readings.toml`` says are no reading; a decided reading has ``decision``,
    its reason); an unparsed entry is ``{tradition, text, span,
    seed, line, col, reason, passage, statement, statement_span}``. A reading's ``passage`` is
    where its lemma stands (``conv.analyses.reading_places``), ``note_passage`` where the note is.
    """
    readings: list[dict] = []
    unparsed: list[dict] = []
    set_aside: list[dict] = []
    used: set[int] = set()  # the decisions applied (their index in the data file)
    jing_cache: dict[str, MappedText] = {}

    def jing_of(passage) -> tuple:
        if passage.id not in jing_cache:
            jing_cache[passage.id] = passage_text(edition, passage)
        return passage, jing_cache[passage.id]

    for passage, before, segment in _with_statements(edition):
        seg = segment_text(segment)
        reach = Reach(jing_of(passage), [jing_of(p) for p in before], seg.normalized)
        jing = reach.candidates[0][1]
        previous = None
        for tradition, start, end in statements(seg.normalized):
            number, decision = _decision(passage.id, seg.witness_slice(start, end))
            used.add(number)
            if decision is not None and decision.get("set_aside"):
                set_aside.append({"passage": passage.id, "statement": seg.witness_slice(start, end),
                                  "statement_span": seg.span(start, end), "reason": decision["reason"]})
                continue
            if decision is not None:
                statement = _decided(decision, seg.normalized, tradition, start)
            else:
                statement = parse(seg.normalized, tradition, start, end, jing.normalized,
                                  stands=lambda lemma, at=start: reach.stands(lemma, upto=at),
                                  previous=previous or gloss_before(seg.normalized, start))
            for index, clause in enumerate(statement.clauses):
                readings.append(_reading(clause, statement, seg, reach, passage))
                if decision is not None:  # the witness forms as the decision gives them
                    entry, reading = decision["clauses"][index], readings[-1]
                    in_text = reading["lemma_in_text"] if reading["lemma_in_text"] != entry["lemma"] else None
                    reading.update(lemma=entry["lemma"], variant=entry["variant"], lemma_in_text=in_text,
                                   decision=decision["reason"])
                    if decision.get("remark"):  # the 校勘记's word on it, in Chinese
                        reading["remark"] = decision["remark"]
            previous = statement.clauses[-1] if statement.clauses else None
            for a, b, reason in statement.unparsed:
                span = seg.span(a, b)
                line, col = position(edition, span[0], span[1])
                unparsed.append({
                    "tradition": tradition, "text": seg.witness_slice(a, b), "span": span,
                    "seed": span[0], "line": line, "col": col, "reason": reason, "passage": passage.id,
                    "statement": seg.witness_slice(start, end), "statement_span": seg.span(start, end),
                })
    anchors = {p.id for p in _passages(edition)}
    lines = datafiles.table_lines(datafiles.read_text(DECISIONS, "data files are UTF-8"), "reading")
    stale = [{"line": line, "passage": entry["passage"], "statement": entry["statement"]}
             for number, (entry, line) in enumerate(zip(datafiles.reading_decisions(), lines))
             if number not in used and entry["passage"] in anchors]
    return {"readings": readings, "unparsed": unparsed, "set_aside": set_aside, "stale_decisions": stale}


def _passages(edition: Edition):
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                yield from section.passages


def _decision(passage: str, statement: str) -> tuple[int, dict | None]:
    """The reviewed decision (``conv/data/readings.toml``) on a statement of a note, if any, and
    its index in the file (-1 for none)."""
    for number, entry in enumerate(datafiles.reading_decisions()):
        if entry["passage"] == passage and statement.startswith(entry["statement"]):
            return number, entry
    return -1, None


def _decided(decision: dict, text: str, tradition: str, start: int) -> Statement:
    """The statement as a reviewed decision reads it: its clauses as the data file gives them."""
    end = start + len(fold(decision["statement"]))
    statement = Statement(tradition, start, end)
    if end < len(text):
        statement.prose = (end, len(text))
    for entry in decision["clauses"]:  # ``stands``: the form the 经 prints the lemma in (𫝊 for 傳)
        statement.clauses.append(Clause(
            entry["kind"], start + len(tradition), end, fold(entry.get("stands", entry["lemma"])), fold(entry["variant"]),
            entry["form"], all=entry.get("all", False), alternative=entry.get("alternative", False),
            context=fold(entry["context"]) if entry.get("context") else None))
    return statement


def _with_statements(edition: Edition):
    """``zhu_segments`` whose normalized text (``fold(segment.text)``) names a tradition at all,
    with the passages of 经/记 before theirs in the same section (nearest first, ``REACH``)."""
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                for index, passage in enumerate(section.passages):
                    for segment in passage.notes:
                        if segment.layer == "zhu":
                            normalized = segment.normalized
                            if TRADITIONS[0] in normalized or TRADITIONS[1] in normalized:
                                before = [p for p in reversed(section.passages[:index]) if p.layer in ("jing", "ji")]
                                yield passage, before[:REACH], segment


def problems(edition: Edition, collected: dict | None = None) -> list[dict]:
    """What needs an editor (``problems`` records): unparsed statements, lemmas not in the 经, and
    decisions of ``conv/data/readings.toml`` that match no statement of their passage's notes."""
    collected = collected or collect(edition)
    result = []
    for entry in collected.get("stale_decisions", []):
        result.append({
            "seed": datafiles.display(DECISIONS), "line": entry["line"], "col": 1, "kind": "reading-decision-stale",
            "message": f"the decision on {entry['statement']!r} in {entry['passage']} matches no 今文/古文 statement"
                       " of that passage's notes: review the entry (the text or its passage changed) or remove it",
        })
    for entry in collected["unparsed"]:
        result.append({
            "seed": entry["seed"], "line": entry["line"], "col": entry["col"], "kind": "unparsed-reading",
            "message": f"郑注 {entry['statement']!r}: {entry['reason']}",
        })
    for reading in collected["readings"]:
        if reading["check"] == "not-found":
            seed, start, _ = reading["span"]
            line, col = position(edition, seed, start)
            result.append({
                "seed": seed, "line": line, "col": col, "kind": "reading-lemma-not-found",
                "message": f"郑注 {reading['statement']!r}: {reading['lemma']!r} is not in the 经 of {reading['passage']}"
                           f" nor of the passages before it in its section (at most {REACH}), in any form its note"
                           " gives (读为, 或作, 当为): decide it in conv/data/readings.toml or leave it open",
            })
    return result


def export(edition: Edition) -> dict:
    """The readings for the JSON export (key ``variants``)."""
    return collect(edition)
