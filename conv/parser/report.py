"""Reporting (报告) for one seed: seed spans, problems at line:col, and apparatus entries (校勘记).

Every part of the parser reports through one ``SeedReport``: a span is ``(seed, start, end)``
offsets into the decoded text; a problem is located at the line and column of its offset; an
apparatus entry records an editorial intervention of the converter. ``pua`` reports the
private-use code points of the seed (outside dropped lines): identified ones as apparatus
entries, unknown ones as problems; a stand-in for an unencoded character (``conv.unencoded``) is an
apparatus entry of its own.
"""
from __future__ import annotations

from conv import datafiles as data
from conv import unencoded
from conv.errors import Problem
from conv.model.tree import Span
from conv.normalize import CONTROL_PATTERN, NOT_CJK_PATTERN, PUA_PATTERN, control_name, is_cjk
from conv.reader.source import Source


class SeedReport:
    """The problems and apparatus entries of one seed, located in its source."""

    def __init__(self, source: Source) -> None:
        self.src = source
        self.seed = source.name
        self.problems: list[Problem] = []
        self.apparatus: list[dict] = []

    def span(self, start: int, end: int) -> Span:
        return (self.seed, start, end)

    def problem(self, offset: int, kind: str, message: str) -> None:
        line, col = self.src.position(offset)
        self.problems.append(Problem(self.seed, line, col, kind, message))

    def record(self, kind: str, start: int, end: int, **fields) -> None:
        """An apparatus entry (校勘记): an editorial intervention of the converter."""
        line, col = self.src.position(start)
        entry = {"kind": kind, "span": list(self.span(start, end)), "line": line, "col": col}
        entry.update(fields)
        self.apparatus.append(entry)

    def pua(self, dropped: list[dict]) -> None:
        """Report every private-use code point (私用区) of the seed outside the ``dropped`` lines."""
        dropped_spans = [(d["span"][1], d["span"][2]) for d in dropped]
        for match in PUA_PATTERN.finditer(self.src.text):
            offset, char = match.start(), match.group()
            if any(a <= offset < b for a, b in dropped_spans):
                continue
            entry = data.pua().get(char)
            code = f"U+{ord(char):04X}"
            if unencoded.is_stand_in(char):
                self.record("unencoded", offset, offset + 1, witness=unencoded.markup(char), reading="",
                            reason="a character Unicode lacks, kept as one character of the text (the witness's own mark for it)")
            elif entry is None:
                self.problem(offset, "unknown-pua", f"private-use code point {code} is not in conv/data/pua.toml: identify the character and add it there")
            elif entry["kind"] == "spurious":
                self.record("spurious", offset, offset + 1, witness=code, reading="", reason=entry["reason"])
            else:
                self.record("pua", offset, offset + 1, witness=code, reading=entry["char"], reason=entry["reason"])

    def controls(self) -> None:
        """Report every control or invisible character (控制字符) of the seed: each is a problem at
        its line and column (it stays in the text, so nothing is lost, but it cannot be typeset)."""
        for match in CONTROL_PATTERN.finditer(self.src.text):
            self.problem(match.start(), "control-char",
                         f"{control_name(match.group())} is an invisible or control character: "
                         "remove it from the seed (the PDF refuses it)")

    def scripts(self, dropped: list[dict]) -> None:
        """Report text that is mostly not Chinese (乱码): a line (outside the ``dropped`` ones) with
        more letters of other scripts than CJK characters — GBK bytes read as UTF-8 give such lines
        (``司射һآؤרاҵ˿ة``). One problem per seed, at the first such line, with their count."""
        dropped_lines = {self.src.position(d["span"][1])[0] for d in dropped}
        found = []
        for line in self.src.lines:
            if line.number in dropped_lines:
                continue
            text = self.src.text[line.start : line.end]
            foreign = [match.start() for match in NOT_CJK_PATTERN.finditer(text) if match.group().isalpha()]
            if len(foreign) >= 3 and len(foreign) > sum(map(is_cjk, text)):
                found.append(line.start + foreign[0])
        if found:
            more = f" (and {len(found) - 1} more such lines)" if len(found) > 1 else ""
            self.problem(found[0], "not-chinese", f"this line is mostly letters of other scripts, not Chinese{more}: "
                         "mojibake? the file may be GBK or Big5 text decoded wrongly — check its encoding")
