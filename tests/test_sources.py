"""Source attributions (出处) of the 通解 and the 卷 lines written on a 卷's last line of text: the
name of the book or 篇 朱熹 took a paragraph from is a note of layer ``chu``, in or outside the
transcription's parentheses (``conv.parser.sources``); ``儀禮經傳通解卷五`` at the end of a line of
text is the 卷's meta line, not 经 (``conv.reader.lines.trailing_juan``)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conv import datafiles as data
from conv.anchors.ledger import Ledger
from conv.errors import ConversionError
from conv.parser import sources
from conv.reader import lines as line_kinds

ROOT = Path(__file__).resolve().parents[1]


def tongjie_passages(dump: dict):
    (work,) = [w for w in dump["works"] if w["id"] == "tongjie"]
    for chapter in work["chapters"]:
        for section in chapter["sections"]:
            yield chapter, section, section["passages"]


def passages(dump: dict) -> dict:
    return {p["id"]: p for _, _, ps in tongjie_passages(dump) for p in ps}


@pytest.mark.parametrize("text, expected", [
    ("曲禮", True), ("並文王世子", True), ("以上玉藻", True), ("已上周禮", True), ("國語晉語", True),
    ("喪大記", True), ("䘮大記", True),  # compared folded: the 文渊阁 form of 喪
    ("以上並玉藻", True),  # prefixes one after the other
    ("曲禮曰", False), ("注見少儀", False), ("自若常也", False), ("詩", False), ("並", False),
    # a 春秋 傳 with the year of its entry: 僖公三十三年春秋左氏傳, 莊公二十四年穀梁傳, 文公七年左氏傳
    ("僖公三十三年春秋左氏傳", True), ("莊公二十四年穀梁傳", True), ("文公七年左氏傳", True), ("隠公八年春秋左氏傳", True),
    ("十五年左氏傳", True), ("元年春秋左氏傳", True), ("昭二十六年春秋左氏傳", True),
    ("三年問", True), ("僖公三十三年", False), ("三十三年曲禮", False), ("秦穆公三年左氏傳", False),
    # the book named before the year: 左氏 with the 魯 duke's reign, 通鑑 with the ruler or era
    ("左氏宣公二年", True), ("左氏襄二十五年", True), ("左氏隠五年", True), ("通鑑赧王三十一年", True),
    ("資治通鑑宋文帝元嘉三十年", True), ("通鑑", True), ("鄉黨", True), ("公羊莊十二年", True), ("公羊威二年", True),
    ("史記通鑑", True), ("史記微子世家", True), ("國語齊語", True), ("劉敞補亡", True),
    ("哀公十五年左氏春秋傳", True), ("並禮記曾子問", True), ("事見魯襄公三十一年左氏春秋傳", False),
    ("左氏", False), ("左氏宣公", False), ("通鑑赧王", False), ("左氏秦穆公三年", False),
    ("左昭二十年", True), ("左僖公二十八年", True), ("左氏傳襄公十四年", True), ("左傳宣公二年", True), ("孔叢子問軍禮", True), ("春秋左氏傳昭公十七年", True),
    ("孝經", True), ("荀子大畧", True), ("家語荀子", True), ("吕氏春秋", True), ("左", False), ("左昭", False),  # 左 for 左氏, as 王朝禮 writes it
    ("滕文公上", True), ("梁惠王下", True), ("滕文公", True), ("告子", False), ("盡心", False),  # 孟子's 篇, with 上 or 下
])
def test_what_is_a_source(text, expected):
    assert sources.is_source(text) is expected


@pytest.mark.parametrize("note, start", [
    ("疏曰家事統於尊財闗尊者故也以上曲禮", 13),  # after its prefix
    ("齒於學之謂也祭義", 6),                    # after 也
    ("自貶損也以上並玉藻", 4),
    ("注見少儀", None), ("說見内則", None), ("今從大戴記", None),  # the note points to a book: no attribution
    ("曲禮", None),                                        # the whole note is one: segments.classify
])
def test_a_source_closing_a_note(note, start):
    assert sources.closing(note) == start


# Sources glued to a note's last words with no 也 or prefix between them: read where they stand and listed in
# conv/data/sources.toml (`glued`); the words a note ends with are not enough (今從大戴記, 反而奔䘮, 此皆與於投壺 stay words).
GLUED = [
    ("tongjie-shaoyi-120", "在在内也後來之衆皆說屨於户外", "少儀"),    # …於户外)¶(少儀)右洒埽應對進退
    ("tongjie-quli-180", "學制", "少儀"),                              # 三徳三行六藝並見¶(學制少儀)
    ("tongjie-quli-398", "重愼", "少儀"),                              # 執虚如執盈入虚如有人(重愼少儀): 鄭注 重慎也
    ("tongjie-jianzuo-97", "巾車宗伯之屬下大夫二人", "大戴"),          # (…下大夫二)¶(人大戴)傳曰…
    ("tongjie-pinli-621", "禮賜謂乘禽君之加惠也如入之積則三積從來至去", "司儀"),
    ("tongjie-wangzhiwu-39", "命於天子者天子選用之如今詔書除吏矣小國亦三卿一卿命於天子二卿命於其君此文似誤脱耳"
                             "或者欲見畿内之國二卿與", "王制"),         # (…二卿與王制)制三公一命卷…
    ("tongjie-wangzhigeng-148", "謂若衛文公者未道未合於道", "玉藻"),
    ("tongjie-wangzhiding-61", "慶賞也益其地以賞之也掊克聚歛也讓責也移之者誅其人而變置之也自入其疆至則有讓言巡狩之事"
                               "自一不朝至六師移之言述職之事", "告子下"),  # (…言述職)¶(之事告子下): 孟子
]


@pytest.mark.parametrize("note, start", [(words + source, len(words)) for _, words, source in GLUED])
def test_a_source_glued_to_a_note_s_last_words(note, start):
    assert sources.closing(note) == start


def test_a_malformed_glued_entry_stops_at_its_line(monkeypatch):
    """An entry of `glued` without its bar, or whose source is no title, names sources.toml and its line."""
    table = dict(data.sources(), glued=["於户外少儀", "合於道|玉藻"])
    monkeypatch.setattr(data, "sources", lambda: table)
    sources._glued.cache_clear()
    try:
        with pytest.raises(ConversionError) as caught:
            sources.closing("在在内也後來之衆皆說屨於户外少儀")
    finally:
        sources._glued.cache_clear()
    text = (ROOT / "conv" / "data" / "sources.toml").read_text(encoding="utf-8")
    listed = text[:text.index("glued = [")].count("\n") + 1  # an entry not written so in the file: the list's line
    assert (caught.value.seed, caught.value.line) == ("conv/data/sources.toml", listed) and "words|title" in str(caught.value)


def test_a_source_glued_to_a_note_s_last_words_is_its_own_segment(whole_dump):
    """The passage's note is the words, then the source (出处), in the order of the witness."""
    held = passages(whole_dump)
    for anchor, words, source in GLUED:
        notes = held[anchor]["notes"]
        at = next(i for i, n in enumerate(notes) if n["text"] == words)
        assert (notes[at]["layer"], notes[at + 1]["layer"], notes[at + 1]["text"]) == ("zhu", "chu", source), anchor
        assert notes[at]["span"][2] <= notes[at + 1]["span"][1], anchor
    # each entry of the data file closes exactly one note: no entry left over, none matching a second place
    pairs = [(a["text"], b["text"]) for p in held.values() for a, b in zip(p["notes"], p["notes"][1:]) if b["layer"] == "chu"]
    for entry in data.sources()["glued"]:
        words, source = entry.split("|")
        assert sum(a.endswith(words) and b == source for a, b in pairs) == 1, entry


