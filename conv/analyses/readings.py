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

The check (``check``): the lemma is looked up in the passage's own 经/记 text (``found`` with
``lemma_spans``, ``not-found``, or ``no-text`` when the passage has no 经 text in the witness).
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

from dataclasses import dataclass, field

from conv.analyses.text import MappedText, passage_text, position, segment_text
from conv.model.tree import Edition

TRADITIONS = ("今文", "古文")
MARKERS = "为作"


@dataclass
class Clause:
    """One parsed clause, as offsets into the segment's normalized text."""

    kind: str
    start: int
    end: int
    lemma: str | None  # normalized
    variant: str  # normalized
    form: str
    all: bool = False
    alternative: bool = False
    context: str | None = None  # for ``A无B``: A
    note: str | None = None
    lemma_from_jing: tuple[int, int] | None = None  # an aligned lemma: its offsets in the 经
    lemma_at: tuple[int, int] | None = None  # the lemma's offsets in the segment (when printed there)
    variant_at: tuple[int, int] | None = None


@dataclass
class Statement:
    """A 今文/古文 statement in a segment: its clauses and what could not be parsed."""

    tradition: str
    start: int
    end: int
    clauses: list[Clause] = field(default_factory=list)
    unparsed: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, reason)


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


def parse(text: str, tradition: str, start: int, end: int, jing: str) -> Statement:
    """Parse one statement ``text[start:end]`` (see the module docstring) against the 经 ``jing``."""
    statement = Statement(tradition, start, end)
    i = start + len(tradition)
    stop = end - 1 if end - 1 >= i and text[end - 1] == "也" else end  # a closing 也
    if i >= stop:
        statement.unparsed.append((start, end, "nothing follows the tradition"))
        return statement
    if text.startswith("曰", i) or text.startswith("或言", i):
        mark = 1 if text[i] == "曰" else 2
        _reads(statement, text, i, i + mark, stop, jing, "曰" if mark == 1 else "或言")
        return statement
    if text.startswith("无", i):
        lemma = text[i + 1 : stop]
        if not lemma:
            statement.unparsed.append((i, end, "无 with nothing after it"))
        else:
            statement.clauses.append(Clause("omit", i, stop, lemma, "", "无", lemma_at=(i + 1, stop)))
        return statement
    while i < stop:
        clause_start = i
        form_prefix = ""
        if text[i] == "改":
            form_prefix = "改"
            i += 1
        marker = next((k for k in range(i + 1, stop) if text[k] in MARKERS), None)
        without = text.find("无", i, stop)
        if marker is not None and (without == -1 or marker < without):
            lemma_start, lemma_end = i, marker
            every = text[lemma_end - 1] == "皆" and lemma_end - 1 > lemma_start
            if every:
                lemma_end -= 1
            lemma = text[lemma_start:lemma_end]
            variant_end = marker + 1 + len(lemma)
            variant = text[marker + 1 : min(variant_end, stop)]
            form = form_prefix + ("皆" if every else "") + text[marker]
            quoted = text[lemma_start : min(variant_end, stop)]
            if quoted in jing:
                statement.unparsed.append((clause_start, end, f"{quoted!r} stands in the 经 as it is: a quoted reading whose difference is not stated"))
                return statement
            if len(variant) < len(lemma):
                statement.unparsed.append((clause_start, end, f"the variant {variant!r} is shorter than the lemma {lemma!r}"))
                return statement
            statement.clauses.append(Clause(
                "replace", clause_start, variant_end, lemma, variant, form, all=every,
                lemma_at=(lemma_start, lemma_end), variant_at=(marker + 1, variant_end),
            ))
            i = variant_end
            while text.startswith(("或为", "或作"), i) and i + 2 + len(lemma) <= stop:
                alt_end = i + 2 + len(lemma)
                statement.clauses.append(Clause(
                    "replace", i, alt_end, lemma, text[i + 2 : alt_end], text[i : i + 2], all=every, alternative=True,
                    lemma_at=(lemma_start, lemma_end), variant_at=(i + 2, alt_end),
                ))
                i = alt_end
            if i >= stop:
                break
            if text.startswith(variant, i):  # 郑玄's remark on the variant: 芐乃地黄非也
                last = statement.clauses[-1]
                last.note = text[i:end]
                last.end = end
                return statement
            continue
        if without != -1 and without > i:
            context, lemma = text[i:without], text[without + 1 : stop]
            if lemma and lemma in context and context in jing:
                statement.clauses.append(Clause("omit", clause_start, stop, lemma, "", "A无B", context=context, lemma_at=(without + 1, stop)))
                return statement
            omitted = _omission(context, lemma, jing)
            if omitted is not None:  # 公答拜无再拜: the tradition reads 公答拜 for the 经's 公答再拜
                at, length, stretch = omitted
                statement.clauses.append(Clause("omit", clause_start, stop, jing[at : at + length], "", "A无B",
                                                context=stretch, lemma_from_jing=(at, at + length)))
                return statement
            statement.unparsed.append((clause_start, end, f"{text[i:stop]!r}: an 无 clause whose context is not in the 经 or does not hold what it lacks"))
            return statement
        statement.unparsed.append((clause_start, end, f"{text[clause_start:end]!r} is no clause the grammar knows"))
        return statement
    return statement


