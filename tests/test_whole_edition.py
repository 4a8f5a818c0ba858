"""The whole edition is the default (全本为默认, issue 18): the five seeds and every 文渊阁 file the
manifest converts, both works complete, each seed the 底本 of its stretch; the small edition of the
seeds stays at hand (``--edition seeds``, ``yl_edition = "seeds"``, ``make html EDITION=seeds``)."""
from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from conv import cli, datafiles as data
from conv.edition import build
from conv.model.conservation import spans
from conv.model.tree import TEXT_CHAR
from conv.normalize import fold

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
MANIFEST = tomllib.loads((ROOT / "seeds" / "manifest.toml").read_text(encoding="utf-8"))["seed"]
CONVERTED = [entry["path"] for entry in MANIFEST if entry.get("convert")]
WITNESS_FILES = sorted((ROOT / "seeds" / "wenyuange").glob("KR*/*.txt"))


def _chapter(dump, work, chapter):
    return next(c for w in dump["works"] if w["id"] == work for c in w["chapters"] if c["id"] == chapter)


def _passages(chapter):
    return [p for s in chapter["sections"] for p in s["passages"]]


# -- what the default edition is ----------------------------------------------------------------

def test_the_default_is_the_seeds_then_every_converted_witness_file_in_manifest_order():
    files = build.edition_in(ROOT / "seeds")
    assert files[:5] == SEEDS
    assert [str(p.relative_to(ROOT / "seeds")) for p in files[5:]] == CONVERTED
    assert len(CONVERTED) == 20 + 37 == len(WITNESS_FILES)  # every file, the 句读's 提要/序 and 卷十八–十九 too
    assert [p.resolve() for p in cli.seed_paths([])] == [p.resolve() for p in files]
    assert cli.whole_edition([]) and not cli.whole_edition([], "seeds") and not cli.whole_edition([str(SEEDS[0])])
    assert build.edition_in(ROOT / "seeds", "seeds") == SEEDS == [p.resolve() for p in cli.seed_paths([], "seeds")]
    with pytest.raises(ValueError, match="unknown edition 'all'"):
        build.edition_in(ROOT / "seeds", "all")


def test_the_up_to_date_rule_includes_the_witness_files_and_names_the_edition(tmp_path):
    whole, seeds = build.inputs(ROOT / "seeds"), build.inputs(ROOT / "seeds", which="seeds")
    converted = {ROOT / "seeds" / path for path in CONVERTED}
    assert converted <= set(whole) and not converted & set(seeds)
    out = tmp_path / "source"
    out.mkdir()
    build.mark_converted(out, [], "seeds")
    assert (out / ".converted").read_text(encoding="utf-8") == "# edition: seeds\n"
    assert build.up_to_date(ROOT / "seeds", out, which="seeds")
    assert not build.up_to_date(ROOT / "seeds", out)  # the whole edition is not what was converted
    # a damaged stamp (not UTF-8) is no stamp: the pages are converted again, where make html stopped on a traceback
    (out / ".converted").write_bytes(b"# edition: seeds\n\xff\xfe")
    assert not build.up_to_date(ROOT / "seeds", out, which="seeds")
    assert build.converted_edition(out) is None


