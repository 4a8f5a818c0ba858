"""Notes, titles and ○ where the 文渊阁 witnesses put them (结构): a note opening the line after a
section title's line is that line's (the 通解's 记 items running on over a page or column break, the
句读's remark after a 章旨), a ○ after a 句读 章旨 opens 张尔岐's remark on it, a ○ between the
persons of a 喪服 list ends a passage, and the reviewed title decisions of ``conv/data/corrections.toml``
— each on the real lines of ``seeds/wenyuange/``."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv.edition import assemble, export
from conv.parser.corrections import Corrections

ROOT = Path(__file__).resolve().parents[1]
WITNESS = ROOT / "seeds" / "wenyuange"
FILES = [WITNESS / "KR1d0085" / f"KR1d0085_{n}.txt" for n in ("002", "007", "008", "011", "020", "021")] + \
        [WITNESS / "KR1d0038" / f"KR1d0038_{n}.txt" for n in ("001", "011", "013", "015", "017")]
KINDS = ("note-without-text", "stray-separator", "ambiguous-title")


@pytest.fixture(scope="module")
def dump():
    return export.edition(assemble.convert(FILES))


def sections(dump: dict, work: str, chapter: str) -> list[dict]:
    (w,) = [w for w in dump["works"] if w["id"] == work]
    (c,) = [c for c in w["chapters"] if c["id"] == chapter]
    return c["sections"]


def holding(dump: dict, work: str, chapter: str, text: str) -> tuple[dict, dict]:
    """The (section, passage) whose passage text is ``text`` (exactly one)."""
    found = [(s, p) for s in sections(dump, work, chapter) for p in s["passages"] if p["text"] == text]
    assert len(found) == 1, [p["text"] for _, p in found]
    return found[0]


def notes(passage: dict) -> list[tuple[str, str]]:
    return [(n["layer"], n["text"]) for n in passage["notes"]]


def at(dump: dict, span: list) -> tuple[int, int]:
    """(line, col) of a span's start in its witness file."""
    seed, start, _ = span
    text = next(WITNESS.glob(f"*/{seed}")).read_text(encoding="utf-8")
    line = text.count("\n", 0, start) + 1
    return line, start - (text.rfind("\n", 0, start) + 1) + 1


def test_none_of_these_problems_is_left_in_the_places_read(dump):
    left = [(p["seed"], p["line"], p["col"], p["kind"]) for p in dump["problems"] if p["kind"] in KINDS]
    # 大射儀's 右獻庶子左右正内小臣 is decided (c3) in seed 004, which covers that stretch of the edition
    assert left == [("KR1d0085_020.txt", 973, 1, "ambiguous-title")]


def test_a_note_on_the_ji_mark_is_on_the_mark(dump):
    """士昏禮 右納采記(疏曰凡言記者…)今按記文本附全經之後…: the 疏 and 朱熹's 按 are on the 记 mark itself
    (what a 记 is, why the 通解 files it here): a passage of 记 without words whose notes are on the
    mark (``on_marker``), no problem; the reader is not told that words of the 记 are lost."""
    section, passage = holding(dump, "tongjie", "shihun", "")
    assert section["title"] == "右納采" and section["ji_marker"]["text"] == "記"
    assert passage["layer"] == "ji" and passage["on_marker"] == "記" and passage["lacuna"] is None
    assert [layer for layer, _ in notes(passage)] == ["shu", "an"]
    assert notes(passage)[0][1].startswith("疏曰凡言記者皆是記經不備")
    assert notes(passage)[1][1] == "今按記文本附全經之後今依辭例分以附于本章之左"
    assert [p for s in sections(dump, "tongjie", "shihun") for p in s["passages"] if p.get("on_marker")] == [passage]


def test_a_table_of_small_characters_is_the_titles_figure_not_its_note():
    """公食大夫禮 009 l.143–152: after 　右為賔設加饌, the 正饌 and 加饌 laid out as on the mat — no
    title's note (the rows are indented otherwise), no note without text: the figure of
    conv/data/diagrams.toml after the title (its cells: tests/test_diagrams.py)."""
    dump = export.edition(assemble.convert([WITNESS / "KR1d0038" / "KR1d0038_009.txt"]))
    assert [p for p in dump["problems"] if p["kind"] == "note-without-text"] == []
    (section,) = [s for s in sections(dump, "judou", "gongshi") if s["title"] == "右為賔設加饌"]
    assert section["title_notes"] == [] and section["passages"][-1]["layer"] == "figure"


