"""Words the 通解's transcription prints in the wrong size or on the wrong side of a parenthesis
(大小字之误): heads of 按 and 疏 printed large, 经 taken into a remark, a 注 or a gloss cut at a
column's foot — each read into its note or back into the 经 by the seeds' parser, in the whole
edition's dump. (The runs of ``conv/data/note_runs.toml``: ``test_note_runs.py``.)"""
from __future__ import annotations

import pytest

from conv import datafiles as data

from dumps import passage_with, sections_of, tongjie_passages


def test_a_head_s_words_stop_where_jing_read_so_begins(whole_dump):
    """聘禮 (卷二十二叶二十a): …)今按西面當作南面勞者揖皮出乃退¶賓送再拜揖皮出東面揖執皮者而出(疏曰…: the head 今按
    takes its run to the line's end, but 勞者揖皮出乃退 is 经 (``[[jing]]``, the 句读's 经 too): the 按 ends at 南面,
    the 经 is a passage, and its 注 (揖皮出東面…) is in its note."""
    passage = passage_with(whole_dump, "勞者揖皮出乃退賓送再拜")
    assert [(n["layer"], n["text"]) for n in passage["notes"][:1]] == [("zhu", "揖皮出東面揖執皮者而出")]
    (remark,) = [n for p in tongjie_passages(whole_dump) for n in p["notes"] if n["text"].startswith("今按西面當作南面")]
    assert remark["text"] == "今按西面當作南面" and remark["layer"] == "an"


def test_jing_after_a_remark_printed_large_is_jing_again(whole_dump):
    """内則 (the 通解's, 祭義's words; 卷三叶十四b–十五a): …)今按凖猶齊也言無不同也詩云自西自東…不以其¶<pb>¶時非孝也(…:
    the 按 ends at 同也 (``[[jing]]``), the 经 after it (詩云… 曾子曰…) is a passage again, joined over the page
    (conv/data/page_joins.toml) to the 时非孝也 the next page opens with."""
    (remark,) = [n for p in tongjie_passages(whole_dump) for n in p["notes"] if n["text"].startswith("今按凖猶齊也")]
    assert remark["text"] == "今按凖猶齊也言無不同也" and remark["layer"] == "an"
    passage = passage_with(whole_dump, "詩云自西自東自南自北無思不服此之謂也曾子曰樹木以時伐焉禽獸以時殺焉"
                                       "夫子曰斷一樹殺一獸不以其時非孝也")
    assert passage["id"] == "tongjie-neize-158" and passage["page"] == {"juan": 3, "leaf": 14, "side": "b"}
    assert [(n["layer"], n["text"]) for n in passage["notes"]] == [("zhu", "夫子孔子也曽子述其言以云")]


def test_a_head_printed_large_gives_back_the_jing_it_took(whole_dump):
    """曲禮 (the 通解's, from 少儀; 卷十一叶十八a): …(為于偽反薤户戒反)¶<pb>¶為有萎乾(萎於危反乾音千)疏曰根不淨末萎乾
    羞首者進喙祭耳(喙許穢反)耳出見也見賢遍反(疏曰…: 為有萎乾 and 耳出見也 are 注, each before the 音义 of its words;
    the 疏 ends at 萎乾, and 羞首者進喙祭耳 is 经 (a new anchor; 耳出見也's old one redirects to it)."""
    before = passage_with(whole_dump, "為君子擇蔥薤則絶其本末")
    assert [(n["layer"], n["text"]) for n in before["notes"]] == [
        ("yin", "為于偽反薤户戒反"), ("zhu", "為有萎乾"), ("yin", "萎於危反乾音千"), ("shu", "疏曰根不淨末萎乾")]
    passage = passage_with(whole_dump, "羞首者進喙祭耳")
    assert passage["id"] == "tongjie-quli-455"
    assert [(n["layer"], n["text"]) for n in passage["notes"][:3]] == [
        ("yin", "喙許穢反"), ("zhu", "耳出見也"), ("yin", "見賢遍反")]
    assert {"from": "tongjie-quli-238", "to": "tongjie-quli-455"}.items() <= next(
        r for r in whole_dump["redirects"] if r["from"] == "tongjie-quli-238").items()


