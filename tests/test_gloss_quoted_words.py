"""Glosses that quote a word (音义所引之词): the 通解's 音义 name the word of the text a character stands in —
after its reading (丈如字丈尺之丈), before it (酺與音餘: 與 of 酺與), as the same word as another (圂與豢同音患),
or for its sound and sense given above (辟咡音義見上); the words of the 注 quoted before the reading
(為其可穢為于偽反), or words that all hold it (為温為其皆去聲), or the word further on (小飯同); and, after a reading, what copies have or lack (一本作感如字, 古本無此字) and a definition
in 之貌 or 之官 (惻隱之貌, 掌物價之官) or another's (或云諼譁). Each real line is read exactly; what is no word stays unread."""
from __future__ import annotations

from pathlib import Path

import pytest

from conv.parser.glosses import parse_run

TONGJIE = Path(__file__).resolve().parent.parent / "seeds" / "wenyuange" / "KR1d0085"
F, Z, R, O = "fanqie", "zhiyin", "ruzi", "other"


def read(text: str) -> list[tuple]:
    glosses, unparsed = parse_run(text)
    assert unparsed == [], (text, [text[a:b] for a, b in unparsed])
    return [(g.text, g.char, g.kind, g.upper, g.lower, g.sound, g.scope, g.definition, g.context, g.remark,
             g.related) for g in glosses]


# (witness file, its lines, the run as printed there) → [(text, char, kind, upper, lower, sound, scope,
# definition, context, remark, related)]
CASES = [
    # 曲禮 (…若非飲食之客則布席席閒函丈(函胡南反丈如字丈尺之¶丈)): 丈 as in 丈尺, after its 如字
    ("KR1d0085_006.txt", (79, 80), "函胡南反丈如字丈尺之丈", [
        ("函胡南反", "函", F, "胡", "南", None, None, None, None, None, None),
        ("丈如字丈尺之丈", "丈", R, None, None, None, None, "丈尺之丈", None, None, None)]),
    # 周禮 黨正 (…獻酬焉(…螟覓經反酺與音餘下歩與同禜榮敬反本亦作榮)): 與 of the word 酺與, read 餘, and so in 歩與 below
    ("KR1d0085_009.txt", (166,), "螟覓經反酺與音餘下歩與同禜榮敬反本亦作榮", [
        ("螟覓經反", "螟", F, "覓", "經", None, None, None, None, None, None),
        ("酺與音餘下歩與同", "與", Z, None, None, "餘", "下歩與同", None, "酺與", "in-word", None),
        ("禜榮敬反本亦作榮", "禜", F, "榮", "敬", None, None, "本亦作榮", None, None, None)]),
    # 少儀 quoting 王制 (君子不食圂腴圂與豢同音患(周禮圂作豢…)): 圂 is 豢, read 患
    ("KR1d0085_011.txt", (299,), "圂與豢同音患", [
        ("圂與豢同音患", "圂", Z, None, None, "患", None, None, None, "same-word", "豢")]),
    # 少儀 (問焉則辟咡而對辟咡音義見上(…)): the word 辟咡, its sound and sense given above (負劒辟咡…)
    ("KR1d0085_010.txt", (204,), "辟咡音義見上", [
        ("辟咡音義見上", "辟", O, None, None, None, None, None, "辟咡", "see-above", None)]),
    # 内則 (…脂膏以膏之 (…滑胡八反膏之古報反)): the 膏 of 膏之, a word with 之
    ("KR1d0085_003.txt", (63,), "滑胡八反膏之古報反", [
        ("滑胡八反", "滑", F, "胡", "八", None, None, None, None, None, None),
        ("膏之古報反", "膏", F, "古", "報", None, None, None, "膏之", "in-word", None)]),
    # 内則 (䙝衣衾不見裏(見賢遍反下同為其可穢為于偽反)): the words of the 注 quoted, then 為 again and its reading
    ("KR1d0085_003.txt", (105,), "見賢遍反下同為其可穢為于偽反", [
        ("見賢遍反下同", "見", F, "賢", "遍", None, "下同", None, None, None, None),
        ("為其可穢為于偽反", "為", F, "于", "偽", None, None, None, "為其可穢", "in-word", None)]),
    # 内則: 枷, written 架 too, 徐邈 reads 稼, and old copies lack the character
    ("KR1d0085_003.txt", (337,), "枷又作架徐音稼古本無此字櫛側乙反", [
        ("枷又作架", "枷", O, None, None, None, None, None, None, "variant", "架"),
        ("徐音稼古本無此字", "枷", Z, None, None, "稼", None, "古本無此字", None, "authority", "徐"),
        ("櫛側乙反", "櫛", F, "側", "乙", None, None, None, None, None, None)]),
    # 曲禮 (…頎音墾又音畿惻隱之貌撎於至反…): a definition in 之貌 after the second reading
    ("KR1d0085_011.txt", (125,), "頎音墾又音畿惻隱之貌撎於至反", [
        ("頎音墾", "頎", Z, None, None, "墾", None, None, None, None, None),
        ("又音畿惻隱之貌", "頎", Z, None, None, "畿", None, "惻隱之貌", None, None, None),
        ("撎於至反", "撎", F, "於", "至", None, None, None, None, None, None)]),
    # 聘禮 (…見之也賈音嫁後同掌物價之官(疏曰…): what a 賈人 is, after the reading's scope (was correction c19)
    ("KR1d0085_021.txt", (64,), "賈音嫁後同掌物價之官", [
        ("賈音嫁後同掌物價之官", "賈", Z, None, None, "嫁", "後同", "掌物價之官", None, None, None)]),
    # 曲禮: 諼, a definition and another's (或云)
    ("KR1d0085_011.txt", (89,), "諼況煩反諼詐也或云諼譁處昌慮反", [
        ("諼況煩反諼詐也或云諼譁", "諼", F, "況", "煩", None, None, "諼詐也或云諼譁", None, None, None),
        ("處昌慮反", "處", F, "昌", "慮", None, None, None, None, None, None)]),
    # 聘禮記 (…絞户交反為温為其皆去聲襢音但): the 為 of 為温 and of 為其, 去聲 in both
    ("KR1d0085_021.txt", (426,), "絞户交反為温為其皆去聲襢音但", [
        ("絞户交反", "絞", F, "户", "交", None, None, None, None, None, None),
        ("為温為其皆去聲", "為", O, None, None, None, None, None, "為温為其", "tone", "去"),
        ("襢音但", "襢", Z, None, None, "但", None, None, None, None, None)]),
    # 少儀 (燕侍食於君子則先飯而後已飯煩晚反小飯同): the 飯 of 小飯 further on (毋放飯…小飯而亟之), read the same
    # (was correction c10)
    ("KR1d0085_010.txt", (231,), "飯煩晚反小飯同", [
        ("飯煩晚反小飯同", "飯", F, "煩", "晚", None, "小飯同", None, None, None, None)]),
    # 弟子職 (…執箕膺揲厥中有帚(揲記注作擖又作葉並以渉反)): the 記's 注 writes 擖, written 葉 too, all read 以渉反
    ("KR1d0085_010.txt", (58,), "揲記注作擖又作葉並以渉反", [
        ("揲記注作擖又作葉", "揲", O, None, None, None, None, None, None, "variant", "擖葉"),
        ("並以渉反", "揲", F, "以", "渉", None, None, None, None, "both-before", None)]),
    # 王制 (詩 …白鳥皜皜(皜詩作翯户各反)): the 詩 writes 翯
    ("KR1d0085_035.txt", (643,), "皜詩作翯户各反", [
        ("皜詩作翯户各反", "皜", F, "户", "各", None, None, None, None, "variant", "翯")]),
    # 聘禮 quoting 左傳 (吳人内之(内如字音納)): read as written, or 納
    ("KR1d0085_021.txt", (1307,), "内如字音納", [
        ("内如字", "内", R, None, None, None, None, None, None, None, None),
        ("音納", "内", Z, None, None, "納", None, None, None, "also-read", None)]),
    # 樂記 quoted in 鐘律義 (…感户暗反一本作感如字): a copy writes 感, read as written
    ("KR1d0085_026.txt", (322,), "感户暗反一本作感如字", [
        ("感户暗反一本作感如字", "感", F, "户", "暗", None, None, "一本作感如字", None, None, None)]),
]


