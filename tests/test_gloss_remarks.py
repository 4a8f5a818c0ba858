"""The 音义 forms besides 反切, 直音 and 如字 (conv.parser.gloss_remarks, conv.parser.glosses): real
lines of both works read exactly (character, kind, reading, remark, span), prose left as prose,
the 通解's runs outside the parentheses that the forms now delimit moved into their notes, and the
tiling of any text as a property."""
from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv.edition import assemble, export
from conv.parser.gloss_edges import embedded
from conv.parser.gloss_remarks import AUTHORITIES, AUTHORITY_NAMES
from conv.parser.glosses import gloss_run, parse_run

ROOT = Path(__file__).resolve().parent.parent
JUDOU, TONGJIE = ROOT / "seeds" / "wenyuange" / "KR1d0038", ROOT / "seeds" / "wenyuange" / "KR1d0085"
F, Z, R, O = "fanqie", "zhiyin", "ruzi", "other"


def read(text: str) -> list[tuple]:
    glosses, unparsed = parse_run(text)
    assert unparsed == [], (text, [text[a:b] for a, b in unparsed])
    return [(g.text, g.char, g.kind, g.upper, g.lower, g.sound, g.second, g.scope,
             g.definition, g.remark, g.related, g.start, g.end) for g in glosses]


GLOSS_FIELDS = ("text", "char", "kind", "upper", "lower", "sound", "second", "scope", "definition", "remark",
                "related", "start", "end")


def real_cases() -> list[tuple]:
    """(witness, line, run, [gloss fields as ``read`` gives them]) from tests/fixtures/gloss_cases.toml."""
    with (ROOT / "tests" / "fixtures" / "gloss_cases.toml").open("rb") as f:
        cases = tomllib.load(f)["case"]
    return [(c["file"], c["line"], c["run"],
             [tuple(g.get(k, False if k == "second" else None) for k in GLOSS_FIELDS) for g in c["glosses"]])
            for c in cases]


CASES = real_cases()


@pytest.mark.parametrize("name, line, run, expected", CASES, ids=[c[2] for c in CASES])
def test_real_lines_read_exactly(name, line, run, expected):
    folder = JUDOU if name.startswith("KR1d0038") else TONGJIE
    line_text = (folder / name).read_text(encoding="utf-8").splitlines()[line - 1]
    assert run in line_text.replace("/", "")  # the witness prints it (a 双行小注 column break aside)
    assert read(run) == expected


def test_a_reader_before_all_is_no_word():
    """學制 (KR1d0085_009:209) 大夏大濩大武(大劉皆音㤗): 劉昌宗 reads every 大 so; 大劉 is no word of two read as one,
    but 大 with 劉's reading (皆: all of them); 王制 (KR1d0085_035) 大祝大師…(大並音泰): every 大 read 泰."""
    assert [(g.char, g.sound, g.remark, g.related) for g in parse_run("大劉皆音㤗")[0]] == [("大", "㤗", "authority", "劉")]
    assert [(g.char, g.sound, g.remark) for g in parse_run("大並音泰")[0]] == [("大", "泰", "all")]
    assert [g.text for g in gloss_run("大並音泰", joined=True)[0]] == ["大並音泰"]  # a note of it alone is 音义


def test_a_word_of_two_is_read_only_after_a_reading_of_the_guangyun():
    """鄉射禮記 (KR1d0085_008:544) 司馬降釋弓反位去起吕反(疏曰…) and 内治 (004:59) 而徧云自望後反之婉於阮反…:
    降釋弓反 and 自望後反 read like 反切 but give no reading of 降, 自: what follows them (位去, 之婉) is no word a
    反切 glosses, and the 经 before the note is no run of glosses (it stays 经)."""
    assert gloss_run("降釋弓反位去起吕反") is None
    assert gloss_run("自望後反之婉於阮反娩音晚") is None
    assert [g.text for g in gloss_run("膮許堯反牛炙章夜反")[0]] == ["膮許堯反", "牛炙章夜反"]


