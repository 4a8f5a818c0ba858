"""The record of one 音义 gloss (音义条目): what ``conv.parser.glosses`` reads, every field."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Gloss", "FANQIE_MARKS"]

#: The marks that end a 反切 (…反, …切).
FANQIE_MARKS = "反切"


@dataclass
class Gloss:
    """One 音义 gloss.

    ``text`` is the gloss exactly as printed, including its scope note and definition
    (``刌寸本反寸上声割也``); ``core`` is the gloss without them (``刌寸本反``).
    """

    char: str            # the glossed character as printed (witness form), e.g. 弛
    kind: str            # "fanqie" | "zhiyin" | "ruzi" | "other"
    upper: str | None    # 反切上字 (fanqie)
    lower: str | None    # 反切下字 (fanqie)
    sound: str | None    # 直音 sound character (zhiyin)
    text: str            # the gloss exactly as printed, e.g. "弛尸纸反", "仆音赴", "相如字", "又章允反"
    start: int           # offsets into the string given to the parser, end exclusive
    end: int
    second: bool = False        # a second reading 又…反 (its char is the previous gloss's char)
    context: str | None = None  # e.g. "无射之射食亦反": context "无射", char 射
    definition: str | None = None  # trailing definition, e.g. 刌寸本反寸上声割也 → "寸上声割也"
    scope: str | None = None    # scope note after the gloss: "注同", "下同", "下注升相同"
    remark: str | None = None   # conv.parser.gloss_remarks: same-as, ancient-form, see-above, …
    related: str | None = None  # the character a remark relates it to (揃同翦: 翦), or the authority (徐)
    before: bool = False  # ``char`` is not printed in it: it stands right before the note (樂闋(苦穴反))

    @property
    def core(self) -> str:
        """The gloss without its scope note and definition: ``刌寸本反``, ``召音邵``."""
        tail = len(self.scope or "") + len(self.definition or "")
        return self.text[: len(self.text) - tail] if tail else self.text

    @property
    def marker(self) -> str | None:
        """反 or 切 for a 反切, else None."""
        if self.kind != "fanqie":
            return None
        core = self.core
        return core[-1] if core and core[-1] in FANQIE_MARKS else None
