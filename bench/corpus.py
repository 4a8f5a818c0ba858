"""The benchmark corpus (语料): a whole-work-sized input built from the five seeds.

The real witnesses are excerpts (≈34 k characters). To measure the edition at the size of the
whole 仪礼 — seventeen chapters in each of the two works, ≈800 k characters — the generator copies
the seeds into a directory of its own, each copy under a distinct chapter, with a
``manifest.toml`` beside them (``conv.reader.manifest`` looks there first), so the converter sees real
structure: every chapter of both works, chapter titles with their 郑目录, 卷 lines, 记 items, gaps
between excerpts.

Per work, in reading order (士冠礼 … 有司彻):

* a *boundary* seed — one that runs from the end of one chapter into the next (001: 乡射礼记 →
  燕礼第六; 002: 特牲馈食礼记 → 少牢馈食礼第十六) — joins every pair of consecutive chapters
  ``k``, ``k+1`` of 句读: its chapter title line is rewritten to chapter ``k+1``'s
  (``燕礼第六`` → ``士昏礼第二``) and its 卷 lines to the chapters' numbers (卷 = 篇 in these
  excerpts); its manifest entry lists ``[k, k+1]``;
* *filler* seeds — excerpts from the middle of one chapter (000 for 句读; 003 and 004 for 通解,
  which has no chapter title in its seeds) — are copied into each chapter, round-robin, until the
  work reaches its share of the target size.

The text of each copy is the seed's own, byte for byte, apart from those title and 卷 lines, so
every excerpt still starts and ends mid-note, carries its PUA code points, its watermark and its
variant forms. The seeds' reviewed corrections (``conv/data/corrections.toml``) name the original
files, so they do not apply to the copies: a copy reports those few cases as problems instead.

Nothing is written under ``seeds/`` or ``source/``: :func:`generate` refuses those directories.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from conv import datafiles as data

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
FORBIDDEN = (ROOT / "seeds", ROOT / "source")

DIGITS = "〇一二三四五六七八九"


def numeral(number: int) -> str:
    """6 → 六, 10 → 十, 16 → 十六, 20 → 二十 (chapter and 卷 numbers, 1–99)."""
    if not 0 < number < 100:
        raise ValueError(number)
    tens, ones = divmod(number, 10)
    if tens == 0:
        return DIGITS[ones]
    return ("" if tens == 1 else DIGITS[tens]) + "十" + (DIGITS[ones] if ones else "")


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
    def boundary(self) -> bool:
        return len(self.entry.get("chapters", [])) == 2

    @property
    def chars(self) -> int:
        return len(self.text)


@dataclass
class Copy:
    """One generated seed file."""

    path: Path
    work: str
    chapters: list[str]
    copy_of: str
    chars: int


@dataclass
class Corpus:
    """What :func:`generate` wrote."""

    directory: Path
    copies: list[Copy] = field(default_factory=list)

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
            "files": len(self.copies),
            "chars": self.chars,
            "chars_by_work": self.chars_by_work(),
            "chapters_by_work": {w: len(chs) for w, chs in self.chapters_by_work().items()},
        }


def project_seeds(seeds_dir: Path = SEEDS) -> list[SeedInfo]:
    """The seeds with their manifest entries (file order)."""
    with (seeds_dir / "manifest.toml").open("rb") as handle:
        entries = {e["file"]: e for e in tomllib.load(handle)["seed"]}
    out = []
    for path in sorted(seeds_dir.glob("*.txt")):
        entry = entries.get(path.name)
        if entry is None:
            raise ValueError(f"{path}: not in {seeds_dir / 'manifest.toml'}")
        text = path.read_bytes().decode("utf-8")
        out.append(SeedInfo(path, entry, text))
    return out


def _chapter(chapter_id: str) -> dict:
    return next(c for c in data.chapters() if c["id"] == chapter_id)


def _juan_re(work_id: str) -> re.Pattern:
    title = next(w["title"] for w in data.works() if w["id"] == work_id)
    return re.compile(rf"^([\s\u3000]*){re.escape(title)}卷([〇零一二三四五六七八九十]+)([\s\u3000]*)$")


def rewrite(seed: SeedInfo, chapters: list[str]) -> str:
    """The seed's text with its chapter title and 卷 lines moved to ``chapters``."""
    from conv.reader.lines import chinese_number

    old = seed.entry.get("chapters", [])
    if len(old) != len(chapters):
        raise ValueError(f"{seed.path.name}: {len(old)} chapters, asked for {len(chapters)}")
    text = seed.text
    if len(old) == 2:
        before, after = _chapter(old[1]), _chapter(chapters[1])
        old_title = f"{before['name']}第{numeral(before['number'])}"
        new_title = f"{after['name']}第{numeral(after['number'])}"
        pattern = re.compile(rf"^([\s\u3000]*){re.escape(old_title)}(?=【|$)", re.M)
        text, count = pattern.subn(lambda m: m.group(1) + new_title, text)
        if count != 1:
            raise ValueError(f"{seed.path.name}: chapter title {old_title} found {count} times")
    old_juan = list(seed.entry.get("juan", []))
    if old_juan:
        mapping = {j: _chapter(ch)["number"] for j, ch in zip(old_juan, chapters)}
        juan_re = _juan_re(seed.work)
        lines = text.split("\n")
        for i, line in enumerate(lines):
            body = line[:-1] if line.endswith("\r") else line
            match = juan_re.match(body)
            if match:
                number = chinese_number(match.group(2))
                if number in mapping:
                    new = body[: match.start(2)] + numeral(mapping[number]) + body[match.end(2) :]
                    lines[i] = new + ("\r" if line.endswith("\r") else "")
        text = "\n".join(lines)
    return text