def test_a_source_ending_a_paragraph_before_a_title():
    """…(新書升作斗荷作倚待作侍)大戴記右胎教¶: the attribution, then the 章 title on its line."""
    assert sources.ending_run("大戴記右胎教") == 3
    assert sources.ending_run("大戴記") == 3
    assert sources.ending_run("曲禮曰毋不敬") == 0
    assert sources.ending_run("右胎教") == 0


def test_a_source_outside_the_parentheses_is_the_paragraph_s_note(whole_dump):
    """内則 (卷三叶十二a): …疾止復故(自若常也)曲禮¶: 曲禮 is 朱熹's source, not a passage of 经; the
    passage it was keeps its anchor's citations (redirected to the paragraph)."""
    found = passages(whole_dump)
    passage = found["tongjie-neize-137"]
    assert passage["text"] == "疾止復故"
    assert [(n["layer"], n["text"]) for n in passage["notes"]] == [("zhu", "自若常也"), ("chu", "曲禮")]
    old = Ledger.load().get("tongjie-neize-138")
    assert not old.live and old.to == "tongjie-neize-137"


def test_a_source_inside_the_parentheses(whole_dump):
    """(以上列女傳), 以上(並文王世子): the note is the attribution, layer chu, not a 注."""
    notes = Counter((n["layer"], n["text"]) for _, _, ps in tongjie_passages(whole_dump) for p in ps for n in p["notes"])
    # the seventh 列女傳 printed large after 昏義's paragraph (session 27)
    assert notes[("chu", "以上列女傳")] == 1 and notes[("chu", "以上並文王世子")] == 1 and notes[("chu", "列女傳")] == 7
    assert not [text for (layer, text) in notes if layer == "zhu" and sources.is_source(text)]
    assert sum(count for (layer, _), count in notes.items() if layer == "chu") == 430  # session 27: 列女傳 printed large after 昏義's paragraph (note_runs.toml); 孝經 (5), 荀子 (並荀子, 荀子大畧 twice), 吕氏春秋, 戰國䇿, 家語五刑, 家語荀子, 禮記檀弓家語子貢問, 春秋左氏傳昭公十七年 (once 注 or the start of the next paragraph; 吕氏春秋古樂曰… opens its quotation: may_open_text); 4 of 左氏傳 and 左傳 with the year (左氏傳莊公三十(一年) cut by the parentheses), 3 of 孔叢子's 篇; 9 of 左 with the year (左昭三十二年, 左襄九年: before the next paragraph or once 注); 孟子's 篇 (滕文公, 滕文公上, 梁惠王下, 告子下); 8 sources glued to a note's last words (sources.toml, glued); session 26: 國語齊語, 劉敞補亡 (士相見義), 哀公十五年左氏春秋傳 and 並禮記曾子問, once 注; 鄉黨 (3), 周禮調人, 史記通鑑 and 11 books named before their year (左氏僖公九年, 公羊威二年, 左氏僖(公二十八年) cut by the parentheses) before the next paragraph or title, 15 notes of one (左氏宣公二年, 通鑑赧王三十一年, 史記微子世家) once read as 注; 曲禮 (twice), 玉藻, 國語晉語 after a note's last words printed large (session 22); 曲禮's 少儀 after 春秋傳曰師還曰罷 (note_runs.toml); 175 before the next paragraph on the line (4 after 音义 printed large; session 22); 文王世子 after its 音义 (session 21); 司儀 (twice), 掌客 (thrice), 明堂位, 少儀 (twice), 以上並曲禮, 雜記 and 大行人 before what follows them (runs of note_runs.toml); 21 春秋 傳 named with their year (僖公三十四年春秋左氏傳); 曲禮's (乃得殺也)王制 (note_runs.toml); 曽子問 since 曽 folds to 曾 (variants.tsv); 7 cut in two by the parentheses (並賈誼(新書) was one already), 3 more with 以上並, 13 closing a note


