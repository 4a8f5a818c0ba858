"""What 郑注 distinguishes (郑注所辨之字): characters normalization must not fold in a passage.

Normalization folds variant forms (竝 → 并, 幷 → 并, 賔 → 宾). Where 郑玄 explains one form by
another, or reports the other tradition's form, folding erases what he says: 竝并也 (judou-shaolao-28)
would read 并并也, and 今文竝皆为并 「今文并皆为并」. So a character that is the term or the
definition of a 训诂 entry (``conv.analyses.glossary``), or the lemma or variant of a 今古文 reading
(``conv.analyses.readings``), keeps its witness form in the normalized (规范) text of that passage —
its 经/记 and all its notes — when folding it would make it one with a character on the other side
(竝 against 并). Search still folds it (``conv.normalize.fold`` is unchanged; the search index folds
every character).

``protect(edition)`` finds these characters (``kept``), records them on each passage
(``Passage.kept``) and normalizes the passage and its notes again without folding them. A PUA code
point is never kept (it is resolved, never shown raw).
"""
from __future__ import annotations

from conv.analyses import glossary, readings
from conv.analyses.text import passages, reread
from conv.model.tree import Edition
from conv.normalize import fold_char, is_pua


def erased(one: str, other: str) -> set[str]:
    """The characters of ``one`` and ``other`` (two witness stretches 郑注 sets against each other)
    whose folding makes them one with a different character of the other side: 竝 (→ 并) against 并."""
    found = set()
    for side, against in ((one, other), (other, one)):
        folded_against = {fold_char(c): c for c in against}
        for char in side:
            folded = fold_char(char)
            if folded != char and not is_pua(char) and folded in folded_against \
                    and folded_against[folded] != char:
                found.add(char)
    return found


def kept(edition: Edition) -> dict[str, str]:
    """Passage id → the characters its normalized text keeps (sorted), for passages with any."""
    found: dict[str, set[str]] = {}
    for entry in glossary.collect(edition):
        chars = erased(entry["term_witness"], entry["definition_witness"])
        if chars:
            found.setdefault(entry["passage"], set()).update(chars)
    for reading in readings.collect(edition)["readings"]:
        chars = erased(reading["lemma"] or "", reading["variant"] or "")
        if chars:  # the passage of the lemma and the one of the note (the same, but for a note after it)
            for anchor in {reading["passage"], reading.get("note_passage", reading["passage"])}:
                found.setdefault(anchor, set()).update(chars)
    return {anchor: "".join(sorted(chars)) for anchor, chars in found.items()}


def protect(edition: Edition) -> None:
    """Keep in each passage's normalized text (and its notes') what 郑注 distinguishes there."""
    chosen = kept(edition)
    if not chosen:
        return
    for _, _, _, passage in passages(edition):
        chars = chosen.get(passage.id)
        if chars:
            keep_unfolded(passage, chars)


def keep_unfolded(passage, chars: str) -> None:
    """Keep ``chars``, with what ``passage`` keeps already (``Passage.kept``), unfolded in its reading text and its
    notes' (also for a character a sense keeps: ``conv.analyses.senses``)."""
    passage.kept = "".join(sorted(set(passage.kept) | set(chars)))
    reread(passage)
