"""The heads of 贾疏 inside the notes of the 文渊阁 witness (split_shu, ``conv.parser.segments``): 䟽, the
transcription's other form of 疏, heads a 疏 as 疏 does (士冠禮 (䟽曰某甫者…)), and a 疏 朱熹's 今按 quotes in its
first words stays in the 按 (今按賈疏云…恐其説為是, 今按諸辭本總見經後故疏云耳…), unless those words close on a
reference (今按説見鄉飲酒篇｜疏曰…); 疏又曰 heads the 疏 again after a 按 (…之别也｜疏又曰云揖讓如初升者…); 朱熹's 今詳 opens his remark wherever it stands (…申明先河後海之義也｜今詳此言…).
Converted one file at a time."""
from __future__ import annotations

import pytest

from tests.witness_notes import witness_notes


def notes(name: str) -> list[tuple[str, str]]:
    return [(note["layer"], note["text"]) for note in witness_notes(name)]


@pytest.mark.parametrize("name, layer, text", [
    ("KR1d0085_001.txt", "shu", "䟽曰某甫者若云尼甫嘉甫也"),                       # 士冠禮
    ("KR1d0085_008.txt", "shu", "䟽曰右則一一以右手取之於地實於左手"),             # 鄉射禮
    ("KR1d0085_006.txt", "shu", "䟽曰咤謂以舌在口中作聲若嫌主人之食"),             # 士相見禮, after the 注's 嫌薄之
    ("KR1d0038_008.txt", "shu", "䟽云謂其東上醓醢醓醢西昌本"),                     # 句读 聘禮, after 张尔岐's words
    ("KR1d0085_001.txt", "an", "今按檀弓孔疏云人年二十冠而加字如曰伯某甫者"),      # 士冠禮: 孔穎達's 疏 of 檀弓
    ("KR1d0085_001.txt", "an", "今按諸辭本總見經後故疏云耳今悉分附本章之左以從簡便"),
    ("KR1d0085_002.txt", "an", "今按賈疏云五冕通𤣥故通稱𤣥冕恐其説為是"),          # 士昏禮
    ("KR1d0085_019.txt", "an", "今按説見鄉飲酒篇"),                               # 燕禮: a reference, then the 疏
    # 今詳, 朱熹's remark after a 疏 or a 注 in one parentheses (學記, 士冠禮, 投壺)
    ("KR1d0085_015.txt", "shu", "疏曰源則河也委則海也申明先河後海之義也"),
    ("KR1d0085_015.txt", "an", "今詳此言所以先河後海者以其或是源故先之或是委故後之疏有二説此説是也"),
    ("KR1d0085_001.txt", "an", "今詳經云不在恐兼存沒而言"),
    ("KR1d0085_006.txt", "an", "今詳經文不言壺之圍徑"),
    # 疏又曰 after 朱熹's 今按 (鄉飲酒禮): the 疏 again, its own segment; 疏又云 inside a 按 is argued with, and stays
    ("KR1d0085_007.txt", "an", "今按此等恐或文有先後未必有此輕重之别也"),
    ("KR1d0085_007.txt", "shu", "疏又曰云揖讓如初升者"),
    ("KR1d0085_007.txt", "an", "今按介俎脊脅胳肺"),
])
def test_the_head_of_a_shu(name, layer, text):
    found = [(lay, t) for lay, t in notes(name) if t.startswith(text)]
    assert found and all(lay == layer for lay, _ in found)
    if text == "今按此等恐或文有先後未必有此輕重之别也":
        assert ("an", text) in notes(name)  # the 按 ends where the 疏 begins
    if text == "今按介俎脊脅胳肺":
        assert "然釋文無音疏又云有臑肫" in next(t for lay, t in found)
    if text == "今按説見鄉飲酒篇":
        at = notes(name).index(("an", text))
        assert notes(name)[at + 1][0] == "shu" and notes(name)[at + 1][1].startswith("疏曰諸侯軒縣闕南面")
