"""The back matter's pages (附录页面): 郑注训诂, the contents page, and every page by path."""
from __future__ import annotations

from conv.analyses import glossary
from conv.model.tree import Edition
from conv.myst.backmatter.apparatus import Apparatus, work_page
from conv.myst.backmatter.glosses import glosses_pages
from conv.myst.backmatter.locator import DIR, GLOSSARY_FORMS, KeptForms, Locator, cite, datatable
from conv.myst.backmatter import parallels
from conv.myst.backmatter.terms import TERMS_RULE, tone_marks
from conv.myst.escape import escape_inline


def glossary_page(edition: Edition, locator: Locator) -> str:
    entries = glossary.collect(edition)
    out = ["(apparatus-glossary)=", "# 郑注训诂", ""]
    out += [
        escape_inline(
            "郑玄注中对经文字词的训释（“某，某也”“某犹某也”“某谓某”“某者，某也”），按所释之词的汉语拼音排列，"
            "同一词依经文先后。底本无标点，故只收体例明确者，宁缺勿滥。"
            "所收为《句读》各篇及《通解》所录《仪礼》诸篇之郑注；《通解》所录他书之注，注家不一"
            "（如大学、中庸为朱熹章句，亲属记为郭璞注），不收。"
        ),
        "",
        f"共 {len(entries)} 条，{len({e['term'] for e in entries})} 词。",
        "",
    ]
    rows = []
    kept = KeptForms(edition)  # 竝并也: 竝 stays 竝 in the normalized view too
    for entry in entries:
        passage, span = entry["passage"], entry["span"]
        rows.append([kept.cell(passage, entry["term_witness"], span), tone_marks(entry["pinyin"], " "),
                     kept.cell(passage, entry["definition_witness"], span), kept.cell(passage, entry["text"], span),
                     GLOSSARY_FORMS.get(entry["form"], entry["form"]),
                     cite(locator.loci.get(entry["passage"]), full=True)])
    out += datatable(["词", "读音", "释义", "郑注原文", "体例", "出处"], rows, [2, 2, 3, 4, 2, 3],
                     "witness pinyin witness witness text cite", "yl-glossary")
    return "\n".join(out).rstrip("\n") + "\n"


# -- the contents page --------------------------------------------------------------------------

def index_page(edition: Edition) -> str:
    works = [w for w in edition.works]
    out = ["(apparatus)=", "# 校勘记与索引", ""]
    out += [
        escape_inline(
            "本编所附校勘记与索引，皆由转换程序据底本与校改表生成，随底本更新："
            "各书校勘记逐条列出转换时的每一处校改与今古文异文；音义索引按《广韵》音韵地位排列注中音义；"
            "郑注训诂汇集郑玄对经文字词的训释。"
        ),
        "",
        "名物索引的收词与计数之法：",
        "",
        *[f"- {escape_inline(paragraph)}" for paragraph in TERMS_RULE],
        "",
        "```{only} html",
        "- {ref}`名物索引 <yl-terms>`：每一名物所见的全部经文段落。",
        "- {ref}`总索引 <genindex>`：名物按拼音首字母，下分各篇。",
        "```",
        "",
        "```{only} latex",
        "名物索引与总索引附于书末。",
        "```",
        "",
        "```{toctree}",
        ":maxdepth: 2",
        "",
    ]
    out += [w.id for w in works] + ["glosses", "glossary"]
    out += [parallels.page_name(chapter) for chapter in parallels.groups_by_chapter(edition)]  # 对照 (互见)
    out += ["```"]
    return "\n".join(out) + "\n"


def pages(edition: Edition, apparatus: Apparatus | None = None) -> dict[str, str]:
    """Relative path (under ``source/``) → MyST body (without the generated-page header)."""
    apparatus = apparatus or Apparatus(edition)
    out = {f"{DIR}/index.md": index_page(edition)}
    for work in edition.works:
        out[f"{DIR}/{work.id}.md"] = work_page(apparatus, work)
    out.update(glosses_pages(edition, apparatus.locator))
    out[f"{DIR}/glossary.md"] = glossary_page(edition, apparatus.locator)
    out.update(parallels.pages(edition))
    return out

