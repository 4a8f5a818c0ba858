"""郑注's glossary (郑注训诂): the definitions 郑玄 gives of words of the 经 — ``俟待也``,
``中犹间也``, ``鹿中谓射于榭也`` — gathered from the 郑注 segments (layer ``zhu``) of the 仪礼's 篇 and
ordered by the pinyin of the word defined. The 通解's other 篇 are left out: their 注 are many
hands' (``conv.datafiles.is_yili``: 朱熹's 庸平常也 is no 郑注).

The witness has no punctuation, so the extraction is deliberately conservative: it would rather
miss a definition than invent one. A note is cut into clauses at the sentence-final particles
也 焉 矣 耳 (a clause starts at the segment's start or right after one of them). Forms:

``you``  ``X犹Y也`` — 中犹间也. X is the clause's opening words; where the clause opens with a
         quotation (``大射曰左执弣扬犹举也``), X is the longest ending (at most two characters) of
         the words before 犹 that occurs in the 经 (扬). X at most 3 characters, Y 1–3.
``wei``  ``X谓Y也`` — 握谓中央也; also ``X者谓Y`` (自楹间者谓射于庠也, X = 自楹间) and
         ``X亦谓…``/``X皆谓…``. X opens the clause (at most 4 characters); Y runs to the 也 (at
         most 12 characters) or, with no 也, to the end of the segment (at most 10). ``X谓之Y``
         ("X is called Y") is the opposite relation and is skipped.
``ye``   ``X，Y也`` (printed ``XY也``) — 俟待也, 还左还也, 余获余算也. A single short clause (at
         most 6 characters before 也); X is its longest opening (≤ 3 characters) that occurs in the
         passage's 经; Y, the rest, is 1–2 characters. X may not be a particle or a word that opens
         an explanation (``STOP``), and a clause in ``NOT_DEFINITIONS`` (先升尊贤也: a reason, not
         a gloss) is skipped.
``zhe``  ``X者，Y也`` — 某者字也: as ``ye`` with 者 after X.

In every form X must occur in the passage's own 经/记 text (the word is one the note explains),
and X and Y must differ in the witness (``后后也``: the witness prints one character twice, so
the gloss says nothing). Entries are ``{term, definition, form, text, passage, layer, span, term_spans, pinyin,
term_witness, definition_witness, category}``: ``term``/``definition`` normalized (竝并也 gives 并/并; the
``*_witness`` fields keep 竝/并), ``text`` the gloss as the witness prints it, ``span`` its place in
the seed, ``term_spans`` the term's places in the passage's 经, ``pinyin`` with tone numbers
(``conv.analyses.terms.pinyin``: the ``[pinyin]`` readings of ``conv/data/terms.toml`` first), and
``category`` the term's category in the index of terms (``conv.analyses.terms``) when the index counts
the term in that passage, else None.
"""
from __future__ import annotations

import re

from conv.analyses import terms as term_index
from conv.analyses.text import MappedText, passage_text, segment_text, zhu_segments
from conv.model.tree import Edition
from conv.normalize import fold

BOUNDARIES = "也焉矣耳"
STOP = frozenset("不言此是凡其之而则故盖谓明嫌欲将")
NOT_DEFINITIONS = frozenset({"先升尊贤也"})

MAX_YOU_TERM, MAX_YOU_DEF = 3, 3
MAX_WEI_TERM, MAX_WEI_DEF, MAX_WEI_DEF_OPEN = 4, 12, 10
MAX_YE_CLAUSE, MAX_YE_TERM, MAX_YE_DEF = 6, 3, 2


_BOUNDARY = re.compile(f"[{BOUNDARIES}]")


def clauses(text: str) -> list[tuple[int, int, bool]]:
    """The clauses of a note: ``(start, end, closed)``; a closed clause's end is its 也 (excluded)."""
    result = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        index = match.start()
        if text[index] == "也":
            result.append((start, index, True))
        start = index + 1
    if start < len(text):
        result.append((start, len(text), False))
    return result


def find(text: str, jing: str, witness=None) -> list[tuple[str, int, int, int, int, int, int]]:
    """Definitions in a normalized note text explaining words of ``jing``.

    Returns ``(form, start, end, term_start, term_end, def_start, def_end)`` tuples: offsets into
    ``text``; ``start:end`` is the whole gloss (with its 也 when it has one). ``witness(a, b)``, when
    given, returns the witness characters behind ``text[a:b]`` (to tell X and Y apart there).
    """
    witness = witness or (lambda a, b: text[a:b])
    found = []
    for start, end, closed in clauses(text):
        body = text[start:end]
        close = end + 1 if closed else end
        hit = None
        if closed and "犹" in body:
            hit = _you(text, start, end, jing)
        elif "谓" in body:
            hit = _wei(text, start, end, closed, jing)
        elif closed:
            hit = _ye(text, start, end, jing)
        if hit is None:
            continue
        form, term_start, term_end, def_start, def_end = hit
        if witness(term_start, term_end) == witness(def_start, def_end):
            continue
        found.append((form, term_start if form == "you" else start, close, term_start, term_end, def_start, def_end))
    return found


