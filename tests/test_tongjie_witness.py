"""The 通解 from the 文渊阁 transcription (文渊阁本通解): KR1d0085's 37 files through the seeds' parser —
the book's own outline (parts, 篇, the lost 篇), the small characters its transcription leaves
outside the parentheses, 章 titles with their 记, pages, and conservation on every file."""
from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv import datafiles as data
from conv.edition import assemble, export
from conv.errors import ConversionError
from conv.myst import writer
from conv.parser.report import SeedReport
from conv.parser.unbracketed import Unbracketed
from conv.reader import lines as line_kinds
from conv.reader import manifest, wenyuange
from conv.reader.lexer import tokenize
from conv.reader.source import Source

from dumps import chapter_passages, tongjie_file
from tongjie_pieces import PIECES

ROOT = Path(__file__).resolve().parents[1]
TONGJIE = ROOT / "seeds" / "wenyuange" / "KR1d0085"
FILES = sorted(TONGJIE.glob("KR1d0085_*.txt"))
BOOK_ORDER = [
    "juanshou",
    "shiguan", "guanyi", "shihun", "hunyi", "neize", "neizhi", "wuzong", "qinshuji",  # 家礼
    "shixiangjian", "shixiangjianyi", "touhu", "xiangyinjiu", "xiangyinjiuyi", "xiangshe", "xiangsheyi",  # 乡礼
    "xuezhi", "xueyi", "dizizhi", "shaoyi", "quli", "chenli", "zhonglv", "zhonglvyi", "shiyue", "liyueji",
    "shushu", "xueji", "daxue", "zhongyong", "baofu", "jianzuo", "wuxue",  # 学礼
    "yanli", "yanyi", "dashe", "dasheyi", "pinli", "pinyi", "gongshi", "gongshiyi", "zhuhouxiangchao",
    "zhuhouxiangchaoyi",  # 邦国礼
    "jinli", "chaoshiyi", "lishu", "bushi", "xiaxiaozheng", "yueling", "yuezhi", "yueji", "wangzhijia",
    "wangzhiyi", "wangzhibing", "wangzhiding", "wangzhiwu", "wangzhiji", "wangzhigeng", "wangzhixin",
    "wangzhiren", "wangzhigui",  # 王朝礼
]


# -- the data file ---------------------------------------------------------------------------

def test_the_table_of_chapters():
    table = data.tongjie_chapters()
    assert [c["id"] for c in table] == BOOK_ORDER
    assert [c["number"] for c in table] == list(range(61))  # 0: the front matter; 目録 第一 … 第四十四 … 60
    yili = {c["id"] for c in data.chapters()}
    for chapter in table:
        assert re.fullmatch(r"[a-z]+", chapter["id"]), chapter["id"]  # an anchor's chapter part
        assert chapter["yili"] == (chapter["id"] in yili), chapter["id"]  # no other 篇 takes a 仪礼 id
    assert {c["id"] for c in table if c["yili"]} == {
        "shiguan", "shihun", "shixiangjian", "xiangyinjiu", "xiangshe", "yanli", "dashe", "pinli", "gongshi", "jinli"}
    parts = {p["id"]: p["printed"] for p in data.tongjie_parts()}
    assert list(parts) == ["jiali", "xiangli", "xueli", "bangguoli", "wangchaoli"]
    for chapter in table[1:]:
        assert chapter["label"].startswith(parts[chapter["part"]]), chapter["id"]
    assert [c["id"] for c in table if c.get("lost") or c.get("absent")] == ["shushu", "bushi"]
    assert data.chapters_of("tongjie") is table and data.chapters_of("judou") == [*data.judou_apart()[:2], *data.chapters(), *data.judou_apart()[2:]]


def test_manifest_names_the_chapters_of_every_file(tongjie_alone):
    _, _, chapters, _ = tongjie_alone
    with (ROOT / "seeds" / "manifest.toml").open("rb") as handle:
        entries = {e["file"]: e for e in tomllib.load(handle)["seed"] if e["work"] == "tongjie" and "path" in e}
    assert sorted(entries) == [f.name for f in FILES]
    for name, entry in entries.items():
        assert entry["convert"] is True
        assert entry["chapters"] == [c for c in chapters if name in chapters[c]["seeds"]], name


