"""Glosses ending a run of the 通解's text right before a note (经末音义): are they 音义, printed large where
the transcription leaves them outside the note's parentheses (…比年入學比毗志反(學者毎嵗來入也))?

``first_gloss`` finds the longest run of glosses ending a run that is sure (every glossed character stands in
the text before it, one gloss at least attested by the 《广韵》); ``inside`` finds 音义 the gloss parser
cannot delimit, for a problem report; ``cut_gloss`` a 反切 the note's ``(`` cuts in two. Used by
``conv.parser.unbracketed``.
"""
from __future__ import annotations

from conv.normalize import fold_char
from conv.parser import gloss_edges, glosses, phonology, verdicts
from conv.parser.guangyun_forms import positions_of

WINDOW = 40  # the longest run of glosses looked for before a note

#: The verdicts of a reading the 《广韵》 gives (``conv.parser.phonology``): the character's own, another
#: character's, or one the 音系 differs by.
READINGS = (phonology.MATCHES, phonology.OTHER, phonology.SYSTEM)


def first_gloss(run: str, start: int, before: str) -> int | None:
    """Where the longest run of glosses ending ``run`` begins (after ``start``), when it is sure:
    glosses through and through (``conv.parser.glosses.gloss_run``: scope notes, variants and short
    definitions included), every glossed character standing in the text before it, one gloss at
    least phonologically plausible or a 反切 whose reading the 广韵 has, if for another character
    (:data:`READINGS`: 撅居衛反, the 释文's reading, is 劌's there; not a 直音: 月令's 其音角 is 经)."""
    best = None
    for k in range(len(run) - 3, max(start, len(run) - WINDOW) - 1, -1):
        parsed = glosses.gloss_run(run[k:])
        if parsed is None:
            continue
        found = parsed[0]
        seen = before + run[start:k]
        if all(g.second or stands_in(g.char, seen) for g in found) and any(attested(g) for g in found):
            best = k
    return best


def attested(gloss) -> bool:
    """Plausible, or a 反切 giving a reading the 广韵 has (:data:`READINGS`) or whose spellers fit one
    (``verdicts.spellers_fit``: 比毗志反, 夏古雅反)."""
    return glosses.plausible(gloss) or gloss.kind == "fanqie" and not gloss.second and (
        phonology.reading(gloss).status in READINGS or verdicts.spellers_fit(
            positions_of(gloss.char), positions_of(gloss.upper), positions_of(gloss.lower)))


def stands_in(char: str, text: str) -> bool:
    """Does the glossed ``char`` stand in ``text``, in the same form or in another the reading text
    folds to the same character (示音祗説音悦 glosses the 說 of 以說逺人: 説 and 說 are one 说)?"""
    if char in text:
        return True
    folded = fold_char(char)
    return bool(folded) and any(fold_char(other) == folded for other in set(text))


def inside(run: str, start: int) -> int | None:
    """The start of the last plausible 反切 or 直音 within the last characters of ``run`` (after
    ``start``) whose glossed character stands before it: 音义 the parser cannot delimit
    (``筮市例反庿古廟字``)."""
    for index in range(len(run) - 3, max(start, len(run) - 24) - 1, -1):
        found = gloss_edges.leading(run[index:])
        if found and found[0].char in run[start:index] and glosses.plausible(found[0]) and not found[0].second:
            return index
    return None


def cut_gloss(run: str, start: int, before: str, following: str) -> int | None:
    """Where a 反切 begins that the note's ( cuts in two, the run ending with its character and one or
    two of its spellers (…纚山綺反纋一¶(尤反)…, …譴弃戰¶(反)…): the gloss these characters open with the
    note's first ones ends inside the note, gives a 广韵 reading of its character (``phonology.MATCHES``:
    not 文伯復命(反命於晉君), 經 before a note) and glosses a character that stands in the text before it.
    One character alone before a bare 反切 (闋(苦穴反)) may be the 经's own, glossed: it stays."""
    for size in (3, 2):
        k = len(run) - size
        if k < start:
            continue
        gloss = gloss_edges.opening_gloss(run[k:] + following)
        if gloss is not None and gloss.kind == "fanqie" and gloss.end > size and not gloss.second \
                and phonology.reading(gloss).status == phonology.MATCHES and stands_in(gloss.char, before + run[start:k]):
            return k
    return None
