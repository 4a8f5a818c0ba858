"""The seeds and the 文渊阁 transcription joined (拼合): each seed is the 底本 of its stretch, the witness
supplies the rest of every chapter, nothing doubled and nothing lost (``conv.edition.joins``,
``conv.edition.collation``)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conv.edition import assemble, export
from conv.model.tree import TEXT_CHAR
from conv.myst.chapter import PageWriter

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
JUDOU = [ROOT / "seeds" / "wenyuange" / "KR1d0038" / f"KR1d0038_{n:03d}.txt" for n in range(1, 18)]


@pytest.fixture(scope="module")
def joined():
    edition = assemble.convert(SEEDS + JUDOU)
    return edition, export.edition(edition)


def _chapter(dump, work, chapter):
    return next(c for w in dump["works"] if w["id"] == work for c in w["chapters"] if c["id"] == chapter)


def _passages(chapter):
    return [p for s in chapter["sections"] for p in s["passages"]]


def test_seeds_keep_their_anchors_and_the_witness_fills_the_chapter(joined):
    _, dump = joined
    xiangshe = _chapter(dump, "judou", "xiangshe")
    passages = _passages(xiangshe)
    by_id = {p["id"]: p for p in passages}
    assert by_id["judou-xiangshe-1"]["witness"] == "seed" and by_id["judou-xiangshe-12"]["witness"] == "seed"
    assert passages[0]["witness"] == "kanripo" and passages[0]["text"].startswith("鄉射之禮主人戒賔")
    # the order of the book: witness, seed 000, witness, seed 001 (乡射礼's 记 to the end of 卷五)
    runs = [p["witness"] for p in passages]
    assert [w for i, w in enumerate(runs) if i == 0 or runs[i - 1] != w] == ["kanripo", "seed", "kanripo", "seed"]
    assert xiangshe["seeds"] == ["KR1d0038_005.txt", "000_065af0aba9fcdf9d.txt", "001_45851f803ca218c2.txt"]


def test_nothing_doubled_nothing_lost(joined):
    """Every text character of every witness file lies in exactly one span of the edition or of a
    dropped record, and the collated stretches are exactly where the seeds stand."""
    edition, dump = joined
    collated = [d for d in dump["dropped"] if d.get("kind") == "collated"]
    assert [(d["seed"][:3], d["span"][0]) for d in collated] == [
        ("000", "KR1d0038_005.txt"), ("001", "KR1d0038_005.txt"), ("001", "KR1d0038_006.txt"),
        ("002", "KR1d0038_015.txt"), ("002", "KR1d0038_016.txt")]
    witness_passages = [p for w in dump["works"] for c in w["chapters"] for p in _passages(c) if p["witness"] == "kanripo"]
    for d in collated:
        name, start, end = d["span"]
        inside = [p["id"] for p in witness_passages if p["span"][0] == name and start <= p["span"][1] < end]
        assert inside == [], d  # no witness passage stands where a seed does
        text = edition.sources[name].text[start:end]
        assert len(TEXT_CHAR.findall(text)) > 1000


def test_join_marks_and_a_section_across_the_join(joined):
    edition, dump = joined
    xiangshe = _chapter(dump, "judou", "xiangshe")
    section = next(s for s in xiangshe["sections"] if s["id"] == "judou-xiangshe-s1")
    ids = [p["id"] for p in section["passages"]]
    assert section["title"] == "右司射诱射" and ids[-2:] == ["judou-xiangshe-1", "judou-xiangshe-2"]
    assert {p["witness"] for p in section["passages"][:-2]} == {"kanripo"}
    before = section["passages"][-3]
    assert before["notes"][-1]["lacuna"] is None  # the note runs on in the seed: no 〔后阙〕
    assert section["passages"][-2]["lacuna"] is None
    work = next(w for w in edition.works if w.id == "judou")
    chapter = next(c for c in work.chapters if c.id == "xiangshe")
    page = PageWriter(edition, work, chapter).page()
    assert re.search(r":::\{yl:lacuna\} join-seed\n:::\n\n::::\{yl:passage\} judou-xiangshe-1\n", page)
    assert re.search(r":::\{yl:lacuna\} join-kanripo\n:::\n\n::::\{yl:title\} judou-xiangshe-s28\n右請坐燕因徹俎", page)
    assert ":::{yl:lacuna} start" not in page and "{yl:lacuna} gap" not in page
    kinds = [a["kind"] for a in dump["apparatus"] if a["span"][0].startswith(("000", "001", "002"))]
    assert "lacuna-chapter-start" not in kinds and "lacuna-start" not in kinds and "witness-join" in kinds


def test_seed_passages_take_their_page_from_the_collation(joined):
    _, dump = joined
    by_id = {p["id"]: p for p in _passages(_chapter(dump, "judou", "xiangshe"))}
    assert by_id["judou-xiangshe-1"]["page"] == {"juan": 5, "leaf": 15, "side": "a"}
    for chapter_id in ("xiangshe", "yanli", "tesheng", "shaolao"):
        chapter = _chapter(dump, "judou", chapter_id)
        assert all(p["page"] for p in _passages(chapter)), chapter_id
        assert all(s["page"] for s in chapter["sections"]), chapter_id


def test_the_collation_in_the_apparatus(joined):
    _, dump = joined
    found = [(a["class"], a["op"], a["text"], a["witness_text"], a["span"][0][:3], a["page"])
             for a in dump["apparatus"] if a["kind"] == "collation" and a["class"] in ("placeholder", "substantive")]
    assert found[:2] == [
        ("placeholder", "replace", "防", "䙝", "000", {"juan": 5, "leaf": 33, "side": "b"}),
        ("placeholder", "replace", "防", "膞", "001", {"juan": 5, "leaf": 43, "side": "a"}),
    ]
    assert [f[:4] for f in found[2:]] == [
        ("placeholder", "insert", "", "𤣥"), ("placeholder", "insert", "", chr(0xF0000 + 362)),
        ("placeholder", "replace", "防", "㨒"), ("placeholder", "replace", "防", "䘮"),
        ("placeholder", "replace", "防", "䋫"), ("placeholder", "insert", "", "𤣥")]
    confirmed = [a for a in dump["apparatus"] if a["kind"] == "collation" and a["class"] == "pua"]
    assert len(confirmed) == 22 and all(a["confirmed"] for a in confirmed)


def test_a_seed_found_nowhere_is_reported_once(tmp_path):
    """A text of the other work under the 句读's title: no false alignment, one problem."""
    stranger = tmp_path / "stranger.txt"
    lines = (ROOT / "seeds" / "003_888d6f7486f7550d.txt").read_text(encoding="utf-8").splitlines()
    stranger.write_text("仪礼郑注句读\n" + "\n".join(lines[1:40]) + "\n", encoding="utf-8")
    edition = assemble.convert([stranger, JUDOU[4]])
    problems = [p for p in edition.problems if p["kind"] == "not-in-witness"]
    assert len(problems) == 1 and problems[0]["seed"] == "stranger.txt"
    assert not [d for d in edition.dropped if d.get("kind") == "collated"]
