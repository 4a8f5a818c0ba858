"""音义 the 通解's transcription cuts with its parentheses (括号截断的音义), KR1d0085 through the
converter: a gloss whose rest opens the next column after the note's ``)`` (…(甒亡)¶甫反(…), a gloss
printed with no character right after the character it glosses (蹈(徒報反)), 音 before a 反切
(或音户江反) and 一音 (another reading). Each is one gloss of a 音义 segment, read in the 《广韵》; no
passage of the 经 is left holding a gloss's rest."""
from __future__ import annotations

import re

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from conv.parser import unbracketed
from conv.parser.gloss_edges import gloss_run_after
from conv.parser.report import SeedReport
from conv.parser.unbracketed import Unbracketed
from conv.reader.lexer import tokenize
from conv.reader.source import Source
from dumps import chapter_passages
from tongjie_pieces import PIECES


@pytest.fixture(scope="module")
def dump(tongjie_alone):
    """The 通解's 37 files converted once per session (``tongjie_alone``): the JSON of ``python -m conv dump``."""
    return tongjie_alone[1]


@pytest.fixture(scope="module")
def tongjie(tongjie_alone):
    """The chapters by id."""
    return tongjie_alone[2]


def segment(chapter: dict, text: str, ending: str = "") -> tuple[dict, dict]:
    """The one passage (its text ending with ``ending``) whose notes hold a segment reading exactly
    ``text``, and that segment."""
    (found,) = [(p, n) for p in chapter_passages(chapter) for n in p["notes"] if n["text"] == text and p["text"].endswith(ending)]
    return found


def readings(note: dict) -> list[tuple]:
    return [(g["text"], g["char"], g["kind"], g["upper"], g["lower"], g["sound"]) for g in note["glosses"]]


@pytest.mark.parametrize("chapter, gloss, ending, reading", [
    # 士昏禮 (002): …側尊甒醴于房中(甒亡)¶<pb>¶甫反(徹几改筵者…: 甒 广韵 文甫切
    ("shihun", "甒亡甫反", "側尊甒醴于房中", ("甒亡甫反", "甒", "fanqie", "亡", "甫", None)),
    # 內則 (003): …無改焉(相息)¶亮反(改改行以救菑)…: a column the layout ended a paragraph with
    ("neize", "相息亮反", "有菑禍興而無改焉", ("相息亮反", "相", "fanqie", "息", "亮", None)),
    # 曲禮 (006): …進尾(濡音)儒(擗之由後…: a 直音
    ("shixiangjian", "濡音儒", "羞濡魚者進尾", ("濡音儒", "濡", "zhiyin", None, None, "儒")),
    # 士昏禮: (枋彼)¶命反(…: the rest alone, a reading of 柄 the 广韵 files under another character
    ("shihun", "枋彼命反", "主人阼階上拜送", ("枋彼命反", "枋", "fanqie", "彼", "命", None)),
])
def test_a_gloss_whose_rest_opens_the_next_column(tongjie, chapter, gloss, ending, reading):
    _, note = segment(tongjie[chapter], gloss, ending)
    assert note["layer"] == "yin" and readings(note)[0] == reading


def test_no_passage_is_the_rest_of_a_gloss(tongjie):
    """Of the passages that were only a 反切's rest (甫反, 亮反, 反 …), one is left in the 通解 converted
    alone (in the whole edition a seed holds its stretch). The 反 of 曲禮's (…量音亮一音良斗斛也齊一作韲同子兮)¶反(…
    goes into its note since the 释文's variant between glosses is read (齊一作韲同 before 子兮反); the rests
    the rules cannot join (榛側南反 and 湛子亷¶反, readings the 广韵 lacks; 思息¶利反, 跌大¶結反, 袚芳弗¶反 after
    a run of 经 text; 徴張)¶里反, (隃式注式朱二)¶反, (條衣註他)¶刀反 after notes the grammar cannot read) were read
    and listed (conv/data/note_runs.toml)."""
    rests = [p["text"] for c in tongjie.values() for p in chapter_passages(c) if re.fullmatch(r".{0,2}[反切]", p["text"])]
    assert rests == ["反"]


@pytest.mark.parametrize("chapter, note, after, reading", [
    # 學制 (018): …以事有司告以樂闋¶(苦穴反)王乃命…
    ("wuxue", "苦穴反", "司告以樂闋", ("苦穴反", "闋", "fanqie", "苦", "穴", None)),
    # 學制: …而功不匱(求位反一作遺)矣: a variant after the reading
    ("wuxue", "求位反一作遺", "而功不匱", ("求位反一作遺", "匱", "fanqie", "求", "位", None)),
    # 踐阼 (017): …行以¶采茨(才資反)趨以肆夏…
    ("jianzuo", "才資反", "行以采茨", ("才資反", "茨", "fanqie", "才", "資", None)),
])
def test_a_gloss_printed_after_the_character_of_the_jing_it_glosses(tongjie, chapter, note, after, reading):
    _, found = segment(tongjie[chapter], note, after)
    assert found["layer"] == "yin" and readings(found) == [reading]
    assert found["glosses"][0]["before"] is True


