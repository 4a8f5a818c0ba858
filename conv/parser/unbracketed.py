"""Small characters outside the parentheses (括号外小字): the 通解's notes as the 文渊阁 transcription writes them.

In the Kanseki Repository's 通解 (KR1d0085) the parentheses of a note are the transcriber's, and
they miss many small characters: 音义 printed before a note (``謀賓介介音界(主人謂…)``), 音义 and
疏曰/今按 heads printed after one (``…齒也)知音智行下孟反…(疏曰…``, ``…肆陳也)疏曰凡設尊之法(醴尊…``)
stand outside ``(…)``. (In the seeds' e-text the same notes read ``【介音界　主人谓…】``: 音义 first
inside 【】, U+3000 between segments.) The seeds' parser reads the transliterated file
(``conv.reader.wenyuange``: ``(`` is 【, ``)`` is 】); this module rewrites the tokens of one of its
lines so that what is sure goes into its note, without moving a character:

- a **head** run (``疏曰 疏云 今按 愚按 又按 …``) right after a note goes into that note as a segment
  of its own, which goes on in the note after it (the 】 before the run becomes a separator, the
  【 after it a blank);
- a run right after a note that is **音义 through and through** (``conv.parser.glosses.gloss_run``,
  each gloss phonologically plausible) goes into that note; **glosses opening** a run after a note
  (``…)適丁歴反辟音避將冠者出房南面``) go into it and the rest is text again;
- a **head** in a run right before a note (``…榮屋翼疏曰(云南北以堂深者…``, ``父庿也疏曰蓍(草之靈者``)
  opens that note there: no 经 holds 疏曰 or 今按;
- a **lemma** (``大學`` in ``…至善(程子曰親當作新)大學¶(者大人之學也…``): a run of one to four
  characters standing alone between two notes, the second opening with 者 (which cannot open a
  note), and found in the text before it (on the line or the line before), is the word of the 经 the note repeats
  (朱熹's 章句, 郑注: ``使(者夫家之屬…``): it opens that note, and an apparatus entry
  (``note-words``) records the move;
- a **反切 cut** by a note's ``(`` (``…纚山綺反纋一¶(尤反)…``, ``…譴弃戰¶(反)…``): the two or three
  characters ending a run before a note that open, with the note's first ones, a 反切 giving a 广韵
  reading of a character standing before them go into the note (one character alone, ``蹈(徒報反)``,
  may be the 经's own and stays);
- **glosses ending** a run right before a note (``glosses.gloss_run`` from there to the note, one
  gloss at least phonologically plausible) open that note when every glossed character stands in
  the text before them on the line (or the line before, or the 篇's title); otherwise they stay
  where the transcription puts them, and a problem
  (``unbracketed-gloss``) says where to look; so it does where a run before a note holds a
  plausible gloss the parser cannot delimit (``筮市例反庿古廟字``).

A separator or a note boundary is a token of no width (``Token(kind, offset, offset)``) or a 【/】
token turned into a separator (``ideo``): the witness's characters keep their offsets and every one
stays in exactly one element. What the parentheses say and these rules do not reach (a 注 begun
outside them that no rule settles, ``…介席西階)上東面(敷音孚…``) is read as the transcription
marks it; the parallel passages of the 句读 report it (``conv.edition.parallels``: note-in-text). The
runs read against the 句读's notes (``conv.parser.note_runs``) go into their notes before these rules.
"""
from __future__ import annotations

from conv.normalize import fold_char
from conv.parser import gloss_edges, glosses, phonology
from conv.parser.note_runs import NoteRuns
from conv.parser.report import SeedReport
from conv.reader.lexer import Token, rebuild

HEADS = ("疏曰", "疏云", "疏又曰", "疏又云", "今按", "愚按", "愚案", "又按")
MARKUP = ("open", "close", "ideo", "circle")
LEMMA = 4  # the longest word of the 经 a note repeats before 者 (以鐘鼔者)
LEMMA_REASON = ("the run stands alone between two notes, the second opens with 者 (which cannot open a note), "
                "and the run repeats words of the text before it: the note's lemma, printed small in the book")