def plan(seeds: list[SeedInfo], target_chars: int) -> list[tuple[SeedInfo, list[str]]]:
    """(seed, chapters) for each copy, in reading order, about ``target_chars`` in all.

    The target is shared evenly between the works (the two are of comparable length); each work
    gets all seventeen chapters, however small the target.
    """
    works = [w["id"] for w in data.works()]
    chapters = [c["id"] for c in sorted(data.chapters(), key=lambda c: c["number"])]
    out: list[tuple[SeedInfo, list[str]]] = []
    share = target_chars / len(works)
    for work in works:
        mine = [s for s in seeds if s.work == work]
        boundaries = [s for s in mine if s.boundary]
        if not mine:
            continue
        fillers = [s for s in mine if not s.boundary]
        # boundary copies: chapter k → k+1, alternating the boundary seeds
        joins: list[tuple[SeedInfo, list[str]]] = []
        if boundaries:
            for k in range(len(chapters) - 1):
                joins.append((boundaries[k % len(boundaries)], [chapters[k], chapters[k + 1]]))
        total = sum(s.chars for s, _ in joins)
        filled: dict[str, list[SeedInfo]] = {ch: [] for ch in chapters}
        turn = 0
        # every chapter gets at least one filler when the work has no boundaries (else it would be empty)
        minimum = 0 if boundaries else 1
        while fillers:
            counts = [len(v) for v in filled.values()]
            if min(counts) >= minimum and total >= share:
                break
            chapter = chapters[turn % len(chapters)]
            seed = fillers[turn % len(fillers)]
            filled[chapter].append(seed)
            total += seed.chars
            turn += 1
        # reading order: chapter k = [its start from join k-1] + fillers + [its 记 from join k]
        for index, chapter in enumerate(chapters):
            out.extend((s, [chapter]) for s in filled[chapter])
            if joins and index < len(joins):
                out.append(joins[index])
    return out


def generate(directory: Path, target_chars: int = 800_000, seeds_dir: Path = SEEDS) -> Corpus:
    """Write the corpus (seed copies and their ``manifest.toml``) into ``directory``.

    ``directory`` is emptied of earlier ``*.txt`` seeds first; it must not be (inside) the
    project's ``seeds/`` or ``source/``.
    """
    directory = Path(directory).resolve()
    for forbidden in FORBIDDEN:
        if directory == forbidden or forbidden in directory.parents:
            raise ValueError(f"refusing to write the corpus into {directory}: it is inside {forbidden}")
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.txt"):
        old.unlink()
    seeds = project_seeds(seeds_dir)
    corpus = Corpus(directory)
    manifest = [
        "# Generated by `python -m bench` (bench/corpus.py): copies of the project's seeds, each under",
        "# its own chapter, for benchmarking at the size of the whole work. Not witnesses: do not edit.",
        "",
    ]
    for number, (seed, chapters) in enumerate(plan(seeds, target_chars)):
        text = rewrite(seed, chapters)
        name = f"{number:04d}_{seed.work}_{chapters[0]}_{seed.path.stem[:3]}.txt"
        path = directory / name
        raw = text.encode("utf-8")
        path.write_bytes(raw)
        juan = [_chapter(ch)["number"] for ch in chapters] if seed.entry.get("juan") else []
        manifest += [
            "[[seed]]",
            f'file = "{name}"',
            f'sha256 = "{hashlib.sha256(raw).hexdigest()}"',
            f'work = "{seed.work}"',
            f"juan = [{', '.join(map(str, juan))}]",
            f"chapters = [{', '.join(repr(c).replace(chr(39), chr(34)) for c in chapters)}]",
            f'start_layer = "{seed.entry.get("start_layer", "jing")}"',
            f'copy_of = "{seed.path.name}"',
            "",
        ]
        corpus.copies.append(Copy(path, seed.work, list(chapters), seed.path.name, len(text)))
    (directory / "manifest.toml").write_text("\n".join(manifest), encoding="utf-8")
    return corpus


def from_seeds(seeds_dir: Path = SEEDS) -> Corpus:
    """The project's own seeds as a corpus (not copied: the converter reads them in place)."""
    corpus = Corpus(Path(seeds_dir).resolve())
    for seed in project_seeds(seeds_dir):
        corpus.copies.append(Copy(seed.path, seed.work, list(seed.entry.get("chapters", [])), seed.path.name, seed.chars))
    return corpus
