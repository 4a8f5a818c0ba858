"""Stable anchors and the committed ledger (conv/anchors.py, conv/ledger.py, conv/data/anchors.tsv)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import opencc
import pytest
from docutils.nodes import make_id

from conv.anchors import assign as anchors

from conv.edition import assemble

from conv.edition import export
from conv.parser.corrections import Corrections
from conv.errors import ConversionError
from conv.anchors.ledger import DEFAULT_PATH, Entry, Ledger

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
S000, S001, S002, S003, S004 = SEEDS
#: The next numbers the committed ledger would issue (it holds the whole edition's chapters).
_COMMITTED = Ledger.load(DEFAULT_PATH)
XYJ_NEW = f"tongjie-xiangyinjiu-{_COMMITTED.highest('tongjie-xiangyinjiu', 'passage') + 1}"
YANLI_1 = f"judou-yanli-{_COMMITTED.highest('judou-yanli', 'passage') + 1}"
YANLI_2 = f"judou-yanli-{_COMMITTED.highest('judou-yanli', 'passage') + 2}"


@pytest.fixture(scope="module", autouse=True)
def seeds_ledger(tmp_path_factory):
    """The anchor machinery is tried on the five seeds with *their* ledger: the committed one as
    ``--update`` leaves it for the seeds alone (the whole edition's ledger knows the seeds' cut
    sections by the titles the 文渊阁 text gives them). It stands in for the default ledger in
    this module; ``DEFAULT_PATH`` here is still the committed one."""
    committed = Ledger.load(DEFAULT_PATH)
    ledger = anchors.updated(assemble.convert(SEEDS, ledger=committed).anchors)
    path = tmp_path_factory.mktemp("seeds-ledger") / "anchors.tsv"
    ledger.save(path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("conv.anchors.ledger.DEFAULT_PATH", path)
        yield path


@pytest.fixture(scope="module")
def ledger(seeds_ledger):
    return Ledger.load(seeds_ledger)


@pytest.fixture(scope="module")
def edition(ledger):
    """The five seeds converted with their ledger."""
    return assemble.convert(SEEDS, ledger=ledger)


def items(edition):
    """(anchor, kind, normalized text, normalized notes) of every passage and section."""
    out = []
    for work in edition.works:
        for chapter in work.chapters:
            for section in chapter.sections:
                out.append((section.id, "section", section.title, ()))
                for p in section.passages:
                    out.append((p.id, "passage", p.normalized, tuple(n.normalized for n in p.notes)))
    return out


def write_seed(directory: Path, seed: Path, text: str) -> Path:
    """A modified copy under the seed's own name (so seeds/manifest.toml describes it)."""
    path = directory / seed.name
    path.write_text(text, encoding="utf-8")
    return path


def corrections_without(*ids):
    return Corrections([c for c in Corrections().entries if c["id"] not in ids])


def lines_of(seed: Path) -> list[str]:
    return seed.read_text(encoding="utf-8").split("\n")


def run(*args):
    return subprocess.run([sys.executable, "-m", "conv", *args], cwd=ROOT, capture_output=True, text=True)


# -- the committed ledger --------------------------------------------------------------------
def test_the_seeds_alone_keep_their_anchors():
    """The small edition of the five seeds: every passage and section keeps its ledger anchor,
    but the 记 section 001 starts inside: in the whole edition judou-xiangshe-s29 is that 记 from
    its first item (大夫与则公士为宾, the witness's), so the seeds alone have it cut and untitled,
    with a provisional anchor, and report nothing."""
    ledger = Ledger.load(DEFAULT_PATH)
    edition = assemble.convert(SEEDS, ledger=ledger)
    outcome = edition.anchors
    assert outcome.changed == [] and outcome.retired == [] and anchor_problems(edition.problems) == []
    assert [(item.kind, item.span, item.opening) for item in outcome.provisional] == [
        ("section", (S001.name, 10, 3573), "〔立者东面北上〕")]
    live = {a: e for a, e in ledger.entries.items() if e.live}
    kept = [item for item in outcome.items if not item.provisional]
    assert len(kept) == 485 + 70 - 1 and all(item.anchor in live for item in kept)
    assert (ledger.get("judou-xiangshe-s29").seed, ledger.get("judou-xiangshe-s29").opening) == (
        "KR1d0038_005.txt", "〔大夫与则公士为宾〕")



