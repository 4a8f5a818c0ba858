"""Index of terms (名物索引): where the vessels, places, offices, archery gear, rites, music and
victuals of ``conv/data/terms.toml`` occur in the 经 and 记 text.

What is searched: the ``normalized`` text of every passage (layers ``jing`` and ``ji``), so a
witness's 賔 is found under 宾 and 鼔 under 鼓; notes, section titles and metadata are not
searched. A term may list other spellings (``[variants]``), which count as the term.

The rule for terms inside longer terms (长词优先): matching is **leftmost-longest over the whole
term list**. The text is read from left to right; at each position the longest term (or variant)
that starts there is taken, its characters are consumed, and reading resumes after it; where no
term starts, reading moves on one character. So a term is never counted where its characters lie
inside a match of a longer term: 射 is not counted in 司射 or 上射, 获 not in 获者 or 释获者,
获者 not in 释获者, 俎 not in 折俎, 宾 not in 众宾. Overlaps are settled by position first: in
``兄弟弟子`` 兄弟 is taken, then 弟子.

Homographs (同形异词): a term may list contexts in which the same characters are not the term
(``[homographs]``: 洗 the basin, not 降洗 "descend and wash"; 中 the tally-holder, not 中等; 尊 the
vessel, not 尊于… "set out the vessels"). A match that lies inside such a context consumes its
characters but is not counted.

Senses (义项, ``[senses]``): a term whose characters are often another word also lists the contexts
in which they surely are the term (``include``; 尊 in 尊南, 之尊), with a reviewed ``reason`` and a
short ``note`` for readers. With ``only``, the term is counted in those contexts alone (遂 the
archer's armguard only in 决遂: everywhere else 遂 is "then"). Otherwise an occurrence in no
include and no homograph context cannot be placed: it is counted, and reported (``unplaced``,
``problems``: kind ``term-unplaced``) for an editor to add the context to one rule or the other.

``order``/``pinyin``: terms are ordered by their pinyin with tone numbers (pypinyin ``TONE3``,
``zhong1`` before ``zhong4``), syllable by syllable, then by the characters; ``[pinyin]`` in the
data file gives the reading where pypinyin's default is wrong for the 仪礼 (乐正 yue4, 大师 tai4).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import NamedTuple

from conv.datafiles import DATA_DIR
from conv.analyses.text import passage_text, passages
from conv.model.tree import Edition

TERMS_FILE = DATA_DIR / "terms.toml"


@dataclass(frozen=True)
class Term:
    """One term of the index."""

    term: str
    category: str
    variants: tuple[str, ...] = ()
    homographs: tuple[str, ...] = ()
    include: tuple[str, ...] = ()  # contexts where the characters surely are the term ([senses])
    only: bool = False  # counted in the include contexts alone
    note: str = ""  # what the sense rules leave out, for readers (设尊之尊不计)

    @property
    def ruled(self) -> bool:
        """Does the term need its context to be counted (homographs or senses)?"""
        return bool(self.homographs or self.include)


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    label: str
    terms: tuple[str, ...]


class Matcher(NamedTuple):
    """Every form of every term as one regular expression (匹配器; see ``Catalogue.matcher``)."""

    pattern: re.Pattern  # the trie of the forms: at each position the longest form that starts there
    forms: dict[str, str]  # form → its term
    ambiguous: frozenset[str]  # the forms of terms with homographs or senses (their context decides)


@dataclass(frozen=True)
class Catalogue:
    """The term list: categories in the data file's order, and every term by its characters."""

    categories: tuple[Category, ...]
    terms: dict[str, Term]
    forms: dict[str, str]  # every matchable string (term or variant) → its term
    longest: int
    readings: dict[str, str]  # word → pinyin, for terms and for words 郑注 defines (conv.analyses.glossary)

    @cached_property
    def matcher(self) -> Matcher:
        """The forms as one regular expression, made once per catalogue: a trie
        (``司(?:射|马|正)?``…), so the engine, scanning from the left, takes at each position the
        longest form that starts there and resumes after it — the rule of :func:`find`, but for
        homographs, whose forms are listed apart (``ambiguous``)."""
        ambiguous = frozenset(form for form, word in self.forms.items() if self.terms[word].ruled)
        return Matcher(re.compile(trie_pattern(self.forms)), self.forms, ambiguous)


