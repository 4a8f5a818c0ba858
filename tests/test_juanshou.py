"""The 通解's 卷首 as the book has it (issue #18, point 3): KR1d0085_000 holds the 四库 header
lines, the 提要, 張虙's 舊序, 朱熹's 目録 and, after 附, his 乞修三禮劄子. None of it is 经: its
passages are of the layer ``front``; the small characters of the 提要, 舊序 and 劄子 are 小字
(``small``), and in the 目録 a small note that is no 疏曰 or 今按 (班固's own, 陸徳明's, 朱熹's
unmarked ones) is 小字 too, never 郑注 (``conv/parser/apart.py``, the 卷首's ``parts`` in
``conv/data/tongjie_chapters.toml``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def juanshou(whole_dump) -> dict:
    work = next(w for w in whole_dump["works"] if w["id"] == "tongjie")
    return next(c for c in work["chapters"] if c["id"] == "juanshou")


def passages(chapter: dict) -> list[dict]:
    return [p for s in chapter["sections"] for p in s["passages"]]


def find(chapter: dict, opening: str) -> dict:
    (found,) = [p for p in passages(chapter) if p["text"].startswith(opening)]
    return found


def notes(passage: dict) -> list[tuple[str, str]]:
    return [(n["layer"], n["text"]) for n in passage["notes"]]


def test_no_passage_of_the_juanshou_is_jing(juanshou):
    assert {p["layer"] for p in passages(juanshou)} == {"front"}


def test_the_tiyao_is_front_and_its_chen_small(juanshou):
    tiyao = find(juanshou, "等謹按儀禮經傳通解三十七卷續二十九巻")
    assert tiyao["layer"] == "front" and tiyao["page"] == {"juan": 0, "leaf": 1, "side": "a"}
    segments = [n for p in passages(juanshou) for n in p["notes"]]
    chen = [n for n in segments if n["text"] == "臣"]
    assert len(chen) == 1 and {n["layer"] for n in chen} == {"small"}  # 臣等謹按 (the credits' are metadata)


def test_preface_and_memorial_are_front(juanshou):
    assert find(juanshou, "南康舊刊朱文公儀禮經傳與集傳集註而喪祭")["layer"] == "front"
    memorial = find(juanshou, "臣聞之六經之道同歸而禮樂之用為急")
    assert memorial["layer"] == "front" and memorial["text"].endswith("則斯文幸甚取進止")


def test_in_the_catalogue_shu_and_an_stay_and_no_note_is_zheng(juanshou):
    """疏曰 is 賈疏 and 今按 朱熹's 按, as the 通解 gives them everywhere; 班固's own note (后氏戴氏),
    陸徳明's 釋文, 顔師古's and 朱熹's unmarked notes are 小字, not 郑注."""
    first = find(juanshou, "儀禮經傳目録漢書藝文志禮古經五十六卷經十七篇")
    assert notes(first)[0] == ("small", "后氏戴氏")
    assert notes(first)[1][0] == "an" and notes(first)[1][1].startswith("今按此即今儀禮也")
    assert notes(find(juanshou, "士冠禮第一")) == [("small", "陸徳明釋文曰冠古亂反下以意求之")]
    assert notes(find(juanshou, "鄭𤣥目録曰童子任職居士位年二十而冠"))[0][0] == "shu"
    assert notes(find(juanshou, "天子之士朝服皮弁素積"))[0][0] == "an"
    assert notes(find(juanshou, "主人𤣥冠朝服則是仕於諸侯")) == [("small", "句")]
    assert not [n for p in passages(juanshou) for n in p["notes"] if n["layer"] in ("zhu", "mulu", "jing")]


def test_no_term_is_read_in_the_front_matter(whole_dump):
    """名物 are read in 经 and 记 only: the 提要's 序 (a preface) is no wall."""
    assert not [p for p in whole_dump["problems"] if p["seed"] == "KR1d0085_000.txt" and p["kind"] == "term-unplaced"]


def test_the_classic_scope_of_search_finds_nothing_of_the_juanshou(whole_html):
    """「经:」 searches 经 and 记 only (``search/language.py``): no unit of the 卷首 page is one."""
    units = json.loads((whole_html.outdir / "_search" / "tongjie" / "juanshou.json").read_text(encoding="utf-8"))
    text = json.dumps(units, ensure_ascii=False)
    assert "等謹按儀禮經傳通解三十七卷" in text
    assert '"jing"' not in text and '"zhu"' not in text


