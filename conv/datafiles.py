"""Data tables (数据表): the converter's knowledge kept as data files under ``conv/data``.

Each loader reads its file once and returns plain Python structures; nothing here knows how
the tables are used. The file helpers below them read a data file with errors at its
``file:line:col`` (bad UTF-8, bad TOML) and write a file atomically.
"""
from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from pathlib import Path

from conv import unencoded
from conv.errors import ConversionError

DATA_DIR = Path(__file__).with_name("data")
PROJECT_ROOT = DATA_DIR.parent.parent
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)|\(at end of document\)")


def display(path: Path) -> str:
    """A path as messages show it: relative to the project when inside it."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


def read_text(path: Path, hint: str) -> str:
    """A UTF-8 text file; invalid UTF-8 is a ``ConversionError`` at the line and column of the
    first bad byte (文件读入：坏字节报行列)."""
    raw = Path(path).read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ConversionError(display(path), line, col, f"not valid UTF-8: byte 0x{raw[exc.start]:02X} ({exc.reason})",
                              hint) from None


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file beside it and a rename (原子写入):
    a reader, or a build interrupted at any moment, sees the old file or the new one, never half
    of one. The temporary file's name does not end in ``.md``, so Sphinx never reads it."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def read_toml(path: Path, hint: str = "fix the TOML syntax at that place") -> dict:
    """A TOML file (数据文件); bad UTF-8 or bad TOML is a ``ConversionError`` at its
    ``file:line:col`` instead of a bare ``TOMLDecodeError``."""
    text = read_text(path, "data files are UTF-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_AT.search(message)
        if found and found.group(1):
            line, col = int(found.group(1)), int(found.group(2))
        else:
            line, col = text.count("\n") + 1, 1
        reason = _TOML_AT.sub("", message).strip()
        raise ConversionError(display(path), line, col, f"not valid TOML: {reason}", hint) from None


def table_lines(text: str, name: str) -> list[int]:
    """The line numbers of the ``[[name]]`` headers of a TOML text, in order (the n-th entry of the
    array of tables starts on the n-th of them)."""
    header = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
    return [number for number, line in enumerate(text.splitlines(), 1) if header.match(line)]


def line_of(name: str, *needles: str) -> int:
    """The line of data file ``name`` where the first of ``needles`` found is written (for messages about an entry
    that reads as no other can say: 数据文件报行), else 1."""
    text = read_text(DATA_DIR / name, "data files are UTF-8")
    at = next((found for found in (text.find(needle) for needle in needles) if found != -1), 0)
    return text.count("\n", 0, at) + 1


def _toml(name: str) -> dict:
    return read_toml(DATA_DIR / name)


def _tsv(name: str) -> list[list[str]]:
    rows = []
    for line in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


@cache
def works() -> list[dict]:
    """The works (著作) the converter recognises: id, title, titles, author, short, layout."""
    return _toml("works.toml")["work"]


def work_short(work_id: str, title: str = "") -> str:
    """A work's short name (简称), as a citation gives it (句读·士冠礼5): its ``short`` in
    ``works.toml``; a work not listed there, the last two characters of ``title`` (or its id)."""
    work = next((w for w in works() if w["id"] == work_id), None)
    if work is not None:
        return work["short"]
    return title[-2:] if len(title) > 2 else title or work_id


@cache
def chapters() -> list[dict]:
    """The seventeen chapters (篇) of the 仪礼: id, name, number."""
    return _toml("chapters.toml")["chapter"]


@cache
def tongjie_chapters() -> list[dict]:
    """The 篇 of 朱熹《仪礼经传通解》 in the book's order, and its front matter (``tongjie_chapters.toml``)."""
    return _toml("tongjie_chapters.toml")["chapter"]


@cache
def tongjie_parts() -> list[dict]:
    """The five parts (门) of the 通解: 家礼, 乡礼, 学礼, 邦国礼, 王朝礼 (id, name, printed)."""
    return _toml("tongjie_chapters.toml")["part"]


@cache
def judou_apart() -> list[dict]:
    """The 句读's chapters outside its 十七篇 (``judou_apart.toml``): 提要 and 原序 before them,
    张尔岐's 监本正误 and 石本误字 after them."""
    return _toml("judou_apart.toml")["chapter"]