def test_make_passes_the_edition(tmp_path):
    """``make html`` builds the whole edition; ``make html EDITION=seeds`` the seeds alone."""
    def dry(*args):
        done = subprocess.run(["make", "-n", *args, "INSTALLED=Makefile"], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout
    assert "-D yl_seeds=../seeds -D yl_edition=whole -b html source build/html" in dry("html")
    assert "-D yl_seeds=../seeds -D yl_edition=seeds -b html source build/html" in dry("html", "EDITION=seeds")
    assert "-D yl_edition=whole" in dry("latexpdf")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "find seeds/wenyuange -name '*.txt'" in makefile.split("CONV_INPUTS", 1)[1].split("\n\n", 1)[0]


# -- both works complete ------------------------------------------------------------------------

def test_the_dump_lists_both_works_complete(whole_dump):
    judou, tongjie = whole_dump["works"]
    apart = [c["id"] for c in data.judou_apart()]  # 提要 and 原序 before the 17 篇, 监本正误 and 石本误字 after
    assert [c["id"] for c in judou["chapters"]] == apart[:2] + [c["id"] for c in data.chapters()] + apart[2:]
    assert [c["id"] for c in tongjie["chapters"]] == [c["id"] for c in data.tongjie_chapters()]  # 卷首 + 60 篇
    assert len(tongjie["chapters"]) == 61
    lost = {c["id"]: c["lost"] for c in tongjie["chapters"] if c["lost"]}
    assert lost == {"shushu": "此一篇原闕", "bushi": "目録列「卜筮(缺)」，正文无此篇"}
    for work in (judou, tongjie):
        for chapter in work["chapters"]:
            if chapter["lost"]:
                assert chapter["sections"] == []
                continue
            passages = _passages(chapter)
            assert chapter["sections"] and passages, chapter["id"]
            assert all(p["page"] and set(p["page"]) == {"juan", "leaf", "side"} for p in passages), chapter["id"]
            assert all(s["page"] for s in chapter["sections"]), chapter["id"]
            assert all(p["witness"] in ("seed", "kanripo") for p in passages)
    # the 句读's 篇 each in its own 卷 (卷N = 篇N); the 通解's parts in the book's order
    for chapter in judou["chapters"][2:-2]:
        assert {p["page"]["juan"] for p in _passages(chapter)} == {data.chapter_of("judou", chapter["id"])["number"]}
    assert [part for part in dict.fromkeys(c["part"] for c in tongjie["chapters"]) if part] == [
        "jiali", "xiangli", "xueli", "bangguoli", "wangchaoli"]


def test_chapter_ids_of_the_two_works_do_not_collide(whole_dump):
    """Anchors carry their work: the 通解's 乡射礼 is tongjie-xiangshe, the 句读's judou-xiangshe;
    every anchor of the edition is unique, and the seeds' 通解 篇 keep theirs."""
    anchors = [f"{w['id']}-{c['id']}" for w in whole_dump["works"] for c in w["chapters"]]
    anchors += [s["id"] for w in whole_dump["works"] for c in w["chapters"] for s in c["sections"]]
    anchors += [p["id"] for w in whole_dump["works"] for c in w["chapters"] for p in _passages(c)]
    assert len(anchors) == len(set(anchors))
    assert all(re.fullmatch(r"(judou|tongjie)-[a-z]+(-s?\d+)?", a) for a in anchors)
    xyj = {p["id"]: p for p in _passages(_chapter(whole_dump, "tongjie", "xiangyinjiu"))}
    assert xyj["tongjie-xiangyinjiu-45"]["witness"] == "seed"


def test_conservation_on_every_file_of_the_whole_edition(whole_edition):
    """Every text character of the 5 seeds and the 57 converted 文渊阁 files lies in exactly one
    span (title, passage, segment, metadata line, dropped or collated record)."""
    assert len(whole_edition.sources) == 5 + 57
    covered = {name: bytearray(len(source.text)) for name, source in whole_edition.sources.items()}
    for _, (name, start, end) in spans(whole_edition):
        counts = covered[name]
        for i in range(start, end):
            counts[i] = min(counts[i] + 1, 2)
    for name, source in whole_edition.sources.items():
        text = source.text
        wrong = [m.start() for m in TEXT_CHAR.finditer(text) if covered[name][m.start()] != 1]
        assert wrong == [], (name, [(source.position(i), text[i], covered[name][i]) for i in wrong[:5]])


# -- the 通解 seeds joined with the witness -------------------------------------------------------

@pytest.mark.parametrize("seed, chapter, witness, count", [
    ("003", "xiangyinjiu", "KR1d0085_007.txt", 71), ("004", "dashe", "KR1d0085_020.txt", 104)])
def test_the_tongjie_seeds_join_the_witness_exactly(whole_edition, whole_dump, seed, chapter, witness, count):
    """003 (乡饮酒礼) and 004 (大射仪) are the 底本 of their stretches: the witness before and after,
    nothing doubled (no witness passage inside the collated stretch) and nothing lost (the stretch
    begins and ends with the seed's own first and last characters), their anchors unchanged."""
    found = _chapter(whole_dump, "tongjie", chapter)
    passages = _passages(found)
    runs = [p["witness"] for p in passages]
    assert [w for i, w in enumerate(runs) if i == 0 or runs[i - 1] != w] == ["kanripo", "seed", "kanripo"]
    assert [p["id"] for p in passages if p["witness"] == "seed"] == [f"tongjie-{chapter}-{n}" for n in range(1, count + 1)]
    collated = [d for d in whole_dump["dropped"] if d.get("kind") == "collated" and d["seed"].startswith(seed)]
    assert [d["span"][0] for d in collated] == [witness]
    _, start, end = collated[0]["span"]
    assert not [p for p in passages if p["witness"] == "kanripo" and p["span"][0] == witness and start <= p["span"][1] < end]
    stretch = "".join(TEXT_CHAR.findall(whole_edition.sources[witness].text[start:end]))
    source = whole_edition.sources[next(p.name for p in SEEDS if p.name.startswith(seed))]
    own = "".join(TEXT_CHAR.findall(source.text.split("\n", 1)[1]))
    assert fold(stretch[:30]) == fold(own[:30]) and fold(stretch[-30:]) == fold(own[-30:])
    joins = [a for a in whole_dump["apparatus"] if a["kind"] == "witness-join" and a["span"][0] in (witness, source.name)]
    assert [a["witness"] for a in joins] == ["seed", "kanripo"]


# -- the witness of each stretch ----------------------------------------------------------------

def test_each_chapter_says_which_stretch_comes_from_which_witness(whole_dump):
    xiangshe = _chapter(whole_dump, "judou", "xiangshe")
    assert [(s["witness"], s["first"]) for s in xiangshe["witnesses"]] == [
        ("kanripo", "judou-xiangshe-218"), ("seed", "judou-xiangshe-1"),
        ("kanripo", xiangshe["witnesses"][2]["first"]), ("seed", "judou-xiangshe-158")]
    assert sum(s["passages"] for s in xiangshe["witnesses"]) == len(_passages(xiangshe))
    assert xiangshe["witness_line"] == (
        "本篇底本：卷五叶一a至叶十五a据文渊阁本；叶十五a至叶三十四b据录入本（简体，已与文渊阁本对校）；"
        "叶三十四b至叶三十八b据文渊阁本；叶三十八b至叶四十五b据录入本（简体，已与文渊阁本对校）。")
    assert _chapter(whole_dump, "judou", "sangfu")["witness_line"] == "本篇底本：文渊阁本（卷十一叶二a至叶四十六b）。"
    assert _chapter(whole_dump, "tongjie", "juanshou")["witness_line"].startswith("本篇底本：文渊阁本（卷首叶一a")
    # a lost 篇 the book prints (書數: its title lines and 此一篇原闕) names its witness and page; one the 目録
    # alone lists (卜筮) has neither
    assert _chapter(whole_dump, "tongjie", "shushu")["witness_line"] == "本篇底本：文渊阁本（卷十五叶一a）。"
    assert _chapter(whole_dump, "tongjie", "bushi")["witness_line"] is None
    # the 底本 forms of each stretch: the seed simplified, the witness traditional
    first = _passages(xiangshe)[0]
    assert first["witness"] == "kanripo" and first["text"].startswith("鄉射之禮") and first["normalized"].startswith("乡射之礼")
    seed = next(p for p in _passages(xiangshe) if p["id"] == "judou-xiangshe-3")
    assert seed["witness"] == "seed" and seed["text"].startswith("司马命获者执旌以负侯")


def test_a_repeated_chapter_title_is_a_known_metadata_line(myst_app):
    """Where a seed gives its 篇's title and the witness does too, the join keeps the second as a
    ``chapter-title`` metadata line (``conv.edition.joins``): ``yl:meta`` knows the kind (it stopped
    the build with a traceback)."""
    from conv.sphinx_ext.nodes import yl_meta

    doctree = myst_app.parse(":::{yl:meta} chapter-title\n士冠禮第一\n:::\n")
    assert myst_app.take_warnings() == ""
    meta = next(iter(doctree.findall(yl_meta)))
    html = myst_app.html(meta)
    assert meta["kind"] == "chapter-title" and 'class="yl-meta yl-meta-chapter-title"' in html and "禮" in html
