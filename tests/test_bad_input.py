"""Faults and bad input (坏输入): every fault is an error at its ``file:line:col`` with exit status
2, or a problem at the seed's ``file:line:col``; never a traceback, never a silent guess.

Issue 21, points 3 (control characters), 4 (tracebacks), 5 (the manifest), 8 (corrections),
9 (seed names) and 11 (smaller points). Every CLI run is a subprocess, as a user runs it.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import copy_front_pages
from conv.edition import assemble
from conv.errors import ConversionError

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
HEAD = "仪礼郑注句读\n\n燕礼第六\n\n"


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "conv", *args], cwd=cwd, capture_output=True, text=True)


def problems(edition, kind):
    return [(p["seed"], p["line"], p["col"]) for p in edition.problems if p["kind"] == kind]


def seed(tmp_path: Path, text: str, name: str = "s.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- 3. control characters -------------------------------------------------------------------------

@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x85", "\x9f", "\ufffe", "\uffff", "\u202e",
                                  "\u2066", "\u200b", "\u200d", "\u2060", "\ufeff"])
def test_a_control_character_is_a_problem_at_its_place(tmp_path, char):
    path = seed(tmp_path, HEAD + "小臣戒与者\n\n膳宰具" + char + "官馔【具官馔】\n")
    edition = assemble.convert([path])
    assert problems(edition, "control-char") == [("s.txt", 7, 4)]
    message = next(p["message"] for p in edition.problems if p["kind"] == "control-char")
    assert f"U+{ord(char):04X}" in message


@settings(max_examples=40, deadline=None)
@given(st.text(st.sampled_from("司射诱射【】○\u3000\n") | st.characters(codec="utf-8"), max_size=30))
def test_every_control_character_is_reported_exactly_once(text):
    """Whatever else a line holds, each control character of the seed is one problem at its line:col."""
    body = "乡射礼第五\n\n" + text.replace("\r", "")
    from conv.reader.source import Source
    from conv.parser.report import SeedReport
    from conv.normalize import CONTROL_PATTERN

    source = Source("h.txt", "仪礼郑注句读\n" + body)
    report = SeedReport(source)
    report.controls()
    expected = [source.position(m.start()) for m in CONTROL_PATTERN.finditer(source.text)]
    assert [(p.line, p.col) for p in report.problems] == expected


# -- 4. tracebacks become errors -----------------------------------------------------------------

def _project_copy(tmp_path: Path) -> Path:
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    return seeds


def test_malformed_manifest_names_its_line(tmp_path):
    seeds = _project_copy(tmp_path)
    manifest = seeds / "manifest.toml"
    lines = manifest.read_text(encoding="utf-8").split("\n")
    bad = lines.index('work = "judou"') + 1
    lines[bad - 1] = 'work = "judou'
    manifest.write_text("\n".join(lines), encoding="utf-8")
    result = run("dump", "--json", *map(str, sorted(seeds.glob("*.txt"))))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {manifest}:{bad}:")
    assert "not valid TOML" in result.stderr and "Traceback" not in result.stderr


def test_manifest_entry_without_file(tmp_path):
    path = seed(tmp_path, HEAD + "小臣戒与者\n")
    (tmp_path / "manifest.toml").write_text('# x\n\n[[seed]]\nwork = "judou"\n', encoding="utf-8")
    result = run("dump", "--json", str(path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {tmp_path / 'manifest.toml'}:3:1: a [[seed]] entry without 'file'")


def test_invalid_utf8_in_the_ledger(tmp_path):
    ledger = tmp_path / "anchors.tsv"
    ledger.write_bytes((ROOT / "conv" / "data" / "anchors.tsv").read_bytes()[:300] + b"\n\xff\xfe bad\n")
    line = ledger.read_bytes().count(b"\n", 0, ledger.read_bytes().index(b"\xff")) + 1
    result = run("dump", "--json", "--ledger", str(ledger))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {ledger}:{line}:1: not valid UTF-8: byte 0xFF")
    assert "Traceback" not in result.stderr


def _patched_conv(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m conv ARGS`` with the converter's data files read from ``data_dir``."""
    code = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        import conv.datafiles as d
        d.DATA_DIR = Path({str(data_dir)!r}); d.CORRECTIONS = d.DATA_DIR / "corrections.toml"
        from conv.cli import main
        sys.exit(main({list(args)!r}))
    """)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)


def _data_with_corrections(tmp_path: Path, text: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "conv" / "data", data)
    (data / "corrections.toml").write_text(text, encoding="utf-8")
    return data


def test_malformed_corrections_name_file_and_line(tmp_path):
    text = (ROOT / "conv" / "data" / "corrections.toml").read_text(encoding="utf-8")
    lines = text.split("\n")
    bad = lines.index('id = "c2"') + 1
    lines[bad - 1] = 'id = c2"'
    result = _patched_conv(_data_with_corrections(tmp_path, "\n".join(lines)), "dump", "--json")
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.startswith(f"error: {tmp_path / 'data' / 'corrections.toml'}:{bad}:")
    assert "not valid TOML" in result.stderr and "Traceback" not in result.stderr


# -- 5. the manifest is checked ------------------------------------------------------------------

def _manifest_line(seeds: Path, after: str) -> int:
    return seeds.joinpath("manifest.toml").read_text(encoding="utf-8").split("\n").index(after) + 1


def _edit_manifest(seeds: Path, old: str, new: str) -> None:
    manifest = seeds / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    assert text.count(old) == 1
    manifest.write_text(text.replace(old, new), encoding="utf-8")


def _dump(seeds: Path) -> subprocess.CompletedProcess:
    return run("dump", "--json", *map(str, sorted(seeds.glob("*.txt"))))


def _refused(seeds: Path, line: int, message: str) -> None:
    """Converting ``seeds`` fails with ``message`` at ``line`` of their manifest."""
    result = _dump(seeds)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {seeds / 'manifest.toml'}:{line}:1: {message}"), result.stderr


def test_unknown_chapter_in_the_manifest(tmp_path):
    seeds = _project_copy(tmp_path)
    _edit_manifest(seeds, 'juan = []\nchapters = ["dashe"]', 'juan = []\nchapters = ["nosuch"]')  # seed 004's entry
    _refused(seeds, _manifest_line(seeds, 'chapters = ["nosuch"]'), "unknown chapter 'nosuch'")


def test_work_contradicting_line_1(tmp_path):
    seeds = _project_copy(tmp_path)
    first = SEEDS[0].name
    _edit_manifest(seeds, f'file = "{first}"\nsha256 = "5d824ef3029616528c08700f160c1dc0d23a4c0e7b921dff181781a69eb2301f"\nwork = "judou"',
                   f'file = "{first}"\nsha256 = "5d824ef3029616528c08700f160c1dc0d23a4c0e7b921dff181781a69eb2301f"\nwork = "tongjie"')
    result = _dump(seeds)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {first}:1:1: line 1 names the work judou")


def test_entry_for_a_missing_file(tmp_path):
    seeds = _project_copy(tmp_path)
    (seeds / SEEDS[3].name).unlink()
    _refused(seeds, _manifest_line(seeds, f'file = "{SEEDS[3].name}"'), f"seed {SEEDS[3].name} does not exist beside the manifest")


def test_checksum_mismatch_names_the_file(tmp_path):
    seeds = _project_copy(tmp_path)
    target = seeds / SEEDS[4].name
    target.write_bytes(target.read_bytes().replace("右三射用乐".encode(), "右三射用乐".encode() + b" "))
    _refused(seeds, _manifest_line(seeds, f'file = "{SEEDS[4].name}"') + 1, f"seed {SEEDS[4].name} does not match its sha256")


def test_duplicate_entry(tmp_path):
    seeds = _project_copy(tmp_path)
    manifest = seeds / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text + f'\n[[seed]]\nfile = "{SEEDS[0].name}"\nwork = "judou"\n', encoding="utf-8")
    _refused(seeds, len(text.split("\n")) + 2, f"seed {SEEDS[0].name} is described twice")


def test_the_same_excerpt_twice_is_refused(tmp_path):
    """A copy of a seed under another name would double its 157 passages: refused, naming both."""
    seeds = _project_copy(tmp_path)
    copy = seeds / "005_copy.txt"
    text = SEEDS[3].read_text(encoding="utf-8")
    copy.write_text(text.replace("主人", "主  人", 1), encoding="utf-8")  # not byte-identical
    _edit_manifest(seeds, "[[seed]]\n" + f'file = "{SEEDS[3].name}"', "[[seed]]\nfile = \"005_copy.txt\"\nwork = \"tongjie\"\nchapters = [\"xiangyinjiu\"]\n\n[[seed]]\n" + f'file = "{SEEDS[3].name}"')
    result = _dump(seeds)
    assert result.returncode == 2, result.stderr[-500:]
    assert result.stderr.startswith("error: 005_copy.txt:")
    assert f"shares a stretch of 7824 characters with {SEEDS[3].name} (from its line 1, column 1)" in result.stderr


def test_seeds_of_the_project_do_not_overlap():
    from conv.edition import overlap
    from conv.reader import source

    sources = [source.read(p) for p in SEEDS]
    works = ["judou"] * 3 + ["tongjie"] * 2
    overlap.check([(s, w, False) for s, w in zip(sources, works)])  # no error


@settings(max_examples=30, deadline=None)
@given(st.text(st.sampled_from("司射诱射主人宾介升降"), min_size=0, max_size=120),
       st.text(st.sampled_from("司射诱射主人宾介升降"), min_size=0, max_size=120),
       st.integers(0, 80))
def test_shared_stretch_found_iff_long_enough(a, b, length):
    """``_shared`` finds a common stretch exactly when one of ``MIN_SHARED`` characters exists."""
    from conv.edition.overlap import MIN_SHARED, _shared

    common = ("乡饮酒礼" * 30)[:length]
    first, second = a + common + b, b[::-1] + common + a[::-1]
    found = _shared(first, second)
    longest = max((k for k in range(len(second) + 1) if any(second[i:i + k] in first for i in range(len(second) - k + 1))), default=0)
    assert (found is not None) == (longest >= MIN_SHARED)
    if found is not None:
        s, f, n = found
        assert second[s:s + n] == first[f:f + n] and n >= MIN_SHARED


# -- 8. corrections ------------------------------------------------------------------------------

def _corrections_with(tmp_path, **change) -> tuple[Path, int]:
    text = (ROOT / "conv" / "data" / "corrections.toml").read_text(encoding="utf-8")
    lines = text.split("\n")
    line = lines.index('id = "c3"') - 1 + 1  # the [[correction]] header before it
    for key, value in change.items():
        index = next(i for i in range(line, len(lines)) if lines[i].startswith(f"{key} = "))
        lines[index] = f"{key} = {value}"
    return _data_with_corrections(tmp_path, "\n".join(lines)), line


def test_a_stale_correction_points_at_its_own_line(tmp_path):
    data, line = _corrections_with(tmp_path, text='"右献庶子左右正内小臣之"')
    result = _patched_conv(data, "dump", "--json")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: conv/data/corrections.toml:{line}:1: correction c3 (title) no longer matches")


def test_a_correction_of_a_seed_that_does_not_exist(tmp_path):
    data, line = _corrections_with(tmp_path, seed='"999_nosuch.txt"')
    result = _patched_conv(data, "dump", "--json")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: conv/data/corrections.toml:{line}:1: correction c3: seed '999_nosuch.txt' does not exist")


def test_a_correction_of_an_unknown_kind(tmp_path):
    data, line = _corrections_with(tmp_path, kind='"bogus"')
    result = _patched_conv(data, "dump", "--json")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: conv/data/corrections.toml:{line}:1: correction c3: unknown kind 'bogus'")


# -- 9. seed names -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a:b.txt", "x\n<img src=x onerror=alert(1)>.txt", "空格 名.txt", "-x.txt", "a\"b.txt"])
def test_unsafe_seed_names_are_refused(tmp_path, name):
    path = tmp_path / name
    path.write_text(HEAD + "小臣戒与者\n", encoding="utf-8")
    with pytest.raises(ConversionError) as error:
        assemble.convert([path])
    assert "holds characters outside the safe set" in str(error.value)


def test_an_unsafe_name_in_a_manifest_is_refused(tmp_path):
    (tmp_path / "manifest.toml").write_text('[[seed]]\nfile = "a:b.txt"\nwork = "judou"\n', encoding="utf-8")
    path = seed(tmp_path, HEAD + "小臣戒与者\n")
    result = run("dump", "--json", str(path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {tmp_path / 'manifest.toml'}:2:1: seed file name 'a:b.txt' holds characters")


# -- 11. smaller points --------------------------------------------------------------------------

def test_an_empty_note_is_reported(tmp_path):
    path = seed(tmp_path, HEAD + "小臣戒与者【】膳宰具官馔【具官馔】\n")
    edition = assemble.convert([path])
    assert problems(edition, "empty-note") == [("s.txt", 5, 7)]


def test_only_a_title_line(tmp_path):
    path = seed(tmp_path, "仪礼郑注句读\n\n")
    result = run("dump", "--json", str(path))
    assert result.returncode == 2
    assert result.stderr.startswith("error: s.txt:1:7: the seed has its title line and no text")


def test_a_note_never_closed_at_the_end_is_a_problem(tmp_path):
    path = seed(tmp_path, HEAD + "小臣戒与者【具官馔\n")
    edition = assemble.convert([path])
    assert problems(edition, "unclosed-note-at-end") == [("s.txt", 5, 10)]
    assert [a["kind"] for a in edition.apparatus if a["kind"] == "lacuna-end"] == ["lacuna-end"]


def test_a_seed_declared_cut_mid_note_is_not_a_problem():
    edition = assemble.convert([SEEDS[2]])  # its manifest entry: ends = "mid-note …"
    assert problems(edition, "unclosed-note-at-end") == []


def test_mojibake_is_reported(tmp_path):
    path = seed(tmp_path, HEAD + "小臣戒与者\n\n司射һآؤרاҵ˿ة\n\n膳宰具官馔\n\nقاعدةԭ\n")
    edition = assemble.convert([path])
    found = [p for p in edition.problems if p["kind"] == "not-chinese"]
    assert [(p["line"], p["col"]) for p in found] == [(7, 3)]
    assert "and 1 more such lines" in found[0]["message"]


def test_the_project_seeds_raise_none_of_these():
    edition = assemble.convert(SEEDS)
    kinds = {p["kind"] for p in edition.problems}
    assert not kinds & {"control-char", "empty-note", "unclosed-note-at-end", "not-chinese"}


def test_manifest_checksums_are_those_of_the_files():
    from conv.reader import manifest

    for path in SEEDS:
        assert manifest.entry_for(path)["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


# -- 4. under Sphinx, as `make html` runs it -------------------------------------------------------

def _sphinx(src: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
                           "-D", "yl_seeds=../seeds", "-D", "yl_edition=seeds", *args, str(src), str(src.parent / "html")],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("fault", ["manifest", "ledger"])
def test_sphinx_reports_bad_data_files_as_errors(tmp_path, fault):
    seeds = _project_copy(tmp_path)
    src = tmp_path / "source"
    src.mkdir()
    copy_front_pages(src)
    args = []
    if fault == "manifest":
        _edit_manifest(seeds, 'juan = []\nchapters = ["dashe"]', 'juan = []\nchapters = ["dashe"')
        where = f"{seeds / 'manifest.toml'}:"
    else:
        ledger = tmp_path / "anchors.tsv"
        ledger.write_bytes(b"\xc3(\n")
        args = ["-D", f"yl_seeds_ledger={ledger}"]
        where = f"{ledger}:1:1: not valid UTF-8"
    result = _sphinx(src, *args)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.startswith(f"error: {where}"), result.stderr[-2000:]
    assert fault == "ledger" or "not valid TOML" in result.stderr
    assert "Extension error" not in result.stderr and "Traceback" not in result.stderr


def test_seed_names_are_escaped_where_they_are_written():
    """Were an unsafe name to reach the writer, it could not leave its header field or option."""
    from conv.myst.escape import locus
    from conv.myst.format import split_header, with_header

    evil = "x\n<img src=x onerror=alert(1)>:y.txt"
    page = with_header("# 燕礼\n", ["000_a.txt", evil])
    fields, body = split_header(page)
    assert fields["yili-seeds"] == '000_a.txt "x\\n<img src=x onerror=alert(1)>:y.txt"' and body == "# 燕礼\n"
    assert page.count("\n") == "# 燕礼\n".count("\n") + 7  # no extra line
    assert locus(evil, 3, 4) == '"x\\n<img src=x onerror=alert(1)>:y.txt":3:4'
    assert locus("000_a.txt", 3, 4) == "000_a.txt:3:4"


def test_the_makefile_parses_with_an_unsafe_seed_name(tmp_path):
    """A `:` in a seed's name broke the Makefile's rules; now make runs and the converter names it."""
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a:b.txt").write_text(HEAD + "小臣戒与者\n", encoding="utf-8")
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").touch()
    os.utime(tmp_path / "pyproject.toml", (0, 0))
    (tmp_path / "installed").touch()  # the venv's stamp, newer than pyproject.toml
    result = subprocess.run(["make", "-n", "convert", "INSTALLED=installed"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "python -m conv build --edition whole --out source" in result.stdout
    refused = run("build", "--out", str(tmp_path / "source"), cwd=tmp_path)
    assert refused.returncode == 2
    assert "seed file name 'a:b.txt' holds characters outside the safe set" in refused.stderr
