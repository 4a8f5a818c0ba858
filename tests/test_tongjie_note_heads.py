"""A 通解 note begun outside its parentheses (注首在括号外): the word a 章句 note repeats opens that
note, an editor's mark opens a remark, a 反切 cut by a note's parenthesis is one gloss — KR1d0085's
37 files through the seeds' parser, and what the reader is told of each move. (The rest of the
通解's witness: ``test_tongjie_witness.py``.)"""
from __future__ import annotations

import re

import pytest

from dumps import chapter_passages, tongjie_file


# -- the notes ------------------------------------------

def test_the_word_a_zhangju_note_repeats_opens_that_note(tongjie_alone):
    """大學之道…至善(程子曰親當作新)大學¶(者大人之學也…: 者 cannot open a note; 大學, standing
    between two notes and repeating the 经 before it, is the opening of 朱熹's note."""
    _, dump, chapters, _ = tongjie_alone
    text = tongjie_file("KR1d0085_015.txt")
    line = text.splitlines()[164]  # line 165
    assert line.endswith("(程子曰親當作新)大學¶")
    at = text.index(line) + line.index(")大學") + 1
    passage = next(p for p in chapter_passages(chapters["daxue"]) if p["text"].startswith("大學之道"))
    assert passage["text"] == "大學之道在明明徳在親民在止於至善"
    first, note = passage["notes"][:2]
    assert first["text"] == "程子曰親當作新"
    assert note["text"].startswith("大學者大人之學也明明之也明徳者")
    assert note["span"][:2] == ["KR1d0085_015.txt", at]
    assert not any(p["text"] == "大學" for p in chapter_passages(chapters["daxue"]))
    (entry,) = [a for a in dump["apparatus"] if a["kind"] == "note-words" and a["span"][0] == "KR1d0085_015.txt"
                and a["span"][1] == at]
    assert entry["span"] == ["KR1d0085_015.txt", at, at + 2] and entry["text"] == "大學"
    assert (entry["line"], entry["col"]) == (165, line.index(")大學") + 2)
    assert "者" in entry["reason"] and entry["evidence"] == "zhangju"


def test_every_word_moved_into_its_note_is_a_repeated_lemma(tongjie_alone):
    _, dump, _, _ = tongjie_alone
    moved = [a for a in dump["apparatus"] if a["kind"] == "note-words" and a["evidence"] == "zhangju"]
    assert {a["text"] for a in moved} >= {"大學", "使", "擯", "以鐘鼔"}
    for entry in moved:
        name, start, end = entry["span"]
        text = tongjie_file(name)
        assert text[start:end] == entry["text"] and text[start - 1] == ")"
        assert re.match(r"[¶\s]*(<pb:[^>]*>[¶\s]*)?\(者", text[end:])
        assert entry["text"] in text[:start - 1]  # the word stands in the text before it


def test_words_before_a_note_that_no_rule_settles_stay_as_transcribed(tongjie_alone):
    """…則修刑序成謂上五(者次序已成而)…: 序成謂上五 may be the note's lemma, but it is a run of 经 as
    well; and 有罪過謂邪惡之人所罪過¶(者也…: the parser cannot tell where the 经 ends."""
    _, dump, chapters, _ = tongjie_alone
    texts = [p["text"] for c in chapters.values() for p in chapter_passages(c)]
    assert any(t.endswith("序成而有不至則修刑序成謂上五") for t in texts)
    assert any(t.endswith("有罪過謂邪惡之人所罪過") for t in texts)
    moved = {a["text"] for a in dump["apparatus"] if a["kind"] == "note-words"}
    assert not moved & {"序成謂上五", "上五", "所罪過", "罪過"}


def test_the_reader_reads_each_move_in_chinese_on_its_passage(tongjie_alone):
    from conv.myst.backmatter.apparatus import Apparatus  # the 校勘记 as the reader's page has it
    edition, _, _, _ = tongjie_alone
    entries = [e for e in Apparatus(edition).interventions["tongjie"] if e.kind == "note-words"
               and e.reason.startswith("the run stands alone")]  # the lemmas (the 句读's: tests/test_note_runs.py)
    bodies = {e.locus.anchor: e.body for e in entries}
    assert bodies["tongjie-daxue-2"] == "“大學”二字，录入本在括号外，今归其后之注：注以“者”起，所释经文当在其前。"
    assert bodies["tongjie-shihun-6"].startswith("“使”一字，录入本在括号外")
    assert all(not re.search("[A-Za-z]", e.body) for e in entries)  # no English for the reader
    assert len(entries) == 4  # 大學, 使, 擯, 以鐘鼔: a maintainers' reason in English, the reader's in Chinese