@pytest.mark.parametrize("name, lines, run, expected", CASES, ids=[c[2] for c in CASES])
def test_a_gloss_that_quotes_a_word_is_read_exactly(name, lines, run, expected):
    text = (TONGJIE / name).read_text(encoding="utf-8").splitlines()
    printed = "".join(text[line - 1] for line in lines).replace("/", "").replace("¶", "")
    assert run in printed  # the witness prints it so (across its lines)
    assert read(run) == expected


def test_a_word_is_read_only_where_the_reading_is_one_of_its_characters():
    """酺與音餘 reads 與 because the 《广韵》 reads 與 as 餘 and not 酺; a word whose characters the reading
    gives neither of is no gloss (…反之間音義 stays unread); 附近之地 after 近 is no word of 近 (之地, not 之近)."""
    assert [g.char for g in parse_run("螟覓經反酺與音餘")[0]] == ["螟", "與"]
    assert [g.text for g in parse_run("螟覓經反酺之音餘")[0]] == ["螟覓經反"]
    glosses, unparsed = parse_run("近附近之地蠱音古")
    assert [g.text for g in glosses] == ["蠱音古"] and unparsed == [(0, 5)]


def test_after_a_zhiyin_its_sound_may_go_on():
    """大學 (KR1d0085) …此以沒世不忘也於戲音嗚呼: 於戲 is read 嗚呼, a sound of two characters; 呼樂音洛 after
    戲音嗚 is no word 呼樂 with 樂 read 洛 — a word before a 直音 is read only right after a 反切."""
    assert [g.text for g in parse_run("戲音嗚呼樂音洛")[0]] != ["戲音嗚", "呼樂音洛"]
    assert [g.text for g in parse_run("螟覓經反酺與音餘")[0]] == ["螟覓經反", "酺與音餘"]


def test_a_definition_on_the_glossed_character_is_the_zhu():
    """士昏禮 (KR1d0085_002:338) 婦疑立于席西疑魚乙反疑正立自定之貌(疏曰…): 疑正立自定之貌 is 郑注's (the 句读 prints
    it so), a definition of the glossed character itself, not the 音义's: the gloss ends at its 反."""
    assert [g.text for g in parse_run("疑魚乙反疑正立自定之貌")[0]] == ["疑魚乙反"]
