"""The 释文's formulas in the 通解's 音义, on the witness's own notes (converted one file at a time): a dictionary's
form with its definition and reading (字林作胜云不熟也先丁反), an authority's 讀若 (說文讀若猛), a reader named in
full after a variant (皫本又作麃劉昌宗音普保反), the 注's form (綏注作墮同許垂反), a variant after a reading that ends
the 音义 before the 注 goes on (袠陳乙反又作帙｜縏小嚢也…, 胃音謂字又作󰠛同｜亦皆為不利人也…); and the small
characters the transcription left outside its parentheses in the 礼记 篇, which the 句读 lacks (conv/data/note_runs.toml)."""
from __future__ import annotations

import pytest

from conv.parser.glosses import parse_run
from tests.witness_notes import witness_notes, witness_passages


def _pairs(name: str) -> list[tuple[str, str]]:
    return [(note["layer"], note["text"]) for note in witness_notes(name)]


def _yin(name: str, text: str) -> dict:
    return next(note for note in witness_notes(name) if note["layer"] == "yin" and note["text"] == text)


@pytest.mark.parametrize("text, glosses", [
    # 内則: 於文皿蟲為蠱 — 說文 gives its 讀若, 字林 its 直音
    ("皿命景反說文讀若猛字林音猛", ["皿命景反", "說文讀若猛", "字林音猛"]),
    # 内則: 肉腥 — 字林 writes 胜, defines it and reads it
    ("腥音星字林作胜云不熟也先丁反", ["腥音星字林作胜云不熟也先丁反"]),
    # 内則: 鳥皫色而沙鳴 — 劉昌宗 named in full between the variant and the reading
    ("皫本又作麃劉昌宗音普保反徐芳表反", ["皫本又作麃", "劉昌宗音普保反", "徐芳表反"]),
    # 内則: 豕望視而交睫腥 — the 注's form (依注作星), then 字林's reading
    ("腥依注作星字林音先定反般音班", ["腥依注作星字林音先定反", "般音班"]),
    # 五宗 (喪服小記): 攝主不厭祭 — a scope 注下皆同, the 注's form 綏注作墮, read the same
    ("厭本又作懕於艶反注下皆同綏注作墮同許垂反注同", ["厭本又作懕於艶反注下皆同", "綏注作墮同許垂反注同"]),
    # 士冠禮: a scope of every such word (凡度長短廣狹者皆放此), a variant read the same (視一作眡音同)
    ("廣古曠反凡度長短廣狹者皆放此視一作眡音同弁皮彥反", ["廣古曠反凡度長短廣狹者皆放此", "視一作眡音同", "弁皮彥反"]),
    # 大學 (朱熹): tones of characters after one another, 倍 the word 背
    ("長上聲弟去聲倍與背同絜胡結反", ["長上聲", "弟去聲", "倍與背同", "絜胡結反"]),
    # 中庸: a tone after a reading is a gloss of its own unless a character of that reading's (刌寸本反寸上声); a reading
    # of four characters at once (逺好惡斂並去聲)
    ("齊側皆反去上聲逺好惡斂並去聲既許氣反廩彼錦力錦二反稱去聲",
     ["齊側皆反", "去上聲", "逺好惡斂並去聲", "既許氣反", "廩彼錦力錦二反", "稱去聲"]),
])
def test_the_formulas_of_the_shiwen_read_as_glosses(text, glosses):
    found, unparsed = parse_run(text)
    assert [g.text for g in found] == glosses and unparsed == []


def test_an_authority_reading_after_a_reading_keeps_its_name():
    found, _ = parse_run("皿命景反說文讀若猛字林音猛")
    assert [(g.char, g.sound, g.remark, g.related) for g in found[1:]] == [
        ("皿", "猛", "authority", "說文"), ("皿", "猛", "authority", "字林")]


@pytest.mark.parametrize("name, yin, zhu", [
    # 内則: a variant after the last reading (又作帙), then the 注 (縏小嚢也)
    ("KR1d0085_003.txt", "箴之林反線又作綫息賤反纊音曠縏字又作槃同歩干反袠陳乙反又作帙", "縏小嚢也縏袠言施明為箴管線纊有之"),
    # 内則: the 释文 of twenty-two words, its last 字又作󰠛同, then the 注 (亦皆為不利人也…)
    ("KR1d0085_003.txt", "庮音由泠音零毳昌鋭反躁早報反皫本又作麃劉昌宗音普保反徐芳表反又普表反沙如字一音所嫁反注同睫音接腥依注作星字林音先定反般音班"
                         "臂又作擘必避反徐方避反漏依注音螻力侯反鵠胡篤反鴞吁驕反胖音判鴇音保奥於六反胃音謂字又作\U000f081b同",
     "亦皆為不利人也庮惡臭也"),
    # 五宗 (大傳): a variant and its scope, then one more reading, then the 注
    ("KR1d0085_005.txt", "弟大計反又作悌下孝弟同長丁丈反", "正者政也庶子司馬之屬"),
])
def test_a_yinyi_that_a_zhu_goes_on_after_in_one_parenthesis(name, yin, zhu):
    """The 音义 and the 注 after it in one parentheses: the 音义 ends after the variant its last reading gives."""
    pairs = _pairs(name)
    at = pairs.index(("yin", yin))
    assert pairs[at + 1][0] == "zhu" and pairs[at + 1][1].startswith(zhu)


