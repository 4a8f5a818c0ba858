"""The seeds' manifest (清单): what the text alone cannot tell — work, 卷, chapters, start layer.

A seed is looked up by file name in ``manifest.toml`` beside it, then in the project's
``seeds/manifest.toml``; a seed in neither is recognised from its first line alone.
"""
from __future__ import annotations

import hashlib
import tomllib
from functools import lru_cache
from pathlib import Path

PROJECT_SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def load(path: Path) -> dict[str, dict]:
    """Entries of one manifest file, by seed file name (read once per file version)."""
    if not path.exists():
        return {}
    stat = path.stat()
    return _load(path.resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load(path: Path, _mtime: int, _size: int) -> dict[str, dict]:
    with path.open("rb") as handle:
        return {entry["file"]: entry for entry in tomllib.load(handle).get("seed", [])}


def entry_for(seed: Path) -> dict | None:
    """The manifest entry describing this seed, if any."""
    for manifest in (seed.parent / "manifest.toml", PROJECT_SEEDS / "manifest.toml"):
        entry = load(manifest).get(seed.name)
        if entry is not None:
            return entry
    return None


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
