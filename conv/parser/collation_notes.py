"""朱熹's collation notes in 月令 (校语): how the 吕氏春秋 (吕), the 淮南子 (淮) and the 唐月令 (唐) read the 经.

The 通解's 月令 follows each stretch of 经 with the readings of the three other texts, printed small
(``吕唐齊皆作齋淮無是月至此一節``, ``吕尉作封淮遂作選長大作孝弟``, ``淮無日在東井字有招摇指午字``). The
transcription often leaves them outside its parentheses, where they read as 经. :func:`is_collation`
tells a run that is such notes through and through: one or more sigla (吕 淮 唐, up to three), each
followed by clauses of the collation's own grammar —

- ``A作B`` (also ``A並作B``, ``A皆作B``), ``B`` as long as ``A`` or one character more or less (鸞作青,
  帝籍作藉田, 大尉作相); ``皆作B`` with no ``A``, right after the sigla, ends a run (吕淮皆作觜嶲中: the words
  the 经 just gave, read otherwise);
- ``無…字`` / ``有…字`` (words lacked or added), ``無…句`` (無此二句), ``無…至…一節`` (``此節``, ``此一節``),
  ``無此一節``;
- ``A下有…字``, ``A上有…字`` (``别有`` too), ``A下無…字``, ``此上有…字``, ``此下有…字``, ``下有…字`` (after the word
  the clause before named), ``及…字`` (more words lacked: 無毋字及孩蟲飛鳥字);
- ``篇内並同``, ``並同``, ``屬上文``, ``屬下文``;
- where a text places a 節 (:data:`PLACES`): ``以此一節屬上文``, ``屬後九月章``, ``入前章``, ``已見上文``, ``見仲春章``,
  ``自是月也樹木至此屬下文``, ``無此章文並見季夏章``; and 朱熹's choice, ``上下與孟夏同今從唐本``.

The sigla are 吕 (吕氏春秋), 淮 (淮南子時則訓篇), 唐 (唐本) and 諸本 (all three), two joined by 及 too. A count
ends some clauses (``下有養幼小存孤獨以通句萌擇元日令民社十六字``): words that many may be longer than :data:`WORDS`. Only a run that parses whole is one
(``conv.parser.unbracketed`` puts it in the note before it): a clause's end is where the next siglum or
clause begins, and a run that leaves characters over is 经. A quotation (``唐云…``, ``唐作…``, ``唐此下有…``,
``此下别分一章云…``: :data:`QUOTES`) runs to the end of what is read, so it is 校语 only where that end is a
note's: a note's segment (:func:`opens`). In a run of the 经 its end may be anywhere, in the run or in the
note after it (``唐此下有其性禮其事視｜其味苦其臭焦``, ``淮此下有十月官司馬其樹檀｜仲冬之月…``, ``唐云｜(立春之日…)``):
each such run was read (``conv/data/note_runs.toml``), and one left unread is reported (:func:`quotation_at`).
"""
from __future__ import annotations

import re
from functools import lru_cache