def test_the_passages_keep_their_anchors_and_the_lemmas_passages_redirect(tongjie_alone):
    """The passage that lost no 经 but gained a note keeps its anchor (its fingerprint is the new
    one); the passage the lemma alone made is a redirect to it, so citations of it still land."""
    from conv.anchors.ledger import Ledger
    edition, dump, chapters, _ = tongjie_alone
    ledger = Ledger.load()
    moved = [a for a in dump["apparatus"] if a["kind"] == "note-words" and a["evidence"] == "zhangju"]
    ids = {p["id"]: p for c in chapters.values() for p in chapter_passages(c)}
    for entry in moved:
        name, start, _ = entry["span"]
        (owner,) = [p for p in ids.values() for n in p["notes"] if n["span"][0] == name and n["span"][1] == start]
        kept = ledger.get(owner["id"])
        assert kept.live and (kept.seed, kept.start, kept.end) == tuple(owner["span"])
        (old,) = [e for e in ledger.entries.values() if e.status == "redirect" and (e.seed, e.start) == (name, start)]
        # the redirect lands on the owner, directly or through a later redirect of the passage it named
        # (tongjie-yuezhi-26 → 25 → 24: 25 joined 24 when the 20-cell column ran on)
        assert ledger.final(old.anchor) == owner["id"] and old.anchor not in ids
    assert {e["text"] for e in moved} and ledger.get("tongjie-daxue-3").to == "tongjie-daxue-2"


@pytest.mark.parametrize("chapter, opening, layer", [
    ("neize", "今按婦人不冠則所謂吉笄", "an"),  # 内則: the continuators' remark (its 今 outside the parentheses)
    ("shiguan", "今詳注文罍下及字恐誤", "an"),
    ("shiguan", "又按初儀見上三醮唯攝酒及有乾肉折俎", "an"),
    ("shiguan", "今案再醮唯攝酒加籩豆為異不言如初者可知也", "an"),
    ("shiguan", "今按忖亦作刌疑即切字寫誤為二耳", "an"),  # 今｜(按忖…: the 今 at a column's foot (note_runs.toml)
    ("shiguan", "案冬官畫繢之事云青與白相次", "zhu"),  # 案 opens 疏's own sentences: not taken for a remark
])
def test_a_note_opening_with_an_editors_mark_is_a_remark(tongjie_alone, chapter, opening, layer):
    _, _, chapters, _ = tongjie_alone
    (note,) = [n for p in chapter_passages(chapters[chapter]) for n in p["notes"] if n["text"].startswith(opening)]
    assert note["layer"] == layer


def test_a_fanqie_cut_by_a_notes_parenthesis_is_one_gloss(tongjie_alone):
    """內則 (KR1d0085_003 l.32–33): …纚山綺反纋一¶(尤反)左右佩用…: 纋一尤反 is one 反切 (纋, 广韵 於求切), its
    character and upper speller at a column's foot, its lower speller and 反 in the note; 曲禮's 首手又¶(反)
    likewise. 聘義's 文伯復命(反命於晉君) is 经 before its note: 伯 is no reading of 復命反."""
    _, _, chapters, _ = tongjie_alone
    (passage,) = [p for p in chapter_passages(chapters["neize"]) if any(n["text"] == "纋一尤反" for n in p["notes"])]
    (note,) = [n for n in passage["notes"] if n["text"] == "纋一尤反"]
    assert note["layer"] == "yin" and [g["text"] for g in note["glosses"]] == ["纋一尤反"]
    assert not [p for c in chapters.values() for p in chapter_passages(c) if p["text"] in ("纋一", "首手又", "譴弃戰")]
    assert any(p["text"].endswith("敢憚勤勞文伯復命") for p in chapter_passages(chapters["pinyi"]))


def test_a_gloss_the_guangyun_reads_for_another_character_ends_the_text_no_more(tongjie_alone):
    """内則: …不渉不撅撅居衛反(撅揭衣也)…: 撅居衛反 (the 释文's reading; the 广韵 gives 居衛切 to 劌) is 音义, out of the
    经 and in the note; 月令's 其音角 (its note, 角) reads like a 直音 of 其 but is 经 and stays."""
    _, _, chapters, _ = tongjie_alone
    (passage,) = [p for p in chapter_passages(chapters["neize"]) if p["text"] == "不渉不撅"]
    assert [(n["layer"], n["text"]) for n in passage["notes"][:2]] == [("yin", "撅居衛反"), ("zhu", "撅揭衣也")]
    assert [p["text"] for p in chapter_passages(chapters["yueling"]) if p["text"].endswith("其音角")]