# -- the outline -----------------------------------------------------------------------------

def test_every_chapter_in_the_books_order_with_its_part(tongjie_alone):
    _, dump, chapters, work = tongjie_alone
    assert list(chapters) == BOOK_ORDER
    assert [c["part"] for c in work["chapters"][1:9]] == ["jiali"] * 8
    assert chapters["chaoshiyi"]["part"] == "wangchaoli" and chapters["juanshou"]["part"] is None
    for chapter in work["chapters"]:
        if chapter["id"] in ("shushu", "bushi"):
            continue
        assert chapter["sections"] and any(s["passages"] for s in chapter["sections"]), chapter["id"]
    parts = {c["id"]: [m["text"] for m in c["meta"] if m["kind"] == "part"] for c in work["chapters"]}
    assert parts["shiguan"] == ["家禮一之上"] and parts["guanyi"] == ["家禮一之下"]
    assert parts["zhonglv"] == ["學禮六之上"]  # its note (此篇凡數皆凖令式借用大字) is the title's
    # 學禮八 ends the line of 詩樂's last note (…俟知樂者考其得失云)學禮八¶禮樂記): 禮樂記's part line, not 詩樂's text
    assert parts["liyueji"] == ["學禮八"] and "學禮八" not in [p["text"] for p in chapter_passages(chapters["shiyue"])]
    headings = {c["id"]: c["heading"] for c in work["chapters"]}
    assert headings["shihun"] == "士昬禮" and headings["touhu"] == "投壺禮" and headings["wangzhiji"] == "王制之已"
    assert headings["chaoshiyi"] == "朝事義第四十四"  # printed before its part line 王朝禮一之下
    notes = chapters["daxue"]["mulu"]  # the title's note, its layers as any note's (no 鄭目録 here)
    assert [(s["layer"], s["text"][:8]) for s in notes] == [("yin", "大舊音泰今讀如字"), ("zhu", "子程子曰大學孔氏")]
    # one 如字 gloss of 大, then the 章句's words of 程子 (conv/data/note_runs.toml, tests/test_note_runs.py)
    assert [s["layer"] for s in chapters["pinli"]["mulu"]][0] == "mulu"  # (鄭注目録云…) after 聘禮
    assert not [p for p in dump["problems"] if p["kind"] in ("missing-title", "manifest-chapter", "unknown-chapter")]


def test_the_lost_and_the_absent_chapter(tongjie_alone):
    _, _, chapters, _ = tongjie_alone
    lost = chapters["shushu"]
    assert lost["heading"] == "書數" and lost["lost"] == "此一篇原闕" and lost["sections"] == []
    meta = [m for m in lost["meta"] if m["kind"] == "lost"]
    assert [m["text"] for m in meta] == ["此一篇原闕"]
    name, start, end = meta[0]["span"]
    assert tongjie_file(name)[start:end] == "此一篇原闕"
    absent = chapters["bushi"]  # 目録: 卜筮(缺); no part line, no text anywhere in the book
    assert absent["lost"] and absent["sections"] == [] and absent["seeds"] == [] and absent["heading"] is None


def test_pages_of_the_book(tongjie_alone):
    _, _, chapters, work = tongjie_alone
    first = next(chapter_passages(chapters["xiangyinjiu"]))
    assert first["page"] == {"juan": 7, "leaf": 1, "side": "a"} and first["witness"] == "kanripo"
    # KR1d0085_013 holds 卷十三 and, from its tag 013-30a, 卷十四: leaves counted from there
    assert next(chapter_passages(chapters["shiyue"]))["page"] == {"juan": 14, "leaf": 1, "side": "a"}
    assert next(chapter_passages(chapters["zhonglv"]))["page"]["juan"] == 13
    # from KR1d0085_014 (卷十五, 書數) on, 卷 = file number + 1
    assert next(chapter_passages(chapters["xueji"]))["page"] == {"juan": 16, "leaf": 1, "side": "a"}
    assert next(chapter_passages(chapters["wangzhigui"]))["page"]["juan"] == 37
    juan = {c["id"]: c["juan"] for c in data.tongjie_chapters()}
    for chapter in work["chapters"][1:]:
        for passage in chapter_passages(chapter):
            assert passage["page"] and passage["page"]["juan"] == juan[chapter["id"]], passage["id"]
        for section in chapter["sections"]:
            assert section["title_span"] is None or section["page"] is not None


