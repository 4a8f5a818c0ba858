"""A joined chapter as a reader sees it (拼合之页): 乡射礼 from seed 000 and the 文渊阁 卷五, built
with the edition's extension: page references, join marks, the collation in the 校勘记, 引 citations."""
from __future__ import annotations

from pathlib import Path

import pytest
from pagetext import page_soup as soup
from smallsite import build_site

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "seeds" / "000_065af0aba9fcdf9d.txt"
JUAN5 = ROOT / "seeds" / "wenyuange" / "KR1d0038" / "KR1d0038_005.txt"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("joined"), [SEED, JUAN5])


def test_pages_and_join_marks_on_the_chapter(site):
    page = soup(site, "judou/xiangshe")
    first = page.select_one("#judou-xiangshe-1")
    assert first.select_one(".yl-page").get_text() == "卷五叶十五a"
    assert "文渊阁本卷五叶十五a" in first.select_one("a.yl-permalink")["data-cite"]
    marks = [div.get_text() for div in page.select("div.yl-lacuna")]
    assert "〔以下据录入本〕" in marks and "〔以下据文渊阁本〕" in marks
    assert "〔前阙〕" not in marks and "〔中阙〕" not in marks
    opening = page.select(".yl-passage")[0]
    assert opening.select_one(".yl-page").get_text() == "卷五叶一a"


def test_the_collation_in_the_apparatus_in_chinese(site):
    text = soup(site, "apparatus/judou").get_text()
    assert "代字：“防”，文渊阁本作“䙝”（卷五叶三十三b），据改。" in text
