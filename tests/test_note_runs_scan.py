"""The 通解's 经 read against the 句读's notes: no passage is words the 句读 prints only as 注 (注文錄作大字), save
the quotations the 通解 itself prints as 经; no 经 of the 句读 is only in a 疏 or 按 of the 通解, save where they quote it;
and a 章 title with its 记 that a 疏 printed large had taken in the middle of a line is a title again
(``conv/data/note_runs.toml``: ``[[run]]`` and ``[[jing]]``)."""
from __future__ import annotations

import pytest

from conv.normalize import fold_same_length

# 通解 passages whose words the 句读 has in its notes only, read and kept as 经: the 通解 quotes another book as its
# 经 where the 句读's 注 or 疏 quotes the same words (each with its 注 in the 通解), or the 句读's 经 writes them otherwise.
QUOTATIONS = {
    "十斗曰斛十六斗曰籔十籔曰秉": "聘禮記: the 句读's 经 writes 藪, its 注 籔",
    "納幣一束束五兩兩五尋": "雜記",
    "凡諸侯之交各稱其邦而為之幣以其幣為之禮": "周禮 大行人",
    "通帛為旜": "周禮 司常",
    "孤卿建旜": "周禮 司常",
    "執玉其有藉者則裼無藉者則襲": "曲禮",
    "諸公之臣相為國客": "周禮 司儀",
    "諸公之臣相為國客及大夫郊勞旅擯三辭拜辱三讓登聴命下拜登受賓使者如初之儀及退拜送": "周禮 司儀",
    "諸公之臣相為國客致館如初之儀": "周禮 司儀",
    "君入門介拂闑大夫中棖與闑之間士介拂棖": "玉藻",
    "賓入不中門不履閾": "玉藻",
    "公事自闑西": "玉藻",
    "私事自闑東": "玉藻",
    "凡執主器執輕如不克": "曲禮",
    "天子當依而立諸侯北面而見天子曰覲天子當宁而立諸公東面諸侯西面曰朝": "曲禮",
    "凡訝者賓客至而往詔相其事而掌其治令訝士賓客居館則帥其屬而為之蹕誅戮暴客者客出入則道之有治則贊之": "周禮 訝士",
    "凡邦國有疑㑹同則掌其盟約之載及其禮儀北面詔明神既盟則貳之": "周禮 司盟",
}


def _chapters(dump: dict, work: str) -> dict:
    (found,) = [w for w in dump["works"] if w["id"] == work]
    return {c["id"]: c for c in found["chapters"]}


def _passages(chapter: dict):
    for section in chapter["sections"]:
        yield from section["passages"]


def _pairs(dump: dict, work: str, other: str):
    """Each 篇 of ``work`` the ``other`` work has too: its passages, the other's, and the other's chapter."""
    theirs = _chapters(dump, other)
    for chapter_id, chapter in _chapters(dump, work).items():
        if chapter_id in theirs:
            yield list(_passages(chapter)), list(_passages(theirs[chapter_id])), theirs[chapter_id]


def _joined(texts) -> str:
    """The texts folded, one string (``|`` between them: no match runs across two)."""
    return "|".join(fold_same_length(text) for text in texts)


def test_no_passage_is_words_the_judou_prints_only_as_its_notes(whole_dump):
    """Every 通解 passage of a 仪礼 篇 whose first ten characters (folded) the 句读 of the same 篇 has in its notes and
    not in its 经 is one of the quotations read (the 注 printed large — 古文匴為篹坫為襜, 公許旅行也… — are notes)."""
    found = set()
    for ours, theirs, _ in _pairs(whole_dump, "tongjie", "judou"):
        jing, notes = _joined(p["text"] for p in theirs), _joined(n["text"] for p in theirs for n in p["notes"])
        for passage in ours:
            probe = fold_same_length(passage["text"])[:10]
            if len(probe) >= 4 and probe in notes and probe not in jing:
                found.add(passage["text"])
    assert found == set(QUOTATIONS)


