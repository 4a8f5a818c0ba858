"""CJK line breaks (中文换行): MyST keeps a source newline as text, and a browser shows it as a
space — between two Han characters that is a visible error. ``CJKNewlines`` drops every newline
whose neighbours (in the same block, across inline nodes) are both CJK characters or CJK
punctuation. Literal text (code, raw, math) is left alone.
"""
from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

from conv.sphinx_ext.util import replace_child

CJK_RANGES = (
    "\u2e80-\u2fdf"  # radicals
    "\u3000-\u303f"  # CJK symbols and punctuation
    "\u3040-\u30ff"  # kana
    "\u3100-\u312f\u31a0-\u31ef"  # bopomofo, strokes
    "\u3200-\u33ff"  # enclosed, compatibility
    "\u3400-\u4dbf"  # extension A
    "\u4e00-\u9fff"  # unified ideographs
    "\ue000-\uf8ff"  # private use: stands for Han characters in the witnesses
    "\uf900-\ufaff"  # compatibility ideographs
    "\ufe30-\ufe4f"  # compatibility forms
    "\uff00-\uffef"  # full-width forms
    "\U00020000-\U0003ffff"  # extensions B–H
)
CJK_CHAR = re.compile(f"[{CJK_RANGES}]")
_LITERAL = (nodes.FixedTextElement, nodes.literal, nodes.raw, nodes.math, nodes.comment)


def setup_cjk(app: Sphinx) -> None:
    app.add_transform(CJKNewlines)


def is_cjk(char: str) -> bool:
    return bool(char) and CJK_CHAR.match(char) is not None


class CJKNewlines(SphinxTransform):
    """Drop newlines between CJK characters, across inline node boundaries."""

    default_priority = 400

    def apply(self, **kwargs) -> None:
        # Only a run holding a newline changes. The converter's pages hold none (each passage and
        # note is one line), so most pages are looked at once, cheaply, and left.
        if not any("\n" in text for text in self.document.findall(nodes.Text)):
            return
        for run in self._runs():
            joined = "".join(str(t) for t in run)
            if "\n" not in joined:
                continue
            keep = _kept_positions(joined)
            offset = 0
            for text in run:
                length = len(text)
                new = "".join(c for i, c in enumerate(str(text)) if keep[offset + i])
                offset += length
                if new != str(text):
                    replace_child(text, nodes.Text(new) if new else None)

    def _runs(self) -> list[list[nodes.Text]]:
        """Text nodes grouped by block, in document order; literal text breaks a run."""
        runs: list[list[nodes.Text]] = []
        current_block = None
        for text in self.document.findall(nodes.Text):
            block = text.parent
            literal = False
            while block is not None and isinstance(block, nodes.Inline):
                literal = literal or isinstance(block, _LITERAL)
                block = block.parent
            if literal or isinstance(block, _LITERAL) or block is None:
                current_block = None
                continue
            if block is not current_block:
                runs.append([])
                current_block = block
            runs[-1].append(text)
        return runs


def _kept_positions(text: str) -> list[bool]:
    keep = [True] * len(text)
    for match in re.finditer(r"[ \t]*\n[ \t]*", text):
        start, end = match.span()
        before = text[start - 1] if start > 0 else ""
        after = text[end] if end < len(text) else ""
        if is_cjk(before) and is_cjk(after):
            for i in range(start, end):
                keep[i] = False
    return keep
