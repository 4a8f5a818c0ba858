"""音义 remarks (音义之附注): the forms a gloss run holds besides 反切, 直音 and 如字.

``conv.parser.glosses`` reads the readings; this module knows the remarks the two works print
with them, each a form that recurs in the 释文 the 通解 quotes and in 张尔岐's own 音义:

- a **scope note** (所及) after a gloss: ``注同``, ``下同``, ``注繪同`` (the 繪 of the 注),
  ``下鬊蚤同``, ``下猶冠冠子同`` (the same word further on), ``又下同``, ``後皆倣此``,
  ``下以意推之`` (read it so further on), ``出注`` (the word stands in the 注), ``叶上章`` (a rhyme reading
  joining the stanza above: 弟子職's ``友叶音以叶上章``): :data:`SCOPE`; 「WX同」, the word
  of X further on (``飯煩晚反小飯同``: :func:`scope_end`);
- a **remark of its own** right after a gloss (:func:`remark_at`), a gloss of kind ``other`` that
  names its character and the character it relates it to (``related``):
  ``same-as`` 「X同Y」 (``挋之慎反揃同翦``: 揃 is 翦; 张尔岐's ``紒音介字彚曰同結``: the 字彙 says 紒 is 結), ``ancient-form`` 「X古Y字」
  (``筮市例反庿古廟字``: 庿 is the ancient form of 廟), ``see-above`` 「X見上」 (``俶昌六反否見上``);
- ``sound-and-sense`` 「X音義如Y」 (``淺音義如濺``: read and understood as 濺), a 直音 of Y
  wherever it stands (:func:`sound_and_sense_at`); ``reads-as`` 「X讀作Y」 (讀為, 讀曰; an authority before 讀
  or not: ``恂鄭氏讀作峻``, ``related`` the authority), a 直音 of Y after a gloss (:func:`reads_as_at`);
- between a character and its reading, a **variant** 「X(本|字)又作Y」 (``肄又作肆以二反``: 肄, written 肆
  too, 以二反; 39 times in the 通解) or the 叶韵 mark 「X叶」 (``席叶祥龠反``: 席 rhymes as 祥龠反, 朱熹's
  rhyme reading; ``rhyme-reading``) or an authority giving the only reading (``捶徐之蘂反``) or
  the 注's reading 「X依注…」 (``拾依注音涉``, ``資依注作齊音咨``, ``愁依注讀為揫子留反``, ``齊依註疾私反``:
  read as the 注 reads it; ``per-note``, ``related`` the form the 注 reads; right after a gloss too,
  a second reading: ``膴舊火吳反依注音冔``) or the old reading 「X舊…」 (``old-reading``)
  (:func:`before_reading_at`); two 反切 given with one 反, 「XABCD二反」 (``楔古八先結二反``:
  ``two-readings``, ``related`` the second's spellers; :func:`two_readings_at`);
- a variant alone between two glosses, kind ``other`` (``裂又作列紉女陳反``, ``庾一作庾``); a variant a
  book gives (``射音亦詩作斁``, ``螢釋文作熒户扄反``: :data:`VARIANT_MARK`);
- after a reading, in its definition (:func:`variant_piece_ends`), a variant with its own reading or 音同
  (``醢音海一作醯呼兮反次下句同``, ``觽許規反本或作鐫音同``) and the form with another component
  (``槃薄官反亦從皿``, ``㖃許候反一從言``), and 「作Y同」, written Y, read the same (``鄉許亮反作曏同``);
- right after a plausible gloss, a word of two characters and a 反切 or 直音 of one of them (``牛炙章夜反``,
  ``酺與音餘``, ``膏之古報反``), or words of three or four then their first character again and its reading
  (``為其可穢為于偽反``: :func:`lemma_pair_at`, the parser keeps the character the 广韵 reads so; ``in-word``,
  read only after the gloss before it, so a page's ``{yl:gloss}`` role holds the two);
- before a reading, 並 (``大並音泰``: every 大, ``all``) or a reader and 皆 (``大劉皆音㤗``); words of two that all open
  with the character, before 皆 or 並 (``為温為其皆去聲``: :func:`contexts_at`);
- the word a character stands in, after its reading (``丈如字丈尺之丈``: the 丈 of 丈尺, a definition:
  :func:`definition_piece_ends`); a word whose sound and sense were given above (``辟咡音義見上``: ``see-above``, the word
  its context; :func:`word_see_above_at`); the same word as another, then the reading (``圂與豢同音患``:
  ``same-word``, ``related`` the other; :func:`before_reading_at`);
- a **second reading with its authority** (:data:`AUTHORITIES`, 又 after it: ``徐又音燭``; the dictionaries
  字林 and 説文, :data:`AUTHORITY_NAMES`: ``觶之豉反字林音支``, or 又 before it: ``膊音純又説文之允反``): ``鬌丁果反徐大果反`` (徐邈),
  ``間如字劉音閑`` (劉昌宗), ``純之閏反或章允反`` (or…), ``挾音協一音子協反`` (one reading: …): the
  reading after the name glosses the character of the gloss before it.

Remarks that are not a gloss's own character (``字彚曰同結``, ``吕繕作謹``) are none of
these: the run keeps them unparsed and the converter reports them. Pure functions, no state.
"""
from __future__ import annotations