@pytest.mark.parametrize("chapter, note, reading", [
    # 內治 (004): …(節謂居處故事履蹈地也言不但不滿容而已)蹈(徒報反)王季復膳…: 蹈 is the 注's
    ("neizhi", "蹈徒報反", ("蹈徒報反", "蹈", "fanqie", "徒", "報", None)),
    # 內則 (003): …(雖有勤勞不敢觧倦)倦¶(本又作勌其卷反)不友…: a variant, then the reading
    ("neize", "倦本又作勌其卷反", ("倦本又作勌其卷反", "倦", "fanqie", "其", "卷", None)),
    # 聘禮 (021): …(納者出道入也)道¶(音導)士介入門右…: a 直音
    ("pinli", "道音導", ("道音導", "道", "zhiyin", None, None, "導")),
    # 少儀 (010): …盻莫遍反覆¶(芳伏反髲皮義反…): left after glosses outside the parentheses
    ("shaoyi", "為于偽反號户髙反盻莫遍反覆芳伏反髲皮義反袪丘魚反肄以二反",
     ("為于偽反", "為", "fanqie", "于", "偽", None)),
])
def test_the_character_of_a_gloss_on_the_zhu_goes_into_the_gloss(tongjie, chapter, note, reading):
    """A character alone between two notes, standing in the 注 before it, whose reading opens the note
    after it, is that 音义's character printed small: it opens the 音义 (no passage of 经 is made of
    it), and the 校勘记 says so."""
    passage, found = segment(tongjie[chapter], note)
    assert found["layer"] == "yin" and readings(found)[0] == reading
    assert not any(g["before"] for g in found["glosses"])
    assert passage["text"] not in ("蹈", "倦", "道", "覆")


def test_each_character_moved_into_its_gloss_is_recorded(dump):
    from conv.myst.backmatter.entry_words import note_words_body
    moved = [r for r in dump["apparatus"] if r["kind"] == "note-words" and r["evidence"] == "gloss"]
    assert sorted(r["text"] for r in moved) == sorted("倦辟蹈圜行覆道為")
    assert note_words_body(moved[0], None) == (
        f"“{moved[0]['text']}”一字，录入本在括号外，今归其后之音义：字见其前注中，其后音义释其音。")


def test_a_tone_printed_after_the_character_it_reads(tongjie):
    """保傅 (017 l.37): …不¶使見惡行(去聲)於是皆選…: 朱熹's tone alone, right after the character of the 经 it
    reads (惡行: 行 in the 去声, 下孟切, the conduct): its 音义, glossing 行, as 長上聲 glosses 長; a tone the
    character has no reading in is no gloss of it (之, only 平声)."""
    _, found = segment(tongjie["baofu"], "去聲", "使見惡行")
    assert found["layer"] == "yin" and [(g["text"], g["char"], g["remark"], g["related"], g["before"])
                                        for g in found["glosses"]] == [("去聲", "行", "tone", "去", True)]
    assert gloss_run_after("去聲", "之") is None and gloss_run_after("上聲", "長") is not None


def test_a_note_that_reads_otherwise_stays_a_note():
    """Prose after a character is no gloss of it: 反其位 after 宾, 音也 after 之; nor is a reading
    the 广韵 does not give the character (茨才資反 yes, 宾才資反 no)."""
    assert gloss_run_after("反其位", "宾") is None and gloss_run_after("音也", "之") is None
    assert gloss_run_after("才資反", "茨") is not None and gloss_run_after("才資反", "宾") is None


def test_readings_with_yin_and_another_reading(tongjie):
    """內則 (003 l.379): 降音絳下及注同或音户江反…: 音 before a 反切, the reading of 降 that 或 gives;
    鄉射 (008 l.305): 挾音協一音子協反: 一音, another reading of 挾. Before, 江反 and 協反 were 注."""
    _, note = segment(tongjie["neize"], "降音絳下及注同或音户江反彈徒丹反又徒旦反")
    assert [(g["text"], g["char"], g["second"], g["related"]) for g in note["glosses"]][:2] == [
        ("降音絳下及注同", "降", False, None), ("或音户江反", "降", True, "或")]
    _, note = segment(tongjie["xiangshe"], "決古宂反挾音協一音子協反乗繩證反")
    assert ("一音子協反", "挾", "fanqie", "子", "協", None) in readings(note)