# -- the 通解: a title line's 记 (传) items run on when the next line opens with a note ----------------------

RUN_ON = [
    # 聘禮 021 l.125–127: 右受命于朝記通帛為旜(…)疏曰通體盡用 <pb 9b> (絳無他物之飾)孤卿建旜…
    ("pinli", "右受命于朝", "通帛為旜", ("shu", "疏曰通體盡用絳無他物之飾"), "孤卿建旜"),
    # 聘禮 021 l.435–437: …疏曰上經云賓三退負序注云不 <pb 34a> (言辟者以執圭將進授之…)司(儀)君入門…
    ("pinli", "右行聘禮", "諸公之臣相為國客及將幣旅擯三辭拜逆客辟三揖毎門止一相及廟唯君相入三讓客登拜客三辟授幣下出毎事如初之儀",
     ("shu", "疏曰上經云賓三退負序注云不言辟者以執圭將進授之此亦執圭將授言辟者儀禮是委曲行事此周禮據大摠而言故不同也"),
     "君入門介拂闑大夫中棖與闑之間士介拂棖"),
    # 聘禮 021 l.532–533: …主人遂以出賓之士訝受之¶ (此謂餘三馬也…)諸公之臣相為國客及禮… (a full column, no page)
    ("pinli", "右禮賓", "主人之庭實則主人遂以出賓之士訝受之", ("zhu", "此謂餘三馬也左馬賓執以出矣士士介從者"),
     "諸公之臣相為國客及禮再拜稽首君答拜禮以醴禮客"),
    # 鄉飲酒禮 007 l.66–68: 右設席記蒲筵緇布純…(筵席也純緣也)緣以絹反 <pb 4b> (疏曰公食記云…)尊綌冪賓至
    ("xiangyinjiu", "右設席", "蒲筵緇布純", ("shu", "疏曰公食記云蒲筵常緇布純此不言常文不具也倍尋曰常文六尺也"),
     "尊綌冪賓至徹之"),
    # 鄉射禮 008 l.474–476: 右取矢記楅長如笴…直音值乗繩證反 <pb 33b> (疏曰直通身之言…)…楅髤橫而奉之…
    ("xiangshe", "右取矢", "楅長如笴博三寸厚寸有半龍首其中蛇交韋當", ("shu", "疏曰直通身之言其楅兩頭為龍首"),
     "楅髤橫而奉之南面坐而奠之南北當洗"),
    # 鄉射禮 008 l.73–77: 右張侯記凡侯…(…)今按周禮梓人 <pb 6a> (有皮侯采侯獸侯…): over two pages
    ("xiangshe", "右張侯", "凡侯天子熊侯白質諸侯麋侯赤質大夫布侯畫以虎豹士布侯畫以鹿豕",
     ("an", "今按周禮梓人有皮侯采侯獸侯其曰張皮侯而棲鵠者"), "凡畫者丹質"),
]


@pytest.mark.parametrize("chapter, title, text, last, following", RUN_ON, ids=[c[2][:4] for c in RUN_ON])
def test_ji_items_run_on_over_a_page_or_column(dump, chapter, title, text, last, following):
    """The note at the head of the next page (column) is the last item's, one segment with the part the
    page cut off; the 记 after it stays in the title's section."""
    section, passage = holding(dump, "tongjie", chapter, text)
    assert section["title"] == title and passage["layer"] == "ji"
    layer, note = [n for n in notes(passage) if n[0] != "chu"][-1]  # a 出处 may follow it: 司(儀), sources.py
    assert layer == last[0] and note.startswith(last[1])
    after, next_passage = holding(dump, "tongjie", chapter, following)
    assert after is section and next_passage["layer"] == "ji"


def test_the_page_of_the_ji_after_the_break(dump):
    _, passage = holding(dump, "tongjie", "pinli", "孤卿建旜")
    assert passage["page"] == {"juan": 22, "leaf": 9, "side": "b"}


def test_xiangyinjiu_right_side_is_ji_text_not_a_title(dump):
    # 鄉飲酒禮 007 l.150–153: …肺皆離皆右體進腠¶ 胳音格一音各腠千豆反(凡牲前脛骨三…): a 20-cell column runs on
    # (conv.reader.mandoku.FULL_AT), and its 記 item keeps its notes
    section, zu = holding(dump, "tongjie", "xiangyinjiu", "賓俎脊脅肩肺主人俎脊脅臂肺介俎脊脅胳肺肺皆離皆右體進腠")
    assert zu["layer"] == "ji" and section["title"] == "右獻賓"
    assert notes(zu)[0] == ("yin", "胳音格一音各腠千豆反")
    assert notes(zu)[1][0] == "zhu" and notes(zu)[1][1].startswith("凡牲前脛骨三肩臂臑也")
    assert "右體進腠" not in [s["title"] for s in sections(dump, "tongjie", "xiangyinjiu")]


