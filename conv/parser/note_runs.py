"""Notes transcribed as large text (注文錄作大字), decided place by place in ``conv/data/note_runs.toml``.

In the 通解 (KR1d0085) the parentheses are the transcriber's, and they miss whole stretches of small
characters: the words of a 注 that goes on after a column's foot (``…使擯者)¶請事母出南面…也(疏曰…``),
the half of a note after its first ``)`` (``(對醬婦醬也設之當)特俎(疏曰…``), a 注 between the 经 and
its 疏 (``賓禮辭許禮辭一辭(疏曰…``). ``conv.parser.unbracketed`` moves what a rule makes sure (音义,
疏曰 heads, a lemma before 者); these words it cannot tell from 经. The 句读 prints the same 郑注:
where the 经 of the two works is aligned (``conv.edition.parallels``), words the 通解 has in its 经
and the 句读 in its notes are reported as ``note-in-text``. Each such run that stands next to a note
of the 通解 was read, and is listed in the data file with the 句读 passage whose notes hold it.

:class:`NoteRuns` finds a file's runs (an entry names the line its run begins on and the run as the
file writes it, its first occurrence there or the first after ``before``: a stale entry stops the
conversion at its own line), and
:meth:`NoteRuns.apply` rewrites a line's tokens (``conv.reader.lexer``) so that the run is in its
note, without moving a character:

- a 】 right before the run (blanks between) goes on into it: a blank when the run continues that
  note's words in the 句读 (``continues = "before"`` or ``"both"``), else a separator (U+3000: the run
  is a segment of its own); after 经, a 【 of no width opens the note at the run;
- a 【 right after it is a blank or a separator the same way (``continues = "after"``); before 经,
  a 】 of no width closes the note after the run.

Runs the alignment puts at a passage's edge whose words the 句读 prints nowhere (音义 it lacks, 疏 or 今按
words) were read too and are listed with ``in_notes = false``. Every run is an apparatus entry
``note-words`` with ``evidence = "judou"``, its 文渊阁 ``page``, the 句读 passage (``witness_anchor``) and
``in_notes``; the 校勘记 says it in Chinese on the passage. In the books the 句读 lacks (the 通解's 礼记
篇), a run was read by its words alone: its entry gives no 句读 passage but ``basis``, in Chinese, why the
words are a note's (a 注 between the 经 and its 疏, the rest of a note over a page), and its record has
``evidence = "reading"`` and that ``basis``.

Runs the rules of ``conv.parser.unbracketed`` would report as 音义 they cannot delimit, read and found to
be 经 (``知音而不知樂者``: to know music, no 直音), are listed as ``[[jing]]`` (file, line, text, basis):
:meth:`NoteRuns.read_as_jing` tells the rules, which report nothing there; the words stay in the text.
"""
from __future__ import annotations

from dataclasses import dataclass

from conv import datafiles as data
from conv.errors import ConversionError
from conv.parser.report import SeedReport
from conv.model.tree import text_chars
from conv.reader.lexer import Token, depth, rebuild
from conv.reader.source import page_at

REASON = ("the 句读 prints these words in its notes (witness_anchor), and in the 通解 they stand next to a "
          "note: 注 printed small, which the transcription left outside its parentheses")
REASON_READ = ("no 句读 passage holds these words (the 通解 quotes a book the 句读 lacks): read as small characters "
               "the transcription left outside its parentheses, for the reason given in Chinese (basis)")
REASON_NOT_IN_NOTES = ("the 句读's 经 lacks these words (witness_anchor), and in the 通解 they stand next to a note: "
                       "read as small characters the transcription left outside its parentheses (音义, 注, 疏 or 按)")
CONTINUES = {"before": (True, False), "after": (False, True), "both": (True, True)}


@dataclass(frozen=True)
class Run:
    """A decided run: offsets in the witness file, the 句读 passage, whether it continues its neighbours."""

    start: int
    end: int
    text: str
    judou: str
    in_notes: bool  # the 句读 prints the words in its notes (else its 经 lacks them, and they were read)
    before: bool  # continues the words of the note before it
    after: bool   # the note after it continues its words
    entry_line: int
    basis: str = ""  # without a 句读 passage: why the words are a note's (Chinese, for the 校勘记)


