"""Smoke tests of the benchmark's corpus generator and floor project (no timing: see bench/)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # bench/ is run from the project root, not installed
    sys.path.insert(0, str(ROOT))

from bench import corpus, projects  # noqa: E402
from conv.reader import manifest  # noqa: E402
from conv.edition import assemble
from conv.model import conservation
from conv import datafiles as data
from conv.anchors.ledger import Ledger  # noqa: E402

CHAPTERS = [c["id"] for c in sorted(data.chapters(), key=lambda c: c["number"])]
# the 通解 in its own order: its 篇 of the 仪礼 by its 目録, then the others (丧祭, not in it) by the 仪礼's
TONGJIE_ORDER = sorted(CHAPTERS, key=lambda c: data.chapter_of("tongjie", c)["number"])


@pytest.fixture(scope="module")
def smallest(tmp_path_factory):
    """The smallest corpus with the whole structure (every chapter of both works), converted."""
    directory = tmp_path_factory.mktemp("corpus")
    generated = corpus.generate(directory, target_chars=1)
    edition = assemble.convert(generated.paths, ledger=Ledger.load(directory / "no-ledger.tsv"))
    return generated, edition


def test_numeral():
    assert [corpus.numeral(n) for n in (1, 6, 10, 11, 16, 17, 20, 21)] == ["一", "六", "十", "十一", "十六", "十七", "二十", "二十一"]


def test_plan_reaches_the_target_size():
    seeds = corpus.project_seeds()
    planned = corpus.plan(seeds, 800_000)
    total = sum(seed.chars for seed, _ in planned)
    assert 800_000 <= total <= 800_000 + 2 * max(s.chars for s in seeds)
    for work in ("judou", "tongjie"):
        covered = {ch for seed, chs in planned if seed.work == work for ch in chs}
        assert covered == set(CHAPTERS)


def test_generated_seeds_are_described_by_their_manifest(smallest):
    generated, _ = smallest
    assert (generated.directory / "manifest.toml").exists()
    for copy in generated.copies:
        entry = manifest.entry_for(copy.path)
        assert entry is not None, copy.path.name
        assert entry["sha256"] == manifest.sha256(copy.path)
        assert entry["chapters"] == copy.chapters
        assert entry["work"] == copy.work


def test_generated_corpus_converts_with_conservation(smallest):
    generated, edition = smallest
    conservation.check(edition)  # assemble.convert checked it too; raises on any lost character
    for work in edition.works:
        assert [c.id for c in work.chapters] == (TONGJIE_ORDER if work.id == "tongjie" else CHAPTERS), work.id
        assert all(c.sections for c in work.chapters)
    judou = next(w for w in edition.works if w.id == "judou")
    for chapter in judou.chapters[1:]:  # every boundary copy announces the next chapter under its own name
        assert chapter.heading == f"{chapter.title}第{corpus.numeral(chapter.number)}"
    kinds = {p["kind"] for p in edition.problems}
    assert not kinds & {"manifest-chapter", "unknown-chapter"}, kinds
    assert sum(len(s.text) for s in edition.sources.values()) == generated.chars


def test_copies_keep_the_witness_text(smallest):
    """Apart from chapter-title and 卷 lines, each copy is its seed byte for byte."""
    generated, _ = smallest
    originals = {s.path.name: s.text for s in corpus.project_seeds()}
    for copy in generated.copies:
        old = originals[copy.copy_of].splitlines()
        new = copy.path.read_text(encoding="utf-8").splitlines()
        assert len(old) == len(new)
        changed = [(a, b) for a, b in zip(old, new) if a != b]
        assert all("第" in b or "卷" in b for _, b in changed), changed
        assert len(changed) <= 3


def test_refuses_to_write_into_the_project(tmp_path):
    for place in (ROOT / "seeds", ROOT / "source" / "bench"):
        with pytest.raises(ValueError):
            corpus.generate(place, target_chars=1)


def test_plain_project_is_bare_myst(smallest, tmp_path):
    _, edition = smallest
    project = projects.plain_project(tmp_path / "plain", edition)
    pages = sorted(project.rglob("*.md"))
    assert len(pages) == 1 + 2 * (1 + len(CHAPTERS))
    text = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    assert "{yl:" not in text and ":::" not in text
    passage = edition.works[0].chapters[3].sections[2].passages[0]
    assert passage.text in text
    assert "myst_parser" in (project / "conf.py").read_text(encoding="utf-8")


def test_edition_project_copies_only_hand_written_files(tmp_path):
    project = projects.edition_project(tmp_path / "edition")
    assert (project / "conf.py").read_bytes() == (ROOT / "source" / "conf.py").read_bytes()
    for path in project.rglob("*.md"):
        assert not path.read_text(encoding="utf-8").startswith(projects.GENERATED_HEADER), path
    page = projects.notes_page(project)
    before = page.read_text(encoding="utf-8")
    assert projects.touch_note(project, 1) == page
    after = page.read_text(encoding="utf-8")
    assert after != before and "校记补1：一事。" in after
    assert after.count(":::") == before.count(":::")  # inside a note, never breaking its fences