import re

__all__ = ["SCOPE", "scope_end", "zhu_phrase_at", "definition_piece_ends", "tone_at", "toned_at", "word_see_above_at", "AUTHORITIES", "AUTHORITY_NAMES", "ATTACHED", "VARIANT_MARK", "attached", "remark_at", "sound_and_sense_at", "reads_as_at",
           "variant_piece_ends", "both_at", "word_as_written_at", "lemma_pair_at", "authority_at", "per_note_at", "before_reading_at", "before_reading"]

# Scope notes (所及): after the gloss, before a definition. Longest alternatives first; a 注X同 names at
# most three characters or a word of the 注 (注不數之數同), 下…同 five (下文及注皆同), 後…同 four (後從者皆同), none a
# gloss's own mark (反 切 音); 卷末放此: to the end of the 卷; 注并下文食之並同: the 注's, and the words below;
# 注下除相見並同, 下文注除注二相見並同: those below save some.
SCOPE = re.compile(
    r"注及下同|注下皆同|注下同|下及注同|下注同|下注[^反切音]{1,3}同|下文同|下皆同|下并同|下竝同"
    r"|又下同|[並竝并]下同|下以意[推求]之|後皆[倣放]此|后皆[仿放]此"
    r"|[下后後][放倣仿]此|後不音者同|後[^反切音後]{1,3}[倣放仿]此|次下[^反切音同下]{0,2}同|后同|後同|下同|注同"
    r"|注[^反切音同下]{1,4}同|注[^反切音同下]{1,2}之[^反切音同下]同|下[^反切音同下]{1,5}同|後[^反切音同後]{1,4}同"
    r"|卷末[倣放仿]此|注[并並竝及]下文[^反切音同下]{0,3}[並竝并]?同"  # 食音嗣注并下文食之並同: the 注's and those below
    r"|(?:注下|下文注)除[^反切音同下]{1,4}[並竝并]?同"  # 見賢遍反注下除相見並同: all below save 相見
    r"|出[注註]"  # 豫音榭出注: the word stands in the 注
    r"|凡[^反切音同]{1,8}[皆並竝][放倣仿]此"  # 廣古曠反凡度長短廣狹者皆放此: every such word
    r"|叶[上下]章"  # 友叶音以叶上章 (弟子職): the rhyme reading joins the stanza above
)


def scope_end(text: str, i: int, char: str, is_han) -> int | None:
    """The end of a scope note at ``i`` after a gloss of ``char``: :data:`SCOPE`, or 「WX同」, the word W X of the
    text further on, X the glossed character, read the same (飯煩晚反小飯同: the 飯 of 小飯); else None."""
    if match := SCOPE.match(text, i):
        return match.end()
    for width in (1, 2):
        at = i + width
        if char and text[at:at + 2] == char + "同" and _word_of(text, i, at, is_han):
            return at + 2
    return None


