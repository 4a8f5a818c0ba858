"""广韵 positions (音韵地位) of 音义 glosses, computed with tshet-uinh.

For a 反切 gloss the upper (反切上字) and lower (反切下字) characters are looked up in the
《廣韻》 data of tshet-uinh and the 反切 is executed (``TshetUinh.執行反切``, after 潘悟雲's rules);
for a 直音 gloss the readings of the sound character are taken. The result is compared with the
glossed character's own 广韵 readings:

- ``matches``: one of the computed positions is a reading of the glossed character;
- ``other reading``: the character has readings in 广韵, none of them computed
  (共九勇反 → 見三C鍾上, the reading of 拱; 共 itself is 見三C鍾平 / 羣三C鍾去);
- ``unresolved``: a character is missing from the data, or the 反切 cannot be executed, or the
  gloss gives no sound (如字, 间间厠之间).

Characters (字形): the witnesses are simplified, tshet-uinh wants traditional forms. A character
is resolved through ``conv.normalize.fold_char`` (PUA U+EB8E → 弦, 賔 → 宾), then converted with
OpenCC s2t; because one simplified character may stand for several traditional ones (于 for 于
and 於, 干 for 干 乾 幹), every traditional candidate OpenCC lists is looked up, and every
candidate position is returned. Positions that agree with the glossed character come first.

Positions are tshet-uinh 描述 strings, e.g. ``書開三支上``, ``見三C鍾上``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache

import opencc

from conv.normalize import fold_char

__all__ = ["Reading", "reading", "position", "sort_key", "candidates", "readings", "execute", "plausible"]

MATCHES = "matches"
OTHER = "other reading"
UNRESOLVED = "unresolved"


@dataclass
class Reading:
    """The 广韵 position a gloss gives, checked against the glossed character."""

    positions: list[str]      # 音韵地位 descriptions, e.g. ["書開三支上"]; several when ambiguous
    status: str               # "matches" | "other reading" | "unresolved"
    char_positions: list[str]  # the glossed character's own readings
    note: str = ""
    matching: list[str] = field(default_factory=list)  # the positions that are readings of the char

    @property
    def position(self) -> str | None:
        """The position to show: the first one agreeing with the character, else the first (the
        most likely: candidates for the characters as printed come before OpenCC's others)."""
        if self.matching:
            return self.matching[0]
        return self.positions[0] if self.positions else None


# --- characters ---------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _s2t():
    return opencc.OpenCC("s2t")


@lru_cache(maxsize=1)
def _st_table() -> dict[str, list[str]]:
    """OpenCC's own simplified→traditional character table (all alternatives, in its order)."""
    table: dict[str, list[str]] = {}
    path = os.path.join(os.path.dirname(opencc.__file__), "dictionary", "STCharacters.txt")
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 2 and len(parts[0]) == 1:
                    table[parts[0]] = parts[1].split()
    except OSError:  # pragma: no cover
        pass
    return table


@lru_cache(maxsize=1)
def _guangyun_forms() -> dict[str, str]:
    """``conv/data/gloss_forms.tsv``: form → the 字头 《廣韻》 files it under (間 → 閒)."""
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "gloss_forms.tsv")
    table: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip() and not line.startswith("#"):
                    parts = line.rstrip("\n").split("\t")
                    if len(parts) >= 2:
                        table[parts[0]] = parts[1]
    except OSError:  # pragma: no cover
        pass
    return table


@lru_cache(maxsize=None)
def candidates(char: str) -> tuple[str, ...]:
    """Traditional forms to look ``char`` up under, most likely first.

    The character itself (a simplified form is often a traditional one too: 于, 尸, 干), its
    reading form (``fold_char``: PUA and 四库 variants resolved), and OpenCC's s2t conversion and
    alternatives of both, and the form 《廣韻》 files it under
    (``conv/data/gloss_forms.tsv``: 間 → 閒).
    """
    found: list[str] = []

    def add(candidate: str) -> None:
        if len(candidate) == 1 and candidate not in found:
            found.append(candidate)

    forms = [char]
    try:
        folded = fold_char(char)
    except Exception:  # pragma: no cover
        folded = char
    if folded and folded != char:
        forms.append(folded)
    for form in forms:
        add(form)  # 干 in a 反切 is 干 (苦干反) far more often than 幹 or 乾
        try:
            add(_s2t().convert(form))
        except Exception:  # pragma: no cover
            pass
        for alternative in _st_table().get(form, []):
            add(alternative)
    for candidate in list(found):
        if candidate in _guangyun_forms():
            add(_guangyun_forms()[candidate])
    return tuple(found)


@lru_cache(maxsize=None)
def _lookup(char: str) -> tuple:
    """tshet-uinh 音韵地位 objects of one (traditional) character, as 广韵 gives them."""
    from tshet_uinh import 資料

    try:
        return tuple(result.音韻地位 for result in 資料.query字頭(char))
    except Exception:  # pragma: no cover
        return ()


@lru_cache(maxsize=None)
def _positions_of(char: str) -> tuple:
    """All 音韵地位 objects of a witness character over its candidates, without repeats."""
    seen: dict[str, object] = {}
    for candidate in candidates(char):
        for position in _lookup(candidate):
            seen.setdefault(position.描述, position)
    return tuple(seen.values())


def readings(char: str) -> list[str]:
    """The 广韵 readings (描述) of a witness character, e.g. 共 → ['見三C鍾平', '羣三C鍾去']."""
    return [position.描述 for position in _positions_of(char)]


