"""Verdicts on a gloss whose main 广韵 position is not a reading of its character (非本字之音).

Three kinds are told apart, in this order (``classify``):

- ``system difference`` 音系差异: the position differs from a reading of the character only as the
  glosses' sound system differs from 《廣韻》's — in 重纽 (the A/B 类 of one 韵, 等 and 母: 岐其宜反
  gives 羣開三B支平, 《廣韻》 puts 岐 in A类), or in a pair of rhymes the glosses do not keep apart
  (``conv/data/rhyme_mergers.tsv``: 篠息小反 gives 宵韵 for 萧韵's 篠);
- ``suspect`` 疑讹: the initial the speller gives is of a class (脣 舌 齒 牙 喉, tshet-uinh's 音)
  that no reading of the character has (拊者甫反: 者 章母, 齒音; 拊 滂母, 脣音 — and 弣芳甫反 two
  passages later): the speller or the glossed character is probably corrupt;
- ``other reading`` 他字之音: everything else — a real 破读 or loan, the reading of another
  character (共九勇反, the 小韵 of 拱; 大音泰; 乡许亮反, the 小韵 of 向). Differences of voicing,
  aspiration or tone inside one class of initials are what 破读 are made of.
"""
from __future__ import annotations

from functools import lru_cache

from conv.datafiles import DATA_DIR

__all__ = ["OTHER", "SYSTEM", "SUSPECT", "classify", "mergers"]

OTHER = "other reading"
SYSTEM = "system difference"
SUSPECT = "suspect"
CLASSES = ("脣音", "舌音", "齒音", "牙音", "喉音")  # the five 音 of the initials (來 舌音, 日 齒音)
_SHOWN = {"脣音": "唇", "舌音": "舌", "齒音": "齿", "牙音": "牙", "喉音": "喉"}


@lru_cache(maxsize=1)
def mergers() -> dict[frozenset, str]:
    """``conv/data/rhyme_mergers.tsv``: {frozenset of two rhymes: reason}."""
    table = {}
    for line in (DATA_DIR / "rhyme_mergers.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            first, second, reason = line.split("\t")
            table[frozenset((first, second))] = reason
    return table


def _class(position) -> str:
    return next((name for name in CLASSES if position.屬於(name)), "")


def _system(given, own) -> str:
    """Why ``given`` differs from the reading ``own`` only in sound system, or ""."""
    if given.母 != own.母 or given.聲 != own.聲 or given.呼 != own.呼:
        return ""
    if given.韻 == own.韻 and given.等 == own.等 and given.類 != own.類:
        return f"重纽之别：推得{given.描述}，本字{own.描述}"
    if given.韻 != own.韻 and frozenset((given.韻, own.韻)) in mergers():
        return f"{given.韻}、{own.韻}二韵不分：推得{given.描述}，本字{own.描述}"
    return ""


def classify(description: str, own: tuple, speller: str = "", homophone: str = "") -> tuple[str, str]:
    """(status, note) of a main position ``description`` that is none of the character's readings
    ``own`` (tshet-uinh 音韻地位 objects); ``speller`` names the character that gave the initial,
    ``homophone`` the representative character of the position's 小韵."""
    from tshet_uinh import 音韻地位

    given = 音韻地位.from描述(description)
    for reading in own:
        why = _system(given, reading)
        if why:
            return SYSTEM, why
    if own and _class(given) not in {_class(reading) for reading in own}:
        owns = "、".join(dict.fromkeys(f"{r.母}母" for r in own))
        return SUSPECT, (f"{'切上字' + speller + '为' if speller else '推得'}{given.母}母（{_SHOWN[_class(given)]}音），"
                         f"本字之读为{owns}（{'、'.join(dict.fromkeys(_SHOWN.get(_class(r), '') for r in own))}音）")
    return OTHER, f"推得之音为{homophone}小韵之音" if homophone else ""


def spellers_fit(own: tuple, uppers: tuple, lowers: tuple) -> bool:
    """Do the spellers of a 反切 fit a reading of its character (``own``: tshet-uinh 音韻地位 objects, as
    :func:`classify` takes them) where what it gives is none of them: the lower speller (``lowers``: its
    readings) gives the reading's rhyme, 等 and tone, only the initial differs (夏古雅反: 見 for 匣, 檟's
    reading; 已居里反, the 己 it glosses) — or the upper speller (``uppers``) gives the reading's initial and
    the lower its 攝 and tone, where the two spell no position of 《廣韻》 (比毗志反: 之韵 has no 唇音;
    倍薄亥反). Evidence that a run of the text is a 反切 at all (``conv.parser.unbracketed``), never a
    reading: its verdict stays what it is."""
    initials = {upper.母 for upper in uppers}
    return any(low.聲 == reading.聲 and (low.韻 == reading.韻 and low.等 == reading.等
                                        or low.攝 == reading.攝 and reading.母 in initials)
               for low in lowers for reading in own)
