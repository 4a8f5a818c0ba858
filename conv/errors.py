"""Errors and problems (错误与待决): every message names the file, the line and the column."""
from __future__ import annotations

from dataclasses import dataclass


class ConversionError(Exception):
    """A seed the converter refuses (nothing is written). ``str()`` is ``file:line:col: message``."""

    def __init__(self, seed: str, line: int, col: int, message: str, hint: str = "") -> None:
        self.seed, self.line, self.col, self.message, self.hint = seed, line, col, message, hint
        text = f"{seed}:{line}:{col}: {message}"
        super().__init__(f"{text}\n  hint: {hint}" if hint else text)


@dataclass
class Problem:
    """Something an editor must decide (待决): reported in ``problems``, never silently guessed."""

    seed: str
    line: int
    col: int
    kind: str
    message: str

    def as_dict(self) -> dict:
        return {"seed": self.seed, "line": self.line, "col": self.col, "kind": self.kind, "message": self.message}


class ConservationError(ConversionError):
    """A character lost or duplicated by the converter: always a converter bug, never the seed's fault."""