def _reads(statement: Statement, text: str, begin: int, i: int, stop: int, jing: str, form: str) -> None:
    reading = text[i:stop]
    alternative = form == "或言"
    if not reading:
        statement.unparsed.append((begin, statement.end, f"{form} with nothing after it"))
        return
    if reading in jing:
        statement.unparsed.append((begin, statement.end, f"{reading!r} stands in the 经 as it is: the difference is not stated"))
        return
    aligned = align(reading, jing)
    if aligned is None:
        statement.clauses.append(Clause("reads", begin, stop, None, reading, form, alternative=alternative, variant_at=(i, stop)))
        return
    kind, at, length = aligned
    statement.clauses.append(Clause(
        kind, begin, stop, jing[at : at + length], reading, form, alternative=alternative,
        lemma_from_jing=(at, at + length), variant_at=(i, stop),
    ))


def align(reading: str, jing: str) -> tuple[str, int, int] | None:
    """Where in the 经 a tradition's reading ``reading`` stands: ``(kind, offset, length)`` or None.

    Candidates are the stretches of the 经 that share a prefix and a suffix with the reading (2
    characters at least, half the reading at least) and differ from it by one block: the reading
    adds (``add``), lacks (``omit``) or replaces (``replace``) a block; or a stretch with the same
    characters in another order (``order``). The candidate with the smallest difference wins; a
    tie between different stretches, or no candidate, is None (not convincing).
    """
    n = len(reading)
    candidates: dict[str, tuple[int, str, list[int]]] = {}  # lemma → (cost, kind, offsets)
    for at in range(len(jing)):
        for length in range(1, n + 4):
            if at + length > len(jing):
                break
            lemma = jing[at : at + length]
            if lemma == reading:
                continue
            if length == n and sorted(lemma) == sorted(reading):
                _candidate(candidates, lemma, 1, "order", at)
                continue
            prefix = 0
            while prefix < min(n, length) and lemma[prefix] == reading[prefix]:
                prefix += 1
            suffix = 0
            while suffix < min(n, length) - prefix and lemma[length - 1 - suffix] == reading[n - 1 - suffix]:
                suffix += 1
            shared = prefix + suffix
            if shared < 2 or 2 * shared < n:
                continue
            lemma_rest, reading_rest = length - shared, n - shared
            kind = "add" if lemma_rest == 0 else "omit" if reading_rest == 0 else "replace"
            _candidate(candidates, lemma, lemma_rest + reading_rest, kind, at)
    if not candidates:
        return None
    best = min(cost for cost, _, _ in candidates.values())
    winners = [(lemma, value) for lemma, value in candidates.items() if value[0] == best]
    if len(winners) != 1:
        return None
    lemma, (_, kind, offsets) = winners[0]
    return kind, offsets[0], len(lemma)


def _omission(reading: str, lacking: str, jing: str) -> tuple[int, int, str] | None:
    """``A无B`` where A is the tradition's own reading of a stretch of the 经 (今文…公答拜无再拜:
    the 经 reads 公答再拜): ``(offset, length, stretch)`` of the block of the 经 the tradition
    lacks (再), a part of what 郑玄 says it lacks (再拜), and its stretch (公答再拜). The stretch is
    A with the block put back at one place; None unless exactly one such stretch is in the 经."""
    if not reading or not lacking:
        return None
    blocks = {lacking[a:b] for a in range(len(lacking)) for b in range(a + 1, len(lacking) + 1)}
    found = set()
    for cut in range(len(reading) + 1):
        for block in blocks:
            stretch = reading[:cut] + block + reading[cut:]
            at = jing.find(stretch)
            if at != -1 and jing.find(stretch, at + 1) == -1:
                found.add((at + cut, len(block), stretch))
            elif at != -1:
                return None  # the stretch stands twice in the 经: which one is meant?
    return found.pop() if len(found) == 1 else None


