"""Entries of the 校勘记 about one place cite each other (``conv/myst/backmatter/crossrefs.py``): the
difference between the two works (异文) and 张尔岐's note of the 监本正误 whose 监本 reading the 通解 prints
too. (The misprints' cross-references: tests/test_misprints.py.)"""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conv.myst.backmatter import crossrefs

#: 张尔岐's notes whose 监本 reading the 通解 prints: (note's entry, difference's entry), the note's statement.
AGREEING = {
    ("judou-shixiangjian-21-jiao-1", "judou-shixiangjian-21-jiao-2"): "嘗誤作常",
    ("judou-xiangyinjiu-127-jiao-1", "judou-xiangyinjiu-127-jiao-2"): "序誤作席",
    ("judou-xiangyinjiu-160-jiao-1", "judou-xiangyinjiu-160-jiao-2"): "脱肫字",
    ("judou-xiangshe-45-jiao-1", "judou-xiangshe-45-jiao-2"): "脱退字",
    ("judou-xiangshe-148-jiao-1", "judou-xiangshe-148-jiao-2"): "脱坐字",
    ("judou-yanli-92-jiao-1", "judou-yanli-92-jiao-2"): "脱下升字",
    ("judou-yanli-109-jiao-1", "judou-yanli-109-jiao-2"): "脱于字",
    ("judou-dashe-21-jiao-1", "judou-dashe-21-jiao-2"): "大史誤作大夫",
    ("judou-dashe-164-jiao-1", "judou-dashe-164-jiao-2"): "比誤作北",
    ("judou-dashe-176-jiao-1", "judou-dashe-176-jiao-2"): "揖退二字之間羨一還字",
    ("judou-dashe-229-jiao-1", "judou-dashe-229-jiao-2"): "脱遂字",
    ("judou-dashe-238-jiao-1", "judou-dashe-238-jiao-2"): "實誤作賔",
    ("judou-jinli-45-jiao-1", "judou-jinli-45-jiao-2"): "旂誤作斾",
}


@pytest.fixture(scope="module")
def judou(whole_edition) -> dict[str, str]:
    """The 句读's 校勘记: entry id → its body (the MyST line)."""
    from conv.myst import writer

    page = writer.pages(whole_edition)["apparatus/judou.md"]
    return {block.split("\n", 1)[0]: block.split("\n:::", 1)[0].strip().split("\n")[-1]
            for block in page.split(":::{yl:app} ")[1:]}


def test_the_tongjie_agreeing_with_the_jianben_is_said_both_ways(judou):
    """Thirteen of 张尔岐's 监本 readings are the 通解's too (the 通解 prints 常 where the 句读 and 张尔岐 read 嘗;
    it lacks 肫, 退, 坐 …; it has the 還 he calls superfluous): each note and the difference cite each other."""
    found = {}
    for entry, body in judou.items():
        for cited in re.findall(r"通解本与监本同，(?:张尔岐《监本正误》以为误，)?见\{yl:cite\}`[^<]+<([\w-]+)>`。$", body):
            found.setdefault(tuple(sorted((entry, cited))), []).append(entry)
    assert set(found) == set(AGREEING)
    assert all(len(sides) == 2 for sides in found.values())  # both ways
    for (note, _), statement in AGREEING.items():
        assert f"，{statement}（" in judou[note]


def test_the_bodies_say_it_in_the_house_form(judou):
    assert judou["judou-shixiangjian-21-jiao-1"].endswith(
        "嘗誤作常（第八葉；见本书卷十八叶二a）。通解本与监本同，见{yl:cite}`句读·士相见礼21校2 <judou-shixiangjian-21-jiao-2>`。")
    assert judou["judou-shixiangjian-21-jiao-2"].endswith(
        "通解本作“常”（{yl:cite}`通解·士相见礼139 <tongjie-shixiangjian-139>`，卷六叶十二b）。"
        "通解本与监本同，张尔岐《监本正误》以为误，见{yl:cite}`句读·士相见礼21校1 <judou-shixiangjian-21-jiao-1>`。")
    assert "“肫”（卷四叶二十二a），通解本无（" in judou["judou-xiangyinjiu-160-jiao-2"]
    assert judou["judou-dashe-176-jiao-2"].startswith("通解本经文多“還”")


def test_a_difference_that_is_not_the_notes_reading_is_not_linked(judou, whole_dump):
    """毋違命, 毋誤作母: the 通解 prints 無, not the 监本's 母; 尊兩壺…, 壺並誤作壼: the difference there is 間/閒."""
    notes = {a["passage"]: a for a in whole_dump["apparatus"] if a["kind"] == "zhang-jianben"}
    assert (notes["judou-shihun-163"]["statement"], notes["judou-shihun-163"]["printed"]) == ("毋誤作母", "母")
    for passage in ("judou-shihun-163", "judou-xiangyinjiu-7"):
        bodies = [body for entry, body in judou.items() if entry.startswith(passage + "-")]
        assert bodies and not any("监本同" in body for body in bodies), passage


#: Characters for the property test: the two readings differ at their ends.
HAN = st.text(alphabet="大史夫比北實賔旂斾嘗常序席", max_size=4)


@given(HAN, HAN, st.sampled_from("史比實旂嘗序"), st.sampled_from("夫北賔斾常席"), HAN, HAN)
def test_the_differing_characters_are_found_exactly(prefix, suffix, first, last, right_middle, wrong_middle):
    """Whatever the shared start and end, the characters where a note's right and wrong readings differ are
    its own (大史誤作大夫 → 史, 夫)."""
    right, wrong = first + right_middle, last + wrong_middle
    if right_middle:
        right += first
    if wrong_middle:
        wrong += last
    assert crossrefs._differing(prefix + right + suffix, prefix + wrong + suffix) == (right, wrong)