# 类隔 (lei-ge): 反切 whose upper character is of the 端 group while the lower character asks
# for the 知 group (二等/三等), or the reverse; 《廣韻》 itself keeps some (传大专反: 大 定母 for 澄母).
_LEIGE = {"端": "知", "透": "徹", "定": "澄", "泥": "孃", "知": "端", "徹": "透", "澄": "定", "孃": "泥"}
_LEIGE_STAND_IN = {  # a valid position of each initial, to stand in for the upper character
    "知": "知開三之平", "徹": "徹開三之平", "澄": "澄開三之平", "孃": "孃開三之平",
    "端": "端開一咍平", "透": "透開一咍平", "定": "定開一咍平", "泥": "泥開一咍平",
}


def _run(up, low) -> list[str]:
    from tshet_uinh import 執行反切

    try:
        return [result.描述 for result in 執行反切(up, low)]
    except Exception:
        return []


@lru_cache(maxsize=None)
def _execute(upper: str, lower: str) -> tuple[tuple[str, ...], bool]:
    """(positions, by 类隔): every position a pair of readings gives; 类隔 only when no pair
    gives any position directly."""
    from tshet_uinh import 音韻地位

    found: list[str] = []
    pairs = [(up, low) for up in _positions_of(upper) for low in _positions_of(lower)]
    for up, low in pairs:
        for result in _run(up, low):
            if result not in found:
                found.append(result)
    if found:
        return tuple(found), False
    for up, low in pairs:
        if up.母 not in _LEIGE:
            continue
        stand_in = 音韻地位.from描述(_LEIGE_STAND_IN[_LEIGE[up.母]])
        for result in _run(stand_in, low):
            if result not in found:
                found.append(result)
    return tuple(found), bool(found)


def execute(upper: str, lower: str) -> list[str]:
    """Execute a 反切 (witness characters): every position any pair of readings gives
    (falling back on 类隔, 端 for 知 and the reverse, when nothing is given directly)."""
    return list(_execute(upper, lower)[0])


# --- glosses ------------------------------------------------------------------------------

def reading(gloss) -> Reading:
    """The 广韵 position of a gloss (``conv.parser.glosses.Gloss``) and how it fits the character."""
    try:
        return _reading(gloss)
    except Exception as exc:  # pragma: no cover - never let one gloss stop a conversion
        return Reading([], UNRESOLVED, [], f"error: {exc}")


def position(gloss) -> str | None:
    """The one position to show for a gloss (``reading(gloss).position``), or None."""
    return reading(gloss).position


def _reading(gloss) -> Reading:
    char_positions = readings(gloss.char) if gloss.char else []
    if gloss.kind == "fanqie" and gloss.upper and gloss.lower:
        found, leige = _execute(gloss.upper, gloss.lower)
        positions = list(found)
        note = "类隔: the upper character's 端/知 initial read as its 知/端 counterpart" if leige else ""
        if not positions:
            missing = [c for c in (gloss.upper, gloss.lower) if not readings(c)]
            note = ("not in 广韵: " + "".join(missing)) if missing else "反切 cannot be executed"
            return Reading([], UNRESOLVED, char_positions, note)
    elif gloss.kind == "zhiyin" and gloss.sound:
        note = ""
        positions = readings(gloss.sound)
        if not positions:
            return Reading([], UNRESOLVED, char_positions, f"not in 广韵: {gloss.sound}")
    elif gloss.kind == "ruzi":
        return Reading([], UNRESOLVED, char_positions, "如字: the ordinary reading, no position given")
    else:
        return Reading([], UNRESOLVED, char_positions, "no sound given")
    matching = [p for p in positions if p in char_positions]
    ordered = matching + [p for p in positions if p not in matching]
    if not char_positions:
        return Reading(ordered, UNRESOLVED, [], _join(note, f"not in 广韵: {gloss.char}"))
    if matching:
        return Reading(ordered, MATCHES, char_positions, note, matching)
    return Reading(ordered, OTHER, char_positions, note)


def _join(*notes: str) -> str:
    return "; ".join(note for note in notes if note)


def plausible(gloss) -> bool:
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
        own = _positions_of(gloss.char)
        return any(a.母 == b.母 and a.韻 == b.韻 for a in given for b in own)
    if gloss.kind == "zhiyin" and gloss.sound:
        own = _positions_of(gloss.char)
        given = _positions_of(gloss.sound)
        return any(a.母 == b.母 or a.攝 == b.攝 for a in given for b in own)
    return False


# --- order --------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _orders() -> dict[str, dict[str, int]]:
    from tshet_uinh.音韻屬性常量 import 所有

    orders = {key: {value: index for index, value in enumerate(values)} for key, values in 所有.items()}
    orders["呼"] = {"": 0, **{k: v + 1 for k, v in orders["呼"].items()}}
    orders["類"] = {"": 0, **{k: v + 1 for k, v in orders["類"].items()}}
    return orders


def sort_key(position: str) -> tuple:
    """Order positions by 韵 (in 广韵 order, 東冬鍾…), 声调, then 母 (幫滂並明…), 呼, 等, 类.

    An unparsable string sorts last, by its text.
    """
    try:
        from tshet_uinh import 音韻地位

        parsed = 音韻地位.from描述(position)
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
    except Exception:
        return (1, 0, 0, 0, 0, 0, 0, str(position))
