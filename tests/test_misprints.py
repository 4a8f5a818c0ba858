"""Misprints of the 文渊阁 text itself (讹字: conv/data/misprints.toml, conv.parser.restorations.Misprints):
a character the 音义 prints for another of like shape, read as the right one, the text left as printed; one of
the words (``words = true``), emended in the reading text, the 底本 view showing it as printed."""
from __future__ import annotations

import re

import pytest

from conv import datafiles as data
from conv.edition import assemble, export
from conv.errors import ConversionError
from conv.parser.restorations import Misprints
from conv.reader import wenyuange

from seedtext import all_passages

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
XIANGYINJIU = ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_007.txt"


@pytest.fixture(scope="module")
def xiangyinjiu():
    return export.edition(assemble.convert([XIANGYINJIU]))


def test_the_misprint_is_read_as_the_right_character_and_the_text_stays(xiangyinjiu):
    """鄉飲酒禮記 其他用觶 (KR1d0085_007:148): the 音义 觶之鼔反 prints 鼔 for 豉 (五宗 prints 觶之豉反): the
    reading is 之豉反, a 广韵 reading of 觶; the text keeps 鼔."""
    (passage,) = [p for p in all_passages(xiangyinjiu) if p["text"] == "獻用爵其他用觶"]
    (gloss,) = passage["notes"][0]["glosses"]
    assert (gloss["text"], gloss["restored"], gloss["status"]) == ("觶之鼔反", "觶之豉反", "matches")
    (record,) = [a for a in xiangyinjiu["apparatus"] if a["kind"] == "misprint"]
    assert (record["witness"], record["reading"], record["context"]) == ("鼔", "豉", "觶之鼔反")


def test_the_apparatus_says_it_in_chinese(xiangyinjiu):
    from conv.edition.assemble import convert
    from conv.myst.backmatter.apparatus import Apparatus

    entries = [e for e in Apparatus(convert([XIANGYINJIU])).interventions["tongjie"] if e.kind == "misprint"]
    assert [e.body for e in entries] == [
        "“鼔”当作“豉”（觶之鼔反）：五宗篇“觶之豉反”，形近而讹。底本照录，音读从正字。"]
    # the shapes are what it says: the 规范 view and the PDF, which fold 鼔 to 鼓 elsewhere, keep both forms here
    assert [e.keep for e in entries] == ["鼔豉"]


def test_every_entry_stands_in_its_file_once():
    for entry in data.misprints():
        witness = ROOT / "seeds" / "wenyuange" / entry["seed"][:8] / entry["seed"]
        text = (witness if entry["seed"].startswith("KR") else ROOT / "seeds" / entry["seed"]).read_text(encoding="utf-8")
        assert text.count(entry["context"]) == 1 and entry["char"] in entry["context"], entry


def test_a_stale_misprint_stops_the_conversion():
    """A context found nowhere in its file (its pieces are parsed one by one around the seeds' stretches,
    each without it) stops the conversion once the file is converted; one found twice stops it at once."""
    entry = {"seed": XIANGYINJIU.name, "context": "觶之鼔反不在此", "char": "鼔", "form": "豉", "reason": "形讹"}
    with pytest.raises(ConversionError) as error:
        Misprints([entry]).check_placed({XIANGYINJIU.name}, [])
    assert str(error.value).startswith("conv/data/misprints.toml:") and "not found" in str(error.value)
    source = wenyuange.read(XIANGYINJIU, {"work": "tongjie"})
    twice = dict(entry, context="反", char="反")
    with pytest.raises(ConversionError) as error:
        Misprints([twice]).for_seed(XIANGYINJIU.name, source.text)
    assert "found more than once" in str(error.value)


@pytest.mark.parametrize("name, printed, restored", [
    ("KR1d0085_002.txt", "和尸卧反", "和户卧反"),  # 士昏禮: 户 as 内則 and 鄉射禮 print it
    ("KR1d0085_008.txt", "撻地達反", "撻吐達反"),  # 鄉射禮: 吐 as 内則 prints it
])
def test_a_misprinted_speller_in_a_gloss_printed_large(name, printed, restored):
    """音义 the transcription prints large before a 疏 (…往辭即告之)和尸卧反疏曰…): in its note (note_runs.toml),
    read with the right speller, the printed one kept."""
    dump = export.edition(assemble.convert([ROOT / "seeds" / "wenyuange" / "KR1d0085" / name]))
    (gloss,) = [g for p in all_passages(dump) for n in p["notes"] for g in n["glosses"] if g["text"] == printed]
    assert (gloss["restored"], gloss["status"]) == (restored, "matches")
    assert not [p for p in all_passages(dump) if printed in p["text"]]


