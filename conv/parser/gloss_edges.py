"""音义 at the edges of prose (注/按 segments, the 通解's runs outside the parentheses): the
conservative side of ``conv.parser.glosses``.

``embedded`` finds glosses at the very start or end of a segment that otherwise holds prose (通解
often runs a gloss straight into the 注: ``相息亮反作使也…``; 句读 sometimes ends a note with one:
``便其事也扑普卜反``); being conservative, it asks ``conv.parser.phonology.plausible`` (through
``glosses.plausible``) whether a candidate really reads like a gloss, so prose such as
``宾降乃反位`` is left alone. Embedded glosses take no context forms, definitions or remarks
(``conv.parser.gloss_remarks``). ``gloss_run_after`` reads a note that opens with a reading printed
without its character, which stands right before the note (the 通解's ``樂闋(苦穴反)``). Pure: no I/O,
no state, and no input makes it raise.
"""
from __future__ import annotations

import re
from dataclasses import replace

from conv.parser import gloss_remarks, phonology
from conv.parser.glosses import (_EMBEDDED, _NOW_READ_AS_USUAL, _OPENS_WITH_GLOSS, _PROSE_BEFORE_YIN, Gloss,
                                 _gloss_at, _han, _parse, _reading_at, gloss_run, opens_with_gloss, parse_run,
                                 plausible)

__all__ = ["embedded", "opening_gloss", "leading", "trailing", "gloss_run_after", "opening_readings", "reads_the_jing"]


def opening_gloss(text: str) -> Gloss | None:
    """The gloss ``text`` surely opens with, whatever follows, else None: a 直音 (X音Y, X no word
    that opens prose: 五音, 声音) or a phonologically plausible 反切 or 如字 (prose such as
    宾降乃反位 is none). ``膊音纯又説文之允反`` → 膊音纯 (膊 is a misprint of 膞: not plausible, but
    音 says what it is)."""
    if not opens_with_gloss(text):
        return None
    try:
        gloss = _gloss_at(text, 0, None, _EMBEDDED)
    except Exception:  # pragma: no cover
        return None
    if gloss is None:
        return None
    if gloss.kind == "zhiyin" and gloss.char not in _PROSE_BEFORE_YIN:
        return gloss
    return gloss if plausible(gloss) else None


def _leading(text: str) -> list[Gloss]:
    if not opens_with_gloss(text):
        return []
    glosses: list[Gloss] = []
    i, prev = 0, None
    while i < len(text):
        gloss = _gloss_at(text, i, prev, _EMBEDDED)
        if gloss is None:
            if glosses and (longer := _with_variant(text, glosses[-1])).end > i:
                glosses[-1], i = longer, longer.end  # 弟大計反又作悌下孝弟同｜長丁丈反: a variant, then more glosses
                continue
            break
        glosses.append(gloss)
        prev, i = gloss.char, gloss.end
    if glosses and glosses[-1].remark == "per-note" and _reading_at(text, i) is not None:
        glosses.pop()  # 將依注音牂子郎反…: the 注's reading goes on with another, not read next to prose
    if not glosses:
        return []
    if len(glosses) >= 2 or all(plausible(g) for g in glosses):
        return glosses
    return []


_END_WINDOW, _TRAILING_ENDS = 40, ("反", "切", "如字", "同", "此")
_GLOSS_WORDS = "音反切又如"  # no character a gloss reads: a gloss's own words (…之扱｜音初合反)
_BOUND = ("作", "之")  # before a character a gloss of it does not open: a variant's (綪註作䋫), a word's (…始扱一祭之扱)


def _trailing(text: str, after: int, lemmas: str = "") -> list[Gloss]:
    """The longest clean, plausible run of glosses that ends exactly at the end of ``text``; a reading the
    《广韵》 gives another 小韵 or no sound is plausible when the words before it, or ``lemmas`` (the 经 the note
    follows), hold its character (…搢捷也捷於帶右｜捷初洽反下同: 捷 read 插; …塵坋尊者…｜坋蒲悶反)."""
    n = len(text)
    best: list[Gloss] = []
    if not (text.endswith(_TRAILING_ENDS) or text[-2:-1] == "音"):
        return best  # a gloss ending the segment ends in 反, 切, 如字, 音X or a scope (…同, …後倣此)
    for k in range(n - 1, max(after, n - _END_WINDOW) - 1, -1):
        if not _OPENS_WITH_GLOSS.match(text, k) or (k > 0 and _NOW_READ_AS_USUAL.match(text, k - 1)):
            continue
        glosses, unparsed = _parse(text[k:], _EMBEDDED, whole=True)
        if unparsed or not glosses or text[k].isspace():
            continue
        if glosses[0].second:
            continue
        if all(plausible(g) or text[k - 1:k] not in _BOUND and _attested(g, text[:k] + lemmas) for g in glosses):
            best = [_shift(g, k) for g in glosses]
    return best


