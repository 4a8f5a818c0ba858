"""The parallels in the back matter (互见): the 校勘记's entries between the two works and a
parallel page per shared 篇 (``apparatus/parallel-<chapter>.md``: the groups of linked passages,
two columns in HTML).

The entries (``kind = "parallel"``, ``conv.edition.parallels``) stand in the base work's 校勘记
(the 句读's), each naming both passages (the other as a ``yl:cite`` link) and both 文渊阁 pages.
"""
from __future__ import annotations

from conv.model.tree import Edition
from conv.myst.backmatter.locator import DIR, Locator
from conv.myst.chapter import page_label
from conv.myst.escape import escape_inline

#: Layers as the entries name them.
LAYER_WORDS = {"jing": "经文", "ji": "记文", "zhu": "郑注"}
#: The apparatus section's heading and introduction.
HEADING = "句读本与通解本"
INTRODUCTION = (
    "张尔岐《句读》与朱熹《通解》同载《仪礼》经文与郑注者十篇。二本经文、注文逐字对齐（繁简与异体先行归并），"
    "凡文字有异者各出一条，注明二本段落与文渊阁本页次；朱熹移记文就经、或移入他篇者，记为移易一条，不作异文；"
    "通解录文未标小字、注文混入经文者，别为一类，非经文异文。各篇二本对照见“对照”诸页。"
)


def _where(page) -> str:
    return page_label(page) if page else ""


def cite(locator: Locator, anchor: str) -> str:
    """A ``yl:cite`` of a passage with its short label (通解·士冠礼5)."""
    locus = locator.loci.get(anchor)
    label = locus.full_label if locus else anchor
    return "{yl:cite}`" + label + " <" + anchor + ">`"


def _pages(*pages) -> str:
    shown = [page for page in pages if page]
    return "，".join(shown)


def parallel_body(record: dict, locator: Locator) -> str:
    """An entry between the two works, in the house's form: the base work's reading with its
    page, the other work's with its passage (a link) and page."""
    other = locator.loci.get(record.get("witness_anchor", ""))
    other_name = other.full_label.split("·")[0] if other else "通解"
    base_page, other_page = _where(record.get("page")), _where(record.get("witness_page"))
    text, witness = record.get("text") or "无", record.get("witness_text") or "无"
    layer = LAYER_WORDS.get(record.get("layer", ""), "")
    link = cite(locator, record.get("witness_anchor", ""))
    if record.get("class") == "transposition":
        anchors, witness_anchors = record.get("anchors", []), record.get("witness_anchors", [])
        span = f"{anchors[0].rsplit('-', 1)[-1]}至{anchors[-1].rsplit('-', 1)[-1]}" if len(anchors) > 1 else ""
        moved = cite(locator, witness_anchors[0]) if witness_anchors else link
        where = "，".join(part for part in (f"本篇{span}段" if span else "", base_page) if part)
        return (escape_inline(f"移易：{layer}“{_short(text)}”" + (f"（{where}）" if where else "") + f"，{other_name}本移置于")
                + moved + escape_inline(f"（{other_page}）。" if other_page else "。")
                + escape_inline("二本文字之异另条出之。"))
    if record.get("class") == "note-in-text":
        doubt = "" if record.get("sure", True) else "疑"
        if record.get("op") == "delete":
            words = f"{layer}“{text}”（{base_page}），{other_name}本{doubt}在注中（"
        elif record.get("op") == "replace":
            words = (f"{layer}“{text}”（{base_page}），{other_name}本作“{witness}”，{doubt}有注文混入"
                     f"（录文未标小字），非{layer}异文（")
        else:
            words = f"{other_name}本{layer}多出“{witness}”，{doubt}为注文（录文未标小字），非{layer}异文（"
        return escape_inline(words) + link + escape_inline(f"，{other_page}）。" if other_page else "）。")
    here = f"（{base_page}）" if base_page else ""
    if record.get("op") == "delete":
        words = f"{layer}“{text}”{here}，{other_name}本无（"
    elif record.get("op") == "insert":
        words = f"{other_name}本{layer}多“{witness}”{here}（"
    else:
        words = f"{layer}“{text}”{here}，{other_name}本作“{witness}”（"
    return escape_inline(words) + link + escape_inline(f"，{other_page}）。" if other_page else "）。")


def _short(text: str, length: int = 16) -> str:
    return text if len(text) <= length else text[:length] + "…"


def groups_by_chapter(edition: Edition) -> dict[str, list[dict]]:
    """Chapter id → its groups of linked passages (``kind = "group"`` links), in order."""
    out: dict[str, list[dict]] = {}
    for link in edition.parallels:
        if link["kind"] == "group":
            out.setdefault(link["chapter"], []).append(link)
    return out


def page_name(chapter_id: str) -> str:
    return f"parallel-{chapter_id}"


def parallel_page(edition: Edition, chapter_id: str, groups: list[dict]) -> str:
    """The parallel page of one shared 篇: one ``yl:pair`` per group, in the base work's order."""
    title = next((c.title for w in edition.works for c in w.chapters if c.id == chapter_id), chapter_id)
    out = [f"({page_name(chapter_id)})=", f"# {escape_inline(title)}：句读与通解对照", ""]
    both = f"《{title}》经文与郑注，左为张尔岐《句读》，右为朱熹《通解》，按经文逐段对齐"
    out += ["```{only} html", escape_inline(f"{both}；窄屏上下相次。二本分段不同，一段可对数段。每段前为出处，点击可至原段。"),
            "```", "", "```{only} latex",  # print: the citations alone, the words stand in the 篇
            escape_inline(f"{both}。二本分段不同，一段可对数段。各段注其文渊阁本叶次与本书页码，其文见于各篇。"), "```", ""]
    for group in groups:
        out += [":::{yl:pair}", f":base: {' '.join(group['base'])}", f":other: {' '.join(group['other'])}",
                ":::", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def pages(edition: Edition) -> dict[str, str]:
    """Relative path (under ``source/``) → MyST body of each parallel page."""
    return {f"{DIR}/{page_name(chapter)}.md": parallel_page(edition, chapter, groups)
            for chapter, groups in groups_by_chapter(edition).items()}

