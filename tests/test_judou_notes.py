"""The 句读's front matter and 张尔岐's collation notes (卷首与卷十八、十九): KR1d0038_000 (提要, 原序)
as chapters before the 篇, KR1d0038_018 监本正误 and _019 石本误字 as chapters after them, and
their entries as apparatus entries linked to the passages they name (conv/parser/apart.py,
conv/parser/errata.py, conv/edition/errata.py)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pagetext import page_soup as soup, witness_text as diplomatic
from smallsite import build_site
from hypothesis import given, settings
from hypothesis import strategies as st

from conv import datafiles as data
from conv.anchors import decisions
from conv.edition import assemble, export
from conv.model import conservation
from conv.model.tree import TEXT_CHAR
from conv.parser import errata
from conv.reader import source as reader

ROOT = Path(__file__).resolve().parents[1]
JUDOU = ROOT / "seeds" / "wenyuange" / "KR1d0038"
FRONT, JIANBEN, SHIBEN = (JUDOU / f"KR1d0038_{n:03d}.txt" for n in (0, 18, 19))
SHIHUN = JUDOU / "KR1d0038_002.txt"
#: The real edition of the 句读: the seeds and the whole 文渊阁 text, front matter and notes included.
WHOLE = [*sorted((ROOT / "seeds").glob("*.txt")), *sorted(JUDOU.glob("KR1d0038_*.txt"))]


@pytest.fixture(scope="module")
def whole():
    edition = assemble.convert(WHOLE)
    return edition, export.edition(edition)


def chapters(dump) -> dict:
    return {c["id"]: c for c in dump["works"][0]["chapters"]}


def notes_of(dump, kind: str) -> list[dict]:
    return [a for a in dump["apparatus"] if a["kind"] == kind]


def find_note(dump, text: str) -> dict:
    return next(a for a in dump["apparatus"] if a["kind"].startswith("zhang-") and a["text"] == text)


def passage(dump, anchor: str) -> dict:
    return next(p for c in dump["works"][0]["chapters"] for s in c["sections"] for p in s["passages"] if p["id"] == anchor)


# -- the front matter ------------------------------------------------------------------------------

def test_the_front_matter_before_the_pian_and_the_notes_after(whole):
    _, dump = whole
    ids = [c["id"] for c in dump["works"][0]["chapters"]]
    assert ids[:3] == ["tiyao", "xu", "shiguan"] and ids[-3:] == ["yousiche", "jianben", "shiben"]
    found = chapters(dump)
    assert [found[c]["title"] for c in ("tiyao", "xu", "jianben", "shiben")] == ["提要", "原序", "监本正误", "石本误字"]
    assert [found[c]["heading"] for c in ("tiyao", "xu", "jianben", "shiben")] == ["提要", "儀禮鄭註句讀原序", "儀禮監本正誤", "儀禮石本誤字"]
    layers = {c: {p["layer"] for s in found[c]["sections"] for p in s["passages"]} for c in ("tiyao", "xu", "jianben", "shiben")}
    assert layers == {"tiyao": {"front"}, "xu": {"front"}, "jianben": {"errata"}, "shiben": {"errata"}}


def test_their_ids_collide_with_nothing():
    ids = [c["id"] for c in data.judou_apart()]
    assert ids == ["tiyao", "xu", "jianben", "shiben"] and all(i.isascii() and i.isalpha() for i in ids)
    assert not set(ids) & {c["id"] for c in [*data.chapters(), *data.tongjie_chapters()]}
    assert decisions.known_chapter("judou-tiyao") and not decisions.known_chapter("tongjie-tiyao")  # a redirect target


def test_the_tiyao_first_and_last_characters_and_pages(whole):
    edition, dump = whole
    tiyao = chapters(dump)["tiyao"]
    assert [(m["kind"], m["text"]) for m in tiyao["meta"]] == [
        ("siku", "欽定四庫全書經部四"), ("catalogue", "儀禮鄭註句讀禮類二【儀禮之屬】"),
        ("credits", "總纂官【臣】紀昀【臣】陸錫熊【臣】孫士毅總校官【臣】陸費墀")]
    first, body = tiyao["sections"][0]["passages"]
    assert first["text"] == "" and [(n["layer"], n["text"]) for n in first["notes"]] == [("small", "臣")]
    assert first["page"] == {"juan": 0, "leaf": 1, "side": "a"}
    assert body["text"].startswith("等謹按儀禮鄭註句讀十七卷監本石經正誤一卷國朝張爾岐撰")
    assert body["text"].endswith("或是卷又自别行歟乾隆四十四年二月恭校上")
    source = edition.sources["KR1d0038_000.txt"]
    last = max(i for i in range(body["span"][1], body["span"][2]) if TEXT_CHAR.match(source.text[i]))
    assert source.text[last] == "上" and reader.page_at(source, last) == {"juan": 0, "leaf": 3, "side": "a"}
    assert not [p for p in dump["problems"] if p["seed"] == "KR1d0038_000.txt"]


def test_the_preface_is_one_paragraph_from_4a_to_6a(whole):
    edition, dump = whole
    (xu,) = [p for s in chapters(dump)["xu"]["sections"] for p in s["passages"]]
    assert xu["text"][:8] == "在昔周公制禮用致" and xu["text"][-8:] == "其難也濟陽張爾岐" and len(xu["text"]) == 713
    assert xu["page"] == {"juan": 0, "leaf": 4, "side": "a"} and xu["id"] == "judou-xu-1"
    source = edition.sources["KR1d0038_000.txt"]
    assert reader.page_at(source, xu["span"][2] - 1) == {"juan": 0, "leaf": 6, "side": "a"}


@pytest.mark.parametrize("path", [FRONT, JIANBEN, SHIBEN], ids=lambda p: p.stem)
def test_conservation_on_the_three_files(whole, path):
    """Every text character of each file lies in exactly one span of the model."""
    edition, _ = whole
    text = edition.sources[path.name].text
    counts = Counter()
    for _, (seed, start, end) in conservation.spans(edition):
        if seed == path.name:
            counts.update(i for i in range(start, end) if TEXT_CHAR.match(text[i]))
    chars = [i for i, c in enumerate(text) if TEXT_CHAR.match(c)]
    assert len(chars) > 1000 and all(counts[i] == 1 for i in chars)


# -- 张尔岐's collation notes ---------------------------------------------------------------------

def test_entries_and_problems_per_file(whole):
    """监本正误: 130 entries, 129 linked (6 by the order of the notes); 石本误字: 58 entries, all linked
    (two by the 节 they name); 13 by a reviewed decision of errata.toml; the rest (a lemma of the 监本
    that stands more than once where the order of the notes and the leaf it gives leave it) a problem."""
    _, dump = whole
    assert len(notes_of(dump, "zhang-jianben")) == 129 and len(notes_of(dump, "zhang-shiben")) == 58
    assert Counter(a.get("settled_by") for a in notes_of(dump, "zhang-jianben")) == {None: 123, "order": 6}
    assert sum("decision" in a for a in notes_of(dump, "zhang-jianben") + notes_of(dump, "zhang-shiben")) == 13
    problems = Counter((p["seed"], p["kind"]) for p in dump["problems"] if p["kind"].startswith("errata-"))
    assert problems == {("KR1d0038_018.txt", "errata-ambiguous"): 1}
    assert all(a["span"][0] == "KR1d0038_018.txt" for a in notes_of(dump, "zhang-jianben"))


def test_the_shihun_entry_yu_shou(whole):
    """婦説服于室御受受誤作授: on the 士昏禮 passage holding 御受, with both pages."""
    _, dump = whole
    note = find_note(dump, "婦説服于室御受受誤作授")
    assert (note["lemma"], note["subject"], note["statement"], note["class"]) == ("婦説服于室御受", "受", "受誤作授", "wrong")
    assert note["passage"] == "judou-shihun-61" and note["chapter"] == "shihun"
    assert note["page"] == {"juan": 18, "leaf": 1, "side": "b"}
    assert note["reference"] == "第二十七\U000f045a" and note["reference_reading"] == "第二十七葉"
    target = passage(dump, "judou-shihun-61")
    assert "婦說服于室御受" in target["text"] and target["page"] == {"juan": 2, "leaf": 10, "side": "a"}
    seed, start, end = note["target_spans"][0]
    text = whole[0].sources[seed].text
    assert seed == "KR1d0038_002.txt" and "".join(c for c in text[start:end] if TEXT_CHAR.match(c)) == "婦說服于室御受"


def test_the_fourteen_characters_omitted(whole):
    _, dump = whole
    note = find_note(dump, "視諸衿鞶下脱壻授綏姆辭曰未教不足與為禮也十四字")
    assert (note["lemma"], note["statement"], note["class"]) == ("視諸衿鞶", "下脱壻授綏姆辭曰未教不足與為禮也十四字", "omitted")
    assert note["passage"] == "judou-shihun-145" and note["page"] == {"juan": 18, "leaf": 2, "side": "a"}
    assert "視諸衿鞶" in passage(dump, note["passage"])["text"]


def test_three_places_when_the_note_says_three(whole):
    """毋誤作母凡三見: 毋 stands three times in 士相見禮, so all three are linked."""
    _, dump = whole
    note = find_note(dump, "毋誤作母凡三見")
    assert note["times"] == 3 and len(note["target_spans"]) == 3
    assert note["passages"] == ["judou-shixiangjian-40", "judou-shixiangjian-41"]


def test_a_chapter_title_and_reported_problems(whole):
    _, dump = whole
    assert find_note(dump, "大射儀第七脱儀字")["passage"] == "judou-dashe"  # the 篇's title line
    problems = {p["message"].split(": ")[0]: p for p in dump["problems"] if p["kind"].startswith("errata-")}
    ambiguous = problems["张尔岐's note 用薦嵗事薦誤作為"]  # 5 times in 少牢, 3 between its neighbours' passages
    assert (ambiguous["seed"], ambiguous["line"], ambiguous["col"], ambiguous["kind"]) == ("KR1d0038_018.txt", 166, 2, "errata-ambiguous")
    assert "5 times" in ambiguous["message"] and "leaves judou-shaolao-15, judou-shaolao-17, judou-shaolao-57" in ambiguous["message"]
    assert not any(a["text"] == "用薦嵗事薦誤作為" for a in dump["apparatus"] if "text" in a)


@pytest.mark.parametrize("text, lemma, subject, statement, cls", [
    ("毋違命毋誤作母", "毋違命", "毋", "毋誤作母", "wrong"),
    ("主人對曰某以得為外昏姻之數昏從女誤", "主人對曰某以得為外昏姻之數", "昏", "昏從女誤", "form"),
    ("適左个中皆如之皆如作亦如", "適左个中皆如之", "皆如", "皆如作亦如", "reads"),
    ("外内皆埽作内外", "外内皆埽", "", "作内外", "reads"),
    ("搔誤從木", "搔", "搔", "搔誤從木", "form"),
    ("乃載于羊俎卒載下羨一俎字", "乃載于羊俎卒載", "", "下羨一俎字", "added"),
    ("亦可張也唐石經吳氏本俱亦張可也", "亦可張也", "", "唐石經吳氏本俱亦張可也", "remark"),
    ("閽人為大燭於門外無大字", "閽人為大燭於門外", "大", "無大字", "omitted"),
])
def test_reading_an_entry(text, lemma, subject, statement, cls):
    reading = errata.read(text)
    assert (reading.lemma, reading.subject, reading.statement, reading.cls) == (lemma, subject, statement, cls)
    assert text == reading.lemma + reading.statement or reading.lemma == reading.subject


def test_a_text_without_a_statement_is_not_read():
    """A text with none of the grammar's words (誤, 作, 脱 …) is no entry: linking reports it
    (errata-unread) instead of guessing a lemma."""
    assert errata.read("賔主皆再拜") is None and errata.read("脱") is None


FREE = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"  # characters the grammar never reads as a statement


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FREE), min_size=2, max_size=12, unique=True), st.data(), st.text(FREE, min_size=1, max_size=4))
def test_wrong_for_any_lemma(chars, data, wrong):
    """A lemma of distinct characters, one of them said to be printed wrong: the lemma is exactly
    the text before the subject, the statement the rest."""
    lemma = "".join(chars)
    subject = data.draw(st.sampled_from(chars))
    reading = errata.read(lemma + subject + "誤作" + wrong)
    assert (reading.lemma, reading.subject, reading.statement) == (lemma, subject, subject + "誤作" + wrong)


# -- the edition: 校勘记 and the passage, both ways ---------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("notes"), [FRONT, SHIHUN, JIANBEN])


def test_the_entry_in_the_apparatus_and_the_mark_on_the_passage(site):
    page = soup(site, "apparatus/judou")
    entry = next(e for e in page.select(".yl-app-zhang-jianben") if "御受" in e.get_text())
    assert diplomatic(entry.select_one(".yl-app-body")) == "张尔岐《监本正误》：“婦説服于室御受”，受誤作授（第二十七葉；见本书卷十八叶一b）。"
    assert entry.select_one(".yl-app-locus a")["href"] == "../judou/shihun.html#judou-shihun-61"
    heading = entry.find_previous("h3")
    assert heading.get_text().rstrip("¶") == "士昏礼" and heading.find_previous("h2").get_text().rstrip("¶") == "张尔岐《监本正误》"
    target = soup(site, "judou/shihun").select_one("#judou-shihun-61")
    assert f"../apparatus/judou.html#{entry['id']}" in [a["href"] for a in target.select("a")]


def test_the_front_matter_and_the_notes_as_pages(site):
    index = soup(site, "judou/index")
    assert [a["href"] for a in index.select(".toctree-wrapper a.reference")][:4] == ["tiyao.html", "xu.html", "shihun.html", "jianben.html"]
    tiyao = soup(site, "judou/tiyao")
    assert not tiyao.select(".yl-gap-nowords")  # the small 臣 opening the 提要 is no lacuna
    assert tiyao.select_one("#judou-tiyao-2")["class"] == ["yl-passage", "yl-front"]
    notes = soup(site, "judou/jianben")
    assert [h.get_text().rstrip("¶") for h in notes.select("h2")][:3] == ["小引", "士冠礼", "士昏礼"]
    first = notes.select_one("#judou-jianben-2")
    shown = diplomatic(first)  # the gaiji &KR1114; shows 〓, its unencoded-character entry 校5
    assert shown.startswith("婦説服于室御受受誤作授") and "【第二十七〓】卷十八叶一b" in shown


APART_IDS = [c["id"] for c in data.judou_apart()]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(work=st.sampled_from(["judou", "tongjie", "other"]),
       chapter=st.one_of(st.sampled_from(APART_IDS + [c["id"] for c in data.chapters()]), st.text(max_size=8)))
def test_apart_is_a_lookup_in_the_table_loaded_once(work, chapter):
    """``datafiles.apart``: a 句读 chapter outside its 篇 exactly when ``judou_apart.toml`` lists it;
    the table of ids is read once (cached), not scanned again on each call."""
    assert data.apart(work, chapter) == (work == "judou" and chapter in APART_IDS)
    assert data.apart_ids.cache_info().misses <= 1


def test_the_shiben_jie_settles_an_ambiguous_note(whole_dump):
    """石本误字 names the 节 of each note: 賔升成拜 (補字公酬賔節) stands twice in 大射仪, but only
    once in a section whose title holds 公…酬…賔 (右公取媵觶酬賓遂旅酬); 公答再拜 (記) thrice in 聘礼,
    once in its 记. 司射適堂西袒決遂 (補字請射節) stands in two sections of 请射, 右司射請射 and
    右司射又請射命耦反射位: a reviewed decision (errata.toml) puts it on the first, the 请射 the 节 names."""
    shiben = {e["text"]: e for e in whole_dump["apparatus"] if e["kind"] == "zhang-shiben"}
    assert shiben["賔升成拜拜誤作敗"]["passages"] == ["judou-dashe-75"]
    assert shiben["賔升成拜拜誤作敗"]["settled_by"] == "公酬賔節"
    assert shiben["公答再拜再誤作爯"]["passages"] == ["judou-pinli-479"]
    assert shiben["公答再拜再誤作爯"]["settled_by"] == "記"
    ambiguous = [p["message"] for p in whole_dump["problems"] if p["kind"] == "errata-ambiguous"]
    assert shiben["司射適堂西袒決遂袒誤作祖"]["passages"] == ["judou-xiangshe-330"]
    assert "decision" in shiben["司射適堂西袒決遂袒誤作祖"]
    assert not any("司射適堂西袒決遂袒誤作祖" in m for m in ambiguous)
    assert not any("賔升成拜" in m or "公答再拜再" in m for m in ambiguous)
    assert len(ambiguous) == 1
