"""Suspected misprints between the works (形讹候选, ``conv.collate.suspects``, ``python -m conv suspects``): a
character one work prints in a context the edition prints nowhere else, where the other work's reading stands in
two places or more. Found on the real edition, and any such perturbation of a repeated phrase found exactly."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv.collate.fold import key
from conv.collate.suspects import REPEATED, WIDTH, Block, Finder, suspects

ROOT = Path(__file__).resolve().parents[1]
WITNESS = ROOT / "seeds" / "wenyuange"


def test_the_suspects_of_the_whole_edition(whole_edition):
    """句读 大射仪's 備尚末知 (its 乡射礼 and the 通解's 乡射礼 and 大射仪 print 備尚未知), the 通解 燕礼's 笙問之篇: found,
    reviewed (conv/data/misprints.toml); their counterparts, whose words stand elsewhere, are no suspects."""
    found = {(s.anchor, s.printed): s for s in suspects(whole_edition)}
    mo = found[("judou-dashe-177", "末")]
    assert (mo.other, mo.context, mo.elsewhere, mo.reviewed) == (
        "未", "射事備尚末知當教之", ("judou-xiangshe-48", "tongjie-xiangshe-297", "tongjie-dashe-333"), True)
    wen = found[("tongjie-yanli-161", "問")]
    assert (wen.other, wen.reviewed) == ("間", True) and len(wen.elsewhere) == 3
    assert ("tongjie-dashe-333", "未") not in found and ("judou-yanli-108", "間") not in found
    weng = found[("tongjie-zhuhouxiangchao-23", "甕")]  # repeated words, no reading between the works: 飱饔餼
    assert (weng.other, weng.context, weng.reviewed) == ("饔", "人宰史皆有飱甕餼以其爵等為", True)
    for suspect in found.values():
        width = len(suspect.context) // 2
        assert suspect.context[width] == suspect.printed and width in (WIDTH, REPEATED)


def test_a_suspect_reviewed_as_standing_says_so(whole_edition, monkeypatch):
    """A reviewed decision that a suspect stands (misprints.toml ``[[stands]]``: a form, a real difference) marks it
    with its reason, and it is no longer to review; a decision whose context is not in its file stops, naming the
    data file's line."""
    from conv import datafiles as data
    from conv.errors import ConversionError

    found = {(s.anchor, s.printed): s for s in suspects(whole_edition)}
    assert found[("judou-yanli-104", "襍")].stands == "襍为雜之异体"  # conv/data/misprints.toml
    assert not found[("judou-dashe-177", "末")].stands
    monkeypatch.setattr(data, "stands", lambda: [{"seed": "KR1d0038_006.txt", "context": "復重襍亂不在此", "char": "襍",
                                                   "reason": "测试"}])
    with pytest.raises(ConversionError, match="misprints.toml:1:1: .*not found once"):
        suspects(whole_edition)


def test_the_command_lists_them_with_their_place():
    files = [WITNESS / "KR1d0038" / "KR1d0038_005.txt", WITNESS / "KR1d0038" / "KR1d0038_007.txt",
             WITNESS / "KR1d0085" / "KR1d0085_008.txt", WITNESS / "KR1d0085" / "KR1d0085_020.txt"]
    run = subprocess.run([sys.executable, "-m", "conv", "suspects", *map(str, files)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = [line for line in run.stdout.splitlines() if ": judou-dashe-177: " in line]
    assert lines == ["KR1d0038_007.txt:425:14: judou-dashe-177: 末 in 射事備尚末知當教之; 未 in 3 places (judou-xiangshe-48, "
                     "tongjie-xiangshe-297, tongjie-dashe-333): reviewed (the edition reads it otherwise)"]
    assert "suspected misprints" in run.stderr


# -- any repeated phrase, one copy perturbed ------------------------------------------------------------------

PHRASE = "天地玄黄宇宙洪荒日月盈昃辰宿列寒来暑往秋收冬藏"  # the phrase's characters
FILLER = "金生丽水玉出昆冈剑号巨阙珠称夜光"  # around it: never part of a context of the phrase
OTHER = "果珍李柰菜重芥姜"  # what the perturbed copy prints


@settings(max_examples=60, deadline=None)
@given(phrase=st.lists(st.sampled_from(PHRASE), unique=True, min_size=2 * WIDTH + 1, max_size=20).map("".join),
       data=st.data())
def test_a_perturbed_copy_of_a_repeated_phrase_is_found_exactly(phrase, data):
    """Three copies of a phrase (its characters distinct), one copy's character at ``at`` changed: that
    character, and only it, is the suspect, the other two copies its evidence; unchanged, nothing is found."""
    assert len({key(c) for c in PHRASE + FILLER + OTHER}) == len(set(PHRASE + FILLER + OTHER))
    at = data.draw(st.integers(WIDTH, len(phrase) - WIDTH - 1))
    changed = data.draw(st.sampled_from(OTHER))
    left, right = data.draw(st.text(alphabet=FILLER, max_size=6)), data.draw(st.text(alphabet=FILLER, max_size=6))
    texts = {"a": left + phrase[:at] + changed + phrase[at + 1:] + right, "b": left + phrase + right,
             "c": right + phrase + left}
    finder = Finder([Block(name, text, name + ".txt", tuple(range(100, 100 + len(text)))) for name, text in texts.items()])
    offset = 100 + len(left) + at
    found = finder.suspect("a.txt", offset, phrase[at], set())
    assert (found.anchor, found.printed, found.other, found.elsewhere) == ("a", changed, phrase[at], ("b", "c"))
    assert found.context == (left + phrase[:at] + changed + phrase[at + 1:])[len(left) + at - WIDTH:len(left) + at + WIDTH + 1]
    assert finder.suspect("b.txt", offset, changed, set()) is None  # the copy the others agree with
    assert finder.suspect("b.txt", offset, phrase[at], set()) is None  # the same character: no reading at all


@settings(max_examples=60, deadline=None)
@given(phrase=st.lists(st.sampled_from(PHRASE), unique=True, min_size=2 * REPEATED + 1, max_size=20).map("".join),
       data=st.data())
def test_a_perturbed_copy_among_repeated_words_is_found_exactly(phrase, data):
    """The same without any reading between the works: three copies of a phrase in one work's blocks, one
    changed at ``at`` — that character alone is the repeated words' suspect; unchanged, there is none."""
    at = data.draw(st.integers(REPEATED, len(phrase) - REPEATED - 1))
    changed = data.draw(st.sampled_from(OTHER))
    left, right = data.draw(st.text(alphabet=FILLER, max_size=6)), data.draw(st.text(alphabet=FILLER, max_size=6))
    texts = {"a": left + phrase[:at] + changed + phrase[at + 1:] + right, "b": right + phrase, "c": phrase + left}
    blocks = [Block(name, text, name + ".txt", tuple(range(len(text)))) for name, text in texts.items()]
    found = Finder(blocks).repeated(REPEATED, set())
    assert [(s.anchor, s.offset, s.printed, s.other, s.elsewhere) for s in found] == [
        ("a", len(left) + at, changed, phrase[at], ("b", "c"))]
    texts["a"] = left + phrase + right
    assert Finder([Block(name, text, name + ".txt", tuple(range(len(text)))) for name, text in texts.items()]
                  ).repeated(REPEATED, set()) == []