def test_shihun_shu_cut_by_the_page(dump):
    # 士昏禮 002 l.383–385: …(…)疏曰房與室相連房無 <pb 27b> (比壁故得北堂之名…)婦酢舅…
    section, passage = holding(dump, "tongjie", "shihun", "婦洗在北堂直室東隅篚在東北面盥")
    assert section["title"] == "右饗婦"
    layer, text = notes(passage)[-1]
    assert layer == "shu" and text.startswith("疏曰房與室相連房無比壁故得北堂之名")
    texts = [p["text"] for p in section["passages"]]
    after_title = section["passages"][texts.index("婦席薦饌于房"):]  # the 经 before 右饗婦 is the section's too
    # 更爵…: its 注 (note_runs.toml); the 記 goes on over the column (…不敢與尊)¶者為禮(疏曰…)凡婦人相饗¶無降…:
    # 者為禮 is the 注's, note_runs.toml) with the 仪礼's next 记 items, until the 经 of 右饗送者 opens a column
    assert [p["text"] for p in after_title] == ["婦席薦饌于房", "饗婦姑薦焉", "婦洗在北堂直室東隅篚在東北面盥",
                                                "婦酢舅更爵自薦", "不敢辭洗舅降則辟于房不敢拜洗", "凡婦人相饗無降",
                                                "庶婦則使人醮之婦不饋"]
    assert {p["layer"] for p in after_title} == {"ji"}


def test_quli_zhuan_note_after_a_full_column(dump):
    # 曲禮 011 l.59–62: 右通言傳曰… 道德仁義…不莊(别彼列反)¶ 辨皮免反朝直遙反宦音患(分辨皆别…)
    section, passage = holding(dump, "tongjie", "quli", "道德仁義非禮不成敎訓正俗非禮不備分爭辨訟非禮不决君臣上下父子兄弟非禮不定"
                               "宦學事師非禮不親班朝治軍涖官行法非禮威嚴不行禱祠祭祀供給鬼神非禮不誠不莊")
    assert section["title"] == "右通言"
    # the small characters of the column's foot and of the next column's head are one note (as over a page)
    assert notes(passage)[:2] == [("yin", "别彼列反辨皮免反朝直遙反宦音患"), ("zhu", "分辨皆别宦仕也班次也涖臨也莊敬也學或為御")]
    assert [g["char"] for g in passage["notes"][0]["glosses"]] == ["别", "辨", "朝", "宦"]
    after, _ = holding(dump, "tongjie", "quli", "是故君子恭敬撙節退讓以明禮")
    assert after is section


# -- reviewed title decisions ----------------------------------------------------------------------

def test_right_sleeve_and_tally_are_jing(dump):
    # 「…獻民虜者操｜右袂…」, 「若左｜右鈞…」: the 右 lines run on from the column before and into the next
    # (reviewed in conv/data/column_joins.toml): 经, one passage each, no 章 title
    _, passage = holding(dump, "tongjie", "quli", "獻車馬者執䇿綏獻甲者執胄獻杖者執末獻民虜者操右袂獻粟者執右契獻米者操量鼔獻孰食者操醬齊獻田宅者操書致")
    assert passage["layer"] == "jing" and at(dump, passage["span"])[0] == 368
    _, even = holding(dump, "tongjie", "dashe", "若左右鈞則左右各執一算以告曰左右鈞還復位坐兼斂算實八算于中委其餘于中西興共而俟")
    assert even["layer"] == "jing" and at(dump, even["span"]) == (702, 28)


def test_jixi_ji_summary_opening_with_jing_is_a_title(dump):
    # 既夕禮記 013 l.321–322: 尸在室有君命衆主人不出(…)¶　經於君命弔襚直言主人不言衆主人故記之
    section, passage = holding(dump, "judou", "jixi", "尸在室有君命衆主人不出")
    assert section["title"] == "經於君命弔襚直言主人不言衆主人故記之" and passage["layer"] == "ji"
    assert at(dump, section["title_span"]) == (322, 2)
    assert [p["text"] for p in section["passages"]] == ["尸在室有君命衆主人不出"]