def _attested(gloss: Gloss, words: str) -> bool:
    """A 反切 whose sound the 《广韵》 gives another 小韵, or none, of a character ``words`` hold; or a 直音 of such a
    character the 《广韵》 lacks (…州里󰚮於邑是也｜󰚮音冀: an unencoded character, no word of prose)."""
    if gloss.kind not in ("fanqie", "zhiyin") or gloss.char not in words or gloss.char in _GLOSS_WORDS:
        return False
    status = phonology.reading(gloss).status
    return status == phonology.UNRESOLVED if gloss.kind == "zhiyin" else status in (phonology.OTHER, phonology.UNRESOLVED)


def _shift(gloss: Gloss, offset: int) -> Gloss:
    gloss.start += offset
    gloss.end += offset
    return gloss


def embedded(text: str, lemmas: str = "") -> list[Gloss]:
    """Conservative: glosses at the very start or very end of a 注/按 segment that also holds
    prose, e.g. '便其事也扑普卜反' → [扑普卜反]; '相息亮反作使也礼乐之正既成…' → [相息亮反].
    Must not fire on prose such as '宾降乃反位'.

    Embedded glosses never take context forms or 也-definitions (prose such as 以其字别之 would
    otherwise pass for a context), and each must be phonologically plausible
    (``conv.parser.phonology.plausible``), unless two or more glosses open the segment. A text that is
    a gloss run through and through yields all its glosses.
    """
    try:
        leading = _leading(text)
        after = leading[-1].end if leading else 0
        if after >= len(text.rstrip()):
            return leading
        return leading + _trailing(text, after, lemmas)
    except Exception:  # pragma: no cover
        return []


def leading(text: str) -> list[Gloss]:
    """The glosses opening ``text`` when prose or more text follows them (``相息亮反作使也…`` →
    [相息亮反]): as conservative as ``embedded`` (no context forms, no definitions; one gloss alone
    must be phonologically plausible)."""
    try:
        return _leading(text)
    except Exception:  # pragma: no cover
        return []


def trailing(text: str) -> list[Gloss]:
    """The longest clean run of plausible glosses ending ``text`` (``…納吉禮纁許云反儷音麗`` →
    [纁許云反, 儷音麗]), as ``embedded`` finds them at a segment's end; [] when there is none."""
    try:
        return _trailing(text, 0)
    except Exception:  # pragma: no cover
        return []


def gloss_run_after(text: str, char: str) -> tuple[list[Gloss], list[tuple[int, int]]] | None:
    """``text`` read as a run of glosses whose first prints no character: it glosses ``char``, the
    character right before the note (the 通解 puts a reading straight after the character of the
    经 it glosses: 樂闋(苦穴反), 功不匱(求位反一作遺), 采茨(才資反)); None unless the whole of ``text``
    reads so and the first reading is phonologically plausible for ``char`` (prose such as 反其位
    after 宾 is none); a tone alone (保傅's 惡行(去聲)) where ``char`` has a 《广韵》 reading in that
    tone. The first gloss has ``before`` set; offsets index ``text``."""
    if not text or not _han(char, 0) or not _han(text, 0):
        return None
    found = gloss_run(char + text)
    if found is None:
        return None
    glosses = found[0]
    first = glosses[0]
    if first.start != 0 or first.char != char or first.second or first.context \
            or (first.kind == "other" and not _in_its_tone(first)) or not plausible(first):
        return None
    for gloss in glosses:  # offsets into ``text``: the first gloss loses the character, the others shift
        gloss.start, gloss.end = max(gloss.start - 1, 0), gloss.end - 1
    first.text, first.before = first.text[1:], True
    return glosses, []


def _in_its_tone(gloss: Gloss) -> bool:
    """Is ``gloss`` a tone (行去聲) its character has a 《广韵》 reading in (行: 下孟切, 去声)?"""
    tone = phonology.tone_of(gloss) if gloss.remark == "tone" else None
    return bool(tone) and any(position.endswith(tone) for position in phonology.readings(gloss.char))


def ends_reading(char: str, note: str) -> bool:
    """Does ``note`` end with 音义 that read ``char`` (a plausible gloss of it among its last glosses)?"""
    found = gloss_run(note[note.rfind(char):]) if char in note else None
    return found is not None and any(g.char == char and plausible(g) for g in found[0])


def opens_with_reading(note: str) -> bool:
    """Does ``note`` open with a gloss (plausible or not: the 音义 of another word)?"""
    found, _ = parse_run(note)
    return bool(found) and found[0].start == 0


#: What the words after a 注's opening readings must not show in their first characters to be the 注's own: a
#: mark of a gloss (the 音义 going on: 監古蹔反｜監於古銜反, 齊側皆反｜去上聲…); a 聲 with its tone (去上聲, not
#: 樂作則有聲…).
_GLOSS_MARKS = re.compile(r"[反切音叶]|[平上去入][聲声]")
_RUNS_ON = "又本注下上一或命位之也"  # …袠陳乙反｜又作帙…: the 音义's remark (unless a variant it ends with: _with_variant); 此主於反｜命…: the prose's 反命; 壹是一切｜也…
_LOOK = 8
_ECHO = (3, 2)  # the sizes of a word of the 经 a 注 opens with, echoing it (奉芳勇反｜反命謂使者…)