def anchor_problems(problems):
    """The anchor problems only (the seeds also carry 今文/古文 problems for the editor)."""
    return [p for p in problems if p["kind"].startswith("anchor")]


def test_the_whole_editions_anchors_equal_the_committed_ledger(whole_edition):
    """The default edition (both works complete) is what the ledger records, anchor for anchor."""
    edition, ledger = whole_edition, Ledger.load(DEFAULT_PATH)
    outcome = edition.anchors
    assert outcome.provisional == [] and outcome.changed == [] and outcome.retired == []
    assert not [p for p in edition.problems if p["kind"].startswith("anchor")]
    live = {a: e for a, e in ledger.entries.items() if e.live}
    assert {item.anchor for item in outcome.items} == set(live)
    for item in outcome.items:
        entry = live[item.anchor]
        assert (entry.fingerprint, entry.seed, entry.start, entry.end, entry.opening) == (
            item.fingerprint, *item.span, item.opening), item.anchor


def test_committed_ledger_is_what_update_writes(whole_edition):
    expected = anchors.updated(whole_edition.anchors).dumps()
    assert DEFAULT_PATH.read_text(encoding="utf-8") == expected, "run `python -m conv anchors --update` and review the diff"


def test_first_ledger_numbered_in_reading_order(edition):
    """The first ledger numbered the seeds' chapters in reading order; but the 记 section 001
    starts inside: judou-xiangshe-s29 is now the whole 记 (test_the_seeds_alone_keep_their_anchors)."""
    for work in edition.works:
        for chapter in work.chapters:
            prefix = f"{work.id}-{chapter.id}"
            expected = [f"{prefix}-s{n}" for n in range(1, len(chapter.sections) + 1)]
            if prefix == "judou-xiangshe":
                assert chapter.sections[28].passages[0].span[:2] == (S001.name, 10)
                expected[28] = chapter.sections[28].id
                assert expected[28] != f"{prefix}-s29"
            assert [s.id for s in chapter.sections] == expected
            passages = [p.id for s in chapter.sections for p in s.passages]
            assert passages == [f"{prefix}-{n}" for n in range(1, len(passages) + 1)]


def test_anchors_unique_and_valid_ids(edition):
    ids = [anchor for anchor, *_ in items(edition)]
    ids += [f"{w.id}-{c.id}" for w in edition.works for c in w.chapters]
    assert len(ids) == len(set(ids))
    for anchor in ids:
        assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)+", anchor), anchor  # HTML id and LaTeX label alike
        assert make_id(anchor) == anchor


def test_ledger_rows_sorted_and_round_trip(ledger):
    text = DEFAULT_PATH.read_text(encoding="utf-8")
    assert Ledger.loads(text).dumps() == text
    rows = [line.split("\t")[0] for line in text.splitlines() if line and not line.startswith("#")]
    assert rows.index("judou-xiangshe-2") < rows.index("judou-xiangshe-10") < rows.index("judou-xiangshe-s1")
    assert all(len(line.split("\t")) in (8, 9) for line in text.splitlines() if not line.startswith("#"))


@pytest.mark.parametrize(
    "row, message",
    [
        ("judou-xiangshe-1\tlive\t-\t0123456789abcdef\ta.txt\t1\t2\tx\njudou-xiangshe-1\tlive\t-\t0123456789abcdef\ta.txt\t3\t4\ty", "listed twice"),
        ("Judou-xiangshe-1\tlive\t-\t0123456789abcdef\ta.txt\t1\t2\tx", "malformed anchor"),
        ("judou-xiangshe-1\tlive\t-\t0123\ta.txt\t1\t2\tx", "malformed fingerprint"),
        ("judou-xiangshe-1\tredirect\tjudou-xiangshe-2\t0123456789abcdef\ta.txt\t1\t2\tx\n"
         "judou-xiangshe-2\tredirect\tjudou-xiangshe-1\t0123456789abcdef\ta.txt\t1\t2\tx", "redirect cycle"),
        ("judou-xiangshe-1\tredirect\tjudou-xiangshe-7\t0123456789abcdef\ta.txt\t1\t2\tx", "never issued"),
    ],
)
def test_malformed_ledger_is_a_clear_error(tmp_path, row, message):
    path = tmp_path / "anchors.tsv"
    path.write_text("# header\n" + row + "\n", encoding="utf-8")
    with pytest.raises(ConversionError) as error:
        Ledger.load(path)
    assert message in str(error.value) and error.value.line >= 2


