"""The words of the 校勘记's entries (条文): what a reader reads of each intervention and 今古文 reading, in
Chinese, the witness quoted (``conv.myst.backmatter.apparatus`` gives them their numbers and places)."""
from __future__ import annotations

import re

from conv.myst.backmatter.locator import COLLATION_CLASSES, KIND_NAMES, Locator, shorten
from conv.myst.backmatter.parallels import cite
from conv.myst.chapter import page_label
from conv.myst.escape import escape_inline
from conv.reader.mandoku_lex import chinese_number


#: The layers a correction can give a segment, by name (a reader's words).
LAYER_WORDS = {"zhu": "郑注", "shu": "贾疏", "an": "按语", "jiao": "校语", "yin": "音义", "mulu": "郑目录", "chu": "出处",
               "jing": "经文", "ji": "记文"}
_LAYER_DECISION = re.compile(r"layer: (\w+)(?: \(not (\w+)\))?$")


def correction_words(decision: str, witness: str, zheng: bool = True) -> str:
    """What a reviewed correction decided, in a reader's words, and what the witness prints there (``witness``, the
    run the correction names): ``title: 右三射用乐`` → ``定章旨为“右三射用乐”（……）。底本作“……”。``, a run made a title
    whole → ``底本“右執燭”定为章旨，不作经文（……）。``; ``layer: an (not zhu)`` → ``此段注文定为按语，不作郑注（……）。``
    (``zheng`` false, in a 篇 not from the 仪礼: ``……不作注文``, its 注 being another commentator's)."""
    printed = f"底本作“{shorten(witness)}”。"
    if decision.startswith("title:"):
        title = decision[len("title:"):].strip()
        if not title:
            return "此处不立章旨（据文意定之）。" + printed
        if title == witness:
            return f"底本“{title}”定为章旨，不作经文（据文意定之）。"
        return f"定章旨为“{title}”（底本章旨与上下文相连，据文意定其起讫）。" + printed
    match = _LAYER_DECISION.match(decision)
    if match:
        layer, instead = match.groups()
        names = LAYER_WORDS if zheng else {**LAYER_WORDS, "zhu": "注文"}
        words = f"此段注文定为{names.get(layer, layer)}"
        if instead:
            words += f"，不作{names.get(instead, instead)}"
        return words + "（底本此处无层次标记，据文意定之）。" + printed
    return "据文意校定。" + printed


def note_words_body(record: dict, locator: Locator) -> str:
    """Words the transcription left outside the parentheses, moved into their note: the lemma a note
    repeats before 者 or the character of a 音义 (``conv.parser.unbracketed``), or words the 句读 prints in its notes
    (``conv.parser.note_runs``, with a link to that passage) or, in a book the 句读 lacks, words read as a note's
    (their ``basis``)."""
    text = record.get("text", "")
    count = chinese_number(len(text))
    if record.get("evidence") == "judou":  # the 句读 passage is linked when the edition holds it
        anchor = record.get("witness_anchor", "")
        where, then = ("句读本在注中", "，今归入注。") if record.get("in_notes", True) else ("句读本经文无之", "，当为小字，今归入注。")
        page = f"（{page_label(record['page'])}）" if record.get("page") else ""
        body = escape_inline(f"“{text}”{count}字{page}，录入本在括号外，作经文大字；{where}")
        if anchor in locator.loci:
            body += escape_inline("（") + cite(locator, anchor) + escape_inline("）")
        return body + escape_inline(then)
    if record.get("evidence") == "reading":  # no 句读 passage: the words read as a note's
        page = f"（{page_label(record['page'])}）" if record.get("page") else ""
        return escape_inline(f"“{text}”{count}字{page}，录入本在括号外，作经文大字；{record.get('basis', '')}，今归入注。")
    if record.get("evidence") == "gloss":
        return escape_inline(f"“{text}”{count}字，录入本在括号外，今归其后之音义：字见其前注中，其后音义释其音。")
    if record.get("evidence") == "glossed":
        return escape_inline(f"“{text}”{count}字，录入本在括号外，今归其后之注：其前音义释此字之音，其后注文以之起而释其义。")
    if record.get("evidence") == "source":
        return escape_inline(f"“{text}”{count}字，录入本在括号外，与其后括号内之字合为出处“{record.get('source', '')}”，今归入注。")
    return escape_inline(f"“{text}”{count}字，录入本在括号外，今归其后之注：注以“者”起，所释经文当在其前。")


