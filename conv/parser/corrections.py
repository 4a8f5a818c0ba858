"""Corrections (校改): reviewed decisions the text alone cannot make, read from
``conv/data/corrections.toml``. Each entry names its seed, the exact witness text it applies to,
the decision and the reason. An entry that matches nothing is an error (a stale correction must
be removed or updated, never silently ignored); every applied entry becomes an apparatus entry.

Kinds:
  ``title``  — ``text`` is a run of 经 that ends a line (or follows a 】); ``title`` is the section
               title standing at its end ("" when the run holds no title).
  ``layer``  — ``text`` is a whole segment; ``layer`` is its layer (e.g. for a leading fragment
               whose marker was lost with the start of the excerpt).
  ``emend``  — a substantive difference of the collation with the 文渊阁 witness
               (``conv.edition.collation``) that the reading text emends: ``text`` is what the seed
               reads there, ``reading`` what the witness reads (every such difference of the seed).
               Checked only when the seed is collated (converted with its witness files).
"""
from __future__ import annotations

from conv import datafiles as data
from conv.errors import ConversionError
from conv.reader.manifest import PROJECT_SEEDS


KINDS = ("title", "layer", "emend")
FILE = "conv/data/corrections.toml"


class Corrections:
    def __init__(self, entries: list[dict] | None = None) -> None:
        self.entries = data.corrections() if entries is None else entries
        self.used: set[str] = set()
        lines = data.correction_lines()
        for entry in self.entries:
            def fail(message: str, hint: str) -> ConversionError:
                return ConversionError(FILE, lines.get(str(entry.get("id")), 1), 1, message, hint)

            for key in ("id", "seed", "kind", "text", "reason"):
                if key not in entry:
                    raise fail(f"correction {entry.get('id', '?')} lacks {key!r}", "every correction needs id, seed, kind, text and reason")
            if entry["kind"] not in KINDS:
                raise fail(f"correction {entry['id']}: unknown kind {entry['kind']!r} (known: {', '.join(KINDS)})", "see the kinds in conv/parser/corrections.py")
            if entry["kind"] == "emend" and not entry.get("reading"):
                raise fail(f"correction {entry['id']}: an emend needs the witness's reading", "add reading = \"…\" (what the 文渊阁 text has)")
            if entry["kind"] == "title" and entry.get("title") and entry["title"] not in entry["text"]:
                raise fail(f"correction {entry['id']}: title {entry['title']!r} is not part of its text", "the title must stand inside the text it applies to")
        self.lines = {str(entry["id"]): lines.get(str(entry["id"]), 1) for entry in self.entries}
        self._index: dict[tuple[str, str, str], dict] = {}  # (seed, kind, text) → the first such entry
        for entry in self.entries:
            self._index.setdefault((entry["seed"], entry["kind"], entry["text"]), entry)

    def _find(self, seed: str, kind: str, text: str) -> dict | None:
        entry = self._index.get((seed, kind, text))
        if entry is not None:
            self.used.add(entry["id"])
        return entry

    def applies(self, seed: str, kind: str) -> bool:
        """Is there any correction of this kind for the seed? (when not, none need be looked up)"""
        return any(s == seed and k == kind for s, k, _ in self._index)

    def title(self, seed: str, run: str) -> dict | None:
        """The title decision for a run of 经 ending a line, if reviewed."""
        return self._find(seed, "title", run)

    def layer(self, seed: str, segment_text: str) -> dict | None:
        """The layer decision for a segment, if reviewed."""
        return self._find(seed, "layer", segment_text)

    def unneeded(self, entry: dict, layer: str) -> ConversionError:
        """The error for a ``layer`` correction that decides the layer the converter reads there anyway:
        a reviewed decision that no longer decides anything is stale, as one that matches nothing."""
        return ConversionError(FILE, self.lines.get(str(entry["id"]), 1), 1,
                               f"correction {entry['id']} (layer) gives {entry['text']!r} the layer {layer}, which "
                               "the converter reads there without it", "remove the correction")

    def emend(self, seed: str, text: str, reading: str) -> dict | None:
        """The reviewed decision to emend the seed's ``text`` to the witness's ``reading``."""
        entry = self._index.get((seed, "emend", text))
        if entry is None or entry.get("reading") != reading:
            return None
        return self._find(seed, "emend", text)

    def check_used(self, seeds: set[str], collated: set[str] | None = None) -> None:
        """Every correction for a converted seed must have matched its text (an ``emend`` one: for a
        ``collated`` seed); a correction must name a seed being converted or one of the project's
        ``seeds/`` (where the project has them: an installed package has none to compare with)."""
        project = ({p.name for p in PROJECT_SEEDS.glob("*.txt")} | {p.name for p in PROJECT_SEEDS.glob("wenyuange/*/*.txt")}
                   if PROJECT_SEEDS.is_dir() else None)  # the five seeds and the 文渊阁 files
        for entry in self.entries:
            if project is not None and entry["seed"] not in seeds | project:
                raise ConversionError(FILE, self.lines.get(str(entry["id"]), 1), 1,
                                      f"correction {entry['id']}: seed {entry['seed']!r} does not exist in seeds/",
                                      "name the seed file the correction applies to")
            checked = (collated or set()) if entry["kind"] == "emend" else seeds
            if entry["seed"] in checked and entry["id"] not in self.used:
                raise ConversionError(
                    FILE, self.lines.get(str(entry["id"]), 1), 1,
                    f"correction {entry['id']} ({entry['kind']}) no longer matches its seed {entry['seed']}: text {entry['text']!r} not found where expected",
                    "update or remove the correction after checking the witness",
                )