# -- its sections: one per part, titled as printed ------------------------------------------------

PARTS = ["提要", "儀禮經傳通解舊序", "目録", "乞修三禮劄子"]


def ledger() -> dict[str, list[str]]:
    rows = (ROOT / "conv" / "data" / "anchors.tsv").read_text(encoding="utf-8").splitlines()
    return {row.split("\t")[0]: row.split("\t") for row in rows if row and not row.startswith("#")}


def test_a_section_per_part_titled_as_printed(juanshou):
    sections = juanshou["sections"]
    assert [s["title"] for s in sections][-4:] == PARTS
    assert [s["id"] for s in sections][-4:] == [f"tongjie-juanshou-s{n}" for n in (2, 3, 4, 5)]
    pages = [s["page"] for s in sections[-4:]]
    assert pages == [{"juan": 0, "leaf": leaf, "side": side} for leaf, side in ((1, "a"), (3, "b"), (4, "b"), (21, "b"))]
    tiyao, preface, catalogue, memorial = ([p["id"] for p in s["passages"]] for s in sections[-4:])
    assert tiyao[:2] == ["tongjie-juanshou-3", "tongjie-juanshou-4"] and preface[0] == "tongjie-juanshou-18"
    assert catalogue[0] == "tongjie-juanshou-23" and catalogue[-1] == "tongjie-juanshou-156"  # 附 closes the 目録
    assert memorial == ["tongjie-juanshou-158"]


def test_the_chen_opens_the_tiyao_as_in_the_judou(juanshou):
    """提要(臣)等謹按…: the heading is the section's title, the small 臣 the first passage of the 提要
    (no words of its own, as in the 句读's 提要), and 等謹按… the next one."""
    first, body = juanshou["sections"][-4]["passages"][:2]
    assert first["text"] == "" and notes(first) == [("small", "臣")] and first["layer"] == "front"
    assert body["text"].startswith("等謹按儀禮經傳通解三十七卷") and body["id"] == "tongjie-juanshou-4"


def test_the_headings_passages_redirect_to_their_sections_and_s1_still_opens_the_juanshou():
    rows = ledger()
    assert {a: rows[a][1:3] for a in ("tongjie-juanshou-17", "tongjie-juanshou-22", "tongjie-juanshou-157")} == {
        "tongjie-juanshou-17": ["redirect", "tongjie-juanshou-s3"], "tongjie-juanshou-22": ["redirect", "tongjie-juanshou-s4"],
        "tongjie-juanshou-157": ["redirect", "tongjie-juanshou-s5"]}
    assert all("卷首" in rows[a][8] for a in ("tongjie-juanshou-17", "tongjie-juanshou-22", "tongjie-juanshou-157"))
    assert rows["tongjie-juanshou-3"][1] == "live" and rows["tongjie-juanshou-s2"][1] == "live"


# -- the 四库 header and credit lines: metadata, as in the 句读's 提要 ------------------------------

def test_header_and_credit_lines_are_meta(juanshou):
    assert [(m["kind"], m["text"]) for m in juanshou["meta"]] == [
        ("siku", "欽定四庫全書經部四"), ("catalogue", "儀禮經傳通解禮類五【通禮之屬】"),
        ("credits", "總纂官【臣】紀昀【臣】陸錫熊【臣】孫士毅"), ("credits", "總校官【臣】陸費墀"),
        ("siku", "欽定四庫全書")]  # the last heads the 目録's page 4b
    assert juanshou["meta"][0]["span"][1] == first_text_offset()  # the first characters of the 卷首
    texts = [p["text"] for p in passages(juanshou)]
    assert not [t for t in texts if t.startswith(("欽定四庫全書", "儀禮經傳通解禮類", "總纂官", "總校官", "紀昀", "陸費墀"))]
    assert [s["title"] for s in juanshou["sections"]] == PARTS  # nothing before the 提要 but metadata


