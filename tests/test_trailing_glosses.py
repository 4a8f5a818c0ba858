"""音义 printed large at the end of the 通解's 经, right before its note (…比年入學比毗志反(學者毎嵗來入也)): the
trailing-glosses rule (``conv.parser.unbracketed``) takes them into a note of their own when the 广韵
attests them — also where the 反切 spells no position of the 广韵 (比毗志反: 之韵 has no 唇音) or gives
another initial, its lower speller the reading's rhyme and tone (夏古雅反, the reading of 檟); 经 that
ends with 反 stays 经."""
from __future__ import annotations

import pytest

from conv.parser import verdicts
from conv.parser.guangyun_forms import positions_of


def by_id(dump: dict) -> dict:
    return {p["id"]: p for w in dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]}


@pytest.mark.parametrize("gloss, fits", [
    ("比毗志", True),   # 毗 並 as 比 (並三A脂去), 志 之去: 止攝 去聲, and 毗志 spells nothing in 《廣韻》
    ("倍薄亥", True),   # 薄 並, 亥 咍上: 倍 is 並灰上
    ("夏古雅", True),   # 雅 麻二上 as 夏's 胡雅切; only the initial differs (古: 見, the 檟 of 夏楚)
    ("門外乃", False),  # 乡射禮's …于廟門外乃反 is 经: 乃 咍上, 門 明魂平
    ("而樂有", False),  # 乐记's …而樂有反 is 经: 有 尤上, 而 日之平
    ("綏湯果", False),  # 湯果 spells 妥 (the 释文's reading), nothing of 綏 (心脂平)
])
def test_spellers_fit(gloss, fits):
    char, upper, lower = gloss
    assert verdicts.spellers_fit(positions_of(char), positions_of(upper), positions_of(lower)) is fits


@pytest.mark.parametrize("passage_id, text, yin", [
    ("tongjie-xueji-15", "比年入學", "比毗志反"),
    ("tongjie-xueji-26", "夏楚二物收其威也", "夏古雅反"),
    ("tongjie-shaoyi-15", "年長以倍則父事之", "倍薄亥反"),  # after 檀弓, the source of the passage before
    ("tongjie-wangzhigui-11", "金作贖刑", "贖古欲反"),
    ("tongjie-quli-223", "張老曰美哉輪焉美哉奐焉", "輪起倫反奐本亦作煥"),
    # the 广韵 files the character or a speller under another form (conv/data/gloss_forms.tsv)
    ("tongjie-wangzhiding-205", "用地小大視年之豐耗", "耗呼報反"),  # 秏
    ("tongjie-wangzhiji-74", "建牧立監以維邦國", "監古䧟反"),      # 陷
    ("tongjie-yuezhi-92", "魯隠公問羽數於衆仲", "衆音終"),        # 眾
])
def test_a_gloss_whose_spellers_fit_leaves_the_text(whole_dump, passage_id, text, yin):
    passage = by_id(whole_dump)[passage_id]
    assert passage["text"] == text
    assert (passage["notes"][0]["layer"], passage["notes"][0]["text"]) == ("yin", yin)


@pytest.mark.parametrize("passage_id, ending", [
    ("judou-yousiche-187", "廟門外乃反"),
    ("tongjie-liyueji-75", "而樂有反"),
])
def test_text_ending_with_fan_stays_text(whole_dump, passage_id, ending):
    assert by_id(whole_dump)[passage_id]["text"].endswith(ending)


def test_a_tone_for_two_characters_is_a_gloss(whole_dump):
    """朱熹's 音注 「XY並去聲」 (好惡並去聲, 逺近間並如字) opens a gloss as 乗斂並去聲 does: the note is 音义, not 注;
    樂記's 「樂其獨樂之樂並去聲見音現好去聲」, read (note_runs.toml), is no longer 经."""
    passages = by_id(whole_dump)
    # (the 注 after it opened before its parenthesis: 教之(使知好惡也), note_runs.toml)
    assert [(n["layer"], n["text"]) for n in passages["tongjie-yueji-22"]["notes"]] == [
        ("yin", "好惡並去聲"), ("zhu", "教之使知好惡也")]
    assert passages["tongjie-xuezhi-159"]["notes"][0]["layer"] == "yin"
    passage = passages["tongjie-yueji-46"]
    assert passage["text"].endswith("故曰生民之道樂為大焉")
    assert passage["notes"][0]["text"] == "樂其獨樂之樂並去聲見音現好去聲"


