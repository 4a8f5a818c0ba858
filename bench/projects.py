"""The Sphinx projects the benchmark builds (项目), each in its own directory under the work dir.

* :func:`edition_project` — the edition: copies of the hand-written files of ``source/``
  (``conf.py``, ``index.md``, the editorial notes under ``notes/``); the converter writes the
  chapter pages (and whatever else it generates) into it. The incremental rebuild changes one
  notes page (:func:`notes_page`).
* :func:`plain_project` — the floor: the *same text* (every title, passage, note segment and
  metadata line of the converter's model) written as bare MyST headings and paragraphs, one page
  per chapter, with the same theme and HTML options and no extension but ``myst_parser``.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from conv.myst.escape import escape_inline

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "source"

NOTES_TOCTREE = """

```{toctree}
:hidden:
:caption: 校记

notes/index
```
"""

NOTES_PAGE = """# 校记

编者校记（基准测试用的手写页）。见{ref}`乡射礼 <judou-xiangshe>`、{ref}`大射仪 <tongjie-dashe>`。

张尔岐《仪礼郑注句读》以“○”分隔注中各段；朱熹《仪礼经传通解》以全角空格分隔。
"""

PLAIN_CONF = '''"""Plain Sphinx (the benchmark's floor): the edition's text as bare MyST, no custom directives."""
project = "仪礼"
author = "仪礼 digital edition contributors"
copyright = author
release = "0.1"
language = "zh_CN"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 0
smartquotes = False
html_theme = "furo"
html_title = "仪礼 · 数字校本"
html_short_title = "仪礼"
html_last_updated_fmt = None
html_copy_source = False
html_show_sourcelink = False
'''


def _reset(directory: Path) -> None:
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)


GENERATED_HEADER = "---\nyili-generated: conv\n"


def hand_written(source: Path = SOURCE) -> list[Path]:
    """The hand-written files of ``source/`` (relative paths): everything but the converter's
    pages (recognised by their header), its stamp and any build output."""
    out = []
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source)
        if not path.is_file() or rel.parts[0] in ("_build", ".converted") or "__pycache__" in rel.parts:
            continue
        if path.suffix == ".md" and path.read_text(encoding="utf-8", errors="replace").startswith(GENERATED_HEADER):
            continue
        out.append(rel)
    return out


def edition_project(directory: Path) -> Path:
    """A fresh edition project: copies of the hand-written files of ``source/`` (conf.py,
    index.md, the editorial notes…), no generated page (the converter writes them). When the
    edition has no notes page yet, one is made (``notes/index.md``, in a hidden toctree appended
    to the copied ``index.md``) for the incremental rebuild to touch."""
    _reset(directory)
    for rel in hand_written():
        (directory / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(SOURCE / rel, directory / rel)
    if not list((directory / "notes").rglob("*.md")):
        (directory / "notes").mkdir(exist_ok=True)
        (directory / "notes" / "index.md").write_text(NOTES_PAGE, encoding="utf-8")
        index = (directory / "index.md").read_text(encoding="utf-8")
        if "notes/index" not in index:
            (directory / "index.md").write_text(index.rstrip("\n") + NOTES_TOCTREE, encoding="utf-8")
    return directory


def notes_page(project: Path) -> Path:
    """The notes page the incremental rebuild changes: the first notes page of a chapter
    (``notes/judou/xiangshe.md``), else ``notes/index.md``."""
    pages = sorted(p for p in (project / "notes").rglob("*.md") if p.name != "index.md")
    return pages[0] if pages else project / "notes" / "index.md"


def touch_note(project: Path, counter: int) -> Path:
    """Change the notes page: one more sentence in its last editorial note (``yl:note``), so the
    note's text changes as an editor's would (the page that shows the note at its passage is
    written again); on a page without notes, one more paragraph at its end."""
    page = notes_page(project)
    text = page.read_text(encoding="utf-8")
    addition = f"校记补{counter}：一事。"
    lines = text.split("\n")
    opening = max((i for i, line in enumerate(lines) if re.match(r"^:{3,}\{yl:note\}", line)), default=None)
    if opening is not None:
        fence = re.match(r"^(:{3,})", lines[opening]).group(1)
        closing = next((i for i in range(opening + 1, len(lines)) if lines[i].rstrip() == fence), None)
        if closing is not None:
            lines.insert(closing, addition)
            page.write_text("\n".join(lines), encoding="utf-8")
            return page
    page.write_text(text.rstrip("\n") + f"\n\n{addition}\n", encoding="utf-8")
    return page


# -- the floor ----------------------------------------------------------------------------------
def _para(text: str) -> list[str]:
    text = escape_inline(text)
    return [text, ""] if text else []


def _segments(segments) -> list[str]:
    out: list[str] = []
    for segment in segments:
        out += _para(segment.text)
    return out


def plain_chapter(edition, work, chapter) -> str:
    from conv.myst.chapter import PageWriter

    heading = PageWriter(edition, work, chapter).heading
    out = [f"# {escape_inline(chapter.title)}", ""]
    for kind, item in chapter.order:
        if kind == "meta":
            out += _para(item.text)
        elif kind == "heading":
            out += _para(chapter.heading or "") + _segments(chapter.mulu)
        elif kind == "section":
            section = item
            out += [f"## {escape_inline(heading(section))}", ""]
            pending = section.title is not None
            for passage in section.passages:
                if pending and passage.span[1] > section.title_span[1]:
                    out += _para(section.title) + _segments(section.title_notes)
                    if section.ji_marker:
                        out += _para(section.ji_marker.text)
                    pending = False
                out += _para(passage.text) + _segments(passage.notes)
            if pending:
                out += _para(section.title) + _segments(section.title_notes)
    return "\n".join(out).rstrip("\n") + "\n"


def plain_project(directory: Path, edition) -> Path:
    """The floor project for ``edition`` (a ``conv.model.tree.Edition``)."""
    _reset(directory)
    (directory / "conf.py").write_text(PLAIN_CONF, encoding="utf-8")
    works = []
    for work in edition.works:
        works.append(f"{work.id}/index")
        (directory / work.id).mkdir()
        toc = [f"# {escape_inline(work.title)}", "", "```{toctree}", ":maxdepth: 1", ""]
        toc += [chapter.id for chapter in work.chapters] + ["```", ""]
        (directory / work.id / "index.md").write_text("\n".join(toc), encoding="utf-8")
        for chapter in work.chapters:
            (directory / work.id / f"{chapter.id}.md").write_text(plain_chapter(edition, work, chapter), encoding="utf-8")
    index = ["# 仪礼 · 数字校本", "", "```{toctree}", ":maxdepth: 2", ""] + works + ["```", ""]
    (directory / "index.md").write_text("\n".join(index), encoding="utf-8")
    return directory


def text_chars(directory: Path) -> int:
    """Characters of all .md pages under ``directory`` (to compare the two projects' inputs)."""
    return sum(len(p.read_text(encoding="utf-8")) for p in directory.rglob("*.md") if "_build" not in p.parts)
