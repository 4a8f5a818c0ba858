"""The 文渊阁 transcription converted (文渊阁本): the whole 句读 from KR1d0038, read through the seeds'
parser after a same-length transliteration (``conv.reader.wenyuange``), every passage with its page."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv import unencoded
from conv.edition import assemble, export
from conv.reader import mandoku, wenyuange
from conv.reader.source import page_at
from conv.sphinx_ext.text.chars import UNKNOWN_MARK, char_node

ROOT = Path(__file__).resolve().parents[1]
JUDOU = ROOT / "seeds" / "wenyuange" / "KR1d0038"
JUAN = [JUDOU / f"KR1d0038_{n:03d}.txt" for n in range(1, 18)]
MARKUP = re.compile(r"[\s【】○\u3000]")


@pytest.fixture(scope="module")
def judou():
    edition = assemble.convert(JUAN)
    return edition, export.edition(edition)


@pytest.mark.parametrize("path", JUAN, ids=lambda p: p.stem)
def test_transliteration_keeps_every_character_in_place(path):
    """Same length; every text character of the witness at its own offset; nothing else is text
    (○, the separator of commentators, is markup for the parser and for conservation)."""
    source = wenyuange.read(path)
    witness = mandoku.read(path)
    assert len(source.text) == len(witness.text)
    expected = {offset: char for run in witness.runs for char, offset in zip(run.text, run.offsets) if char != "○"}
    found = {offset: char for offset, char in enumerate(source.text) if not MARKUP.match(char)}
    assert found == expected


def test_the_whole_judou_in_the_books_order(judou):
    _, dump = judou
    (work,) = dump["works"]
    assert [c["id"] for c in work["chapters"]] == [
        "shiguan", "shihun", "shixiangjian", "xiangyinjiu", "xiangshe", "yanli", "dashe", "pinli",
        "gongshi", "jinli", "sangfu", "shisang", "jixi", "shiyu", "tesheng", "shaolao", "yousiche"]
    for chapter in work["chapters"]:
        assert chapter["heading"], chapter["id"]
        # 公食大夫礼's is printed 鄭自録云 in the transcription (自 for 目)
        assert chapter["mulu"] and chapter["mulu"][0]["text"][:3] in ("鄭目録", "鄭目錄", "鄭自録"), chapter["id"]
        assert sum(len(s["passages"]) for s in chapter["sections"]) > 40, chapter["id"]
    headings = {c["id"]: c["heading"] for c in work["chapters"]}
    assert headings["jixi"] == "既夕第十三"  # no 礼 (conv/data/chapters.toml: printed)
    assert headings["sangfu"] == "喪服第十一子夏傳"  # 子夏传 on the title line (after)


def test_every_passage_and_title_has_its_page(judou):
    _, dump = judou
    xiangshe = next(c for c in dump["works"][0]["chapters"] if c["id"] == "xiangshe")
    first = xiangshe["sections"][0]
    assert first["title"] == "右戒賔" and first["page"] == {"juan": 5, "leaf": 2, "side": "a"}
    passage = first["passages"][0]
    assert passage["text"].startswith("鄉射之禮主人戒賔賔出迎再拜主人答再拜乃請")
    assert passage["page"] == {"juan": 5, "leaf": 1, "side": "a"} and passage["witness"] == "kanripo"
    assert passage["notes"][0]["text"].startswith("主人州長也鄉大夫若在焉")  # one note over two pages
    for chapter in dump["works"][0]["chapters"]:
        for section in chapter["sections"]:
            assert section["title_span"] is None or section["page"] is not None
            for passage in section["passages"]:
                assert passage["page"]["juan"] == chapter_number(chapter["id"], dump), passage["id"]


def chapter_number(chapter_id: str, dump: dict) -> int:
    return next(c["number"] for c in dump["works"][0]["chapters"] if c["id"] == chapter_id)


def test_unencoded_characters_are_kept_and_listed(judou):
    edition, dump = judou
    entries = [a for a in dump["apparatus"] if a["kind"] == "unencoded"]
    assert entries and all(re.fullmatch(r"&KR\d{4};|\[沔-丏\+丐\]", a["witness"]) for a in entries)
    assert any(a["witness"] == "[沔-丏+丐]" for a in entries)  # a composed character (KR1d0038_012)
    first = entries[0]
    seed, start, _ = first["span"]
    assert edition.sources[seed].witness.text[start:start + 8] == first["witness"]
    assert unencoded.markup(edition.sources[seed].text[start]) == first["witness"]
    assert not [p for p in dump["problems"] if p["kind"] == "unknown-pua"]


def test_no_page_break_joins_in_a_paged_transcription(judou):
    _, dump = judou
    assert not [a for a in dump["apparatus"] if a["kind"].startswith("page-break")]
    assert not [a for a in dump["apparatus"] if a["kind"].startswith("lacuna")]


def test_problems_point_into_the_witness_file(judou):
    _, dump = judou
    problem = next(p for p in dump["problems"] if p["kind"] == "unparsed-gloss")  # 士昏禮's 屬音燭涚舒鋭反音睡
    lines = (JUDOU / problem["seed"]).read_text(encoding="utf-8").splitlines()
    assert (problem["seed"], problem["line"], problem["col"]) == ("KR1d0038_002.txt", 312, 3)
    assert lines[problem["line"] - 1][problem["col"] - 1:].startswith("音/睡")  # a 双行小注's column break between


def test_page_of_an_offset():
    source = wenyuange.read(JUAN[4])
    offset = source.witness.text.index("右戒賔")
    assert page_at(source, offset) == {"juan": 5, "leaf": 2, "side": "a"}


def test_unencoded_character_node():
    node = char_node(unencoded.gaiji_char("&KR0871;"))
    assert node["kind"] == "unencoded" and node["resolved"] == UNKNOWN_MARK
    assert node.astext() == UNKNOWN_MARK and "&KR0871;" in node["title"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["鄉射", "之禮", "(主/人)", "(注文/注文)", "¶\n", "<PB>",
                                 "&KR0871;", "　右戒賔¶\n", "○", "(疏曰/云)"]), min_size=1, max_size=30))
def test_transliteration_property(pieces):
    """Any text of these pieces: nothing lost, nothing injected, every character in place."""
    body = "".join(pieces)
    for leaf in range(2, 2 + body.count("<PB>")):
        body = body.replace("<PB>", f"¶\n<pb:KR1d0038_WYG_005-{leaf}a>¶\n", 1)
    text = "# -*- mode: mandoku-view -*-\n#+TITLE: 儀禮鄭註句讀\n<pb:KR1d0038_WYG_005-1a>¶\n" + body + "¶\n"
    witness = mandoku.parse("KR1d0038_005.txt", text)
    out = wenyuange.transliterate(witness)
    assert len(out) == len(text)
    expected = {offset: char for run in witness.runs for char, offset in zip(run.text, run.offsets) if char != "○"}
    assert {i: c for i, c in enumerate(out) if not MARKUP.match(c)} == expected


def titles_of(work: dict) -> dict:
    return {s["title"]: s for c in work["chapters"] for s in c["sections"] if s["title"]}


def test_every_indented_title_line_is_a_title(judou):
    """The 句读 prints a 章's title line one cell down (　右…), 张尔岐's remark on it after it, over two columns
    where it is long (　右事死之初事喪禮凡二大端一以奉體魄一以事¶　精神楔齒綴足奉體魄之始奠脯醢事精神之始也¶); 经 that
    opens with 右 stands at the column's top (右人左執匕…). So every indented 右 line is a 章 title, however
    long — and a title of the 记, 右記昏禮時地辭命用物, is one too — and no passage of 经 opens with one."""
    _, dump = judou
    (work,) = dump["works"]
    sections = {s["id"]: s for c in work["chapters"] for s in c["sections"]}
    titles = [s["title"] for s in sections.values() if s["title"]]
    assert "右事死之初事喪禮凡二大端一以奉體魄一以事精神楔齒綴足奉體魄之始奠脯醢事精神之始也" in titles
    # his remark marked 愚案 or 疏云 (no ○ on these lines) is a note of the title, as after a ○
    assert [(n["layer"], n["text"]) for n in titles_of(work)["右主人以下室中哭位"]["title_notes"]] == [
        ("an", "愚案主人哭位唯小斂以前在此小斂後則在階下矣")]
    assert [(n["layer"], n["text"]) for n in titles_of(work)["右君使人襚"]["title_notes"]] == [
        ("shu", "疏云君襚雖在襲前襲與小斂俱不得用大斂乃用之")]
    assert "右合樂及告樂備此作樂樂賔是飲酒禮第二段並上段鄭氏以為禮樂之正是也" in titles
    assert {"右記昏禮時地辭命用物", "右記有故卒聘致書之事", "右記使者受命將行之禮", "右記朝聘玉幣"} <= set(titles)
    opening = [p["text"][:8] for c in work["chapters"] for s in c["sections"] for p in s["passages"]
               if p["text"].startswith("右")]
    assert opening == ["右人左執匕抽扃予"]


def test_every_indented_summary_line_is_a_title(judou):
    """张尔岐 sums up a 记 item or a stretch of 经 on a line of its own, one cell down, without 右 or 記 (士昏禮記's
    納采之辭 … 不親迎者見婦父母之禮, 聘禮記's 釋聘用圭璧之故, 士喪禮's 此小斂後節哀之事, 既夕禮記's
    此據經士死于適室…人子侍養之事): each is the title of the section it closes, not the opening of the 经 after it."""
    _, dump = judou
    (work,) = dump["works"]
    chapters = {c["id"]: c for c in work["chapters"]}
    titles = {s["title"]: s for c in work["chapters"] for s in c["sections"] if s["title"]}
    for title in ("納采之辭", "問名之辭", "醴賔之辭", "納吉之辭", "納徵之辭", "請期之辭", "使者反命之辭", "父醮子辭",
                  "親迎至門告擯者辭", "父母送女戒命之辭", "姆辭壻授綏之辭", "不親迎者見婦父母之禮", "釋聘用圭璧之故",
                  "賓謝館主人", "明致饔米禾之數", "此小斂後節哀之事", "此據經士死于適室幠用斂衾之文而記君子正終人子侍養之事"):
        assert title in titles, title
    section = titles["納采之辭"]
    assert section["passages"][-1]["text"].endswith("致命曰敢納采")
    (after,) = [p for s in chapters["shihun"]["sections"] for p in s["passages"] if p["text"].startswith("問名曰某既受命")]
    assert after["text"] == "問名曰某既受命將加諸卜敢請女為誰氏"
    assert not [p for c in work["chapters"] for s in c["sections"] for p in s["passages"]
                if p["text"].startswith(tuple(titles))]


def test_the_zhuan_of_sangfu_is_a_passage_of_its_own(judou):
    """丧服 prints its 经 at the column's top and 子夏's 传 one cell down (父¶　傳曰為父何以斬衰也父至尊也¶): where no
    note stands between them they are two passages still, the 经 keeping its anchor — no 经 or 记 passage of the
    句读 holds a 传曰 after its first words."""
    _, dump = judou
    (work,) = dump["works"]
    passages = {p["id"]: p for c in work["chapters"] for s in c["sections"] for p in s["passages"]}
    assert passages["judou-sangfu-5"]["text"] == "父"
    held = [p["id"] for p in passages.values() if p["layer"] in ("jing", "ji")
            and any(p["text"].find(mark) > 0 for mark in ("傳曰", "𫝊曰"))]
    assert held == []
    (zhuan,) = [p for p in passages.values() if p["text"].startswith("傳曰為父何以斬衰也")]
    assert zhuan["text"] == "傳曰為父何以斬衰也父至尊也" and zhuan["layer"] == "jing"


@pytest.mark.parametrize("first, second", [
    ("主人洗獻兄弟與内賔與私人皆如儐禮其位其薦脀皆如儐禮", "卒乃羞于賔兄弟内賔及私人辨"),  # 有司徹 017 l.497: 皆如儐禮¶
    ("妾為女君君之長子惡笄有首布緫", "凡衰外削幅裳内削幅幅三袧"),                      # 丧服記 011 l.781
    ("大夫之庻子為適昆弟之長殤中殤", "公為適子之長殤中殤"),      # 丧服 011 l.448: the item's blank at the column's foot
])
def test_a_paragraph_of_the_judou_ends_where_its_column_ends(judou, first, second):
    """A column of 经 or 记 that does not fill its 21 cells ends a paragraph, and the paragraph is a passage, a
    note after it or not (有司徹: …其位其薦脀¶皆如儐禮¶卒乃羞于賔…)."""
    _, dump = judou
    (work,) = dump["works"]
    texts = [p["text"] for c in work["chapters"] for s in c["sections"] for p in s["passages"]]
    assert texts[texts.index(first) + 1] == second


@pytest.mark.parametrize("text", [
    "加爵弁如初儀三醮有乾肉折俎嚌之其他如初北面取脯見于母",  # 士冠禮 001 l.285: 有乾｜肉 (20 cells)
    "若命皆致則序進奠觶于篚阼階下皆北面再稽首公答拜媵爵者洗象觶升實之序進坐奠于薦南北上降適阼階下皆再拜稽首送觶公答拜",
    "升飲者如初三耦卒飲若賓諸公卿大夫不勝則不降不執弓耦不升",  # 大射 007 l.530: 卒飲｜若賓
])
def test_a_column_of_twenty_cells_that_runs_on_is_read_so(judou, text):
    """Three columns of the 句读 hold 20 cells though the sentence runs on (conv/data/column_joins.toml)."""
    _, dump = judou
    (work,) = dump["works"]
    assert [p for c in work["chapters"] for s in c["sections"] for p in s["passages"] if p["text"] == text]
