"""门法 (等韵门法): reading a 反切 that does not spell in the 切韵 system.

``conv.parser.phonology`` executes a 反切 with tshet-uinh (``執行反切``, after 潘悟雲's rules).
Some of 陆德明's and 朱熹's 反切 give nothing there: the upper character's initial cannot stand
with the lower character's rhyme and grade (比毗志反: 並母 with 之韵, which has no labial
initials; 祭則界反: 精母 with a 二等 rhyme; 櫛側乙反: 莊母 with 真韵). The traditional 门法 of
等韵 say how such a 反切 is read; ``conv/data/menfa.toml`` holds those this edition applies, in
the order they are tried:

- an ``initial`` rule: the upper character's initial stands for its counterpart (类隔: 端 for
  知 and the reverse; 精照互用: 精 for 莊 before a 二等 rhyme, 莊 for 精 before a 一等 or 四等
  one), executed with a stand-in position of the counterpart initial;
- a ``rhyme`` rule: with an upper character of some initials, the lower character's rhyme is read
  as another (之韵无唇音: 之 as 脂 after a labial, 咍 as 灰, 嚴 as 凡; 庄组 before 真 as 臻, before 清
  as 庚 三等), in another grade where the rule says so (寄韵凭切: after 照三, 日 or 以, a 一等
  rhyme as the 三等 of its 摄: 茝昌改反, the 《广韵》's own 昌紿切),
  executed with a stand-in lower position of that rhyme (the lower character's own initial, or
  the upper's where the rhyme has no such initial).

The first rule that spells something gives the positions, and its note goes with them. The
positions are then checked against the glossed character's readings as any other (a misprinted
speller still shows: 此毗志反 gives 比's 並三A脂去, a 疑讹 for 此).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from conv import datafiles as data
from conv.errors import ConversionError

DATA_FILE = "menfa.toml"

__all__ = ["Rule", "rule_for", "rules", "spell"]


@dataclass(frozen=True)
class Rule:
    """One 门法 of ``conv/data/menfa.toml``."""

    kind: str  # "initial" or "rhyme"
    name: str
    note: str
    counterparts: dict  # initial → counterpart initial (both ways)
    stand_ins: dict  # counterpart initial → a valid position of it (描述)
    lower_grades: dict  # upper initial → the lower character's grades the rule holds for (none: all)
    initials: frozenset  # rhyme rule: the upper character's initials
    rhyme_from: str = ""
    rhyme_to: str = ""
    grade: str = ""  # rhyme rule: the 等 the lower character is read in (寄韵凭切: 三); none: its own
    rounding: str = ""  # rhyme rule: the 呼 it is read with (魂 as 真: 合); none: its own, else either


#: The keys each kind of rule needs in ``conv/data/menfa.toml``.
REQUIRED = {"initial": ("rule", "note", "counterparts", "stand_ins"), "rhyme": ("rule", "note", "initials", "from", "to")}


@lru_cache(maxsize=1)
def rules() -> tuple[Rule, ...]:
    """The rules of ``conv/data/menfa.toml``, in the order they are tried; a rule of no known kind,
    or lacking a key its kind needs, stops the conversion at its line."""
    found = []
    for entry in data.read_toml(data.DATA_DIR / DATA_FILE).get("rule", []):
        missing = [key for key in REQUIRED.get(entry.get("kind"), ("kind",)) if key not in entry]
        if missing:
            line = data.line_of(DATA_FILE, f'rule = "{entry.get("rule", "")}"')
            raise ConversionError(f"conv/data/{DATA_FILE}", line, 1,
                                  f"门法 {entry.get('rule', '?')!r}: no {', '.join(missing)} (kind {entry.get('kind')!r})",
                                  "give " + " or ".join(f'kind = "{kind}" ({", ".join(keys)})' for kind, keys in REQUIRED.items()))
        pairs = dict(entry.get("counterparts", {}))
        pairs.update({target: source for source, target in pairs.items()})
        found.append(Rule(entry["kind"], entry["rule"], entry["note"], pairs, dict(entry.get("stand_ins", {})),
                          {initial: tuple(grades) for initial, grades in entry.get("lower_grades", {}).items()},
                          frozenset(entry.get("initials", ())), entry.get("from", ""), entry.get("to", ""),
                          entry.get("grade", ""), entry.get("rounding", "")))
    return tuple(found)


def rule_for(note: str) -> Rule | None:
    """The 门法 a gloss's note opens with (the rule its position was read by), or None."""
    return next((rule for rule in rules() if note.startswith(rule.note)), None)


def spell(pairs, run) -> tuple[list[str], str]:
    """(positions, note): what the first rule that spells anything gives for the pairs of readings
    ``(upper, lower)`` (tshet-uinh 音韻地位), with ``run(upper, lower)`` the plain execution; ``([], "")``
    when none does."""
    for rule in rules():
        found: list[str] = []
        for up, low in pairs:
            for stand_up, stand_low in _stand_ins(rule, up, low):
                found += [result for result in run(stand_up, stand_low) if result not in found]
        if found:
            return found, rule.note
    return [], ""


def _stand_ins(rule: Rule, up, low) -> list:
    from tshet_uinh import 音韻地位

    if rule.kind == "initial":
        counterpart = rule.counterparts.get(up.母)
        if counterpart is None or not _grade_holds(rule, up, low):
            return []
        return [(音韻地位.from描述(rule.stand_ins[counterpart]), low)]
    if up.母 not in rule.initials or low.韻 != rule.rhyme_from:
        return []
    roundings = (rule.rounding,) if rule.rounding else (low.呼, "開", "合", None)  # its 呼 first (灰: 合 only)
    for initial in (low.母, up.母):  # the lower character's initial, else the upper's
        for rounding in dict.fromkeys(roundings):
            for division in dict.fromkeys((low.類, up.類, None)):  # 重纽 類 (凡: C)
                try:
                    return [(up, 音韻地位(initial, rounding, rule.grade or low.等, division, rule.rhyme_to, low.聲))]
                except ValueError:  # not a position of that rhyme (tshet-uinh's 驗證)
                    continue
    return []


def _grade_holds(rule: Rule, up, low) -> bool:
    """Whether an initial rule holds for this lower grade (a rule without ``lower_grades``: always)."""
    return not rule.lower_grades or low.等 in rule.lower_grades.get(up.母, ())