LAYER = "jiao"  # the segment layer of 校语 (朱熹's collation notes: conv/sphinx_ext/util.SEGMENT_LAYERS)
SIGLA = "吕淮唐"
ALL = "諸本"  # all the texts: a siglum of two characters
NAMED = ("吕氏春秋", "淮南子時則訓篇", "唐本")  # a siglum written out (吕氏春秋及淮鴻鴈來皆作候鴈北)
AND = "及"  # between two sigla
_FIRSTS = SIGLA + ALL[0]  # the characters a siglum begins with (NAMED's begin with one of SIGLA)
_OPENING = re.compile(f"[{_FIRSTS}]")  # where a siglum may begin (a fast scan: most text holds none)
MARKS = "作字並皆"  # never in the words of an A作B
SUBSTITUTE = ("作", "並作", "皆作")  # the marks of A作B
FIXED = ("篇内並同", "篇内皆同", "並同", "屬上文", "屬下文", "無此一節", "無此節", "無之", "無是月也")
SECTION_ENDS = ("此一節", "一節", "此節", "此二節", "二節")
_SEASON = "[孟仲季][春夏秋冬]"
_NUMBER = "[一二三四五六七八九十]+"
#: Clauses that place a 節 elsewhere or say which text 朱熹 follows (see the module docstring).
PLACES = tuple(re.compile(pattern) for pattern in (
    rf"(?:仍|皆|並)?以?此?(?:一節|二節|句)?屬(?:上文|下文|上章|下章|前章|後章|後{_NUMBER}月章|{_SEASON}章)",
    r"入(?:前|後|上|下)章",
    rf"(?:此一節|餘)?已?見(?:上文|上章|前章|{_SEASON}章)",
    r"[^吕淮唐作字]{1,6}已見上文",
    rf"上{_NUMBER}字見上文",
    rf"(?:上下)?並?與?{_SEASON}文?同",
    r"今(?:從|从|以)唐本刪?(?:後倣此)?",
    r"自[^吕淮唐]{1,8}?至此屬(?:上|下)文",
    rf"無此章文?(?:並見{_SEASON}章)?",
    r"(?:並|皆)無此一?節",
    r"[^吕淮唐作字]{1,4}並同吕本",
    r"以[^吕淮唐]{1,8}?至此(?:一節|二節)?屬(?:上|下)文",
    r"與[吕淮唐]{1,2}同",
))
#: In a note's segment (small print already: only its layer is read) 校语 may also open with a mark right
#: after the sigla (淮無告備於天子, 唐無正鈞石角斗甬别有…), a longer word before 作 (唐親東鄉躬桑作享…) or a short one
#: before 上有, 下有 (唐命有上有是月也…) — not a scholar or a book (吕氏曰…, 唐尚書云…: 吕大临, 唐固).
NOTE_MARKS = re.compile(r"無|有|[^吕淮唐云曰氏]{1,5}作|[^吕淮唐云曰氏]{1,2}[上下]有")
#: Marks after which a text's own words are quoted, to the end of what is read: right after the sigla
#: (``唐云…``, ``唐作…``) or after any clause.
QUOTES_FIRST = ("云", "作", "並作", "皆作")
QUOTES = ("此一節云", "此一節作", "分此下别為一章曰", "分此下别為一章云", "又作", "此下别分一章云", "此下别分作一章云",
          "此下又别分作一章云", "又分此下别為一章云", "又别分一章云", "此下云", "此下有", "此上有", "此上别有", "此但云")
CLOSED = "字節文同句章本此也"  # the last character of a clause after which 经 may go on (opening)
COUNTED = 40  # the most words a counted clause names (…十六字)
WORDS = 12  # the longest stretch of words a clause names (無是月也以立春字: 6)
WIDE = 4  # the longest such reading before another siglum (吕作霾髊｜淮作薶…)
TAIL = 12  # the longest reading of a run's last clause with no word before 作 (吕淮皆作觜嶲中, 唐作三月之節日在婁昏)


def is_collation(run: str) -> bool:
    """Is ``run`` 校语 through and through, opening with a siglum (see the module docstring)?"""
    return _siglum(run, 0) > 0 and _parses(run)


def opens(text: str) -> bool:
    """Does ``text`` (a note's segment) open with 校语 — through and through, or followed by other words
    (唐無是月也以立春字太史下有以先立春三日字之作於, 吕弧作孤)? Such a segment is 朱熹's 校语 (layer :data:`LAYER`)."""
    return is_collation(text) or opening(text) is not None or _siglum(text, 0) > 0 and _parses(text, quotes=True)


def goes_on(before: str, text: str) -> bool:
    """Does a note's segment ``text`` go on with the 校语 of the segment ``before`` it, the transcription's
    parentheses cutting them (…淮無慎盖字)(屋作居無以固至沮泄八字房作藏…, …唐無是月也字)(草木黄落已見上文): read after
    the last siglum of ``before``, it is 校语 through and through?"""
    sigla = [found.start() for found in _OPENING.finditer(before) if _siglum(before, found.start())]
    if not opens(before) or not sigla:
        return False
    return _parses(before[sigla[-1]:_sigla_end(before, sigla[-1])] + text, quotes=True)


def runs_into(run: str, note: str) -> bool:
    """Is ``run`` 校语 whose last clause the parentheses cut, going on in ``note`` (吕萌｜作繁, 吕淮唐帥｜皆作率…,
    唐無是月至此｜一節)? The two read together open with 校语 reaching past the run's end."""
    if not _siglum(run, 0) or is_collation(run):
        return False
    joined = run + note
    return is_collation(joined) or (opening(joined) or 0) > len(run)


