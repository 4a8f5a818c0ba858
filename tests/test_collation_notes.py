"""月令's collation notes (校语): 朱熹's readings of the 吕氏春秋 (吕), the 淮南子 (淮) and the 唐月令 (唐), which
the transcription often prints large after a note (``conv.parser.collation_notes``): a run that is such notes
through and through goes into the note before it, and so do 校语 ending or opening a run of 经; 经 stays 经."""
from __future__ import annotations

import json

import pytest

from conv.parser import collation_notes
from conv.parser.collation_notes import ending, is_collation, opening, opens, runs_into


@pytest.mark.parametrize("run", [
    "吕唐齊皆作齋淮無是月至此一節",                      # 作 with 皆; 無…至…一節
    "吕唐毋皆作無篇内並同",                               # 篇内並同
    "吕於參作參於帥作率帝籍作藉田侯下有大夫字",            # two-character words; 下有…字
    "吕尉作封淮遂作選長大作孝弟唐大尉作相桀作傑",          # three sigla; 大尉作相 (one character fewer)
    "淮無日在角字有招摇指酉字吕淮皆作觜嶲中",              # 有…字; 皆作 with no word before it, last
    "吕日長至作長至日",
    "唐無此一節",
    "唐作三月之節日在婁昏",                               # 唐's own words for the 经's, ending the run
    "諸本帥並作率反並作乃",                               # 諸本: all the other texts
    "諸本並無一身字耆皆作嗜",                             # 並無…字
    "諸本見仲冬章",                                       # (the readings) see the 仲冬 章
    "唐以此一節屬下文", "淮唐皆以此屬下文", "唐屬後九月章", "唐以此一節屬孟春章",  # where 唐 places a 節
    "諸本上下並與孟春文同今以唐本刪後倣此",               # 朱熹 follows the 唐月令 here
    "唐上四字見上文亦無下六字",                           # 上…字見上文; 亦無…字
    "淮肆作笞下有養幼小存孤獨以通句萌擇元日令民社十六字",  # 下有…十六字: sixteen words, counted
    "淮無是月也雛作雉唐無此一節",                         # 無是月也 with no 字
    "唐自是月也樹木至此屬下文",
    "淮無此章文並見季夏章",
    "吕氏春秋及淮鴻鴈來皆作候鴈北",                       # 吕 written out, two sigla joined by 及
    "淮巢下無毋字及孩蟲飛鳥字",                           # A下無…字, 及…字
    "淮以此句屬下文",
    "吕作霾髊淮作薶胔",                                   # 作 with no word before it, before another siglum
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
    "淮肆作笞下有養幼小存孤獨以通句萌擇元日令民社十五字",  # the count is wrong: too long for words
    "唐此下有其性禮其事視其味苦其臭焦",                   # a quotation whose end the run does not show
    "諸本",
])
def test_text_with_the_sigla_is_no_collation(run):
    assert not is_collation(run)


@pytest.mark.parametrize("run, at", [
    ("進退度數吕貸作忒淮無乃命至此一節", 4),   # 经, then 校语 to the run's end
    ("得天材淮無是月也至此節", 3),
    ("律中中吕", None),                     # 中吕 is the pitch-pipe, and nothing follows
    ("唐鸞作青路作輅倉並作蒼是月也以立春", None),  # 校语 opens the run, 经 ends it
    ("申重也當謂值其罪諸本皆無乃字", 8),     # the end of a 注, then 諸本's 校语
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
    ("唐以此一節屬", "下文", True),
    ("諸本見仲春", "章", True),
    ("唐無", "此一節", True),
    ("吕", "是月也", False),
    # a quotation's end may lie in the run or in the note: read place by place (note_runs.toml), not by rule
    ("唐云", "立春之日東風解凍後五日蟄蟲始振後五日魚上永仍以獺祭魚鴻鴈來兩句入後章", False),
    ("淮此下有十月官司馬其樹檀仲冬之月日在斗昏東辟中旦軫中", "仲冬者日月㑹於星紀而斗", False),
])
def test_a_clause_the_parentheses_cut(run, note, cut):
    assert runs_into(run, note) is cut