def test_the_end_of_a_gloss_s_definition_over_a_column_is_the_gloss_s(whole_dump):
    """五學 (王制's words; 卷十八): (瘖於金反啞也…躃必亦反兩足)¶不能行也侏音朱(…: 兩足不能行也 defines 躃 (the 音义 of
    释文), its last words at the top of the next column: the gloss reads it whole, and no problem is left."""
    passage = passage_with(whole_dump, "瘖聾跛躃斷者侏儒百土各以其器食之")
    (note,) = [n for n in passage["notes"] if n["text"].startswith("瘖於金反")]
    assert note["text"].endswith("躃必亦反兩足不能行也")
    assert [g["definition"] for g in note["glosses"] if g["char"] == "躃"] == ["兩足不能行也"]
    assert not [p for p in whole_dump["problems"] if "兩足" in p["message"]]


def test_a_note_over_two_columns_joined_keeps_the_note_after_it(whole_dump):
    """士昏禮's 記 (卷二叶三b–四b): …受諸禰廟(用昕)¶使者用昬壻也(…: the 注 用昕使者用昬壻也 runs over the column
    (conv/data/column_joins.toml), and the 注 further on, …稱有恵)¶明下達貺賜也…, is still one note."""
    passage = passage_with(whole_dump, "士昬禮凡行事必用昬昕受諸禰廟")
    assert [(n["layer"], n["text"]) for n in passage["notes"][:2]] == [("zhu", "用昕使者用昬壻也"), ("yin", "壻悉計反")]
    passage = passage_with(whole_dump, "昬辭曰吾子有惠貺室某也")
    assert passage["notes"][0]["text"] == "昬辭擯者請事告之辭吾子謂女父也稱有恵明下達貺賜也室猶妻也某壻名"


def test_a_note_whose_parenthesis_opens_late_takes_its_first_words(whole_dump):
    """樂記 (卷二十七叶二十二a): …非致味也(食音嗣)隆猶¶(盛也極窮也)…: 隆猶 opens the 注 whose parenthesis the
    transcriber opened after it (``continues = "after"``): one 注, after the 音义; the passage that was 隆猶 redirects."""
    passage = passage_with(whole_dump, "是故樂之隆非極音也食饗之禮非致味也")
    assert [(n["layer"], n["text"]) for n in passage["notes"]] == [("yin", "食音嗣"), ("zhu", "隆猶盛也極窮也")]
    assert next(r for r in whole_dump["redirects"] if r["from"] == "tongjie-yueji-20")["to"] == passage["id"]


def test_a_note_printed_large_before_the_jing_is_cut_from_it(whole_dump):
    """内則 (卷三叶七a): (綴丁劣反又丁衛反)綻猶觧也五日則燂湯請浴…: the 注 綻猶觧也 ends the note of 衣裳綻裂紉箴請補綴,
    and 五日則燂湯請浴 opens the next passage, which keeps its anchor."""
    passage = passage_with(whole_dump, "衣裳綻裂紉箴請補綴")
    assert [(n["layer"], n["text"]) for n in passage["notes"]][-1] == ("zhu", "綻猶觧也")
    after = passage_with(whole_dump, "五日則燂湯請浴三日具沐其間面垢燂潘請靧足垢燂湯請洗")
    assert after["id"] == "tongjie-neize-66"


def test_zhu_xi_s_words_after_a_chapter_title_are_its_notes(whole_dump):
    """大學 and 中庸 (卷十六, 十七): 右傳之首章釋明明徳(此通下三章…), 右第一章子思述所傳之意…: what follows the 章's
    number on its title line is 朱熹's 章句 on the 章, printed large: a note of the title (按), not a passage of 经;
    the passages it made redirect to the section."""
    daxue = sections_of(whole_dump, "daxue")
    assert [(n["layer"], n["text"]) for n in daxue["右傳之首章"]["title_notes"]] == [
        ("an", "釋明明徳此通下三章至止於信舊本誤在沒世不忘之下")]
    assert [n["text"] for n in daxue["右傳之二章"]["title_notes"]] == ["釋新民"]
    zhongyong = sections_of(whole_dump, "zhongyong")
    assert zhongyong["右第一章"]["title_notes"][0]["text"].startswith("子思述所傳之意以立言")
    assert zhongyong["右第三十三章"]["title_notes"][0]["text"].endswith("學者其可不盡心乎")
    words = {p["text"] for c in ("daxue", "zhongyong") for s in sections_of(whole_dump, c).values() for p in s["passages"]}
    assert not [text for text in words if text.startswith(("釋", "葢釋", "子思"))]
    assert next(r for r in whole_dump["redirects"] if r["from"] == "tongjie-daxue-18")["to"] == "tongjie-daxue-s2"


