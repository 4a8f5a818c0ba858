"""Section titles (章名) standing inside a line: where a text run holds one.

Section titles standing inside a line (`…之也】右众賔受弓矢序立`, `…反位右司射请以乐节射`,
`…】右乐宾　记磬阶间…`) are found where a text run ends a line or follows a 】; a run that
admits more than one reading needs a reviewed correction (``conv.parser.corrections``), else it is
reported as a problem and kept as 经. Whole title lines are recognised by ``conv.reader.lines``.
"""
from __future__ import annotations

import re

from conv.normalize import FoldedSource
from conv.parser.corrections import Corrections
from conv.parser.report import SeedReport
from conv.reader import lines as line_kinds
from conv.reader.lexer import Token


#: What ``InlineTitles._decided`` returns where no reviewed correction decides the run.
UNDECIDED = object()

#: A numbered 章 (中庸, 大學: 右第五章, 右弟十九章), folded.
NUMBERED = re.compile("右[第弟][一二三四五六七八九十]+章")


def _filed_at(folded: str, item: str, start: int) -> int | None:
    """Where ``item`` (记, 传, 辞: what a title of the 通解 files under it) first stands in ``folded`` from ``start``, when the
    run before it can be a title (a 右, at most ``MAX_TITLE`` characters, no second 右); else None."""
    at = folded.find(item, start)
    return at if 2 <= at <= line_kinds.MAX_TITLE and folded.count("右", 0, at) == 1 else None


def _words_index(folded: str) -> int | None:
    """Where the 辭 a title of the 通解 files opens in ``folded`` (右醴賓辭醴曰…, 右始加辭始加祝曰…: 辭, then the words'
    name and 曰 within five characters), after a title of the right length; None when there is none."""
    at = _filed_at(folded, "辞", 2)
    return at if at is not None and "曰" in folded[at + 1:at + 6] else None


class InlineTitles:
    """Finds the section titles inside the text runs of one seed, of one work's layout."""

    def __init__(self, report: SeedReport, text: str, folded: FoldedSource, corrections: Corrections, layout: str,
                 witness: bool = False) -> None:
        self.report = report
        self.text = text
        self.folded = folded
        self.corrections = corrections
        self.title_corrections = corrections.applies(report.seed, "title")
        self.layout = layout
        self.witness = witness  # the 文渊阁 通解: a title must read as one (``lines.tongjie_title``)

    def find(self, token: Token, last_in_line: bool, after_close: bool, tokens: list[Token], i: int, in_ji: bool) -> tuple[int, int] | None:
        """The ``(start, end)`` of the section title in the text run ``token`` (``tokens[i]``),
        or None; ``in_ji``: the run is in the 记 layer."""
        decided = self._decided(token, last_in_line, after_close, tokens, i)
        if decided is not UNDECIDED:
            return decided  # a reviewed decision stands, whatever the rules would read (弟子職's 右執燭)
        found = self._find(token, last_in_line, after_close, tokens, i, in_ji)
        if found is not None and self.witness and not line_kinds.tongjie_title(self.folded.same_length(*found)):
            return None
        return found

    def next_line_token(self, tokens: list[Token], i: int) -> Token | None:
        """When the run ``tokens[i]`` ends its line of the witness, the tokens after it standing on a later one (a
        column the transcription joins to it): the first of those that is no blank; else None."""
        following = next((t for t in tokens[i + 1:] if t.kind != "space"), None)
        position = self.report.src.position
        if following is not None and position(following.start)[0] > position(tokens[i].end - 1)[0]:
            return following
        return None

    def _decided(self, token: Token, last_in_line: bool, after_close: bool, tokens: list[Token], i: int) -> tuple[int, int] | None | object:
        """The title a reviewed correction decides in the run ``token`` (None: no title, 经), recorded; else ``UNDECIDED``."""
        report = self.report
        run = self.text[token.start : token.end]
        opens_line = not any(t.kind != "space" for t in tokens[:i])  # (a title line its note's words make no title line)
        correction = self.corrections.title(report.seed, run) if self.title_corrections and (
            last_in_line or after_close or opens_line) else None
        if correction is None:
            return UNDECIDED
        title = correction["title"]
        report.record("correction", token.start, token.end, reason=correction["reason"], decision=f"title: {title}" if title else "no title: 经", correction=correction["id"])
        if not title:
            return None
        start = token.start + len(run) - len(title) if run.endswith(title) else token.start + run.index(title)
        return start, start + len(title)

    def _find(self, token: Token, last_in_line: bool, after_close: bool, tokens: list[Token], i: int, in_ji: bool) -> tuple[int, int] | None:
        report = self.report
        run = self.text[token.start : token.end]
        folded = self.folded.same_length(token.start, token.end)
        # 通解: 】右乐宾　记… or 】右一人举觯记乐作…
        if after_close and folded.startswith("右") and not last_in_line:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            after = tokens[i + 2] if i + 2 < len(tokens) else None
            # the title, then its 記 (…)右乐宾　记…), its 辭 (…)右始加辭始加祝曰…) or, after a source, its 傳 (…)玉藻右將朝傳…)
            at = _filed_at(folded, "记", 1)
            at = _words_index(folded) if at is None else at
            at = _filed_at(folded, "传", 2) if at is None and self.witness else at
            if at is not None:
                return token.start, token.start + at
            if nxt is not None and nxt.kind == "ideo" and after is not None and after.kind == "text" and self.folded.same[after.start] == "记":
                if len(run) <= line_kinds.MAX_TITLE and folded.count("右") == 1:
                    return token.start, token.end
                report.problem(token.start, "ambiguous-title", f"cannot tell where the section title begins in {run!r}: add a correction to conv/data/corrections.toml")
            # 中庸's numbered 章 with 朱熹's 章句 after it: …(由不明故不行)右第五章(此章承上章…)
            if NUMBERED.fullmatch(folded) and nxt is not None and nxt.kind == "open":
                return token.start, token.end
            # 通解: a title ending its column, the 经 going on in the next (…正之處)右立司正¶升自西階…)
            if self.witness and self.next_line_token(tokens, i) and folded.count("右") == 1 and len(run) <= line_kinds.MAX_TITLE:
                return token.start, token.end
            return None
        if not last_in_line:
            return None
        count = folded.count("右")
        if count == 1:
            index = folded.index("右")
            if (index == 0 and not after_close) or not 2 <= len(run) - index <= line_kinds.MAX_TITLE:
                return None
            return token.start + index, token.end
        if count > 1:
            report.problem(token.start, "ambiguous-title", f"{run!r} holds {count} 右: cannot tell whether or where a section title begins; add a correction to conv/data/corrections.toml")
            return None
        if self.layout == "judou" and in_ji and folded.find("记", 1) != -1:
            report.problem(token.start, "ambiguous-title", f"{run!r} may end with a 记 section title; add a correction to conv/data/corrections.toml")
        return None