# -- small characters outside the parentheses ------------------------------------------------

def test_a_gloss_before_its_note_is_the_notes_first_segment(tongjie_alone):
    _, _, chapters, _ = tongjie_alone
    passage = next(chapter_passages(chapters["xiangyinjiu"]))
    text = tongjie_file("KR1d0085_007.txt")
    assert passage["text"] == "鄉飲酒之禮主人就先生而謀賓介"  # the witness: …謀賓介介音界(主人謂…
    yin, zhu = passage["notes"][:2]
    assert (yin["layer"], yin["text"], zhu["layer"]) == ("yin", "介音界", "zhu")
    _, start, end = yin["span"]
    assert text[start:end] == "介音界" and text[end] == "("
    assert [(g["char"], g["kind"], g["sound"]) for g in yin["glosses"]] == [("介", "zhiyin", "界")]
    assert zhu["text"].startswith("主人謂諸侯之鄉大夫也")
    # 音义 of the 注 after its note, and 疏曰 in parentheses, are the same note's next segments
    assert [n["layer"] for n in passage["notes"]] == ["yin", "zhu", "yin", "shu"]
    assert passage["notes"][2]["text"] == "知音智行下孟反頒音班比毗志反少詩照反索色白反屬音燭長丁丈反"


def test_a_shu_head_outside_the_parentheses_opens_its_segment(tongjie_alone):
    _, _, chapters, _ = tongjie_alone
    text = tongjie_file("KR1d0085_007.txt")
    # …肆陳也)疏曰凡設尊之法¶(醴尊見其質…: one 疏 segment over the head and the note after it
    passage = next(p for p in chapter_passages(chapters["xiangyinjiu"]) if p["text"].endswith("設篚于禁南東肆加二勺于兩壺"))
    assert [n["layer"] for n in passage["notes"]] == ["yin", "zhu", "shu"]
    yin, zhu, shu = passage["notes"]
    assert yin["text"] == "斯如字又音賜勺上灼反" and zhu["text"] == "斯禁禁切地無足者𤣥酒在西上也肆陳也"
    assert shu["text"].startswith("疏曰凡設尊之法醴尊見其質皆在房内")
    _, start, end = shu["span"]
    assert text[start:start + 7] == "疏曰凡設尊之法" and text[start - 1] == ")" and text[end] == ")"


def test_the_jin_of_jin_an_outside_the_parentheses_opens_the_remark(tongjie_alone):
    """内則: …(…衣謂𤣥綃衣)今(按婦人不冠則所謂吉笄…): 今 alone before a note that goes on 按 is the head 今按
    (朱熹's remark), not a passage of 经."""
    _, _, chapters, _ = tongjie_alone
    assert not [p for p in chapter_passages(chapters["neize"]) if p["text"] == "今"]
    (remark,) = [n for p in chapter_passages(chapters["neize"]) for n in p["notes"] if n["text"].startswith("今按婦人不冠")]
    assert remark["layer"] == "an"


def test_a_section_title_with_its_ji_on_the_same_line(tongjie_alone):
    _, _, chapters, _ = tongjie_alone
    section = next(s for s in chapters["xiangyinjiu"]["sections"] if s["title"] == "右戒賓介")
    assert section["ji_marker"]["text"] == "記" and section["page"] == {"juan": 7, "leaf": 3, "side": "a"}
    ji = [p for p in section["passages"] if p["layer"] == "ji"]
    assert [p["text"] for p in ji] == ["鄉朝服而謀賓介皆使能不宿戒"]
    assert [n["layer"] for n in ji[0]["notes"]] == ["zhu", "yin"] and ji[0]["notes"][1]["text"] == "韠音畢衣於既反"
    # the 經 on the line after the title line opens the next 章 (the title line is no column)
    following = chapters["xiangyinjiu"]["sections"][chapters["xiangyinjiu"]["sections"].index(section) + 1]
    assert following["passages"][0]["text"] == "乃席賓主人介" and following["passages"][0]["layer"] == "jing"


