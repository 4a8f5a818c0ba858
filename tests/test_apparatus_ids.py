"""Citable 校勘记 entries (校勘记条目之引用): an entry's id and label are its passage's anchor and its number
among that passage's entries (``tongjie-zhongyong-77-jiao-2``, 校2 of 中庸77), so an entry added to another
passage, or a passage's entries changing, renumbers nothing elsewhere."""
from __future__ import annotations

from pathlib import Path

import pytest

from conv import datafiles as data
from conv.edition.assemble import convert
from conv.myst.backmatter.apparatus import Apparatus

ROOT = Path(__file__).resolve().parents[1]
ZHONGYONG = ROOT / "seeds" / "wenyuange" / "KR1d0085" / "KR1d0085_016.txt"


def entries(apparatus: Apparatus) -> dict[str, tuple[str, str, str]]:
    """Each misprint entry of 中庸: id → (label, locus, the opening of its words)."""
    found = {e.id: (e.label, e.locus.anchor, e.body[:6]) for e in apparatus.interventions["tongjie"] if e.kind == "misprint"}
    return found


@pytest.fixture(scope="module")
def zhongyong() -> Apparatus:
    return Apparatus(convert([ZHONGYONG]))


def test_an_entry_is_numbered_within_its_passage(zhongyong):
    """中庸章句's misprints (conv/data/misprints.toml): 問 in 中庸76, 閒 and 雖 in 中庸77, 末 in 中庸78."""
    assert entries(zhongyong) == {
        "tongjie-zhongyong-76-jiao-1": ("校1", "tongjie-zhongyong-76", "“問”当作“"),
        "tongjie-zhongyong-77-jiao-1": ("校1", "tongjie-zhongyong-77", "“閒”当作“"),
        "tongjie-zhongyong-77-jiao-2": ("校2", "tongjie-zhongyong-77", "“雖”当作“"),
        "tongjie-zhongyong-78-jiao-1": ("校1", "tongjie-zhongyong-78", "“末”当作“"),
    }
    ids = [e.id for entries in (zhongyong.interventions, zhongyong.readings) for e in entries["tongjie"]]
    assert len(ids) == len(set(ids))


def test_an_entry_added_elsewhere_renumbers_nothing(zhongyong, monkeypatch):
    """A misprint reviewed in an earlier passage (中庸1's 天命之謂性, as if 命 were misprinted) gets its own
    passage's number; every other entry keeps its id and label."""
    added = {"seed": ZHONGYONG.name, "context": "天命之謂性", "char": "命", "form": "令", "reason": "测试", "words": True}
    monkeypatch.setattr(data, "misprints", lambda: [*data._toml("misprints.toml")["misprint"], added])
    again = Apparatus(convert([ZHONGYONG]))
    before = {e.id: e.label for k in ("interventions", "readings") for e in getattr(zhongyong, k)["tongjie"]}
    after = {e.id: e.label for k in ("interventions", "readings") for e in getattr(again, k)["tongjie"]}
    (new,) = set(after) - set(before)
    assert new.startswith("tongjie-zhongyong-") and new.endswith("-jiao-1")
    assert {key: after[key] for key in before} == before
