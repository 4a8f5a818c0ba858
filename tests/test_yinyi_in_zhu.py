"""The 音义 inside a 通解 注: the readings it opens with in one parentheses (疑魚乙反｜疑正立自定之貌), those that end
it (…搢捷也捷於帶右｜捷初洽反下同), and a note of readings whose first the 《广韵》 does not confirm but whose
character the 经 before the note holds (椸羊支反…: 椸): the witness's own notes, converted one file at a time
(``gloss_edges.opening_readings``, ``gloss_edges.embedded``, ``segments._mostly_glosses``)."""
from __future__ import annotations

import pytest

from tests.witness_notes import witness_notes


@pytest.mark.parametrize("name, yin, zhu", [
    ("KR1d0085_002.txt", "疑魚乙反", "疑正立自定之貌"),        # 士昏禮: 婦疑立于席西 (the 句读's 注: 疑正立自定之貌)
    ("KR1d0085_025.txt", "臘力合反", "此周禮所謂蜡祭也"),      # 月令
    ("KR1d0085_011.txt", "肱古宏反", "為害旁人"),              # 曲禮
    ("KR1d0085_007.txt", "觶之䜴反", "不辭洗者以其將自飲"),    # 鄉飲酒禮
    # the 经 before the note holds the character: a sound the 《广韵》 does not give (倮, 幂: no 小韵 in it; 比毗志反:
    # no syllable; 瞗七徐反 for 鴡), prose of the 注 that echoes the 经 (反命), a 聲 of prose (樂作則有聲…)
    ("KR1d0085_025.txt", "倮力果反", "象物露見不隠藏"),        # 月令: 其蟲倮
    ("KR1d0085_031.txt", "幂莫歴反", "掌共巾幂"),              # 周禮: 幂人
    ("KR1d0085_029.txt", "比毗志反", "官府之在宫中者"),        # 周禮 宫正: 以時比宫中之官府…
    ("KR1d0085_031.txt", "瞗七徐反", "鴡鳩王鴡也"),            # 左傳: 瞗鳩氏司馬也
    ("KR1d0085_002.txt", "奉芳勇反", "反命謂使者問名"),        # 士昏禮記: …左奉之乃歸執以反命
    ("KR1d0085_034.txt", "詘其勿反", "樂作則有聲止則無也"),    # 聘義: …其終詘然樂也
    ("KR1d0085_001.txt", "祺音其福叶筆勒反", "爾女也既冠"),    # 士冠禮: …介爾景福, readings after readings
])
def test_a_zhu_that_opens_with_the_yinyi_in_one_parenthesis(name, yin, zhu):
    """The 通解 prints a 音义 and the 注 after it in one parentheses ((疑魚乙反疑正立自定之貌)): the opening readings,
    when their sound is one the 《广韵》 knows and the words after them open no gloss's mark, are the 音义, the rest
    the 注 (``gloss_edges.opening_readings``); prose whose 反 is to return (此主於反命士介…) stays the 注."""
    pairs = [(n["layer"], n["text"]) for n in witness_notes(name)]
    at = pairs.index(("yin", yin))
    assert pairs[at + 1][0] == "zhu" and pairs[at + 1][1].startswith(zhu)


