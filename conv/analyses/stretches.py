"""The stretches of a chapter (底本分段): which witness each run of its passages comes from.

In the whole edition a chapter is joined from the seeds (录入本, simplified, collated with the
文渊阁 text) and the 文渊阁 transcription (traditional); where one gives way to the other the text
holds a join mark (``conv.edition.joins``). :func:`stretches` lists the runs of passages of one
witness in reading order, with the 文渊阁 pages where each begins and ends; :func:`line` says it in
one Chinese line for the chapter's head (the page, the PDF and ``witness_line`` in the dump):
``本篇底本：卷五叶一a至叶十五a据文渊阁本；叶十五a至叶三十三b据录入本（简体，已与文渊阁本对校）；…``.
"""
from __future__ import annotations

from conv.model.tree import Chapter
from conv.reader.mandoku_lex import Page

#: The witnesses as a reader names them (a seed collated with the 文渊阁 text, whose pages it then
#: has, says so).
WITNESS_NAMES = {"kanripo": "文渊阁本", "seed": "录入本（简体）", "seed-collated": "录入本（简体，已与文渊阁本对校）"}


def _name(run: dict) -> str:
    return WITNESS_NAMES["seed-collated" if run["witness"] == "seed" and run["from"] else run["witness"]]


def stretches(chapter: Chapter) -> list[dict]:
    """Runs of passages of one witness: ``{witness, first, last, passages, from, to}`` (anchors of
    the first and last passage, their 文渊阁 pages or None)."""
    out: list[dict] = []
    for section in chapter.sections:
        for passage in section.passages:
            if out and out[-1]["witness"] == passage.witness:
                run = out[-1]
                run["last"], run["passages"] = passage.id, run["passages"] + 1
                run["to"] = passage.page or run["to"]
            else:
                out.append({"witness": passage.witness, "first": passage.id, "last": passage.id, "passages": 1,
                            "from": passage.page, "to": passage.page})
    return out


def _pages(start: dict | None, end: dict | None, juan: int | None = None) -> str:
    """卷五叶一a至叶十五a: the 卷 once when both ends are in it, and not at all when it is
    ``juan``, the 卷 the line named last."""
    if start is None or end is None:
        return ""
    first, last = Page(**start).label(), Page(**end).label()
    if start["juan"] == juan:
        first = first[first.index("叶"):]
    if start["juan"] == end["juan"]:
        last = last[last.index("叶"):]
    return first if first.endswith(last) else f"{first}至{last}"


def line(chapter: Chapter) -> str | None:
    """The chapter's witnesses in one line; for a chapter without passages, the page of its title in
    the 文渊阁 text (書數, 此一篇原闕), or None when the text has none (卜筮, listed in the 目録 alone)."""
    runs = stretches(chapter)
    if not runs and chapter.page:  # no passages: the title's page is the one the 文渊阁 text gives
        runs = [{"witness": "kanripo", "from": chapter.page, "to": chapter.page}]
    if not runs:
        return None
    if len(runs) == 1:
        pages = _pages(runs[0]["from"], runs[0]["to"])
        return f"本篇底本：{_name(runs[0])}" + (f"（{pages}）" if pages else "") + "。"
    parts, juan = [], None
    for run in runs:
        parts.append(f"{_pages(run['from'], run['to'], juan)}据{_name(run)}")
        juan = (run["to"] or {}).get("juan", juan)
    return "本篇底本：" + "；".join(parts) + "。"