# Passages whose first or last words (three at least) the 句读 has in its notes only, the rest in its 经, read and
# kept: the 句读's 经 has the same words in another form (庿門外: 廟門外) or its 注 repeats them; 经 in both.
EDGES_READ = {"賓出主人送于庿門外", "凡致禮皆用其饗之加籩豆", "上大夫庶羞二十加於下大夫以雉兔鶉鴽",
              "大羮湆不和實于鐙宰右執鐙左執蓋由門入升自阼階盡階不升堂授公以蓋降出入反位",
              "辭始加祝曰令月吉日始加元服"}  # the 通解's 辭 before the words of 右始加 (the 句读's 张尔岐 quotes 辭始加…)


def _edge_in_notes(passage: str, jing: str, notes: str) -> bool:
    """Does the folded ``passage`` open or end with words (three at least, all but three of it at most) that
    ``notes`` holds and ``jing`` does not, the six characters next to them being in ``jing``?"""
    for k in range(len(passage) - 3, 2, -1):
        tail, rest = passage[-k:], passage[:-k]
        if tail in notes and tail not in jing and rest[-6:] in jing:
            return True
        head, rest = passage[:k], passage[k:]
        if head in notes and head not in jing and rest[:6] in jing:
            return True
    return False


def test_no_passage_opens_or_ends_with_words_the_judou_prints_only_as_its_notes(whole_dump):
    """A 注 printed large between the 经 and its 疏 or 音义 (…主人退賓拜送｜退去也歸也(疏曰…) is in its note: what is
    left of the scan are 经 the 句读 writes otherwise."""
    found = set()
    for ours, theirs, _ in _pairs(whole_dump, "tongjie", "judou"):
        jing, notes = _joined(p["text"] for p in theirs), _joined(n["text"] for p in theirs for n in p["notes"])
        found |= {p["text"] for p in ours if len(p["text"]) >= 8 and _edge_in_notes(fold_same_length(p["text"]), jing, notes)}
    assert found == EDGES_READ


def _note(dump: dict, chapter: str, text: str) -> dict:
    (found,) = [n for p in _passages(_chapters(dump, "tongjie")[chapter]) for n in p["notes"] if n["text"] == text]
    return found


@pytest.mark.parametrize("chapter, note, passage", [
    # 燕禮 卷二十叶十四b: …(卒猶)¶後也大射禮曰奠于篚復位今文辯皆作徧(辯音遍)…: the 注 goes on over the column's foot
    ("yanli", ("zhu", "卒猶後也大射禮曰奠于篚復位今文辯皆作徧"), "大夫辯受酬如受賓酬之禮不祭卒受者以虛觶降奠于篚"),
    # 鄉射禮 卷八叶三十九a: …長尺有握握素¶握本所持處也…(刋苦干反)疏曰…: a 注 on a line of its own after the 经
    ("xiangshe", ("zhu", "握本所持處也素謂刋之也刋本一作膚"), "長尺有握握素"),
    # 士冠禮 卷一叶六a: …敢不從(重直用反下同)敢不從許之¶辭(疏曰…: the 注 over the line's end, after the 音义
    ("shiguan", ("zhu", "敢不從許之辭"), "主人曰某猶願吾子之終教之也賓對曰吾子重有命某敢不從"),
    # 聘禮 卷二十二叶五十二b: …(籔劉色縷反…)大夫之禮米禾皆視死牢秉籔數¶<pb>¶(名也…: the 注 opens before its parenthesis
    ("pinli", ("zhu", "大夫之禮米禾皆視死牢秉籔數名也秉有五籔二十四斛也籔讀若不數之數今文籔或為逾"),
     "門外米三十車車秉有五籔設于門東為三列東陳"),
    # 士冠禮 卷一叶五b: …主人退賓¶拜送退去也歸也(疏曰…: a 注 printed large between the 经 and its 疏
    ("shiguan", ("zhu", "退去也歸也"), "主人再拜賓答拜主人退賓拜送"),
    # 聘禮 卷二十二叶四十一a: …如豆而卑)卑劉音婢薦脯五膱祭半膱横之膱音職(…)脡大頂反祭醴…: 劉昌宗's reading after
    # the note (卑 the 注's), the 经 to 膱横之 ([[jing]]: not a gloss 膱横之膱 of a word 膱横), then its 音义
    ("pinli", ("yin", "卑劉音婢"), "醴尊于東箱瓦大一有豐"),
    ("pinli", ("yin", "膱音職"), "薦脯五膱祭半膱横之"),
    ("pinli", ("yin", "脡大頂反"), "薦脯五膱祭半膱横之"),
    # 覲禮 卷二十四叶四b: 徐邈's reading, then another: 殉徐音循又辭俊反
    ("jinli", ("yin", "殉徐音循又辭俊反"), "舎則授館令聚𣝔有任器則令環之"),
    # passages of one or two characters: a note's first words before its parenthesis (曲禮 …處羮之右此(言若酒若漿…,
    # 内則 …鶉鷃(…)此上(大夫之禮…), 经 a column cut (鄉射禮 司正為司｜馬, 聘禮 退｜圭)
    ("shixiangjian", ("zhu", "此言若酒若漿耳兩有之則左酒右漿此大夫士與賓客燕食之禮其禮食則宜放公食大夫禮云"), "處羮之右"),
    ("neize", ("zhu", "此上大夫之禮庶羞二十豆也以公食大夫禮饌校之則膮牛炙間不得有醢醢衍字也又以鷃為鴽也"),
     "膷臐膮醢牛炙醢牛胾醢牛膾羊炙羊胾醢豕炙醢豕胾芥醬魚膾雉兎鶉鷃"),
    ("xiangshe", ("zhu", "兼官由便也立司正為涖酒爾今射司正無事"), "司正為司馬"),
    ("pinli", ("zhu", "圭璋尊不陳之"), "退圭"),
])
def test_the_note_printed_large_is_the_note_of_its_passage(whole_dump, chapter, note, passage):
    (found,) = [p for p in _passages(_chapters(whole_dump, "tongjie")[chapter]) if p["text"] == passage]
    assert note in [(n["layer"], n["text"]) for n in found["notes"]]


