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
  (``…)適丁歴反辟音避將冠者出房南面``) go into it and the rest is text again (a head after them goes on
  into the note after it, as a head alone does: ``…摳苦侯反被皮義反疏曰說屨低身¶(若不摳衣…``);
- the **rest of a gloss the note's 】 cuts** (``…(甒亡)¶甫反(…``, ``…(濡音)儒(…``, ``…又)¶所賣反…``,
  ``…下注婦見)¶皆同…``: :func:`_completion`) goes on in the note's last segment, also at a line's start
  after a line that ended with the note (a 【 of no width reopens it);
- a run right after a note that is 月令's **collation notes** (校语) through and through
  (``conv.parser.collation_notes``: ``吕唐齊皆作齋淮無是月至此一節``) goes into that note, and so do 校语 opening
  a run of 经 (``…)淮揔作緫藜莠蓬蒿並興``: ``collation_notes.opening``) and a clause the note's ``(`` cuts
  (``…)吕萌(作繁)``, or opening the next line: ``…)唐無¶(此一節)``: ``collation_notes.runs_into``), also at a
  line's start after a line that ended with the note (``…)吕帥作率習作肄¶淮無天子乃字力下有勁字(…``); 校语 ending a
  run of 经 right before a note opens that note (``…進退度數吕貸作忒淮無乃命至此一節(唐云…``). 校语 quoting
  another text (``唐云…``, ``淮此下有…``) the rules leave in the 经 — its end may be anywhere — are reported
  (``collation-in-text``: list the run in ``conv/data/note_runs.toml``);
- a **source attribution** cut by the parentheses (``…其服)玉(藻)``) goes into the note before as one
  segment;
- a **source attribution** (出处, ``conv.parser.sources``) right after a note, ending the line, before
  a 右 title on it (``…(自若常也)曲禮¶``) or before a note of 朱熹's that opens 今按 or 按, goes into
  that note as a segment of its own;