@pytest.mark.parametrize("run, length", [
    ("玉藻聽於無聲視於無形", 2), ("曲禮上入公門鞠躬如也", 3), ("以上曲禮父母有疾", 4), ("國語周語周襄王", 4),
    ("成公八年春秋左氏傳晉", 9), ("左氏僖公九年孔子曰拜下禮也", 6), ("鄉黨君命召雖賤人大夫", 2), ("周禮調人右復讎傳", 4),
    ("公羊威二年宋萬嘗與魯莊公戰", 5), ("史記通鑑王孫賈事齊閔王", 4), ("公羊子曰諸侯娶一國", 0),
    ("白虎通義曰娶妻不先告廟者", 0), ("曲禮曰", 0), ("大行人掌大賓之禮", 0), ("曾子問於夫子曰", 0), ("哀公問政", 0),
    ("周禮大司徒令五家爲比", 0), ("玉藻", 0),
])
def test_a_source_before_the_next_paragraph(run, length):
    """A run after a note that opens with a source and goes on: the source of the paragraph before (…)玉藻聽於無聲…),
    unless a quotation's words follow it (白虎通義曰…) or it is a title that may open the text (大行人掌大賓之禮…)."""
    assert sources.opening_run(run) == length


def test_the_source_before_the_next_paragraph_is_the_paragraph_s(whole_dump):
    """内則 (卷三): …稱父拜之(…)玉藻聽於無聲視於無形(恒若親之將有教使然…): 玉藻 (親在行禮於人稱父…) is the source of
    the paragraph before, printed small at its end; 聽於無聲視於無形 (曲禮) begins the next passage, which keeps its anchor."""
    found = passages(whole_dump)
    assert found["tongjie-neize-123"]["text"] == "聽於無聲視於無形"
    (before,) = [p for p in found.values() if p["text"].startswith("親在行禮於人稱父")]
    assert (before["notes"][-1]["layer"], before["notes"][-1]["text"]) == ("chu", "玉藻")