def test_the_titles_of_shiguan(tongjie_alone):
    _, _, chapters, work = tongjie_alone
    titles = [s["title"] for s in chapters["shiguan"]["sections"] if s["title"]]
    assert titles == [
        "右筮日", "右戒賓", "右筮賓", "右宿賔", "右為期", "右陳器服", "右即位", "右迎賔", "右始加", "右再加", "右三加",
        "右醴冠者", "右冠者見母", "右字冠者", "右賓出就次", "右冠者見兄弟姑姊", "右奠摯於君及鄉大夫鄉先生",
        "右醴賔", "右醮", "右殺", "右孤子冠", "右庶子冠", "右母不在", "右女子笄雜記補"]
    # 右執項左執前… opens a column but is 经 (the right hand): no title names the left or the hand, but 弟子職's 右執燭,
    # a reviewed title (c40)
    every = [s["title"] for c in work["chapters"] for s in c["sections"] if s["title"]]
    assert len(every) > 300 and [t for t in every if "左" in t or t[1] in "手執" or len(t) > 14] == ["右執燭"]
    # and it runs on from 受皮弁 at the foot of the column before (conv/data/column_joins.toml)
    assert any("降二等受皮弁右執項左執前進祝加之如初復位" in p["text"] for p in chapter_passages(chapters["shiguan"]))


def test_titles_with_their_chuan_and_ci():
    assert line_kinds.title_length("右立世子传曰势明则民定", "右", items=("记", "传", "辞")) == 4
    assert line_kinds.title_length("右戒宾辞戒宾曰某有子", "右", items=("记", "传", "辞")) == 3
    assert line_kinds.title_length("右醮醮辞曰旨酒既清", "右", items=("记", "传", "辞")) == 2
    assert line_kinds.title_length("右字冠者字辞曰礼仪既备", "右", items=("记", "传", "辞")) == 4
    assert line_kinds.title_length("右第一章子思述所传之意", "右", items=("记", "传", "辞")) == 4
    assert line_kinds.title_length("右传之首章释明明德", "右", items=("记", "传", "辞")) == 5
    assert line_kinds.title_length("右戒宾辞戒宾曰某有子", "右") == 10  # the seeds: only 记 is filed after a title
    assert line_kinds.title_length("右醴冠者【今按醴当作礼】醴辞曰甘醴惟厚", "右", items=("记", "传", "辞")) == 4
    assert line_kinds.title_length("右女子笄杂记补", "右", items=("记", "传", "辞")) == 7  # 記補: its source
    # a 記 right before the 傳 ends the title: the 章 of the records (of the 世子), then its 傳
    assert line_kinds.title_length("右世子之记传曰文王之为世子", "右", items=("记", "传", "辞")) == 5
    assert line_kinds.title_length("右杂记传孟子既娶", "右", items=("记", "传", "辞")) == 3
    # 史記, the book a quotation filed under the title opens with (鐘律 013 l.67)
    assert line_kinds.title_length("右伍声相生损益先后之次史记声数曰", "右", items=("记", "传", "辞")) == 11
    assert not line_kinds.tongjie_title("右执项左执前进祝加之如初复位") and line_kinds.tongjie_title("右醴冠者")


def test_circles_are_text_in_the_tongjie(tongjie_alone):
    _, _, chapters, _ = tongjie_alone
    texts = "".join(p["text"] for p in chapter_passages(chapters["touhu"]))
    assert "□○○○□□○□○魯鼔" in texts  # the drum score of 投壺, not segment separators
    assert "玖阡○○肆拾玖分" in "".join(n["text"] for p in chapter_passages(chapters["zhonglv"]) for n in p["notes"]) + \
        "".join(p["text"] for p in chapter_passages(chapters["zhonglv"]))