- a **音义's character** left alone between two notes, standing in the note before it, whose reading
  opens the note after it (``…履蹈地也…而已)蹈(徒報反)…``), opens that note; so does the word a 音义
  ending the note before it reads, when the note after it is a 注 (``…(貽以之反)貽(遺也…``: the 注's
  lemma); an apparatus entry (``note-words``, evidence ``gloss``, ``glossed`` for the lemma) records the move;
- a **head** in a run right before a note (``…榮屋翼疏曰(云南北以堂深者…``, ``父庿也疏曰蓍(草之靈者``)
  opens that note there: no 经 holds 疏曰 or 今按;
- a **lemma** (``大學`` in ``…至善(程子曰親當作新)大學¶(者大人之學也…``): a run of one to four
  characters standing alone between two notes, the second opening with 者 (which cannot open a
  note), and found in the text before it (on the line or the line before), is the word of the 经 the note repeats
  (朱熹's 章句, 郑注: ``使(者夫家之屬…``): it opens that note, and an apparatus entry
  (``note-words``) records the move;
- a **反切 cut** by a note's ``(`` (``…纚山綺反纋一¶(尤反)…``, ``…譴弃戰¶(反)…``): the two or three
  characters ending a run before a note that open, with the note's first ones, a 反切 giving a 广韵
  reading of a character standing before them go into the note (one character alone, ``闋(苦穴反)``,
  may be the 经's own and stays);
- **glosses ending** a run right before a note (``conv.parser.trailing_glosses``: ``glosses.gloss_run``
  from there to the note, one gloss at least attested by the 广韵) open that note when every glossed character stands in
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

import re

from conv.parser import collation_notes, gloss_edges, glosses, phonology, sources, trailing_glosses
from conv.parser.note_runs import NoteRuns
from conv.parser.report import SeedReport
from conv.parser.restorations import read_form
from conv.reader.lexer import Token, depth, rebuild

HEADS = ("疏曰", "疏云", "疏又曰", "疏又云", "䟽曰", "䟽云", "今按", "愚按", "愚案", "又按")
MARKUP = ("open", "close", "ideo", "circle")
LEMMA = 4  # the longest word of the 经 a note repeats before 者 (以鐘鼔者)
LEMMA_REASON = ("the run stands alone between two notes, the second opens with 者 (which cannot open a note), "
                "and the run repeats words of the text before it: the note's lemma, printed small in the book")
GLOSSED_LEMMA_REASON = ("the character is left alone between two notes, the note before it ends with 音义 that read "
                        "it, and the note after it is a 注 (no 疏曰 or 今按, no reading): the 注's lemma, the word the "
                        "音义 read, printed small in the book")
GLOSS_LEMMA_REASON = ("the character is left alone between two notes, stands in the note before it, and the note "
                      "after it opens with a reading of it printed without the character: the 音义's character, "
                      "printed small in the book")


class Unbracketed:
    """Rewrites the tokens of the lines of one 通解 witness file (see the module docstring)."""

    def __init__(self, text: str, report: SeedReport, decided: NoteRuns | None = None,
                 misprints: dict[int, dict] | None = None) -> None:
        self.text = text
        self.report = report
        self.decided = decided
        self.misprints = misprints or {}  # offset → reviewed misprint (misprints.toml): the rules read its form
        self.closed: int | None = None  # the offset of the 】 that ended the last line read, if one did

    def adjust(self, tokens: list[Token], context: str = "") -> list[Token]:
        """The tokens of one line with the sure small runs moved into their notes; ``context``: text
        before the line in which a glossed character may stand (the line before, the 篇's title)."""
        tokens = self._adjusted(_circles_as_text(tokens), context)
        last = next((t for t in reversed(tokens) if t.kind != "space"), None)
        self.closed = last.start if last is not None and last.kind == "close" else None
        return tokens

    def _adjusted(self, tokens: list[Token], context: str) -> list[Token]:
        if self.decided is not None:  # the runs read against the 句读 first: conv/data/note_runs.toml
            tokens = self.decided.apply(tokens)
        # a note the line before ended with (its 】 last, blanks and page lines since): a gloss it cut
        # may go on at this line's start
        closed = self.closed if self.closed is not None and tokens and _blank(self.text[self.closed + 1:tokens[0].start]) else None
        if not any(t.kind == "text" for t in tokens) or (
                closed is None and not any(t.kind in ("open", "close") for t in tokens)):
            return tokens
        kinds = [t.kind for t in tokens]
        cuts: dict[int, list[str]] = {}  # offset → zero-width tokens before the character there
        for first, last in _groups(kinds):
            before = first - 1 if first > 0 and kinds[first - 1] in MARKUP else None
            after = last + 1 if last + 1 < len(kinds) and kinds[last + 1] in MARKUP else None
            pieces = [t for t in tokens[first:last + 1] if t.kind == "text"]
            offsets = [o for t in pieces for o in range(t.start, t.end)]
            run = "".join(self._read(t.start, t.end) for t in pieces)
            start = 0
            opening_line = before is None and closed is not None and not any(k != "space" for k in kinds[:first])
            if before is not None and kinds[before] == "close" or opening_line:
                done = _completion(_note_tail(self.text, tokens[before].start if before is not None else closed), run)
                go_on = before is not None or done or collation_notes.is_collation(run)  # (吕帥作率習作肄)¶淮無…
                start = self._after_note(kinds, before, after, run, offsets, cuts, done) if go_on else 0
                if start is None:
                    continue
            self._quotation(run, offsets, start, tokens[:first])
            if after is not None and kinds[after] == "open" and start < len(run):
                earlier = context + self.text[tokens[0].start:offsets[0]]
                if start == 0 and self._lemma(kinds, before, after, run, offsets, cuts, earlier):
                    continue
                if start == 0 and self._split_source(kinds, before, after, run, offsets):
                    continue
                following = self.text[tokens[after].end:tokens[after].end + FOLLOWING]
                if before is not None and kinds[before] in ("close", "ideo") and self._gloss_lemma(
                        kinds, after, run, offsets, start, cuts, tokens[before].start):
                    continue
                self._before_note(kinds, after, run, offsets, start, cuts, tokens[0].start, context, following)
        return rebuild(tokens, kinds, cuts)

    def _after_note(self, kinds, before, after, run, offsets, cuts, done: int = 0) -> int | None:
        """A run right after a note: None when all of it went into the note, else where the text
        resumes (after the glosses that opened it went into the note). ``done``: how many of its
        first characters complete the gloss the note ends with (:func:`_completion`): they go on in
        the note's last segment, and the rest of the run is read as a run after a note. A run read as 经
        (``[[jing]]``: 月令's 其音徵, the note's glosses would take 其 音徵 for a 直音) stays."""
        if not done and self._read_as_jing(offsets[0]):
            return 0
        into_next = after is not None and kinds[after] == "open"
        rest = run[done:]
        note = self._note_text(offsets[-1] + 1) if into_next else ""
        source = sources.ending_run(rest, note[:FOLLOWING]) or sources.opening_run(rest)  # 出处 ending the paragraph
        # (…)曲禮¶), before 朱熹's 按, or before the next paragraph on the line (…)玉藻聽於無聲…)
        below = "" if after is not None else self._note_below(offsets[-1] + 1)  # …)唐無¶(此一節)…
        cut = collation_notes.runs_into(rest, note if into_next else below)  # …)吕萌(作繁)…
        whole = not rest or rest.startswith(HEADS) or _glosses_only(rest) or source == len(rest) \
            or collation_notes.is_collation(rest) or cut  # 月令's 校语: …)吕唐齊皆作齋淮無是月至此一節(…
        stop = self.decided.jing_from(offsets[done:]) if whole and self.decided and rest.startswith(HEADS) else 0
        if stop:  # a head's words end where 经 read as such begins (…今按西面當作南面｜勞者揖皮出乃退)
            whole, source = False, stop
        opening = [] if whole or source else gloss_edges.leading(rest)
        if not (whole or source or opening):  # 月令's 校语 opening the run, the 经 going on (淮揔作緫｜藜莠蓬蒿並興)
            source = collation_notes.opening(rest) or 0
        if opening and (opening[-1].end >= len(rest) or into_next and rest[opening[-1].end:].startswith(HEADS)):
            whole = True
        named = sources.opening_run(rest[opening[-1].end:]) if opening and not whole else 0  # …)為于偽反少儀問品味…
        if before is None:  # the note closed at the line's end before goes on: reopened (passages.open_note)
            cuts.setdefault(offsets[0], []).append("open")
        else:  # a gloss the 】 cut goes on in the note's segment; else the run is a segment of its own
            kinds[before] = "space" if done else "ideo"
        if whole:
            if into_next:  # the 疏/按 a head opens (after glosses or not) goes on in the note after it;
                # glosses end a segment
                head = rest.startswith(HEADS) or bool(opening) and rest[opening[-1].end:].startswith(HEADS)
                kinds[after] = "space" if head or cut else "ideo"
            else:
                cuts.setdefault(offsets[-1] + 1, []).append("close")
            return None
        end = done + (opening[-1].end + named if opening else source)
        if not end:  # (``before`` is a 】: a run at a line's start comes here only with ``done``)
            kinds[before] = "close"
            return 0
        cuts.setdefault(offsets[end], []).append("close")
        return end

    def _quotation(self, run: str, offsets: list[int], start: int, earlier: list[Token]) -> None:
        """月令's 校语 quoting another text in the 经 (唐云…, 淮此下有…), where no reviewed entry put it in its
        note: reported, since the grammar cannot tell where the quotation ends (``collation_notes``). ``earlier``:
        the line's tokens before the run (a run inside a note, their brackets unbalanced, is no 经)."""
        at = collation_notes.quotation_at(run, start)
        if at is not None and not depth(earlier):
            self.report.problem(offsets[at], "collation-in-text",
                                f"{run[at:]!r} opens with 校语 quoting another text, whose end the rules cannot tell: "
                                "kept in the text as the transcription has it — read the place and list the run in "
                                "conv/data/note_runs.toml")

    def _read(self, start: int, end: int) -> str:
        """The witness's characters at ``[start, end)`` as the rules read them: a reviewed misprint in its
        right form (兒賢遍反 is 見賢遍反: ``conv/data/misprints.toml``); one character for one, offsets kept."""
        return read_form(self.text[start:end], range(start, end), self.misprints)

    def _lemma(self, kinds, before, after, run, offsets, cuts, earlier: str) -> bool:
        """A run alone between two notes that is the lemma of the second (see the module
        docstring): it opens that note, and the move is recorded. ``earlier``: the text before
        the run (the line before it, the 篇's title, the line up to the run)."""
        if before is None or kinds[before] != "close" or not 0 < len(run) <= LEMMA:
            return False
        at = self._note_start(offsets[-1] + 1)
        opening = self.text[at:at + 1]
        if opening != "者" or run not in earlier:
            return False
        cuts.setdefault(offsets[0], []).append("open")
        kinds[after] = "space"
        self.report.record("note-words", offsets[0], offsets[-1] + 1, text=run, evidence="zhangju",
                           reason=LEMMA_REASON)
        return True

    def _split_source(self, kinds, before, after, run, offsets) -> bool:
        """A source the parentheses cut in two (…其服)玉(藻)¶, …(翦割截也)文王世(子)魯人…): the run right after
        a note and the whole note after it make a title of ``conv.parser.sources``: one segment (出处) of
        the note before (the move is recorded)."""
        title = sources.cut_title(run, self.text, self._note_start(offsets[-1] + 1))
        if before is None or kinds[before] != "close" or title is None:
            return False
        kinds[before], kinds[after] = "ideo", "space"
        self.report.record("note-words", offsets[0], offsets[-1] + 1, text=run, evidence="source",
                           source=title, reason=sources.CUT_REASON)
        return True

    def _note_text(self, at: int) -> str:
        """The text of the note after a run ending at ``at``, up to its 】 (or the line's end)."""
        start = self._note_start(at)
        end = min((i for i in (self.text.find("】", start), self.text.find("\n", start)) if i != -1), default=len(self.text))
        return self.text[start:end]

    def _note_below(self, at: int) -> str:
        """The text of a note opening the next line, a run ending its line at ``at``, else ``""``."""
        end = at
        while end < len(self.text) and self.text[end] == " ":
            end += 1
        if self.text[end:end + 1] != "\n":
            return ""
        start = self._note_start(end + 1)
        return self._note_text(start) if self.text[start - 1:start] == "【" else ""

    def _note_start(self, at: int) -> int:
        """Where the note after a run ending at ``at`` begins: past blanks (a page line) and its 【."""
        while at < len(self.text) and self.text[at] in " 【":
            at += 1
        return at

    def _gloss_lemma(self, kinds, after, run, offsets, start, cuts, closed: int) -> bool:
        """One character left between two notes (alone, or after glosses that went into the note
        before), standing in the note before it, when the note after it opens with a reading of it
        (…履蹈地也言不但不滿容而已)蹈(徒報反)…, …盻莫遍反覆¶(芳伏反…): the 音义's character, printed small
        outside the parentheses; it opens the note after it (the move is recorded)."""
        char = run[start:]
        if len(char) != 1 or char not in _note_tail(self.text, closed, NOTE_WINDOW):
            return False
        at = self._note_start(offsets[-1] + 1)
        if _reads(char, self.text[at:at + READING]):
            evidence, reason = "gloss", GLOSS_LEMMA_REASON
        elif start == 0 and gloss_edges.ends_reading(char, _note_tail(self.text, closed)) and \
                not self.text.startswith(HEADS, at) and not gloss_edges.opens_with_reading(self.text[at:at + READING]):
            evidence, reason = "glossed", GLOSSED_LEMMA_REASON  # (貽以之反)貽(遺也…): the 注's lemma
        else:
            return False
        if cuts.get(offsets[start]) == ["close"]:  # the glosses before it: one 音义 with the note after
            del cuts[offsets[start]]
        else:
            cuts.setdefault(offsets[start], []).append("open")
        kinds[after] = "space"
        self.report.record("note-words", offsets[start], offsets[start] + 1, text=char, evidence=evidence,
                           reason=reason)
        return True

    def _before_note(self, kinds, after, run, offsets, start, cuts, line_start, context, following) -> None:
        """Glosses ending a run right before a note open that note, when they are sure; so does a
        head ending it (``…榮屋翼疏曰(云南北…``, or ``疏`` when the note goes on ``曰…``, or a ``今`` alone
        when it goes on ``按…``: ``…)今(按婦人不冠…``), and 月令's 校语 ending it (``collation_notes.ending``)."""
        at = _head_in(run, start)
        if at is None and run.endswith("疏") and following[:1] in ("曰", "云"):
            at = len(run) - 1
        if at is None and run[start:] == "今" and following[:1] == "按":
            at = start
        if at is not None:
            cuts.setdefault(offsets[at], []).append("open")
            kinds[after] = "space"
            return
        notes = collation_notes.ending(run, start)  # 月令: …進退度數吕貸作忒淮無乃命至此一節(唐云…
        if notes is not None:
            cuts.setdefault(offsets[notes], []).append("open")
            kinds[after] = "ideo"
            return
        start = self.decided.jing_until(offsets, start) if self.decided else start
        if start == len(run):  # 经 read as such ends the run
            return
        before = context + self.text[line_start:offsets[start]]
        cut = trailing_glosses.cut_gloss(run, start, before, following)
        if cut is not None:  # the note's ( cuts a 反切: its head goes into the note, the gloss runs on
            cuts.setdefault(offsets[cut], []).append("open")
            kinds[after] = "space"
            return
        first = trailing_glosses.first_gloss(run, start, before)
        if first is not None:
            cuts.setdefault(offsets[first], []).append("open")
            kinds[after] = "ideo"
            return
        found = gloss_edges.trailing(run[start:])
        if found:
            first = start + found[0].start
            if self._read_as_jing(offsets[first]):
                return
            missing = "".join(g.char for g in found if not g.second and not trailing_glosses.stands_in(g.char, before + run[start:first]))
            self.report.problem(offsets[first], "unbracketed-gloss",
                                f"{run[first:]!r} before a note reads as 音义, but {missing} is not in the text "
                                "before it: kept outside the note as the transcription has it — check the witness")
            return
        inner = trailing_glosses.inside(run, start)
        if inner is not None and not self._read_as_jing(offsets[inner]):
            self.report.problem(offsets[inner], "unbracketed-gloss",
                                f"{run[inner:]!r} before a note holds 音义 the gloss parser cannot delimit: kept "
                                "outside the note as the transcription has it — check the witness")

    def _read_as_jing(self, offset: int) -> bool:
        """Was the run at ``offset`` read as 经 (conv/data/note_runs.toml, ``[[jing]]``): no problem there."""
        return self.decided is not None and self.decided.read_as_jing(offset)


NOTE_WINDOW = 200  # the characters of a note before a 音义's character it may stand in
READING = 12  # the characters of a note read for the reading that opens it (本又作勌其卷反)
FOLLOWING = 8  # the characters of a note read with a run before it (疏 after 曰, a 反切 the ( cuts)
PEEK = 24  # the characters of a run after a note within which a gloss the note's 】 cut ends (its scope too)


def _blank(text: str) -> bool:
    """Nothing but blanks and line breaks (a page line is blanks in the transliterated text)."""
    return not text or text.isspace()


def _note_tail(text: str, end: int, size: int = trailing_glosses.WINDOW) -> str:
    """The last characters (``size`` at most) of the note whose 】 is at ``end``: none before its 【,
    a blank or a separator."""
    start = end
    while start > 0 and end - start < size and not text[start - 1].isspace() and text[start - 1] not in "【】○":
        start -= 1
    return text[start:end]


def _completion(tail: str, run: str) -> int:
    """How many characters opening ``run`` complete a gloss that the note before it, ending with
    ``tail``, leaves cut where the transcription closed its parentheses (…(甒亡)¶甫反(…, …(濡音)儒(…,
    …(尻)苦刀反…): the note's last characters and the run's first ones make one 反切 or 直音 (with its
    scope, 下同) that gives a 广韵 reading of its character (``phonology.MATCHES``); else what
    :func:`_governed_completion` finds reading the note and the run together. 0 when none does."""
    if not tail.endswith("音") and not any(mark in run[:FOLLOWING] for mark in _CUT_MARKS):
        return 0  # (no reading's 反 切 音 nor a scope's 同 where a cut gloss would end: 经 after a note)
    for size in range(min(3, len(tail)), 0, -1):
        head = tail[-size:]
        gloss = gloss_edges.opening_gloss(head + run[:FOLLOWING])
        if gloss is not None and len(gloss.core) > size and gloss.end - size <= len(run) and not gloss.second \
                and gloss.kind in ("fanqie", "zhiyin") and phonology.reading(gloss).status == phonology.MATCHES:
            return gloss.end - size  # (a reading whole in the note is no cut one: len(core) > size)
    return _governed_completion(tail, run)


def _governed_completion(tail: str, run: str) -> int:
    """:func:`_completion` reading the note and the run together: the gloss across the cut opens the
    note or comes right after another gloss (a note of 注 ending 之也 and 经 賓反 after it make no
    gloss), nothing in it is unread, the cut falls inside its reading or its scope (…見賢遍反下注婦見)¶皆同…;
    not in a definition: …下及注同)先謂倡道也… is 注), and its reading is one the 广韵 has
    (``trailing_glosses.READINGS``: …(枋彼)¶命反(…, …(食音)嗣(…, …(婁力)候反氐丁兮反…) or the run is nothing but a 反切's
    rest, whatever its reading (…(比毗)¶志反(…, …(肶昌私)¶反(…: no 经 is a lower speller and 反 alone).
    The glosses before it may govern it: a second reading (…灑本又作洒所買反又)¶所賣反…) or an
    authority's (…間徐古辦)¶反(…)."""
    found, unread = glosses.parse_run(tail + run[:PEEK])  # a gloss across the cut ends within PEEK
    cut = len(tail)
    gloss = next((g for g in found if g.start < cut < g.end), None)
    if gloss is None or gloss.kind not in ("fanqie", "zhiyin") or gloss.end - cut > len(run) \
            or gloss.start + len(gloss.core) + len(gloss.scope or "") <= cut \
            or any(a < gloss.end and gloss.start < b for a, b in unread) \
            or gloss.start and not any(g.end == gloss.start for g in found):
        return 0
    if gloss.start + len(gloss.core) <= cut or phonology.reading(gloss).status in trailing_glosses.READINGS \
            or gloss.kind == "fanqie" and _FANQIE_REST.fullmatch(run):  # (a scope cut: the reading is whole)
        return gloss.end - cut
    return 0


def _reads(char: str, note: str) -> bool:
    """Does ``note`` open with a reading of ``char`` printed without it (a 反切, a 直音, a variant
    before one: 徒報反, 音導, 本又作勌其卷反) that the 广韵 has (``trailing_glosses.READINGS``)?"""
    found, _ = glosses.parse_run(char + note)
    return bool(found) and found[0].start == 0 and found[0].char == char and not found[0].second \
        and found[0].kind in ("fanqie", "zhiyin") and phonology.reading(found[0]).status in trailing_glosses.READINGS


#: What the rest of a cut gloss holds in its first characters: a reading's 反 切 音, a scope's last 同 (the rare
#: 下以意推之 and 後皆倣此 cut apart would be missed).
_CUT_MARKS = "反切音同"
#: A run that is nothing but the rest of a 反切 (its spellers' last and 反, or 反 alone): never 经.
_FANQIE_REST = re.compile(r"[^反切]{0,2}[反切]")


def _head_in(run: str, start: int) -> int | None:
    """Where a head (疏曰, 今按 …) stands in ``run`` after ``start``: no 经 holds one."""
    found = [index for index in (run.find(head, start) for head in HEADS) if index != -1]
    return min(found) if found else None


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
    """Is the run 音义 through and through, every gloss attested by the 广韵 (``trailing_glosses.attested``:
    惷勑江反, its spellers fitting 丑江切) or a variant of one (齊音咨本又作齊)?"""
    parsed = glosses.gloss_run(run)
    return parsed is not None and all(trailing_glosses.attested(g) or g.kind == "other" and g.remark == "variant"
                                      for g in parsed[0]) and any(trailing_glosses.attested(g) for g in parsed[0])


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