def test_title_corrections_may_name_witness_files():
    Corrections().check_used(set())  # no error: the KR1d… files are the project's seeds too


# -- the 句读: a note or a remark after a 章旨 ----------------------------------------------------------

def test_shiguan_remark_after_the_last_title_of_the_jing(dump):
    # 士冠禮 001 l.259–262: 　右送賔歸俎¶　(以上士冠禮正經頗疑數事…)
    section, _ = holding(dump, "judou", "shiguan", "賔出主人送于外門外再拜歸賔俎")
    assert section["title"] == "右送賔歸俎"
    [(layer, text)] = [(n["layer"], n["text"]) for n in section["title_notes"]]
    assert layer == "an" and text.startswith("以上士冠禮正經頗疑數事") and text.endswith("註已陳之要皆文不具也")
    after, passage = holding(dump, "judou", "shiguan", "若不醴則醮用酒")
    assert after is not section and passage["notes"][0]["text"].startswith("若不醴謂國有舊俗可行聖人用焉")


@pytest.mark.parametrize("chapter, title, remark, first", [
    # 特牲 015 l.393–395: 　右嗣子長兄弟酳○愚於此節不能無疑…安乎
    ("tesheng", "右嗣子長兄弟\U000f016a", "愚於此節不能無疑嗣子子也主人拜祝拜酳拜受酢如事嚴賔然為之子者何以安乎",
     "祝命徹阼俎豆籩設于東序下"),
    # 有司徹 017 l.271–272: 　右主人酬尸○特牲及下不儐尸皆無酬尸之事此…
    ("yousiche", "右主人酬尸", "特牲及下不儐尸皆無酬尸之事此特有之奠而不舉", None),
])
def test_remark_after_a_circle_on_a_title_line(dump, chapter, title, remark, first):
    (section,) = [s for s in sections(dump, "judou", chapter) if s["title"] == title]
    assert [(n["layer"], n["text"]) for n in section["title_notes"]] == [("an", remark)]
    assert not [p for s in sections(dump, "judou", chapter) for p in s["passages"] if p["text"] in (title, remark)]
    if first:
        after, _ = holding(dump, "judou", chapter, first)
        assert after is not section


def test_sangfu_list_of_persons(dump):
    # 喪服 011 l.565–567: 叔父之下殤○適孫之下殤○昆弟之下殤○大夫庶子為適昆弟之下殤○為姑姊妹女子子之下殤○為人後者…
    persons = ["叔父之下殤", "適孫之下殤", "昆弟之下殤", "大夫庶子為適昆弟之下殤", "為姑姊妹女子子之下殤",
               "為人後者為其昆弟從父昆弟之長殤"]
    (section,) = [s for s in sections(dump, "judou", "sangfu") if any(p["text"] == persons[0] for p in s["passages"])]
    texts = [p["text"] for p in section["passages"]]
    start = texts.index(persons[0])
    assert texts[start:start + 6] == persons
    assert [notes(p) for p in section["passages"][start:start + 5]] == [[]] * 5
    assert not [p for p in dump["problems"] if p["kind"] == "stray-separator"]


WORDS = st.text(alphabet="主人賔拜受爵坐祭立降洗升堂", min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(title=WORDS, remark=st.one_of(st.none(), WORDS), note=WORDS, jing=WORDS, gloss=WORDS)
def test_a_note_opening_the_line_after_a_title_is_the_titles(title, remark, note, jing, gloss):
    """Any 句读 title line (with or without a remark after ○), then a line opening with a note: the note
    is the title's, the remark too, and the 经 after them is a passage with its own note."""
    text = f"仪礼郑注句读\n\n右{title}" + (f"○{remark}" if remark else "") + f"\n【{note}】\n{jing}【{gloss}】\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.txt"
        path.write_text(text, encoding="utf-8")
        dump = export.edition(assemble.convert([path]))
    assert not [p for p in dump["problems"] if p["kind"] in KINDS]
    (chapter,) = dump["works"][0]["chapters"]
    titled = [s for s in chapter["sections"] if s["title"]]
    assert [s["title"] for s in titled] == [f"右{title}"] and titled[0]["passages"] == []
    assert [n["text"] for n in titled[0]["title_notes"]] == ([remark] if remark else []) + [note]
    assert {n["layer"] for n in titled[0]["title_notes"]} == {"an"}
    [passage] = [p for s in chapter["sections"] for p in s["passages"]]
    assert passage["text"] == jing and [n["text"] for n in passage["notes"]] == [gloss]