def quoting(run: str) -> bool:
    """Does ``run`` open with a quotation of another text's words (唐云…, 淮此下有…), whose end the grammar
    cannot tell (see the module docstring)?"""
    at = _sigla_end(run, 0) if _siglum(run, 0) else -1
    rest = run[at:]
    return at > 0 and bool(rest) and (rest.startswith(QUOTES + QUOTES_FIRST) or any(q.startswith(rest) for q in QUOTES))


def quotation_at(run: str, start: int = 0) -> int | None:
    """Where, from ``start``, a siglum opens a quotation in ``run`` (:func:`quoting` at ``start``; after it, a
    siglum followed by 此下有, 此下云 … : :data:`QUOTES`), else None."""
    if quoting(run[start:]):
        return start
    for found in _OPENING.finditer(run, start + 1):
        at = found.start()
        if _siglum(run, at) and run.startswith(QUOTES, _sigla_end(run, at)):
            return at
    return None


def ending(run: str, start: int = 0) -> int | None:
    """Where 校语 that end ``run`` begin, after some text of it (after ``start``): the first siglum from
    which the rest is 校语 through and through (…進退度數吕貸作忒淮無乃命至此一節), else None."""
    for found in _OPENING.finditer(run, start + 1):
        if _siglum(run, found.start()) and _parses(run[found.start():]):
            return found.start()
    return None


def opening(run: str) -> int | None:
    """Where 校语 that open ``run`` end, the 经 going on after them (唐鸞作青路作輅倉並作蒼｜是月也以立春…,
    淮揔作緫｜藜莠蓬蒿並興), else None. Stricter than a run through and through, since the 经 after them may
    read like a clause (淮無此一節｜毋作大事…): each ``A作B`` keeps ``A``'s length, and after a clause that
    ends with 字 or 節 (or 篇内並同 …) only another such clause or a siglum goes on. The longest such
    stretch; never the whole run (that is :func:`is_collation`)."""
    if not _siglum(run, 0):
        return None
    best = None
    stack = [(0, True, False)]  # (where, right after sigla, after a closed clause)
    seen = set()
    while stack:
        at, after_siglum, closed = stack.pop()
        if (at, after_siglum, closed) in seen:
            continue
        seen.add((at, after_siglum, closed))
        if not after_siglum and at < len(run) and (best is None or at > best):
            best = at
        if at < len(run) and _siglum(run, at):
            stack.append((_sigla_end(run, at), True, False))
            continue
        for end, kind in _strict_clauses(run, at):
            if kind == "substitution" and closed and not after_siglum:
                continue
            stack.append((end, False, kind == "closed"))
    return best


def _strict_clauses(text: str, i: int) -> list[tuple[int, str]]:
    """The clauses of :func:`_clauses` with ``A作B`` of one length only, each with its kind."""
    found = []
    for end in _clauses(text, i, False):
        if text[end - 1] in CLOSED:
            found.append((end, "closed"))
    return found + [(end, "substitution") for end in _substitutions(text, i, strict=True)]


def _parses(run: str, quotes: bool = False) -> bool:
    """Is ``run`` sigla and clauses through and through; ``quotes``: a quotation may end it (:data:`QUOTES`)."""
    @lru_cache(maxsize=None)
    def from_(i: int, after_siglum: bool) -> bool:
        if i == len(run):
            return not after_siglum
        if quotes and len(run) > i + 1 and (run.startswith(QUOTES, i) or after_siglum and _marked(run, i)):
            return True
        if _siglum(run, i):
            after = _sigla_end(run, i)
            return any(from_(end, False) for end in _clauses(run, after, True)) or quotes and from_(after, True)
        return not after_siglum and any(from_(end, False) for end in _clauses(run, i, False))

    return from_(0, True)


