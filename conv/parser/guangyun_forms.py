"""The forms of a witness character under which 《廣韻》 (tshet-uinh's data) files it (字形): the
character itself, its reading form (``conv.normalize.fold_char``: PUA and 四库 variants resolved), OpenCC's
s2t forms and alternatives of both, and the form ``conv/data/gloss_forms.tsv`` names (間 → 閒, 耗 → 秏);
with their 音韵地位. Used by ``conv.parser.phonology`` for the glossed character and the spellers.
"""
from __future__ import annotations

import os
from functools import lru_cache

import opencc

from conv.normalize import fold_char


@lru_cache(maxsize=1)
def _s2t():
    return opencc.OpenCC("s2t")


@lru_cache(maxsize=1)
def _st_table() -> dict[str, list[str]]:
    """OpenCC's own simplified→traditional character table (all alternatives, in its order)."""
    table: dict[str, list[str]] = {}
    path = os.path.join(os.path.dirname(opencc.__file__), "dictionary", "STCharacters.txt")
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 2 and len(parts[0]) == 1:
                    table[parts[0]] = parts[1].split()
    except OSError:  # pragma: no cover
        pass
    return table


@lru_cache(maxsize=1)
def _guangyun_forms() -> dict[str, str]:
    """``conv/data/gloss_forms.tsv``: form → the 字头 《廣韻》 files it under (間 → 閒)."""
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "gloss_forms.tsv")
    table: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip() and not line.startswith("#"):
                    parts = line.rstrip("\n").split("\t")
                    if len(parts) >= 2:
                        table[parts[0]] = parts[1]
    except OSError:  # pragma: no cover
        pass
    return table


@lru_cache(maxsize=None)
def candidates(char: str) -> tuple[str, ...]:
    """Traditional forms to look ``char`` up under, most likely first.

    The character itself (a simplified form is often a traditional one too: 于, 尸, 干), its
    reading form (``fold_char``: PUA and 四库 variants resolved), and OpenCC's s2t conversion and
    alternatives of both, and the form 《廣韻》 files it under
    (``conv/data/gloss_forms.tsv``: 間 → 閒).
    """
    found: list[str] = []

    def add(candidate: str) -> None:
        if len(candidate) == 1 and candidate not in found:
            found.append(candidate)

    forms = [char]
    try:
        folded = fold_char(char)
    except Exception:  # pragma: no cover
        folded = char
    if folded and folded != char:
        forms.append(folded)
    for form in forms:
        add(form)  # 干 in a 反切 is 干 (苦干反) far more often than 幹 or 乾
        try:
            add(_s2t().convert(form))
        except Exception:  # pragma: no cover
            pass
        for alternative in _st_table().get(form, []):
            add(alternative)
    for candidate in list(found):
        if candidate in _guangyun_forms():
            add(_guangyun_forms()[candidate])
    return tuple(found)


@lru_cache(maxsize=None)
def _lookup(char: str) -> tuple:
    """tshet-uinh 音韵地位 objects of one (traditional) character, as 广韵 gives them."""
    from tshet_uinh import 資料

    try:
        return tuple(result.音韻地位 for result in 資料.query字頭(char))
    except Exception:  # pragma: no cover
        return ()


@lru_cache(maxsize=None)
def forms(char: str) -> tuple[tuple[str, tuple], ...]:
    """The forms of a witness character that 《廣韻》 has, most likely first, each with its 音韵地位
    objects in 《廣韻》's order: ``(("于", (云合三C虞平,)), ("於", (影開三C魚平, 影一模平)))``."""
    return tuple((form, _lookup(form)) for form in candidates(char) if _lookup(form))


@lru_cache(maxsize=None)
def positions_of(char: str) -> tuple:
    """All 音韵地位 objects of a witness character over its candidates, without repeats."""
    seen: dict[str, object] = {}
    for _, positions in forms(char):
        for position in positions:
            seen.setdefault(position.描述, position)
    return tuple(seen.values())


def readings(char: str) -> list[str]:
    """The 广韵 readings (描述) of a witness character, e.g. 共 → ['見三C鍾平', '羣三C鍾去']."""
    return [position.描述 for position in positions_of(char)]


@lru_cache(maxsize=None)
def filed_under(char: str) -> dict[str, str]:
    """描述 → the form 《廣韻》 files it under, for the readings of ``char`` that only a form of
    ``conv/data/gloss_forms.tsv`` gives (臑 奴报反 under 腝)."""
    own = {p.描述 for form, positions in forms(char) if form not in _filed_forms(char) for p in positions}
    return {p.描述: form for form, positions in forms(char) if form in _filed_forms(char)
            for p in positions if p.描述 not in own}


def _filed_forms(char: str) -> set[str]:
    table = _guangyun_forms()
    return {table[c] for c in candidates(char) if c in table} - {char}