def test_the_end_of_a_note_at_the_top_of_the_next_column_is_that_note_s(whole_dump):
    """士冠禮's 冠義 (卷一): …敬其名者重以未成人)¶之時呼之也(今按…: a passage opening with 之 (也, 者…) is the end of the
    note before it, over a column; in a 仪礼 篇 the entry names the 句读 passage (鄉射禮's …之所建)¶也言各者…)."""
    (note,) = [n for p in tongjie_passages(whole_dump) for n in p["notes"] if n["text"].endswith("重以未成人之時呼之也")]
    assert note["layer"] == "zhu"
    (entry,) = [e for _, e in data.note_runs() if e["text"] == "也言各者鄉射或於庠或於榭"]
    assert entry["judou"] == "judou-xiangshe-169" and "basis" not in entry
    # the words of 经 a column cut are one passage again (conv/data/column_joins.toml)
    assert passage_with(whole_dump, "寡婦之子非有見焉弗與為友")["notes"][0]["text"] == "兒賢遍反"


def test_jing_a_remark_printed_large_had_taken_in_a_yili_pian(whole_dump):
    """聘禮 (卷二十二叶三十一b): …)今按疏説與此不通當闕三揖(君與賓也入門將曲)¶<pb>¶揖既曲北面又揖當碑揖(疏曰…: the 按 ends
    at 當闕, 三揖 is 经 as in the 句读, and its 注 goes on over the page; 燕禮記's 寡君固曰不腆使某固以請… likewise."""
    passage = passage_with(whole_dump, "三揖")
    assert passage["notes"][0] == {**passage["notes"][0], "layer": "zhu", "text": "君與賓也入門將曲揖既曲北面又揖當碑揖"}
    (remark,) = [n for p in tongjie_passages(whole_dump) for n in p["notes"] if n["text"].startswith("今按疏説與此不通")]
    assert remark["text"] == "今按疏説與此不通當闕"
    passage = passage_with(whole_dump, "寡君固曰不腆使某固以請某固辭不得命敢不從")
    assert [(n["layer"], n["text"]) for n in passage["notes"][:1]] == [("zhu", "許之也於是出見主國使者辭以見許為得命今文無使某")]


@pytest.mark.parametrize("jing, head", [
    ("主人受眡反之", "疏曰方版也"),                                        # 士冠禮: a 疏 of three characters
    ("若左右鈞則左右皆執一算以告曰左右鈞降復位坐兼斂算實八算于中委其餘于中西興共而俟", "今按孔穎達說與此不同詳見下篇"),  # 鄉射禮
    ("子曰諾唯恐弗堪不敢忘命", "疏曰為先妣之嗣者謂婦入室使代姑祭也"),        # 士昏禮's 記
])
def test_jing_after_a_head_printed_large_is_a_passage_of_jing(whole_dump, jing, head):
    """A 疏曰 or 今按 the transcription prints large after a note takes the run to the line's end; where the 经 the
    句读 prints goes on in that run, the head's words stop before it (``[[jing]]``): the 经 is a passage again (its
    notes its own), the 疏 or 按 keeps its own words only."""
    assert passage_with(whole_dump, jing)["layer"] in ("jing", "ji")
    assert [n for p in tongjie_passages(whole_dump) for n in p["notes"] if n["text"] == head]


def test_a_note_s_first_character_in_the_parentheses_before_and_the_rest_printed_large(whole_dump):
    """弟子職 (KR1d0085_010 l.55–56): …旋而鄉席各徹其餽…(摳苦候反郷音向席)¶客還並見上立未詳(振衽掃席謂…: the 注
    席客還並見上立未詳 (席 and 客還 are glossed above, 立 is not understood) opens in the parentheses of the 音义 and
    goes on large at the next line's top: one 注 after the 音义, no passage of 经 and no unparsed gloss."""
    (passage,) = [p for w in whole_dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]
                  if p["text"].startswith("振衽掃席己食者作摳衣而降")]
    assert [(n["layer"], n["text"]) for n in passage["notes"]][:2] == [("yin", "摳苦候反郷音向"), ("zhu", "席客還並見上立未詳")]
    assert passage["notes"][2]["text"].startswith("振衽掃席謂振其底衽")
    assert not [p for p in whole_dump["problems"] if p["seed"] == "KR1d0085_010.txt" and p["line"] == 55]


