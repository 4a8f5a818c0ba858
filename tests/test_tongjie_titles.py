"""章 titles of the 通解 at a column's foot: ``…(疏曰…)右立司正¶升自西階東楹之東…`` — the title closes its 章 and
the next column, the transcription's next line, opens the next 章 (``conv.parser.titles``, ``conv.parser.passages``);
the title is no 经 of the passage after it."""
from __future__ import annotations

import pytest


def _sections(dump: dict, chapter: str) -> list[dict]:
    (work,) = [w for w in dump["works"] if w["id"] == "tongjie"]
    (found,) = [c for c in work["chapters"] if c["id"] == chapter]
    return found["sections"]


@pytest.mark.parametrize("chapter, title, last, first", [
    # 燕禮 卷二十叶二十四a: …嚴正之處)右立司正¶升自西階東楹之東請徹俎降…
    ("yanli", "右立司正", "左還南面坐取觶洗南面反奠于其所", "升自西階東楹之東請徹俎降公許告于賓賓北面取俎以出膳宰徹公俎降自阼階以東"),
    # 鄉飲酒禮: …稍近東)右主人獻介¶介降洗主人復阼階降辭如初…
    ("xiangyinjiu", "右主人獻介", None, "介降洗主人復阼階降辭如初"),
    # 弟子職: …搜歛所祭也)右饌饋¶先生有命弟子乃食…
    ("dizizhi", "右饌饋", None, "先生有命弟子乃食以齒相要坐必盡席"),
    # 大射儀: …中北面位也)右公為賓舉旅¶主人洗觚升實散獻卿于西階上…
    ("dashe", "右公為賓舉旅", None, "主人洗觚升實散獻卿于西階上"),
    # 曲禮: …(疏曰…)以上並曲禮右問遺之禮¶升車必正立執綏…: the source before the title goes into the note (出处)
    ("quli", "右問遺之禮", "酒肉之賜弗再拜", "升車必正立執綏"),
])
def test_a_title_at_a_column_s_foot_closes_its_zhang(whole_dump, chapter, title, last, first):
    sections = _sections(whole_dump, chapter)
    (at,) = [k for k, s in enumerate(sections) if s["title"] == title]
    assert not sections[at]["ji_marker"]
    if last is not None:
        assert sections[at]["passages"][-1]["text"] == last
    following = sections[at + 1]["passages"][0]
    assert following["text"].startswith(first) and not following["text"].startswith("右")


def test_no_passage_of_a_yili_pian_opens_with_a_title(whole_dump):
    """No passage of the 通解's 仪礼 篇 opens with a title the edition has (右主人獻介, 右拜禮 … were 经 before)."""
    titles = {s["title"] for w in whole_dump["works"] for c in w["chapters"] for s in c["sections"] if s["title"]}
    judou = {c["id"] for w in whole_dump["works"] if w["id"] == "judou" for c in w["chapters"]}
    (work,) = [w for w in whole_dump["works"] if w["id"] == "tongjie"]
    opening = [p["text"] for c in work["chapters"] if c["id"] in judou for s in c["sections"] for p in s["passages"]
               if any(p["text"].startswith(t) and t.startswith("右") for t in titles)]
    assert opening == []


@pytest.mark.parametrize("title, note", [
    ("右第五章", "此章承上章而舉其不行之端以起下章之意"),
    ("右第二十九章", "承上章居上不驕而言亦人道也"),
])
def test_a_numbered_zhang_after_a_note_is_a_title_with_its_zhangju(whole_dump, title, note):
    """中庸 (…(由不明故不行)右第五章(此章承上章…)¶): the numbered 章 in the middle of a line, after the 注 of the
    经 it closes, is the title; 朱熹's 章句 after it is its note, as for the 章 that open their lines."""
    (section,) = [s for s in _sections(whole_dump, "zhongyong") if s["title"] == title]
    assert [(n["layer"], n["text"]) for n in section["title_notes"]] == [("an", note)]
    assert len([s for s in _sections(whole_dump, "zhongyong") if s["title"]]) == 33


def test_a_title_whose_note_runs_outside_its_parentheses_is_a_title(whole_dump):
    """士相見禮: 右大夫相見(本文此下有…四條今)並入臣禮(篇) — a reviewed title (conv/data/corrections.toml, c21) with
    朱熹's note on it whole (its 並入臣禮 outside the parentheses: conv/data/note_runs.toml)."""
    (section,) = [s for s in _sections(whole_dump, "shixiangjian") if s["title"] == "右大夫相見"]
    assert [(n["layer"], n["text"]) for n in section["title_notes"]] == [
        ("an", "本文此下有始見於君庶人見於君若他邦之人及燕見於君四條今並入臣禮篇")]
    assert section["passages"][-1]["text"] == "如士相見之禮"


@pytest.mark.parametrize("chapter, title, words", [
    ("shiguan", "右始加", "辭始加祝曰令月吉日始加元服"),  # …也宜古喚反)右始加辭始加祝曰…
    ("shihun", "右醴賓", "辭醴曰子為事故至於某之室某有先人之禮請醴從者"),  # …之然後出也)右醴賓辭醴曰…
])
def test_a_title_after_a_note_then_its_words(whole_dump, chapter, title, words):
    """A title after a note with the 辭 it files under it (辭, the words' name, 曰…) on the same line: the title closes
    its 章, the 辭 are filed under it (as on the lines that open with a title: 右戒賓辭戒賓曰…)."""
    (section,) = [s for s in _sections(whole_dump, chapter) if s["title"] == title]
    assert words in [p["text"] for p in section["passages"]]



def test_a_scholar_quoted_in_the_traditional_text_is_zhu_xi_s_quotation(whole_dump):
    """朱熹 quotes 吕大臨, 陳祥道, 張子 … (conv/data/scholars.toml, written as the seeds write them: 吕大临, 张子): the 文渊阁
    text's 吕大臨曰…, 張子曰… are his quotations (按) too, not 郑注."""
    from conv.parser.scholars import quoted
    assert quoted("張子曰宗子既祭其祖禰") and quoted("张子曰") and quoted("黄榦曰") and not quoted("曰張子")
    (work,) = [w for w in whole_dump["works"] if w["id"] == "tongjie"]
    quoted = [n for c in work["chapters"] for s in c["sections"] for p in s["passages"] for n in p["notes"]
              if n["text"].startswith(("吕大臨曰", "陳祥道曰", "張子曰", "陸佃曰"))]
    assert len(quoted) == 29 and {n["layer"] for n in quoted} == {"an"}
