"""The rule of the index of terms (名物索引) and pinyin with tone marks, for its pages."""
from __future__ import annotations

#: The rule of the index of terms (conv/terms.py), for its page and the back matter's contents.
TERMS_RULE = (
    "收词：本编名物词表所列名物，分器物、宫室位次、职官人物、射器、服饰、礼节、乐、牲体馔具八类；"
    "类内按汉语拼音（连声调，逐音节）排列。",
    "检索范围：经文与记文，注疏、章旨、卷次不计；依规范字形检索，故底本之“賔”即“宾”，"
    "词表所列异写亦计入其词。索引由程序据正文自动生成，不在正文中人工标注。",
    "长词优先（词中之词不计）：自左至右读经文，每处取从此字起能匹配的最长词条，其字即归此词，"
    "不再计入较短之词；此处无词条可起，则前进一字。故“司射”“上射”中不计“射”，“获者”“释获者”中不计“获”，"
    "“释获者”中不计“获者”，“折俎”中不计“俎”，“众宾”中不计“宾”。两词相叠，先起者先得："
    "“兄弟弟子”取“兄弟”，再取“弟子”。",
    "同形异词：词表为若干词注明非名物的语境，如“降洗”之“洗”（洗手，非洗器）、“中等”之“中”（非盛算之中），"
    "在此语境中其字占位而不计。",
    "一字多义：计字不如计义。若干词另注其为名物的语境（义项），所计只是此义：如“尊于东楹之西”之“尊”为设尊"
    "（动词），不计；“遂”只计“决遂”之遂（射韝），他处之“遂”（于是）不计。各词所不计者注于词后。"
    "规则所不能归者，暂计入其词，另列于篇末“未能归类”。",
)


# -- pinyin ------------------------------------------------------------------------------------

_MARKS = {"a": "āáǎà", "e": "ēéěè", "i": "īíǐì", "o": "ōóǒò", "u": "ūúǔù", "ü": "ǖǘǚǜ"}


def tone_marks(pinyin: str, between: str = "") -> str:
    """``zhi4 shi4`` (tone numbers, ``v`` for ü) → ``zhìshì``: the syllables joined by ``between``,
    nothing by default; ``" "`` for a cell of ``yl:datatable``'s ``pinyin`` kind (``zhì shì``)."""
    out = []
    for syllable in pinyin.split():
        tone = syllable[-1] if syllable[-1:].isdigit() else "5"
        body = syllable.rstrip("012345").replace("v", "ü").replace("u:", "ü")
        if tone in "1234":
            index = _mark_position(body)
            if index is not None:
                body = body[:index] + _MARKS[body[index]][int(tone) - 1] + body[index + 1 :]
        out.append(body)
    return between.join(out)


def _mark_position(body: str) -> int | None:
    for vowel in "ae":
        if vowel in body:
            return body.index(vowel)
    if "ou" in body:
        return body.index("o")
    for index in range(len(body) - 1, -1, -1):
        if body[index] in "iouü":
            return index
    return None


# -- where an entry belongs ---------------------------------------------------------------------
