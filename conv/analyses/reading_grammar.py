"""The clause grammar of 郑注's 今文/古文 statements (今古文异文): ``parse`` and ``align``.

``conv.analyses.readings`` finds the statements and describes the grammar; this module parses one
statement (normalized text) into clauses. Beside the forms listed there:

- a qualifier before the marker (``X或为Y`` ``X亦为Y`` ``X又为Y`` as ``X皆为Y``): 今文归或为馈 (a
  variant of some copies: ``alternative``), 古文丽亦为连, 今文觯又为觚; a scope before the lemma,
  ``从此以下X皆为Y`` (from here on: ``all``);
- a clause with no lemma (``为Y`` ``作Y`` ``或作Y`` at the start of a statement) takes the lemma of
  the statement before it in the same note, when the variant has its length: 古文缫或作藻今文作璪
  (the 今文 reads 璪 for 缫), or of 郑玄's own ``X或为Y`` right before it (``gloss_before``: 甫或为父
  今文为斧); with neither, it stays unparsed;
- ``无X字`` (古文…无能字: the tradition lacks 能), ``无也`` (the tradition lacks the 经's 也: the
  closing 也 is the lemma), ``无X`` followed by a clause (古文无兆基作期: lacks 兆, reads 期 for 基);
- the 曰 forms ``曰`` ``或言`` ``云`` ``又曰`` ``或曰`` ``皆曰`` (``又曰`` also after a clause: 今文湇为
  汁又曰…), and an ``曰A无B`` reading (今文皆曰不腆酒无之: the 经's 不腆之酒 without 之; 今文曰若赐之爵
  无君: the 经's 若君赐之爵 without 君). A ``皆曰`` reading is about every such place: it is aligned
  with no one stretch (``reads``, 今文皆曰揖众宾) unless it is an ``A无B`` one;
- prose after a reading: once a statement has a clause, what follows that is no clause of the
  grammar, or a clause whose lemma ``stands`` nowhere in the note's reach, is 郑玄's own prose (今文
  摄为聂|挠谓更益整顿之示新也, 古文获皆作䕶|非也): the statement ends where the reading ends.
  The first clause of a statement is never prose: if it cannot be read, it is ``unparsed``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

MARKERS = "为作"
QUALIFIERS = {"皆": "all", "或": "alternative", "亦": "also", "又": "also"}
SCOPES = ("从此以下",)  # 今文从此以下觚皆为爵: every occurrence from here on
SAYS = ("又曰", "或曰", "皆曰", "或言", "曰", "云")  # at the start of a statement
SAYS_AFTER = ("又曰",)  # after a clause: 今文湇为汁又曰入门自阼阶无升
LEMMALESS = ("或作", "或为", "皆作", "皆为", "为", "作")


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
    """A 今文/古文 statement in a segment: its clauses and what could not be parsed. ``end`` is
    where the reading ends: prose after it (``prose``) is not part of it."""

    tradition: str
    start: int
    end: int
    clauses: list[Clause] = field(default_factory=list)
    unparsed: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, reason)
    prose: tuple[int, int] | None = None


def parse(text: str, tradition: str, start: int, end: int, jing: str,
          stands: Callable[[str], bool] | None = None,
          previous: Clause | None = None) -> Statement:
    """Parse one statement ``text[start:end]`` against the 经 ``jing``.

    ``stands(lemma)``: whether a lemma stands in the note's reach (default: in ``jing``);
    ``previous``: the last clause of the statement before it in the same note (for a clause
    with no lemma)."""
    stands = stands or (lambda lemma: lemma in jing)
    statement = Statement(tradition, start, end)
    i = start + len(tradition)
    stop = end - 1 if end - 1 >= i and text[end - 1] == "也" else end  # a closing 也
    if i >= stop:
        statement.unparsed.append((start, end, "nothing follows the tradition" + (
            ": the statement ends the note (the witness may print the rest of it outside the note)" if i >= end else "")))
        return statement
    if text.startswith(LEMMALESS, i) and previous is not None and previous.lemma:
        i = _inherited(statement, text, i, stop, previous)
    while i < stop:
        says = SAYS if not statement.clauses else SAYS_AFTER
        said = next((prefix for prefix in says if text.startswith(prefix, i)), None)
        if said is not None:
            _reads(statement, text, i, i + len(said), stop, jing, said)
            return statement
        if text[i] == "无":
            i = _without(statement, text, i, stop, end, jing, stands)
            if i is None:
                return statement
            continue
        i = _replace(statement, text, i, stop, end, jing, stands)
        if i is None:
            return statement
    return statement


def _inherited(statement: Statement, text: str, i: int, stop: int, previous: Clause) -> int:
    """``为Y`` ``作Y`` ``或作Y`` with no lemma: the lemma of the clause before (古文缫或作藻今文作璪)."""
    mark = next(m for m in LEMMALESS if text.startswith(m, i))
    length = len(previous.lemma)
    variant_end = i + len(mark) + length
    if variant_end > stop:
        return i
    qualifier = QUALIFIERS.get(mark[0]) if len(mark) == 2 else None
    statement.clauses.append(Clause(
        "replace", i, variant_end, previous.lemma, text[i + len(mark) : variant_end], mark,
        all=qualifier == "all", alternative=qualifier == "alternative",
        lemma_at=previous.lemma_at, variant_at=(i + len(mark), variant_end),
        lemma_from_jing=previous.lemma_from_jing,
    ))
    return variant_end


def gloss_before(text: str, start: int) -> Clause | None:
    """郑玄's own ``X或为Y``/``X或作Y`` right before a statement, as the clause a lemma-less statement
    takes its lemma from: 甫或为父今文为斧 (the 今文 reads 斧 for the 经's 甫)."""
    if start < 4 or text[start - 3 : start - 1] not in ("或为", "或作"):
        return None
    lemma, variant = text[start - 4], text[start - 1]
    if any(char in "为作或也" for char in lemma + variant):
        return None
    return Clause("replace", start - 4, start, lemma, variant, text[start - 3 : start - 1], alternative=True,
                  lemma_at=(start - 4, start - 3), variant_at=(start - 1, start))


def _prose(statement: Statement, at: int, end: int) -> None:
    """What follows the reading is 郑玄's prose: the statement ends at ``at``."""
    statement.prose = (at, end)
    statement.end = at


def _without(statement: Statement, text: str, i: int, stop: int, end: int, jing: str, stands) -> int | None:
    """``无X`` at ``i`` (the tradition lacks X): ``无X字``, ``无也``, ``无X`` and a clause after it."""
    first = not statement.clauses
    lemma = text[i + 1 : stop]
    if not lemma:
        if text[stop:end] == "也" and stands("也"):  # 今文无也: the 经's 也 (某也固辞) is missing
            statement.clauses.append(Clause("omit", i, end, "也", "", "无", lemma_at=(stop, end)))
            return None
        if first:
            statement.unparsed.append((i, end, "无 with nothing after it"))
        else:
            _prose(statement, i, end)
        return None
    for cut in range(i + 2, stop - 1):  # 古文无兆基作期: lacks 兆, and a clause 基作期 follows
        rest = _clause_at(text, cut, stop)
        if rest is not None and stands(text[i + 1 : cut]) and stands(rest):
            statement.clauses.append(Clause("omit", i, cut, text[i + 1 : cut], "", "无", lemma_at=(i + 1, cut)))
            return cut
    if lemma.endswith("字") and len(lemma) > 1 and not stands(lemma) and stands(lemma[:-1]):
        statement.clauses.append(Clause("omit", i, stop, lemma[:-1], "", "无…字", lemma_at=(i + 1, stop - 1)))
        return None  # 古文无曰字: lacks 曰
    if first or stands(lemma):
        statement.clauses.append(Clause("omit", i, stop, lemma, "", "无", lemma_at=(i + 1, stop)))
    else:
        _prose(statement, i, end)
    return None


def _clause_at(text: str, i: int, stop: int) -> str | None:
    """The lemma of a ``X为Y``/``X作Y`` clause that runs exactly from ``i`` to ``stop``, or None."""
    for marker in range(i + 1, stop):
        if text[marker] in MARKERS:
            length = marker - i
            return text[i:marker] if marker + 1 + length == stop else None
    return None


def _replace(statement: Statement, text: str, i: int, stop: int, end: int, jing: str, stands) -> int | None:
    """An ``X为Y`` clause at ``i`` (or ``A无B``); returns where the next clause starts, or None."""
    clause_start = i
    first = not statement.clauses
    if first and text.startswith(LEMMALESS, i):
        statement.unparsed.append((i, end, f"{text[i:end]!r} names no lemma, and no reading before it in the note gives one"))
        return None
    form_prefix, every = "", False
    scope = next((s for s in SCOPES if text.startswith(s, i)), None)
    if scope is not None:
        form_prefix, every, i = scope, True, i + len(scope)
    if i < stop and text[i] == "改":
        form_prefix += "改"
        i += 1
    marker = next((k for k in range(i + 1, stop) if text[k] in MARKERS), None)
    without = text.find("无", i, stop)
    if marker is not None and (without == -1 or marker < without):
        lemma_start, lemma_end = i, marker
        qualifier = QUALIFIERS.get(text[lemma_end - 1]) if lemma_end - 1 > lemma_start else None
        if qualifier is not None:
            lemma_end -= 1
        lemma = text[lemma_start:lemma_end]
        variant_end = marker + 1 + len(lemma)
        variant = text[marker + 1 : min(variant_end, stop)]
        form = form_prefix + (text[lemma_end] if qualifier else "") + text[marker]
        quoted = text[lemma_start : min(variant_end, stop)]
        if not first and (not stands(lemma) or len(variant) < len(lemma)):
            _prose(statement, clause_start, end)  # 今文堕为绥|特牲少牢或为羞…: 郑玄's own words
            return None
        if quoted in jing:
            statement.unparsed.append((clause_start, end, f"{quoted!r} stands in the 经 as it is: a quoted reading whose difference is not stated"))
            return None
        if len(variant) < len(lemma):
            statement.unparsed.append((clause_start, end, f"the variant {variant!r} is shorter than the lemma {lemma!r}"
                                       + (": the statement ends the note (the witness may print the rest of it outside the note)" if variant_end > end else "")))
            return None
        if lemma.endswith("字") and not stands(lemma):
            statement.unparsed.append((clause_start, end, f"{lemma!r} names a character: its written form is described, not a reading of the 经"))
            return None
        every = every or qualifier == "all"
        statement.clauses.append(Clause(
            "replace", clause_start, variant_end, lemma, variant, form, all=every, alternative=qualifier == "alternative",
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
        if i < stop and text.startswith(variant, i):  # 郑玄's remark on the variant: 芐乃地黄非也
            last = statement.clauses[-1]
            last.note = text[i:end]
            last.end = end
            return None
        return i
    if without != -1 and without > i:
        context, lemma = text[i:without], text[without + 1 : stop]
        if lemma and lemma in context and context in jing:
            statement.clauses.append(Clause("omit", clause_start, stop, lemma, "", "A无B", context=context, lemma_at=(without + 1, stop)))
            return None
        omitted = _omission(context, lemma, jing)
        if omitted is not None:  # 公答拜无再拜: the tradition reads 公答拜 for the 经's 公答再拜
            at, length, stretch = omitted
            statement.clauses.append(Clause("omit", clause_start, stop, jing[at : at + length], "", "A无B",
                                            context=stretch, lemma_from_jing=(at, at + length)))
            return None
        if not first:
            _prose(statement, clause_start, end)
            return None
        statement.unparsed.append((clause_start, end, f"{text[i:stop]!r}: an 无 clause whose context is not in the 经 or does not hold what it lacks"))
        return None
    if not first:
        _prose(statement, clause_start, end)
        return None
    statement.unparsed.append((clause_start, end, f"{text[clause_start:end]!r} is no clause the grammar knows"))
    return None


def _reads(statement: Statement, text: str, begin: int, i: int, stop: int, jing: str, form: str) -> None:
    reading = text[i:stop]
    alternative = form in ("或言", "或曰")
    every = form == "皆曰"
    if not reading:
        statement.unparsed.append((begin, statement.end, f"{form} with nothing after it"
                                   + (": the statement ends the note (the witness may print the rest of it outside the note)" if stop == statement.end else "")))
        return
    if reading in jing:
        statement.unparsed.append((begin, statement.end, f"{reading!r} stands in the 经 as it is: the difference is not stated"))
        return
    if "无" in reading:  # 今文皆曰不腆酒无之: reads 不腆酒, the 经 不腆之酒
        context, lacking = reading.split("无", 1)
        omitted = _omission(context, lacking, jing)
        if omitted is None:
            statement.unparsed.append((begin, statement.end, f"{reading!r}: an 无 clause whose context is not in the 经 or does not hold what it lacks"))
            return
        at, length, stretch = omitted
        statement.clauses.append(Clause("omit", begin, stop, jing[at : at + length], "", form, all=every,
                                        alternative=alternative, context=stretch, lemma_from_jing=(at, at + length)))
        return
    aligned = None if every else align(reading, jing)  # 皆曰: every such place reads so, no one stretch
    if aligned is None:
        statement.clauses.append(Clause("reads", begin, stop, None, reading, form, all=every, alternative=alternative, variant_at=(i, stop)))
        return
    kind, at, length = aligned
    statement.clauses.append(Clause(
        kind, begin, stop, jing[at : at + length], reading, form, all=every, alternative=alternative,
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