@pytest.mark.parametrize("chapter, title, head, ji, zhu", [
    # 燕禮 卷二十叶十四b: …(辯音遍)疏曰不祭者酬禮殺也復位復門右北面位右公為賓舉旅記凡公所辭皆栗階(栗蹙也…)
    ("yanli", "右公為賓舉旅", "疏曰不祭者酬禮殺也復位復門右北面位", "凡公所辭皆栗階", "栗蹙也謂越等急趨君命也"),
    # 聘禮 卷二十二叶六十三b: …(米六筐者…)疏曰士邑宰見上右大夫餼賓介記凡餼大夫黍粱稷筐五斛(謂大夫餼)¶賓上介也器寡而大略
    ("pinli", "右大夫餼賓介", "疏曰士邑宰見上", "凡餼大夫黍粱稷筐五斛", "謂大夫餼賓上介也器寡而大略"),
    ("pinli", "右授使幣", "疏曰所受書謂宰所授者", "使者既受行日朝同位", "謂前夕幣之間同位者使者北面介立于左少退别其處臣也"),
    ("pinli", "右主君就賓館", "疏曰彼注云禮賜者謂乘禽此見下文", "君館客客辟介受命遂送客從拜辱于朝",
     "君館客者客将去就省之盡殷勤也遂送君拜以送客"),
])
def test_a_title_and_its_ji_a_head_printed_large_had_taken_are_again(whole_dump, chapter, title, head, ji, zhu):
    """The 疏 ends where the 章 title begins; the title closes its 章, the 记 after it (記) is a passage of the 记 with
    its 注 (the 注's rest over the column's foot too)."""
    (section,) = [s for s in _chapters(whole_dump, "tongjie")[chapter]["sections"] if s["title"] == title]
    assert section["ji_marker"]["text"] == "記"
    assert _note(whole_dump, chapter, head)["layer"] == "shu"
    (passage,) = [p for p in section["passages"] if p["text"] == ji]
    assert passage["layer"] == "ji" and passage["notes"][0]["layer"] == "zhu" and passage["notes"][0]["text"] == zhu


# 句读 passages of four characters at least that the 通解's 经 of the same 篇 lacks and one of its 疏 or 按 holds, read:
# the 疏 quotes them (each with the words that say so).
QUOTED_BY_SHU = {
    "司马升命去侯获者许诺司马降释弓反位司射与司马交于阶前去扑袭升请以乐乐于賔賔许诺司射降搢扑东面命乐正曰请以乐乐于賔賔许":
        "鄉射禮's 疏: 曏謂上番將射時司馬升命去侯…",
}