def errata_body(record: dict) -> str:
    """张尔岐's note in the 校勘记: the lemma and his statement as he wrote them, his reference to
    the 监本's leaf (or the 石本's 节), and where the note stands in the book (卷十八叶一b); where the
    句读 prints the lemma otherwise, its form (本书作…); where the order of the notes placed it, so; a
    reviewed decision's word for the reader (``remark``: 据监本叶数定其处)."""
    several = len(record.get("target_spans", [])) > 1 and "quotes" not in record  # quotes: the note's own places
    times = f"（凡{len(record['target_spans'])}处）" if several else ""
    where = f"；见本书{page_label(record['page'])}" if record.get("page") else ""
    found = f"本书作“{record['found_as']}”，" if record.get("found_as") else ""
    placed = "据前后条次第定其处，" if record.get("settled_by") == "order" else ""  # or a decision's remark
    placed += f"{record['remark']}，" if record.get("remark") else ""
    return (f"{KIND_NAMES[record['kind']]}：“{record['lemma']}”{times}，{record['statement']}"
            f"（{found}{placed}{record.get('reference_reading', '')}{where}）。")


def reading_body(reading: dict) -> str:
    """A 今文/古文 reading as an apparatus line: ``俟〕今文作“立”。郑注：“今文俟为立”``."""
    if reading.get("unparsed"):
        return escape_inline(f"未能解析：郑注“{reading['statement']}”，其异文所在或所异未能确定，待考。")
    tradition, kind = reading["tradition"], reading["kind"]
    lemma, variant = reading.get("lemma") or "", reading.get("variant") or ""
    some = "或" if reading.get("alternative") else ""  # some copies of the tradition (今文或…)
    qualifier = ("皆" if reading.get("all") else "") + some
    if kind == "omit":
        where = f"“{reading['context']}”中" if reading.get("context") else ""
        line = f"{lemma}〕{tradition}{some}{where}无"
    elif lemma:
        line = f"{lemma}〕{tradition}{qualifier}作“{variant}”"
    else:
        line = f"{tradition}{qualifier}作“{variant}”（经中未能对齐）"
    line += f"。郑注：“{reading['statement']}”"
    if reading.get("via"):  # the lemma is 郑玄's reading of another character of the 经
        line += f"。〔经作“{reading.get('lemma_in_text') or ''}”，注云“{reading['via']}”〕"
    elif reading.get("lemma_in_text"):
        line += f"。〔经作“{reading['lemma_in_text']}”〕"
    if reading.get("note_passage", reading["passage"]) != reading["passage"]:
        line += "。〔注在其后经文之下〕"
    if reading.get("remark"):  # a reviewed decision's word (conv/data/readings.toml): 〔“堦”当作“皆”…〕
        line += f"。〔{reading['remark']}〕"
    if reading.get("check") == "not-found":
        line += "。〔经中未见此字〕"
    elif reading.get("check") == "no-text":
        line += "。〔此段底本无经文〕"
    return escape_inline(line)


def collation_body(record: dict) -> str:
    """A collation entry in the usual form: the seed's reading, the 文渊阁本's with its page, the
    decision (据改 for a stand-in or an unresolved code point, else listed only)."""
    page = record.get("page")
    where = f"（{page_label(page)}）" if page else ""
    seed, witness = record.get("text", ""), record.get("witness_text", "")
    kind = COLLATION_CLASSES.get(record.get("class", ""), "")
    if not seed:  # the witness has what the seed lacks
        return f"{kind}：底本无，文渊阁本有“{witness}”{where}" + ("，据补。" if record.get("emended") else "。")
    if not witness:
        return f"{kind}：底本有“{seed}”，文渊阁本无{where}" + ("，据删。" if record.get("emended") else "。")
    decision = "，据改" if record.get("emended") else ""
    if record.get("class") == "pua" and record.get("confirmed"):
        decision = "，与私用区字表合"
    return f"{kind}：“{seed}”，文渊阁本作“{witness}”{where}{decision}。"