def test_a_reading_that_gives_another_sound_is_no_second_reading():
    """隼息允反音至 (通解 月令, KR1d0085_025): 音至 is the sound of 鷙, the 吕氏春秋's and 唐's reading
    (吕唐並作鷙), not of 隼 (心諄上 against 章脂去): left unread. 涚舒鋭反音睡 (句读 KR1d0038_002)
    too: 書祭去 against 常支去."""
    glosses, unparsed = parse_run("隼息允反音至")
    assert [g.text for g in glosses] == ["隼息允反"] and unparsed == [(4, 6)]
    glosses, unparsed = parse_run("屬音燭涚舒鋭反音睡")
    assert [g.text for g in glosses] == ["屬音燭", "涚舒鋭反"] and unparsed == [(7, 9)]


def test_a_variant_the_same_then_its_reading():
    """曲禮 (KR1d0085_011:371–372) (…量音亮一音良斗斛也齊一作韲同子兮)¶反(…: 齊, written 韲 too (同), 子兮反 — one
    gloss of 齊 (its 反 over the column's foot goes into the note), not a variant alone and a gloss of 同."""
    glosses, unparsed = parse_run("量音亮一音良斗斛也齊一作韲同子兮反")
    assert unparsed == [] and [(g.text, g.char, g.kind, g.remark, g.related) for g in glosses] == [
        ("量音亮", "量", Z, None, None), ("一音良斗斛也", "量", Z, "authority", "一"),
        ("齊一作韲同子兮反", "齊", F, "variant", "韲")]


@pytest.mark.parametrize("run, char, related", [
    ("温又作藴又作愠同於運反", "温", "藴愠"),   # 内則 (KR1d0085_003): the 经's 温, written 藴 and 愠 too
    ("扱本又作捷又作揷初洽反", "扱", "捷揷"),   # 内則: not a gloss of 捷
    ("說又作脫又作稅同吐活反", "說", "脫稅"),   # 曲禮: a 音义, not a 注
    ("韜本作㞵土刀反", "韜", "㞵"),             # 士冠禮: 本作, without 又
])
def test_two_variants_then_the_reading(run, char, related):
    """A character with two variants before its reading (X又作Y又作Z同…反), or one written 本作, is one
    gloss of X; 一本作 (a copy's reading) is no variant of 一: 燖劉音尋一本作爓音潛 (聘禮) glosses 燖, and a copy's
    爓 with its own reading is that gloss's definition, as 一作醯呼兮反 is."""
    assert [(g.char, g.definition) for g in parse_run("燖劉音尋一本作爓音潛")[0]] == [("燖", "一本作爓音潛")]
    glosses, unparsed = parse_run(run)
    assert unparsed == [] and [(g.text, g.char, g.kind, g.remark, g.related) for g in glosses] == [
        (run, char, F, "variant", related)]


@pytest.mark.parametrize("run, upper, lower, second", [
    ("楔古八先結二反", "古", "八", "先結"),   # 聘禮記: 楔, 古八反 and 先結反
    ("刺七智七亦二反", "七", "智", "七亦"),   # 曲禮
    ("隃式注式朱二反", "式", "注", "式朱"),   # 吕氏春秋 古樂 (was corrections.toml c15)
])
def test_two_fanqie_with_one_fan(run, upper, lower, second):
    """「XABCD二反」: two 反切 of X given together — one gloss of X that reads the first and keeps the
    second (``related``), not a gloss of C spelt D二."""
    glosses, unparsed = parse_run(run)
    assert unparsed == [] and [(g.text, g.char, g.upper, g.lower, g.remark, g.related) for g in glosses] == [
        (run, run[0], upper, lower, "two-readings", second)]
    assert [(g.char, g.upper, g.lower) for g in parse_run("肄以二反")[0]] == [("肄", "以", "二")]  # 以二反: one


@pytest.mark.parametrize("run, char, context, remark", [
    ("在朝於朝之朝直遥反", "朝", "在朝於朝", None),      # 國語 (KR1d0085_032): the 朝 of 在朝 and of 於朝
    ("使於使者之使色吏反", "使", "使於使者", None),      # 曲禮 (KR1d0085_033), a note the transcription cuts
    ("中節之中去聲", "中", "中節", "tone"),            # 中庸: a context, then a tone
    ("樂其獨樂之樂並去聲", "樂", "樂其獨樂", "tone"),    # 樂記
])
def test_several_context_words_then_the_reading(run, char, context, remark):
    """「AB CD之X」 inside a note: one gloss of X as it stands in each word (X in every one of them)."""
    glosses, unparsed = parse_run(run)
    assert unparsed == [] and [(g.text, g.char, g.context, g.remark) for g in glosses] == [(run, char, context, remark)]