class Unbracketed:
    """Rewrites the tokens of the lines of one 通解 witness file (see the module docstring)."""

    def __init__(self, text: str, report: SeedReport, decided: NoteRuns | None = None) -> None:
        self.text = text
        self.report = report
        self.decided = decided

    def adjust(self, tokens: list[Token], context: str = "") -> list[Token]:
        """The tokens of one line with the sure small runs moved into their notes; ``context``: text
        before the line in which a glossed character may stand (the line before, the 篇's title)."""
        tokens = _circles_as_text(tokens)
        if self.decided is not None:  # the runs read against the 句读 first: conv/data/note_runs.toml
            tokens = self.decided.apply(tokens)
        if not any(t.kind == "text" for t in tokens) or not any(t.kind in ("open", "close") for t in tokens):
            return tokens
        kinds = [t.kind for t in tokens]
        cuts: dict[int, list[str]] = {}  # offset → zero-width tokens before the character there
        for first, last in _groups(kinds):
            before = first - 1 if first > 0 and kinds[first - 1] in MARKUP else None
            after = last + 1 if last + 1 < len(kinds) and kinds[last + 1] in MARKUP else None
            pieces = [t for t in tokens[first:last + 1] if t.kind == "text"]
            offsets = [o for t in pieces for o in range(t.start, t.end)]
            run = "".join(self.text[t.start:t.end] for t in pieces)
            start = 0
            if before is not None and kinds[before] == "close":
                start = self._after_note(kinds, before, after, run, offsets, cuts)
                if start is None:
                    continue
            if after is not None and kinds[after] == "open" and start < len(run):
                earlier = context + self.text[tokens[0].start:offsets[0]]
                if start == 0 and self._lemma(kinds, before, after, run, offsets, cuts, earlier):
                    continue
                following = self.text[tokens[after].end:tokens[after].end + FOLLOWING]
                self._before_note(kinds, after, run, offsets, start, cuts, tokens[0].start, context, following)
        return rebuild(tokens, kinds, cuts)

    def _after_note(self, kinds, before, after, run, offsets, cuts) -> int | None:
        """A run right after a note: None when all of it went into the note, else where the text
        resumes (after the glosses that opened it went into the note)."""
        into_next = after is not None and kinds[after] == "open"
        whole = run.startswith(HEADS) or _glosses_only(run)
        opening = [] if whole else gloss_edges.leading(run)
        if opening and (opening[-1].end >= len(run) or into_next and run[opening[-1].end:].startswith(HEADS)):
            whole = True
        if whole:
            kinds[before] = "ideo"
            if into_next:  # the 疏/按 a head opens goes on in the note after it; glosses end a segment
                kinds[after] = "space" if run.startswith(HEADS) else "ideo"
            else:
                cuts.setdefault(offsets[-1] + 1, []).append("close")
            return None
        if not opening:
            return 0
        kinds[before] = "ideo"
        cuts.setdefault(offsets[opening[-1].end], []).append("close")
        return opening[-1].end

    def _lemma(self, kinds, before, after, run, offsets, cuts, earlier: str) -> bool:
        """A run alone between two notes that is the lemma of the second (see the module
        docstring): it opens that note, and the move is recorded. ``earlier``: the text before
        the run (the line before it, the 篇's title, the line up to the run)."""
        if before is None or kinds[before] != "close" or not 0 < len(run) <= LEMMA:
            return False
        opening = self.text[offsets[-1] + 1:].lstrip(" 【")[:1]
        if opening != "者" or run not in earlier:
            return False
        cuts.setdefault(offsets[0], []).append("open")
        kinds[after] = "space"
        self.report.record("note-words", offsets[0], offsets[-1] + 1, text=run, evidence="zhangju",
                           reason=LEMMA_REASON)
        return True

    def _before_note(self, kinds, after, run, offsets, start, cuts, line_start, context, following) -> None:
        """Glosses ending a run right before a note open that note, when they are sure; so does a
        head ending it (``…榮屋翼疏曰(云南北…``, or ``疏`` when the note goes on ``曰…``)."""
        at = _head_in(run, start)
        if at is None and run.endswith("疏") and following[:1] in ("曰", "云"):
            at = len(run) - 1
        if at is not None:
            cuts.setdefault(offsets[at], []).append("open")
            kinds[after] = "space"
            return
        before = context + self.text[line_start:offsets[start]]
        cut = _cut_gloss(run, start, before, following)
        if cut is not None:  # the note's ( cuts a 反切: its head goes into the note, the gloss runs on
            cuts.setdefault(offsets[cut], []).append("open")
            kinds[after] = "space"
            return
        first = _trailing_glosses(run, start, before)
        if first is not None:
            cuts.setdefault(offsets[first], []).append("open")
            kinds[after] = "ideo"
            return
        found = gloss_edges.trailing(run[start:])
        if found:
            first = start + found[0].start
            missing = "".join(g.char for g in found if not g.second and not _stands_in(g.char, before + run[start:first]))
            self.report.problem(offsets[first], "unbracketed-gloss",
                                f"{run[first:]!r} before a note reads as 音义, but {missing} is not in the text "
                                "before it: kept outside the note as the transcription has it — check the witness")
            return
        inner = _gloss_inside(run, start)
        if inner is not None:
            self.report.problem(offsets[inner], "unbracketed-gloss",
                                f"{run[inner:]!r} before a note holds 音义 the gloss parser cannot delimit: kept "
                                "outside the note as the transcription has it — check the witness")


