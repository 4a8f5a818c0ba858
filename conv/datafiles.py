"""Data tables (数据表): the converter's knowledge kept as data files under ``conv/data``.

Each loader reads its file once and returns plain Python structures; nothing here knows how
the tables are used.
"""
from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from conv import unencoded

DATA_DIR = Path(__file__).with_name("data")


def _toml(name: str) -> dict:
    with (DATA_DIR / name).open("rb") as handle:
        return tomllib.load(handle)


def _tsv(name: str) -> list[list[str]]:
    rows = []
    for line in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


@cache
def works() -> list[dict]:
    """The works (著作) the converter recognises: id, title, titles, author, layout."""
    return _toml("works.toml")["work"]


@cache
def chapters() -> list[dict]:
    """The seventeen chapters (篇) of the 仪礼: id, name, number."""
    return _toml("chapters.toml")["chapter"]


@cache
def pua() -> dict[str, dict]:
    """Private-use code points (私用区字) resolved: character → {char, kind, reason}; a ``gaiji``
    entry's ``char`` is the stand-in of that unencoded character (``conv.unencoded``)."""
    rows = {}
    for row in _toml("pua.toml")["pua"]:
        if "gaiji" in row:
            row = dict(row, char=unencoded.gaiji_char(row["gaiji"]))
        rows[chr(int(row["code"], 16))] = row
    return rows


@cache
def variants() -> dict[str, str]:
    """四库 variant forms (异体) OpenCC leaves alone → standard simplified forms."""
    return {variant: standard for variant, standard in _tsv("variants.tsv")}


@cache
def t2s_keep() -> dict[str, str]:
    """Characters kept as they are although OpenCC t2s would fold them (to a rare code point)."""
    return {kept: folded for kept, folded in _tsv("t2s_keep.tsv")}


@cache
def scholars() -> list[str]:
    """Later scholars quoted in 通解 notes (`刘敞云…`), whose remarks are layer ``an``."""
    return _toml("scholars.toml")["scholars"]


@cache
def corrections() -> list[dict]:
    """Reviewed corrections (校改): decisions the text alone cannot make, each with a reason."""
    return _toml("corrections.toml").get("correction", [])


@cache
def drops() -> list[dict]:
    """Lines to drop (watermarks), each with its pattern and reason."""
    return _toml("drops.toml")["drop"]