def test_several_context_words_are_no_gloss_at_the_text_s_edge():
    """Before a note, outside its parentheses, the words before 之 may be 经: 中庸's …其孰能知之聖知之知去聲 is 经
    (知之) and one gloss (聖知之知去聲); 月令's 律中中吕中吕之中音仲 is 经 (律中中吕) and one gloss."""
    assert gloss_run("知之聖知之知去聲") is None
    assert [g.text for g in gloss_run("聖知之知去聲")[0]] == ["聖知之知去聲"]
    assert gloss_run("律中中吕中吕之中音仲") is None
    assert gloss_run("在朝於朝之朝直遥反", joined=True) is not None


def test_what_the_note_reads_is_no_gloss_without_a_reading():
    """今依注移入 (聘禮, KR1d0085_021:805), 當依注疏减經 (KR1d0085_021:265): 依注 before no reading is
    prose; a mark (反, 音) is never the character 依注 glosses; 舊音泰今讀如字 stays one 如字 gloss."""
    assert parse_run("今依注移入")[0] == [] and parse_run("當依注疏减經")[0] == []
    assert [g.text for g in parse_run("反依注音冔")[0]] == []
    assert [(g.text, g.kind, g.remark) for g in parse_run("大舊音泰今讀如字")[0]] == [("大舊音泰今讀如字", R, None)]


def test_the_notes_reading_opens_a_note_of_prose():
    """禮記 quoted in the 通解's 王制 (KR1d0085_033:63, 210): (孽依註五葛反孽當作枿聲之誤), (振依註之忍反絺勅之反
    綌去逆反振讀為袗…): 依注 before a reading is no prose's, so next to prose too it is read, and the 音义
    opens the note. 內則 (KR1d0085_018:207) 炮歩交反將依注音牂子郎反…: 依注音牂 goes on with 子郎反, a
    reading not read next to prose: the glosses stop before it."""
    assert [(g.text, g.remark) for g in embedded("孽依註五葛反孽當作枿聲之誤")] == [("孽依註五葛反", "per-note")]
    assert [g.text for g in embedded("振依註之忍反絺勅之反綌去逆反振讀為袗袗禪也")] == ["振依註之忍反", "絺勅之反", "綌去逆反"]
    assert [g.text for g in embedded("炮歩交反將依注音牂子郎反刲苦圭反刳口孤反苞裹也")] == ["炮歩交反"]


def test_remarks_need_a_gloss_before_them():
    """「X同Y」, 「X古Y字」, 「X見上」 and a bare reading are read only right after a gloss: in prose
    (or at a run's start) they are none."""
    for text in ("揃同翦", "庿古廟字", "否見上", "音篆", "徐大果反之"):
        glosses, _ = parse_run(text)
        assert all(g.remark is None for g in glosses), text
    assert parse_run("此同上")[0] == []
    # prose after an unparsed stretch: no remark read inside it
    glosses, unparsed = parse_run("還音旋向席取俎轉身以授人與此同上")
    assert [g.text for g in glosses] == ["還音旋"] and unparsed == [(3, 16)]
    # embedded position (a 注 that ends or opens with glosses) takes no remark
    assert [g.text for g in embedded("家臣擯贊傳命者傳丈專反揃同翦")] == []


@cache
def dumped(path: Path) -> dict:
    return export.edition(assemble.convert([path]))


def passages(dump: dict):
    for work in dump["works"]:
        for chapter in work["chapters"]:
            for section in chapter["sections"]:
                yield from section["passages"]