@pytest.mark.parametrize("text, yin", [
    ("客若降等執食興辭", "食音嗣和户卧反"),                      # 曲禮 (士相見禮): …)食音嗣和户卧反少儀客若降等…
    ("問品味曰子亟食於某乎問道藝曰子習於某乎子善於某乎", "為于偽反"),  # 曲禮: …)為于偽反少儀問品味曰…
    ("凡遺人弓者張弓尚筋弛弓尚角", "辟匹亦反鄉許亮反"),          # …)辟匹亦反鄉許亮反少儀¶凡遺人弓者…
    ("疾君視之東首加朝服拖紳", "剗初限反"),                      # 臣禮: …)剗初限反士相見禮¶疾君視之… (論語)
])
def test_a_source_after_the_glosses_before_the_next_paragraph(whole_dump, text, yin):
    """音义 printed large after a note, then the source of the paragraph, then the next paragraph: the glosses and the
    source close the paragraph's notes (音义, 出处), the next passage begins after them."""
    found = [p for _, _, ps in tongjie_passages(whole_dump) for p in ps]
    at = next(i for i, p in enumerate(found) if p["text"] == text)
    notes = [(n["layer"], n["text"]) for n in found[at - 1]["notes"]]
    assert notes[-2][0] == "yin" and notes[-2][1].endswith(yin) and notes[-1][0] == "chu"


@pytest.mark.parametrize("words, source", [
    ("宜急去不得畱停宿於家也", "曲禮"),   # 聘禮 (卷二十二): 疏…已受宜急去¶不得畱停宿於家也曲禮(今按…
    ("所謂門楔也", "玉藻"),              # …所謂)¶門楔也玉藻(今按…
    ("既有束帛不須藻", "曲禮"),            # 聘禮: …既有束帛)¶不須藻曲禮(陳祥道云…: before a scholar 朱熹 quotes
    ("黄帝同姓為姬也", "國語晉語"),        # 五宗: (…同姓)¶為姬也國語晉語(今按…
])
def test_a_notes_last_words_then_the_source_before_zhu_xi_s_remark(whole_dump, words, source):
    """The last words of a 疏 or 注 at the next column's top, printed large, then the paragraph's source, then 朱熹's 按
    (or a scholar he quotes, 陳祥道云…):
    the words end the note (conv/data/note_runs.toml), the source is its 出处, no passage holds them."""
    notes = [[(n["layer"], n["text"]) for n in p["notes"]] for _, _, ps in tongjie_passages(whole_dump) for p in ps]
    (held,) = [ns for ns in notes if any(text.endswith(words) for _, text in ns)]
    at = next(i for i, (_, text) in enumerate(held) if text.endswith(words))
    assert held[at + 1] == ("chu", source) and held[at + 2][0] == "an"