def test_no_jing_of_the_judou_is_only_in_a_shu_or_an_of_the_tongjie(whole_dump):
    """A 疏曰 or 今按 printed large takes its run to the line's end (or on over it); where the 经 goes on there, the head
    stops before it (``[[jing]]``: 鄉射禮's 不勝｜者皆襲說決拾…, 聘禮記's 遭䘮將命于｜大夫主人長衣練冠以受, 聘禮's 史讀書展幣
    after a 疏 ending its line, 聘禮記's 使者既受行日朝同位 after its title 右授使幣)."""
    found = set()
    for ours, theirs, their_chapter in _pairs(whole_dump, "judou", "tongjie"):
        jing = _joined([p["text"] for p in theirs] + [s["title"] or "" for s in their_chapter["sections"]])
        remarks = _joined(n["text"] for p in theirs for n in p["notes"] if n["layer"] in ("shu", "an"))
        found |= {p["text"] for p in ours if len(p["text"]) >= 4
                  and fold_same_length(p["text"]) not in jing and fold_same_length(p["text"]) in remarks}
    assert found == set(QUOTED_BY_SHU)


# Passages of the 通解 that hold the head of a note — 鄭曰, 顔曰 (顔師古), 正義曰, or a scholar 朱熹 quotes
# (conv/data/scholars.toml) and 曰 or 云 — read and kept as 经: 卷首's 目録 quotes 吕大臨 in its large text, 朱熹's
# remark on it small after it; 晉語's 丕鄭 is a man.
HEADS_AS_TEXT = {"tongjie-juanshou-75": "吕大臨曰鄉人凡有㑹聚皆當行此禮(恐不止四事…",
                 "tongjie-chenli-208": "丕鄭曰吾聞事君者從其義不阿其惑"}


def test_no_passage_holds_the_head_of_a_note(whole_dump):
    """A note whose head and first words stand outside its parentheses (保傅's …之暴｜鄭曰暴卒疾也｜其故可知也…,
    學記's …不違失師道)張子曰離經離析經之章句¶(也事師而至於親敬…, 冠義's …故也鄭曰皆由下升(今按…) is a note of the
    passage: no passage of the 通解 holds one, save those read and kept (``HEADS_AS_TEXT``)."""
    from conv import datafiles as data

    heads = [fold_same_length(name) + mark for name in (*data.scholars(), "鄭", "顔", "正義") for mark in "曰云"]
    found = [p["id"] for chapter in _chapters(whole_dump, "tongjie").values() for p in _passages(chapter)
             if any(head in fold_same_length(p["text"]) for head in heads)]
    assert found == list(HEADS_AS_TEXT)


# Passages of the 通解 that hold a formula of the notes — X讀為Y, X當作Y, 本又作, 或作, 今文, 古文, 下同, 並同, 放此 — read
# and kept as 经, each for the words it is part of.
FORMULAE_AS_TEXT = {
    "tongjie-wuzong-239": "白虎通義曰…明當為宗廟主也",
    "tongjie-yueling-164": "毋或作為滛巧以蕩上心",
    "tongjie-yueling-557": "毋或作為滛巧以蕩上心",
    "tongjie-yueji-51": "君臣上下同聽之",
}
FORMULAE = ("讀為", "讀曰", "讀如", "當作", "當為", "本又作", "本亦作", "又作", "亦作", "或作", "今文", "古文", "下同", "並同",
            "放此", "倣此")


def test_no_passage_holds_a_formula_of_the_notes(whole_dump):
    """注, 音义 and 按 printed large that read as such by their formulae (内則's …)嘯讀為叱叱嫌有隐使也(疏曰…, 大射's
    …復位卒猶已也今文辯作徧(疏曰…, 聘禮記's …不郊勞享本又作饗(記貶於聘…) are in their notes: no passage of the 通解
    holds one, save the 经 read and kept (``FORMULAE_AS_TEXT``)."""
    found = [p["id"] for chapter in _chapters(whole_dump, "tongjie").values() for p in _passages(chapter)
             if any(formula in p["text"] for formula in FORMULAE)]
    assert found == list(FORMULAE_AS_TEXT)