@pytest.mark.parametrize("name, yin", [
    ("KR1d0085_003.txt", "腥音星字林作胜云不熟也先丁反"),   # 内則: the note over a line, its end printed large
    ("KR1d0085_003.txt", "皿命景反說文讀若猛字林音猛"),
    ("KR1d0085_003.txt", "麕九倫反又作麋又作麏下田豕麏同軒依注音憲下同"),  # 内則: two variants and their scope
    ("KR1d0085_004.txt", "衰七雷反資依注作齊音咨本又作齋者同"),            # 内治: copies that write 齋, the same
    ("KR1d0085_001.txt", "繒自陵反繚音了長直亮反廣古曠反凡度長短廣狹者皆放此視一作眡音同弁皮彥反緅側畱反與音餘"),  # 士冠禮
])
def test_a_yinyi_of_dictionaries_and_variants_is_one_segment(name, yin):
    note = _yin(name, yin)
    assert note["glosses"] and "".join(g["text"] for g in note["glosses"]) == yin


@pytest.mark.parametrize("name, layer, text, jing_not", [
    # 五宗: (厭本又作懕於艶反注下皆同綏注作墮同許)¶垂反注同(皆辟正主…): the 音义's end printed large
    ("KR1d0085_005.txt", "yin", "厭本又作懕於艶反注下皆同綏注作墮同許垂反注同", "垂反注同"),
    # 月令: (…鴈自南方來)¶將北反其居今月令鴻皆為候(吕氏春秋…): the 注's end printed large
    ("KR1d0085_025.txt", "zhu", "皆記時候也振動也夏小正正月啓蟄魚陟負永漢始亦以驚蟄為正月中此時魚肥美獺將食之先以祭也鴈自南方來"
                                "將北反其居今月令鴻皆為候", "將北反其居今月令鴻皆為候"),
    # 内則: (…羣子婦佐餕如初(御侍也謂)¶長子侍母食也…(疏曰…): the 注's words over the line
    ("KR1d0085_003.txt", "zhu", "御侍也謂長子侍母食也待食者不餕其婦猶皆餕也", "長子侍母食也待食者不餕其婦猶皆餕也"),
    # 五宗 (大傳): (犯猶)¶干也術法也(疏曰…)
    ("KR1d0085_005.txt", "zhu", "犯猶干也術法也", "干也術法也"),
    # 曲禮: …右牽之(效胡教反下同)¶用右手便効猶呈見(疏曰…): a 注 of its own between the 音义 and the 疏
    ("KR1d0085_011.txt", "zhu", "用右手便効猶呈見", "用右手便効猶呈見"),
    # 聘禮: (拭清也側幕而)坐乃開櫝清或才姓反(疏曰…): the 注 goes on over its `)`, and ends with a reading of its 清 that
    # some give (或), a 音义 of its own
    ("KR1d0085_021.txt", "zhu", "拭清也側幕而坐乃開櫝", "坐乃開櫝清或才姓反"),
    # 曲禮: 進劒者左首左首尊也(疏曰…), 毋瀆神瀆謂數而不敬(疏曰…): the 注 run on from its 经 with no parenthesis
    ("KR1d0085_011.txt", "zhu", "左首尊也", "進劒者左首左首尊也"),
    ("KR1d0085_011.txt", "zhu", "瀆謂數而不敬", "毋瀆神瀆謂數而不敬"),
    # 臣禮: …三辭(比毗志反)下猶降¶<pb>¶也(疏曰…): a 注 printed large over a page, after the 音义
    ("KR1d0085_012.txt", "zhu", "下猶降也", "下猶降也"),
])
def test_small_characters_printed_large_in_a_liji_chapter_go_on_into_their_note(name, layer, text, jing_not):
    assert (layer, text) in _pairs(name)
    assert not [p["id"] for p in witness_passages(name) if p["text"] == jing_not]


def test_a_word_of_the_jing_that_reads_like_a_zhiyin_before_a_tone_stays_jing():
    """樂記: 今君之所好者其溺音乎好去聲(言無文王之德…): 溺音 is the 经's word (a [[jing]] entry), 好去聲 the 音义."""
    passage = next(p for p in witness_passages("KR1d0085_026.txt") if p["text"].endswith("今君之所好者其溺音乎"))
    assert [(n["layer"], n["text"]) for n in passage["notes"][:2]] == [("yin", "好去聲"), ("zhu", "言無文王之德則所好非樂也")]
