"""The benchmark's inputs (语料): the whole edition, and the five seeds alone.

The whole edition is the five seeds (``seeds/*.txt``) and every file of the 文渊阁 transcription
the manifest marks ``convert = true`` (``seeds/wenyuange/KR1d0038/KR1d0038_001–017.txt``, the 句读;
``seeds/wenyuange/KR1d0085/KR1d0085_000–036.txt``, the 通解): about 840,000 characters.
:func:`whole_edition` asks the converter for it first — ``conv.edition.build.seeds_in(seeds/)``,
the list ``make html`` (``-D yl_seeds=../seeds``) converts — and takes that list when it holds the
witness's files; else it falls back to the explicit list above, from ``seeds/manifest.toml``.

``sphinx-build -D yl_seeds=DIR`` converts the ``*.txt`` of one directory. When the converter's own
list is not yet the whole edition, :func:`whole_edition` writes a directory of its own in the
work dir (``whole-seeds/``): a symbolic link to each file and a ``manifest.toml`` with the
project's entries for them (their ``path`` left out: the file is beside it), so that the build
converts the whole edition as ``make html`` will. Nothing is written under ``seeds/`` or
``source/``.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from conv.edition import build

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
FORBIDDEN = (ROOT / "seeds", ROOT / "source")

@dataclass
class SeedInfo:
    """One project seed as the generator uses it."""

    path: Path
    entry: dict
    text: str

    @property
    def work(self) -> str:
        return self.entry["work"]

    @property
    def chars(self) -> int:
        return len(self.text)


@dataclass
class Copy:
    """One input file of a corpus."""

    path: Path
    work: str
    chapters: list[str]
    copy_of: str
    chars: int


@dataclass
class Corpus:
    """The files of one input: ``directory`` is what ``-D yl_seeds`` names (its ``*.txt`` are
    ``paths``); ``own_list``: the converter's own list of the edition (``seeds_in``) is this one."""

    directory: Path
    copies: list[Copy] = field(default_factory=list)
    own_list: bool = True

    @property
    def paths(self) -> list[Path]:
        return [c.path for c in self.copies]

    @property
    def chars(self) -> int:
        return sum(c.chars for c in self.copies)

    def chars_by_work(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.copies:
            out[c.work] = out.get(c.work, 0) + c.chars
        return out

    def chapters_by_work(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for c in self.copies:
            seen = out.setdefault(c.work, [])
            seen.extend(ch for ch in c.chapters if ch not in seen)
        return out

    def summary(self) -> dict:
        return {
            "directory": str(self.directory),
            "own_list": self.own_list,
            "files": len(self.copies),
            "chars": self.chars,
            "chars_by_work": self.chars_by_work(),
            "chapters_by_work": {w: len(chs) for w, chs in self.chapters_by_work().items()},
        }


def project_seeds(seeds_dir: Path = SEEDS) -> list[SeedInfo]:
    """The seeds with their manifest entries (file order)."""
    entries = {e["file"]: e for e in manifest_entries(seeds_dir)}
    out = []
    for path in sorted(seeds_dir.glob("*.txt")):
        entry = entries.get(path.name)
        if entry is None:
            raise ValueError(f"{path}: not in {seeds_dir / 'manifest.toml'}")
        text = path.read_bytes().decode("utf-8")
        out.append(SeedInfo(path, entry, text))
    return out


def from_seeds(seeds_dir: Path = SEEDS) -> Corpus:
    """The project's own seeds as a corpus (not copied: the converter reads them in place)."""
    corpus = Corpus(Path(seeds_dir).resolve())
    for seed in project_seeds(seeds_dir):
        corpus.copies.append(Copy(seed.path, seed.work, list(seed.entry.get("chapters", [])), seed.path.name, seed.chars))
    return corpus


def manifest_entries(seeds_dir: Path = SEEDS) -> list[dict]:
    """The entries of ``seeds/manifest.toml`` in their order."""
    with (seeds_dir / "manifest.toml").open("rb") as handle:
        return tomllib.load(handle)["seed"]


def explicit_whole(seeds_dir: Path = SEEDS) -> list[Path]:
    """The whole edition by the manifest: ``seeds/*.txt``, then every ``convert = true`` file."""
    return [*sorted(seeds_dir.glob("*.txt")),
            *(seeds_dir / e["path"] for e in manifest_entries(seeds_dir) if e.get("convert") and "path" in e)]


def whole_edition(workdir: Path, seeds_dir: Path = SEEDS) -> Corpus:
    """The whole edition (see the module docstring): the converter's list of ``seeds/`` when it
    holds the witness's files, else the explicit list, linked into ``workdir/whole-seeds``."""
    own = build.seeds_in(seeds_dir)
    entries = {e["file"]: e for e in manifest_entries(seeds_dir)}
    witness = {name for name, e in entries.items() if e.get("convert")}
    if witness and witness <= {p.name for p in own}:
        return _corpus(Path(seeds_dir).resolve(), own, entries, own_list=True)
    directory = Path(workdir).resolve() / "whole-seeds"
    return _corpus(directory, link_inputs(directory, explicit_whole(seeds_dir), entries), entries, own_list=False)


def link_inputs(directory: Path, paths: list[Path], entries: dict[str, dict]) -> list[Path]:
    """A seed directory of links to ``paths``, with a ``manifest.toml`` of their ``entries``
    (by file name; ``path`` left out): what ``-D yl_seeds=directory`` converts as it would convert
    ``paths``. Returns the links. Refuses to write into ``seeds/`` or ``source/``."""
    directory = Path(directory).resolve()
    for forbidden in FORBIDDEN:
        if directory == forbidden or forbidden in directory.parents:
            raise ValueError(f"refusing to write into {directory}: it is inside {forbidden}")
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():
        old.unlink()
    lines = ["# Written by `python -m bench` (bench/corpus.py): links to the edition's files, with",
             "# their entries of seeds/manifest.toml. Not witnesses: do not edit.", ""]
    links = []
    for path in paths:
        link = directory / path.name
        link.symlink_to(Path(path).resolve())
        links.append(link)
        lines.append("[[seed]]")
        lines += [f"{key} = {json.dumps(value, ensure_ascii=False)}"
                  for key, value in entries[path.name].items() if key != "path"]
        lines.append("")
    (directory / "manifest.toml").write_text("\n".join(lines), encoding="utf-8")
    return links


def _corpus(directory: Path, paths: list[Path], entries: dict, own_list: bool) -> Corpus:
    corpus = Corpus(directory, own_list=own_list)
    for path in paths:
        entry = entries.get(path.name, {})
        corpus.copies.append(Copy(path, entry.get("work", "?"), list(entry.get("chapters", [])), path.name,
                                  len(path.read_bytes().decode("utf-8"))))
    return corpus