def trie_pattern(forms) -> str:
    """A regular expression matching any of ``forms``, the longest one where several start at
    the same position: ``射(?:侯)?`` tries 射侯 before 射."""
    trie: dict = {}
    for form in forms:
        node = trie
        for char in form:
            node = node.setdefault(char, {})
        node[""] = {}  # a form ends here

    def branch(node: dict) -> str:
        alternatives = [re.escape(char) + branch(child)
                        for char, child in sorted(node.items()) if char]
        if not alternatives:
            return ""
        group = alternatives[0] if len(alternatives) == 1 else f"(?:{'|'.join(alternatives)})"
        if "" not in node:
            return group
        # a form ends here and longer ones go on: the longer first (greedy), else this one
        return f"(?:{group})?"

    return branch(trie)


def load(path: Path | None = None) -> Catalogue:
    """Read the term list (``conv/data/terms.toml`` unless another file is given)."""
    return _load(str(path or TERMS_FILE))


@cache
def _load(path: str) -> Catalogue:
    with open(path, "rb") as handle:
        raw = tomllib.load(handle)
    variants = raw.get("variants", {})
    homographs = raw.get("homographs", {})
    senses = raw.get("senses", {})
    readings = raw.get("pinyin", {})
    categories: list[Category] = []
    terms: dict[str, Term] = {}
    forms: dict[str, str] = {}
    for cat in raw["category"]:
        categories.append(Category(cat["id"], cat["name"], cat.get("label", ""), tuple(cat["terms"])))
        for word in cat["terms"]:
            if word in terms:
                raise ValueError(f"{path}: term {word!r} listed twice ({terms[word].category}, {cat['id']})")
            sense = senses.get(word, {})
            terms[word] = Term(word, cat["id"], tuple(variants.get(word, ())), tuple(homographs.get(word, ())),
                               tuple(sense.get("include", ())), bool(sense.get("only", False)), sense.get("note", ""))
            for form in (word, *variants.get(word, ())):
                if form in forms and forms[form] != word:
                    raise ValueError(f"{path}: {form!r} is a form of both {forms[form]!r} and {word!r}")
                forms[form] = word
    for table, name in ((variants, "variants"), (homographs, "homographs"), (senses, "senses")):
        for word in table:
            if word not in terms:
                raise ValueError(f"{path}: [{name}] names {word!r}, which is not a term")
    for word, sense in senses.items():
        if not sense.get("include") or not sense.get("reason"):
            raise ValueError(f"{path}: [senses.{word}] needs include (contexts) and a reason")
    for word, contexts in [*homographs.items(), *((w, s.get("include", ())) for w, s in senses.items())]:
        for context in contexts:
            if word not in context:
                raise ValueError(f"{path}: context {context!r} of {word!r} does not contain {word!r}")
    return Catalogue(tuple(categories), terms, forms, max(len(f) for f in forms), dict(readings))


def pinyin(word: str, catalogue: Catalogue | None = None) -> str:
    """The pinyin of a word with tone numbers, syllables separated by spaces (``zhi4``).

    The data file's ``[pinyin]`` reading when it has one (for a term of the index or a word of the
    glossary), else pypinyin's.
    """
    catalogue = catalogue or load()
    if word in catalogue.readings:
        return catalogue.readings[word]
    return _pypinyin(word)


@lru_cache(maxsize=None)
def _pypinyin(word: str) -> str:
    """pypinyin's reading with tone numbers (pure, and asked for the same words again and again).

    pypinyin is imported here, on first use: its dictionaries take a fifth of a second to load,
    and a build that only reuses the index of terms (``conv.sphinx_ext.backmatter.terms``) never needs it.
    """
    from pypinyin import Style, lazy_pinyin

    return " ".join(lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True))


def sort_key(word: str, catalogue: Catalogue | None = None) -> tuple:
    """Order by pinyin syllable by syllable (tone numbers included), then by the characters."""
    return (tuple(pinyin(word, catalogue).split()), word)


def order(words, catalogue: Catalogue | None = None) -> list[str]:
    """The words ordered by pinyin (see ``sort_key``)."""
    return sorted(words, key=lambda w: sort_key(w, catalogue))


def ordered_categories(catalogue: Catalogue | None = None) -> list[tuple[Category, list[str]]]:
    """Every category (data-file order) with its terms ordered by pinyin."""
    catalogue = catalogue or load()
    return [(cat, order(cat.terms, catalogue)) for cat in catalogue.categories]


