"""A 广韵 position in words a reader knows (音韵地位的读者说法): 韵目, 声母, 声调.

tshet-uinh describes a position in a modern notation (``見三C鍾上``: 母 等 类 韵 声). A reader of
the 仪礼 knows the 《广韵》's own terms: the rhyme by its 韵目 (the 上声 of 鍾 is 腫韵), the
initial by its 字母 (见母), the tone. :func:`position_words` gives those, in the simplified forms
of the reading text (``肿韵 · 见母 · 上声``); the notation itself is kept as a detail by the tip
(``static/gloss-tip.js``).

The 韵目 comes from the 《广韵》 data of tshet-uinh: the 小韵 of the position, or, for a
position the 《广韵》 has no 小韵 for (a 反切 can compute one), the 韵目 of its 韵 and 声.
"""
from __future__ import annotations

from functools import lru_cache

from conv.normalize import fold

TONES = {"平": "平声", "上": "上声", "去": "去声", "入": "入声"}


@lru_cache(maxsize=1)
def _rhymes() -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """(position's description → the 韵目 of its first 小韵 entry; (韵, 声) → its 韵目 in the 《广韵》,
    the first where a 韵 has several), from one pass over the 《广韵》 data, built once (asking
    tshet-uinh position by position makes every character of the position an entry)."""
    from tshet_uinh import 資料

    first: dict[str, str] = {}
    found: dict[tuple[str, str], list[str]] = {}
    for position in 資料.iter音韻地位():
        entries = 資料.query音韻地位(position)
        name = getattr(entries[0].來源, "韻目", None) if entries else None
        if name:
            first[position.描述] = name
            found.setdefault((position.韻, position.聲), []).append(name)
    return first, {key: max(names, key=names.count) for key, names in found.items()}


def _rhymes_by_tone() -> dict[tuple[str, str], str]:
    """(韵, 声) → its 韵目 in the 《广韵》 (the first, where a 韵 has several)."""
    return _rhymes()[1]


@lru_cache(maxsize=4096)
def position_words(description: str) -> str:
    """``肿韵 · 见母 · 上声`` for ``見三C鍾上``; ``""`` for what is not a position."""
    from tshet_uinh import 音韻地位

    try:
        position = 音韻地位.from描述(description)
    except Exception:  # noqa: BLE001 - tshet-uinh raises plain errors for a malformed description
        return ""
    first, by_tone = _rhymes()
    rhyme = first.get(position.描述) or by_tone.get((position.韻, position.聲)) or position.韻
    return " · ".join([fold(rhyme) + "韵", fold(position.母) + "母", TONES.get(position.聲, position.聲)])