def _you(text: str, start: int, end: int, jing: str):
    at = text.index("犹", start, end)
    term, definition = text[start:at], text[at + 1 : end]
    if not 1 <= len(definition) <= MAX_YOU_DEF:
        return None
    if 1 <= len(term) <= MAX_YOU_TERM and term in jing:
        return "you", start, at, at + 1, end
    for length in (2, 1):  # the clause opens with a quotation: take the word before 犹
        if len(term) > length and term[-length:] in jing:
            return "you", at - length, at, at + 1, end
    return None


def _wei(text: str, start: int, end: int, closed: bool, jing: str):
    at = text.index("谓", start, end)
    if text.startswith("谓之", at):
        return None
    definition_len = end - at - 1
    if definition_len < 1 or definition_len > (MAX_WEI_DEF if closed else MAX_WEI_DEF_OPEN):
        return None
    term_end = at
    candidates = [term_end]
    if at - start > 1 and text[at - 1] in "者亦皆":
        candidates.append(at - 1)
    for candidate in candidates:
        term = text[start:candidate]
        if 1 <= len(term) <= MAX_WEI_TERM and term in jing:
            return "wei", start, candidate, at + 1, end
    return None


def _ye(text: str, start: int, end: int, jing: str):
    body = text[start:end]
    if not 2 <= len(body) <= MAX_YE_CLAUSE or body + "也" in NOT_DEFINITIONS:
        return None
    for length in range(min(MAX_YE_TERM, len(body) - 1), 0, -1):
        if body[:length] in jing:
            break
    else:
        return None
    if body[0] in STOP:
        return None
    rest = start + length
    form = "ye"
    if text[rest] == "者":
        form, rest = "zhe", rest + 1
    if not 1 <= end - rest <= MAX_YE_DEF:
        return None
    return form, start, start + length, rest, end


def _occurrences(jing: MappedText, folded: str, term: str) -> list[list]:
    """The term's places in the 经, in any form it is written in: in ``folded``, the 经 folded in full (the 经's
    脯修 for 脩), when it is as long as its reading text, else in the reading text."""
    text, term = (folded, fold(term)) if len(folded) == len(jing.normalized) else (jing.normalized, term)
    spans = []
    at = text.find(term)
    while at != -1:
        spans.append(jing.span(at, at + len(term)))
        at = text.find(term, at + 1)
    return spans


def _category(term: str, jing: str) -> str | None:
    """The term's category in the index of terms — if the index counts it in this 经 (中 in 中等
    is no term of the index: 中犹间也 explains the middle step, not the tally-holder)."""
    catalogue = term_index.load()
    if term not in catalogue.terms or all(word != term for _, _, word in term_index.find(jing, catalogue)):
        return None
    return catalogue.terms[term].category


def _never_equal(start: int, end: int) -> tuple[int, int]:
    """A witness lookup under which no two stretches of a note are the same."""
    return start, end


def collect(edition: Edition) -> list[dict]:
    """Every definition, ordered by the pinyin of the term, then in reading order."""
    entries = []
    order = 0
    current, jing_text, jing = None, "", None
    for passage, _, segment in zhu_segments(edition, yili_only=True):
        if passage is not current:  # the passage's text, mapped to its seed only when needed
            current, jing_text, jing = passage, fold(passage.text), None
        if not jing_text:
            continue
        # most notes define nothing: look first in the plain normalized text, never telling X and
        # Y apart (a superset of what the witness check keeps), then map the text for the hits
        folded = fold(segment.text)
        if not find(folded, jing_text, _never_equal):
            continue
        if jing is None:
            jing = passage_text(edition, passage)
        seg = segment_text(segment)
        # the words found as the pre-filter finds them, folded in full (the 注's 脩，鍜脯也, the dried meat a sense
        # keeps, explains the 经's 脯修); each entry in the forms its passage reads (竝 in 竝并也)
        words, note = (folded, jing_text) if len(folded) == len(seg.normalized) else (seg.normalized, jing.normalized)
        for form, start, end, ts, te, ds, de in find(words, note, seg.witness_slice):
            term = seg.normalized[ts:te]
            entries.append({
                "term": term, "definition": seg.normalized[ds:de], "form": form,
                "term_witness": seg.witness_slice(ts, te), "definition_witness": seg.witness_slice(ds, de),
                "text": seg.witness_slice(start, end), "passage": passage.id, "layer": passage.layer,
                "span": seg.span(start, end), "term_spans": _occurrences(jing, jing_text, term),
                "pinyin": term_index.pinyin(term), "category": _category(term, jing.normalized), "_order": order,
            })
            order += 1
    entries.sort(key=lambda e: (term_index.sort_key(e["term"]), e["_order"]))
    for entry in entries:
        del entry["_order"]
    return entries


def by_term(entries: list[dict]) -> list[tuple[str, list[dict]]]:
    """The entries grouped by term, keeping their order: ``[(term, [entry, …]), …]``."""
    groups: dict[str, list[dict]] = {}
    for entry in entries:
        groups.setdefault(entry["term"], []).append(entry)
    return list(groups.items())


def export(edition: Edition) -> list[dict]:
    """The glossary for the JSON export (key ``glossary``)."""
    return collect(edition)
