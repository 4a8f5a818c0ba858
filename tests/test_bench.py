"""Smoke tests of the benchmark's inputs and projects (no timing: see bench/).

The bench measures the whole edition; these tests never convert or build it (branch whole's
session fixture does, once): they check which files the bench takes and that a linked seed
directory converts exactly as the files themselves, on one seed and one witness file.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # bench/ is run from the project root, not installed
    sys.path.insert(0, str(ROOT))

from bench import corpus, pdfcheck, projects  # noqa: E402
from conv.edition import assemble, export  # noqa: E402
from conv.reader import manifest  # noqa: E402

SEEDS = ROOT / "seeds"
#: The whole edition's files as issue #18 names them: the five seeds, 句读 卷一–十七, 通解 卷首 and 卷一–三十六.
WHOLE = sorted(p.name for p in SEEDS.glob("*.txt")) \
    + [f"KR1d0038_{n:03d}.txt" for n in range(0, 20)] + [f"KR1d0085_{n:03d}.txt" for n in range(0, 37)]


@pytest.fixture(scope="module")
def seeds_edition():
    return assemble.convert(corpus.from_seeds().paths, full=True)


def test_the_whole_edition_is_the_seeds_and_every_converted_witness_file(tmp_path):
    assert [p.name for p in corpus.explicit_whole()] == WHOLE
    whole = corpus.whole_edition(tmp_path)
    assert sorted(p.name for p in whole.paths) == sorted(WHOLE)
    assert whole.chars_by_work().keys() == {"judou", "tongjie"}
    assert whole.chars > 800_000
    if not whole.own_list:  # the converter's list of seeds/ is the five seeds: the bench links the files
        assert whole.directory == (tmp_path / "whole-seeds").resolve()
        assert sorted(p.name for p in whole.directory.glob("*.txt")) == sorted(WHOLE)


def test_linked_inputs_keep_their_manifest_entries(tmp_path):
    entries = {e["file"]: e for e in corpus.manifest_entries()}
    paths = corpus.explicit_whole()
    links = corpus.link_inputs(tmp_path / "linked", paths, entries)
    for link, path in zip(links, paths):
        assert link.read_bytes() == path.read_bytes()
        found = manifest.entry_for(link)  # checks the file against its sha256
        assert found == {k: v for k, v in entries[path.name].items() if k != "path"}, link.name


def test_a_linked_directory_converts_as_its_files(tmp_path):
    """乡射礼: the seed 000 and the witness's 卷五, linked and converted, give the same JSON as the
    files in seeds/ (anchors, spans, pages, apparatus)."""
    entries = {e["file"]: e for e in corpus.manifest_entries()}
    paths = [SEEDS / "000_065af0aba9fcdf9d.txt", SEEDS / "wenyuange" / "KR1d0038" / "KR1d0038_005.txt"]
    links = corpus.link_inputs(tmp_path / "linked", paths, entries)
    direct = export.edition(assemble.convert(paths))
    linked = export.edition(assemble.convert(links))
    assert json.dumps(linked, ensure_ascii=False) == json.dumps(direct, ensure_ascii=False)
    chapter = direct["works"][0]["chapters"][0]
    assert chapter["id"] == "xiangshe" and chapter["sections"]


def test_refuses_to_write_into_the_project(tmp_path):
    for place in (ROOT / "seeds" / "bench", ROOT / "source" / "bench"):
        with pytest.raises(ValueError):
            corpus.link_inputs(place, [], {})


def test_plain_project_is_bare_myst(seeds_edition, tmp_path):
    project = projects.plain_project(tmp_path / "plain", seeds_edition)
    pages = sorted(project.rglob("*.md"))
    chapters = [c for w in seeds_edition.works for c in w.chapters]
    assert len(pages) == 1 + len(seeds_edition.works) + len(chapters)
    text = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    assert "{yl:" not in text and ":::" not in text
    passage = chapters[0].sections[1].passages[0]
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


@pytest.mark.skipif(not shutil.which("pdffonts"), reason="poppler-utils not installed")
def test_pdfcheck_reads_a_log_of_missing_characters(tmp_path):
    """The tofu count comes from xelatex's log, one per ``Missing character`` line."""
    (tmp_path / "x.log").write_text("Missing character: There is no 𠀀 in font [NotoSerifCJK]!\n"
                                    "ok\nMissing character: There is no 𰬸 (U+30B38) in font HanaMinB Regular/OT:language\n"
                                    "=dflt;!\n", encoding="utf-8")
    (tmp_path / "x.pdf").write_bytes(b"%PDF-1.4 not really")
    found = pdfcheck.check(tmp_path)["x.pdf"]
    assert found["missing_glyphs"] == 2
    assert found["missing_examples"] == [("𠀀", "[NotoSerifCJK]"), ("𰬸", "HanaMinB Regular/OT:language=dflt;")]