# -- stability -------------------------------------------------------------------------------
def test_section_removed_from_start_and_text_appended(tmp_path, edition, ledger):
    """000 without its first section (lines 3–6) and with a passage and a title appended."""
    lines = lines_of(S000)
    assert lines[2].startswith("出其位") and lines[4] == "右司射诱射"
    text = "\n".join(lines[:2] + lines[6:]).rstrip("\n") + "\n\n新增经文【新增注文】\n\n右新增一章\n"
    seed = write_seed(tmp_path, S000, text)
    changed = assemble.convert([seed, *SEEDS[1:]], corrections_without("c6"))

    removed = {"judou-xiangshe-1", "judou-xiangshe-2", "judou-xiangshe-s1"}
    before = [item for item in items(edition) if item[0] not in removed]
    after = items(changed)
    surviving = [item for item in after if not item[0].startswith("judou-xiangshe-") or item[0] in ledger]
    # every surviving passage and section keeps its anchor (the section cut off at 000's end, too,
    # now that its title 右新增一章 arrived)
    last_000 = [s for s in edition.works[0].chapters[0].sections if s.passages[0].span[0] == S000.name][-1]
    assert last_000.title is None
    assert [i for i in before if i[0] != last_000.id] == [i for i in surviving if i[0] != last_000.id]
    section = next(s for s in changed.works[0].chapters[0].sections if s.title == "右新增一章")
    assert section.id == last_000.id
    # the new passage gets the next number never issued in its chapter
    new = [item for item in after if item[0] not in ledger]
    highest = ledger.highest("judou-xiangshe", "passage")
    assert new == [(f"judou-xiangshe-{highest + 1}", "passage", "新增经文", ("新增注文",))]
    assert [i.anchor for i in changed.anchors.provisional] == [new[0][0]]
    # the removed section's anchors are reported where they disappeared, never reassigned
    assert [(p["seed"], p["line"], p["col"], p["kind"], p["anchor"]) for p in anchor_problems(changed.problems)] == [
        (S000.name, 3, 1, "anchor-retired", "judou-xiangshe-1"),
        (S000.name, 3, 1, "anchor-retired", "judou-xiangshe-2"),
        (S000.name, 3, 1, "anchor-retired", "judou-xiangshe-s1"),
    ]
    assert not removed & {item[0] for item in after}


def test_text_inserted_in_the_middle_keeps_both_sides(tmp_path, edition):
    lines = lines_of(S003)
    seed = write_seed(tmp_path, S003, "\n".join(lines[:6] + ["插入之经【插入之注】", ""] + lines[6:]))
    changed = assemble.convert([seed])
    assert anchor_problems(changed.problems) == []
    kept = [i for i in items(changed) if i[0] != XYJ_NEW]
    assert kept == [i for i in items(edition) if i[0].startswith("tongjie-xiangyinjiu-")]
    inserted = next(i for i in items(changed) if i[0] == XYJ_NEW)
    assert inserted[2] == "插入之经"


def test_repeated_section_title_keeps_its_own_anchor(tmp_path, edition):
    """大射仪 has 右饮不胜者 twice (s1, s7): without the first, the second stays s7."""
    lines = lines_of(S004)
    assert lines[4].startswith("右饮不胜者")
    seed = write_seed(tmp_path, S004, "\n".join(lines[:2] + lines[6:]))
    changed = assemble.convert([seed], corrections_without("c5"))
    sections = [(s.id, s.title) for s in changed.works[0].chapters[0].sections]
    assert ("tongjie-dashe-s7", "右饮不胜者") in sections
    assert [(p["kind"], p["anchor"]) for p in anchor_problems(changed.problems) if p["anchor"].endswith("-s1")] == [("anchor-retired", "tongjie-dashe-s1")]
    assert [s for s in sections if s[0] != "tongjie-dashe-s1"] == [
        (s.id, s.title) for s in next(c for w in edition.works for c in w.chapters if c.id == "dashe").sections if s.id != "tongjie-dashe-s1"
    ]


