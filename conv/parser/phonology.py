"""广韵 positions (音韵地位) of 音义 glosses, computed with tshet-uinh.

For a 反切 gloss the upper (反切上字) and lower (反切下字) characters are taken in their
*ordinary* readings (``conv.parser.spellers``: 食 乘力切, 于 羽俱切, 列 良辥切) and the 反切 is
executed (``TshetUinh.執行反切``, after 潘悟雲's rules; a 反切 that spells nothing so is read by
the traditional 门法, ``conv.parser.menfa``: 类隔, 精照互用, 之韵无唇音 …, the note naming the
rule); for a 直音 gloss the sound character's
ordinary reading is taken. That gives the *main* position, the one shown and sorted. Only when it is
not a reading of the glossed character are the spellers' other readings and forms tried (于 as
於, 干 as 幹 or 乾); those that fit the character are kept as alternatives after the main one,
never before it. When the ordinary readings give nothing at all (遏于葛反: 云母 cannot spell a
一等 rhyme), the first alternative that fits stands in for them.

The main position is then compared with the glossed character's own 广韵 readings, the forms
《廣韻》 files them under included (``conv/data/gloss_forms.tsv``: 臑 under 腝, 累 under 纍), and
the gloss gets one status (``conv.parser.verdicts`` tells the non-matching ones apart):

- ``matches`` 合于本字: a reading of the glossed character;
- ``other reading`` 他字之音: a real 破读 or loan, the reading of another character (共九勇反 →
  見三C鍾上, the 小韵 of 拱; 共 itself is 見三C鍾平 / 羣三C鍾去);
- ``system difference`` 音系差异: differs from a reading of the character only as 陆德明's system
  differs from 《廣韻》's (重纽 A/B: 岐其宜反; rhymes he did not keep apart: 篠息小反, 萧/宵);
- ``suspect`` 疑讹: the speller's initial is of a class (脣舌齒牙喉) no reading of the
  character has (拊者甫反: 者 章母, 拊 滂母): a corrupt speller or glossed character;
- ``lost character`` 录入失字: ``X音X``, a gloss whose character the simplified transcription
  merged with its sound (瞭音了 printed 了音了, 矇音蒙 printed 蒙音蒙);
- ``unresolved`` 未能推定: a character is missing from the data, the 反切 cannot be executed (nor
  read by a 门法), or
  the gloss gives no sound (如字, 间间厠之间), or a tone that is not one reading of the character.

A tone (声调: 朱熹's 長上聲, 中節之中去聲, 乗斂並去聲) names no speller: of the glossed character's readings it
picks those in that tone, and gives the position when there is one (長 上声: 知開三陽上); with none (知去聲: the
《廣韻》 writes that reading 智) or several (行去聲: 下浪切, 下更切) it stays unresolved, the note saying why.

Characters (字形, ``conv.parser.guangyun_forms``): the witnesses are simplified, tshet-uinh wants
traditional forms. A character is resolved through ``conv.normalize.fold_char`` (PUA U+EB8E → 弦,
賔 → 宾), then converted with OpenCC s2t; because one simplified character may stand for several traditional ones (于 for 于
and 於, 干 for 干 乾 幹), every traditional candidate OpenCC lists is a form of the character —
the first one 《廣韻》 has is its ordinary form, the others are alternatives.

Positions are tshet-uinh 描述 strings, e.g. ``書開三支上``, ``見三C鍾上``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

from conv.parser import menfa, spellers, verdicts
from conv.parser.guangyun_forms import candidates, filed_under, forms, positions_of, readings

__all__ = ["Reading", "reading", "position", "sort_key", "candidates", "readings", "execute", "plausible",
           "homophones", "STATUSES"]

MATCHES = "matches"
OTHER = verdicts.OTHER
SYSTEM = verdicts.SYSTEM
SUSPECT = verdicts.SUSPECT
LOST = "lost character"
UNRESOLVED = "unresolved"
#: Every status, in the order the index of glosses lists them.
STATUSES = (MATCHES, OTHER, SYSTEM, SUSPECT, LOST, UNRESOLVED)


@dataclass
class Reading:
    """The 广韵 position a gloss gives, checked against the glossed character."""

    positions: list[str]      # the main position first (the ordinary readings'), then alternatives
    status: str               # one of STATUSES
    char_positions: list[str]  # the glossed character's own readings (and its filed forms')
    note: str = ""
    matching: list[str] = field(default_factory=list)  # the positions that are readings of the char
    alternatives: list[str] = field(default_factory=list)  # fitting positions of a speller's other reading
    homophone: str = ""       # the 小韵 of the main position when it is not the character's (拱)

    @property
    def position(self) -> str | None:
        """The position shown and sorted: the main one (never an alternative before it)."""
        return self.positions[0] if self.positions else None


@lru_cache(maxsize=None)
def homophones(description: str) -> str:
    """The characters of the 小韵 at a position, its representative first (見三C鍾上 → 拱拲…)."""
    from tshet_uinh import 資料, 音韻地位

    try:
        return "".join(dict.fromkeys(entry.字頭 for entry in 資料.query音韻地位(音韻地位.from描述(description))))
    except Exception:  # pragma: no cover
        return ""


def _run(up, low) -> list[str]:
    from tshet_uinh import 執行反切

    try:
        return [result.描述 for result in 執行反切(up, low)]
    except Exception:
        return []


def _spell(pairs) -> tuple[list[str], str]:
    """(positions, note): what the pairs of readings give; when none spells anything directly, what
    the first 门法 that does gives (``conv.parser.menfa``), and its note."""
    found: list[str] = []
    for up, low in pairs:
        found += [result for result in _run(up, low) if result not in found]
    if found:
        return found, ""
    return menfa.spell(pairs, _run)


@lru_cache(maxsize=None)
def _execute(upper: str, lower: str) -> tuple[tuple[str, ...], str]:
    """(positions, the 门法's note or ""): every position a pair of readings gives."""
    found, note = _spell([(up, low) for up in positions_of(upper) for low in positions_of(lower)])
    return tuple(found), note


def execute(upper: str, lower: str) -> list[str]:
    """Execute a 反切 (witness characters) with every pair of readings (falling back on the 门法,
    ``conv.parser.menfa``, when nothing is given directly): what a gloss *could* mean."""
    return list(_execute(upper, lower)[0])


@lru_cache(maxsize=None)
def _ordinary_fanqie(upper: str, lower: str) -> tuple[tuple[str, ...], str, str]:
    """(positions, the 门法's note or "", which readings): the 反切 executed with each speller's
    ordinary reading."""
    up = spellers.ordinary(forms(upper), "upper")
    low = spellers.ordinary(forms(lower), "lower")
    if up is None or low is None:
        return (), "", ""
    found, note = _spell([(up[1], low[1])])
    return tuple(found), note, f"{up[0]}{up[1].描述} {low[0]}{low[1].描述}"


# --- glosses ------------------------------------------------------------------------------

class Sound(NamedTuple):
    """What of a gloss its reading depends on (音): the same fields, the same reading, so a
    reading is worked out once per distinct gloss (:func:`reading`, :func:`plausible`)."""

    char: str | None
    kind: str
    upper: str | None
    lower: str | None
    sound: str | None
    tone: str | None = None  # 平 上 去 入: a tone the gloss gives instead of a speller (長上聲)


#: The tone two or more characters share (乗斂並去聲, 惡好上字皆去聲: ``remark="both"``).
_SHARED_TONE = re.compile("[並竝皆]([平上去入])[聲声]")


def sound_of(gloss) -> Sound:
    return Sound(gloss.char, gloss.kind, gloss.upper, gloss.lower, gloss.sound, tone_of(gloss))


def tone_of(gloss) -> str | None:
    """The tone a gloss gives with no speller (声调): 朱熹's 長上聲, 中節之中去聲 (``remark="tone"``, the tone its
    ``related``), or the one two characters share (乗斂並去聲); else None."""
    if gloss.remark == "tone":
        return gloss.related
    if gloss.remark == "both" and gloss.kind == "other" and (shared := _SHARED_TONE.search(gloss.text or "")):
        return shared.group(1)
    return None


def reading(gloss) -> Reading:
    """The 广韵 position of a gloss (``conv.parser.glosses.Gloss``) and how it fits the character
    (a fresh Reading: its lists are the caller's)."""
    try:
        found = _reading_of(sound_of(gloss))
    except Exception as exc:  # pragma: no cover - never let one gloss stop a conversion
        return Reading([], UNRESOLVED, [], f"error: {exc}")
    return replace(found, positions=list(found.positions), char_positions=list(found.char_positions),
                   matching=list(found.matching), alternatives=list(found.alternatives))


@lru_cache(maxsize=None)
def _reading_of(sound: Sound) -> Reading:
    return _reading(sound)


def position(gloss) -> str | None:
    """The one position to show for a gloss (``reading(gloss).position``), or None."""
    return reading(gloss).position


def _given(gloss: Sound) -> tuple[list[str], list[str], str] | Reading:
    """(main positions, every other position the gloss could give, note), or an unresolved Reading."""
    char_positions = readings(gloss.char) if gloss.char else []
    if gloss.kind == "fanqie" and gloss.upper and gloss.lower:
        main, rule, _ = _ordinary_fanqie(gloss.upper, gloss.lower)
        every, every_rule = _execute(gloss.upper, gloss.lower)
        others = [p for p in every if p not in main]
        if not main and not others:
            missing = [c for c in (gloss.upper, gloss.lower) if not readings(c)]
            note = ("《广韵》未收" + "、".join(missing)) if missing else "切语无法执行"
            return Reading([], UNRESOLVED, char_positions, note)
        return list(main), others, rule if main else every_rule  # the 门法 that gave the positions shown
    if gloss.kind == "zhiyin" and gloss.sound:
        chosen = spellers.ordinary(forms(gloss.sound), "sound")
        if chosen is None:
            return Reading([], UNRESOLVED, char_positions, f"《广韵》未收{gloss.sound}")
        main = [chosen[1].描述]
        return main, [p for p in readings(gloss.sound) if p not in main], ""
    if gloss.tone:  # 長上聲: of the character's readings, the one in that tone
        inside = [p for p in char_positions if p.endswith(gloss.tone)]
        if len(inside) == 1:
            return inside, [], "据声调定音"
        if not inside:
            return Reading([], UNRESOLVED, char_positions, f"《广韵》{gloss.char}无{gloss.tone}声之读")
        count = "二三四五"[min(len(inside), 5) - 2]
        return Reading([], UNRESOLVED, char_positions,
                       f"《广韵》{gloss.char}{gloss.tone}声{count}读：{'、'.join(inside)}，声调不足以定其一")
    if gloss.kind == "ruzi":
        return Reading([], UNRESOLVED, char_positions, "如字：读如本字之常音，未注音")
    return Reading([], UNRESOLVED, char_positions, "未注读音")


def _reading(gloss: Sound) -> Reading:
    given = _given(gloss)
    if isinstance(given, Reading):
        return given
    main, others, note = given
    char_positions = readings(gloss.char)
    fits = [p for p in main if p in char_positions]
    alternatives = [] if fits else [p for p in others if p in char_positions]
    if fits:
        ordered = fits + [p for p in main if p not in fits]
    elif main:
        ordered = main + alternatives
    else:  # the ordinary readings give nothing: an alternative that fits stands in for them
        ordered = alternatives or others[:1]
        note = _join(note, "切语用字常读相切无音，取其又读或他形")
    if alternatives and main:
        note = _join(note, "以切语用字之又读或他形，可得本字之音" + "、".join(alternatives))
    matching = [p for p in ordered if p in char_positions]
    if gloss.kind == "zhiyin" and gloss.sound == gloss.char:
        return Reading(ordered, LOST, char_positions, _join(note, "X音X：被注字与所注之音同形，当为录入时二字合一"),
                       matching, alternatives)
    if not char_positions:
        return Reading(ordered, UNRESOLVED, [], _join(note, f"《广韵》未收{gloss.char}"))
    if ordered[0] in char_positions:
        filed = filed_under(gloss.char).get(ordered[0])
        if filed:
            note = _join(note, f"《广韵》收于{filed}")
        return Reading(ordered, MATCHES, char_positions, note, matching, alternatives)
    homophone = homophones(ordered[0])[:1]
    status, why = verdicts.classify(ordered[0], positions_of(gloss.char), _speller(gloss), homophone)
    return Reading(ordered, status, char_positions, _join(note, why), matching, alternatives, homophone)


def _speller(gloss) -> str:
    """The character that gives the initial: the 反切上字, or the 直音 character."""
    return gloss.upper if gloss.kind == "fanqie" else gloss.sound or ""


def _join(*notes: str) -> str:
    return "；".join(note for note in notes if note)


def plausible(gloss) -> bool:
    """:func:`plausible_sound` of the gloss's :class:`Sound`, worked out once per distinct one."""
    return plausible_sound(sound_of(gloss))


@lru_cache(maxsize=None)
def plausible_sound(gloss: Sound) -> bool:
    """Does a gloss candidate found next to prose really read like a gloss?

    A 反切 must give a position sharing 母 and 韵 with a reading of the glossed character
    (宾降乃反 gives 匣/見 咍上, 宾 is 幫 真平: prose). A 直音 must share 母 or 摄 (辩音遍: 仙/先,
    both 山摄; 大音太: 泰). 如字 passes; a gloss with unknown characters does not.
    """
    from tshet_uinh import 音韻地位

    if gloss.kind == "ruzi":
        return True
    if gloss.kind == "fanqie" and gloss.upper and gloss.lower:
        given = [音韻地位.from描述(p) for p in execute(gloss.upper, gloss.lower)]
        own = positions_of(gloss.char)
        return any(a.母 == b.母 and a.韻 == b.韻 for a in given for b in own)
    if gloss.kind == "zhiyin" and gloss.sound:
        own = positions_of(gloss.char)
        given = positions_of(gloss.sound)
        return any(a.母 == b.母 or a.攝 == b.攝 for a in given for b in own)
    return False


def agree(first, second) -> bool:
    """Does ``second`` (a reading printed after the gloss ``first`` without 又: 堟大轉反音篆) give
    ``first``'s sound again? Their positions share 母 or 摄, as :func:`plausible_sound` asks of a
    直音 (大轉反 定仙上, 篆 澄仙上: yes; 隼息允反 心諄上, 音至 章脂去: no)."""
    given = [_given_positions(sound_of(gloss)) for gloss in (first, second)]
    return any(a.母 == b.母 or a.攝 == b.攝 for a in given[0] for b in given[1])


@lru_cache(maxsize=None)
def _given_positions(gloss: Sound) -> tuple:
    """The positions a 反切 or 直音 gives (not the glossed character's own)."""
    from tshet_uinh import 音韻地位

    if gloss.kind == "fanqie" and gloss.upper and gloss.lower:
        return tuple(音韻地位.from描述(p) for p in execute(gloss.upper, gloss.lower))
    if gloss.kind == "zhiyin" and gloss.sound:
        return positions_of(gloss.sound)
    return ()


# --- order --------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _orders() -> dict[str, dict[str, int]]:
    from tshet_uinh.音韻屬性常量 import 所有

    orders = {key: {value: index for index, value in enumerate(values)} for key, values in 所有.items()}
    orders["呼"] = {"": 0, **{k: v + 1 for k, v in orders["呼"].items()}}
    orders["類"] = {"": 0, **{k: v + 1 for k, v in orders["類"].items()}}
    return orders


@lru_cache(maxsize=None)
def parsed_position(position: str):
    """tshet-uinh's 音韻地位 of a description (書開三支上), or ``None`` for a string that is not one."""
    from tshet_uinh import 音韻地位

    try:
        return 音韻地位.from描述(position)
    except Exception:
        return None


def sort_key(position: str) -> tuple:
    """Order positions by 韵 (in 广韵 order, 東冬鍾…), 声调, then 母 (幫滂並明…), 呼, 等, 类.

    An unparsable string sorts last, by its text.
    """
    parsed = parsed_position(position)
    if parsed is None:
        return (1, 0, 0, 0, 0, 0, 0, str(position))
    orders = _orders()
    return (
        0,
        orders["韻"][parsed.韻],
        orders["聲"][parsed.聲],
        orders["母"][parsed.母],
        orders["呼"][parsed.呼 or ""],
        orders["等"][parsed.等],
        orders["類"][parsed.類 or ""],
        position,
    )


def rhyme_group(position: str) -> str | None:
    """The 摄 of a position (書開三支上 → 止), or ``None`` for a string that is not one."""
    parsed = parsed_position(position)
    return parsed.攝 if parsed is not None else None


def rhyme_of(position: str) -> str | None:
    """The 韵 of a position, named by its level tone (書開三支上 → 支), or ``None``."""
    parsed = parsed_position(position)
    return parsed.韻 if parsed is not None else None