def opening_readings(text: str, lemmas: str = "") -> list[Gloss]:
    """The 通解's 音义 a 注 unit opens with, in one parentheses with the 注 (…(疑魚乙反疑正立自定之貌),
    (臘力合反此周禮所謂蜡祭也…), (肱古宏反為害旁人)): the glosses from the start, when the first gives a
    sound the 《广韵》 knows for a 小韵 (its own or another's: not a 反切 of prose such as 宾降乃反位, whose
    sound is suspect) or reads a character of ``lemmas``, the 经 the note follows (其蟲倮(倮力果反…): 倮, which the
    《广韵》 lacks), and the words after them open no gloss's mark or remark (past a word of the 经 they echo: 奉芳勇反｜
    反命謂…); else none. A definition the grammar gives the last reading is the 注's (須音班｜球美玉也文猶飾也…): the
    glosses end before it."""
    if not opens_with_gloss(text):
        return []  # the parser's cheap test first: most 注 open with no gloss
    found, _ = parse_run(text)
    if not found or found[0].start != 0:
        return []
    lead = _word_lead(found)
    first = found[lead]
    if first.kind not in ("fanqie", "zhiyin"):
        return []
    if first.kind == "zhiyin" and first.char in _PROSE_BEFORE_YIN or first.remark == "reads-as":
        return []  # 八音金石土革…: a word, no reading; 嘯讀為叱…: 郑玄's 讀為, the 注's own words
    known = phonology.reading(first).status in (phonology.MATCHES, phonology.OTHER)
    if not known and not reads_the_jing(first, text, lemmas):
        return []
    run = found[:lead + 1]
    for gloss in found[lead + 1:]:
        if gloss.start != run[-1].end or run[-1].definition:
            break
        run.append(gloss)
    if run[-1].definition:
        last = run[-1]
        end = last.end - len(last.definition)
        run[-1] = replace(last, end=end, text=text[last.start:end], definition=None)
    run[-1] = _with_variant(text, run[-1])
    rest = text[run[-1].end:]
    echo = next((size for size in _ECHO if len(rest) > size and rest[:size] in lemmas), 0)
    if not rest or rest[0] in _RUNS_ON or _GLOSS_MARKS.search(rest, echo, echo + _LOOK):
        return []
    if not known and any(g.char in lemmas and plausible(g) for g in parse_run(rest)[0]):
        return []  # 椸羊支反枷又作架徐音稼｜古本無此字櫛側乙反…: the 音义 goes on, reading more of the 经
    return run


#: What closes a variant after a reading (字又作󰠛同, 一作醯呼兮反, 一本作感如字): else its one character (又作帙).
_VARIANT_CLOSES = ("同", "反", "切", "字")


def _with_variant(text: str, last: Gloss) -> Gloss:
    """``last``, the 音义's last reading before the 注 goes on, with the variants that follow it (袠陳乙反又作帙｜縏小嚢也…,
    胃音謂字又作󰠛同｜亦皆為不利人也…: ``gloss_remarks.variant_piece_ends``), each up to the longest end that closes it
    (:data:`_VARIANT_CLOSES`), else its one character, and their scope; ``last`` when no variant follows."""
    end = last.end
    while ends := gloss_remarks.variant_piece_ends(text, end, _reading_at, _han):  # 麕九倫反又作麋又作麏…
        end = max((e for e in ends if text[e - 1] in _VARIANT_CLOSES), default=ends[0])
        end += 2 if text.startswith("者同", end) else 0  # 資依注作齊音咨本又作齋者同: copies that write 齋, the same
    if end == last.end:
        return last
    end = gloss_remarks.scope_end(text, end, last.char, _han) or end  # 弟大計反又作悌下孝弟同
    return replace(last, end=end, text=text[last.start:end], definition=text[last.end:end])


def _word_lead(found: list[Gloss]) -> int:
    """1 when the glosses open with a 如字 of a word (大羮並如字｜湆去急反…), a character read as in a word
    (間間厠之間｜麗力知反…) or a variant of a character a reader's reading follows (皫本又作麃｜劉昌宗音普保反…) and a
    reading follows straight after, which then stands for the run; else 0."""
    head = found[0]
    word = head.kind in ("ruzi", "other") and (head.remark == "both" or head.context) and not head.definition
    variant = head.kind == "other" and head.remark == "variant" and len(found) > 1 and found[1].char == head.char
    return 1 if (word or variant) and len(found) > 1 and found[1].start == head.end else 0


def reads_the_jing(gloss: Gloss, text: str, lemmas: str) -> bool:
    """Does ``gloss``, whose sound the 《广韵》 does not give, read a character of the 经 the note follows
    (``lemmas``) as a 释文 does: a 直音 or a 反切 in 反 (倮力果反, 比毗志反; not prose of 切: 斯禁禁切地無足者也, 壹是一切也)?"""
    return gloss.char in lemmas and (gloss.kind == "zhiyin" or text[gloss.end - 1:gloss.end] == "反"
                                     or (gloss.definition and text[gloss.end - len(gloss.definition) - 1] == "反"))