@pytest.mark.parametrize("text, collation", [
    ("唐此下有命樂正習舞上丁釋奠於國學天子乃率公卿諸侯親往視之", True),  # 唐's words quoted: a 校语 note
    ("唐此下别分一章云七月中氣日在張昏箕中曉", True),
    ("吕此下有行之是令是月甘雨三至三旬二日", True),
    ("唐此上有命有司此下有是月也趣人收斂務蓄菜十字", True),
    ("淮無此章文並見季夏章", True),
    ("吕唐並作鷙淮作摰", True),
    ("唐親東鄉躬桑作享先蠶而躬桑無禁婦女無觀省婦使字", True),  # a siglum, then 作 within a few characters
    ("唐命有上有是月也必當下有無留有罪仍以此一節屬後章", True),
    ("淮無告備於天子", True),
    ("淮此一節云天子衣白衣乗白輅服白玉建白旗食麻與犬", True),
    ("淮唐帥反並同吕本", True),
    ("淮以命相至此一節屬上文", True),
    ("唐與淮同并無則有天殃四字", True),
    ("唐分此下别為一章曰三月中氣日在胃昏張中曉南斗中斗", True),
    ("唐虞之世以德化民", False),                           # 唐 with no mark after it
    ("唐尚書云十六㪷曰庾昭謂此庾露積穀也", False),          # 韋昭's 注 quoting 唐固 (唐尚書): no 校语
    ("吕氏曰國無遊民則生者衆矣", False),                    # 吕大临's words
    ("淮南子時則訓篇無日在營室字有招謡指寅字", True),          # 淮 written out
    ("唐本作正月之節日在虚昏觜中曉心中斗建寅位之初", True),
    ("大廟大室中央室也大路殷路也", False),           # 郑注
    ("唐虞之際", False),
])
def test_a_note_that_opens_with_collation(text, collation):
    assert opens(text) is collation


@pytest.mark.parametrize("run, quoting", [
    ("唐云", True), ("唐作", True), ("唐此下有其性禮其事視其味苦其臭焦", True), ("淮此下", True),
    ("吕淮唐此上有是月也", True), ("諸本此下有", True),
    ("唐鸞作青路作輅", False),  # A作B, no quotation
    ("唐", False), ("律中中吕", False),
])
def test_a_quotation_whose_end_the_grammar_cannot_tell(run, quoting):
    assert collation_notes.quoting(run) is quoting


@pytest.mark.parametrize("before, text, goes_on", [
    ("淮無慎盖字", "屋作居無以固至沮泄八字房作藏又作有喪下有急捕盜賊", True),   # 淮's clauses go on
    ("唐無是月也字", "草木黄落已見上文", True),
    ("淮無是月至此一節唐反作還執", "爵作讌飲于作於無三九字", True),
    ("淮無乃字割作禱祠作祭無及門閭字", "臘作畢饗無五祀字", True),
    ("淮無是月也字", "大事兵役之屬", False),                              # a 注
    ("今按此句當屬上章", "臘作畢饗無五祀字", False),                      # no 校语 before it
])
def test_collation_notes_the_parentheses_cut(before, text, goes_on):
    assert collation_notes.goes_on(before, text) is goes_on


def passage(dump: dict, passage_id: str) -> dict:
    return next(p for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]
                if p["id"] == passage_id)


def test_collation_notes_printed_large_are_in_their_notes(whole_dump):
    """月令 孟春 (卷二十六): …天子乃齊(先悉薦反…)(太史禮官之屬…)吕唐齊皆作齋淮無是月至此一節(唐無是月也以立春字…): the
    collation notes printed large are a note of the passage before, with the note in parentheses after
    them; no passage of 月令 is collation notes through and through. 校语 are 朱熹's: a layer of their own, ``jiao``."""
    notes = [(n["layer"], n["text"]) for n in passage(whole_dump, "tongjie-yueling-20")["notes"]]
    assert ("jiao", "吕唐齊皆作齋淮無是月至此一節") in notes  # 朱熹's 校语, not 郑注
    assert any(layer == "jiao" and text.startswith("唐無是月也以立春字") for layer, text in notes)
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
    assert ("jiao", "吕萌作繁") in [(n["layer"], n["text"]) for n in passage(whole_dump, "tongjie-yueling-40")["notes"]]