def test_no_intervention_but_the_unencoded_characters_and_the_reviewed_layers(tongjie_alone):
    _, dump, _, _ = tongjie_alone
    # 曲禮 右袂 and 大射儀 左右鈞, once reviewed title decisions, are read on from the column before
    # (conv/data/column_joins.toml): no 右 opens a line there any more, and no correction is needed
    assert {a["kind"] for a in dump["apparatus"]} == {"unencoded", "note-words", "correction", "misprint"} and not dump["dropped"]
    assert sorted(a["witness"] + a["reading"] for a in dump["apparatus"] if a["kind"] == "misprint") == [
        "下丁", "佳隹", "佳隹", "佳隹", "佳隹", "佳隹", "佳隹", "佳隹", "偕階", "兒見", "千干", "南面", "及反", "司同", "問間",
        "問間", "地吐", "執祭", "失先", "尸户", "尸户", "末未", "王五", "甕饔", "秦泰", "者音", "若苦", "若苦", "若苦", "衣依",
        "鄪鄭", "釋實", "閒聞", "雖難", "鼔豉"]
    # (問間 閒聞 雖難 末未: 中庸章句's words; 執祭 偕階 問間 釋實 南面 甕饔: words the edition prints otherwise elsewhere —
    # emended in the reading text, tests/test_misprints.py, tests/test_suspects.py)
    # the layer decisions of 音义 the note runs put in their notes (c8–c16 in conv/data/corrections.toml; c15,
    # 隃式注式朱二反, went when the grammar learnt two 反切 with one 反; c17, 曲禮's 圂與豢同音患, when it learnt 與Y同
    # before a reading; c10, 曲禮's 飯煩晚反小飯同, when it learnt the scope 「WX同」), and c18: 士相見禮's
    # 今按 going on over a line's end, 今¶(疏云朝㑹執笏…, is 朱熹's, not a 疏; c19, 賈音嫁後同掌物價之官, went when the grammar read a definition in 之官; c20, 聘禮記's
    # 今依汪移入, 朱熹's; c33, 保傅's 惡行(去聲), went when the grammar read a tone printed right after the character
    # it reads (tests/test_gloss_cuts.py)
    decided = sorted((a["correction"], a["decision"]) for a in dump["apparatus"] if a["kind"] == "correction")
    assert decided == sorted([(f"c{n}", "layer: yin (not zhu)") for n in (8, 9, 11, 12, 13, 14, 16)]
                             + [("c18", "layer: an (not shu)"), ("c20", "layer: an (not zhu)"), ("c21", "title: 右大夫相見")]
                             + [(f"c{n}", f"title: {t}") for n, t in zip(range(22, 30), (
                                 "右張侯設樂", "右行享禮", "右貳變相生之法", "右黄鐘寸分數法", "右黄鐘生十一律數", "右風雅拾貳詩譜",
                                 "右法制名號之略", "右飲食之禮"))] + [("c30", "layer: an (not zhu)"), ("c31", "layer: yin (not zhu)"),
                                 ("c32", "layer: shu (not zhu)"),
                                 ("c34", "layer: yin (not zhu)"), ("c35", "layer: yin (not zhu)"),
                                 ("c36", "title: 右朝禮"), ("c37", "title: 右從宜"), ("c38", "no title: 经"),
                                 ("c39", "layer: yin (not zhu)"), ("c40", "title: 右執燭"),
                                 ("c41", "layer: an (not zhu)")])
    # 疏曰洗者盥手洗爵之時恐水¶(穢地…: the 疏 a head opened at a column's end goes on in the next
    note = next(n for p in chapter_passages(tongjie_alone[2]["shiguan"]) for n in p["notes"] if n["text"].startswith("疏曰洗者盥手"))
    assert "恐水穢地所用以承其棄水" in note["text"]


