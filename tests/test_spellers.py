"""The ordinary reading of a speller (conv.parser.spellers): what 《廣韻》 itself spells with a
character, and the reading a 反切 is executed with."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conv.parser import spellers
from conv.parser.phonology import forms


def test_the_table_is_what_tshet_uinh_gives():
    committed = [line.split("\t") for line in spellers.TABLE.read_text(encoding="utf-8").splitlines()
                 if line and not line.startswith("#")]
    assert [(c, r, v, int(n)) for c, r, v, n in committed] == spellers.table_rows()


def test_usage_counts_what_guangyun_spells():
    assert spellers.usage("食", "upper") == {"船": 11}
    assert spellers.usage("列", "lower") == {"仙入": 22}
    assert spellers.usage("于", "upper") == {"云": 19, "匣": 1}
    assert spellers.usage("个", "upper") == {}


@pytest.mark.parametrize("char,role,form,position", [
    ("食", "upper", "食", "船開三蒸入"),    # 乘力切, not the first reading 羊吏切
    ("于", "upper", "于", "云合三C虞平"),   # 羽俱切: the character itself, not 於
    ("列", "lower", "列", "來開三仙入"),    # 良辥切, not 陟輸切
    ("扶", "upper", "扶", "並三C虞平"),     # 防無切, not 甫無切
    ("纸", "lower", "紙", "章開三支上"),    # a simplified form: OpenCC's traditional one
    ("干", "sound", "干", "見開一寒平"),    # the form as printed, not 乾 or 幹
    ("万", "sound", "万", "明三C元去"),     # 無販切 (lower of 元韵 去声), not 莫北切
])
def test_ordinary_readings(char, role, form, position):
    chosen = spellers.ordinary(forms(char), role)
    assert (chosen[0], chosen[1].描述) == (form, position)


def test_alternatives_are_the_other_readings_and_forms():
    alternatives = [(form, p.描述) for form, p in spellers.alternatives(forms("于"), "upper")]
    assert alternatives == [("於", "影開三C魚平"), ("於", "影一模平")]
    assert [p.描述 for _, p in spellers.alternatives(forms("食"), "upper")] == ["以開三之去"]


def test_unknown_role_is_refused():
    with pytest.raises(ValueError, match="role"):
        spellers.ordinary(forms("食"), "middle")


_CHARS = sorted({line.split("\t")[0] for line in spellers.TABLE.read_text(encoding="utf-8").splitlines()
                 if line and not line.startswith("#")})


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(_CHARS), st.sampled_from(spellers.ROLES))
def test_the_ordinary_reading_is_a_reading_and_no_alternative(char, role):
    chosen = spellers.ordinary(forms(char), role)
    if chosen is None:
        assert not forms(char)
        return
    form, position = chosen
    assert position in dict(forms(char))[form]
    assert position.描述 not in {p.描述 for _, p in spellers.alternatives(forms(char), role)}
