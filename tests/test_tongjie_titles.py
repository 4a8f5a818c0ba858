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


@pytest.mark.parametrize("chapter, title, source, last, filed", [
    # 臣禮 (012 l.18): …朝直遙反(私朝自大夫家之朝也揖其臣乃行)玉藻右將朝傳晉靈公不君…(左氏宣公二年)¶
    ("chenli", "右將朝", "玉藻", "玉佩乃出揖私朝煇如也登車則有光矣", "傳晉靈公不君趙宣子驟諫"),
    # 臣禮 (012 l.130): …(榮君賜也…)鄉黨右侍坐賜食傳晏子聘於楚…: 鄉黨 (論語) the source of the paragraph before
    ("chenli", "右侍坐賜食", "鄉黨", None, "傳晏子聘於楚楚王進橘置削"),
    # 臣禮 (012 l.172): …傳乗而歸)少儀右廣敬傳衛靈公與夫人夜坐…
    ("chenli", "右廣敬", "少儀", None, "傳衛靈公與夫人夜坐聞車聲轔轔至闕而止"),
    # 臣禮 (012 l.229): …(辟音避…)周禮調人右復讎傳子貢問於孔子曰…: 周禮's 調人 the source
    ("chenli", "右復讎", "周禮調人", None, "傳子貢問於孔子曰居父母之仇如之何"),
    # 内治 (004 l.205): …(命三事所以修身正家之要也)孟子右齊家傳宋文帝太子劭…
    ("neizhi", "右齊家", "孟子", None, "傳宋文帝太子劭次子始興王濬"),
    # reviewed (conv/data/corrections.toml): no 傳 marks where the title ends and what 朱熹 files under it begins
    # 臣禮 (012 l.49): …(謂君迎而先拜之…)曲禮下右朝禮周襄王使宰孔賜齊侯胙… (左氏僖公九年)
    ("chenli", "右朝禮", "曲禮下", None, "周襄王使宰孔賜齊侯胙"),
    # 曲禮 (011 l.464): …(亦不敢說屨也…)少儀右從宜晏子聘魯上堂則趨授玉則跪…
    ("quli", "右從宜", "少儀", None, "晏子聘魯上堂則趨授玉則跪"),
])
def test_a_title_after_a_source_then_what_is_filed_under_it(whole_dump, chapter, title, source, last, filed):
    """A 章 title in the middle of a line, after the source of the paragraph before it (出处, printed small, outside
    the parentheses) and before what 朱熹 files under the 章 (its 傳, or a quotation): the source ends the paragraph
    before as its last note, the title closes its 章, and the 傳 follows it in the 章, no 经 of its own."""
    sections = _sections(whole_dump, chapter)
    (section,) = [s for s in sections if s["title"] == title]
    before = [p for p in section["passages"] if p["span"][1] < section["title_span"][1]]
    after = [p for p in section["passages"] if p["span"][1] > section["title_span"][1]]
    assert (before[-1]["notes"][-1]["layer"], before[-1]["notes"][-1]["text"]) == ("chu", source)
    assert after[0]["text"].startswith(filed)
    if last is not None:
        assert before[-1]["text"] == last
    texts = [p["text"] for s in sections for p in s["passages"]]
    assert not [t for t in texts if t.startswith((title, source + title))]



@pytest.mark.parametrize("chapter, title, first", [
    # the 記 filed under the title before ends at a column's foot; the next column opens the next 章 (column_joins.toml)
    ("shihun", "右問名", "擯者出請"),
    ("shihun", "右醴賓", "擯者出請賓告事畢入告出請醴賓"),
    ("shihun", "右婦見", "夙興婦沐浴纚笄宵衣以俟見"),
    ("xiangshe", "右設位", "乃席賓南面東上"),
    ("xiangshe", "右賓酢主人", "賓以虚爵降"),
    ("yanli", "右主人獻士", "主人洗升獻士于西階上士長升拜受觶主人拜送觶"),
    ("pinli", "右大夫饗食賓介", "大夫於賓壹饗壹食上介若食若饗若不親饗則公作大夫致之以酬幣致食以侑幣"),
    ("gongshi", "右賓祭正饌", "贊者負東房南面告具于公"),
    ("jinli", "右饗", "饗禮乃歸"),
    # … or at a page's foot (page_joins.toml)
    ("xiangshe", "右取矢視算", "司馬袒決執弓升命取矢如初"),
    ("pinli", "右授使幣", "及期夕幣"),
    ("pinli", "右賓拜賜遂行", "賓三拜乘禽於朝訝聴之"),
    # the 辭, the 記 or the 章句 after a title, then the next 章
    ("shiguan", "右筮賓", "前期三日筮賓如求日之儀"),
    ("neize", "右冠笄嫁取", "男女異長"),
    ("daxue", "右傳之七章", "所謂修身在正其心者"),
    ("zhongyong", "右第六章", "子曰舜其大知也與"),
    ("zhongyong", "右第三十章", "仲尼祖述堯舜"),
])
def test_the_next_zhang_after_what_a_title_files_is_its_own(whole_dump, chapter, title, first):
    """What a 章 title files after it on its lines (its 記, 辭, 傳, or 朱熹's 章句) ends where a column opens the next 章's
    經, though the transcription's layout runs a full column on: the 經 opens the 章 of the next title, as 經 (not 記)."""
    sections = _sections(whole_dump, chapter)
    (at,) = [k for k, s in enumerate(sections) if s["title"] == title and s["passages"][0]["text"].startswith(first)]
    assert sections[at]["passages"][0]["layer"] == "jing"
    assert sections[at]["passages"][0]["id"] not in [p["id"] for p in sections[at - 1]["passages"]]
    assert not [p for p in sections[at - 1]["passages"] if p["layer"] == "ji" and p["text"].startswith(first)]


