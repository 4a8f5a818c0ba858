"""The index of glosses (音义索引): every 音义 gloss by its 广韵 position."""
from __future__ import annotations

from dataclasses import dataclass

from conv.model.tree import Edition, Segment
from conv import datafiles as data
from conv.myst.backmatter.locator import DIR, GLOSS_KINDS, KeptForms, Locator, Locus, STATUS_NAMES, cite, datatable
from conv.myst.escape import escape_inline
from conv.parser import menfa, phonology


@dataclass
class GlossRow:
    gloss: object
    locus: Locus | None
    order: int
    kept: KeptForms

    def cell(self, text: str):
        """A witness cell of ``text`` in the forms the gloss's passage reads (聲徵之徵 of 内則 keeps 徵)."""
        return self.kept.cell(self.locus.anchor if self.locus else "", text, self.gloss.span)


def gloss_rows(edition: Edition, locator: Locator) -> list[GlossRow]:
    rows: list[GlossRow] = []
    kept = KeptForms(edition)

    def add(segments: list[Segment], anchor: str) -> None:
        for segment in segments:
            for gloss in segment.glosses:
                rows.append(GlossRow(gloss, locator.loci.get(anchor), len(rows), kept))

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
    if tone := phonology.tone_of(gloss):  # 長上聲
        return f"{tone}声"
    return ""


def _kind(gloss) -> str:
    name = "声调" if phonology.tone_of(gloss) else GLOSS_KINDS.get(gloss.kind, gloss.kind)
    return name + ("（又音）" if gloss.second else "")


#: The classes the index lists apart, after the table by position: (status, anchor, heading, intro).
CLASSES = (
    ("other reading", "other", "他字之音",
     "推得之音不是被注字在《广韵》中的任何一读，而是他字之音：或为破读，或为假借，以他字之音读此字"
     "（如共九勇反，推得拱小韵之音，共读为拱）。“小韵”一栏为推得之音所属小韵的代表字。"),
    ("system difference", "system", "音系差异",
     "推得之音与被注字的一读只在音系上有别：或为重纽A、B类之别（如岐其宜反），或为音义所据音系不分而"
     "《广韵》分立的二韵（如萧、宵：篠息小反）。非误，亦非他字之音。"),
    ("suspect", "suspect", "疑讹",
     "切语上字（直音字）的声母，其发音部位（唇、舌、齿、牙、喉）与被注字诸读皆不合：切语用字或被注字"
     "疑有讹误（如拊者甫反，者为章母；同篇弣字作芳甫反）。"),
    ("lost character", "lost", "录入失字",
     "被注字与所注之音同形（X音X），注音遂无所指：当是简体录入将二字合一（文渊阁本作瞭音了、矇音蒙）。"
     "待与文渊阁本对校，据以复原被注字。"),
    ("unresolved", "unresolved", "未能推定",
     "未能推得《广韵》音韵地位者：反切用字不见于《广韵》、反切无法执行，音义未注读音（如字），或仅注声调而"
     "被注字于该调无读或不止一读（如行去声：《广韵》下浪、下更二切皆去声）。"),
)


def _position_cell(gloss) -> str:
    """The main position, then the alternatives a speller's other reading gives（又可为…）."""
    if not gloss.position:
        return "—"
    others = [p for p in gloss.positions if p != gloss.position]
    return gloss.position + ("（又可为" + "、".join(others) + "）" if others else "")


def _verdict(gloss) -> str:
    """The 合否 cell: the status, and the 门法 its position was read by（合于本字（之韵无唇音））."""
    shown = STATUS_NAMES.get(gloss.status, gloss.status or "—")
    rule = menfa.rule_for(gloss.note) if gloss.position else None
    return f"{shown}（{rule.name}）" if rule else shown


HEADER = ["广韵地位", "音义", "字", "类别", "切语／直音", "合否", "出处"]
#: The page of the glosses no position was found for, after the 摄's pages, and its title.
UNPLACED, UNPLACED_TITLE = "unplaced", "未能推定音韵地位者"
#: The page of the classes listed apart (音韵地位存疑).
DOUBTFUL = "doubtful"


def _by_position(rows: list[GlossRow]) -> list[str]:
    """The table of ``rows`` by position (the same seven columns on every page)."""
    table = [[_position_cell(r.gloss), r.cell(r.gloss.text), r.cell(r.gloss.char), _kind(r.gloss), r.cell(_sound(r.gloss)),
              _verdict(r.gloss), cite(r.locus, full=True)] for r in rows]
    return datatable(HEADER, table, [3, 3, 1, 3, 2, 2, 4], "text witness witness text witness text cite",
                     "yl-gloss-index")


def _groups(rows: list[GlossRow]) -> list[tuple[str, str, list[GlossRow]]]:
    """(page id, title, rows in 广韵 order) for each 摄 that has a gloss, in the 十六摄's order,
    then the glosses no position was found for (in the witnesses' order)."""
    keys = {p: phonology.sort_key(p) for p in {r.gloss.position for r in rows} if p}  # once per position
    grouped: dict[str | None, list[GlossRow]] = {}
    for row in sorted((r for r in rows if r.gloss.position), key=lambda r: (keys[r.gloss.position], r.order)):
        grouped.setdefault(phonology.rhyme_group(row.gloss.position), []).append(row)
    groups = [(page, f"{group}摄", grouped.pop(group)) for group, page in data.rhyme_groups().items()
              if group in grouped]
    # no position, or one tshet-uinh cannot read (none today): listed, never left out
    unplaced = sorted([r for r in rows if not r.gloss.position] + [r for left in grouped.values() for r in left],
                      key=lambda r: r.order)
    if unplaced:
        groups.append((UNPLACED, UNPLACED_TITLE, unplaced))
    return groups