def test_a_source_before_a_title_leaves_the_title(whole_dump):
    """内治 (卷四): …(…今遵用之)已上周禮右内職¶: the attribution in the note, 右内職 the section's title."""
    (section,) = [s for c, s, _ in tongjie_passages(whole_dump) if c["id"] == "neizhi" and s["title"] == "右内職"]
    last = section["passages"][-1]
    assert (last["notes"][-1]["layer"], last["notes"][-1]["text"]) == ("chu", "已上周禮")


def test_a_source_before_zhu_xi_s_remark(whole_dump):
    """内治: …(…此言善言)也哀公問(今按此一章與家語小異…): the 注's last word, the source, then 朱熹's 按."""
    passage = passages(whole_dump)["tongjie-neizhi-74"]
    assert [(n["layer"], n["text"][:6]) for n in passage["notes"]] == [("zhu", "善哀公及此言"), ("chu", "哀公問"),
                                                                       ("an", "今按此一章與")]


def test_an_office_of_the_zhouli_listed_as_text_stays_text(whole_dump):
    """王朝禮's list of the 周禮 offices: 司儀 heads its own paragraph (司儀(掌九儀…)): 经, no attribution."""
    assert any(p["text"] == "司儀" and p["notes"] and p["notes"][0]["layer"] == "zhu"
               for c, _, ps in tongjie_passages(whole_dump) if c["id"] == "wangzhiwu" for p in ps)


def test_a_book_that_opens_its_quotation_is_no_source_of_the_paragraph_before(whole_dump):
    """樂記 (026 l.737–738): …夫子曰過而能改其進矣乎(家語)¶吕氏春秋古樂曰樂所由來者尚也…: the paragraph before has its
    source, 家語; 吕氏春秋 opens the next quotation (may_open_text), while (吕氏春秋) after 臣禮's paragraph is its source.
    Titles opening the next paragraph after a note are the source of the one before: (…)孝經冡宰以八柄詔王…."""
    held = {p["text"]: p for _, _, ps in tongjie_passages(whole_dump) for p in ps}
    assert any(text.startswith("吕氏春秋古樂曰樂所由來者尚也") for text in held)
    (before,) = [p for p in held.values() if p["text"].startswith("曾子問於夫子曰敢問從父之令")]
    assert (before["notes"][-1]["layer"], before["notes"][-1]["text"]) == ("chu", "孝經")
    assert any(text.startswith("冡宰以八柄詔王馭羣臣") for text in held)


def test_no_passage_of_the_tongjie_ends_with_a_source_s_name(whole_dump):
    """A source printed large right after its paragraph, before a note (昏義's …而後有夫婦之際列女傳(白虎通義作…)), is the
    paragraph's 出处 (note_runs.toml), and 内治's 此章兼取左氏傳檀弓(之語) 朱熹's remark (c41): no passage ends with a title of
    sources.toml (two did)."""
    titles = [t for t in data.sources()["titles"] if len(t) >= 2]
    ending = [p["id"] for _, _, ps in tongjie_passages(whole_dump) for p in ps
              if any(p["text"].endswith(t) and p["text"] != t for t in titles)]
    assert ending == []


@pytest.mark.parametrize("chapter, juan, last", [
    ("qinshuji", "儀禮經傳通解卷五", "故稱夫之父母為舅姑也"),       # the 卷 line on the text's last line
    ("shaoyi", "儀禮經傳通解巻十", "偶坐不辭"),                  # a column running on into it
    ("wuxue", "儀禮經傳通觧卷十九", None),                      # 觧: the work's title as printed there
])
def test_a_juan_line_at_the_end_of_the_text_is_the_juan_s(whole_dump, chapter, juan, last):
    (work,) = [w for w in whole_dump["works"] if w["id"] == "tongjie"]
    (found,) = [c for c in work["chapters"] if c["id"] == chapter]
    assert (found["meta"][-1]["kind"], found["meta"][-1]["text"]) == ("juan", juan)
    texts = [p["text"] for s in found["sections"] for p in s["passages"]]
    assert not [t for t in texts if "通解" in t or "通觧" in t]
    if last:
        assert texts[-1].endswith(last)


