"""Resolving editorial notes (校注定位): redirects, places, numbers, dangling notes; pages written again."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from conv.sphinx_ext.util import warn
from conv.sphinx_ext.warnings_ import YlWarning
from conv.anchors.assign import redirect_table
from conv.errors import ConversionError
from conv.anchors.ledger import DEFAULT_PATH, Ledger

from conv.sphinx_ext.refs.ednotes_directive import _store


# -- resolving: redirects, places, numbers, dangling notes -----------------------------------

_LEDGERS: dict[tuple, tuple[dict[str, str], set[str]]] = {}


def ledger_view(app: Sphinx) -> tuple[dict[str, str], set[str]]:
    """(redirect table, every anchor the ledger ever issued) of the configured ledger; read only
    for an anchor no page has (the pages carry the ledger's redirects as ids already)."""

    configured = app.config.yl_anchor_ledger
    path = Path(app.confdir, configured) if configured else DEFAULT_PATH
    key = (str(path), path.stat().st_mtime_ns if path.exists() else None)
    if key not in _LEDGERS:
        try:
            ledger = Ledger.load(path)
        except ConversionError as error:
            warn(f"editorial notes: cannot read the anchor ledger: {error}", YlWarning.NOTE)
            ledger = Ledger([], path)
        _LEDGERS.clear()
        _LEDGERS[key] = (redirect_table(ledger), set(ledger.entries))
    return _LEDGERS[key]


def cn_number(n: int) -> str:
    """1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 105 → 一百零五."""
    digits = "零一二三四五六七八九"
    if n < 10:
        return digits[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return ("" if tens == 1 else digits[tens]) + "十" + (digits[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    tail = "" if rest == 0 else ("零" + digits[rest] if rest < 10 else
                                 ("一" + cn_number(rest) if rest < 20 else cn_number(rest)))
    return cn_number(hundreds) + "百" + tail


def label(number: int) -> str:
    return f"〔{cn_number(number)}〕"


def resolve(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Place and number every note; warn about dangling ones; return the pages to rewrite."""
    notes: dict[str, list[dict]] = _store(env, "yl_notes")
    where: dict[str, tuple[str, str, int]] = {}  # any anchor → (its node's anchor, page, place)
    for docname, places in _store(env, "yl_targets").items():
        for position, ids in enumerate(places):
            for anchor in ids:
                where[anchor] = (ids[0], docname, position)

    def locate(anchor: str, note: dict, notedoc: str) -> tuple[str, str, int] | None:
        # a redirected anchor is an id of its target's node (yl:redirect, written from the
        # ledger by the converter); the ledger itself is the fallback
        if anchor in where:
            return where[anchor]
        redirects, issued = ledger_view(app)
        final = redirects.get(anchor, anchor)
        if final in where:
            return where[final]
        if final != anchor:
            why = f"the ledger redirects it to {final!r}, which is not in the edition"
        elif anchor in issued:
            why = ("the ledger issued it but the edition no longer has it: it was retired without "
                   f"a redirect (record one: python -m conv anchors --redirect {anchor} TARGET)")
        else:
            why = "no passage, section or chapter has it (python -m conv dump --json lists the anchors)"
        warn(f"editorial note {note['id']!r}: anchor {anchor!r} does not exist: {why}", YlWarning.NOTE,
             (notedoc, note["line"]))
        return None

    resolved: dict[str, dict] = {}
    placed: dict[str, list[tuple[int, str, int, str]]] = defaultdict(list)
    for notedoc in sorted(notes):
        for index, note in enumerate(notes[notedoc]):
            key = f"{notedoc}#{note['id']}"
            info = {**note, "doc": notedoc, "number": 0, "chapter": "", "anchor": "", "start": "",
                    "stop": "", "redirected": {}}
            resolved[key] = info
            start = locate(note["target"], note, notedoc)
            stop = locate(note["end"], note, notedoc) if note["end"] else start
            if start is None or stop is None:
                continue
            if start[1] != stop[1] or stop[2] < start[2]:
                warn(f"editorial note {note['id']!r}: the range {note['target']}..{note['end']} "
                     "must run forward on one page", YlWarning.NOTE, (notedoc, note["line"]))
                continue
            info.update(chapter=start[1], anchor=stop[0], start=start[0],
                        stop=stop[0] if note["end"] else "",
                        redirected={a: f[0] for a, f in ((note["target"], start), (note["end"], stop))
                                    if a and a != f[0]})
            placed[start[1]].append((stop[2], notedoc, index, key))
    at: dict[str, list[str]] = defaultdict(list)
    for chapter, entries in placed.items():
        for number, (_, _, _, key) in enumerate(sorted(entries), 1):
            resolved[key]["number"] = number
            at[resolved[key]["anchor"]].append(key)
    env.yl_notes_state = {"notes": resolved, "at": dict(at)}
    return write_only(app.builder, _changed_pages(env, resolved))


def _changed_pages(env: BuildEnvironment, resolved: dict[str, dict]) -> list[str]:
    """Pages whose notes render differently than in the last build (kept in env)."""
    domain = env.get_domain("yl")

    def title(anchor: str) -> str:
        entry = domain.passages.get(anchor) or domain.sections.get(anchor) or {}
        return entry.get("title", "")

    signatures: dict[str, list] = defaultdict(list)
    for key, info in sorted(resolved.items()):
        shown = (info["number"], info["chapter"], info["start"], info["stop"], info["author"],
                 info["date"], sorted(info["redirected"].items()))
        signatures[info["doc"]].append((key, shown, title(info["start"]), title(info["stop"])))
        if info["chapter"]:
            signatures[info["chapter"]].append((key, shown, info["anchor"], info["digest"]))
    previous = getattr(env, "yl_notes_signatures", {})
    env.yl_notes_signatures = dict(signatures)
    changed = {d for d in set(previous) | set(signatures) if previous.get(d) != signatures.get(d)}
    return sorted(d for d in changed if d in env.all_docs)


# -- pages written again without being read again ------------------------------------------------

@dataclass
class PagesOfThisBuild:
    """Which pages this build reads and which it writes again without reading them (本次读写的页面),
    on the builder as ``builder.yl_pages``: from ``env-before-read-docs`` to ``write-started``;
    then the toctree parents set aside until ``build-finished``."""

    read: set[str] = field(default_factory=set)  # the pages this build reads
    write_only: set[str] = field(default_factory=set)  # written again, not read again
    spared: dict[str, set[str]] = field(default_factory=dict)  # the toctree parents set aside


def build_pages(builder: Builder) -> PagesOfThisBuild:
    """This build's :class:`PagesOfThisBuild` (made on first use)."""
    pages = getattr(builder, "yl_pages", None)
    if pages is None:
        pages = builder.yl_pages = PagesOfThisBuild()
    return pages


def note_read_pages(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    pages = build_pages(app.builder)
    pages.read, pages.write_only = set(docnames), set()


def write_only(builder: Builder, docnames) -> list[str]:
    """``docnames`` (pages to write again, from an ``env-updated`` handler), remembering those
    this build does not read: their titles and tables of contents are those of the last build."""
    docnames = sorted(docnames)
    pages = build_pages(builder)
    pages.write_only.update(set(docnames) - pages.read)
    return docnames


def pages_to_write(builder: Builder) -> set[str]:
    """The pages this build reads and those written again for their notes (or marks) without
    being read (known from ``env-updated`` until ``write-started``)."""
    pages = build_pages(builder)
    return pages.read | pages.write_only


def spare_parents_of_unread_pages(app: Sphinx, builder: Builder) -> None:
    """Sphinx writes, with every page it writes, the pages whose toctree lists it (its title or
    sections may have changed). Not for a page that was not read again: while Sphinx collects
    those parents (right after ``write-started``, after the environment is pickled), such a page
    has none (``env.files_to_rebuild``); ``build-finished`` gives them back."""
    env = app.env
    pages = build_pages(builder)
    unread = pages.write_only - pages.read
    pages.read, pages.write_only = set(), set()
    for docname in unread:
        parents = env.files_to_rebuild.pop(docname, None)
        if parents is not None:
            pages.spared[docname] = parents


def restore_parents(app: Sphinx, exception: Exception | None) -> None:
    env = app.env
    pages = build_pages(app.builder)
    spared, pages.spared = pages.spared, {}
    for docname, parents in spared.items():
        env.files_to_rebuild.setdefault(docname, set()).update(parents)


def notes_state(env: BuildEnvironment) -> dict:
    return getattr(env, "yl_notes_state", None) or {"notes": {}, "at": {}}
