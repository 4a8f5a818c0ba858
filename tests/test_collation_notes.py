"""月令's collation notes (校语): 朱熹's readings of the 吕氏春秋 (吕), the 淮南子 (淮) and the 唐月令 (唐), which
the transcription often prints large after a note (``conv.parser.collation_notes``): a run that is such notes
through and through goes into the note before it, and so do 校语 ending or opening a run of 经; 经 stays 经."""
from __future__ import annotations

import pytest

from conv.parser.collation_notes import ending, is_collation, opening, runs_into


@pytest.mark.parametrize("run", [
    "吕唐齊皆作齋淮無是月至此一節",                      # 作 with 皆; 無…至…一節
    "吕唐毋皆作無篇内並同",                               # 篇内並同
    "吕於參作參於帥作率帝籍作藉田侯下有大夫字",            # two-character words; 下有…字
    "吕尉作封淮遂作選長大作孝弟唐大尉作相桀作傑",          # three sigla; 大尉作相 (one character fewer)
    "淮無日在角字有招摇指酉字吕淮皆作觜嶲中",              # 有…字; 皆作 with no word before it, last
    "吕日長至作長至日",
    "唐無此一節",
    "唐作三月之節日在婁昏",                               # 唐's own words for the 经's, ending the run
])
def test_collation_notes_through_and_through(run):
    assert is_collation(run)


@pytest.mark.parametrize("run", [
    "唐鸞作青路作輅倉並作蒼是月也以立春",   # 校语, then 经 (是月也…): not through and through
    "淮揔作緫藜莠蓬蒿並興",                # 校语, then 经
    "吕煖作煗惰作墮師興不居",              # 师兴不居 is 经
    "淮天作其汁作水國有大兵",              # 国有大兵 is 经
    "律中中吕",                            # 中吕, the pitch-pipe: no siglum opens it
    "吕", "淮無", "吕作",
])
def test_text_with_the_sigla_is_no_collation(run):
    assert not is_collation(run)


@pytest.mark.parametrize("run, at", [
    ("進退度數吕貸作忒淮無乃命至此一節", 4),   # 经, then 校语 to the run's end
    ("得天材淮無是月也至此節", 3),
    ("律中中吕", None),                     # 中吕 is the pitch-pipe, and nothing follows
    ("唐鸞作青路作輅倉並作蒼是月也以立春", None),  # 校语 opens the run, 经 ends it
])
def test_collation_notes_ending_a_run(run, at):
    assert ending(run) == at


@pytest.mark.parametrize("run, at", [
    ("唐鸞作青路作輅倉並作蒼是月也以立春", 11),     # 校语, then 经 (是月也…)
    ("淮揔作緫藜莠蓬蒿並興", 4),
    ("唐民作人篇内並同慶賜遂行毋有不當", 8),
    ("淮無此一節毋作大事以妨農之事", 5),           # 毋作大事 is 经: no 作 clause after a closed one
    ("吕煖作煗惰作墮師興不居", 7),
    ("淮無此二句其蟲羽", 5),                     # 無…句
    ("律中中吕", None),
])
def test_collation_notes_opening_a_run(run, at):
    assert opening(run) == at


@pytest.mark.parametrize("run, note, cut", [
    ("吕萌", "作繁", True),                                   # 萌作繁, cut by the note's (
    ("吕淮唐帥", "皆作率唐無三九字吕淮並無諸侯字", True),
    ("唐無是月至此", "一節", True),
    ("吕唐齊皆作齋", "太史禮官之屬", False),                   # whole before the note: is_collation's
    ("律中中吕", "中吕之中音仲", False),
])
def test_a_clause_the_parentheses_cut(run, note, cut):
    assert runs_into(run, note) is cut


def passage(dump: dict, passage_id: str) -> dict:
    return next(p for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]
                if p["id"] == passage_id)


def test_collation_notes_printed_large_are_in_their_notes(whole_dump):
    """月令 孟春 (卷二十六): …天子乃齊(先悉薦反…)(太史禮官之屬…)吕唐齊皆作齋淮無是月至此一節(唐無是月也以立春字…): the
    collation notes printed large are a note of the passage before, with the note in parentheses after
    them; no passage of 月令 is collation notes through and through. 校语 are 朱熹's: layer ``an`` (按语)."""
    notes = [(n["layer"], n["text"]) for n in passage(whole_dump, "tongjie-yueling-20")["notes"]]
    assert ("an", "吕唐齊皆作齋淮無是月至此一節") in notes  # 朱熹's remark (按语), not 郑注
    assert any(layer == "an" and text.startswith("唐無是月也以立春字") for layer, text in notes)
    assert notes[1][0] == "zhu"  # 太史禮官之屬…: 郑注
    (yueling,) = [c for w in whole_dump["works"] if w["id"] == "tongjie" for c in w["chapters"] if c["id"] == "yueling"]
    assert not [p["text"] for s in yueling["sections"] for p in s["passages"] if is_collation(p["text"])]
    redirect = next(r for r in whole_dump["redirects"] if r["from"] == "tongjie-yueling-21")
    assert redirect["to"] == "tongjie-yueling-20"
    # 校语 ending a run of 经 before a note open that note
    ended = passage(whole_dump, "tongjie-yueling-30")
    assert ended["text"] == "進退度數" and ended["notes"][0]["text"] == "吕貸作忒淮無乃命至此一節"
    # 校语 opening a run of 经 after a note go into that note; the 经 goes on
    assert passage(whole_dump, "tongjie-yueling-72")["text"] == "藜莠蓬蒿並興"
    assert passage(whole_dump, "tongjie-yueling-26")["text"] == "慶賜遂行毋有不當"
    # a clause the note's ( cuts: one segment, 按
    assert ("an", "吕萌作繁") in [(n["layer"], n["text"]) for n in passage(whole_dump, "tongjie-yueling-40")["notes"]]