# The authorities 释文 names for a second reading (徐邈, 劉昌宗; in the 周禮 李軌 and 杜子春: 振動如字李音董杜徒弄反),
# and 或 (some read it …).
AUTHORITIES = "徐劉刘或一李杜"
#: Of those, the scholars: named before a reading next to prose too (卑劉音婢), where 或 and 一 may be the 经's.
NAMED_AUTHORITIES = "徐劉刘"
#: Authorities named in more than one character: the dictionaries 字林 and 説文 (觶之豉反字林音支, 說文讀若猛), a reader
AUTHORITY_NAMES = ("字林", "説文", "說文", "劉昌宗")  # and 劉昌宗 named in full (皫本又作麃劉昌宗音普保反)
# 「X同Y」 (X與Y同), 「X古Y字」, 「X見上」, 「X去聲」: each only right after a gloss (prose holds 同 and 古 anywhere), a tone
# where the gloss before does not take it as its own (刌寸本反寸上声: its speller's tone, ``conv.parser.glosses``).
_REMARKS = (
    ("same-as", re.compile(r"(.)同(.)")),
    ("same-as", re.compile(r"()(?:字彚|字彙)曰同(.)")),  # 紒音介字彚曰同結: the 字彙 says 紒 is 結 (of the gloss before)
    ("same-as", re.compile(r"(.)[與与](.)同")),  # 長上聲弟去聲倍與背同: 倍 is the word 背
    ("tone", re.compile(r"(.)([平上去入])[聲声]")),  # …弟去聲: the tone of another character (not the gloss's speller)
    ("ancient-form", re.compile(r"(.)古(.)字")),
    ("see-above", re.compile(r"(.)[見见]上()")),
)
_SOUND_AND_SENSE = re.compile(r"(.)音[義义]如(.)")
_SEE_ABOVE_WORD = re.compile(r"(.)(.?)音[義义][見见]上")  # 辟咡音義見上: the word's sound and sense, given above
_SAME_WORD = re.compile(r"[與与](.)同")  # 圂與豢同音患: 圂 is the word 豢, read 患
_MARKS = "音反切又之並竝皆同"


def _word_of(text: str, start: int, end: int, is_han) -> bool:
    """Are ``text[start:end]`` the characters of a word a gloss quotes: Han, none of a gloss's marks (:data:`_MARKS`)?"""
    return all(is_han(text, k) and text[k] not in _MARKS for k in range(start, end))
#: After a reading: what old copies lack (椸羊支反枷又作架徐音稼古本無此字).
_NOT_IN_COPIES = re.compile(r"[古一]?本無此字")
#: 「X讀作Y」, 「X讀為Y」, 「X讀曰Y」, an authority before 讀 or not (恂鄭氏讀作峻, 酏讀曰餰): read X as Y, its sound and sense.
_READS_AS = re.compile(r"(.)(鄭氏|鄭|)[讀读](?:作|為|为|曰)(.)")
#: The remarks read only right after a gloss: a page's ``{yl:gloss}`` role holds them with that gloss
#: (``挋之慎反揃同翦``), as it holds a second reading, so that the role's text parses on its own.
ATTACHED = ("same-as", "ancient-form", "see-above", "then-lower", "in-word", "both-before")


def zhu_phrase_at(text: str, k: int) -> bool:
    """Does ``text[k:]`` open as 郑注 words a character, X謂Y, X猶Y, X之言Y (婉謂言語也, 凝猶成也, 娩之言媚也)? The
    释文 after a reading defines with X也 and 謂… (覆芳富反謂伏兵也), not so: such words are the 注 going on."""
    return text[k + 1:k + 2] in ("謂", "猶") or text[k + 1:k + 3] == "之言"


def attached(gloss) -> bool:
    """Is ``gloss`` (a parser's or the model's) read only after the gloss before it: a second
    reading (又…, 徐…, 音篆 after 大轉反) or an ``ATTACHED`` remark?"""
    return bool(gloss.second) or getattr(gloss, "remark", None) in ATTACHED


def remark_at(text: str, i: int, is_han) -> tuple[str, str, str | None, int] | None:
    """The remark right after a gloss at ``i``: (remark, char, related, end), else None.
    ``is_han(text, index)``: is the character there one a gloss is made of?"""
    for remark, pattern in _REMARKS:
        match = pattern.match(text, i)
        if match and all(is_han(text, k) for k in range(i, match.end())):
            return remark, match.group(1), match.group(2) or None, match.end()
    return None


def sound_and_sense_at(text: str, i: int, is_han) -> tuple[str, str, int] | None:
    """「X音義如Y」 at ``i``: (char, sound, end), else None."""
    match = _SOUND_AND_SENSE.match(text, i)
    if match and is_han(text, i) and is_han(text, match.end() - 1):
        return match.group(1), match.group(2), match.end()
    return None