def test_a_gloss_of_a_lost_character_is_a_reported_yin(tongjie_alone):
    """聘禮記 (KR1d0085_021:137) …以絳為地今文絢作)音巡疏曰上(文繅藉…: the 注 ends on a character the
    transcription lost (the 句读 reads 今文絢作約), and 音巡, printed large after it, is the 音义 of that
    character (c31): a note of 皆𤣥纁繫長尺絢組, no passage of its own, nothing supplied, and a problem at
    its place because no lemma is there to read."""
    _, dump, chapters, _ = tongjie_alone
    (passage,) = [p for p in chapter_passages(chapters["pinli"]) if p["id"] == "tongjie-pinli-72"]
    assert passage["text"] == "皆𤣥纁繫長尺絢組"
    assert [(n["layer"], n["text"]) for n in passage["notes"][1:4]] == [
        ("zhu", "采成文曰絢繫無事則以繫玉因以為飾皆用五采組上以𤣥下以絳為地今文絢作"), ("yin", "音巡"),
        ("shu", passage["notes"][3]["text"])]
    assert passage["notes"][3]["text"].startswith("疏曰上文繅藉")
    assert not [p for p in chapter_passages(chapters["pinli"]) if p["text"] == "音巡"]
    (problem,) = [p for p in dump["problems"] if p["kind"] == "unparsed-gloss" and p["seed"] == "KR1d0085_021.txt"
                  and p["line"] == 137]
    assert "'音巡'" in problem["message"] and problem["col"] == 189


def test_a_shu_going_on_with_you_yue_is_shu(tongjie_alone):
    """曲禮 (KR1d0085_011:106–125), 周禮 大祝's 九拜: the 音义 of 振動 between two others in its parentheses
    (振動如字李音董杜徒弄反: 動 read as written, 李軌's and 杜子春's readings of it) is 音义, not 郑注; the 疏 goes on
    with 又曰九拜之中四種是正拜一曰 outside its parentheses (note_runs.toml), a 疏 (c32), not a passage of 经."""
    _, _, chapters, _ = tongjie_alone
    (passage,) = [p for p in chapter_passages(chapters["quli"]) if p["id"] == "tongjie-quli-109"]
    assert [n["layer"] for n in passage["notes"]] == ["yin", "shu", "shu", "yin", "yin", "an"]
    assert passage["notes"][0]["text"] == "\U000f0254音拜稽音啓振動如字李音董杜徒弄反襃音報右音又"
    assert [(g["char"], g["text"]) for g in passage["notes"][0]["glosses"]][2:5] == [
        ("動", "振動如字"), ("動", "李音董"), ("動", "杜徒弄反")]
    assert passage["notes"][2]["text"].startswith("又曰九拜之中四種是正拜一曰稽首二曰頓首")
    assert not [p for p in chapter_passages(chapters["quli"]) if p["text"].startswith("又曰")]


def test_undecided_glosses_are_problems_at_their_place():
    """昏義's 是謂近女室疾如蠱近附近之地蠱音古蠱惑疾(疏曰…) (KR1d0085_003:377): a gloss with words after it
    that are no gloss, in a 篇 the 句读 does not hold. Read by the rules alone it stays where the
    transcription puts it, and a problem names its place."""
    line = tongjie_file("KR1d0085_003.txt").splitlines()[376]
    text = line[line.index("晉侯求醫"):line.index("非鬼非食")].replace("(", "【").replace(")", "】")
    report = SeedReport(Source("KR1d0085_003.txt", text))
    tokens = Unbracketed(text, report).adjust(tokenize(text, 0, len(text)), "")
    (problem,) = report.problems
    assert problem.kind == "unbracketed-gloss" and text[problem.col - 1:].startswith("蠱音古蠱惑疾【")
    assert [text[t.start:t.end] for t in tokens if t.kind == "text"][0].endswith("近附近之地蠱音古蠱惑疾")


def test_a_run_read_as_jing_is_no_problem(tongjie_alone):
    """樂記 (KR1d0085_026:379) 知音而不知樂者衆庶是也: 知音而 reads like a 直音 (知 and 而 share the 止摄),
    but it is the 经 (to know music); read and listed as 经 ([[jing]] in conv/data/note_runs.toml), it is
    no problem, and it stays in the text. Without the entry the rules report it."""
    _, dump, chapters, _ = tongjie_alone
    assert not [p for p in dump["problems"] if p["kind"] == "unbracketed-gloss"]
    assert any("知音而不知樂者衆庶是也" in p["text"] for p in chapter_passages(chapters["yueji"]))
    line = tongjie_file("KR1d0085_026.txt").splitlines()[378]
    text = ("是故知聲而不知音者" + line.rstrip("¶") + "樂(禽獸知此為聲爾)").replace("(", "【").replace(")", "】")
    report = SeedReport(Source("KR1d0085_026.txt", text))
    Unbracketed(text, report).adjust(tokenize(text, 0, len(text)), "")
    assert [p.kind for p in report.problems] == ["unbracketed-gloss"]