def _clauses(text: str, i: int, first: bool) -> list[int]:
    """Where a clause of the collation's grammar that starts at ``i`` may end; ``first``: right after
    the sigla."""
    ends = [i + len(fixed) for fixed in FIXED if text.startswith(fixed, i)]
    ends += [match.end() for place in PLACES if (match := place.match(text, i))]
    if text[i:i + 1] in ("皆", "並", "并", "亦") and text[i + 1:i + 2] in ("無", "有"):  # 皆無乃字, 亦無下六字
        ends += _clauses(text, i + 1, False)
    if text[i:i + 1] in ("無", "有", "及"):  # 及: more words a 無…字 lacks (無毋字及孩蟲飛鳥字)
        ends += _words_then(text, i + 1, "字")
    if text[i:i + 1] == "無":
        ends += _words_then(text, i + 1, "句")  # 無此二句, 無斷薄刑決小罪二句
        for tail in SECTION_ENDS:
            at = text.find(tail, i + 1)
            if at != -1 and at - i <= WORDS + 2 and "至" in text[i + 1:at]:
                ends.append(at + len(tail))
    for mark in ("此上有", "此下有", "此上别有", "此下别有", "下有", "上有"):  # 下有盛徳在火字: after the word just named
        if text.startswith(mark, i):
            ends += _words_then(text, i + len(mark), "字")
    for width in _word_widths(text, i):
        for mark in ("下有", "上有", "下别有", "上别有", "下無", "上無"):  # 王下無命字
            if text.startswith(mark, i + width):
                ends += _words_then(text, i + width + len(mark), "字")
    ends += _substitutions(text, i, strict=False)
    for mark in SUBSTITUTE if first else ():  # 吕淮皆作觜嶲中: the words the 经 has just given (to the end, or
        if text.startswith(mark, i):            # to the next siglum: 吕作霾髊淮作薶…)
            rest = i + len(mark)
            end = next((at for at in range(rest, len(text)) if _siglum(text, at)), len(text))
            if 0 < end - rest <= TAIL and (end == len(text) or end - rest <= WIDE):
                ends.append(end)
    return ends


def _marked(text: str, i: int) -> bool:
    """Does 校语 in a note's segment go on at ``i``, right after the sigla: a quotation (唐云…, 唐作…) or
    :data:`NOTE_MARKS`?"""
    return text.startswith(QUOTES_FIRST, i) or NOTE_MARKS.match(text, i) is not None


def _siglum(text: str, i: int) -> int:
    """The length of the siglum at ``i`` (吕, 淮, 唐: 1; 諸本: 2; a name written out: :data:`NAMED`), else 0."""
    if i >= len(text) or text[i] not in _FIRSTS:
        return 0
    named = next((name for name in (*NAMED, ALL) if text.startswith(name, i)), "")
    return len(named) if named else 1 if text[i] in SIGLA else 0


def _sigla_end(text: str, i: int) -> int:
    """The end of the sigla (up to three: 吕淮唐, or 諸本) that open a clause at ``i``."""
    k, count = i, 0
    while k < len(text) and (size := _siglum(text, k)) and count < 3:
        k, count = k + size, count + 1
        if text.startswith(AND, k) and _siglum(text, k + len(AND)):
            k += len(AND)
    return k


def _word_widths(text: str, i: int) -> list[int]:
    """The widths (1 to 4) a word ``A`` at ``i`` may have: no siglum and no mark (:data:`MARKS`) in it."""
    return [w for w in (1, 2, 3, 4) if not any(c in SIGLA or c in MARKS for c in text[i:i + w])]


def _substitutions(text: str, i: int, strict: bool) -> list[int]:
    """Where an ``A作B`` (``A並作B``, ``A皆作B``) at ``i`` may end: ``B`` as long as ``A``, or with ``strict``
    false one character more or less too (大尉作相, 日長至作長至日)."""
    ends = []
    for width in _word_widths(text, i):
        at = i + width
        for mark in SUBSTITUTE:
            if text.startswith(mark, at):
                for other in {width} if strict else {width, width - 1, width + 1} - {0}:
                    end = at + len(mark) + other
                    if end <= len(text) and not any(c in SIGLA or c in MARKS for c in text[end - other:end]):
                        ends.append(end)
    return ends


def _words_then(text: str, start: int, last: str) -> list[int]:
    """The end of words running from ``start`` to the first ``last`` (字), within :data:`WORDS`, or as many
    as the number before ``last`` counts (養幼小存孤獨以通句萌擇元日令民社十六字), within :data:`COUNTED`."""
    at = text.find(last, start)
    if at == -1 or any(c in SIGLA for c in text[start:at]):
        return []
    if at - start <= WORDS:
        return [at + 1]
    counted = re.search(f"{_NUMBER}$", text[start:at])
    if counted and at - start <= COUNTED and _number(counted.group()) == counted.start():
        return [at + 1]
    return []


def _number(numeral: str) -> int:
    """The value of a Chinese numeral below a hundred (十六: 16, 二十: 20, 八: 8)."""
    digits = "一二三四五六七八九"
    tens, _, units = numeral.rpartition("十") if "十" in numeral else ("", "", numeral)
    value = (digits.index(tens) + 1 if tens else 1) * 10 if "十" in numeral else 0
    return value + (digits.index(units) + 1 if units else 0)
