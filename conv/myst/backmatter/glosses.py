"""The index of glosses (音义索引): every 音义 gloss by its 广韵 position."""
from __future__ import annotations

from dataclasses import dataclass

from conv.model.tree import Edition, Segment
from conv.myst.backmatter.locator import GLOSS_KINDS, Locator, Locus, STATUS_NAMES, cite, datatable, note_words
from conv.myst.escape import escape_inline
from conv.parser import phonology


@dataclass
class GlossRow:
    gloss: object
    locus: Locus | None
    order: int


def gloss_rows(edition: Edition, locator: Locator) -> list[GlossRow]:
    rows: list[GlossRow] = []

    def add(segments: list[Segment], anchor: str) -> None:
        for segment in segments:
            for gloss in segment.glosses:
                rows.append(GlossRow(gloss, locator.loci.get(anchor), len(rows)))

    for work in edition.works:
        for chapter in work.chapters:
            add(chapter.mulu, f"{work.id}-{chapter.id}")
            for section in chapter.sections:
                for passage in section.passages:
                    add(passage.notes, passage.id)
                add(section.title_notes, section.id)
    return rows


def _sound(gloss) -> str:
    if gloss.kind == "fanqie" and gloss.upper and gloss.lower:
        return f"{gloss.upper}{gloss.lower}反"
    if gloss.kind == "zhiyin" and gloss.sound:
        return f"音{gloss.sound}"
    if gloss.kind == "ruzi":
        return "如字"
    return ""


def _kind(gloss) -> str:
    name = GLOSS_KINDS.get(gloss.kind, gloss.kind)
    return name + ("（又音）" if gloss.second else "")


def glosses_page(edition: Edition, locator: Locator) -> str:
    rows = gloss_rows(edition, locator)
    keys = {p: phonology.sort_key(p) for p in {r.gloss.position for r in rows} if p}  # once per position
    ordered = sorted(rows, key=lambda r: (r.gloss.position is None, keys.get(r.gloss.position, ()), r.order))
    out = ["(apparatus-glosses)=", "# 音义索引", ""]
    out += [
        escape_inline(
            "底本注中所附音义（反切、直音、如字等），按所推《广韵》音韵地位排列：先依韵（东、冬、钟……，"
            "《广韵》韵目之序），次声调，次声母（帮、滂、并、明……），次开合、等、类。反切以 tshet-uinh "
            "（切韵音系）据《广韵》执行，直音取所注字之音；底本简体字先以 OpenCC 转为繁体再查。"
        ),
        "",
        escape_inline(
            "“合否”一栏：合于本字，谓推得之音为被注字在《广韵》中的一读；非本字之音，谓被注字在《广韵》中"
            "另有其音，而所推之音不在其中（如共九勇反，推得見三C鍾上，乃拱字之音）；未能推定，谓反切用字"
            "不见于《广韵》、反切无法执行或音义未给出读音（如字）。后两类另列于下节。"
        ),
        "",
        f"共 {len(rows)} 条；合于本字 {sum(1 for r in rows if r.gloss.status == 'matches')} 条，"
        f"非本字之音 {sum(1 for r in rows if r.gloss.status == 'other reading')} 条，"
        f"未能推定 {sum(1 for r in rows if r.gloss.status == 'unresolved')} 条。",
        "",
        "(apparatus-glosses-by-position)=",
        "## 依广韵音韵地位",
        "",
    ]
    table = []
    for row in ordered:
        gloss = row.gloss
        others = [p for p in gloss.positions if p != gloss.position]
        position = gloss.position or "—"
        if others:
            position += "（又可为" + "、".join(others) + "）"
        table.append([position, gloss.text, gloss.char, _kind(gloss),
                      _sound(gloss), STATUS_NAMES.get(gloss.status, gloss.status or "—"),
                      cite(row.locus, full=True)])
    out += datatable(["广韵地位", "音义", "字", "类别", "切语／直音", "合否", "出处"], table,
                     [4, 3, 1, 2, 2, 2, 3], "text witness witness text witness text cite",
                     "yl-gloss-index")
    out += ["(apparatus-glosses-mismatches)=", "## 音韵地位存疑", ""]
    for status, heading, intro in (
        ("other reading", "非本字之音",
         "推得之音不是被注字在《广韵》中的任何一读：或为破读、假借（以他字之音读此字），或为底本、推算之误，待考。"),
        ("unresolved", "未能推定", "未能推得《广韵》音韵地位者。"),
    ):
        chosen = [r for r in sorted(rows, key=lambda r: r.order) if r.gloss.status == status]
        out += [f"(apparatus-glosses-{'other' if status == 'other reading' else 'unresolved'})=", f"### {heading}", "",
                escape_inline(intro), ""]
        if not chosen:
            out += ["无。", ""]
            continue
        table = []
        for row in chosen:
            gloss = row.gloss
            own = phonology.readings(gloss.char) if gloss.char else []
            table.append([gloss.text, "、".join(gloss.positions) or "—", "、".join(own) or "（《广韵》未收）",
                          note_words(gloss.note) or "—", cite(row.locus, full=True)])
        out += datatable(["音义", "推得之音", "本字《广韵》之音", "说明", "出处"], table, [4, 4, 4, 4, 3],
                         "witness text text text cite", "yl-gloss-mismatches")
    return "\n".join(out).rstrip("\n") + "\n"


# -- 郑注 glossary ----------------------------------------------------------------------------
