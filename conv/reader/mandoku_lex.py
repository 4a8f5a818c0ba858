"""The pieces of the mandoku markup (标记): tokens, header lines, page tags, gaiji, page labels.

Used by :mod:`conv.reader.mandoku` (see its docstring for the format as these files use it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, NoReturn

from conv.unencoded import is_stand_in as is_gaiji
from conv.unencoded import markup as gaiji

HEADER_KEYS = ("TITLE", "DATE")
PROPERTY_KEYS = ("ID", "BASEEDITION", "WITNESS", "JUAN")

BREAK = re.compile(r"\r\n|\r|\n")
# t text, w whitespace, o ( c ) s / p ¶, pb page tag, e gaiji entity, k composed character, x an error
TOKEN = re.compile(
    r"(?P<t>[^()/¶<>&;\[\]\s\x00-\x1f\x7f]+)|(?P<w>\s+)|(?P<o>\()|(?P<c>\))|(?P<s>/)|(?P<p>¶)"
    r"|(?P<pb><pb:[^<>\s]*>)|(?P<e>&KR\d{4};)|(?P<k>\[[^\[\]()/¶<>&;\s]*\])|(?P<x>.)", re.S)
NAME = re.compile(r"(KR\w+?)_(\d+)\.txt")
PUA = re.compile("[\U000F0000-\U0010FFFF]")
STRAY = {"<": "malformed page tag", "&": "malformed gaiji entity (&KR, 4 digits, ;)",
         ">": "stray '>'", ";": "stray ';'", "[": "stray '['", "]": "stray ']'"}
_MODE = re.compile(r"# -\*- (.*?) -\*-\s*")
_KEY = re.compile(r"#\+([A-Z]+):[ \t]*(.*?)\s*")
_PROP = re.compile(r"([A-Z]+)[ \t]*(.*?)\s*")
_CN = "〇一二三四五六七八九"

Fail = Callable[[int, str, str], NoReturn]   # (offset, message, hint) → raises ConversionError


def display(text: str) -> str:
    """``text`` with every gaiji stand-in written back as its entity."""
    return "".join(gaiji(c) if is_gaiji(c) else c for c in text)


def chinese_number(n: int) -> str:
    """0 → 〇, 5 → 五, 15 → 十五, 20 → 二十, 105 → 一百零五, 110 → 一百一十 (digits from 10000)."""
    if n < 10:
        return _CN[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return ("" if tens == 1 else _CN[tens]) + "十" + (_CN[ones] if ones else "")
    if n >= 10000:
        return str(n)
    unit, size = ("百", 100) if n < 1000 else ("千", 1000)
    head, rest = divmod(n, size)
    if not rest:
        return _CN[head] + unit
    tail = chinese_number(rest)
    return _CN[head] + unit + ("零" if rest < size // 10 else "") + ("一" if tail[0] == "十" else "") + tail


@dataclass(frozen=True, order=True)
class Page:
    """A 面 of the 文渊阁 copy: ``<pb:KR1d0038_WYG_005-15b>`` → 卷 5, 叶 15, 面 b."""

    juan: int
    leaf: int
    side: str   # "a" | "b"

    def label(self) -> str:
        """``卷五叶十五b``; the front matter's 卷 0 (the 通解's 卷首) is ``卷首叶十a``."""
        juan = chinese_number(self.juan) if self.juan else "首"
        return f"卷{juan}叶{chinese_number(self.leaf)}{self.side}"

    def as_dict(self) -> dict:
        return {"juan": self.juan, "leaf": self.leaf, "side": self.side}


LAST_PAGE = Page(1 << 30, 0, "")   # after every page: the bisect key of page_at


def header_entry(line: str) -> tuple[str, str] | None:
    """``#+PROPERTY: JUAN 5`` → ("JUAN", "5"); ``# -*- mode: mandoku-view -*-`` → ("MODE", …); else None."""
    mode, key = _MODE.fullmatch(line), _KEY.fullmatch(line)
    if mode:
        return "MODE", mode.group(1).removeprefix("mode:").strip()
    if key and key.group(1) in HEADER_KEYS:
        return key.group(1), key.group(2)
    prop = _PROP.fullmatch(key.group(2)) if key and key.group(1) == "PROPERTY" else None
    if prop and prop.group(1) in PROPERTY_KEYS:
        return prop.group(1), prop.group(2)
    return None


class PageTags:
    """Checks the ``<pb:…>`` tags of one file: its text and juan, numbers, sides, always forwards."""

    def __init__(self, fail: Fail, text_id: str | None, juan: int | None) -> None:
        self.fail, self.text_id, self.juan, self.edition = fail, text_id, juan, None
        self.page: Page | None = None

    def read(self, tag: str, s: int) -> Page:
        fail = self.fail
        parts = tag[4:-1].split("_")
        if len(parts) != 3 or "-" not in parts[2]:
            fail(s, f"malformed page tag {tag}", "<pb:KR1d0038_WYG_005-15b>: text_edition_juan-leaf side")
        text_id, edition, rest = parts
        juan, leafside = rest.split("-", 1)
        at_juan = s + 6 + len(text_id) + len(edition)
        at_leaf = at_juan + len(juan) + 1
        self.text_id = self.text_id or text_id
        if text_id != self.text_id:
            fail(s + 4, f"page tag of another text: {text_id}, expected {self.text_id}", "")
        self.edition = self.edition or edition
        if edition != self.edition:
            fail(s + 5 + len(text_id), f"page tag of another edition: {edition}, expected {self.edition}", "")
        if not (juan.isascii() and juan.isdigit()):
            fail(at_juan, f"juan {juan!r} of the page tag is not a number", "")
        self.juan = int(juan) if self.juan is None else self.juan
        if int(juan) != self.juan:
            fail(at_juan, f"page tag of juan {int(juan)} in the file of juan {self.juan}", "")
        leaf, side = leafside[:-1], leafside[-1:]
        if not (leaf.isascii() and leaf.isdigit()) or int(leaf) < 1:
            fail(at_leaf, f"leaf {leaf!r} of the page tag is not a number from 1", "")
        if side not in ("a", "b"):
            fail(at_leaf + len(leaf), f"side {side!r} of the page tag is not a or b", "")
        page = Page(int(juan), int(leaf), side)
        if self.page is not None and page <= self.page:
            fail(s, f"page {page.label()} does not follow {self.page.label()}", "pages only go forwards")
        self.page = page
        return page
