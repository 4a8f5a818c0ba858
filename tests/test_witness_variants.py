"""The 文渊阁 transcription's 俗写 and 避讳 forms (异体) in the normalized (规范) text and in search:
𤣥 (玄 with its last stroke left out), 昬, 䘮, 曽 … fold to their standard forms
(``conv/data/variants.tsv``), so the 规范 view reads 玄端 and a search for 玄端 finds the 文渊阁's
𤣥端; where a note sets two forms of one character against each other, neither is folded."""
from __future__ import annotations

from pathlib import Path

import pytest

from conv import datafiles
from conv.normalize import fold
from conv.sphinx_ext.search.language import search_fold

ROOT = Path(__file__).resolve().parent.parent


def by_id(dump: dict) -> dict:
    return {p["id"]: p for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]}


def test_every_listed_variant_occurs_in_a_witness():
    """The table folds forms the edition's witnesses write, no others."""
    text = "".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "seeds").rglob("*.txt")))
    missing = [variant for variant in datafiles.variants() if variant not in text]
    assert missing == []


@pytest.mark.parametrize("witness, standard", [
    ("𤣥端𤣥裳", "玄端玄裳"),  # 避讳缺笔
    ("士昬禮", "士昏礼"),
    ("䘮服", "丧服"),
    ("曽子問", "曾子问"),
    ("不告㫖", "不告旨"),
    ("㑹同", "会同"),
    ("不敢以燕坐䙝貴肴", "不敢以燕坐亵贵肴"),  # 䙝, 褻 of the 文渊阁 copy (59 times: 䙝衣, 不敢䙝)
    ("主人請𦵏期", "主人请葬期"),  # 𦵏, 葬 (84 times, beside 葬 51)
    ("髽側𤓰反", "髽侧瓜反"),  # 𤓰, 瓜 (22)
    ("以㕓里任國", "以廛里任国"),  # 㕓, 廛 (20; the 音义's 㕓 is 廛 for the 《广韵》 already: gloss_forms.tsv)
    ("田䑕化為鴽", "田鼠化为鴽"),  # 䑕, 鼠 (13)
    ("後世衰㣲", "后世衰微"),  # 㣲, 微 (11)
    ("族長涖卜", "族长莅卜"),  # 涖, 莅 (38)
    ("元呉澄本", "元吴澄本"),  # 呉, 吳 (33, beside 吳 28)
])
def test_search_and_the_normalized_text_fold_the_witness_forms(witness, standard):
    assert fold(witness) == standard
    assert search_fold(witness) == search_fold(standard)


def test_the_normalized_view_reads_the_standard_form(whole_dump):
    passage = by_id(whole_dump)["judou-shiguan-30"]
    assert passage["text"].startswith("𤣥端𤣥裳黃裳雜裳可也")
    assert passage["normalized"].startswith("玄端玄裳黄裳杂裳可也")


@pytest.mark.parametrize("passage_id, witness, normalized", [
    # 月令's 校语 (a note now: tests/test_collation_notes.py): 揔 and 緫 are both 总, but the note says one
    # was written for the other (淮揔作緫)
    ("tongjie-yueling-70", "淮揔作緫", "淮揔作总"),
    # 郑注 sets the 古文's 荅 against the 经's 答 (燕礼: 公答拜, 古文曰公荅)
    ("tongjie-yanli-229", "古文曰公荅", "古文曰公荅"),
])
def test_a_form_a_note_sets_against_another_stays(whole_dump, passage_id, witness, normalized):
    passage = by_id(whole_dump)[passage_id]
    [block] = [b for b in (passage, *passage["notes"]) if witness in b["text"]]
    at = block["text"].index(witness)
    assert block["normalized"][at:at + len(witness)] == normalized


@pytest.mark.parametrize("passage_id, text, yin", [
    # 縣音𤣥: 𤣥 is 玄 for the 广韵 too, so the 直音 reads 縣 (胡涓切) and goes into its note
    ("tongjie-xiangshe-13", "縣于洗東北西面", "縣音𤣥"),
    ("tongjie-yueling-655", "是月也日窮於次月窮於紀星囘於天數將㡬終", "㡬音機"),  # (是月也｜日窮於次: a column join)
    ("tongjie-yueling-254", "養壯佼", "佼古夘反"),
])
def test_glosses_read_through_the_forms_go_into_their_note(whole_dump, passage_id, text, yin):
    passage = by_id(whole_dump)[passage_id]
    assert passage["text"] == text
    assert passage["notes"][0]["layer"] == "yin" and passage["notes"][0]["text"] == yin