def test_traditional_copy_keeps_the_anchors(tmp_path, edition):
    """The fingerprint is of the reading text: a traditional-character copy of 001 cites alike."""
    path = tmp_path / "trad.txt"
    path.write_text(opencc.OpenCC("s2t").convert(S001.read_text(encoding="utf-8")), encoding="utf-8")
    trad = assemble.convert([path])  # its 乡射礼 part is in no chapter without the manifest
    yanli = [i for i in items(trad) if i[0].startswith("judou-yanli-")]
    assert [i[0] for i in yanli] == [i[0] for i in items(edition) if i[0].startswith("judou-yanli-")]
    assert not any(i.prefix == "judou-yanli" for i in trad.anchors.provisional)
    assert not [p for p in trad.problems if p["kind"].startswith("anchor-")]


def test_partial_conversion_reports_nothing_for_other_seeds():
    one = assemble.convert([S002])
    assert anchor_problems(one.problems) == [] and one.anchors.provisional == []


def changed_003(tmp_path) -> Path:
    text = S003.read_text(encoding="utf-8")
    assert text.count("位在下今文辩皆作遍") == 1
    return write_seed(tmp_path, S003, text.replace("位在下今文辩皆作遍", "位在堂下今文辩皆作遍"))


def test_changed_passage_is_reported_not_reassigned(tmp_path, ledger):
    seed = changed_003(tmp_path)
    changed = assemble.convert([seed])
    passage = next(p for s in changed.works[0].chapters[0].sections for p in s.passages if p.text == "众宾辩有脯醢")
    assert passage.id == XYJ_NEW and XYJ_NEW not in ledger
    assert ledger.get("tongjie-xiangyinjiu-7").opening == "众宾辩有脯醢"
    line = seed.read_text(encoding="utf-8")[: seed.read_text(encoding="utf-8").index("众宾辩有脯醢")].count("\n") + 1
    col = len(seed.read_text(encoding="utf-8").split("\n")[line - 1].split("众宾辩有脯醢")[0]) + 1
    assert [(p["seed"], p["line"], p["col"], p["kind"], p["anchor"], p["candidate"]) for p in anchor_problems(changed.problems)] == [
        (S003.name, line, col, "anchor-changed", "tongjie-xiangyinjiu-7", XYJ_NEW),
    ]
    assert f"--keep tongjie-xiangyinjiu-7 {XYJ_NEW}" in anchor_problems(changed.problems)[0]["message"]
    with pytest.raises(anchors.DecisionError):
        anchors.updated(changed.anchors)


def test_keep_gives_the_corrected_passage_its_anchor(tmp_path):
    seed = changed_003(tmp_path)
    first = assemble.convert([seed])
    decided, pending = anchors.decide(first.anchors, keep=[("tongjie-xiangyinjiu-7", XYJ_NEW)], redirect=[])
    again = assemble.convert([seed], ledger=decided)
    assert anchor_problems(again.problems) == [] and again.anchors.provisional == []
    assert next(p.id for s in again.works[0].chapters[0].sections for p in s.passages if p.text == "众宾辩有脯醢") == "tongjie-xiangyinjiu-7"
    new = anchors.updated(again.anchors)
    assert XYJ_NEW not in new and new.get("tongjie-xiangyinjiu-7").live


def test_redirect_in_the_ledger_is_exported(edition, ledger):
    moved = ledger.copy()
    old = ledger.get("judou-yanli-3")
    moved.put(Entry(YANLI_1, "redirect", "judou-yanli-3", old.fingerprint, old.seed, old.start, old.end, "旧", "test"))
    moved.put(Entry(YANLI_2, "redirect", YANLI_1, old.fingerprint, old.seed, old.start, old.end, "更旧"))
    converted = assemble.convert(SEEDS, ledger=moved)
    data = json.loads(json.dumps(export.edition(converted), ensure_ascii=False))
    assert data["redirects"] == [
        {"from": YANLI_1, "to": "judou-yanli-3", "kind": "passage", "opening": "旧", "note": "test"},
        {"from": YANLI_2, "to": "judou-yanli-3", "kind": "passage", "opening": "更旧", "note": None},
    ]
    assert anchor_problems(data["problems"]) == [] and data["provisional_anchors"] == []
    # the committed ledger's own redirects (the 通解's note lemmas, tongjie-daxue-3 …) and the two new ones
    assert anchors.redirect_table(moved) == {**anchors.redirect_table(ledger), YANLI_1: "judou-yanli-3",
                                             YANLI_2: "judou-yanli-3"}
    # a redirect whose target is not converted is not exported
    assert export.edition(assemble.convert([S000], ledger=moved))["redirects"] == []