WINDOW = 40  # the longest run of glosses looked for before a note
FOLLOWING = 8  # the characters of a note read with a run before it (疏 after 曰, a 反切 the ( cuts)


def _cut_gloss(run: str, start: int, before: str, following: str) -> int | None:
    """Where a 反切 begins that the note's ( cuts in two, the run ending with its character and one or
    two of its spellers (…纚山綺反纋一¶(尤反)…, …譴弃戰¶(反)…): the gloss these characters open with the
    note's first ones ends inside the note, gives a 广韵 reading of its character (``phonology.MATCHES``:
    not 文伯復命(反命於晉君), 經 before a note) and glosses a character that stands in the text before it.
    One character alone before a bare 反切 (蹈(徒報反)) may be the 经's own, glossed: it stays."""
    for size in (3, 2):
        k = len(run) - size
        if k < start:
            continue
        gloss = gloss_edges.opening_gloss(run[k:] + following)
        if gloss is not None and gloss.kind == "fanqie" and gloss.end > size and not gloss.second \
                and phonology.reading(gloss).status == phonology.MATCHES and _stands_in(gloss.char, before + run[start:k]):
            return k
    return None


def _trailing_glosses(run: str, start: int, before: str) -> int | None:
    """Where the longest run of glosses ending ``run`` begins (after ``start``), when it is sure:
    glosses through and through (``conv.parser.glosses.gloss_run``: scope notes, variants and short
    definitions included), every glossed character standing in the text before it, one gloss at
    least phonologically plausible."""
    best = None
    for k in range(len(run) - 3, max(start, len(run) - WINDOW) - 1, -1):
        parsed = glosses.gloss_run(run[k:])
        if parsed is None:
            continue
        found = parsed[0]
        seen = before + run[start:k]
        if all(g.second or _stands_in(g.char, seen) for g in found) and any(glosses.plausible(g) for g in found):
            best = k
    return best


def _stands_in(char: str, text: str) -> bool:
    """Does the glossed ``char`` stand in ``text``, in the same form or in another the reading text
    folds to the same character (示音祗説音悦 glosses the 說 of 以說逺人: 説 and 說 are one 说)?"""
    if char in text:
        return True
    folded = fold_char(char)
    return bool(folded) and any(fold_char(other) == folded for other in set(text))


def _head_in(run: str, start: int) -> int | None:
    """Where a head (疏曰, 今按 …) stands in ``run`` after ``start``: no 经 holds one."""
    found = [index for index in (run.find(head, start) for head in HEADS) if index != -1]
    return min(found) if found else None


def _gloss_inside(run: str, start: int) -> int | None:
    """The start of the last plausible 反切 or 直音 within the last characters of ``run`` (after
    ``start``) whose glossed character stands before it: 音义 the parser cannot delimit
    (``筮市例反庿古廟字``)."""
    for index in range(len(run) - 3, max(start, len(run) - 24) - 1, -1):
        found = gloss_edges.leading(run[index:])
        if found and found[0].char in run[start:index] and glosses.plausible(found[0]) and not found[0].second:
            return index
    return None


def _circles_as_text(tokens: list[Token]) -> list[Token]:
    """○ is text in the 通解 (the drum scores of 投壺 ``□○○○□``, the zeros of 鐘律 ``玖阡○○肆拾``),
    never a separator as in the 句读: one text token with the text around it."""
    if not any(t.kind == "circle" for t in tokens):
        return tokens
    out: list[Token] = []
    for token in tokens:
        kind = "text" if token.kind == "circle" else token.kind
        if kind == "text" and out and out[-1].kind == "text" and out[-1].end == token.start:
            out[-1] = Token("text", out[-1].start, token.end)
        else:
            out.append(Token(kind, token.start, token.end))
    return out


def _glosses_only(run: str) -> bool:
    """Is the run 音义 through and through, every gloss plausible?"""
    parsed = glosses.gloss_run(run)
    return parsed is not None and all(glosses.plausible(g) for g in parsed[0])


def _groups(kinds: list[str]) -> list[tuple[int, int]]:
    """(first, last) token indices of each stretch of text and blanks between markup tokens that
    holds text."""
    out = []
    first = None
    for index, kind in enumerate(kinds + ["open"]):
        if kind in MARKUP:
            if first is not None:
                out.append((first, index - 1))
            first = None
        elif first is None:
            first = index
    return [(a, b) for a, b in out if "text" in kinds[a:b + 1]]