@pytest.mark.parametrize("jing, zhu", [
    ("及日中又至亦如之", "又復也"),                     # 文王世子 (004 l.197), before 朱熹's 今按
    ("有百世不遷之宗有五世則遷之宗", "遷猶變易也"),      # 大傳 (005 l.26)
    ("謀於長者必操几杖以從之", "從猶就也"),              # 曲禮 (010 l.165)
    ("其禽加於一雙則執一雙以將命委其餘", "加猶多也"),     # 少儀 (011 l.316)
    ("器用陶匏尚禮然也", "此謂大古之禮器也"),            # 郊特牲 in 昏義 (002 l.487), before its 音义 大音泰
])
def test_a_zhu_run_on_from_its_jing_with_no_parenthesis(whole_dump, jing, zhu):
    """A 注 the transcription writes large right after its 经 (…以從之從猶就也(疏曰…): a note of the passage, its
    first (note_runs.toml), and the 经 ends before it."""
    (passage,) = [p for w in whole_dump["works"] if w["id"] == "tongjie" for c in w["chapters"] for s in c["sections"]
                  for p in s["passages"] if p["text"] == jing]
    assert (passage["notes"][0]["layer"], passage["notes"][0]["text"]) == ("zhu", zhu)


def test_the_end_of_a_zhu_after_its_parenthesis_closes_too_early(whole_dump):
    """内則 (018 l.235): …(狼臅膏臆中膏也…則似今膏󰖸矣此周禮)酏食也此酏當従餰(臆音億…: the 注 as the 禮記 prints it
    (此周禮酏食也此酏當從餰), one note of the passage before its 音义; no passage of 经 酏食也…."""
    (passage,) = [p for w in whole_dump["works"] for c in w["chapters"] if c["id"] == "wuxue" for s in c["sections"]
                  for p in s["passages"] if p["text"] == "取稻米舉糔溲之小切狼臅膏以與稻米為酏"]
    (_, zhu, yin) = passage["notes"]
    assert zhu["layer"] == "zhu" and zhu["text"].endswith("矣此周禮酏食也此酏當従餰")
    assert yin["layer"] == "yin" and yin["text"].startswith("臆音億")
    assert not [p for w in whole_dump["works"] for c in w["chapters"] for s in c["sections"] for p in s["passages"]
                if p["text"].startswith("酏食也")]


def test_no_passage_of_the_tongjie_opens_with_zhu_xi_s_an(whole_dump):
    """朱熹's remarks whose first words stand outside the parentheses of their rest (按此二句本萹(重出者…今刪去),
    …少儀按此句文義皆未通(恐是記失禮耳…)), or all of it (按入學之年諸說不同見後保傅篇注): each one note of 按, its
    words whole; no passage of 经 or 记 of the 通解 opens with 按 (four did)."""
    passages = [p for w in whole_dump["works"] if w["id"] == "tongjie" for c in w["chapters"] for s in c["sections"]
                for p in s["passages"]]
    assert [p["id"] for p in passages if p["text"].startswith("按")] == []
    remarks = {n["text"] for p in passages for n in p["notes"] if n["layer"] == "an"}
    assert {"按入學之年諸說不同見後保傅篇注", "按此二句本萹重出者上有若夫二字乃大戴曾子事父母篇文别起下文之義錄者誤并取之也今刪去",
            "按此句文義皆未通恐是記失禮耳性之直猶所謂直情而徑行者歟"} <= remarks
    assert any(text.startswith("按此法六十四陳天衡十六陳居兩端地軸十二陳居中間") for text in remarks)


