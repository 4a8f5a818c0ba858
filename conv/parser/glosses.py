"""音义 glosses (sound glosses): split a gloss segment into single glosses.

A gloss (音义) tells how one character of the 经 or 注 is read. The witnesses use these forms
(examples from the seeds):

- 反切 *fanqie* ``kind="fanqie"``: glossed character + 反切上字 (upper) + 反切下字 (lower) + 反
  (or 切): ``弛尸纸反``, ``共九勇反``;
- 直音 *direct sound* ``kind="zhiyin"``: ``仆音赴``, ``与音预``, ``县音玄`` (玄 may be the PUA
  code point U+EA20); 音 before a 反切 is a 反切 (``榻音吐臘反``, ``或音户江反``);
- 如字 *ordinary reading* ``kind="ruzi"``: ``相如字``, ``长如字``;
- a tone ``kind="other"``, ``remark="tone"``, ``related`` the tone: ``風去聲`` (朱熹's notes), not right
  after a gloss, where it is that gloss's definition (``刌寸本反寸上声``);
- 又音 *second reading* (``second=True``): ``又章允反`` after ``纯之闰反``; its ``char`` is the
  previous gloss's character;
- context forms (``context``): ``无射之射食亦反`` (the 射 of 无射), ``采地之采七代反``, several words inside
  a note (``在朝於朝之朝直遥反``; not at the 经's edge: ``gloss_run``), a tone after them (``中節之中去聲``),
  ``乐乐下字音洛`` (the lower 乐 of 乐乐), and the sound-less ``间间厠之间`` / ``近附近之近``
  (``kind="other"``: "read 间 as in 间厠");
- a reading of two or three characters 「XY並…」 (``稍削並所教反``, ``逺近間並如字``: remark ``both``,
  ``related`` the others); two 反切 with one 反 (``楔古八先結二反``: remark ``two-readings``);
- scope notes (``scope``) right after a gloss: ``注同``, ``下同``, ``下注升相同``; a trailing definition (``definition``):
  a tone note ``寸上声``, a short gloss ending in 也 (``割也``) or 之貌 (``惻隱之貌``, not on the glossed character: the
  注's ``疑正立自定之貌``) or naming the glossed character (``畜許六反始養曰畜``) or the word it stands in
  (``丈尺之丈``), or a variant note ``本或作离``, ``字又作孩``: ``刌寸本反寸上声割也``;
- 「並…」 after a gloss that gave no reading (``喧詩作咺諠詩作諼並況晚反``: ``both-before``, the reading of the
  character before it, not of 並, unless the 广韵 reads 並 so);
- the remarks of ``conv.parser.gloss_remarks`` (``remark``, ``related``): wider scope notes, variants, 叶,
  authorities, second readings (``phonology.agree``), 「X同Y」, 「X古Y字」, 「X見上」, the words a gloss quotes.

A run (``parse_run``) is a whole 音义 segment: ``糅女又反杠音江脰音豆韬吐刀反``. ``gloss_edges.embedded``
finds glosses at the very start or end of a segment of prose (the 通解's ``相息亮反作使也…``, the 句读's
``便其事也扑普卜反``), asking ``conv.parser.phonology.plausible`` whether a candidate reads like a gloss,
so prose such as ``宾降乃反位`` is left alone.

Everything here is pure: no I/O, no state, and no input makes it raise.
Offsets (``start``/``end``) index the string given to the function, end exclusive;
``gloss.text == given[start:end]`` always holds, so the glosses and the unparsed stretches of a
run tile it (whitespace between glosses excepted). The caller removes markup (【】, page breaks)
before calling and maps offsets back to the seed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conv.parser import gloss_remarks, phonology
from conv.parser.gloss_record import FANQIE_MARKS as _FANQIE_MARKS, Gloss

__all__ = ["Gloss", "parse_run", "gloss_run", "opens_with_gloss", "plausible", "unread_reason"]

# Characters a gloss may be made of: CJK ideographs (all blocks) and private-use code points
# (the witnesses write 弦 as U+EB8E, 玄 as U+EA20).
_HAN_RANGES = (
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x323AF),
    (0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD), (0x3007, 0x3007),
)
_HAN = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in _HAN_RANGES) + "]")
# Glossed characters that, in embedded position, are far likelier to start prose (五音, 声音…).
_PROSE_BEFORE_YIN = set("之其五八声聲有无無此彼德清浊濁宫宮商徵羽同异異善恶惡")
_MAX_DEFINITION_PIECES = 3
# 舊音Y今讀如字: one 如字 gloss of the character before it; 今讀如字 glosses no 讀.
_OLD_READING_GIVEN_UP, _NOW_READ_AS_USUAL = re.compile(r"[舊旧]音.今[讀读]如字"), re.compile(r"今[讀读]如字")


@dataclass(frozen=True)
class _Core:
    kind: str
    char: str
    upper: str | None
    lower: str | None
    sound: str | None
    end: int
    second: bool = False
    context: str | None = None
    remark: str | None = None
    related: str | None = None


@dataclass(frozen=True)
class _Options:
    contexts: bool = True      # context forms (无射之射…, 间间厠之间)
    definitions: bool = True   # 也-phrase definitions (割也)
    joined: bool = True        # several context words (在朝於朝之朝): inside a note, not at the 经's edge


_FULL = _Options()
_RUN = _Options(joined=False)  # a run that may begin in the 经 (…其孰能知之聖知之知去聲: 知之 is the 经's)
_EMBEDDED = _Options(contexts=False, definitions=False)


def _han(text: str, i: int) -> bool:
    if 0 <= i < len(text):
        char = text[i]
        return "\u4e00" <= char <= "\u9fff" or _HAN.match(char) is not None  # the common block first
    return False


def _reading_at(text: str, j: int) -> tuple[str, str | None, str | None, str | None, int] | None:
    """A reading (反切, 直音 or 如字) starting at ``j``: (kind, upper, lower, sound, end)."""
    n = len(text)
    if j + 2 < n and text[j + 2] in _FANQIE_MARKS and _han(text, j) and _han(text, j + 1):
        # 音 and 反 never serve as 反切上字 here (退反位反 is prose, X音Y反 a 直音)
        if text[j] not in "音反" and text[j:j + 2] != "如字":
            return ("fanqie", text[j], text[j + 1], None, j + 3)
    if j + 1 < n and text[j] == "音" and _han(text, j + 1):
        if j + 3 < n and text[j + 3] in _FANQIE_MARKS and _han(text, j + 2) and text[j + 1] not in "音反" \
                and text[j + 2] not in "音反" and _core_at(text, j + 2, None, _EMBEDDED) is None:
            # 音 with a 反切 (或音户江反, 榻音吐臘反): 直音 户 would leave 江反, which opens no gloss
            return ("fanqie", text[j + 1], text[j + 2], None, j + 4)
        return ("zhiyin", None, None, text[j + 1], j + 2)
    if text.startswith("如字", j):
        return ("ruzi", None, None, None, j + 2)
    if text.startswith("讀若", j) and text[j - 2:j] in gloss_remarks.AUTHORITY_NAMES and _han(text, j + 2):
        return ("zhiyin", None, None, text[j + 2], j + 3)  # 皿命景反說文讀若猛: 説文's 讀若, a 直音
    if (old := _OLD_READING_GIVEN_UP.match(text, j)) and _han(text, j + 2):  # 舊音泰今讀如字
        return ("ruzi", None, None, None, old.end())
    return None


def _core_at(text: str, i: int, prev: str | None, options: _Options) -> _Core | None:
    """The gloss proper (without scope or definition) starting at ``i``."""
    if not _han(text, i):
        return None
    # 又…: a second reading of the previous gloss's character.
    if text[i] == "又" and prev is not None:
        reading = _reading_at(text, i + 1)
        if reading:
            kind, upper, lower, sound, end = reading
            return _Core(kind, prev, upper, lower, sound, end, second=True)
        name = next((n for n in gloss_remarks.AUTHORITY_NAMES if text.startswith(n, i + 1)), None)
        if name and (reading := _reading_at(text, i + 1 + len(name))):  # 膊音純又説文之允反
            kind, upper, lower, sound, end = reading
            return _Core(kind, prev, upper, lower, sound, end, True, None, "authority", name)
    # 喧詩作咺諠詩作諼並況晚反, 矜一作鰥並古頑反, 聶本又作攝又作䐑皆之渉反: 並 (皆) and a reading after a gloss that
    # gave none, the reading of the characters before it (not of 並, unless the 《广韵》 reads 並 so)
    if text[i] in "並竝皆" and prev is not None and (reading := _reading_at(text, i + 1)) and reading[0] != "ruzi":
        kind, upper, lower, sound, end = reading
        own = _Core(kind, text[i], upper, lower, sound, end)
        if phonology.reading(_gloss_of(own, text, i, end)).status != phonology.MATCHES:
            return _Core(kind, prev, upper, lower, sound, end, remark="both-before")
    if options.contexts:
        # 无射之射食亦反: context (two characters, or several: 在朝於朝之朝) 之 character, then a reading or a tone.
        if (found := gloss_remarks.contexts_at(text, i, _han, options.joined)) is not None:
            char, at, until = found
            both = 1 if text[at:at + 1] in "並竝皆" else 0  # 樂其樂人樂身之樂並音洛, 一帥之帥並所類反: every word's
            if reading := _reading_at(text, at + both):
                kind, upper, lower, sound, end = reading
                return _Core(kind, char, upper, lower, sound, end, context=text[i:until])
            tone = at + both  # 中節之中去聲, 樂其獨樂之樂並去聲, 為温為其皆去聲
            if gloss_remarks.tone_at(text, tone):
                return _Core("other", char, None, None, None, tone + 2, context=text[i:until], remark="tone",
                             related=text[tone])
        # 间间厠之间 (read as in 间厠), optionally followed by a reading.
        if i + 4 < len(text) and text[i + 3] == "之" and text[i + 4] == text[i] \
                and text[i] in text[i + 1:i + 3] and _han(text, i + 1) and _han(text, i + 2):
            reading = _reading_at(text, i + 5)
            if reading:
                kind, upper, lower, sound, end = reading
            else:
                kind, upper, lower, sound, end = "other", None, None, None, i + 5
            return _Core(kind, text[i], upper, lower, sound, end, context=text[i + 1:i + 3])
        # 朝朝上如字下直遥反, 於鑠上音烏下舒若反, 衣緇衣上於既反下如字, 朝上陟遥反下馳遥反: the upper of a word of
        # two (a character the text prints twice, or two) or of three that begins and ends with it (the lower:
        # ``_after_core``), 朝下直遥反: the lower alone.
        size = 3 if text[i + 3:i + 4] == "上" and text[i + 2:i + 3] == text[i] and _han(text, i + 1) else 2 if (
            text[i + 2:i + 3] == "上" and (text[i + 1] == text[i] or _han(text, i + 1))) else 0
        doubled = size == 2 and text[i + 1] == text[i]
        at = i + size + 1 if size else i + 2
        if size or i + 1 < len(text) and text[i + 1] in "上下":
            reading = _reading_at(text, at)
            place = "上" if size else text[i + 1]
            if reading and (doubled or place == "下" or text[reading[4]:reading[4] + 1] == "下"
                            and _reading_at(text, reading[4] + 1)):
                kind, upper, lower, sound, end = reading
                return _Core(kind, text[i], upper, lower, sound, end, context=text[i:i + size] if size else None,
                             remark="upper" if place == "上" else "lower")
        # 乐乐下字音洛: the upper/lower character of a two-character context.
        if i + 3 < len(text) and text[i + 2] in "上下" and text[i + 3] == "字" and _han(text, i + 1):
            reading = _reading_at(text, i + 4)
            if reading:
                kind, upper, lower, sound, end = reading
                char = text[i] if text[i + 2] == "上" else text[i + 1]
                return _Core(kind, char, upper, lower, sound, end, context=text[i:i + 2])
    if options.contexts and prev is None and gloss_remarks.toned_at(text, i):  # 風去聲; 刌寸本反寸上声 defines 刌
        return _Core("other", text[i], None, None, None, i + 3, remark="tone", related=text[i + 1])
    if (both := gloss_remarks.sound_and_sense_at(text, i, _han)) is not None:  # 淺音義如濺
        return _Core("zhiyin", both[0], None, None, both[1], both[2], remark="sound-and-sense")
    if (above := gloss_remarks.word_see_above_at(text, i, _han)) is not None:  # 辟咡音義見上
        return _Core("other", above[0], None, None, None, above[2], context=above[1], remark="see-above")
    if options.contexts and (read := gloss_remarks.reads_as_at(text, i, _han)) is not None:  # 恂鄭氏讀作峻
        return _Core("zhiyin", read[0], None, None, read[1], read[3], remark="reads-as", related=read[2])
    if (found := gloss_remarks.before_reading(text, i, options.contexts, _han)) is not None:
        remark, related, at = found  # 肄又作肆以二反 (variant), 席叶祥龠反 (rhyme-reading: 叶韵), 捶徐之蘂反
        reading = _reading_at(text, at) if remark != "variant" or text[i] not in "本字" else None  # 本又作…: no X
        if reading is not None and reading[0] != "ruzi":
            kind, upper, lower, sound, end = reading
            sound = related[0] if sound == "同" and related else sound  # 西字又作斯音同: read as 斯
            return _Core(kind, text[i], upper, lower, sound, end, remark=remark, related=related)
        if remark == "variant" and text[i] not in "本字":
            if text[at:at + 1] == "同" and (reading := _reading_at(text, at + 1)) is not None:  # 齊一作韲同子兮反
                kind, upper, lower, sound, end = reading
                return _Core(kind, text[i], upper, lower, sound, end, remark=remark, related=related)
            if at >= len(text) or text[at] != "同" and (_core_at(text, at, text[i], options)
                                                        or gloss_remarks.reader_at(text, at, _reading_at)):
                return _Core("other", text[i], None, None, None, at, remark=remark, related=related)  # 裂又作列
    if options.contexts and (both := gloss_remarks.both_at(text, i, _reading_at, _han)) is not None:
        kind, upper, lower, sound, end, width = both  # 稍削並所教反, 逺近間並如字, 乗斂並去聲
        return _Core(kind, text[i], upper, lower, sound, end, remark="both", related=text[i + 1:i + width])
    if options.contexts and (char := gloss_remarks.word_as_written_at(text, i, _reading_at, _han, _reads)):
        return _Core("ruzi", char, None, None, None, i + 4, context=text[i:i + 2], remark="in-word")
    if (two := gloss_remarks.two_readings_at(text, i, _han)) is not None:  # 楔古八先結二反
        return _Core("fanqie", text[i], two[0], two[1], None, two[3], remark="two-readings", related=two[2])
    reading = _reading_at(text, i + 1)
    if reading:
        kind, upper, lower, sound, end = reading
        return _Core(kind, text[i], upper, lower, sound, end)
    return None


def _pair_core(text: str, i: int) -> _Core | None:
    """「XY」 and a 反切 right after a plausible gloss (…膮許堯反牛炙章夜反): the reading's character is the one
    of the two it gives a 广韵 reading of, the word its context (``gloss_remarks.lemma_pair_at``)."""
    for char, word, (kind, upper, lower, sound, end) in gloss_remarks.lemma_pair_at(text, i, _reading_at, _han):
        core = _Core(kind, char, upper, lower, sound, end, context=word, remark="in-word")
        if phonology.reading(_gloss_of(core, text, i, end)).status == phonology.MATCHES:
            return core
    return None


def _reads(char: str, reading: tuple, text: str, at: int) -> bool:
    """Does ``reading`` (``_reading_at`` at ``at``) read ``char`` as the 《广韵》 has it (``plausible``)?"""
    kind, upper, lower, sound, end = reading
    return plausible(_gloss_of(_Core(kind, char, upper, lower, sound, end), text, at, end))


def _after_core(text: str, i: int, last: Gloss, first: bool) -> _Core | None:
    """What only follows a gloss (``last``, ending at ``i``): with ``first``, a second reading
    with its authority (徐大果反, 劉音閑, 或章允反: before a gloss of 徐 itself, when the reading
    fits ``last``'s character); else a reading without 又 that gives ``last``'s sound again
    (堟大轉反音篆, 呫音貼他箧反: ``phonology.agree``) or a remark (揃同翦, 庿古廟字, 否見上)."""
    if first and last.remark == "upper" and text[i:i + 1] == "下" and (reading := _reading_at(text, i + 1)):
        kind, upper, lower, sound, end = reading  # …上如字下直遥反: the second of the two (於鑠: 鑠)
        char = last.context[-1] if last.context else last.char
        return _Core(kind, char, upper, lower, sound, end, context=last.context, remark="then-lower")
    if first and (per_note := gloss_remarks.per_note_at(text, i, _han)) and (reading := _reading_at(text, per_note[1])):
        kind, upper, lower, sound, end = reading  # 膴舊火吳反依注音冔: the 注's reading, after the old one
        return _Core(kind, last.char, upper, lower, sound, end, True, None, "per-note", per_note[0])
    if first:
        name, at = gloss_remarks.authority_at(text, i)  # 徐又音燭: the authority's other reading; 字林音支
        reading = _reading_at(text, at) if name else None
        if reading:  # the authority's, unless it reads as a gloss of 徐 (劉, 或) itself and not of last's
            kind, upper, lower, sound, end = reading
            core = _Core(kind, last.char, upper, lower, sound, end, True, None, "authority", name)
            own = _Core(kind, text[i], upper, lower, sound, end)
            return core if plausible(_gloss_of(core, text, i, end)) or not plausible(_gloss_of(own, text, i, end)) \
                else None
        return None
    reading = _reading_at(text, i)
    if reading and reading[0] != "ruzi":
        kind, upper, lower, sound, end = reading
        core = _Core(kind, last.char, upper, lower, sound, end, True, None, "also-read")
        read = _gloss_of(core, text, i, end)  # after a 如字, a sound the 广韵 gives it or another 小韵 (内如字音納: 納)
        return core if phonology.agree(last, read) or last.kind == "ruzi" and phonology.reading(read).status in (
            phonology.MATCHES, phonology.OTHER) else None
    remark = gloss_remarks.remark_at(text, i, _han)
    if remark is not None:
        name, char, related, end = remark
        return _Core("other", char or last.char, None, None, None, end, remark=name, related=related)
    return None


def _gloss_of(core: _Core, text: str, i: int, end: int) -> Gloss:
    return Gloss(char=core.char, kind=core.kind, upper=core.upper, lower=core.lower, sound=core.sound,
                 text=text[i:end], start=i, end=end, second=core.second, context=core.context,
                 remark=core.remark, related=core.related)


def _piece_ends(text: str, e: int, options: _Options, char: str = "") -> list[int]:
    """Ends of one definition piece of ``char``'s gloss starting at ``e``, shortest first."""
    ends: list[int] = []
    # tone note of a character of the gloss, its speller (刌寸本反寸上声; not 廩彼錦力錦二反｜稱去聲, a gloss of its own)
    if _han(text, e) and gloss_remarks.tone_at(text, e + 1) and text[e] in text[max(0, e - 8):e]:
        ends.append(e + 3)
    # variant note: 本或作离, 一作醯呼兮反, 本或作鐫音同; 亦從皿
    ends.extend(gloss_remarks.variant_piece_ends(text, e, _reading_at, _han))
    # a short definition (割也, 惻隱之貌, 始養曰畜, 丈尺之丈, 或云諼譁: ``gloss_remarks.definition_piece_ends``)
    if options.definitions and not gloss_remarks.zhu_phrase_at(text, e):  # 婉謂言語也: 郑注's words
        ends.extend(gloss_remarks.definition_piece_ends(text, e, char, _han))
    return ends


def _definition_end(text: str, e: int, char: str, options: _Options) -> int | None:
    """End of a chain of definition pieces at ``e`` that reaches the end or the next gloss."""
    return _chain(text, e, 0, char, options, {})


def _chain(text: str, pos: int, depth: int, char: str, options: _Options, memo: dict) -> int | None:
    """``_definition_end`` from ``pos`` after ``depth`` pieces, memoised in ``memo`` (a plain
    function, not a closure: a self-referencing closure would leave a reference cycle per call)."""
    key = (pos, depth)
    if key in memo:
        return memo[key]
    result = None
    if depth < _MAX_DEFINITION_PIECES:
        for end in _piece_ends(text, pos, options, char):
            if end >= len(text) or _core_at(text, end, char, options) is not None or (  # or the tone of another
                    gloss_remarks.toned_at(text, end) and text[end] not in text[max(0, end - 8):end]):  # (…者非｜養去聲; 刌寸本反寸上声)
                result = end
                break
            further = _chain(text, end, depth + 1, char, options, memo)
            if further is not None:
                result = further
                break
    memo[key] = result
    return result


def _gloss_at(text: str, i: int, prev: str | None, options: _Options, last: Gloss | None = None) -> Gloss | None:
    """A whole gloss at ``i``: core, then a scope note, then a definition; ``last``: the gloss
    ending at ``i``, if any, after which the forms of ``_after_core`` are read too (not in
    embedded position)."""
    after = last is not None and last.end == i and options.contexts
    core = _after_core(text, i, last, True) if after else None
    core = core or _core_at(text, i, prev, options) or (_after_core(text, i, last, False) if after else None) \
        or (_pair_core(text, i) if after and (plausible(last) or phonology.reading(last).status == phonology.OTHER)
            else None)  # after a 广韵 reading, its own or another 小韵's (監古蹔反監於古銜反); …降釋弓反位去起吕反 is 经
    if core is None:
        return None
    end = core.end
    scope = None
    while (after := gloss_remarks.scope_end(text, end, core.char, _han)) is not None:  # one, or two (朝直遥反注同後朝服放此)
        scope = (scope or "") + text[end:after]
        end = after
    definition = None
    if end < len(text) and _core_at(text, end, core.char, options) is None:
        definition_end = _definition_end(text, end, core.char, options)
        if definition_end is not None:
            definition = text[end:definition_end]
            end = definition_end
    if core.remark == "reads-as" and prev is None and end < len(text):  # 宿讀為肅肅進也…: a 注's words
        return None
    return Gloss(
        char=core.char, kind=core.kind, upper=core.upper, lower=core.lower, sound=core.sound,
        text=text[i:end], start=i, end=end, second=core.second, context=core.context,
        definition=definition, scope=scope, remark=core.remark, related=core.related,
    )


def _parse(text: str, options: _Options, whole: bool = False) -> tuple[list[Gloss], list[tuple[int, int]]]:
    """Glosses and unparsed stretches of ``text``; ``whole``: stop at the first character that
    opens no gloss (the caller wants only a text that is glosses through and through), giving
    an unparsed stretch of that one character."""
    glosses: list[Gloss] = []
    unparsed: list[tuple[int, int]] = []
    i, n = 0, len(text)
    prev: str | None = None
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        gloss = _gloss_at(text, i, prev, options, glosses[-1] if glosses and prev is not None else None)
        if gloss is not None:
            glosses.append(gloss)
            prev = gloss.char
            i = gloss.end
            continue
        # Not a gloss: the stretch runs to the next gloss. A gloss found within two characters
        # is the tail of this broken one (又説文之允反 must not yield a gloss of 文), so it is
        # swallowed; a gloss further on is kept.
        if whole:  # the text is not glosses through and through: enough said
            unparsed.append((i, i + 1))
            break
        j = i + 1
        while j < n and not text[j].isspace() and _core_at(text, j, None, options) is None:
            j += 1
        if j < n and not text[j].isspace() and j - i <= 2:
            found = _gloss_at(text, j, None, options)
            j = found.end if found is not None else j + 1
        unparsed.append((i, j))
        prev = None
        i = j
    return glosses, unparsed


def parse_run(text: str) -> tuple[list[Gloss], list[tuple[int, int]]]:
    """Split a whole 音义 segment (e.g. '糅女又反杠音江脰音豆韬吐刀反') into glosses.

    Returns the glosses and the [start,end) stretches it could not parse (the caller reports
    them as problems). Whitespace between glosses is neither.
    """
    try:
        return _parse(text, _FULL)
    except Exception:  # never raise on arbitrary input  # pragma: no cover
        return [], ([(0, len(text))] if text else [])


# Where a text opening with a gloss shows it: X音Y, XAB反/切 (又AB反), X如字, X舊音Y今讀如字, X舊AB反, X上…, XX上…, XY上…, the
# context forms 无射之射…, 间间厠之间, 乐乐下字音洛, X又作Y…, X依注…, X叶…, X徐…. A text matching none opens
# with no gloss.
_OPENS_WITH_GLOSS = re.compile(r".音|..[並竝皆]|...[並竝皆]|.....二反|....之|......之|.[舊旧](?:音|..[反切])|.[上下]|..上|...[反切]|.如字|..之|...之|....音|.[本字]?[又或亦一]作.|.依[注註]|.叶"
                               r"|.[徐劉刘或][皆並竝]?(?:..[反切]|音)|.[並竝](?:..[反切]|音)|.(?:詩|徐|釋文|释文|記?[注註])作."
                               r"|.[平上去入][声聲]")
_SPACE = re.compile(r"\s")


def opens_with_gloss(text: str) -> bool:
    """Does ``text``, whitespace left out, open as a gloss does (``_OPENS_WITH_GLOSS``)? A cheap test before parsing."""
    head = text[:7]  # the pattern reads seven characters at most (XABCD二反, 在朝於朝之朝)
    if _SPACE.search(head) is None:  # (``\s`` is ``str.isspace``, what ``split`` splits at)
        return _OPENS_WITH_GLOSS.match(head) is not None
    return _OPENS_WITH_GLOSS.match("".join(text.split())) is not None


def gloss_run(text: str, joined: bool = False) -> tuple[list[Gloss], list[tuple[int, int]]] | None:
    """``parse_run(text)`` when text is entirely glosses (through and through), else None. A run outside a
    note may hold 经 (…其孰能知之聖知之知去聲, 律中中吕中吕之中音仲): no gloss of several context words
    there (``_RUN``); ``joined`` for a unit inside a note's parentheses (使於使者之使色吏反)."""
    if not opens_with_gloss(text):
        return None
    try:
        glosses, unparsed = _parse(text, _FULL if joined else _RUN, whole=True)
    except Exception:  # never raise on arbitrary input  # pragma: no cover
        return None
    if glosses and not unparsed:
        return glosses, unparsed  # = parse_run(text): nothing was cut short
    return None


def plausible(gloss: Gloss) -> bool:
    """Does ``gloss`` (a candidate found next to prose) read like a gloss? (``conv.parser.phonology.plausible``;
    如字 always)"""
    if gloss.kind == "zhiyin" and gloss.char in _PROSE_BEFORE_YIN and not gloss.second:
        return False
    if gloss.remark in ("tone", "per-note"):  # 風去聲: as 如字, no speller to check; 觚依注音觶: the
        return True  # 注's word (觶 for 觚), not the character's own sound, and 依注 is no prose's
    try:
        return phonology.plausible(gloss)
    except Exception:  # pragma: no cover
        return False


def unread_reason(text: str, start: int, found: list[Gloss]) -> str:
    """Why the stretch of ``text`` at ``start`` that ``parse_run`` left unread is no gloss, in a
    problem's words: a reading printed without 又 right after a gloss whose sound it does not give
    again (屬音燭涚舒鋭反音睡: 音睡 is no 广韵 reading of 涚), or a form the grammar does not know."""
    last = next((g for g in found if g.end == start), None)
    reading = _reading_at(text, start)
    if last is not None and reading is not None and reading[0] != "ruzi":
        return (f"a reading printed without 又 after {last.text}, which does not give its sound again in the "
                "《广韵》 (phonology.agree): not taken as a second reading of " + last.char)
    return "not a gloss the parser knows"