def test_prose_after_a_gloss_is_zhang_erqis_remark_not_a_gloss():
    """句读 乡饮酒礼 (KR1d0038_004:328): 【…○還音旋向席取俎轉身以授人註云復初入之位者…】: 還音旋 is the
    音义, the rest 张尔岐's remark (``an``), with no gloss in it and no problem."""
    dump = dumped(JUDOU / "KR1d0038_004.txt")
    passage = next(p for p in passages(dump) if any(n["text"].startswith("向席取俎") for n in p["notes"]))
    index = next(i for i, n in enumerate(passage["notes"]) if n["text"].startswith("向席取俎")) - 1
    notes = passage["notes"][index]
    assert [(n["layer"], n["text"]) for n in passage["notes"][index:index + 2]] == [
        ("yin", "還音旋"), ("an", "向席取俎轉身以授人註云復初入之位者東階西階相讓之位也")]
    assert [(g["char"], g["sound"], g["text"]) for g in notes["glosses"]] == [("還", "旋", "還音旋")]
    assert passage["notes"][index + 1]["glosses"] == []
    assert not [p for p in dump["problems"] if p["kind"] == "unparsed-gloss" and p["line"] == 328]


def test_a_second_reading_in_the_dump_has_its_span_and_position():
    """句读 聘礼 (KR1d0038_008:85) 堟大轉反音篆: the 直音 is 堟's second reading, at its place in the file."""
    path = JUDOU / "KR1d0038_008.txt"
    text = path.read_text(encoding="utf-8")
    dump = dumped(path)
    found = [g for p in passages(dump) for n in p["notes"] for g in n["glosses"] if g["text"] == "音篆"]
    assert len(found) == 1
    gloss = found[0]
    assert (gloss["char"], gloss["kind"], gloss["sound"], gloss["second"], gloss["remark"]) == (
        "堟", "zhiyin", "篆", True, "also-read")
    _, start, end = gloss["span"]
    assert text[start:end] == "音篆" and text[start - 4:start] == "堟大轉反"
    assert text.count("\n", 0, start) + 1 == 85
    assert gloss["position"] and gloss["position"].startswith("澄")  # 篆 持兗切
    assert not [p for p in dump["problems"] if p["kind"] == "unparsed-gloss" and p["line"] == 85]


def test_the_tongjie_glosses_the_forms_delimit_go_into_their_notes():
    """士冠禮 (KR1d0085_001:15) 筮于庿門筮市例反庿古廟字(筮者以蓍問日吉凶…): the passage is 筮于庿門
    (after the title), its note opens with the 音义 筮市例反 + 庿古廟字; no problem is left there.
    Line 337 …鄉大夫鄉先生摯亦作贄音至(易服…): 摯, written 贄 too, 音至 — a gloss of the 摯 of the text.
    No problem is left in the file: 還音旋役故此 (line 62), with words after the gloss that are no gloss, was
    read against the 句读 and is in its note (conv/data/note_runs.toml)."""
    dump = dumped(TONGJIE / "KR1d0085_001.txt")
    passage = next(p for p in passages(dump) if p["text"].endswith("筮于庿門"))
    first = passage["notes"][0]
    assert (first["layer"], first["text"]) == ("yin", "筮市例反庿古廟字")
    assert [(g["char"], g["kind"], g["remark"], g["related"]) for g in first["glosses"]] == [
        ("筮", "fanqie", None, None), ("庿", "other", "ancient-form", "廟")]
    assert passage["notes"][1]["text"].startswith("筮者以蓍問日吉凶")
    passage = next(p for p in passages(dump) if p["text"].endswith("遂以摯見於鄉大夫鄉先生"))
    assert [(g["text"], g["char"], g["sound"], g["remark"], g["related"]) for g in passage["notes"][0]["glosses"]] == [
        ("摯亦作贄音至", "摯", "至", "variant", "贄")]
    assert not [p for p in dump["problems"] if p["kind"] == "unbracketed-gloss"]


def test_a_reading_after_the_note_printed_outside_the_parentheses_opens_its_note():
    """士相見禮 (KR1d0085_006:72) …客從之拾級聚足拾依注音涉級音急(拾當為涉聲之誤也…): 拾依注音涉 (拾,
    read as the 注 reads it, 涉) and 級音急 are the 音义, printed outside the parentheses: the passage
    ends at 聚足 and its note opens with them; 拾級 is 涉級, no 拾 of archery, and no problem is left."""
    dump = dumped(TONGJIE / "KR1d0085_006.txt")
    passage = next(p for p in passages(dump) if "拾級聚足" in p["text"])
    assert passage["text"].endswith("客從之拾級聚足")
    first = passage["notes"][0]
    assert (first["layer"], first["text"]) == ("yin", "拾依注音涉級音急")
    assert [(g["char"], g["sound"], g["remark"]) for g in first["glosses"]] == [
        ("拾", "涉", "per-note"), ("級", "急", None)]
    assert passage["notes"][1]["text"].startswith("拾當為涉聲之誤也")
    assert 72 not in {p["line"] for p in dump["problems"]}