class NoteRuns:
    """The decided runs of one witness file (see the module docstring)."""

    def __init__(self, source, report: SeedReport, entries: list[tuple[int, dict]] | None = None,
                 jing: list[tuple[int, dict]] | None = None) -> None:
        self.report = report
        self.runs = _runs(source, data.note_runs() if entries is None else entries)
        self.recorded: set[int] = set()
        # runs read as 经 ([[jing]]): where they stand; a 音义 the rules would see in one is no problem
        self.jing = frozenset(at for r in _runs(source, data.jing_runs() if jing is None else jing, jing=True)
                              for at in range(r.start, r.end))  # (the rules ask of every character of a run)

    def read_as_jing(self, offset: int) -> bool:
        """Does ``offset`` lie in a run read as 经 (``[[jing]]``)?"""
        return offset in self.jing

    def jing_from(self, offsets: list[int]) -> int:
        """Where, after the first, a character at these offsets begins a run read as 经, else 0: a head's
        words (今按…) run to the line's end but there (…今按西面當作南面｜勞者揖皮出乃退)."""
        return next((i for i, offset in enumerate(offsets) if i and self.read_as_jing(offset)), 0)

    def jing_until(self, offsets: list[int], start: int) -> int:
        """Past the last character at ``offsets[start:]`` read as 经, else ``start``: glosses ending a run before a
        note begin after it (聘禮記's …祭半膱横之｜膱音職, not the gloss 膱横之膱音職 of a word 膱横)."""
        return next((i + 1 for i in range(len(offsets) - 1, start - 1, -1) if self.read_as_jing(offsets[i])), start)

    def apply(self, tokens: list[Token]) -> list[Token]:
        """The tokens of one line with every decided run on it inside its note."""
        if not self.runs or not tokens:
            return tokens
        for run in (r for r in self.runs if tokens[0].start <= r.start < tokens[-1].end):
            tokens = self._one(tokens, run)
            if run.start not in self.recorded:
                self.recorded.add(run.start)
                words = text_chars(self.report.src.text, run.start, run.end)  # a gaiji is one character
                page = page_at(self.report.src, run.start)
                if run.judou:
                    self.report.record("note-words", run.start, run.end, text=words, evidence="judou", page=page,
                                       witness_anchor=run.judou, in_notes=run.in_notes,
                                       reason=REASON if run.in_notes else REASON_NOT_IN_NOTES)
                else:
                    self.report.record("note-words", run.start, run.end, text=words, evidence="reading", page=page,
                                       basis=run.basis, reason=REASON_READ)
        return tokens

    def _one(self, tokens: list[Token], run: Run) -> list[Token]:
        inside = [i for i, t in enumerate(tokens) if t.start < run.end and run.start < t.end]
        opened = depth([t for t in tokens if t.end <= run.start])  # notes open where the run begins
        if not inside or opened > 0 or tokens[inside[0]].kind != "text" or tokens[inside[-1]].kind != "text" \
                or any(tokens[i].kind not in ("text", "space") for i in inside):
            self._stale(run, "is not text of the 经 between notes (already in a note, or cut by one)")
        first, last = inside[0], inside[-1]
        kinds = [t.kind for t in tokens]
        cuts: dict[int, list[str]] = {}
        before = _neighbour(tokens, first, -1) if tokens[first].start == run.start else None
        if before is not None and kinds[before] == "close":
            kinds[before] = "space" if run.before else "ideo"
        elif before is None and first == 0 and not run.before:  # opening the line: a segment of its own, also
            cuts[run.start] = ["open", "ideo"]                   # where the note the line before ended goes on
        else:
            cuts[run.start] = ["open"]
        after = _neighbour(tokens, last, 1) if tokens[last].end == run.end else None
        if after is not None and kinds[after] == "open":
            kinds[after] = "space" if run.after else "ideo"
        else:
            cuts[run.end] = ["close"]
        return rebuild(tokens, kinds, cuts)

    def _stale(self, run: Run, what: str) -> None:
        line, col = self.report.src.position(run.start)
        raise ConversionError(data.display(data.NOTE_RUNS), run.entry_line, 1,
                              f"note run 「{run.text}」 at {self.report.seed}:{line}:{col} {what}",
                              "re-read the place in the witness and mend or remove the entry")


def _runs(source, entries: list[tuple[int, dict]], jing: bool = False) -> list[Run]:
    """The entries of ``source``'s file as runs at their offsets (a stale entry stops the conversion);
    ``jing``: entries of runs read as 经, which give their ``basis`` alone."""
    witness = getattr(source, "witness", None)
    out = []
    for number, entry in entries:
        if witness is None or entry.get("file") != source.name:
            continue
        index, text = entry.get("line", 0) - 1, str(entry.get("text", ""))
        line = witness.physical[index] if 0 <= index < len(witness.physical) else None
        ahead = str(entry.get("before", ""))
        at = _first(witness.text, text, ahead, line.start, line.end) if line is not None and text else -1
        if at < 0:
            raise ConversionError(data.display(data.NOTE_RUNS), number, 1,
                                  f"note run 「{text}」 is not on line {entry.get('line')} of {source.name}"
                                  + (f" after 「{ahead}」" if ahead else ""),
                                  "name the line the run begins on and the run as the witness file writes it "
                                  "(with `before`, the characters right before it, where it is not the first on the line)")
        judou, basis = str(entry.get("judou", "")), str(entry.get("basis", ""))
        if jing and (judou or not basis):
            raise ConversionError(data.display(data.NOTE_RUNS), number, 1,
                                  f"run read as 经 「{text}」 of {source.name} gives {'a judou' if judou else 'no basis'}",
                                  "say in Chinese why the words are the 经's (basis), and nothing else")
        if not jing and bool(judou) == bool(basis):
            raise ConversionError(data.display(data.NOTE_RUNS), number, 1,
                                  f"note run 「{text}」 of {source.name} gives {'both judou and basis' if judou else 'neither judou nor basis'}",
                                  "name the 句读 passage whose notes hold the words (judou), or, where the 句读 has none, "
                                  "say in Chinese why the words are a note's (basis)")
        before, after = CONTINUES.get(entry.get("continues", ""), (False, False))
        out.append(Run(at, at + len(text), text, judou, entry.get("in_notes", True) is not False,
                       before, after, number, basis))
    return sorted(out, key=lambda r: r.start)


def _first(text: str, run: str, ahead: str, start: int, end: int) -> int:
    """Where ``run`` first begins between ``start`` and ``end`` (right after ``ahead`` if it is given), else -1."""
    at = text.find(run, start, end)
    while at >= 0 and text[max(at - len(ahead), 0):at] != ahead:
        at = text.find(run, at + 1, end)
    return at


def _neighbour(tokens: list[Token], index: int, step: int) -> int | None:
    """The index of the first token before (``step`` -1) or after (+1) ``index`` that is no blank."""
    index += step
    while 0 <= index < len(tokens) and tokens[index].kind == "space":
        index += step
    return index if 0 <= index < len(tokens) else None