@pytest.mark.parametrize("name, zhu", [
    ("KR1d0085_021.txt", "此主於反命士介亦随入並立東上"),    # 聘禮: 此 is no word of the 经 before it
    ("KR1d0085_009.txt", "八音金石土革絲木匏竹倫理也"),      # 學制: 八音克諧…, 八音 a word
    ("KR1d0085_036.txt", "為異國反間"),                      # 周禮 士師: 三曰邦諜
    ("KR1d0085_011.txt", "睛轉復反為還"),                    # 曲禮: 視無還
    ("KR1d0085_004.txt", "言常在側"),                        # 内治: 說他活反養羊尚反｜言常在側, glosses the 注 follows
    ("KR1d0085_011.txt", "髙下之莭"),                        # 曲禮: 奉芳勇反又作捧提徒兮反｜髙下之莭
    ("KR1d0085_008.txt", "斯禁禁切地無足者也"),              # 鄉射禮: a 切 of prose (切地), though 斯 is the 经's
])
def test_prose_that_opens_like_a_reading_stays_the_zhu(name, zhu):
    """Prose whose 反 is to return, or whose 音 is a sound, stays the 注: its first character is no word of the
    经 the note follows, or it opens a word (八音)."""
    pairs = [(n["layer"], n["text"]) for n in witness_notes(name)]
    assert [text for layer, text in pairs if text.startswith(zhu)] and all(
        layer == "zhu" for layer, text in pairs if text.startswith(zhu))


@pytest.mark.parametrize("name, text, glosses", [
    # 内則: 男女不雜坐不同椸枷…, the 释文 with a remark on copies (古本無此字: old copies lack 枷)
    ("KR1d0085_003.txt", "椸羊支反枷又作架徐音稼古本無此字櫛側乙反嫂又作㛮素早反漱悉侯反梱又作閫苦本反",
     ["椸羊支反", "枷又作架", "徐音稼古本無此字", "櫛側乙反", "嫂又作㛮素早反", "漱悉侯反", "梱又作閫苦本反"]),
    # 弟子職: 朱熹's 叶 readings (叶上章, the first's scope: the rhyme joins the stanza above)
    ("KR1d0085_010.txt", "友叶音以叶上章長丁丈反儀叶五何反", ["友叶音以叶上章", "長丁丈反", "儀叶五何反"]),
    # 王制 (左傳): 陜 for 陝, a variant 一云當作郟
    ("KR1d0085_027.txt", "陜失冉反一云當作郟召音邵相去聲", ["陜失冉反一云當作郟", "召音邵", "相去聲"]),
    # 鄉飲酒義: 降說屨…朝不廢朝, 說 read 脫; a scope of four characters (注朝夕既朝同)
    ("KR1d0085_007.txt", "說吐活反廢朝之朝直遥反注朝夕既朝同", ["說吐活反", "廢朝之朝直遥反注朝夕既朝同"]),
])
def test_a_note_of_readings_of_the_jing_is_the_yinyi(name, text, glosses):
    """A note of the 释文's readings whose first the 《广韵》 does not confirm (椸 it lacks; 說吐活反 reads 脫) is the
    音义 when the 经 before the note holds its character: not the 注, and its pieces unread are reported."""
    (note,) = [n for n in witness_notes(name) if n["text"] == text]
    assert note["layer"] == "yin"
    assert [g["text"] for g in note["glosses"]] == glosses


