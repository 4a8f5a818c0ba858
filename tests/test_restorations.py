"""Characters the simplified seeds merged, restored from the 文渊阁 text (conv/data/restorations.toml,
conv.parser.restorations): issue 23, point 5."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conv import datafiles as data
from conv.errors import ConversionError
from conv.parser.restorations import Restorations

from seedtext import all_passages, seed_text

ROOT = Path(__file__).resolve().parent.parent
WENYUANGE = ROOT / "seeds" / "wenyuange"


def wenyuange_text(file: str, juan: int) -> str:
    """One 卷 of the 文渊阁 transcription, markup left out (pages, columns, small characters)."""
    path = WENYUANGE / file / f"{file}_{juan:03d}.txt"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return re.sub(r"<pb:[^>]*>|[¶()/\s\u3000]", "", "".join(lines))


def test_every_entry_is_what_the_wenyuange_text_has():
    entries = data.restorations()
    assert len(entries) == 13
    for entry in entries:
        file, page, words = entry["witness"].split(" ", 2)
        juan = int(page.split("-")[0])
        assert words in wenyuange_text(file, juan), entry["witness"]
        assert entry["form"] in words and entry["char"] in entry["context"]


def test_each_restoration_is_an_apparatus_entry_and_the_witness_text_stays(dump):
    records = [a for a in dump["apparatus"] if a["kind"] == "restoration"]
    assert sorted((a["witness"], a["reading"]) for a in records) == sorted(
        (e["char"], e["form"]) for e in data.restorations())
    for record in records:
        seed, start, end = record["span"]
        assert seed_text(seed)[start:end] == record["witness"]  # the seed's character, unchanged
    named = {(a["context"], a["reading"]) for a in records}
    assert {("着并行也", "著"), ("服不者着其官", "著"), ("皆着其义", "著"), ("皆画云气", "雲"),
            ("酒清肴干", "乾"), ("笴矢干也", "幹")} <= named


def gloss(dump, text):
    return next(g for p in all_passages(dump) for n in p["notes"] for g in n["glosses"] if g["text"] == text)


def test_the_phonology_reads_the_restored_form(dump):
    ge = gloss(dump, "个音干")  # 个音幹 in the 文渊阁 text: 幹 古案切, 去声
    assert (ge["restored"], ge["position"], ge["positions"]) == ("个音幹", "見開一寒去", ["見開一寒去"])
    e = gloss(dump, "遏于葛反")  # 遏於葛反: 於 is the ordinary speller, no other reading needed
    assert (e["restored"], e["position"], e["status"], e["note"]) == ("遏於葛反", "影開一寒入", "matches", "")
    assert gloss(dump, "为于伪反")["restored"] == ""  # 為于偽反: no merge


def test_a_stale_entry_stops_the_conversion():
    entry = {"seed": "x.txt", "context": "个音干", "char": "干", "form": "幹", "witness": "KR1d0038 5-26b 个音幹", "reason": "r"}
    restorations = Restorations([entry])
    assert restorations.for_seed("x.txt", "…个音干…") == {3: entry}  # the offset of 干
    with pytest.raises(ConversionError, match="not found in x.txt"):
        restorations.for_seed("x.txt", "个音幹")
    with pytest.raises(ConversionError, match="more than once"):
        restorations.for_seed("x.txt", "个音干个音干")
    assert restorations.for_seed("y.txt", "anything") == {}


@pytest.mark.parametrize("change", [{"reason": ""}, {"char": "着"}, {"form": "乾幹"}, {"witness": "5-26b 个音幹"},
                                    {"witness": "KR1d0038 卷五叶二十六b 个音幹"}, {"witness": "KR1d0038 5-26b"}])
def test_an_incomplete_entry_is_refused(change):
    entry = {"seed": "x.txt", "context": "个音干", "char": "干", "form": "幹", "witness": "KR1d0038 5-26b 个音幹", "reason": "r"}
    with pytest.raises(ConversionError) as error:
        Restorations([{**entry, **change}])
    assert error.value.seed == "conv/data/restorations.toml"


def test_the_entry_cites_the_witness_page_as_a_reader_does(dump):
    """The data file writes the 文渊阁 place as its file, 卷-叶面 and words (``KR1d0038 5-26b 个音幹``);
    the apparatus entry carries the page as the edition prints pages and the words apart."""
    records = {a["context"]: a for a in dump["apparatus"] if a["kind"] == "restoration"}
    assert (records["个音干"]["page"], records["个音干"]["quote"]) == ("卷五叶二十六b", "个音幹")
    assert (records["堇属干之"]["page"], records["堇属干之"]["quote"]) == ("卷十五叶二十四b", "荁堇屬乾之冬滑於葵")
