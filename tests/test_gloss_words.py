"""A 广韵 position in words (``conv/sphinx_ext/text/gloss_words.py``): the 韵目 of each position
comes from one pass over tshet-uinh's 《广韵》 data; every position it attests, and positions it
does not (computed by a 反切), get the words the position's own 小韵 gives."""
from __future__ import annotations

from tshet_uinh import 資料, 音韻地位

from conv.normalize import fold
from conv.sphinx_ext.text import gloss_words


def by_query(description: str) -> str:
    """The words as asked of tshet-uinh position by position (the definition)."""
    position = 音韻地位.from描述(description)
    entries = 資料.query音韻地位(position)
    rhyme = getattr(entries[0].來源, "韻目", None) if entries else None
    rhyme = rhyme or gloss_words._rhymes_by_tone().get((position.韻, position.聲)) or position.韻
    return " · ".join([fold(rhyme) + "韵", fold(position.母) + "母", gloss_words.TONES[position.聲]])


def test_every_attested_position():
    descriptions = [position.描述 for position in 資料.iter音韻地位()]
    assert len(descriptions) > 3000
    assert [gloss_words.position_words(d) for d in descriptions] == [by_query(d) for d in descriptions]


def test_examples_and_unattested_positions():
    assert gloss_words.position_words("見三C鍾上") == "肿韵 · 见母 · 上声"
    # a position no character of the 《广韵》 has: the 韵目 of its 韵 and 声
    unattested = "幫一東平"
    assert not 資料.query音韻地位(音韻地位.from描述(unattested))
    assert gloss_words.position_words(unattested) == by_query(unattested)
    assert gloss_words.position_words("not a position") == ""