def test_the_trailing_juan_line():
    assert line_kinds.trailing_juan("为舅姑也仪礼经传通解卷五") == (4, line_kinds.MetaLine("juan", 5))
    assert line_kinds.trailing_juan("仪礼经传通解卷五") is None  # a line of its own: meta_line
    assert line_kinds.trailing_juan("其卷五") is None  # a bare 卷 in the text is the text's


def test_the_lemma_of_a_note_after_its_gloss_opens_the_note(whole_dump):
    """内則 (卷三): …思貽父母羞辱必不果(貽以之反)貽¶(遺也果决也…): the 注 repeats the word its 音义 read (貽, 遺也),
    printed small in the book and large in the transcription; it opens the 注 (unbracketed._gloss_lemma),
    and the 校勘记 records the move."""
    passage = next(p for _, _, ps in tongjie_passages(whole_dump) for p in ps if p["text"].endswith("思貽父母羞辱必不果"))
    assert [(n["layer"], n["text"][:5]) for n in passage["notes"]][:2] == [("yin", "貽以之反"), ("zhu", "貽遺也果决")]
    moved = [r for r in whole_dump["apparatus"] if r["kind"] == "note-words" and r["span"][0] == "KR1d0085_003.txt"
             and r["line"] == 133]
    assert [(r["text"], r["evidence"]) for r in moved] == [("貽", "glossed")]
    # 聳(息勇反…)聳(懼也): the same in 王朝禮
    assert any([(n["layer"], n["text"]) for n in p["notes"]][-2:] == [("yin", "聳息勇反行下孟反"), ("zhu", "聳懼也")]
               for _, _, ps in tongjie_passages(whole_dump) for p in ps)


def test_a_source_the_parentheses_cut_in_two(whole_dump):
    """五宗 (卷五): …(翦割截也)文王世(子)魯人有同姓死…: the source is 文王世子, cut by the transcriber's
    parenthesis; one 出处 in the note, the move in the 校勘记, and the next paragraph's 经 as it was."""
    passage = passages(whole_dump)["tongjie-wuzong-153"]
    assert [(n["layer"], n["text"]) for n in passage["notes"]] == [("zhu", "翦割截也"), ("chu", "文王世子")]
    (record,) = [r for r in whole_dump["apparatus"] if r["kind"] == "note-words" and r["evidence"] == "source"
                 and r["text"] == "文王世"]
    assert record["source"] == "文王世子" and record["line"] == 193
    assert passages(whole_dump)["tongjie-wuzong-155"]["text"].startswith("魯人有同姓死而弗弔者")


def test_a_dated_source_is_a_source_not_zhu(whole_dump):
    """The 春秋 傳 named with the year of their entry, (僖公三十三年春秋左氏傳), 昭公元年春秋左氏傳(今按…: 出处, not
    注; printed large after a note and before 朱熹's 按 (…非正也)隠公八年春秋左氏傳(今按…), it is that note's 出处;
    and no passage of 经 is one (…)文公七年左氏傳¶)."""
    dated = [(n["layer"], n["text"]) for _, _, ps in tongjie_passages(whole_dump) for p in ps for n in p["notes"]
             if n["text"].endswith(("左氏傳", "穀梁傳", "公羊傳")) and "年" in n["text"] and sources.is_source(n["text"])]
    assert len(dated) == 24 and {layer for layer, _ in dated} == {"chu"}, dated  # 3 before the next paragraph (session 22)
    assert ("chu", "隠公八年春秋左氏傳") in dated
    assert not [p for _, _, ps in tongjie_passages(whole_dump) for p in ps if "年" in p["text"] and sources.is_source(p["text"])]
