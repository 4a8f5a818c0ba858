"""What 郑注 distinguishes stays distinct in the normalized text (conv.analyses.distinctions):
竝并也 and 今文竝皆为并 in judou-shaolao-28 (issue 23, point 1)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conv.analyses.distinctions import erased
from conv.anchors.fingerprints import passage_fingerprint
from conv.normalize import fold, fold_char, fold_keeping

from seedtext import all_passages


def passage(dump, anchor):
    return next(p for p in all_passages(dump) if p["id"] == anchor)


def test_the_passage_keeps_zhi_in_its_normalized_text(dump):
    p = passage(dump, "judou-shaolao-28")
    assert p["kept"] == "竝"
    assert "皆二骨以竝肠三" in p["normalized"]
    zhu = p["notes"][0]["normalized"]
    assert "竝并也" in zhu and zhu.endswith("今文竝皆为并")
    assert "并并也" not in zhu
    # every other folding of the passage still happens (賔, 説 …), and only this passage keeps 竝
    assert p["notes"][1]["normalized"] == "膊音纯又说文之允反"
    assert [q["id"] for q in all_passages(dump) if q["kept"]] == ["judou-shaolao-28"]


def test_glossary_and_reading_keep_it(dump):
    [entry] = [e for e in dump["glossary"] if e["text"] == "竝并也"]
    assert (entry["term"], entry["definition"]) == ("竝", "并")
    [reading] = [r for r in dump["variants"]["readings"] if r["statement"] == "今文竝皆为并"]
    assert (reading["lemma_normalized"], reading["variant_normalized"]) == ("竝", "并")


def test_search_still_folds_it():
    assert fold("竝并也") == "并并也"
    assert fold_char("幷") == fold_char("竝") == "并"


def test_the_anchor_does_not_move(edition):
    from conv.anchors.ledger import Ledger

    shaolao = next(p for w in edition.works for c in w.chapters for s in c.sections for p in s.passages
                   if p.id == "judou-shaolao-28")
    assert shaolao.kept == "竝"
    # the fingerprint is the fully folded text: the ledger's entry still names the passage
    assert Ledger.load().entries["judou-shaolao-28"].fingerprint == passage_fingerprint(shaolao)


def test_erased():
    assert erased("竝", "并") == {"竝"}
    assert erased("幷", "并") == {"幷"}
    assert erased("賔", "宾客") == {"賔"}
    assert erased("俟", "立") == set()          # nothing folds
    assert erased("竝", "竝") == set()          # the same form on both sides
    assert erased("\ueb8e", "弦") == set()      # a PUA code point is never kept


@given(st.text(alphabet="竝并幷賔宾説说俟立\ueb8e弦", max_size=5), st.text(alphabet="竝并幷賔宾説说俟立\ueb8e弦", max_size=5))
def test_kept_characters_are_exactly_the_ones_folding_would_merge(one, other):
    kept = erased(one, other)
    for char in kept:
        assert fold_char(char) != char
        side = other if char in one else one
        assert fold_char(char) in {fold_char(c) for c in side}
    keep = frozenset(kept)
    # keeping them, no kept character of one side is folded into the other side's form
    assert all(c in fold_keeping(one + other, keep) for c in kept)