def test_a_speller_that_cannot_spell_its_rhyme_is_read_as_the_like_shaped_one():
    """KR1d0085_010:186: 摳若侯反 — 若 (日母, three grades only) cannot spell 侯 (一等); the 通解 prints
    摳苦侯反 elsewhere (KR1d0085_008:869), the 《广韵》 摳 恪侯切: read 苦侯反, the text keeps 若."""
    found = export.edition(assemble.convert([ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_010.txt"]))
    glosses = [g for p in all_passages(found) for n in p["notes"] for g in n.get("glosses", []) if g["text"] == "摳若侯反"]
    assert [(g["restored"], g["status"], g["position"]) for g in glosses] == [("摳苦侯反", "matches", "溪一侯平")]
    assert "摳若侯反" in "".join(n["text"] for p in all_passages(found) for n in p["notes"])
    (record,) = [a for a in found["apparatus"] if a["kind"] == "misprint" and a["context"] == "摳若侯反"]
    assert (record["witness"], record["reading"]) == ("若", "苦")


@pytest.mark.parametrize("number, printed, restored, position", [
    ("008", "中下仲反", "中丁仲反", "知三東去"),  # 中丁仲反 sixteen times elsewhere in the 通解
    ("012", "麑王兮反", "麑五兮反", "疑開四齊平"),
    ("013", "蕤如佳反", "蕤如隹反", "日合三脂平"),
    ("025", "觽尸圭反", "觽户圭反", "匣合四齊平"),
    ("028", "塞失代反", "塞先代反", "心開一咍去"),  # 塞先代反 elsewhere
])
def test_a_speller_of_an_initial_that_cannot_spell_its_grade_is_read_as_the_like_shaped_one(number, printed,
                                                                                          restored, position):
    found = export.edition(assemble.convert([ROOT / "seeds" / "wenyuange" / "KR1d0085" / f"KR1d0085_{number}.txt"]))
    glosses = [g for p in all_passages(found) for n in p["notes"] for g in n.get("glosses", []) if g["text"] == printed]
    assert [(g["restored"], g["status"], g["position"]) for g in glosses] == [(restored, "matches", position)]


def test_a_homophone_of_like_shape_is_read_as_the_right_one():
    """曲禮 為有萎乾(萎於危反乾音千) (KR1d0085_011:269): 乾 dry (萎乾) is 《广韵》 古寒切, as 干; 千 (清母先韵) is no
    reading of 乾 (見母, 羣母) and was a suspect gloss: read 乾音干, the text keeps 千."""
    found = export.edition(assemble.convert([ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_011.txt"]))
    glosses = [g for p in all_passages(found) for n in p["notes"] for g in n.get("glosses", []) if g["text"] == "乾音千"]
    assert [(g["restored"], g["status"], g["position"]) for g in glosses] == [("乾音干", "matches", "見開一寒平")]
    (record,) = [a for a in found["apparatus"] if a["kind"] == "misprint" and a["context"] == "乾音千"]
    assert (record["witness"], record["reading"]) == ("千", "干")


# -- a misprint of the words (words = true): emended in the reading text --------------------------------

ZHONGYONG = ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_016.txt"


@pytest.fixture(scope="module")
def zhongyong():
    return assemble.convert([ZHONGYONG])


def test_a_misprint_of_the_words_is_emended_in_the_reading_text(zhongyong):
    """中庸章句 (KR1d0085_016:257): 朱熹's 注 prints 故閒道有蚤莫行道有雖易, where his 章句 reads 故聞道有蚤莫，
    行道有難易: the text (底本) keeps 閒 and 雖, the reading text (规范 view, PDF, search) reads 闻 and 难. (The same
    leaf prints 人欲問之 for 間之 and 此言末及乎 for 未及乎.)"""
    (block,) = [b for w in zhongyong.works for c in w.chapters for s in c.sections for p in s.passages
                for b in (p, *p.notes) if "故閒道有蚤莫" in b.text]
    assert "故閒道有蚤莫行道有雖易" in block.text and "故闻道有蚤莫行道有难易" in block.normalized
    (record,) = [a for a in zhongyong.apparatus if a["kind"] == "misprint" and a["witness"] == "閒"]
    assert (record["reading"], record["context"], record["words"]) == ("聞", "故閒道有蚤", True)


def test_the_page_marks_each_emended_misprint_with_its_entry(zhongyong):
    from conv.myst import writer

    pages = writer.pages(zhongyong)
    roles = re.findall(r"\{yl:misprint\}`(.)→(.) <(tongjie-zhongyong-\d+-jiao-\d+)>`", pages["tongjie/zhongyong.md"])
    assert [(printed, adopted) for printed, adopted, _ in roles] == [("問", "間"), ("閒", "聞"), ("雖", "難"), ("末", "未")]
    assert "故{yl:misprint}`閒→聞 <" in pages["tongjie/zhongyong.md"]
    for printed, adopted, entry in roles:
        body = pages["apparatus/tongjie.md"].split(f":::{{yl:app}} {entry}\n", 1)[1].split(":::", 1)[0]
        assert ":kind: misprint" in body and f"“{printed}”当作“{adopted}”" in body
        assert "朱子《中庸章句》" in body and body.rstrip().endswith("形近而讹。今改从正字，底本视图照录。")


def test_a_misprint_of_the_words_decided_by_the_same_note_elsewhere():
    """句读 大射仪 (KR1d0038_007:425) prints 郑注 備尚末知當教之也; the same note stands in its 乡射礼 and in the 通解's
    乡射礼 and 大射仪, each 備尚未知: emended, the page marking it with its entry."""
    from conv.myst import writer

    edition = assemble.convert([ROOT / "seeds" / "wenyuange" / "KR1d0038" / "KR1d0038_007.txt"])
    (block,) = [b for w in edition.works for c in w.chapters for s in c.sections for p in s.passages
                for b in (p, *p.notes) if "備尚末知" in b.text]
    assert "备尚未知当教之也" in block.normalized
    assert re.search(r"備尚\{yl:misprint\}`末→未 <judou-dashe-\d+-jiao-\d+>`知當教之也", writer.pages(edition)["judou/dashe.md"])


def test_a_misprint_a_seed_shares_with_its_witness():
    """The 通解's 大射仪 (seed 004, the 底本 of its stretch) prints 阼阶上司官执烛于西阶上 as its 文渊阁 witness does; the
    句读's 燕礼 and 大射仪 and the 通解's 燕礼 print 司宫: emended in the seed's stretch (宫 read, 宮 in the 繁体 view)."""
    from conv.myst import writer

    edition = assemble.convert([next((ROOT / "seeds").glob("004_*.txt"))])
    (block,) = [b for w in edition.works for c in w.chapters for s in c.sections for p in s.passages
                for b in (p, *p.notes) if "上司官执烛" in b.text]
    assert "上司宫执烛" in block.normalized
    assert re.search(r"上司\{yl:misprint\}`官→宮 <tongjie-dashe-\d+-jiao-\d+>`执烛", writer.pages(edition)["tongjie/dashe.md"])


def _entry(page: str, entry_id: str) -> str:
    """The body of the 校勘记 entry ``entry_id`` on an apparatus page's MyST."""
    return page.split(f":::{{yl:app}} {entry_id}\n", 1)[1].split("\n:::", 1)[0].strip().split("\n")[-1]


def test_a_misprint_and_the_difference_it_makes_between_the_works_cite_each_other(whole_edition, whole_html):
    """句读 乡饮酒礼's 郑注 prints 孔于曰 where its 燕礼 and the 通解 read 孔子曰: emended as a misprint, and, the
    texts of the two works differing there, an entry between them (异文). Each entry cites the other, so that
    neither reads alone; the 通解's misprints (士昏礼 右執脯醢 for 右祭) cite the difference on the 句读's page."""
    from conv.myst import writer

    pages = writer.pages(whole_edition)
    judou, tongjie = pages["apparatus/judou.md"], pages["apparatus/tongjie.md"]
    assert _entry(judou, "judou-xiangyinjiu-96-jiao-2").endswith(
        "通解本作“子”（{yl:cite}`通解·乡饮酒礼30 <tongjie-xiangyinjiu-30>`，卷七叶二十a）。"
        "“于”为讹字，见{yl:cite}`句读·乡饮酒礼96校1 <judou-xiangyinjiu-96-jiao-1>`。")
    assert _entry(judou, "judou-xiangyinjiu-96-jiao-1").endswith(
        "今改从正字，底本视图照录。二本之异见{yl:cite}`句读·乡饮酒礼96校2 <judou-xiangyinjiu-96-jiao-2>`。")
    assert _entry(judou, "judou-shihun-76-jiao-1").endswith(
        "“執”为讹字，见{yl:cite}`通解·士昏礼194校1 <tongjie-shihun-194-jiao-1>`。")
    assert _entry(tongjie, "tongjie-shihun-194-jiao-1").endswith(
        "二本之异见{yl:cite}`句读·士昏礼76校1 <judou-shihun-76-jiao-1>`。")
    crossed = [m[0] for m in re.finditer(r"为讹字，见\{yl:cite\}", judou + tongjie)]
    assert len(crossed) == 13  # every misprint of the words where the works differ, once
    assert "二本之异见" not in _entry(tongjie, "tongjie-zhongyong-77-jiao-2")  # no second work there
    html = whole_html.html("apparatus/tongjie")
    entry = html[html.index('id="tongjie-shihun-194-jiao-1"'):]
    entry = entry[:entry.index("</div>")]
    assert re.search(r'二本之异见<span class="yl-cite"[^>]*><a class="reference internal" '
                     r'href="judou\.html#judou-shihun-76-jiao-1"', entry), entry
