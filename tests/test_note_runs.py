"""Notes the 通解's transcription writes as large text (注文錄作大字): the runs of
``conv/data/note_runs.toml``, read against the 句读's notes, are in their notes
(``conv.parser.note_runs``), each with its entry in the 校勘记, its old passage's anchor redirected."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conv import datafiles as data
from conv.anchors.ledger import Ledger
from conv.errors import ConversionError
from conv.parser.note_runs import NoteRuns
from conv.parser.report import SeedReport
from conv.reader import wenyuange
from conv.reader.mandoku import gaiji_char
from conv.reader.lexer import tokenize

from dumps import passage_with, tongjie_passages

ROOT = Path(__file__).resolve().parents[1]
SHIHUN = ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_002.txt"


def test_a_note_that_runs_on_past_a_column_is_one_note(whole_dump):
    """士昏禮 (卷二叶十八): …使擯者)¶請事母出南面房外示親授壻且當戒女也(疏曰…: the 注 goes on at the top of the
    next column, after a 右…記 line; the 句读 has 「使擯者請事母出南面房外示親授壻且當戒女也」 as 郑注."""
    passage = passage_with(whole_dump, "對曰某固敬具以須記父醴女而俟迎者母南面于房外")
    note, shu = passage["notes"]
    assert note["layer"] == "zhu" and note["text"] == ("女既次純衣父醴之于房中南面葢毋薦焉重昏禮也女奠爵于薦東立于位而俟壻"
                                                       "壻至父出使擯者請事母出南面房外示親授壻且當戒女也")
    assert shu["layer"] == "shu" and shu["text"].startswith("疏曰舅姑共饗婦")
    assert not any("請事母出" in p["text"] for p in tongjie_passages(whole_dump))


@pytest.mark.parametrize("text, notes", [
    # the rest of a note after its first ): (對醬婦醬也設之當)特俎(疏曰…
    ("設對醬于東", [("zhu", "對醬婦醬也設之當特俎")]),
    # a 注 going on over two runs the alignment found apart: (…嘉其)¶來也公再拜賓降矣(疏曰…
    ("公當楣北鄉至再拜賓降也公再拜", [("zhu", "楣謂之梁至再拜者興禮俟賓嘉其來也公再拜賓降矣")]),
    # the 注's end, then its 音义, before the 疏: …皆乘)¶古文奉為卷今文無則纁許云反乗絶證反(疏曰…
    ("官陳幣皮北首西上加其奉于左皮上馬則北面奠幣于其前",
     [("zhu", "奉所奉以致命謂束帛及𤣥纁也馬言則者此享主用皮或時用馬馬入則在幕南皮馬皆乘古文奉為卷今文無則"),
      ("yin", "纁許云反乗絶證反")]),
    # a run a note cuts in two, each piece next to it: 饌直轉反墊音孰(筮所以…成卦饌)陳也其俱也西塾門外西堂也(畫音獲…
    ("筮與席所卦者具饌于西塾",
     [("yin", "饌直轉反墊音孰"), ("zhu", "筮所以問吉凶謂蓍也所卦者所以畫地記爻易曰六畫而成卦饌陳也其俱也西塾門外西堂也"),
      ("yin", "畫音獲爻户交反")]),
])
def test_the_words_are_in_their_note(whole_dump, text, notes):
    (passage,) = [p for p in tongjie_passages(whole_dump) if p["text"] == text]
    assert [(n["layer"], n["text"]) for n in passage["notes"][:len(notes)]] == notes
    assert passage["notes"][len(notes)]["text"].startswith("疏曰")


def test_the_rest_of_a_gloss_cut_at_a_column_s_foot(whole_dump):
    """鄉射禮: …(倚於綺反括古)¶活反上堂西廉矢亦北括(疏曰…: the 句读 prints neither the 音义 nor the 注's words
    as the 通解 does (its 经 lacks them: in_notes = false); the 音义 is whole again, the 注 after it."""
    (passage,) = [p for p in tongjie_passages(whole_dump) if p["text"].endswith("倚于西序矢在弓下北括衆弓倚于堂西矢在其上")]
    assert [(n["layer"], n["text"]) for n in passage["notes"][:2]] == [("yin", "倚於綺反括古活反"), ("zhu", "上堂西廉矢亦北括")]
    assert passage["notes"][0]["glosses"][1]["text"] == "括古活反"


def test_a_run_cut_where_a_gloss_ends(whole_dump):
    """士冠禮: …(魁苦囘反柎方)¶于反魁蜃蛤柎注也蜃上忍反…: 于反 ends the 音义 of the column before, 魁蜃蛤柎注也 is
    the 注 (two entries): the 音义 whole, the 注 a segment of its own, not the gloss's definition."""
    (passage,) = [p for p in tongjie_passages(whole_dump) if any(n["text"] == "魁蜃蛤柎注也" for n in p["notes"])]
    assert [(n["layer"], n["text"]) for n in passage["notes"][:3]] == [
        ("yin", "魁苦囘反柎方于反"), ("zhu", "魁蜃蛤柎注也"), ("yin", "蜃上忍反蛤音閤")]
    assert [g["text"] for g in passage["notes"][0]["glosses"]] == ["魁苦囘反", "柎方于反"]


def test_a_gloss_cut_at_a_column_s_foot_in_two_pieces(whole_dump):
    """燕禮 (KR1d0085_019 l.102–103): …飲於鴆反堵¶音者逺于萬反(疏曰…: 堵音者 is one 音义, its two pieces two runs,
    the first going on into the second over the column's foot."""
    (passage,) = [p for p in tongjie_passages(whole_dump) if any(n["text"] == "堵音者" for n in p["notes"])]
    assert passage["text"].endswith("與卿燕則大夫為賔與大夫燕亦大夫為賔")
    assert not [p for p in tongjie_passages(whole_dump) if p["text"] in ("堵", "音者", "阨", "於賣反")]


def test_every_run_is_in_a_note_with_its_entry(whole_dump):
    entries = [(n, e) for n, e in data.note_runs() if "judou" in e]
    records = {(r["span"][0], r["line"], r["text"]): r for r in whole_dump["apparatus"]
               if r["kind"] == "note-words" and r["evidence"] == "judou"}
    assert len(records) == len(entries) == 802 and sum(e.get("in_notes", True) for _, e in entries) == 655
    ledger = Ledger.load()
    note_spans, text_spans = [], []
    for passage in tongjie_passages(whole_dump):
        text_spans.append(passage["span"])
        note_spans.extend(n["span"] for n in passage["notes"])
    for _, entry in entries:
        words = re.sub(r"&KR\d+;", lambda m: gaiji_char(m.group()), entry["text"])  # one character each
        record = records[(entry["file"], entry["line"], words)]
        name, start, end = record["span"]
        assert end - start == len(entry["text"]) and record["witness_anchor"] == entry["judou"]
        assert record["in_notes"] is entry.get("in_notes", True) and record["page"]["juan"] > 0
        assert ledger.get(entry["judou"]).live  # the 句读 passage whose notes hold the words
        noted = {o for n in note_spans if n[0] == name for o in range(max(n[1], start), min(n[2], end))}
        assert noted == set(range(start, end)), entry  # in one note, maybe as two segments (注 and 音义)
        assert not any(t[0] == name and t[1] < end and start < t[2] for t in text_spans), entry


@pytest.mark.parametrize("text, notes", [
    # 燕禮 卷二十叶二十九b: …今文觶又為)¶觚(疏曰…, the 注's last word at the top of the next column
    ("公坐取賓所媵觶興唯公所賜", [("zhu", "至此又言興者明公崇禮不倦也今文觶又為觚"), ("shu", "疏曰此以下論君為士舉旅之事")]),
    # 士昏禮 卷二叶八b: …古文)¶與為豫(疏曰…: the reading statement whole (古文與為豫)
    ("對曰某之子不教唯恐弗堪子有吉我與在某不敢辭", [("yin", "與音預注同"), ("zhu", "與猶兼也古文與為豫")]),
    # 公食大夫禮 卷二十三叶十b: …今文倫或作)¶論(疏曰…
    ("倫膚七", [("zhu", "倫理也謂精理滑脆者今文倫或作論")]),
    # 聘禮 卷二十二: 禳乃入(禳如羊反)禳¶(祭名也…: the 注's first word before its parenthesis
    ("禳乃入", [("yin", "禳如羊反"), ("zhu", "禳祭名也為行道累歴不祥禳之以除灾凶")]),
])
def test_a_note_s_one_word_printed_large_is_in_its_note(whole_dump, text, notes):
    """A character of a note printed large (the parallels' note-in-text: with the note's words next to it,
    the 句读's note): in its note, and no passage of that one character is left (its anchor redirected)."""
    (passage,) = [p for p in tongjie_passages(whole_dump) if p["text"] == text and p["notes"]]
    assert [(n["layer"], n["text"]) for n in passage["notes"][:len(notes)]] == notes
    assert not [p for p in tongjie_passages(whole_dump) if p["text"] in ("觚", "論", "與為豫", "禳")]
    redirected = {r["from"]: r["to"] for r in whole_dump["redirects"]}
    assert [redirected.get(f"tongjie-{old}") for old in ("yanli-218", "shihun-68", "gongshi-74", "pinli-638")] == [
        "tongjie-yanli-217", "tongjie-shihun-67", "tongjie-gongshi-73", "tongjie-pinli-637"]


def test_the_first_word_of_a_note_outside_its_parentheses_opens_it(whole_dump):
    """鄉射禮記 (KR1d0085_008:185) …如賓禮(長丁丈反)尊(之於其黨)…: 尊 opens the 注 (the 句读 prints
    【尊之於其黨…】); it is no 记 passage, and no 尊 of the vessels is left unplaced there."""
    passage = passage_with(whole_dump, "衆賓之長一人辭洗如賓禮")
    assert [(n["layer"], n["text"]) for n in passage["notes"]] == [("yin", "長丁丈反"), ("zhu", "尊之於其黨")]
    assert not [p for p in whole_dump["problems"] if p["seed"] == "KR1d0085_008.txt" and p["line"] == 185]


def test_runs_in_a_book_the_judou_lacks_are_read_by_their_words(whole_dump):
    """曲禮 (the 通解's, from 少儀): a 注 between the 音义 and the 疏, over a page (…折之設反)折俎尊徹之乃坐也已沐飲
    ¶<pb>¶曰禨酌始冠曰醮(疏曰…), and the rest of a 注 the transcription closes at a page's foot (…祭所尊在室)
    ¶<pb>¶燕所尊在堂…(疏曰…): each is in its note, its entry gives the reason in Chinese (``basis``) and
    no 句读 passage; the 名物 尊 in them is no longer an unplaced term."""
    entries = [e for _, e in data.note_runs() if "basis" in e]
    assert [(e["file"], e["line"]) for e in entries][:3] == [("KR1d0085_011.txt", 281), ("KR1d0085_011.txt", 283),
                                                              ("KR1d0085_011.txt", 462)]
    assert len(entries) == 844 and all(re.search("[\u4e00-\u9fff]", e["basis"]) for e in entries)
    assert not any("judou" in e for e in entries)
    passage = passage_with(whole_dump, "飲酒者禨者醮者有折俎不坐")  # after 少儀, the source of the paragraph before
    assert [(n["layer"], n["text"]) for n in passage["notes"][:2]] == [
        ("yin", "禨其記反醮子笑反折之設反"), ("zhu", "折俎尊徹之乃坐也已沐飲曰禨酌始冠曰醮")]
    assert passage["notes"][2]["text"].startswith("疏曰案鄉飲酒燕禮有折俎者皆不坐")
    passage = passage_with(whole_dump, "凡祭於室中堂上無跣燕則有之")
    assert passage["notes"][1]["text"].endswith("祭所尊在室燕所尊在堂將燕降說屨乃升堂")
    records = [r for r in whole_dump["apparatus"] if r["kind"] == "note-words" and r["evidence"] == "reading"]
    assert sorted((r["span"][0], r["line"], r["text"], r["basis"]) for r in records) == sorted(
        (e["file"], e["line"], re.sub(r"&KR\d+;", lambda m: gaiji_char(m.group()), e["text"]), e["basis"])
        for e in entries)  # a gaiji is one character of the record's words
    assert not [p for p in whole_dump["problems"] if p["kind"] == "term-unplaced" and p["seed"] == "KR1d0085_011.txt"]


@pytest.mark.parametrize("opening, head", [
    ("加之衣服雖不欲必服而待", "疏曰尊者加己衣服"),          # 内則: …釋蔵也)疏¶(曰尊者…
    ("其辭于賔曰宗兄宗弟宗子在他國使某辭", "疏曰宿讀為肅"),   # 五宗: …使某告)疏¶<pb>(曰宿讀為肅…
    ("保章氏掌天星以志星辰日月之變動以觀天下之遷辨其吉凶", "正義曰上馮相氏"),     # 曆數: 孔穎達's 正義, …皆見焉)正義¶(曰…
])
def test_a_head_at_a_line_s_end_opens_the_note_on_the_next_line(whole_dump, opening, head):
    """疏 (正義) ending a line after a note, its 曰 opening the note on the next line: the head opens
    that note, a 疏 (layer ``shu``) of the passage before, not a passage of one character."""
    passage = passage_with(whole_dump, opening)
    assert [n["layer"] for n in passage["notes"] if n["text"].startswith(head)] == ["shu"]
    assert not [p for w in whole_dump["works"] for c in w["chapters"] for s in c["sections"]
                for p in s["passages"] if p["text"] in ("疏", "正義")]


@pytest.mark.parametrize("text, note", [
    ("諸侯之於天子也比年一小聘三年一大聘五年一朝", "比年每嵗也"),  # (王制, the source before) …朝直遥反)比¶(年每嵗也…
    ("毋勦說", "勦猶擥也"),
    ("雖然吾君老矣子少國家多難", "子謂奚齊"),                         # over a page: 子¶<pb>(謂奚齊)
    ("傳曰古者深衣盖有制度以應規矩繩權衡", "言聖人制事必有法度"),
    ("掌畜", "養鳥"),                                                  # 周禮's offices: 掌畜(畜許六反)養¶(鳥)
    ("為量段氏", "為鏄"),
])
def test_a_note_s_first_character_left_before_its_parentheses_opens_it(whole_dump, text, note):
    """The first character of a 注 (its lemma) printed before the note's parentheses, at a column's
    end or on the line: it opens that 注 (conv/data/note_runs.toml), no passage of one character."""
    passage = passage_with(whole_dump, text)
    assert [n["layer"] for n in passage["notes"] if n["text"] == note or n["text"].startswith(note)] == ["zhu"]
    assert not [p for p in tongjie_passages(whole_dump) if p["text"] in ("比", "勦", "子", "言", "養", "為")]


def test_the_words_of_cheng_zi_are_the_zhangju_s_title_note(whole_dump):
    """大學 and 中庸 (KR1d0085_015:164, _016:14–16): 朱熹's 章句 opens with 程子's words (子程子曰…), printed
    large between the 篇's title and the 经. They are the title's note, in the layer of the 注 (朱熹章句
    there), over the page in 中庸; the 经 opens the first 章; the passages they were redirect to the 篇."""
    chapters = {c["id"]: c for w in whole_dump["works"] if w["id"] == "tongjie" for c in w["chapters"]}
    daxue, zhongyong = chapters["daxue"], chapters["zhongyong"]
    assert [(m["layer"], m["text"]) for m in daxue["mulu"]] == [
        ("yin", "大舊音泰今讀如字"),
        ("zhu", "子程子曰大學孔氏之遺書而初學入徳之門也於今可見古人為學次第者獨賴此篇之存而論孟次之學者必由是而學焉則庶乎其不差矣")]
    assert daxue["sections"][0]["passages"][0]["text"] == "大學之道在明明徳在親民在止於至善"
    (layer, text) = [(m["layer"], m["text"]) for m in zhongyong["mulu"]][-1]
    assert layer == "zhu" and text.startswith("子程子曰不偏之謂中") and text.endswith("其書始言一理中散為萬事末復合為一理放之則彌六合巻之則退藏於密其味無窮皆實學也善讀者玩索而有得焉則終身用之有不能盡者矣")
    assert zhongyong["sections"][0]["passages"][0]["text"] == "天命之謂性率性之謂道修道之謂教"
    ledger = Ledger.load()
    assert [(e.status, e.to) for e in (ledger.get("tongjie-daxue-1"), ledger.get("tongjie-zhongyong-1"))] == [
        ("redirect", "tongjie-daxue"), ("redirect", "tongjie-zhongyong")]


def test_a_run_with_neither_judou_nor_basis_stops_the_conversion(shihun):
    source, report = shihun
    with pytest.raises(ConversionError) as error:
        NoteRuns(source, report, [(9, {"file": SHIHUN.name, "line": 253, "text": "請事母出"})])
    assert str(error.value).startswith("conv/data/note_runs.toml:9:1: ")
    assert "neither judou nor basis" in str(error.value)


def test_a_run_read_as_jing_needs_its_basis_and_its_place(shihun):
    """A [[jing]] entry (a run read as 经) gives its reason in Chinese and nothing else, and stands on its line."""
    source, report = shihun
    with pytest.raises(ConversionError) as error:
        NoteRuns(source, report, [], [(9, {"file": SHIHUN.name, "line": 253, "text": "請事母出"})])
    assert str(error.value).startswith("conv/data/note_runs.toml:9:1: ") and "gives no basis" in str(error.value)
    with pytest.raises(ConversionError) as error:
        NoteRuns(source, report, [], [(9, {"file": SHIHUN.name, "line": 253, "text": "不在此行", "basis": "经"})])
    assert str(error.value).startswith("conv/data/note_runs.toml:9:1: ") and "is not on line 253" in str(error.value)


def test_the_parallels_no_longer_read_them_as_words_of_the_jing(whole_dump):
    runs = {(r["span"][0], r["span"][1], r["span"][2], r["text"]) for r in whole_dump["apparatus"]
            if r["kind"] == "note-words" and r["evidence"] == "judou"}
    for entry in whole_dump["apparatus"]:  # a run inside an entry's stretch is not among its words
        if entry["kind"] == "parallel" and entry["class"] == "note-in-text" and entry["witness_text"]:
            name, start, end = entry["witness_span"]
            assert not any(n == name and s < end and start < e and text in entry["witness_text"] for n, s, e, text in runs), entry
    readings = {(e["anchor"], e["text"], e["witness_text"]) for e in whole_dump["apparatus"] if e["kind"] == "parallel"}
    assert not readings & {("judou-dashe-102", "", "後升者變於燕也小樂正於天子樂師也"),
                           ("judou-dashe-182", "", "值中一侯則釋獲")}


def test_the_reader_reads_each_in_chinese_with_the_judou_passage(whole_edition):
    from conv.myst.backmatter.apparatus import Apparatus
    entries = [e for e in Apparatus(whole_edition).interventions["tongjie"]
               if e.kind == "note-words" and e.reason.startswith(("the 句读 prints", "the 句读's 经 lacks"))]
    assert len(entries) == 802
    (entry,) = [e for e in entries if e.body.startswith("“請事母出")]
    assert re.fullmatch(r"“請事母出南面房外示親授壻且當戒女也”十七字（卷二叶十八b），录入本在括号外，作经文大字；句读本在注中（"
                        r"\{yl:cite\}`句读·士昏礼108 <judou-shihun-108>`），今归入注。", entry.body)
    (lacked,) = [e for e in entries if e.body.startswith("“活反上堂西廉矢亦北括”")]
    assert re.fullmatch(r"“活反上堂西廉矢亦北括”十字（卷八叶\w+），录入本在括号外，作经文大字；句读本经文无之（"
                        r"\{yl:cite\}`句读·乡射礼\d+ <judou-xiangshe-\d+>`），当为小字，今归入注。", lacked.body)
    readers = (re.sub(r"\{yl:cite\}`[^`]*`|叶[〇一二三四五六七八九十百]+[ab]", "", e.body) for e in entries)
    assert all(not re.search("[A-Za-z]", body) for body in readers)  # a 面 is a or b, as everywhere


def test_the_passage_the_words_made_redirects_to_the_one_that_holds_them(whole_dump):
    """士冠禮: (厥其)¶也宿服朝服(疏曰…: 「也宿服朝服」 was a passage of its own; its anchor lands on the
    passage whose note now reads 厥其也宿服朝服."""
    ledger = Ledger.load()
    old = ledger.get("tongjie-shiguan-39")
    assert not old.live and old.to == "tongjie-shiguan-38" and old.opening == "也宿服朝服"
    (passage,) = [p for p in tongjie_passages(whole_dump) if p["id"] == "tongjie-shiguan-38"]
    assert passage["notes"][0]["text"] == "厥其也宿服朝服"


@pytest.fixture(scope="module")
def shihun():
    source = wenyuange.read(SHIHUN, {"work": "tongjie"})
    return source, SeedReport(source)


def test_a_run_no_longer_on_its_line_stops_the_conversion(shihun):
    source, report = shihun
    with pytest.raises(ConversionError) as error:
        NoteRuns(source, report, [(12, {"file": SHIHUN.name, "line": 253, "text": "請事父出", "judou": "judou-shihun-108"})])
    assert str(error.value).startswith("conv/data/note_runs.toml:12:1: ")
    assert "請事父出" in str(error.value) and "line 253 of KR1d0085_002.txt" in str(error.value)


def test_a_run_already_in_a_note_stops_the_conversion(shihun):
    source, report = shihun
    line = source.witness.physical[252]
    runs = NoteRuns(source, report, [(7, {"file": SHIHUN.name, "line": 253, "text": "舅姑共饗", "judou": "judou-shihun-108"})])
    with pytest.raises(ConversionError) as error:
        runs.apply(tokenize(source.text, line.start, line.end))
    assert str(error.value).startswith("conv/data/note_runs.toml:7:1: ")
    assert "KR1d0085_002.txt:253:" in str(error.value) and "already in a note" in str(error.value)


def test_apply_moves_the_run_without_moving_a_character(shihun):
    """…使擯者)¶請事母出南面房外示親授壻且當戒女也(疏曰…: the 】 before the run is a blank (the 句读 goes on
    with the note's words), the 【 after it a separator (the 疏 is a segment of its own); every character
    keeps its offset and its kind of token."""
    source, report = shihun
    previous, line = source.witness.physical[251], source.witness.physical[252]
    runs = NoteRuns(source, report, [(3, {"file": SHIHUN.name, "line": 253, "text": "請事母出南面房外示親授壻且當戒女也",
                                          "continues": "before", "judou": "judou-shihun-108"})])
    tokens = tokenize(source.text, previous.start, line.end)
    out = runs.apply(tokens)
    close = source.witness.text.rindex(")", previous.start, previous.end)
    opening = source.witness.text.index("(", line.start)
    kinds = {t.start: t.kind for t in out if t.end > t.start}
    assert (kinds[close], kinds[opening]) == ("space", "ideo")
    offsets = [o for t in out if t.kind == "text" for o in range(t.start, t.end)]
    assert offsets == [o for t in tokens if t.kind == "text" for o in range(t.start, t.end)]


def test_an_unencoded_character_of_a_run_is_one_character_of_its_entry(whole_edition):
    """鄉飲酒禮: …臑乃報反&KR0553;劉音純㨒苦圭反骼古白反…: the entity is one character, counted once."""
    from conv.myst.backmatter.apparatus import Apparatus
    (entry,) = [e for e in Apparatus(whole_edition).interventions["tongjie"]
                if e.kind == "note-words" and "劉音純㨒苦圭反" in e.body]
    assert entry.body.startswith(f"“{gaiji_char('&KR0553;')}劉音純㨒苦圭反”八字（卷七叶")


def test_the_entry_names_the_judou_without_a_link_when_the_edition_lacks_it():
    """A build of some files only (the 通解's 大射 without the 句读's): the entry says where the words
    stand in the 句读 without citing a passage the build does not hold."""
    from types import SimpleNamespace

    from conv.myst.backmatter.entry_words import note_words_body
    record = {"kind": "note-words", "text": "值中一侯則釋獲", "evidence": "judou", "witness_anchor": "judou-dashe-182",
              "in_notes": True, "page": {"juan": 21, "leaf": 35, "side": "b"}}
    assert note_words_body(record, SimpleNamespace(loci={})) == \
        "“值中一侯則釋獲”七字（卷二十一叶三十五b），录入本在括号外，作经文大字；句读本在注中，今归入注。"
    record["in_notes"] = False
    assert note_words_body(record, SimpleNamespace(loci={})) == \
        "“值中一侯則釋獲”七字（卷二十一叶三十五b），录入本在括号外，作经文大字；句读本经文无之，当为小字，今归入注。"
    read = {"kind": "note-words", "text": "燕所尊在堂將燕降說屨乃升堂", "evidence": "reading", "basis": "前叶末注之续",
            "page": {"juan": 11, "leaf": 30, "side": "a"}}
    assert note_words_body(read, SimpleNamespace(loci={})) == \
        "“燕所尊在堂將燕降說屨乃升堂”十三字（卷十一叶三十a），录入本在括号外，作经文大字；前叶末注之续，今归入注。"