def word_see_above_at(text: str, i: int, is_han) -> tuple[str, str | None, int] | None:
    """「X(Y)音義見上」 at ``i``: (char, the word when it is of two, end), else None. Read from the left, a
    text's first match takes the word of two (…而對辟咡音義見上: 辟咡, not 咡)."""
    match = _SEE_ABOVE_WORD.match(text, i)
    if match and all(is_han(text, k) for k in range(i, match.end())):
        return match.group(1), (match.group(1) + match.group(2)) if match.group(2) else None, match.end()
    return None


#: The ends of a short definition: 也 (割也); 之貌, 之官, not on the glossed character (惻隱之貌, 掌物價之官; the 注's
#: 疑正立自定之貌 is on 疑).
_DEFINITION_ENDS, _NOT_ON_THE_CHARACTER = ("也",), ("之貌", "之皃", "之官")


def definition_piece_ends(text: str, e: int, char: str, is_han) -> list[int]:
    """Where a short definition of the gloss of ``char`` starting at ``e`` ends, shortest first: within six
    characters, at 也 or 之貌 (:data:`_DEFINITION_ENDS`), or naming the glossed character (始養曰畜, 口耳之間曰咡);
    「W之X」, the word W (two or three characters, X among them) X stands in (丈如字丈尺之丈: the 丈 of 丈尺);
    「或云X…」, another's definition of X (諼詐也或云諼譁); 「從A從B」, the parts the character is written with
    (盻五禮反從目從兮: 盻, not 盼); 「者非」 after a reading, which it rejects (或音普莧反者非: the reading of 盼)."""
    ends: list[int] = []
    n = len(text)
    if text[e:e + 1] == "從" and text[e + 2:e + 3] == "從" and is_han(text, e + 1) and is_han(text, e + 3):
        ends.append(e + 4)
    if text[e:e + 2] == "者非":
        ends.append(e + 2)
    for k in range(e + 1, min(n, e + 7)):
        if not is_han(text, k - 1):
            break
        if text[k] in _DEFINITION_ENDS or text[k - 1:k + 1] in _NOT_ON_THE_CHARACTER and text[e] != char:
            ends.append(k + 1)
            break
        if text[k] == "曰" and char and text[k + 1:k + 2] == char:
            ends.append(k + 2)
            break
    for width in (2, 3):
        at = e + width
        if char and text[at:at + 2] == "之" + char and char in text[e:at] and "之" not in text[e:at] \
                and all(is_han(text, k) for k in range(e, at)):
            ends.append(at + 2)
            break
    if char and text[e:e + 2] == "或云" and text[e + 2:e + 3] == char:
        ends.extend(k for k in (e + 4, e + 5) if k <= n and all(is_han(text, x) for x in range(e + 3, k)))
    return ends


def tone_at(text: str, j: int) -> bool:
    """Does a tone 「X聲」 (去聲, 上声) stand at ``j``?"""
    return j + 1 < len(text) and text[j] in "平上去入" and text[j + 1] in "声聲"


def toned_at(text: str, i: int) -> bool:
    """Does a character and its tone stand at ``i`` (風去聲; not 皆去聲, which names none)?"""
    return tone_at(text, i + 1) and text[i] not in "皆並竝并俱亦"


def reads_as_at(text: str, i: int, is_han) -> tuple[str, str, str | None, int] | None:
    """「X讀作Y」 (讀為, 讀曰; 鄭氏 or 鄭 before 讀) at ``i``: (char, the form read, the authority or None, end),
    else None. In a run of 音义 (``conv.parser.glosses`` takes one opening a text only if it is the whole text: a
    注 says 讀為 too, 宿讀為肅肅進也…)."""
    match = _READS_AS.match(text, i)
    if match and is_han(text, i) and is_han(text, match.end() - 1):
        return match.group(1), match.group(3), match.group(2) or None, match.end()
    return None