def test_the_report_sets_sphinx_alone_beside_the_whole_pipeline():
    """(a′): Sphinx alone on MyST converted beforehand, beside (a), which converts inside the build;
    both over the floor (b); the conversion step of (a′) is not in its build time."""
    from bench import report, summary

    def run(variant, step, seconds, cpu):
        return {"variant": variant, "corpus": "whole", "step": step, "seconds": seconds, "cpu_s": cpu,
                "warnings": 0, "peak_tree_mb": 100.0, "maxrss_mb": 90.0}

    runs = [run("a", "sphinx", 60.0, 90.0), run("a1", "convert", 15.0, 15.0), run("a1", "sphinx", 45.0, 70.0),
            run("b", "sphinx", 10.0, 14.0)]
    medians = summary.median_times(runs)
    assert medians["a1_whole"]["total_s"] == 45.0 and medians["a_whole"]["total_s"] == 60.0
    ratios = summary.build_ratios(medians)
    assert ratios["whole"] == 6.0 and ratios["whole_a1"] == 4.5 and ratios["whole_a1_cpu"] == 5.0
    stored = json.loads((ROOT / "bench" / "results" / "2026-12-01.json").read_text(encoding="utf-8"))
    table = report.markdown(stored | {"medians": medians, "ratios": ratios, "runs": runs})
    assert "| ratio (a′)/(b) | – | 4.50 |" in table


def test_timed_commands_cache_bytecode_as_python_does_by_default(tmp_path, monkeypatch):
    """A shell that sets PYTHONDONTWRITEBYTECODE would make every timed build compile the
    converter's modules again: the bench runs its commands as Python runs by default."""
    from bench import runner

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    probe = [sys.executable, "-c", "import os, sys; print(sys.dont_write_bytecode, os.environ.get('PYTHONDONTWRITEBYTECODE'))"]
    result = runner.run("probe", probe, tmp_path / "probe.log", progress_s=60)
    assert result.returncode == 0
    assert (tmp_path / "probe.log").read_text(encoding="utf-8").splitlines()[-1] == "False None"


def test_the_decomposition_cuts_the_copies_and_the_back_matter_only(whole_edition, tmp_path):
    """bench.decompose: the 'no copies' project loses the chapter pages' yl:parallel blocks and
    nothing else; the 'chapters' project also keeps of each back-matter page its header, labels
    and title."""
    from bench import decompose
    from conv.myst import writer

    for path, text in writer.pages(whole_edition).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    before = {p: p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.md")}
    blocks = sum(t.count(":::{yl:parallel}") for p, t in before.items() if p.parent.name != "apparatus")
    assert blocks > 4000  # 互见 and 参见 on the passages of both works
    assert decompose.without_copies(tmp_path) == blocks
    for path, text in before.items():
        assert path.read_text(encoding="utf-8") == _without_blocks(text, path.parent.name != "apparatus"), path
    pages = decompose.cut_back_matter(tmp_path)
    assert pages == len([p for p in before if p.parent.name == "apparatus"])
    judou = (tmp_path / "apparatus" / "judou.md").read_text(encoding="utf-8")
    assert judou.startswith(projects.GENERATED_HEADER)
    assert judou.split("\n---\n", 1)[1].split("\n") == ["(apparatus-judou)=", "# 仪礼郑注句读校勘记", "", "（本页从略。）", ""]


def _without_blocks(text: str, chapter: bool) -> str:
    """``text`` without its ``yl:parallel`` blocks (from the fence to its ``:::`` and the blank line
    after it), read line by line: the decomposition's cut, written another way."""
    if not chapter:
        return text
    out, skipping = [], False
    *lines, tail = text.split("\n")  # tail: what follows the last line break
    for line in lines:
        if line.startswith(":::{yl:parallel}"):
            skipping = True
        elif skipping and line == ":::":
            skipping = "blank"
        elif skipping == "blank" and line == "":
            skipping = False
        else:
            skipping = False if skipping == "blank" else skipping
            if not skipping:
                out.append(line)
    return "".join(line + "\n" for line in out) + tail