def test_the_reviewed_runs_put_the_gloss_in_its_note(tongjie_alone):
    """The same run, read (conv/data/note_runs.toml, basis): 音义 and 杜注 in the note, the 经 alone in
    the text; the layer of the 音义 the grammar reads in part is a reviewed correction (c8)."""
    _, dump, chapters, _ = tongjie_alone
    (passage,) = [p for p in chapter_passages(chapters["neize"]) if p["text"].endswith("是謂近女室疾如蠱")]
    assert [(n["layer"], n["text"]) for n in passage["notes"]][-3:-1] == [("yin", "近附近之地蠱音古"), ("zhu", "蠱惑疾")]
    assert not [p for p in dump["problems"] if p["kind"] == "unbracketed-gloss" and p["seed"] == "KR1d0085_003.txt"]
    from conv.myst.backmatter.apparatus import Apparatus
    bodies = {e.body for e in Apparatus(tongjie_alone[0]).interventions["tongjie"] if e.kind == "correction"}
    # in the reader's words; 昏義 quotes the 左传, whose 注 is 杜預's: not 郑注
    assert "此段注文定为音义，不作注文（底本此处无层次标记，据文意定之）。底本作“近附近之地蠱音古”。" in bodies
    (passage,) = [p for p in chapter_passages(chapters["yueling"]) if p["text"] == "鷹隼蚤"]
    assert [(n["layer"], n["text"]) for n in passage["notes"]] == [
        ("yin", "隼息允反音至"), ("zhu", "得疾癘之氣也"), ("jiao", "吕唐並作鷙淮作摰")]  # 朱熹's 校语


def test_one_file_alone_and_the_seeds_unchanged():
    edition = assemble.convert([TONGJIE / "KR1d0085_014.txt"])
    (work,) = export.edition(edition)["works"]
    assert [(c["id"], c["lost"]) for c in work["chapters"]] == [("shushu", "此一篇原闕")]
    seeds = export.edition(assemble.convert(sorted((ROOT / "seeds").glob("*.txt"))))
    assert [(w["id"], [c["id"] for c in w["chapters"]]) for w in seeds["works"]] == [
        ("judou", ["xiangshe", "yanli", "tesheng", "shaolao"]), ("tongjie", ["xiangyinjiu", "dashe"])]


def test_no_tongjie_id_collides_with_an_anchor_of_the_yili():
    yili = {c["id"] for c in data.chapters()}
    others = [c["id"] for c in data.tongjie_chapters() if not c["yili"]]
    assert len(set(others)) == len(others) and not yili & set(others)
    assert "guanyi" in others and "xiangyinjiu" not in others


# -- the rewrite of tokens, as a property --------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12))
def test_the_rewrite_keeps_every_character_in_one_token(pieces):
    line = "".join(pieces).replace("(", "【").replace(")", "】")
    source = Source("KR1d0085_007.txt", line)
    before = tokenize(line, 0, len(line))
    after = Unbracketed(line, SeedReport(source)).adjust(before, "")
    text_of = lambda tokens: [o for t in tokens if t.kind in ("text", "circle") for o in range(t.start, t.end)]
    assert sorted(text_of(after)) == text_of(before)  # nothing lost, nothing doubled, nothing moved
    assert [t.start for t in after] == sorted(t.start for t in after)
    depth = 0
    for token in after:  # notes stay balanced: no note opened inside a note
        depth += {"open": 1, "close": -1}.get(token.kind, 0)
        assert depth in (0, 1)


