"""Parallels within one work (参见): 篇 of the 仪礼 that share sentences.

The 记 of 乡饮酒礼 and of 乡射礼 describe the same vessels and officers; 大射仪 repeats the rite
of 燕礼. For each pair of 篇 in ``conv/data/parallels.toml`` (``[[within]]``) and each work that
has both, every common stretch of at least ``MIN_SHARED`` characters after folding
(``conv.collate.blocks.shared``, repeated stretches too) links the two passages that hold it.
A pair of passages is linked once, by its longest common stretch; each passage keeps its
``MOST`` longest links (a formula said ten times links ten places, not a hundred).
"""
from __future__ import annotations

from conv import datafiles as data
from conv.collate import blocks as compare
from conv.edition.parallels import chapter_text
from conv.model.tree import Edition

MOST = 3  # links kept per passage and direction


def find(edition: Edition) -> list[dict]:
    """The 参见 links: ``{"kind": "see-also", "work", "layer", "a", "a_range", "b", "b_range",
    "chars"}``, ranges as indices into each passage's ``text``."""
    links = []
    for work in edition.works:
        chapters = {chapter.id: chapter for chapter in work.chapters}
        for pair in data.parallels().get("within", []):
            if pair["a"] in chapters and pair["b"] in chapters:
                layers = tuple(pair["layers"])
                a = chapter_text(edition, chapters[pair["a"]], layers)
                b = chapter_text(edition, chapters[pair["b"]], layers)
                links += _links(work.id, a, b)
    return links


def _links(work: str, a, b) -> list[dict]:
    best: dict[tuple[str, str], dict] = {}
    for i, j, length in compare.shared(a.chars, b.chars):
        if a.owner[i] != a.owner[i + length - 1] or b.owner[j] != b.owner[j + length - 1]:
            length = _within(a, b, i, j, length)
            if length < compare.MIN_SHARED:
                continue
        pa, pb = a.passage(i), b.passage(j)
        key = (pa.id, pb.id)
        if key not in best or best[key]["chars"] < length:
            best[key] = {"kind": "see-also", "work": work, "layer": pa.layer,
                         "a": pa.id, "a_range": [a.local[i], a.local[i] + length],
                         "b": pb.id, "b_range": [b.local[j], b.local[j] + length], "chars": length}
    kept: dict[str, int] = {}
    out = []
    for link in sorted(best.values(), key=lambda link: -link["chars"]):
        if kept.get(link["a"], 0) < MOST and kept.get(link["b"], 0) < MOST:
            kept[link["a"]] = kept.get(link["a"], 0) + 1
            kept[link["b"]] = kept.get(link["b"], 0) + 1
            out.append(link)
    return sorted(out, key=lambda link: (a.owner_of(link["a"]), link["a_range"][0]))


def _within(a, b, i: int, j: int, length: int) -> int:
    """The part of a common stretch that stays inside its first passages on both sides."""
    n = 0
    while n < length and a.owner[i + n] == a.owner[i] and b.owner[j + n] == b.owner[j]:
        n += 1
    return n
