"""The later scholars 朱熹 quotes in the 通解's notes (張子曰…, 陳祥道云…): ``conv/data/scholars.toml``."""
from __future__ import annotations

import re
from functools import cache

from conv import datafiles as data
from conv.normalize import fold_same_length


@cache
def _pattern() -> re.Pattern:
    names = "|".join(re.escape(fold_same_length(name)) for name in data.scholars())
    return re.compile(f"(?:{names})[云曰]")


@cache
def _longest_name() -> int:
    return max(len(name) for name in data.scholars())


def quoted(text: str) -> bool:
    """Does ``text`` open with a scholar 朱熹 quotes, in either form (張子曰 and 张子曰: the 文渊阁 text and the
    seeds), then 云 or 曰?"""
    return _pattern().match(fold_same_length(text[:_longest_name() + 1])) is not None