def test_a_note_of_the_shiwen_read_for_the_most_part_is_yinyi_with_its_rest_reported():
    """內則 (KR1d0085_003:286) (魴音房鱮音叙雛字又作鶵仕俱反又匠俱反燒如)字一音焦: glosses of the 释文 are
    one 音义, not 郑注 after a 音义, with their rest the parentheses cut off; what the grammar cannot read
    is reported. 鄉射 (KR1d0085_008:929) 正音征鵠古毒反徐又如字 and 王制
    (KR1d0085_036:296) …勝音升並下同 likewise; and 士冠禮's …廣古曠反凡度長短廣狹者皆放此視一作眡音同…, the 释文's
    scope of every such word and a variant read the same (it was 注 while the grammar read neither)."""
    def notes_with(dump, text):
        return [n for p in passages(dump) for n in p["notes"] if text in n["text"]]

    dump = dumped(TONGJIE / "KR1d0085_003.txt")
    (note,) = notes_with(dump, "雛字又作鶵")
    # its rest, 字一音焦, printed large after the note, is in it now (note_runs.toml): 燒如字, 一音焦 — all read
    assert (note["layer"], note["text"]) == ("yin", "魴音房鱮音叙雛字又作鶵仕俱反又匠俱反燒如字一音焦")
    assert [g["text"] for g in note["glosses"]] == ["魴音房", "鱮音叙", "雛字又作鶵仕俱反", "又匠俱反", "燒如字", "一音焦"]
    assert not [p for p in dump["problems"] if p["kind"] == "unparsed-gloss" and p["line"] == 286]
    (note,) = notes_with(dumped(TONGJIE / "KR1d0085_008.txt"), "鵠古毒反徐又如字")
    assert (note["layer"], note["text"]) == ("yin", "正音征鵠古毒反徐又如字")
    (note,) = notes_with(dumped(TONGJIE / "KR1d0085_036.txt"), "勝音升並下同")
    assert note["layer"] == "yin" and note["text"].endswith("夫音扶别彼列反勝音升並下同")
    dump = dumped(TONGJIE / "KR1d0085_001.txt")
    assert [(n["layer"], n["text"]) for n in notes_with(dump, "凡度長短廣狹者")] == [
        ("yin", "繒自陵反繚音了長直亮反廣古曠反凡度長短廣狹者皆放此視一作眡音同弁皮彥反緅側畱反與音餘")]


def test_a_character_printed_twice_opens_a_note_of_glosses():
    """(KR1d0085_032:77) (朝朝上如字下直遥反…), (KR1d0085_012:210) (期期上音其下音基重平聲): the forms of a
    character the text prints twice open a 音义 (they were 注 while only the parser knew them), and
    (KR1d0085_028:204) 司空執度度地度度上如字下徒洛反: the 经 ends at 度地, its glosses go into the note."""
    for name, text in (("KR1d0085_032.txt", "朝朝上如字下直遥反"), ("KR1d0085_012.txt", "期期上音其下音基重平聲")):
        found = [n for p in passages(dumped(TONGJIE / name)) for n in p["notes"] if n["text"].startswith(text)]
        assert found and all(n["layer"] == "yin" for n in found), name
    (passage,) = [p for p in passages(dumped(TONGJIE / "KR1d0085_028.txt")) if p["text"].endswith("司空執度度地")]
    assert (passage["notes"][0]["layer"], passage["notes"][0]["text"]) == ("yin", "度度上如字下徒洛反")