def test_a_gloss_cut_at_a_column_s_foot_with_its_fan_misprinted(whole_dump):
    """文王世子 (018 l.42–43): …獻畢而樂闋)闋¶苦穴及(疏曰…: the 音义 闋苦穴反, its character at the column's foot and its
    反切 at the next column's top, both printed large, 反 printed 及: one 音义 of the passage, as printed, read as 苦穴反
    (溪母先韵入声: the 《广韵》's 苦穴切); no passage of 经 闋 or 苦穴及."""
    passages = [p for w in whole_dump["works"] for c in w["chapters"] if c["id"] == "wuxue" for s in c["sections"]
                for p in s["passages"]]
    (passage,) = [p for p in passages if p["text"] == "遂發咏焉退修之以孝養也"]
    (yin,) = [n for n in passage["notes"] if n["text"] == "闋苦穴及"]
    (gloss,) = yin["glosses"]
    assert (yin["layer"], gloss["char"], gloss["kind"], gloss["restored"], gloss["status"]) == (
        "yin", "闋", "fanqie", "闋苦穴反", "matches")
    assert not [p for p in passages if p["text"] in ("闋", "苦穴及")]


def test_a_zhu_printed_large_over_a_column_s_foot_after_its_yin(whole_dump):
    """文王世子 (005 l.188–189): …而衆鄉方矣(治直計反鄉許亮反)鄉方言知所¶鄉(疏曰…: the 注 鄉方言知所鄉 (鄉方, 言知所鄉) in
    two pieces printed large, one 注 between the 音义 and the 疏; no passage 鄉方言知所 or 鄉."""
    passages = [p for w in whole_dump["works"] for c in w["chapters"] if c["id"] == "wuzong" for s in c["sections"]
                for p in s["passages"]]
    (passage,) = [p for p in passages if p["text"].endswith("而衆鄉方矣")]
    assert [(n["layer"], n["text"][:6]) for n in passage["notes"]][:3] == [("yin", "治直計反鄉許"), ("zhu", "鄉方言知所鄉"),
                                                                        ("shu", "疏曰此結庶子")]
    assert not [p for p in passages if p["text"] in ("鄉方言知所", "鄉")]


def test_the_first_words_of_a_zhu_printed_large_after_the_yin(whole_dump):
    """弟子職 (010 l.70): …乃承厥火(坐上聲…櫛莊乙反)總束也古者束¶(薪蒸以為燭故謂之總…): one 注 after the 音义."""
    (passage,) = [p for w in whole_dump["works"] for c in w["chapters"] if c["id"] == "dizizhi" for s in c["sections"]
                  for p in s["passages"] if p["text"].endswith("乃承厥火")]
    assert [(n["layer"], n["text"][:10]) for n in passage["notes"]] == [("yin", "坐上聲錯見上所叶疏果"), ("zhu", "總束也古者束薪蒸以為")]


def test_zhu_xi_s_zhangju_printed_large_between_its_parentheses(whole_dump):
    """大學 傳之七章 (015 l.263): …不得其正(程子曰…好樂並去聲)忿懥怒也葢是四者皆心¶(之用而人所不能無者…): one note of 朱熹's
    (章句) in three pieces, no passage of 经."""
    (passage,) = [p for w in whole_dump["works"] for c in w["chapters"] if c["id"] == "daxue" for s in c["sections"]
                  for p in s["passages"] if p["text"].startswith("所謂修身在正其心者")]
    assert [n["layer"] for n in passage["notes"]] == ["an"]
    assert "好樂並去聲忿懥怒也葢是四者皆心之用而人所不能無者" in passage["notes"][0]["text"]



@pytest.mark.parametrize("jing, zhu, title", [
    ("陽淫熱疾", "熱過則喘渇", "右御妻妾"),                                            # 内則's 左傳 (003 l.386–387)
    ("命膳宰曰末有原應曰諾然後退", "未猶勿也原再也勿有所再進為其失飪臭味惡也退反其寢", "右世子之記"),  # 文王世子 (004 l.199–200)
])
def test_the_end_of_a_note_at_the_next_column_s_top_in_what_a_title_files(whole_dump, jing, zhu, title):
    """The end of a 注 printed large at the top of the next column, in the 傳 a 章 title files: in its note, and the 傳
    goes on in the title's 章 (no passage of 经 opening a 章 of its own)."""
    (section,) = [s for w in whole_dump["works"] if w["id"] == "tongjie" for c in w["chapters"] for s in c["sections"]
                  if any(p["text"] == jing for p in s["passages"])]
    (passage,) = [p for p in section["passages"] if p["text"] == jing]
    assert zhu in [n["text"] for n in passage["notes"]] and section["title"] == title