@pytest.mark.parametrize("tail, run, done", [
    ("甒亡", "甫反", 2), ("濡音", "儒", 1), ("肶昌私", "反", 1), ("婁力", "候反氐丁兮反", 2),
    # governed by the glosses before it: a second reading, an authority's, a scope going on
    ("灑本又作洒所買反又", "所賣反埽素報反", 3), ("逺近間並如字間徐古辦", "反", 1), ("見賢遍反下注婦見", "皆同", 2),
    ("迎魚敬反下同先悉薦反下及注同", "先謂倡道也倡昌亮反", 0),  # a 注 after the glosses: no definition
    ("召音邵", "相去聲", 0),  # the reading whole in the note: 相去聲 is a gloss of its own
    ("謂鄉飲酒之禮畢之也", "賓反", 0),  # a 注, then 经: no reading
])
def test_how_much_of_a_run_completes_the_notes_gloss(tail, run, done):
    assert unbracketed._completion(tail, run) == done


def test_a_shu_whose_head_follows_glosses_goes_on_into_the_next_note(tongjie):
    """鄉射 (008): …為其被地)摳苦侯反被皮義反疏曰說屨低身¶(若不摳衣恐衣被地…): the glosses and the 疏's head
    outside the parentheses go into the note before; the 疏 goes on into the note after, one segment
    (76 疏 of the 通解 were cut so, their second half read as 注)."""
    (note,) = [n for p in chapter_passages(tongjie["xiangshe"]) for n in p["notes"] if n["text"].startswith("疏曰說屨低身")]
    assert note["layer"] == "shu" and note["text"].startswith("疏曰說屨低身若不摳衣恐衣被地履之")
    cut = [n for c in tongjie.values() for p in chapter_passages(c) for i, n in enumerate(p["notes"][:-1])
           if n["layer"] == "shu" and len(n["text"]) <= 12 and p["notes"][i + 1]["layer"] == "zhu"]
    assert cut == []


def test_a_tone_is_a_gloss_and_goes_into_its_note(tongjie):
    """中庸 (016): …恐懼乎其所不聞離去聲(離去聲…: 朱熹's tone of 離, small characters outside the
    parentheses, was the 经's last words; it is a 音义 of its own (kind other, remark tone). Right after a
    gloss a tone is that gloss's definition (刌寸本反寸上声), and 皆去聲 names no character."""
    passage, note = segment(tongjie["zhongyong"], "離去聲")
    assert passage["text"].endswith("恐懼乎其所不聞") and note["layer"] == "yin"
    (gloss,) = note["glosses"]
    assert (gloss["char"], gloss["kind"], gloss["remark"], gloss["related"]) == ("離", "other", "tone", "去")
    from conv.parser.glosses import parse_run
    assert [(g.text, g.definition) for g in parse_run("刌寸本反寸上声割也")[0]] == [("刌寸本反寸上声割也", "寸上声割也")]
    assert not [g for g in parse_run("惡好上字皆去聲")[0] if g.char == "皆"]


# -- the rewrite over two lines, as a property ---------------------------------------------------

CUT_PIECES = ["(甒亡)", "甫反", "(濡音)", "儒", "(從才用反)", "後從者皆同", "(節謂履蹈地也)", "蹈", "(徒報反)", "離去聲"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES + CUT_PIECES), min_size=2, max_size=12), st.integers(min_value=1, max_value=11))
def test_the_rewrite_of_two_lines_keeps_every_character(pieces, at):
    """A gloss cut at one line's end goes on at the next line's start (a note reopened by a 【 of no
    width): each line's characters stay in its tokens, and no line opens a note inside a note."""
    at = min(at, len(pieces) - 1)
    lines = ["".join(pieces[:at]), "".join(pieces[at:])]
    text = "\n".join(lines).replace("(", "【").replace(")", "】")
    source = Source("KR1d0085_007.txt", text)
    rewrite = Unbracketed(text, SeedReport(source))
    start = 0
    for line in lines:
        before = tokenize(text, start, start + len(line))
        after = rewrite.adjust(before, "")
        text_of = lambda tokens: [o for t in tokens if t.kind in ("text", "circle") for o in range(t.start, t.end)]
        assert sorted(text_of(after)) == text_of(before)
        depth = 0
        for token in after:
            depth += {"open": 1, "close": -1}.get(token.kind, 0)
            assert depth in (-1, 0, 1)  # (-1: the note the line before left open goes on and closes here)
        start += len(line) + 1


def test_the_rest_at_the_next_line_s_start_reopens_the_note():
    """…(甒亡)¶甫反(徹几…: the second line opens with a 【 of no width before 甫 (the parser reopens
    the note the line before closed), and the note's 【 after 反 is a separator."""
    lines = ["主人徹几改筵東上側尊甒醴于房中【甒亡】", "甫反【徹几改筵者鄉為神】"]
    text = "\n".join(lines)
    rewrite = Unbracketed(text, SeedReport(Source("KR1d0085_002.txt", text)))
    rewrite.adjust(tokenize(text, 0, len(lines[0])), "")
    start = len(lines[0]) + 1
    after = rewrite.adjust(tokenize(text, start, len(text)), "")
    assert [(t.kind, text[t.start:t.end]) for t in after][:4] == [
        ("open", ""), ("text", "甫反"), ("ideo", "【"), ("text", "徹几改筵者鄉為神")]