def test_a_ji_right_before_a_zhuan_ends_the_title(whole_dump):
    """文王世子's 右世子之記傳曰文王之為世子… and 曲禮's 右雜記傳孟子既娶…: the 記 is the title's (the records of the 世子,
    the miscellaneous records), the 傳 follows it as what the 章 files, no 記 item."""
    titles = [s for c in ("neizhi", "quli") for s in _sections(whole_dump, c) if s["title"] in ("右世子之記", "右雜記")]
    assert [(s["title"], s["ji_marker"]) for s in titles] == [("右世子之記", None), ("右雜記", None)]


def test_the_right_hand_s_notes_at_a_column_s_foot_are_jing(whole_dump):
    """玉藻 in 王制之辛 (034 l.191–192): …古之君子必佩玉(比徳焉…)右徴¶角左宫羽…: 經「右徵角，左宮羽」over the column's foot,
    no 章 title (c38 in conv/data/corrections.toml; the column runs on: column_joins.toml)."""
    sections = _sections(whole_dump, "wangzhixin")
    assert "右徴" not in [s["title"] for s in sections]
    assert [p["text"] for s in sections for p in s["passages"] if p["text"].startswith("右徴")] == ["右徴角左宫羽"]


def test_a_title_the_rules_read_as_the_right_hand_is_a_reviewed_title(whole_dump):
    """弟子職 (010 l.79): 右執燭 on a line of its own is the title of the 章 on holding the torch (c40), not the right
    hand of the 經 (右執項…): its 章 holds 昬將舉火… to …遂出是去, and 右請衽 only 先生將息…."""
    sections = _sections(whole_dump, "dizizhi")
    assert [s["title"] for s in sections] == ["右學則", "右蚤作", "右受業對客", "右饌饋", "右乃食", "右灑埽", "右執燭", "右請衽",
                                             "右退習"]
    (torch,) = [s for s in sections if s["title"] == "右執燭"]
    assert torch["passages"][-1]["text"].startswith("右手執燭左手正櫛") and "右執燭" not in {
        p["text"] for s in sections for p in s["passages"]}


@pytest.mark.parametrize("chapter, first", [("dasheyi", "古者諸侯之射也必先行燕禮"), ("zhuhouxiangchaoyi", "諸侯相朝之禮各執其圭瑞"),
                                            ("pinyi", "聘禮上公七介侯伯五介")])
def test_a_ji_mark_right_after_a_pian_title_opens_its_ji(whole_dump, chapter, first):
    """大射義 (020 l.1010–1012) and 諸侯相朝義 (022 l.721–722): the 篇 title, then 記 on a line of its own, as 聘義 has it
    after its title's note: the 記 mark of the chapter (no passage 記 of 經), and what follows is 記."""
    (found,) = [c for w in whole_dump["works"] if w["id"] == "tongjie" for c in w["chapters"] if c["id"] == chapter]
    assert "记" in [m["text"] for m in found["meta"] if m["kind"] == "ji-marker"]
    passages = [p for s in found["sections"] for p in s["passages"]]
    assert passages[0]["text"].startswith(first) and passages[0]["layer"] == "ji"
    assert "記" not in {p["text"] for p in passages}


def test_a_circle_between_a_title_and_its_ji_is_the_ji_mark_s(whole_dump):
    """投壺 (006 l.284): 右作樂○記鼓○□○○□□…: the title 右作樂, then ○記, the mark that opens its 記 (the only ○ before a
    記 in the 通解); the drum score after it keeps its own ○ and □."""
    (music,) = [s for s in _sections(whole_dump, "touhu") if s["title"].startswith("右作樂")]
    assert music["title"] == "右作樂"
    assert music["ji_marker"]["text"] == "○記"
    name, start, end = music["ji_marker"]["span"]
    assert (name, end - start) == ("KR1d0085_006.txt", 2)
    (first,) = [p for p in music["passages"] if p["layer"] == "ji"][:1]  # after the 章's 經, 命弦者曰請奏貍首…
    assert first["text"].startswith("鼓○□○○□□○□○○□半")
    assert first["span"][:2] == ["KR1d0085_006.txt", end]  # right after the mark (the score runs over a page)


@pytest.mark.parametrize("title, words", [
    # a run the rules read as 經, decided to be a title whole: no context to cut it from
    ("右執燭", "底本“右執燭”定为章旨，不作经文（据文意定之）。"),
    # a title cut from the 經 or the source run on with it
    ("右行享禮", "定章旨为“右行享禮”（底本章旨与上下文相连，据文意定其起讫）。底本作“右行享禮小行人合六幣"),
])
def test_the_apparatus_says_what_a_reviewed_title_decided(whole_html, title, words):
    """The 校勘记 of a reviewed title (conv/data/corrections.toml, kind title) says what was decided, in Chinese: a whole
    line made a title (弟子職's 右執燭, c40) is no title cut from its context."""
    from bs4 import BeautifulSoup
    from pagetext import diplomatic

    page = BeautifulSoup(whole_html.html("apparatus/tongjie"), "html.parser")
    bodies = [diplomatic(div.select_one(".yl-app-body")) for div in page.select('[data-kind="correction"]')]
    assert [body for body in bodies if f"“{title}" in body and body.startswith(words)], bodies