def test_quotations_and_notes_printed_large_in_yueling_are_in_their_notes(whole_dump):
    """月令's 校语 that quote another text (唐此下有…, 淮此下有…) and the words of 注 printed large around them were
    read place by place (note_runs.toml): 孟夏 …亦舉其成數)唐此下有其性禮其事視其味苦其¶臭焦(火之臭味也…): the 校语
    is a note of 其數七, 其味苦其臭焦 is 经 again; 孟冬's last 校语 (淮此下有十月官司馬其樹檀) no longer swallows
    仲冬's first 经. No 月令 passage holds 校语 the grammar reads, and none is left for a reader to review."""
    assert [(n["layer"], n["text"]) for n in passage(whole_dump, "tongjie-yueling-193")["notes"]] == [
        ("zhu", "火生數二成數七但言七者亦舉其成數"), ("jiao", "唐此下有其性禮其事視")]
    assert passage(whole_dump, "tongjie-yueling-194")["text"] == "其味苦其臭焦"
    assert passage(whole_dump, "tongjie-yueling-576")["notes"][-1] == {**passage(whole_dump, "tongjie-yueling-576")["notes"][-1],
                                                                       "layer": "jiao", "text": "淮此下有十月官司馬其樹檀"}
    assert passage(whole_dump, "tongjie-yueling-577")["text"] == "仲冬之月日在斗昏東辟中旦軫中"
    assert ("jiao", "埋胔吕作霾髊淮作薶\U000f07c6") in [(n["layer"], n["text"]) for n in passage(whole_dump, "tongjie-yueling-56")["notes"]]
    (yueling,) = [c for w in whole_dump["works"] if w["id"] == "tongjie" for c in w["chapters"] if c["id"] == "yueling"]
    texts = [p["text"] for s in yueling["sections"] for p in s["passages"]]
    assert not [t for t in texts if collation_notes.quotation_at(t) is not None or opening(t) is not None
                or ending(t) is not None]
    assert not [p for p in whole_dump["problems"] if p["kind"] == "collation-in-text"]
    redirect = next(r for r in whole_dump["redirects"] if r["from"] == "tongjie-yueling-17")  # 唐云｜(立春之日…)
    assert redirect["to"] == "tongjie-yueling-15"  # where 16 went too: its words (將北反其居…) are the 注 of 15


def test_the_five_notes_are_jing(whole_dump):
    """孟夏 其音徵 (卷二十六叶二十八a, 其｜音徵 over a column): 经 like 其音角 and 其音宫, no 直音 of 其 (a [[jing]]
    entry), with its 音义 徵張里反 in its note."""
    assert passage(whole_dump, "tongjie-yueling-191")["text"] == "其蟲羽"
    heard = passage(whole_dump, "tongjie-yueling-679")
    assert heard["text"] == "其音徵" and [(n["layer"], n["text"]) for n in heard["notes"]][0] == ("yin", "徵張里反")


def test_a_reader_sees_and_hides_the_jiao_as_a_layer_of_their_own(whole_html):
    """The 校语 are a layer of their own on the page: 〔校语〕 before each, a toggle in the toolbar of 月令 (and of no
    page without them), their own class for the search (``_search``: layer ``jiao``), apart from 朱熹's 今按 (按)."""
    from bs4 import BeautifulSoup
    page = BeautifulSoup(whole_html.html("tongjie/yueling"), "html.parser")
    toggles = [box["data-layer"] for box in page.select('input[type="checkbox"][data-layer]')]
    assert toggles == ["zhu", "an", "jiao", "yin"]
    notes = page.select(".yl-note.yl-jiao")
    assert len(notes) == 494 and all(n.select_one(".yl-lead").get_text() == "〔校语〕" for n in notes)
    for shown in page.select(".yl-n, .yl-ed"):  # the witness's words alone: not the reading forms, brackets, marks
        shown.decompose()
    assert "吕唐齊皆作齋淮無是月至此一節" in [n.get_text() for n in page.select("#tongjie-yueling-20 .yl-note.yl-jiao")]
    assert [n.get_text() for n in page.select("#tongjie-yueling-254 .yl-note.yl-an")] == ["今按此句當屬上章舉長大之下"]
    other = BeautifulSoup(whole_html.html("tongjie/shiguan"), "html.parser")
    assert "jiao" not in [box["data-layer"] for box in other.select('input[type="checkbox"][data-layer]')]
    units = json.loads((whole_html.outdir / "_search" / "tongjie" / "yueling.json").read_text(encoding="utf-8"))["u"]
    (unit,) = [u for u in units if u[0] == "tongjie-yueling-1"]
    assert ["jiao", "淮南子時則訓篇無日在營室字有招謡指寅字"] in unit[3]

