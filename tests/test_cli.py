"""Reading seeds and the command line: encodings, errors with file:line:col, exit codes, JSON."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import opencc
import pytest

from conv.edition import assemble

from conv.reader import source as reader
from conv.errors import ConversionError

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "conv", *args], cwd=cwd, capture_output=True, text=True)


def test_manifest_checksums_match_the_seeds():
    manifest = tomllib.loads((ROOT / "seeds" / "manifest.toml").read_text(encoding="utf-8"))["seed"]
    witness = sorted((ROOT / "seeds" / "wenyuange").glob("KR*/*.txt"))
    assert sorted(entry.get("path", entry["file"]) for entry in manifest) == sorted(
        [p.name for p in SEEDS] + [str(p.relative_to(ROOT / "seeds")) for p in witness])
    for entry in manifest:
        path = ROOT / "seeds" / entry.get("path", entry["file"])
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"], entry["file"]
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        for path in SEEDS:
            assert path.read_bytes() == (shared / "seeds" / path.name).read_bytes()
        for path in witness:
            assert path.read_bytes() == (shared / "witnesses" / "kanripo" / path.parent.name / path.name).read_bytes()


def test_bom_and_crlf_are_accepted(tmp_path):
    text = (ROOT / "seeds" / SEEDS[0].name).read_text(encoding="utf-8")
    path = tmp_path / SEEDS[0].name
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    crlf = assemble.convert([path])
    plain = assemble.convert([SEEDS[0]])
    def titles(e):
        return [s.title for s in e.works[0].chapters[0].sections]
    def texts(e):
        return [p.text for s in e.works[0].chapters[0].sections for p in s.passages]
    assert titles(crlf) == titles(plain) and texts(crlf) == texts(plain)
    source = reader.read(path)
    assert source.text.startswith("仪礼郑注句读\r\n")
    assert source.position(source.text.index("出其位")) == (3, 1)


@pytest.mark.parametrize("encoding, text", [("gbk", "仪礼郑注句读\n\n司射\n"), ("big5", "儀禮鄭注句讀\n\n司射\n")])
def test_other_encodings_refused_with_position(tmp_path, encoding, text):
    path = tmp_path / "bad.txt"
    path.write_bytes(text.encode(encoding))
    result = run("dump", str(path), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "bad.txt:1:1: not valid UTF-8: byte 0x" in result.stderr
    assert "iconv" in result.stderr


def test_invalid_byte_in_a_later_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes("仪礼郑注句读\n\n司射适".encode() + b"\xff" + "堂西\n".encode())
    with pytest.raises(ConversionError) as error:
        assemble.convert([path])
    assert (error.value.line, error.value.col) == (3, 10)
    assert "byte offset 29" in str(error.value)


def test_empty_file_is_a_clear_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("", encoding="utf-8")
    result = run("dump", str(path), "--json")
    assert result.returncode == 2 and "empty.txt:1:1: empty seed" in result.stderr


def test_unknown_work_is_a_clear_error(tmp_path):
    path = tmp_path / "other.txt"
    path.write_text("论语\n\n学而时习之\n", encoding="utf-8")
    result = run("dump", str(path), "--json")
    assert result.returncode == 2 and "other.txt:1:1: cannot recognise the work" in result.stderr


def test_dump_json_fields():
    result = run("dump", "--edition", "seeds", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) >= {"works", "dropped", "apparatus", "problems"}
    work = data["works"][0]
    assert set(work) >= {"id", "title", "chapters"}
    chapter = work["chapters"][0]
    assert set(chapter) >= {"id", "title", "sections", "meta"}
    section = chapter["sections"][1]
    assert set(section) >= {"id", "title", "title_span", "passages"}
    passage = section["passages"][0]
    assert set(passage) >= {"id", "layer", "text", "normalized", "span", "notes"}
    assert set(passage["notes"][0]) >= {"layer", "text", "normalized", "span", "glosses"}
    assert passage["span"][0] == SEEDS[0].name


def test_dump_is_deterministic():
    assert run("dump", "--edition", "seeds", "--json").stdout == run("dump", "--edition", "seeds", "--json").stdout


def test_traditional_seed_is_recognised(tmp_path):
    """A seed in traditional characters: the work from its first line, the structure the same."""
    s2t = opencc.OpenCC("s2t")
    source = (ROOT / "seeds" / SEEDS[1].name).read_text(encoding="utf-8")
    path = tmp_path / "trad.txt"
    path.write_text(s2t.convert(source), encoding="utf-8")
    edition = assemble.convert([path])
    work = edition.works[0]
    assert work.id == "judou"
    yanli = next(c for c in work.chapters if c.id == "yanli")
    assert yanli.heading == "燕禮第六"
    assert [s.title for s in yanli.sections][:3] == ["右告戒設具", "右君臣各就位次", "右命賔"]
    assert [m.kind for m in yanli.meta] == ["catalogue", "siku", "juan", "author"]


def test_unbalanced_brackets_are_reported_not_lost(tmp_path):
    path = tmp_path / "unbalanced.txt"
    path.write_text("仪礼郑注句读\n\n燕礼第六\n\n小臣戒与者】膳宰具官馔【具官馔\n\n乐人县【县钟磬也【国君\n", encoding="utf-8")
    edition = assemble.convert([path])
    assert [(p["line"], p["col"], p["kind"]) for p in edition.problems] == [
        (5, 6, "unbalanced"),  # the stray 】 after 小臣戒与者
        (7, 1, "unclosed-note"),  # the note 【具官馔 runs past the end of its line
        (7, 4, "unbalanced"),  # 【 inside a note
        (7, 9, "unbalanced"),
        (7, 12, "unclosed-note-at-end"),  # the file ends inside the note 【国君
    ]
    passages = [p for s in edition.works[0].chapters[0].sections for p in s.passages]
    assert [(p.text, [n.text for n in p.notes]) for p in passages] == [
        ("小臣戒与者膳宰具官馔", ["具官馔乐人县", "县钟磬也", "国君"]),
    ]
    assert passages[0].notes[-1].lacuna == "end"


def test_unknown_pua_is_reported(tmp_path):
    path = tmp_path / "pua.txt"
    path.write_text("仪礼郑注句读\n\n燕礼第六\n\n小臣\ue001戒与者\n", encoding="utf-8")
    edition = assemble.convert([path])
    assert [(p["line"], p["col"], p["kind"]) for p in edition.problems] == [(5, 3, "unknown-pua")]
    passage = edition.works[0].chapters[0].sections[0].passages[0]
    assert passage.text == "小臣\ue001戒与者" and "\ue001" in passage.normalized


def test_stale_correction_is_an_error(tmp_path):
    """A correction whose text no longer occurs in its seed stops the conversion."""
    from conv.parser.corrections import Corrections

    path = tmp_path / SEEDS[4].name
    path.write_text(SEEDS[4].read_text(encoding="utf-8").replace("右献庶子左右正内小臣", "右献庶子"), encoding="utf-8")
    with pytest.raises(ConversionError) as error:
        assemble.convert([path], Corrections())
    assert "correction c3" in str(error.value) and "no longer matches" in str(error.value)


def test_a_correction_that_decides_nothing_is_an_error():
    """A layer correction giving a segment the layer the converter reads there anyway (c4 made to say
    zhu, 郑注, as the classifier reads that fragment) stops the conversion at its entry: stale."""
    from conv import datafiles as data
    from conv.parser.corrections import Corrections

    entries = [dict(e, layer="zhu") if e["id"] == "c4" else e for e in data.corrections()]
    seed = next(p for p in SEEDS if p.name == "003_888d6f7486f7550d.txt")
    with pytest.raises(ConversionError) as error:
        assemble.convert([seed], Corrections(entries))
    assert str(error.value).startswith(f"conv/data/corrections.toml:{data.correction_lines()['c4']}:1: correction c4 (layer)")
    assert "reads there without it" in str(error.value) and "remove the correction" in str(error.value)


def test_large_input_conserved(tmp_path):
    """A 10 MB seed (the seeds' text repeated) converts with conservation checked."""
    body = "\n\n".join(p.read_text(encoding="utf-8").split("\n", 1)[1] for p in SEEDS[:2])
    path = tmp_path / "big.txt"
    repeats = 10_000_000 // len(body.encode("utf-8")) + 1
    path.write_text("仪礼郑注句读\n\n乡射礼第五\n\n" + "\n\n".join([body] * repeats), encoding="utf-8")
    assert path.stat().st_size >= 10_000_000
    edition = assemble.convert([path])
    assert sum(len(s.passages) for c in edition.works[0].chapters for s in c.sections) > 1000


def test_fold_is_idempotent_and_keeps_variants_table():
    from conv.normalize import fold, fold_char

    assert fold_char("薴") == fold_char("苧") == "苎"
    assert fold("賔乗\ueb8e\ue14b説竒纁") == "宾乘弦\U000f0367说奇纁"  # U+E14B: the unidentified &KR0871;
    for char in "賔乗竒隂逺説歴緑鼔髤\ueb8e\uea20\ue5ab\ue172":
        assert fold_char(fold_char(char)) == fold_char(char)