def _in_context(text: str, start: int, word: str, contexts: tuple[str, ...]) -> bool:
    for context in contexts:
        at = context.find(word)
        while at != -1:
            begin = start - at
            if begin >= 0 and text[begin : begin + len(context)] == context:
                return True
            at = context.find(word, at + 1)
    return False


def find(text: str, catalogue: Catalogue | None = None) -> list[tuple[int, int, str]]:
    """Every counted occurrence in a normalized text: ``(start, end, term)``, leftmost-longest."""
    return [(start, end, word) for start, end, word, _ in find_placed(text, catalogue)]


def find_placed(text: str, catalogue: Catalogue | None = None) -> list[tuple[int, int, str, bool]]:
    """``find`` with each occurrence's placing: ``(start, end, term, placed)``; ``placed`` is False
    for an occurrence of a term with ``[senses]`` that no context of its rules holds (counted,
    to be reported)."""
    catalogue = catalogue or load()
    forms = catalogue.forms
    found: list[tuple[int, int, str, bool]] = []
    for match in catalogue.matcher.pattern.finditer(text):  # leftmost-longest (Catalogue.matcher)
        i, end, form = match.start(), match.end(), match.group()
        word = forms[form]
        term = catalogue.terms[word]
        if not term.ruled:
            found.append((i, end, word, True))
        elif not _in_context(text, i, form, term.homographs):
            placed = not term.include or _in_context(text, i, form, term.include)
            if placed or not term.only:
                found.append((i, end, word, placed))
    return found


def index(edition: Edition, catalogue: Catalogue | None = None) -> dict[str, list[dict]]:
    """Term → its occurrences in reading order, for every term of the list (possibly none).

    An occurrence is ``{passage, layer, start, end, span, placed}``: the passage id, its layer
    (``jing`` or ``ji``), offsets into the passage's ``normalized`` text, the span in the seed, and
    whether the sense rules placed it (``find_placed``).
    """
    catalogue = catalogue or load()
    result: dict[str, list[dict]] = {word: [] for word in catalogue.terms}
    for _, _, _, passage in passages(edition):
        mapped = passage_text(edition, passage)
        for start, end, word, placed in find_placed(mapped.normalized, catalogue):
            result[word].append({"passage": passage.id, "layer": passage.layer, "start": start, "end": end,
                                 "span": mapped.span(start, end), "placed": placed})
    return result


def problems(edition: Edition, catalogue: Catalogue | None = None) -> list[dict]:
    """An occurrence the sense rules cannot place (``problems`` records, kind ``term-unplaced``)."""
    result = []
    texts = {passage.id: passage.normalized for _, _, _, passage in passages(edition)}
    for word, occurrences in index(edition, catalogue).items():
        for occurrence in occurrences:
            if occurrence["placed"]:
                continue
            seed, start, _ = occurrence["span"]
            line, col = edition.sources[seed].position(start)
            text, at, end = texts[occurrence["passage"]], occurrence["start"], occurrence["end"]
            result.append({
                "seed": seed, "line": line, "col": col, "kind": "term-unplaced",
                "message": f"名物 {word!r} in {occurrence['passage']} (…{text[max(0, at - 4):end + 4]}…) is in no "
                           f"context of its sense rules: add the context to [senses] (the term) or "
                           f"[homographs] (another word) in conv/data/terms.toml",
            })
    return sorted(result, key=lambda p: (p["seed"], p["line"], p["col"]))


def passages_of(occurrences: list[dict]) -> list[str]:
    """The distinct passage ids of a term's occurrences, in reading order."""
    seen: dict[str, None] = {}
    for occurrence in occurrences:
        seen.setdefault(occurrence["passage"], None)
    return list(seen)


def export(edition: Edition, catalogue: Catalogue | None = None) -> dict:
    """The index for the JSON export: categories, each with its terms in pinyin order."""
    catalogue = catalogue or load()
    found = index(edition, catalogue)
    categories = []
    for category, words in ordered_categories(catalogue):
        entries = []
        for word in words:
            term = catalogue.terms[word]
            occurrences = found[word]
            entries.append({
                "term": word, "pinyin": pinyin(word, catalogue), "variants": list(term.variants),
                "count": len(occurrences), "passages": passages_of(occurrences), "occurrences": occurrences,
                "note": term.note,
            })
        categories.append({"id": category.id, "name": category.name, "label": category.label, "terms": entries})
    return {"rule": "leftmost-longest", "categories": categories}