def _overview(rows: list[GlossRow], groups: list[tuple[str, str, list[GlossRow]]]) -> list[str]:
    counts = "，".join(f"{STATUS_NAMES[status]} {sum(1 for r in rows if r.gloss.status == status)} 条"
                      for status in phonology.STATUSES)
    out = ["(apparatus-glosses)=", "# 音义索引", ""]
    out += [
        escape_inline(
            "底本注中所附音义（反切、直音、如字等），按所推《广韵》音韵地位排列：分十六摄，每摄一页；"
            "摄内先依韵（东、冬、钟……，《广韵》韵目之序），次声调，次声母（帮、滂、并、明……），次开合、等、类。"
            "反切以 tshet-uinh （切韵音系）据《广韵》执行，直音取所注字之音；底本简体字先以 OpenCC 转为繁体再查。"
        ),
        "",
        escape_inline(
            "切语用字取其常读，即其在《广韵》反切中为切语时之音（食取乘力切，于取羽俱切，列取良辥切）；"
            "常读所切不合本字时，方试其又读或他形（于作於，干作乾、幹），所得合于本字者附于其后（“又可为”），"
            "不居其前。排列与“合否”皆据常读所得之音。切语于切韵音系中无法相切者（如比毗志反，之韵无唇音），依等韵门法读之（"
            + "、".join(dict.fromkeys(rule.name for rule in menfa.rules())) + "）；“合否”一栏括注所据门法。"
        ),
        "",
        escape_inline(
            "“合否”一栏：合于本字，谓推得之音为被注字在《广韵》中的一读（《广韵》收于异体者亦是，如臑收于腝）；"
            "其余各类另列于“音韵地位存疑”：他字之音、音系差异、疑讹、录入失字、未能推定。"
        ),
        "",
        f"共 {len(rows)} 条；{counts}。",
        "",
        "(apparatus-glosses-by-position)=",
        "## 依广韵音韵地位",
        "",
        escape_inline("各摄之下列其所涉之韵，举平以赅上去入；韵依切韵音系（tshet-uinh）：真兼谆，寒兼桓，歌兼戈。"),
        "",
        *[f"- {{doc}}`{title} <glosses-{page}>`：" + "，".join(filter(None, (_rhymes(chosen), f"{len(chosen)} 条")))
          for page, title, chosen in groups],
        "",
        "```{toctree}",
        ":hidden:",
        "",
        *[f"glosses-{page}" for page, _, _ in groups],
        "```",
        "",
        "(apparatus-glosses-apart)=",
        "## 另列",
        "",
        escape_inline("合否不为“合于本字”者，依类各列一表：" + "、".join(c[2] for c in CLASSES) + "。"),
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        f"glosses-{DOUBTFUL}",
        "```",
    ]
    return out


def _rhymes(chosen: list[GlossRow]) -> str:
    """The 韵 of the glosses (in their order: 广韵 order on a 摄's page), each named by its level
    tone (``東、冬、鍾``); ``""`` for glosses without a position."""
    return "、".join(dict.fromkeys(phonology.rhyme_of(r.gloss.position) for r in chosen if r.gloss.position))


def _group_page(page: str, title: str, chosen: list[GlossRow]) -> list[str]:
    out = [f"(apparatus-glosses-{page})=", f"# {title}", ""]
    if page == UNPLACED:
        intro = f"以下 {len(chosen)} 条音义未能推得《广韵》音韵地位，依底本先后排列；其故见“音韵地位存疑”之“未能推定”。"
    else:
        intro = f"本摄音义 {len(chosen)} 条，所涉之韵：{_rhymes(chosen)}（举平以赅上去入）。"
    return out + [escape_inline(intro), ""] + _by_position(chosen)


def _doubtful_page(rows: list[GlossRow]) -> list[str]:
    out = ["(apparatus-glosses-mismatches)=", "# 音韵地位存疑", ""]
    for status, anchor, heading, intro in CLASSES:
        chosen = [r for r in rows if r.gloss.status == status]  # rows are in the witnesses' order
        out += [f"(apparatus-glosses-{anchor})=", f"## {heading}", "", escape_inline(intro), ""]
        table = []
        for row in chosen:
            gloss = row.gloss
            own = phonology.readings(gloss.char) if gloss.char else []
            table.append([row.cell(gloss.text), "、".join(gloss.positions) or "—", gloss.homophone,
                          "、".join(own) or "（《广韵》未收）", gloss.note or "—", cite(row.locus, full=True)])
        out += datatable(["音义", "推得之音", "小韵", "本字《广韵》之音", "说明", "出处"], table,
                         [6, 6, 3, 7, 10, 8], "witness text text text text cite", "yl-gloss-mismatches")
    return out


def glosses_pages(edition: Edition, locator: Locator) -> dict[str, str]:
    """The 音义索引's pages by path: the overview (``glosses.md``), a page per 摄 that has a gloss
    (``glosses-<id>.md``, ``conv/data/rhyme_groups.tsv``), the glosses no position was found for,
    and the classes listed apart (``glosses-doubtful.md``)."""
    rows = gloss_rows(edition, locator)
    groups = _groups(rows)
    pages = {f"{DIR}/glosses.md": _overview(rows, groups)}
    for page, title, chosen in groups:
        pages[f"{DIR}/glosses-{page}.md"] = _group_page(page, title, chosen)
    pages[f"{DIR}/glosses-{DOUBTFUL}.md"] = _doubtful_page(rows)
    return {path: "\n".join(lines).rstrip("\n") + "\n" for path, lines in pages.items()}
