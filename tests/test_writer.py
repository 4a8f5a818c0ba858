"""The MyST writer: deterministic pages, the generated header, hand edits detected, clean."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conv.edition import assemble

from conv.myst import writer
from conv.errors import ConversionError

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


def test_one_page_per_chapter_per_work(edition):
    assert sorted(writer.pages(edition)) == [
        "apparatus/glossary.md",  # back matter: conv/myst/backmatter
        *[f"apparatus/glosses-{page}.md" for page in (
            "dang", "doubtful", "geng", "guo", "jia", "jiang", "liu", "shan", "tong", "unplaced", "xian", "xiao", "xie",
            "yu", "zeng", "zhen", "zhi")],  # the 音义索引: a page per 摄 (none of 深摄), then the rest
        "apparatus/glosses.md", "apparatus/index.md",
        "apparatus/judou.md", "apparatus/tongjie.md",
        "judou/index.md", "judou/shaolao.md", "judou/tesheng.md", "judou/xiangshe.md", "judou/yanli.md",
        "tongjie/dashe.md", "tongjie/index.md", "tongjie/xiangyinjiu.md",
    ]


def test_pages_are_byte_identical_across_runs(tmp_path):
    for out in ("a", "b"):
        subprocess.run([sys.executable, "-m", "conv", "build", "--edition", "seeds", "--out", str(tmp_path / out)], cwd=ROOT, check=True, capture_output=True)
    for page in (tmp_path / "a").rglob("*.md"):
        assert page.read_bytes() == (tmp_path / "b" / page.relative_to(tmp_path / "a")).read_bytes()


def test_page_header_and_readable_body(edition):
    page = writer.pages(edition)["judou/yanli.md"]
    assert page.startswith("---\nyili-generated: conv\nyili-seeds: 001_45851f803ca218c2.txt\nyili-checksum: ")
    assert "(judou-yanli)=\n# 燕礼\n" in page
    assert "::::{yl:chaptertitle}\n燕礼第六\n\n:::{yl:mulu}\n郑目录云诸侯无事" in page
    assert ":::{yl:meta} catalogue\n\\<经部\\,礼类\\,仪礼之属\\,仪礼郑注句读\\>\n:::" in page
    assert "(judou-yanli-s1)=\n## 告戒设具\n" in page
    assert "::::{yl:title} judou-yanli-s1\n右告戒设具\n" in page


def test_glosses_become_roles(edition):
    page = writer.pages(edition)["judou/xiangshe.md"]
    assert ":::{yl:yin}\n{yl:gloss}`仆音赴`\n:::" in page
    assert "{yl:gloss}`糅女又反`{yl:gloss}`杠音江`{yl:gloss}`脰音豆`{yl:gloss}`韬吐刀反`" in page


def test_tongjie_title_before_its_ji_items(edition):
    page = writer.pages(edition)["tongjie/xiangyinjiu.md"]
    title = page.index("::::{yl:title} tongjie-xiangyinjiu-s1\n右主人献众宾")
    marker = page.index(":::{yl:meta} ji-marker\n记\n:::", title)
    item = page.index("众宾之长一人辞洗如宾礼", marker)
    assert title < marker < item
    assert page.index(":layer: jing") < title


def test_hand_edit_is_detected_and_not_overwritten(tmp_path, edition):
    writer.write(edition, tmp_path)
    page = tmp_path / "judou" / "yanli.md"
    page.write_text(page.read_text(encoding="utf-8").replace("燕礼小臣戒与者", "燕礼小臣戒与者（按）"), encoding="utf-8")
    changed = assemble.convert(SEEDS)
    changed.works[0].chapters[1].title += "X"  # the page changes (the back matter's indexes need consistent spans)
    with pytest.raises(ConversionError) as error:
        writer.write(changed, tmp_path)
    assert "edited by hand" in str(error.value) and "yanli.md" in str(error.value)
    assert "（按）" in page.read_text(encoding="utf-8")


def test_foreign_file_never_overwritten_and_clean_spares_it(tmp_path, edition):
    (tmp_path / "judou").mkdir()
    mine = tmp_path / "judou" / "yanli.md"
    mine.write_text("# my own page\n", encoding="utf-8")
    with pytest.raises(ConversionError) as error:
        writer.write(edition, tmp_path)
    assert "not a generated page" in str(error.value)
    notes = tmp_path / "judou" / "mynotes.md"
    notes.write_text("# notes\n", encoding="utf-8")
    mine.unlink()
    writer.write(edition, tmp_path)
    removed = writer.clean(tmp_path)
    assert len(removed) == 30 and notes.exists()  # 8 chapter and work pages, 22 of back matter (17 of the 音义索引)


def test_unchanged_pages_are_not_rewritten(tmp_path, edition):
    writer.write(edition, tmp_path)
    page = tmp_path / "judou" / "yanli.md"
    before = page.stat().st_mtime_ns
    writer.write(assemble.convert(SEEDS), tmp_path)
    assert page.stat().st_mtime_ns == before


def test_a_tone_gloss_is_listed_by_the_position_its_tone_picks(whole_edition):
    """朱熹's 長上聲 (通解 學制, 大學): the index of glosses lists it under 知開三陽上, its kind 声调, its sound 上声, its
    reading the character's own; 行去聲, whose tone the 广韵 gives two readings, under 未能推定."""
    pages = writer.pages(whole_edition)
    assert '["知開三陽上","長上聲","長","声调","上声","合于本字",["通解·学制5","tongjie-xuezhi-5"]]' in pages[
        "apparatus/glosses-dang.md"]  # 陽韵: 宕摄

    def lines(name: str) -> list[str]:
        return [line for line in pages[name].splitlines() if line.startswith('[') and '"行去聲"' in line]

    table = lines("apparatus/glosses-unplaced.md")
    unresolved = lines("apparatus/glosses-doubtful.md")
    assert all(row.startswith('["—","行去聲","行","声调","去声","未能推定"') for row in table), table
    assert all(row.startswith('["行去聲","—","","匣開一唐平、匣開二庚平、匣開一唐去、匣開二庚去",'
                              '"《广韵》行去声二读：匣開一唐去、匣開二庚去，声调不足以定其一"') for row in unresolved), unresolved
    assert len(table) == len(unresolved) == 6


def test_a_gloss_read_by_a_menfa_names_it_in_the_index(whole_edition):
    """A 反切 that spells nothing in the 切韵 system: the index of glosses says by which 门法 it was read."""
    pages = writer.pages(whole_edition)
    page = "".join(pages[f"apparatus/glosses-{name}.md"] for name in ("zhi", "xie", "shan", "tong", "doubtful"))
    assert '["並三A脂去","比毗志反","比","反切","毗志反","合于本字（之韵无唇音）",["句读·乡射礼336","judou-xiangshe-336"]]' in page
    assert '"祭則界反","祭","反切","則界反","合于本字（精照互用）"' in page
    assert '["澄合三仙平","传大专反","传","反切","大专反","合于本字（类隔）",["通解·乡饮酒礼67","tongjie-xiangyinjiu-67"]]' in page
    assert '"共九勇反","共","反切","九勇反","他字之音",' in page  # spelled directly: no 门法
    # the mismatch tables give the note whole (the 类隔 and, after it, the 小韵 the position is of)
    assert '["又杜亦反","澄開三清入","擲","定開四青入","类隔切：切上字端、知互用；推得之音为擲小韵之音",' in page