def test_the_passages_they_were_redirect_with_why():
    """Their citations land on the 卷首 (the header lines and the section s1 they made, which
    cited the 卷首's start) or on its 提要 (the credits), with the note that says why."""
    rows = ledger()
    header = {a: rows[a][1:3] for a in ("tongjie-juanshou-s1", "tongjie-juanshou-1", "tongjie-juanshou-2")}
    assert header == dict.fromkeys(header, ["redirect", "tongjie-juanshou"])
    credits = {f"tongjie-juanshou-{n}": rows[f"tongjie-juanshou-{n}"][1:3] for n in range(11, 17)}
    assert credits == dict.fromkeys(credits, ["redirect", "tongjie-juanshou-s2"])
    assert all("yl:meta" in rows[a][8] for a in [*header, *credits])


def first_text_offset() -> int:
    text = (ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_000.txt").read_text(encoding="utf-8")
    return text.index("欽定四庫全書")


def test_the_page_lists_its_parts_and_shows_the_chen_small(whole_html):
    """The page's contents (本页目录) take a reader to each part; the 臣 opening the 提要 is a 小字
    segment, not 郑注; the header lines are metadata on the page, the credits too."""
    page = BeautifulSoup(whole_html.html("tongjie/juanshou"), "html.parser")
    toc = [(a["href"], a.get_text()) for a in page.select(".toc-tree a")]
    assert toc[-4:] == [("#tongjie-juanshou-s2", "提要"), ("#tongjie-juanshou-s3", "仪礼经传通解旧序"),
                        ("#tongjie-juanshou-s4", "目录"), ("#tongjie-juanshou-s5", "乞修三礼劄子")]
    chen = page.select_one("#tongjie-juanshou-3")
    assert chen["class"] == ["yl-passage", "yl-front"]
    assert [s.get_text() for s in chen.select(".yl-note")] and all("yl-small" in s["class"] for s in chen.select(".yl-note"))
    assert not page.select(".yl-zhu") and not page.select(".yl-jing")
    metas = page.select(".yl-meta")
    assert [m["class"][1] for m in metas] == ["yl-meta-witnesses", "yl-meta-siku", "yl-meta-catalogue", "yl-meta-credits",
                                              "yl-meta-credits", "yl-meta-siku"]
    assert metas[1].get_text().startswith("欽定四庫全書經") and metas[4].get_text().startswith("總校官【臣】陸費")
    # the credits close the 提要: after its last passage, before the 舊序's heading
    # (juanshou-7 holds the whole 提要 after its heading: 8, 9 and 10 were its paragraph cut at three pages' feet)
    assert metas[3].find_previous(class_="yl-passage")["id"] == "tongjie-juanshou-7"
    assert metas[4].find_next("h2").get_text().rstrip("¶#") == "仪礼经传通解旧序"


#: Where the small 臣 stands against the first line of 等謹按…: its box and font size, and the text's.
PLACE = """() => {
  const chen = document.querySelector('#tongjie-juanshou-3 .yl-note');
  const text = document.querySelector('#tongjie-juanshou-4 .yl-text');
  const range = document.createRange();
  range.setStart(text.firstChild, 0); range.setEnd(text.firstChild, 1);
  const c = chen.getBoundingClientRect(), t = range.getBoundingClientRect();
  return {chenRight: c.right, textLeft: t.left, chenBottom: c.bottom, textTop: t.top, textBottom: t.bottom,
          smaller: parseFloat(getComputedStyle(chen).fontSize) < parseFloat(getComputedStyle(text).fontSize),
          marks: [...document.querySelectorAll('#tongjie-juanshou-3 .yl-page, #tongjie-juanshou-3 .yl-permalink')]
                 .filter(e => e.getBoundingClientRect().width > 0).length};
}"""


@pytest.mark.browser
def test_a_reader_sees_the_chen_small_inside_its_sentence(page, whole_html, http_server, screenshots):
    """臣等謹按: the small 臣 stands on the line of 等謹按, just before 等, with no mark between."""
    site = http_server(whole_html.outdir)
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{site}/tongjie/juanshou.html")
        place = page.evaluate(PLACE)
        assert place["smaller"] and place["marks"] == 0
        assert 0 <= place["textLeft"] - place["chenRight"] < 20  # right before 等
        assert place["textTop"] < place["chenBottom"] <= place["textBottom"] + 2  # on its line
        page.screenshot(path=str(screenshots / f"juanshou-tiyao-{width}.png"))
    assert page.locator(".toc-tree a").filter(has_text="乞修三礼劄子").count() == 1