def test_a_file_of_several_juan_needs_its_starts():
    witness_entry = manifest.entry_for(TONGJIE / "KR1d0085_013.txt")
    assert witness_entry["juan"] == [13, 14] and witness_entry["juan_starts"] == ["1a", "30a"]
    source = wenyuange.read(TONGJIE / "KR1d0085_013.txt", witness_entry)
    offset = source.witness.text.index("詩樂¶")
    assert source.page_at(offset).label() == "卷十四叶一a"
    with pytest.raises(ConversionError, match="juan_starts"):
        wenyuange.read(TONGJIE / "KR1d0085_013.txt", dict(witness_entry, juan_starts=["1a"]))


# -- the pages Sphinx builds ------------------------------------------------------------------

@pytest.fixture(scope="module")
def tongjie_pages(tmp_path_factory, sphinx_build):
    """卷十五 (書數, lost) and 卷二十五 (厯數, then the absent 卜筮) converted and built with the
    edition's own conf.py (warnings are errors)."""
    project = tmp_path_factory.mktemp("tongjie-project")
    (project / "conf.py").write_text((ROOT / "source" / "conf.py").read_text(encoding="utf-8"), encoding="utf-8")
    (project / "index.md").write_text("# 通解\n\n```{toctree}\n\ntongjie/index\napparatus/index\n```\n", encoding="utf-8")
    edition = assemble.convert([TONGJIE / "KR1d0085_014.txt", TONGJIE / "KR1d0085_024.txt"])
    writer.write(edition, project)
    return writer.pages(edition), sphinx_build(project, "html")


def test_the_lost_and_absent_chapters_on_their_pages(tongjie_pages):
    pages, built = tongjie_pages
    assert ":::{yl:meta} part\n學禮九\n:::" in pages["tongjie/shushu.md"]
    assert ":::{yl:meta} lost\n此一篇原闕\n:::" in pages["tongjie/shushu.md"]
    assert ":::{yl:lacuna} lost\n:::" in pages["tongjie/bushi.md"] and "yl:passage" not in pages["tongjie/bushi.md"]
    lost = re.search(r'<p class="yl-meta yl-meta-lost"[^>]*>(.*?)</p>', built.html("tongjie/shushu"), re.S)
    diplomatic = re.sub(r'<span class="yl-n">.*?</span>', "", lost.group(1))  # the 规范 forms are apart
    assert re.sub(r"<[^>]+>", "", diplomatic) == "此一篇原闕"
    assert "〔此篇阙〕" in built.html("tongjie/bushi") and 'title="目录有此篇，正文无"' in built.html("tongjie/bushi")
    index = built.html("tongjie/index")
    index = index[index.index("<article"):]  # the page itself, not the site navigation
    assert re.search(r'<p class="caption"[^>]*><span class="caption-text">学礼</span>', index)
    assert index.index("学礼") < index.index("书数") < index.index("王朝礼") < index.index("历数") < index.index("卜筮")


def test_the_manifest_schema_knows_the_tongjie(tmp_path):
    """A 通解 entry names the 通解's own 篇 (zhonglv is none of the 仪礼's), and its juan_starts one
    page per 卷: else an error at the manifest's line."""
    shutil.copy(TONGJIE / "KR1d0085_013.txt", tmp_path)
    entry = ('[[seed]]\nfile = "KR1d0085_013.txt"\nwork = "tongjie"\njuan = [13, 14]\n'
             'juan_starts = ["1a"{more}]\nchapters = ["zhonglv", "zhonglvyi", "shiyue", "liyueji"]\n')
    good = tmp_path / "manifest.toml"
    good.write_text(entry.format(more=', "30a"'), encoding="utf-8")
    assert manifest.load(good)["KR1d0085_013.txt"]["chapters"][0] == "zhonglv"
    bad = tmp_path / "bad" / "manifest.toml"
    bad.parent.mkdir()
    shutil.copy(TONGJIE / "KR1d0085_013.txt", bad.parent)
    bad.write_text(entry.format(more=""), encoding="utf-8")
    with pytest.raises(ConversionError) as error:
        manifest.load(bad)
    assert error.value.line == 5 and error.value.message.startswith("'juan_starts' must name")