def _candidate(candidates: dict, lemma: str, cost: int, kind: str, at: int) -> None:
    entry = candidates.get(lemma)
    if entry is None:
        candidates[lemma] = (cost, kind, [at])
    else:
        entry[2].append(at)


def _occurrences(jing: str, lemma: str, context: str | None) -> list[tuple[int, int]]:
    found = []
    if context:
        inner = context.find(lemma)
        for at in _find_all(jing, context):
            found.append((at + inner, at + inner + len(lemma)))
    else:
        for at in _find_all(jing, lemma):
            found.append((at, at + len(lemma)))
    return found


def _find_all(text: str, word: str):
    at = text.find(word)
    while at != -1:
        yield at
        at = text.find(word, at + 1)


def _reading(clause: Clause, statement: Statement, seg: MappedText, jing: MappedText, passage) -> dict:
    if clause.lemma_from_jing is not None:
        lemma_witness = jing.witness_slice(*clause.lemma_from_jing)
    elif clause.lemma_at is not None:
        lemma_witness = seg.witness_slice(*clause.lemma_at)
    else:
        lemma_witness = None
    variant_witness = seg.witness_slice(*clause.variant_at) if clause.variant_at else ""
    if clause.lemma is None:
        check, spans = "unaligned", []
    elif not jing.normalized:
        check, spans = "no-text", []
    else:
        places = _occurrences(jing.normalized, clause.lemma, clause.context)
        if clause.lemma_from_jing is not None:
            places = [clause.lemma_from_jing] + [p for p in places if p != clause.lemma_from_jing]
        check = "found" if places else "not-found"
        spans = [jing.span(a, b) for a, b in places]
    return {
        "tradition": statement.tradition, "kind": clause.kind, "form": clause.form,
        "lemma": lemma_witness, "variant": variant_witness,
        "lemma_normalized": clause.lemma, "variant_normalized": clause.variant,
        "all": clause.all, "alternative": clause.alternative, "context": clause.context, "note": clause.note,
        "check": check, "lemma_spans": spans,
        "passage": passage.id, "layer": passage.layer,
        "text": seg.witness_slice(clause.start, clause.end), "span": seg.span(clause.start, clause.end),
        "statement": seg.witness_slice(statement.start, statement.end), "statement_span": seg.span(statement.start, statement.end),
    }


def collect(edition: Edition) -> dict:
    """All readings and unparsed statements of the edition, in reading order.

    ``{"readings": [...], "unparsed": [...]}``; an unparsed entry is ``{tradition, text, span,
    seed, line, col, reason, passage, statement, statement_span}``.
    """
    readings: list[dict] = []
    unparsed: list[dict] = []
    jing_cache: dict[str, MappedText] = {}
    for passage, segment in _with_statements(edition):
        found = statements(segment.normalized)
        seg = segment_text(segment)
        if passage.id not in jing_cache:
            jing_cache[passage.id] = passage_text(edition, passage)
        jing = jing_cache[passage.id]
        for tradition, start, end in found:
            statement = parse(seg.normalized, tradition, start, end, jing.normalized)
            for clause in statement.clauses:
                readings.append(_reading(clause, statement, seg, jing, passage))
            for a, b, reason in statement.unparsed:
                span = seg.span(a, b)
                line, col = position(edition, span[0], span[1])
                unparsed.append({
                    "tradition": tradition, "text": seg.witness_slice(a, b), "span": span,
                    "seed": span[0], "line": line, "col": col, "reason": reason, "passage": passage.id,
                    "statement": seg.witness_slice(start, end), "statement_span": seg.span(start, end),
                })
    return {"readings": readings, "unparsed": unparsed}


def _with_statements(edition: Edition):
    """``zhu_segments`` whose normalized text (``fold(segment.text)``) names a tradition at all."""
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                for passage in section.passages:
                    for segment in passage.notes:
                        if segment.layer == "zhu":
                            normalized = segment.normalized
                            if TRADITIONS[0] in normalized or TRADITIONS[1] in normalized:
                                yield passage, segment


def problems(edition: Edition, collected: dict | None = None) -> list[dict]:
    """What needs an editor (``problems`` records): unparsed statements, lemmas not in the 经."""
    collected = collected or collect(edition)
    result = []
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
                "message": f"郑注 {reading['statement']!r}: {reading['lemma']!r} is not in the 经 of {reading['passage']}",
            })
    return result


def export(edition: Edition) -> dict:
    """The readings for the JSON export (key ``variants``)."""
    return collect(edition)
