"""Restorations (复原): characters the simplified transcription of the seeds merged with another
(着 for 著, 云 for 雲, 干 for 乾 and 幹, 于 for 於), read from ``conv/data/restorations.toml``.

Each entry names its seed, a ``context`` found exactly once in that seed's text, the seed's
``char`` in it and the 文渊阁 ``form``, with the 文渊阁 page (``witness``) and a reviewed reason.
``Restorations.for_seed`` places the entries of one seed (an entry whose context is gone or
ambiguous stops the conversion at its line of the data file: update it after checking the
witness) and records each as an apparatus entry (kind ``restoration``). The witness text is not
changed; the phonology of a gloss reads the restored characters (``restore``: 个音干 → 个音幹).

:class:`Misprints` places the same way the misprints of the 文渊阁 text's own 音义 (讹字,
``conv/data/misprints.toml``: 觶之鼔反 read 之豉反): an apparatus entry ``misprint`` each, the printed
character kept; a misprint of the words (``words = true``: 中庸章句's 故閒道 for 聞道; also a seed's own, where its
witness prints the same) is emended in the reading text. A witness file is parsed in pieces around the seeds'
stretches, so a piece without an entry's context passes it by; :meth:`Misprints.check_placed` stops the
conversion when no piece held it.
"""
from __future__ import annotations

import re
from dataclasses import replace

from conv import datafiles as data
from conv.errors import ConversionError
from conv.reader.mandoku_lex import Page

DATA_FILE = "conv/data/restorations.toml"
_FIELDS = ("seed", "context", "char", "form", "witness", "reason")
#: ``witness``: the 文渊阁 file, its 卷-叶面 and its words (``KR1d0038 5-26b 个音幹``).
_WITNESS = re.compile(r"(KR\w+) (\d+)-(\d+)([ab]) (\S.*)")


def _line_of(entry: dict, file: str = DATA_FILE) -> int:
    """The line of the data file where ``entry``'s context is written (for messages)."""
    return data.line_of(file.rsplit("/", 1)[-1], f'context = "{entry.get("context", "")}"')


class Restorations:
    """The reviewed restorations, checked and placed per seed."""

    kind, file, fields = "restoration", DATA_FILE, _FIELDS
    pieces = False  # a file may be parsed in pieces (the 文渊阁 witness around the seeds' stretches)

    def __init__(self, entries: list[dict] | None = None) -> None:
        self.entries = self._entries() if entries is None else entries
        for entry in self.entries:
            missing = [key for key in self.fields if not entry.get(key)]
            if missing:
                raise ConversionError(self.file, _line_of(entry, self.file), 1, f"{self.kind} lacks {', '.join(missing)}",
                                      f"every {self.kind} needs {', '.join(self.fields)}")
            if entry["context"].count(entry["char"]) != 1 or len(entry["char"]) != 1 or len(entry["form"]) != 1:
                raise ConversionError(self.file, _line_of(entry, self.file), 1,
                                      f"{self.kind} {entry['context']!r}: char must be one character, once in its context, and form one character",
                                      "name the one character, in a context that holds it once")
            if "witness" in self.fields and _WITNESS.fullmatch(entry["witness"]) is None:
                raise ConversionError(DATA_FILE, _line_of(entry), 1,
                                      f"restoration {entry['context']!r}: witness {entry['witness']!r} is not a 文渊阁 place",
                                      "write the file, its 卷-叶面 and the words there: KR1d0038 5-26b 个音幹")

    def for_seed(self, seed: str, text: str, report=None) -> dict[int, dict]:
        """Seed offset → entry for the seed's restorations; each recorded in ``report`` (an
        apparatus entry) when given."""
        placed: dict[int, dict] = {}
        for entry in self.entries:
            if entry["seed"] != seed:
                continue
            at = text.find(entry["context"])
            if at == -1 and self.pieces:
                continue  # a piece of a witness file: the entry may stand in another (checked: check_placed)
            if at == -1 or text.find(entry["context"], at + 1) != -1:
                found = "not found" if at == -1 else "found more than once"
                raise ConversionError(self.file, _line_of(entry, self.file), 1,
                                      f"{self.kind} {entry['context']!r} {found} in {seed}",
                                      "update or remove the entry after checking the witness")
            offset = at + entry["context"].index(entry["char"])
            placed[offset] = entry
            if report is not None:
                report.record(self.kind, offset, offset + 1, witness=entry["char"], reading=entry["form"],
                              context=entry["context"], reason=entry["reason"], **self._place(entry))
        return placed

    def _entries(self) -> list[dict]:
        return data.restorations()

    def _place(self, entry: dict) -> dict:
        page, quote = witness_place(entry)
        return {"page": page, "quote": quote}


class Misprints(Restorations):
    """Misprints of the 文渊阁 text's 音义 (讹字, ``conv/data/misprints.toml``): the same placing, in the
    witness file itself (or a seed); the entry records no other witness's page. One marked ``words`` is a misprint of the words
    (经, 注 …), which the reading text emends (``conv.collate.forms.emendations``)."""

    kind, file, fields = "misprint", "conv/data/misprints.toml", ("seed", "context", "char", "form", "reason")
    pieces = True

    def check_placed(self, sources: set[str], apparatus: list[dict]) -> None:
        """Every misprint of a converted witness file was placed in one of its pieces (a stale entry,
        or one in a stretch a seed covers, stops the conversion at its line)."""
        placed = {(a["span"][0], a["context"]) for a in apparatus if a.get("kind") == self.kind}
        for entry in self.entries:
            if entry["seed"] in sources and (entry["seed"], entry["context"]) not in placed:
                raise ConversionError(self.file, _line_of(entry, self.file), 1,
                                      f"{self.kind} {entry['context']!r} not found in {entry['seed']} (or in a stretch a seed covers)",
                                      "update or remove the entry after checking the witness")

    def _entries(self) -> list[dict]:
        return data.misprints()

    def _place(self, entry: dict) -> dict:
        return {"words": True} if entry.get("words") else {}  # the reading text takes the form (conv.collate.forms)


def witness_place(entry: dict) -> tuple[str, str]:
    """The 文渊阁 page of ``entry`` as the edition prints pages (``卷五叶二十六b``) and its words there."""
    _file, juan, leaf, side, words = _WITNESS.fullmatch(entry["witness"]).groups()
    return Page(int(juan), int(leaf), side).label(), words


def restore(gloss, offsets, placed: dict[int, dict]):
    """``gloss`` (``conv.parser.glosses.Gloss``) with the restored forms of the characters at its
    seed ``offsets`` (one per character of ``gloss.text``) in its char, upper, lower and sound;
    itself when none is restored. Also returns the gloss text as restored, or ""."""
    forms = {offset: placed[offset]["form"] for offset in offsets if offset in placed}
    if not forms:
        return gloss, ""
    swap = {placed[offset]["char"]: form for offset, form in forms.items()}
    text = "".join(forms.get(offset, char) for char, offset in zip(gloss.text, offsets))
    fields = {name: swap.get(getattr(gloss, name), getattr(gloss, name))
              for name in ("char", "upper", "lower", "sound") if getattr(gloss, name)}
    return replace(gloss, **fields), text


def read_form(chars: str, offsets, placed: dict[int, dict]) -> str:
    """``chars`` (the witness's, at seed ``offsets``, one each) with each character ``placed`` restores (a reviewed
    misprint: ``Misprints.for_seed``) in its right form, one character for one: the text the rules and the gloss
    parser read."""
    if not placed or not any(at in placed for at in offsets):
        return chars
    return "".join(placed[at]["form"] if at in placed else char for char, at in zip(chars, offsets))