def test_a_gloss_of_a_character_the_jing_writes_in_another_variant():
    """周禮 in 王制 (KR1d0085_033:145) …眡朝則皮弁服眂音視(視朝視内外朝之事…): 眂 and the 经's 眡 are both 視
    (conv/data/variants.tsv), so 眂音視 glosses the 眡 of the 经 and opens its note."""
    dump = dumped(TONGJIE / "KR1d0085_033.txt")
    (passage,) = [p for p in passages(dump) if p["text"].endswith("眡朝則皮弁服")]
    assert (passage["notes"][0]["layer"], passage["notes"][0]["text"]) == ("yin", "眂音視")
    assert 145 not in {p["line"] for p in dump["problems"] if p["kind"] == "unbracketed-gloss"}


def test_a_glossed_character_in_another_form_stands_in_the_text():
    """樂記 (KR1d0085_026:22) …以安賓客以說逺人以作動物示音祗説音悦(六律…): 説 glosses the 說 of the
    text (both fold to 说): the glosses open the note."""
    dump = dumped(TONGJIE / "KR1d0085_026.txt")
    passage = next(p for p in passages(dump) if p["text"].endswith("以說逺人以作動物"))
    assert passage["notes"][0]["text"] == "示音祗説音悦"
    assert [(g["char"], g["sound"]) for g in passage["notes"][0]["glosses"]] == [("示", "祗"), ("説", "悦")]
    assert 22 not in {p["line"] for p in dump["problems"] if p["kind"] == "unbracketed-gloss"}


# -- properties ---------------------------------------------------------------------------------

ALPHABET = ("字林依註舊並堟大轉反音篆一去聲上朝揃同翦庿古廟字注繪下又徐劉或見上義如濺之慎市例切作本亦叶以意推求後皆倣此也 　"
            "彚曰與貌官云無此尺丈其可穢為于偽辟咡豢患詩記飯小")  # and the words a gloss quotes (test_gloss_quoted_words.py)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_glosses_and_the_rest_conserve_every_character(text):
    """Every character is in one gloss or one unread stretch, or is blank between them."""
    glosses, unparsed = parse_run(text)
    owner = [None] * len(text)
    for index, (start, end) in enumerate([(g.start, g.end) for g in glosses] + list(unparsed)):
        assert start < end and all(o is None for o in owner[start:end])  # no overlap
        owner[start:end] = [index] * (end - start)
    assert all(o is not None or char.isspace() for o, char in zip(owner, text))
    for gloss in glosses:
        assert text[gloss.start:gloss.end] == gloss.text
        assert gloss.remark in (None, "same-as", "ancient-form", "see-above", "sound-and-sense", "authority",
                                "also-read", "variant", "rhyme-reading", "per-note", "old-reading", "both", "both-before", "in-word", "same-word", "all",
                                "tone", "upper", "lower", "then-lower")
        assert (gloss.remark == "also-read") <= gloss.second
        assert gloss.remark != "authority" or gloss.related in AUTHORITIES or gloss.related in AUTHORITY_NAMES


def test_a_page_role_holds_a_remark_with_its_gloss():
    """The chapter page puts 揃同翦 in the role of 挋之慎反 (as 又… readings), and that role's text reads
    as one gloss with what follows it: no ``yl.gloss`` warning; a remark alone would be none."""
    from conv.model.tree import Gloss as ModelGloss
    from conv.myst.chapter import inline
    from conv.sphinx_ext.text.glosses import _parsed

    text = "挋之慎反揃同翦"
    found, _ = parse_run(text)
    glosses = [ModelGloss(g.char, g.kind, g.upper, g.lower, g.sound, g.text, ("x.txt", 100 + g.start, 100 + g.end),
                          second=g.second, remark=g.remark, related=g.related) for g in found]
    assert inline(text, list(range(100, 100 + len(text))), glosses) == "{yl:gloss}`挋之慎反揃同翦`"
    fields, count = _parsed(text, "")
    assert count is None and (fields["char"], fields["kind"], fields["position"]) == ("挋", "fanqie", "章開三真去")
    assert _parsed("揃同翦", "")[1] == 0


def test_what_stays_unread_says_why():
    """句读 特牲馈食礼记 (KR1d0038_002:312) 屬音燭涚舒鋭反音睡: 音睡 stays in the 音义, reported with why."""
    dump = dumped(JUDOU / "KR1d0038_002.txt")
    (problem,) = [p for p in dump["problems"] if p["kind"] == "unparsed-gloss" and p["line"] == 312]
    assert "'音睡' is a reading printed without 又 after 涚舒鋭反" in problem["message"]
    assert "not taken as a second reading of 涚" in problem["message"]