#: A variant's mark: 又作, 本又作, 字或作, 一作, 一云當作 …, or the book or the reader that gives it (詩作斁, 螢釋文作熒,
#: 遰時世反徐作滯: 徐邈's text; 綏注作墮: the 注's; 腥音星字林作胜: a dictionary's).
VARIANT_MARK = r"(?:[本字]?[又或亦一]|(?<!一)本|釋文|释文|詩|徐|一云當|記?[注註]|字林|[説說]文)作"  # 韜本作㞵土刀反; not
# 一本作 (a copy); 一云當作郟; 綏注作墮: the 注's form; 字林作胜: a dictionary's
_VARIANT_AFTER = re.compile(VARIANT_MARK + "|一本作")  # after a reading, a copy's variant too (感户暗反一本作感如字)
_VARIANT_BEFORE = re.compile(VARIANT_MARK + "(.)")
#: 「云…也」 after a dictionary's form: its definition (字林作胜云不熟也).
_SAYS = re.compile(r"云[^反切音也]{1,6}也")
#: The form written with another component, after a gloss (槃薄官反亦從皿, 㖃許候反一從言).
_OTHER_COMPONENT = re.compile(r"[一亦或]從(.)")
#: 「作Y同」 after a gloss: the word written Y (in another text), read the same (鄉許亮反作曏同).
_WRITTEN_SAME = re.compile(r"作(.)同")
# 依注 / 依註: the reading the 注 gives, with the form it reads (依注作齊, 依注讀為揫) or without.
_PER_NOTE = re.compile(r"依[注註](?:作(.)|[讀读][為为](.))?")
# 舊音泰今讀如字 is one 如字 gloss (conv.parser.glosses), not an old reading before a reading.
_GIVEN_UP = re.compile(r"[舊旧]音.今")


def variant_piece_ends(text: str, e: int, reading_at, is_han) -> list[int]:
    """Where a variant or a component note after a gloss ends, shortest first (``conv.parser.glosses``'
    definition pieces): 本或作离, a copy's 一本作感 (one or two characters), then, after one, the variant's own
    reading (一作醯呼兮反, 又作跂去智反, 一本作感如字) or 音同 (本或作鐫音同) and a scope after it (…呼兮反次下句同);
    亦從皿; what old copies lack, 古本無此字.
    ``reading_at(text, j)``: the reading at ``j`` as the parser reads it, or None."""
    ends: list[int] = []
    if absent := _NOT_IN_COPIES.match(text, e):
        ends.append(absent.end())
    match = _VARIANT_AFTER.match(text, e)
    if match:
        for width in (1, 2):
            k = match.end() + width
            if k <= len(text) and all(is_han(text, x) for x in range(match.end(), k)):
                ends.append(k)
        k = match.end() + 1
        if ends and ends[0] == k:
            if said := _SAYS.match(text, k):  # 字林作胜云不熟也先丁反: the dictionary's definition, then its reading
                k = said.end()
                ends.append(k)
            reading = reading_at(text, k)
            after = k + 2 if text.startswith("音同", k) else reading[4] if reading else None
            if after is not None:
                ends.append(after)
                scope = SCOPE.match(text, after)
                if scope:
                    ends.append(scope.end())
    same = _WRITTEN_SAME.match(text, e)  # 鄉許亮反作曏同: written 曏 too, read the same
    if same and is_han(text, e + 1):
        ends.append(same.end())
    component = _OTHER_COMPONENT.match(text, e)
    if component and is_han(text, component.end() - 1):
        ends.append(component.end())
    return ends


def both_at(text: str, i: int, reading_at, is_han) -> tuple | None:
    """「XY並…」, 「XYZ並…」 (皆) at ``i``: one reading of two, three or four characters (稍削並所教反, 逺近間並如字, 易易皆以䜴反), or a tone
    (乗斂並去聲, 逺好惡斂並去聲): (kind, upper, lower, sound, end, the word's width), else None. Not a reader's name before 皆: 大劉皆音泰
    (劉昌宗 reads every 大 so)."""
    for width in (2, 3, 4):  # …逺好惡斂並去聲: four
        mark = text[i + width:i + width + 1]
        if mark not in ("並", "竝", "皆") or not all(is_han(text, k) for k in range(i, i + width)) \
                or mark == "皆" and text[i + width - 1] in AUTHORITIES:
            continue
        if (reading := reading_at(text, i + width + 1)) is not None:
            return (*reading, width)
        at = i + width + 1
        if tone_at(text, at):
            return "other", None, None, None, at + 2, width
    return None