def _holding_glosses(dump: dict, pieces) -> list[str]:
    """The passages of 经 and 记 of both works one of whose ``pieces(text)`` the grammar reads as glosses through and
    through."""
    from conv.parser.glosses import gloss_run

    def read(piece: str) -> bool:
        run = gloss_run(piece)
        return run is not None and not run[1]

    return [p["id"] for work in ("judou", "tongjie") for chapter in _chapters(dump, work).values()
            for p in _passages(chapter) if p["layer"] in ("jing", "ji") and any(read(x) for x in pieces(p["text"]))]


# Passages whose last words the grammar of the 音义 reads as a run of glosses (X反, X音Y, …之X), read and kept as 经.
GLOSSES_AS_TEXT = {
    "judou-yousiche-187": "主人拜送于廟門外乃反 (returns)",
    "tongjie-liyueji-58": "禮報情反始也",
    "tongjie-liyueji-75": "禮有報而樂有反",
    "tongjie-liyueji-77": "禮之報樂之反",
    "tongjie-wuxue-24": "徳音之致",
    "tongjie-yueji-10": "無怗懘之音矣",
    "tongjie-yueji-22": "而反人道之正也",
    "tongjie-yueji-87": "非武音也",
    "tongjie-yueji-115": "其溺音乎",
    "tongjie-yueji-116": "溺音何從出也",
    "tongjie-yueji-121": "德音之音也",
    "tongjie-yueji-265": "成王立殷民反 (吕氏春秋 古樂)",
    "tongjie-wangzhigui-216": "是反古之道也",
}


def test_no_passage_ends_with_a_run_of_glosses(whole_dump):
    """音义 (and the 注 beside them) printed large at the end of a passage's 经 (内則's …問於内豎曰今日安否何如朝直遥反
    舊如字下朝夕同豎上主反(…, 家語's 魯大旱公欲焚巫尫尫烏黄反後同(…, 燕禮's 注)於鑠上音烏下舒若反疏曰…) are in their
    notes: no passage ends with three or more characters the grammar reads as glosses through and through, save
    the 经 read and kept (``GLOSSES_AS_TEXT``)."""
    tails = lambda text: (text[start:] for start in range(max(1, len(text) - 14), len(text) - 2))  # noqa: E731
    assert _holding_glosses(whole_dump, tails) == list(GLOSSES_AS_TEXT)


@pytest.mark.parametrize("chapter, text, notes", [
    ("neizhi", "世子之記曰朝夕至于大寢之門外問於内豎曰今日安否何如",
     [("yin", "朝直遥反舊如字下朝夕同"), ("yin", "豎上主反"), ("zhu", "朝夕朝朝暮夕也世子之禮曰此存其記")]),
    ("neizhi", "命膳宰曰末有原應曰諾然後退", [("yin", "未亡曷反"), ("zhu", "未猶勿也原再也勿有所再進為其失飪臭味惡也退反其寢")]),
    ("jinli", "肆師大賓客涖筵几築鬻", [("yin", "鬻音煑"), ("zhu", "築香草煑以為鬯此王所以禮賓客")]),
    ("yueji", "歸乃薦俘馘于京太室乃命周公為作大武", [("yin", "馘古獲反為去聲"), ("zhu", "大武周樂")]),
    ("shixiangjian", "夏右鰭", [("yin", "鰭音祁"), ("zhu", "陽氣在上鰭脊也"), ("yin", "脊子昔反")]),
    ("wangzhiding", "魯大旱公欲焚巫尫", [("yin", "尫烏黄反後同")]),
    ("shixiangjian", "羮之有菜者用挾其無菜者不用挾", [("yin", "挾古協反"), ("zhu", "挾猶箸也今人或謂箸為挾提")]),
    ("quli", "師役曰罷", [("yin", "罷音皮"), ("zhu", "罷之言罷勞也春秋傳曰師還曰罷"), ("chu", "少儀")]),
])
def test_glosses_and_notes_printed_large_at_the_end_of_a_passage(whole_dump, chapter, text, notes):
    (passage,) = [p for p in _passages(_chapters(whole_dump, "tongjie")[chapter]) if p["text"] == text]
    assert [(n["layer"], n["text"]) for n in passage["notes"]][:len(notes)] == notes