def test_read_as_a_character_of_the_private_use_area():
    """内則's 释文 (KR1d0085_003:218, …酏讀曰&KR0673;又作餰…, the gaiji a code point of the private-use area as the
    reader gives it): 讀曰 after a gloss reads 酏 as that character, then a variant with its reading, then a second
    reading. 讀為 opening a text that goes on is a 注's (宿讀為肅肅進也大夫尊…): no gloss there."""
    gaiji = "\U000f02a1"
    assert read(f"糗起九反又昌紹反餌音二酏讀曰{gaiji}又作餰之然反又之善反") == [
        ("糗起九反", "糗", F, "起", "九", None, False, None, None, None, None, 0, 4),
        ("又昌紹反", "糗", F, "昌", "紹", None, True, None, None, None, None, 4, 8),
        ("餌音二", "餌", Z, None, None, "二", False, None, None, None, None, 8, 11),
        (f"酏讀曰{gaiji}又作餰之然反", "酏", Z, None, None, gaiji, False, None, "又作餰之然反", "reads-as", None, 11, 21),
        ("又之善反", "酏", F, "之", "善", None, True, None, None, None, None, 21, 25)]
    glosses, _ = parse_run("宿讀為肅肅進也大夫尊儀益多")
    assert not glosses or glosses[0].start > 0
    assert [g.text for g in parse_run("恂鄭氏讀作峻")[0]] == ["恂鄭氏讀作峻"]  # a page's role holds it alone


def test_a_note_that_reads_like_definitions_is_the_zhu_after_the_glosses():
    """内則 (KR1d0085_003:512) 姆教婉娩聽從(婉行晚反徐紆願反娩音晚徐音萬婉謂言語也娩之言媚也媚謂容貌也): 婉謂…, 娩之言…
    are 郑注's words (X謂Y, X之言Y), no definitions of the 释文: the 音义, with 徐邈's readings of 婉 and 娩, then the 注."""
    (passage,) = [p for p in passages(dumped(TONGJIE / "KR1d0085_003.txt")) if p["text"] == "姆教婉娩聽從"]
    yin, zhu = passage["notes"][:2]
    assert (yin["layer"], yin["text"], zhu["layer"], zhu["text"]) == (
        "yin", "婉行晚反徐紆願反娩音晚徐音萬", "zhu", "婉謂言語也娩之言媚也媚謂容貌也")
    assert [(g["char"], g["text"], g["remark"], g["related"]) for g in yin["glosses"]] == [
        ("婉", "婉行晚反", None, None), ("婉", "徐紆願反", "authority", "徐"),
        ("娩", "娩音晚", None, None), ("娩", "徐音萬", "authority", "徐")]


@pytest.mark.parametrize("name, yin, zhu", [
    ("KR1d0085_026.txt", "鄉去聲", "方猶道也"),                          # 樂記: (鄉去聲方猶道也)
    ("KR1d0085_009.txt", "辠本亦作罪衺似嗟反", "衺猶惡也"),               # 王制 (學制)
    ("KR1d0085_026.txt", "當去聲疢勑覲反", "當謂樂不失其所"),             # 樂記: a 注 of 謂
    ("KR1d0085_030.txt", "稍削並所教反秣音末頒音班予音與", "待猶給也此九賦之財給九式者"),  # 周禮 大府
    ("KR1d0085_025.txt", "挺大頂反", "挺猶寛也"),                          # 月令, printed large (note_runs.toml)
])
def test_words_of_the_zhu_after_the_glosses_are_the_zhu(name, yin, zhu):
    """郑注's words after the 音义 in one note (X猶Y, X謂Y, X之言Y: ``gloss_remarks.zhu_phrase_at``) are the 注, however
    short: not definitions of the last gloss, nor a 注 that opens with glosses."""
    notes = [(n["layer"], n["text"]) for p in passages(dumped(TONGJIE / name)) for n in p["notes"]]
    at = notes.index(("yin", yin))
    assert notes[at + 1][0] == "zhu" and notes[at + 1][1].startswith(zhu)
