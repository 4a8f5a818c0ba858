"""The seeds' manifest (清单): what the text alone cannot tell — work, 卷, chapters, start layer.

A seed is looked up by file name in ``manifest.toml`` beside it, then in the project's
``seeds/manifest.toml``; a seed in neither is recognised from its first line alone.

A manifest is checked when it is read, against the schema below; anything wrong is a
``ConversionError`` at the manifest's ``file:line:col`` (the line of the entry, or of its key):

- ``file`` (required): the seed's name, a safe file name (``SEED_NAME``), once per manifest, and
  the file must exist beside the manifest;
- ``work`` (required): an id of ``conv/data/works.toml``;
- ``chapters``: ids of ``conv/data/chapters.toml`` (the 通解: also ``tongjie_chapters.toml``); ``juan``:
  integers; ``juan_starts``: for a 文渊阁 file of several 卷, the page each begins on; ``start_layer``:
  ``jing`` or ``ji``; ``sha256``: 64 hex digits, and the checksum of the file beside the manifest
  (a seed outside the manifest's directory that borrows an entry by its name is a modified copy:
  its checksum is not compared);
- ``starts``, ``ends``: free text; ``copy_of``: the seed this file copies (a benchmark corpus),
  exempt from the check for overlapping seeds (``conv.edition.overlap``).
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from conv import datafiles as data
from conv.errors import ConversionError

PROJECT_SEEDS = Path(__file__).resolve().parents[2] / "seeds"
#: The characters a seed's file name may hold (安全文件名): ASCII letters, digits, ``.``, ``_`` and
#: ``-``, starting with a letter or digit, ending in ``.txt``.
SEED_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.txt")
_TYPES = {"file": str, "work": str, "sha256": str, "chapters": list, "juan": list, "start_layer": str,
          "starts": str, "ends": str, "copy_of": str,
          # a file of the 文渊阁 transcription: its path under seeds/, its role, whether it is converted,
          # and whether it ends with its chapter (conv/reader/wenyuange.py)
          "path": str, "role": str, "convert": bool, "ends_chapter": bool,
          # a 文渊阁 file of several 卷: the page tag where each begins (["1a", "30a"])
          "juan_starts": list}


def check_name(name: str) -> str | None:
    """Why a seed's file name is refused, or None when it is safe."""
    if SEED_NAME.fullmatch(name):
        return None
    return (f"seed file name {name!r} holds characters outside the safe set "
            "(ASCII letters, digits, '.', '_', '-', ending in .txt)")