def test_two_fanqie_with_one_fan_leave_the_text(whole_dump):
    """聘禮記's …擯)¶者亦然楔古八先結二反(疏曰…: the two 反切 of 楔 are one 音义 before the 疏 (者亦然, the end of the
    注 over a column, in its note: conv/data/note_runs.toml)."""
    notes = by_id(whole_dump)["tongjie-pinli-236"]["notes"]
    assert notes[0]["text"].endswith("擯者亦然") and (notes[1]["layer"], notes[1]["text"]) == ("yin", "楔古八先結二反")


def test_glosses_after_a_note_attested_go_into_it(whole_dump):
    """聘禮: …無藉者則襲(藉在夜反下同)禓星厯反(藉藻也…: 禓星厯反 after the note, glosses through and through and
    attested (禓, the witness's form of the 经's 裼, 先擊切), is in the notes, no passage of its own."""
    passage = by_id(whole_dump)["tongjie-pinli-77"]
    assert passage["notes"][0]["layer"] == "yin" and passage["notes"][0]["text"] == "藉在夜反下同禓星厯反"


@pytest.mark.parametrize("passage_id, text, yin", [
    ("tongjie-neize-452", "寡婦之子非有見焉弗與為友", "兒賢遍反"),   # read as 見賢遍反
    ("tongjie-wangzhiren-112", "武車綏旌", "綏耳佳反"),          # read as 綏耳隹反 (緌)
    ("tongjie-wangzhiren-351", "宣王料民於大原", "大音秦"),       # read as 大音泰
])
def test_a_reviewed_misprint_is_read_in_its_right_form(whole_dump, passage_id, text, yin):
    """A gloss the witness misprints (conv/data/misprints.toml: 兒 for 見, 佳 for 隹, 秦 for 泰) is read by the
    rules in its right form, so the 音义 ending the 经 goes into its note; the text keeps what is printed."""
    passage = by_id(whole_dump)[passage_id]
    assert passage["text"].endswith(text) and passage["notes"][0]["text"] == yin
    assert passage["notes"][0]["glosses"][0]["restored"]


def test_a_reviewed_misprint_in_a_note_is_read_in_its_right_form(whole_dump):
    """大學's 释文 (朱熹's): 閒音閑厭鄪讀為黶, 鄪 a misprint of 鄭 (conv/data/misprints.toml): the 音义 reads 厭 as 黶 on
    鄭氏's authority, its text keeps 鄪, and nothing is left unread."""
    (note,) = [n for n in by_id(whole_dump)["tongjie-daxue-39"]["notes"] if n["text"] == "閒音閑厭鄪讀為黶"]
    gloss = note["glosses"][1]
    assert (gloss["text"], gloss["char"], gloss["sound"], gloss["remark"], gloss["related"], gloss["restored"]) == (
        "厭鄪讀為黶", "厭", "黶", "reads-as", "鄭", "厭鄭讀為黶")
    assert not [p for p in whole_dump["problems"] if "厭鄪讀為黶" in p["message"]]


@pytest.mark.parametrize("printed, restored", [
    ("大音泰下司", "大音泰下同"),  # 大學: 司 for 同, the scope of the gloss
    ("紃者巡", "紃音巡"),          # 玉藻: 者 for 音 (紃 and 巡 are 詳遵切)
])
def test_a_misprint_of_a_gloss_s_mark_is_read_in_its_right_form(whole_dump, printed, restored):
    """conv/data/misprints.toml: a 音义 whose mark the witness misprints reads whole in its right form; its text
    keeps what is printed, and no problem is left."""
    glosses = [g for w in whole_dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]
               for n in p["notes"] for g in n.get("glosses", []) if g["text"] == printed]
    assert [g["restored"] for g in glosses] == [restored]
    assert not [p for p in whole_dump["problems"] if printed in p["message"]]