@pytest.mark.parametrize("name, zhu, yin", [
    # a reading the 《广韵》 gives another 小韵, or no sound, of a character the 注 before it holds
    ("KR1d0085_008.txt", "未違俟處也搢捷也捷於帶右", "捷初洽反下同"),          # 鄉射禮: 捷 read 插
    ("KR1d0085_021.txt", "内拂几不欲塵坋尊者以進自東箱來授君", "坋蒲悶反"),  # 聘禮: 坋, no sound in the 《广韵》
    ("KR1d0085_008.txt", "易校數", "易以䜴反"),                                # 鄉射禮
    ("KR1d0085_005.txt", "今按鄭衆賈逵義是管蔡郕霍魯衛毛耼郜雍曹滕畢原酆郇文之昭也",
     "郕音成耼乃甘反雍於用反注同酆音風郇音荀"),                              # 五宗: after 朱熹's 今按
    # a scope 後倣此
    ("KR1d0085_008.txt", "自由也啐酒於席末由前降便也", "便婢面反後倣此"),
    # after a 疏 (士相見禮: 臨食捼莎…)
    ("KR1d0085_006.txt", "疏曰臨食捼莎恐為人穢", "捼乃禾反莎息禾反"),
    # the character in the note's words before the unit (士相見禮: (言不敢求見嫌䙝主人不敢當也今)¶文無也䙝息列反(疏曰…)
    ("KR1d0085_006.txt", "文無也", "䙝息列反"),
    # 张尔岐's remark on 靲 ends with a 音义 of 䈼, which the note before it holds (士喪禮)
    ("KR1d0038_012.txt", "靲圖解靲蔑通張鳯翔本靲音今字彚音琴", "䈼音蔑"),
    # a 直音 of a character the 《广韵》 lacks, which the 注 holds (文王世子: …州里󰚮於邑是也󰚮音冀)
    ("KR1d0085_018.txt", "羣吏鄉遂之官王於燕之末而命諸侯時朝㑹在此者各反養老如此禮是終其仁心孝經説所謂諸侯歸各帥於國大夫勤於朝"
                         "州里\U000f06ae於邑是也", "\U000f06ae音冀"),
])
def test_readings_that_end_a_zhu_are_the_yinyi(name, zhu, yin):
    """Readings that end a 注 (or a 按, or a 疏 of the 通解) are its 音义, also where the 《广韵》 gives the sound to another 小韵 or none,
    when the words before them hold the character (the 注 names it: 捷於帶右｜捷初洽反; or the note's segment before
    it, 嫌䙝｜…文無也｜䙝息列反); not a form of a variant or a
    word that 作 or 之 bind to what precedes (綪註作䋫側庚反, 始扱一祭之扱音初合反)."""
    pairs = [(n["layer"], n["text"]) for n in witness_notes(name)]
    at = [text for _, text in pairs].index(zhu)
    assert pairs[at][0] in ("zhu", "an", "shu") and pairs[at + 1] == ("yin", yin)


@pytest.mark.parametrize("name, yin, zhu", [
    ("KR1d0085_002.txt", "大羮並如字湆去急反爨七亂反", "大羮湆煑肉汁也"),  # 士昏禮: 大羮湆在爨
    ("KR1d0085_019.txt", "間間厠之間麗力知反", "間代也謂一歌則一吹也"),    # 燕禮: 乃間歌魚麗
])
def test_a_zhu_that_opens_with_a_word_read_as_usual_and_readings(name, yin, zhu):
    """A 注 that opens with a 如字 of a word (大羮並如字) or a character read as in a word (間間厠之間), readings
    after it: the 音义, then the 注."""
    pairs = [(n["layer"], n["text"]) for n in witness_notes(name)]
    at = pairs.index(("yin", yin))
    assert pairs[at + 1][0] == "zhu" and pairs[at + 1][1].startswith(zhu)


def test_a_variant_or_a_word_before_a_reading_stays_with_it():
    """士喪禮 (句读: 张尔岐's remark …綪註作䋫側庚反) and 少儀 (通解: …呂讀如昬禮始扱一祭之扱音初合反): the reading
    after 作 or 之 reads the variant or the word, and stays in the note it ends."""
    remark = [n for n in witness_notes("KR1d0038_012.txt") if n["text"].endswith("綪註作䋫側庚反")]
    assert [n["layer"] for n in remark] == ["an"]
    assert "鄉與嚮同扱音吸呂讀如昬禮始扱一祭之扱音初合反" in [n["text"] for n in witness_notes("KR1d0085_010.txt")]


def test_a_reading_printed_without_its_character_goes_on_after_a_yinyi():
    """臣禮 (KR1d0085_012:106) …今云呫嘗膳)呫音貼他篋反¶: 他篋反, a run of its own (conv/data/note_runs.toml), reads
    呫 again after 呫音貼: 音义, not the 注."""
    pairs = [(n["layer"], n["text"]) for n in witness_notes("KR1d0085_012.txt")]
    at = pairs.index(("yin", "呫音貼"))
    assert pairs[at + 1] == ("yin", "他篋反")