@cache
def judou_apart_meta() -> list[dict]:
    """Lines of the 句读's front matter that are metadata (``judou_apart.toml``'s ``[[meta]]``)."""
    return _toml("judou_apart.toml")["meta"]


def chapters_of(work: str) -> list[dict]:
    """The chapters (篇) of one work, each with id, name and number: the 通解 has its own order and
    its own 篇 (``tongjie_chapters``); the 句读 has the seventeen of the 仪礼 (``chapters``) and its
    front matter and collation notes (``judou_apart``)."""
    if work == "tongjie":
        return tongjie_chapters()
    if work != "judou":
        return chapters()
    apart = judou_apart()  # in the book's order: 提要 and 原序 (number 0) first, 卷十八–十九 last
    return [*(c for c in apart if not c["number"]), *chapters(), *(c for c in apart if c["number"])]


def apart(work: str, chapter_id: str) -> bool:
    """A chapter outside the work's 篇 (``judou_apart``: the 句读's 提要, 原序, 监本正误, 石本误字): the
    navigation gives its name without a 篇 number."""
    return work == "judou" and chapter_id in apart_ids()


@cache
def apart_ids() -> frozenset[str]:
    """The ids of ``judou_apart``'s chapters, read once."""
    return frozenset(c["id"] for c in judou_apart())


def chapter_of(work: str, chapter_id: str) -> dict | None:
    """One chapter's entry: from the work's own table, else from the 仪礼's seventeen (a 通解 text
    of a 篇 its table lacks, such as the 丧服 of 黄榦's sequel, or a benchmark's copies: numbered
    100 + its 仪礼 number, after the work's own 篇); None when neither has it."""
    found = next((c for c in chapters_of(work) if c["id"] == chapter_id), None)
    if found is not None or work != "tongjie":
        return found
    found = next((c for c in chapters() if c["id"] == chapter_id), None)
    return None if found is None else {**found, "number": 100 + found["number"]}


@cache
def is_yili(work: str, chapter_id: str) -> bool:
    """Is the chapter a 篇 of the 仪礼, its 注 郑玄's? Every 篇 of the 句读; of the 通解 those its table marks
    ``yili`` (``tongjie_chapters.toml``): its other 篇 quote other books with their own commentators'
    notes (朱熹's 章句 of 大学 and 中庸, 郭璞's 尔雅, 何休's 公羊 as well as 郑玄's 礼记)."""
    entry = chapter_of(work, chapter_id)
    return entry is not None and bool(entry.get("yili", True))


@cache
def pua() -> dict[str, dict]:
    """Private-use code points (私用区字) resolved: character → {char, kind, reason}; a ``gaiji``
    entry's ``char`` is the stand-in of that unencoded character (``conv.unencoded``)."""
    rows = {}
    for row in _toml("pua.toml")["pua"]:
        if "gaiji" in row:
            row = dict(row, char=unencoded.gaiji_char(row["gaiji"]))
        rows[chr(int(row["code"], 16))] = row
    return rows


@cache
def variants() -> dict[str, str]:
    """四库 variant forms (异体) OpenCC leaves alone → standard simplified forms."""
    return {variant: standard for variant, standard in _tsv("variants.tsv")}


@cache
def rhyme_groups() -> dict[str, str]:
    """The sixteen 摄 in their traditional order → the id of their page in the 音义索引."""
    return {group: page for group, page in _tsv("rhyme_groups.tsv")}


@cache
def t2s_keep() -> dict[str, str]:
    """Characters kept as they are although OpenCC t2s would fold them (to a rare code point)."""
    return {kept: folded for kept, folded in _tsv("t2s_keep.tsv")}


@cache
def senses() -> list[dict]:
    """Characters simplified by their sense: the form another sense keeps, the words that show it."""
    return _toml("senses.toml")["sense"]


@cache
def sense_places() -> list[tuple[int, dict]]:
    """Reviewed places of ``senses.toml``: a passage's occurrences of such a character that keep the form
    (line of its ``[[place]]``, entry)."""
    return _numbered(DATA_DIR / "senses.toml", "place")


@cache
def scholars() -> list[str]:
    """Later scholars quoted in 通解 notes (`刘敞云…`), whose remarks are layer ``an``."""
    return _toml("scholars.toml")["scholars"]