def word_as_written_at(text: str, i: int, reading_at, is_han, reads) -> str | None:
    """「XY如字」 at ``i`` and a scholar's reading after it (振動如字李音董杜徒弄反): the word XY read as written, and
    the readings after it are of the one of its characters they read in the 《广韵》 (動, not 振: ``reads(char,
    reading, text, at)``): that character, else None. Without a reading after it, nothing tells which."""
    if text[i + 2:i + 4] != "如字" or not (is_han(text, i) and is_han(text, i + 1)) \
            or any(c in "反切音又之並竝上下同" for c in text[i:i + 2]):
        return None
    name, at = authority_at(text, i + 4)
    reading = reading_at(text, at) if name else None
    if reading is None or reading[0] == "ruzi":
        return None
    read = [char for char in text[i:i + 2] if reads(char, reading, text, at)]
    return read[0] if len(read) == 1 else None


def lemma_pair_at(text: str, i: int, reading_at, is_han) -> list[tuple[str, str, tuple]]:
    """「XY」 then a 反切 or 直音 (牛炙章夜反, 監於古銜反, 有行下孟反, 酺與音餘, 膏之古報反), or words of three or four
    then their first character again and its reading (為其可穢為于偽反): the word the 释文 quotes, one of whose two
    characters the reading glosses (a 直音 right after a 反切); the candidates (Y, then X), each (char, the
    word, the reading).
    The caller keeps the one the reading is a 广韵 reading of."""
    if not (is_han(text, i) and is_han(text, i + 1)) or text[i + 1] in "音反切又並竝":
        return []
    for width in (3, 4):  # 為其可穢為于偽反: the words quoted, then their first character again and its reading
        at = i + width
        if text[at:at + 1] == text[i] and _word_of(text, i + 1, at, is_han) \
                and (reading := reading_at(text, at + 1)) is not None and reading[0] != "ruzi":
            return [(text[i], text[i:at], reading)]
    reading = reading_at(text, i + 2)
    if reading is None or reading[0] != "fanqie" and (reading[0] != "zhiyin" or text[i - 1:i] not in ("反", "切")):
        return []  # a 直音 only after a 反切: after a 直音, its sound may go on (於戲音嗚呼樂音洛: 嗚呼, not 呼樂)
    return [(char, text[i:i + 2], reading) for char in (text[i + 1], text[i]) if char != "之"]  # 膏之古報反: 膏


def authority_at(text: str, i: int) -> tuple[str, int]:
    """The authority named at ``i`` (:data:`AUTHORITIES`, :data:`AUTHORITY_NAMES`) and where its reading
    starts, after a 又 (徐又音燭); ``("", i)`` when none is."""
    name = next((n for n in AUTHORITY_NAMES if text.startswith(n, i)), None) \
        or (text[i] if text[i:i + 1] and text[i] in AUTHORITIES else "")
    if not name:
        return "", i
    at = i + len(name)
    return name, at + 1 if text[at:at + 1] == "又" else at


def per_note_at(text: str, i: int, is_han) -> tuple[str | None, int] | None:
    """「依注」 at ``i`` (依注, 依注作Y, 依注讀為Y; 依註): (the form the 注 reads or None, where the
    reading starts), else None."""
    match = _PER_NOTE.match(text, i)
    if match and is_han(text, match.end() - 1):
        return match.group(1) or match.group(2), match.end()
    return None


def before_reading_at(text: str, i: int, is_han) -> tuple[str, str | None, int] | None:
    """What stands between a glossed character and its reading at ``i``: (remark, related, where
    the reading starts), else None — a variant 又作Y / 本又作Y / 字又作Y, 依注 (the 注's reading,
    依注作Y / 依注讀為Y: related Y), 與Y同 (the word Y: related Y), 並 (every one: ``all``), 舊 (the old reading, 膴舊火吳反), 叶 (叶韵), or an authority."""
    match = _VARIANT_BEFORE.match(text, i)
    if match and is_han(text, match.end() - 1):
        related, at = match.group(1), match.end()
        while (more := _VARIANT_BEFORE.match(text, at)) and is_han(text, more.end() - 1):
            related, at = related + more.group(1), more.end()  # 温又作藴又作愠同於運反: two variants
        return "variant", related, at
    found = per_note_at(text, i, is_han)
    if found is not None:
        return "per-note", found[0], _past_reader(text, found[1])
    if (same := _SAME_WORD.match(text, i)) and is_han(text, i + 1):  # 圂與豢同音患
        return "same-word", same.group(1), same.end()
    if text[i:i + 1] in ("舊", "旧") and not _GIVEN_UP.match(text, i):  # 膴舊火吳反: the old reading
        return "old-reading", None, i + 1
    if text[i:i + 1] == "叶":  # 席叶祥龠反, 猗叶韻音阿
        return "rhyme-reading", None, i + 1 + (text[i + 1:i + 2] in ("韻", "韵"))
    if text[i:i + 1] and text[i] in AUTHORITIES:  # 捶徐之蘂反: the only reading given is 徐邈's; 大劉皆音㤗: every 大
        return "authority", text[i], i + 1 + (text[i + 1:i + 2] in ("皆", "並", "竝"))
    if text[i:i + 1] in ("並", "竝"):  # 大並音泰: every 大 the 经 before holds (大祝大師…)
        return "all", None, i + 1
    return None