def test_new_passage_never_takes_a_retired_number(tmp_path, ledger):
    retired = ledger.copy()
    old = ledger.get("judou-yanli-3")
    retired.put(Entry(YANLI_1, "redirect", "judou-yanli-3", old.fingerprint, old.seed, old.start, old.end, "旧"))
    seed = write_seed(tmp_path, S001, S001.read_text(encoding="utf-8").rstrip("\n") + "\n\n新增经文【新增注文】\n")
    converted = assemble.convert([seed], ledger=retired)
    assert [i.anchor for i in converted.anchors.provisional] == [YANLI_2]
    assert anchor_problems(converted.problems) == []


def test_redirect_to_a_new_passage_through_the_cli(tmp_path, seeds_ledger):
    ledger_path = tmp_path / "anchors.tsv"
    shutil.copy(seeds_ledger, ledger_path)
    seeds = [str(changed_003(tmp_path))]
    check = run("anchors", "--ledger", str(ledger_path), *seeds)
    assert check.returncode == 1 and "anchor-changed" in check.stderr
    refused = run("anchors", "--update", "--ledger", str(ledger_path), *seeds)
    assert refused.returncode == 2 and ledger_path.read_bytes() == seeds_ledger.read_bytes()
    done = run("anchors", "--ledger", str(ledger_path), "--redirect", "tongjie-xiangyinjiu-7", XYJ_NEW,
               "--note", "note rewritten", *seeds)
    assert done.returncode == 0, done.stderr
    rows = {line.split("\t")[0]: line.split("\t") for line in ledger_path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")}
    assert rows["tongjie-xiangyinjiu-7"][1:3] == ["redirect", XYJ_NEW]
    assert rows["tongjie-xiangyinjiu-7"][8] == "note rewritten"
    assert rows[XYJ_NEW][1] == "live" and rows[XYJ_NEW][7] == "众宾辩有脯醢"
    assert run("anchors", "--ledger", str(ledger_path), *seeds).returncode == 0
    dump = json.loads(run("dump", "--ledger", str(ledger_path), *seeds, "--json").stdout)
    assert anchor_problems(dump["problems"]) == [] and dump["provisional_anchors"] == []
    assert dump["redirects"][0]["from"] == "tongjie-xiangyinjiu-7" and dump["redirects"][0]["to"] == XYJ_NEW
    # a decision on an anchor that still names its passage is refused
    wrong = run("anchors", "--ledger", str(ledger_path), "--redirect", "tongjie-xiangyinjiu-8", "tongjie-xiangyinjiu-9", *seeds)
    assert wrong.returncode == 2 and "still names its passage" in wrong.stderr


def test_conversions_never_write_the_ledger(tmp_path):
    before = DEFAULT_PATH.read_bytes()
    seed = str(changed_003(tmp_path))
    assert run("dump", seed, "--json").returncode == 0
    assert run("build", seed, "--out", str(tmp_path / "out")).returncode == 0
    assert run("anchors", seed).returncode == 1  # a check, not an update
    assert run("anchors").returncode == 0  # the committed seeds: up to date
    assert DEFAULT_PATH.read_bytes() == before


# -- alignment -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("abc", "xabcy", {0: 1, 1: 2, 2: 3}),
        ("abac", "bac", {1: 0, 2: 1, 3: 2}),  # the first a removed: the second keeps its place
        ("aba", "aa", {0: 0, 2: 1}),
        ("abc", "cab", {0: 1, 1: 2, 2: 0}),  # c moved: still paired
        ("aaaa", "aaaaaaaa", {0: 0, 1: 1, 2: 2, 3: 3}),
    ],
)
def test_align(old, new, expected):
    pairs, _ = anchors.align(list(old), list(new))
    assert pairs == expected