def test_a_note_of_the_zhouli_runs_on_at_the_next_columns_top(whole_dump):
    """内治 (004 l.59): 九嬪's 注 (…后當一夕亦十五日)¶而徧云自望後反之婉於阮反…: its last words, printed large at the
    top of the next column, end the 注 (the 疏 of 内則 quotes it: 案九嬪注云…亦十五日而徧云自望後反之); 於鑠上音烏
    下舒若反 after 燕禮's 注 and 󰖖於偽反…近附近之近 after 内則's are 音义, no passage of their own."""
    neizhi = list(_passages(_chapters(whole_dump, "tongjie")["neizhi"]))
    (passage,) = [p for p in neizhi if p["text"].startswith("九嬪掌婦學之灋")]
    assert [n["text"] for n in passage["notes"] if n["layer"] == "zhu"][0].endswith("后當一夕亦十五日而徧云自望後反之")
    notes = [(n["layer"], n["text"]) for c in _chapters(whole_dump, "tongjie").values() for p in _passages(c)
             for n in p["notes"]]
    assert ("yin", "於鑠上音烏下舒若反") in notes
    assert ("yin", "\U000F0596於偽反益州人取鹿殺而埋之地中令臭乃出食之名鹿\U000F0596是也近附近之近") in notes


# Passages whose first words the grammar of the 音义 reads as a run of glosses, read and kept as 经.
OPENING_AS_TEXT = (
    # the 经's 反, to return (司射先反位, 賓三退反還負序, 卒洗貝反于笲, 主婦出反于房)
    "judou-xiangshe-79", "judou-xiangshe-104", "judou-xiangshe-115", "judou-dashe-190", "judou-dashe-192",
    "judou-dashe-231", "judou-dashe-266", "judou-pinli-183", "judou-shisang-74", "judou-jixi-191", "judou-shiyu-105",
    "judou-tesheng-162", "judou-shaolao-20", "judou-yousiche-113", "tongjie-xiangshe-346", "tongjie-xiangshe-391",
    "tongjie-xiangshe-405",
    "tongjie-xuezhi-9",  # 書: 八音克諧
    "tongjie-dashe-348", "tongjie-dashe-350", "tongjie-dashe-4", "tongjie-dashe-39", "tongjie-pinli-346",  # 反位, 反還
    # the 经's 音 (月令's 其音角, 詩's 德音不愆, 樂記's 凡音之起, 其音若熙熙), and 今其自反罪以反除 (家語)
    "tongjie-yueling-8", "tongjie-yueling-679", "tongjie-yueling-357", "tongjie-yueling-371", "tongjie-yueling-524",
    "tongjie-yuezhi-170", "tongjie-yuezhi-177", "tongjie-yueji-1", "tongjie-yueji-8", "tongjie-yueji-15",
    "tongjie-yueji-247", "tongjie-yueji-251", "tongjie-wangzhigui-221")


def test_no_passage_opens_with_a_run_of_glosses(whole_dump):
    """音义 printed large at the head of a passage, right after the note whose word it reads (内則's …(…謂應年許嫁者
    其未許嫁二十則笄)應應對之應二十而嫁…, 聘禮's …(…嫌近君也…)近附近之近¶(疏曰…, 曲禮's (…詩云兄弟䦧于墻)䦧呼歷反
    脩身踐言謂之善行…) are in that note: no passage opens with three or more characters the grammar reads as glosses
    through and through, save the 经 read and kept (``OPENING_AS_TEXT``)."""
    heads = lambda text: (text[:end] for end in range(min(len(text), 16), 2, -1))  # noqa: E731
    assert _holding_glosses(whole_dump, heads) == list(OPENING_AS_TEXT)
    (after,) = [p for p in _passages(_chapters(whole_dump, "tongjie")["neize"]) if p["text"].startswith("二十而嫁")]
    assert after["text"] == "二十而嫁有故二十三而嫁"
