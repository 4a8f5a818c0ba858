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
- ``A下有…字``, ``A上有…字`` (``别有`` too), ``此上有…字``, ``此下有…字``, ``下有…字`` (after the word the
  clause before named);
- ``篇内並同``, ``並同``, ``屬上文``, ``屬下文``.

Only a run that parses whole is one (``conv.parser.unbracketed`` puts it in the note before it): a
clause's end is where the next siglum or clause begins, and a run that leaves characters over is 经.
"""
from __future__ import annotations

from functools import lru_cache

SIGLA = "吕淮唐"
MARKS = "作字並皆"  # never in the words of an A作B
SUBSTITUTE = ("作", "並作", "皆作")  # the marks of A作B
FIXED = ("篇内並同", "並同", "屬上文", "屬下文", "無此一節", "無此節", "無之")
SECTION_ENDS = ("此一節", "一節", "此節")
WORDS = 12  # the longest stretch of words a clause names (無是月也以立春字: 6)
TAIL = 12  # the longest reading of a run's last clause with no word before 作 (吕淮皆作觜嶲中, 唐作三月之節日在婁昏)


def is_collation(run: str) -> bool:
    """Is ``run`` 校语 through and through, opening with a siglum (see the module docstring)?"""
    return bool(run) and run[0] in SIGLA and _parses(run)


def opens(text: str) -> bool:
    """Does ``text`` (a note's segment) open with 校语 — through and through, or followed by other words
    (唐無是月也以立春字太史下有以先立春三日字之作於, 吕弧作孤)? Such a segment is 朱熹's, a remark (layer ``an``)."""
    return is_collation(text) or opening(text) is not None


def runs_into(run: str, note: str) -> bool:
    """Is ``run`` 校语 whose last clause the parentheses cut, going on in ``note`` (吕萌｜作繁, 吕淮唐帥｜皆作率…,
    唐無是月至此｜一節)? The two read together open with 校语 reaching past the run's end."""
    if not run or run[0] not in SIGLA or is_collation(run):
        return False
    joined = run + note
    return is_collation(joined) or (opening(joined) or 0) > len(run)


def ending(run: str, start: int = 0) -> int | None:
    """Where 校语 that end ``run`` begin, after some text of it (after ``start``): the first siglum from
    which the rest is 校语 through and through (…進退度數吕貸作忒淮無乃命至此一節), else None."""
    for at in range(start + 1, len(run)):
        if run[at] in SIGLA and _parses(run[at:]):
            return at
    return None


def opening(run: str) -> int | None:
    """Where 校语 that open ``run`` end, the 经 going on after them (唐鸞作青路作輅倉並作蒼｜是月也以立春…,
    淮揔作緫｜藜莠蓬蒿並興), else None. Stricter than a run through and through, since the 经 after them may
    read like a clause (淮無此一節｜毋作大事…): each ``A作B`` keeps ``A``'s length, and after a clause that
    ends with 字 or 節 (or 篇内並同 …) only another such clause or a siglum goes on. The longest such
    stretch; never the whole run (that is :func:`is_collation`)."""
    if not run or run[0] not in SIGLA:
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
        if at < len(run) and run[at] in SIGLA:
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
        if text[end - 1] in "字節文同句":
            found.append((end, "closed"))
    return found + [(end, "substitution") for end in _substitutions(text, i, strict=True)]


def _parses(run: str) -> bool:
    @lru_cache(maxsize=None)
    def from_(i: int, after_siglum: bool) -> bool:
        if i == len(run):
            return not after_siglum
        if run[i] in SIGLA and any(from_(end, False) for end in _clauses(run, _sigla_end(run, i), True)):
            return True
        return not after_siglum and any(from_(end, False) for end in _clauses(run, i, False))

    return from_(0, True)


def _clauses(text: str, i: int, first: bool) -> list[int]:
    """Where a clause of the collation's grammar that starts at ``i`` may end; ``first``: right after
    the sigla."""
    ends = [i + len(fixed) for fixed in FIXED if text.startswith(fixed, i)]
    if text[i:i + 1] in ("無", "有"):
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
        for mark in ("下有", "上有", "下别有", "上别有"):
            if text.startswith(mark, i + width):
                ends += _words_then(text, i + width + len(mark), "字")
    ends += _substitutions(text, i, strict=False)
    for mark in SUBSTITUTE if first else ():  # 吕淮皆作觜嶲中: the words the 经 has just given
        if text.startswith(mark, i) and 0 < len(text) - i - len(mark) <= TAIL \
                and not any(c in SIGLA for c in text[i + len(mark):]):
            ends.append(len(text))
    return ends


def _sigla_end(text: str, i: int) -> int:
    """The end of the sigla (up to three: 吕淮唐) that open a clause at ``i``."""
    k = i
    while k < len(text) and text[k] in SIGLA and k - i < 3:
        k += 1
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
    """The end of words running from ``start`` to the first ``last`` (字), within :data:`WORDS`."""
    at = text.find(last, start)
    if at == -1 or at - start > WORDS or any(c in SIGLA for c in text[start:at]):
        return []
    return [at + 1]
