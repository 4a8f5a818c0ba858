"""张尔岐's collation notes (监本正误, 石本误字): an entry's text → lemma and statement.

卷十八 监本正误 and 卷十九 石本误字 (KR1d0038_018, _019) list, 篇 by 篇, what the 国子监 edition
and the 唐石经 have wrong: ``婦説服于室御受受誤作授(第二十/七&KR1114;)`` is the lemma in context
(婦説服于室御受), the statement (受誤作授: the 监本 prints 授 for 受) and, in small characters, the
place in the 监本 (its leaf 27) or, in 石本误字, the 节 (婦見舅姑節). The grammar is the data file
``conv/data/errata.toml`` (see its header): each pattern is tried at each position from the left,
and the first match that takes the whole rest of the entry ends the lemma (a statement with
nothing before it, 搔誤從木, is its own lemma: tried last). ``read`` returns None
for a text no pattern reads: the caller reports it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from conv import datafiles as data
from conv.reader.lines import chinese_number


@dataclass(frozen=True)
class Reading:
    """One entry read: ``lemma`` (the 句读's own text, as printed in the entry), ``subject`` (the
    characters the statement is about, or ""), ``statement`` (张尔岐's words after the lemma),
    ``cls`` (conv/data/errata.toml's class), ``times`` (凡三見: 3; else 1), ``split`` (the number of
    characters of the entry before the statement), ``printed`` (what the 监本/石本 prints for the
    subject, the pattern's ``y``: 授 for 受), ``without`` (a character other witnesses print the lemma
    without: 唐石經無也字), ``commentary`` (the 注's words a lemma quotes after 註云), ``also`` (a
    second statement's subject and print: 左誤作右簠誤作簋)."""

    lemma: str
    subject: str
    statement: str
    cls: str
    times: int
    split: int
    printed: str = ""
    without: str = ""
    commentary: str = ""
    also: tuple[str, str] | None = None  # a second statement's subject and print (簠誤作簋)


@cache
def _table() -> dict:
    return data.read_toml(data.DATA_DIR / "errata.toml")


@cache
def _patterns() -> list[tuple[str, re.Pattern]]:
    return [(rule["class"], re.compile(rule["pattern"])) for rule in _table()["statement"]]


def gaiji() -> dict[str, dict]:
    """Kanripo gaiji of these files → ``{reading, reason}``."""
    return _table().get("gaiji", {})


@cache
def same() -> dict[str, str]:
    """Forms the notes and the text write for one another (``[same]``): both directions."""
    pairs = _table().get("same", {})
    return {**pairs, **{b: a for a, b in pairs.items()}}


def read(text: str) -> Reading | None:
    """The lemma and statement of one entry's text (its large characters), or None."""
    for splits in (range(1, len(text)), (0,)):  # an empty lemma only where no other reading is
        for cls, pattern in _patterns():
            for split in splits:
                found = _reading(text, split, cls, pattern)
                if found is not None:
                    return _second(found)
    return None


def _second(reading: Reading) -> Reading:
    """A statement of two (左誤作右簠誤作簋): where what the 监本 prints runs on into a second
    statement about another character of the lemma, ``printed`` is the first one's (右) and
    ``also`` the second's subject and print (簠, 簋)."""
    if reading.cls != "wrong" or not reading.subject:
        return reading
    for cut in range(1, len(reading.printed)):
        rest = reading.printed[cut:]
        for cls, pattern in _patterns():
            other = _reading(reading.lemma + rest, len(reading.lemma), cls, pattern)
            if other is not None and cls == "wrong" and other.subject and other.subject != reading.subject:
                return replace(reading, printed=reading.printed[:cut], also=(other.subject, other.printed))
    return reading


def _reading(text: str, split: int, cls: str, pattern: re.Pattern) -> Reading | None:
    match = pattern.fullmatch(text, split)
    if match is None:
        return None
    groups = {k: v or "" for k, v in match.groupdict().items()}
    lemma, subject = text[:split], groups.get("x", "")
    if subject and lemma and same_form(subject) not in same_form(lemma):  # 腵脩腶誤作: 腵 and 腶 are one
        return None
    if not lemma:
        if not subject:
            return None
        lemma = subject  # 毋誤作母凡三見: the subject is the lemma
    lemma, _, commentary = lemma.partition(COMMENTARY)
    times = groups.get("times")
    return Reading(lemma, subject, text[split:], cls, chinese_number(times) if times else 1, split,
                   groups.get("y", ""), groups.get("without", ""), commentary)


COMMENTARY = "註云"  # 衆人騰羞者…降出註云授授先者一人: the 经's words, then the 注's


def same_form(text: str) -> str:
    """``text`` with each form of ``[same]`` written as one of its pair (the one sorting first)."""
    pairs = same()
    return "".join(min(c, pairs[c]) if c in pairs else c for c in text)


@cache
def decisions() -> dict[str, dict]:
    """Reviewed decisions (``[[decision]]``): an entry's text → ``{quotes, reason}``, the 句读's own
    words the note is about where its lemma is not the text as printed (千侯 for 干侯)."""
    return {d["note"]: d for d in _table().get("decision", [])}


def variants(reading: Reading) -> list[str]:
    """Forms of the lemma to look for where the lemma itself is in no passage, in this order: the
    lemma as the 监本/石本 prints it (皆如作亦如: the 文渊阁 text may read as the 监本 does), then the
    lemma without a character the other witnesses lack (唐石經無也字: 张尔岐's 句读 may follow them)."""
    found = []
    if reading.subject and reading.printed and reading.cls in ("wrong", "reads"):
        at = reading.lemma.rfind(reading.subject)
        if at >= 0:
            found.append(reading.lemma[:at] + reading.printed + reading.lemma[at + len(reading.subject):])
    start = reading.lemma.find(reading.without) if reading.without else -1
    while start >= 0:
        found.append(reading.lemma[:start] + reading.lemma[start + len(reading.without):])
        start = reading.lemma.find(reading.without, start + 1)
    return list(dict.fromkeys(v for v in found if v and v != reading.lemma))