def _past_reader(text: str, at: int) -> int:
    """Past the dictionary or reader named in full (:data:`AUTHORITY_NAMES`) at ``at`` before a reading (音…, XY反),
    after the 注's form (腥依注作星字林音先定反); else ``at``."""
    name = next((n for n in AUTHORITY_NAMES if text.startswith(n, at)), "")
    after = at + len(name)
    return after if name and (text[after:after + 1] == "音" or text[after + 2:after + 3] in ("反", "切")) else at


def reader_at(text: str, at: int, reading_at) -> bool:
    """Does a reader's reading stand at ``at`` (:func:`authority_at`, then a reading: 劉昌宗音普保反, 徐音稼)?"""
    name, start = authority_at(text, at)
    return bool(name) and text[at] != "一" and reading_at(text, start) is not None


def before_reading(text: str, i: int, contexts: bool, is_han) -> tuple[str, str | None, int] | None:
    """What stands between the character at ``i`` and its reading (:func:`before_reading_at`; never
    after a mark, 反 切 音). Next to prose (``contexts`` false) only 依注, which no prose holds before a
    reading (孽依註五葛反孽當作枿聲之誤: the 音义 opens the 注), and a scholar named before the only reading (卑劉音婢,
    籔劉色縷反: 劉昌宗's, 徐邈's) or 或 before a 反切 (清或才姓反), whose plausibility the caller checks."""
    if text[i] in "反切音":
        return None
    if contexts:
        return before_reading_at(text, i + 1, is_han)
    if text[i + 1:i + 2] == "依" and (per_note := per_note_at(text, i + 1, is_han)) is not None:
        return ("per-note", *per_note)
    if text[i + 1:i + 2] and text[i + 1] in NAMED_AUTHORITIES:
        return "authority", text[i + 1], i + 2
    if text[i + 1:i + 2] == "或" and text[i + 4:i + 5] == "反":  # …拭清也…清或才姓反: some read 清 so (a 反切, not prose)
        return "authority", "或", i + 2
    return None


def two_readings_at(text: str, i: int, is_han) -> tuple[str, str, str, int] | None:
    """「XABCD二反」 at ``i`` (楔古八先結二反, 刺七智七亦二反, 廩彼錦力錦二反): two 反切 of X given together, AB反
    and CD反: (upper, lower, the second's spellers, end), else None. The gloss reads the first; the
    second is its ``related``."""
    if text[i + 5:i + 7] == "二反" and all(is_han(text, k) for k in range(i, i + 5)) \
            and not any(c in "反切音" for c in text[i + 1:i + 5]):
        return text[i + 1], text[i + 2], text[i + 3:i + 5], i + 7
    return None


def contexts_at(text: str, i: int, is_han, joined: bool = True) -> tuple[str, int, int] | None:
    """「AB之X」 at ``i``, X one of A B (无射之射: the 射 of 无射), or with ``joined`` several such words before
    之 (在朝於朝之朝, 樂其獨樂之樂: the 朝 of 在朝 and of 於朝), or two or three words of two that open with X
    before 皆 or 並 (為温為其皆去聲: the 為 of 為温 and of 為其): (X, where its reading or tone begins, where the
    words end), else None."""
    for width in (2, 4, 6) if joined else (2,):
        at = i + width
        if text[at:at + 1] != "之" or not all(is_han(text, k) for k in range(i, at + 2)):
            continue
        char = text[at + 1]
        if all(char in text[k:k + 2] for k in range(i, at, 2)):
            return char, at + 2, at
    for width in (4, 6) if joined else ():
        at = i + width
        if text[at:at + 1] in ("皆", "並", "竝") and _word_of(text, i, at, is_han) \
                and all(text[k] == text[i] for k in range(i, at, 2)):
            return text[i], at, at
    return None