def load(path: Path) -> dict[str, dict]:
    """Entries of one manifest file, by seed file name (read and checked once per file version)."""
    if not path.exists():
        return {}
    stat = path.stat()
    return _load(path.resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load(path: Path, _mtime: int, _size: int) -> dict[str, dict]:
    hint = "fix the manifest: see the schema in conv/reader/manifest.py"
    text = data.read_text(path, "the manifest is UTF-8")
    parsed = data.read_toml(path, hint)
    entries = parsed.get("seed", [])
    lines = data.table_lines(text, "seed")
    name = data.display(path)
    if not isinstance(entries, list) or len(lines) != len(entries):
        raise ConversionError(name, 1, 1, "the seeds must be an array of [[seed]] tables", hint)
    found: dict[str, dict] = {}
    for entry, line in zip(entries, lines):
        _check_entry(path, name, text, entry, line, found, hint)
        found[entry["file"]] = entry
    return found


def _check_entry(path: Path, name: str, text: str, entry: dict, line: int, found: dict, hint: str) -> None:
    def fail(key: str | None, message: str) -> ConversionError:
        at = _key_line(text, line, key) if key else line
        return ConversionError(name, at, 1, message, hint)

    for key, value in entry.items():
        if key not in _TYPES:
            raise fail(key, f"unknown key {key!r} in a [[seed]] entry (known: {', '.join(_TYPES)})")
        if not isinstance(value, _TYPES[key]):
            raise fail(key, f"{key!r} must be a {_TYPES[key].__name__}, not {type(value).__name__}")
    for key in ("file", "work"):
        if key not in entry:
            raise fail(None, f"a [[seed]] entry without {key!r}")
    file = entry["file"]
    why = check_name(file)
    if why:
        raise fail("file", why)
    if file in found:
        raise fail("file", f"seed {file} is described twice")
    if entry["work"] not in {w["id"] for w in data.works()}:
        raise fail("work", f"unknown work {entry['work']!r} (known: {', '.join(w['id'] for w in data.works())})")
    for chapter in entry.get("chapters", []):
        if data.chapter_of(entry["work"], chapter) is None:
            raise fail("chapters", f"unknown chapter {chapter!r}: not an id of conv/data/chapters.toml"
                                   + (" or tongjie_chapters.toml" if entry["work"] == "tongjie" else ""))
    if not all(isinstance(j, int) and j > 0 for j in entry.get("juan", [])):
        raise fail("juan", "'juan' must list positive integers (卷 numbers)")
    starts = entry.get("juan_starts")
    if starts is not None and (len(starts) != len(entry.get("juan", []))
                               or not all(isinstance(p, str) and re.fullmatch(r"[1-9][0-9]*a", p) for p in starts)):
        raise fail("juan_starts", "'juan_starts' must name, for each 卷 of 'juan', the page where it begins (\"30a\")")
    if entry.get("start_layer", "jing") not in ("jing", "ji"):
        raise fail("start_layer", f"start_layer must be 'jing' or 'ji', not {entry['start_layer']!r}")
    if entry.get("role", "text") not in ("text", "front-matter", "collation-notes"):
        raise fail("role", f"role must be 'text', 'front-matter' or 'collation-notes', not {entry['role']!r}")
    seed = path.parent / entry.get("path", file)
    if not seed.is_file() or seed.name != file:
        raise fail("path" if "path" in entry else "file", f"seed {entry.get('path', file)} does not exist beside the manifest")
    if "sha256" in entry and not re.fullmatch(r"[0-9a-f]{64}", entry["sha256"]):
        raise fail("sha256", "sha256 must be 64 lower-case hex digits")


def _key_line(text: str, start: int, key: str) -> int:
    """The line of ``key = …`` in the entry whose header is on line ``start``."""
    lines = text.splitlines()
    for number in range(start + 1, len(lines) + 1):
        stripped = lines[number - 1].strip()
        if stripped.startswith("[["):
            break
        if re.match(rf"{re.escape(key)}\s*=", stripped):
            return number
    return start


def entry_for(seed: Path) -> dict | None:
    """The manifest entry describing this seed, if any. A seed beside its manifest, or at the
    ``path`` its project entry names (a 文渊阁 file under seeds/), must match the entry's checksum."""
    seed = Path(seed)
    beside = seed.parent / "manifest.toml"
    entry = load(beside).get(seed.name)
    if entry is not None:
        _check_checksum(seed, beside, entry)
        return entry
    project = PROJECT_SEEDS / "manifest.toml"
    entry = load(project).get(seed.name)
    if entry is not None and "path" in entry and seed.resolve() == (PROJECT_SEEDS / entry["path"]).resolve():
        _check_checksum(seed, project, entry)
    return entry


def _check_checksum(seed: Path, manifest: Path, entry: dict) -> None:
    if "sha256" in entry and sha256(seed) != entry["sha256"]:
        text = data.read_text(manifest, "the manifest is UTF-8")
        index = list(load(manifest)).index(seed.name)
        line = _key_line(text, data.table_lines(text, "seed")[index], "sha256")
        raise ConversionError(data.display(manifest), line, 1,
                              f"seed {seed.name} does not match its sha256 in the manifest: the file changed since it was described",
                              "restore the witness byte for byte, or review the change and record the file's new sha256")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