@cache
def reading_decisions() -> list[dict]:
    """Reviewed decisions on 今文/古文 statements the grammar does not read (``readings.toml``)."""
    return _toml("readings.toml").get("reading", [])


CORRECTIONS = DATA_DIR / "corrections.toml"


@cache
def corrections() -> list[dict]:
    """Reviewed corrections (校改): decisions the text alone cannot make, each with a reason."""
    return read_toml(CORRECTIONS).get("correction", [])


@cache
def correction_lines() -> dict[str, int]:
    """The line of each correction's ``[[correction]]`` header, by its id (for messages)."""
    entries = corrections()
    lines = table_lines(read_text(CORRECTIONS, "data files are UTF-8"), "correction")
    return {str(entry.get("id")): line for entry, line in zip(entries, lines)}


@cache
def restorations() -> list[dict]:
    """Characters the simplified seeds merged (简体合并字), restored from the 文渊阁 text, each reviewed."""
    return _toml("restorations.toml").get("restoration", [])


@cache
def misprints() -> list[dict]:
    """Misprints of the 文渊阁 text's 音义 (讹字), each reviewed: the form the phonology reads."""
    return _toml("misprints.toml").get("misprint", [])


def stands() -> list[dict]:
    """Suspected misprints reviewed as standing (``[[stands]]`` of misprints.toml: a form, a real difference)."""
    return _toml("misprints.toml").get("stands", [])


@cache
def drops() -> list[dict]:
    """Lines to drop (watermarks), each with its pattern and reason."""
    return _toml("drops.toml")["drop"]


CATALOGUE = DATA_DIR / "catalogue.toml"


@cache
def catalogue() -> dict:
    """The 通解's 目録 in its 卷首 and the titles it writes otherwise than the 篇 (``catalogue.toml``)."""
    return read_toml(CATALOGUE)


@cache
def catalogue_alias_lines() -> list[int]:
    """The line of each ``[[alias]]`` header of ``catalogue.toml``, in order (for messages)."""
    return table_lines(read_text(CATALOGUE, "data files are UTF-8"), "alias")


@cache
def parallels() -> dict:
    """The 篇 compared across the works and within one work (``parallels.toml``, 互见)."""
    return _toml("parallels.toml")


PAGE_JOINS = DATA_DIR / "page_joins.toml"


COLUMN_JOINS = DATA_DIR / "column_joins.toml"


def _numbered(path: Path, table: str) -> list[tuple[int, dict]]:
    """The ``[[table]]`` entries of a data file, each with the line of its header (for messages)."""
    entries = read_toml(path).get(table, [])
    return list(zip(table_lines(read_text(path, "data files are UTF-8"), table), entries))


@cache
def page_joins() -> list[tuple[int, dict]]:
    """The 通解's paragraphs cut by a page break, each decided (頁末斷段): (line of its ``[[join]]``, entry)."""
    return _numbered(PAGE_JOINS, "join")


@cache
def column_joins() -> list[tuple[int, dict]]:
    """The 通解's paragraphs cut at the foot of a column counted under 20 cells that run on (列末斷段):
    (line of its ``[[join]]``, entry)."""
    return _numbered(COLUMN_JOINS, "join")


NOTE_RUNS = DATA_DIR / "note_runs.toml"


@cache
def note_runs() -> list[tuple[int, dict]]:
    """Notes of the 通解 its transcription writes as large text, each read against the 句读 (注文錄作大字):
    (line of its ``[[run]]``, entry)."""
    return _numbered(NOTE_RUNS, "run")


@cache
def jing_runs() -> list[tuple[int, dict]]:
    """Runs of the 通解 next to a note that read like 音义 and were read as 经 (``[[jing]]`` of the same
    file): (line of the entry, entry)."""
    return _numbered(NOTE_RUNS, "jing")


DIAGRAMS = DATA_DIR / "diagrams.toml"


@cache
def diagrams() -> list[tuple[int, dict]]:
    """The diagrams printed in the book (图), each reviewed: (line of its ``[[diagram]]``, entry)."""
    return _numbered(DIAGRAMS, "diagram")


@cache
def sources() -> dict:
    """The titles 朱熹 names as a paragraph's source, and the words before them (``sources.toml``)."""
    return _toml("sources.toml")
