"""What the PDFs hold (字体检查): every character in a font, none lost, for the report of (e).

For each PDF of a LaTeX build directory (``make latexpdf``'s ``build/latex``):

* ``pages`` — ``pdfinfo``;
* ``fonts``, ``fonts_not_embedded`` — ``pdffonts``: every font the PDF uses, and those it does
  not embed (a reader's machine would substitute them);
* ``missing_glyphs`` — xelatex's ``Missing character: There is no X in font Y!`` lines of the
  document's ``.log``: each is a character printed as nothing or as a .notdef box (tofu);
* from ``pdftotext`` (the text a reader copies): ``beyond_bmp`` (characters above U+FFFF: they need a
  font of the supplementary planes), ``stand_ins`` (〓, the mark of a character Unicode lacks: expected
  once per gaiji of the apparatus), ``replacement`` (U+FFFD), and ``han_lost``: the Han
  characters of the ``.tex`` source that the PDF's text does not hold at all;
* from ``pdftotext -bbox`` (where each word stands): ``margin_overprinted``, the pages where two words
  of a margin (a passage's number and 文渊阁 page, its counterparts) overlap, and ``margin_near_edge``,
  the margin words nearer the paper's edge than 8 mm.

External tools missing (poppler-utils): the fields they give are ``None``.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

#: xelatex's line (TeX wraps its log at 79 columns, so the font's name may run onto the next line):
#: ``Missing character: There is no 𰬸 (U+30B38) in font HanaMinB Regular/OT:language=dflt;!``
MISSING = re.compile(r"^Missing character: There is no (\S+)(?: \(U\+[0-9A-F]+\))? in font ([^!]*)!", re.M)
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def _tool(*cmd: str) -> str | None:
    if not shutil.which(cmd[0]):
        return None
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    return proc.stdout if proc.returncode == 0 else None


def fonts(pdf: Path) -> list[dict] | None:
    """``pdffonts``' rows: name, type, embedded."""
    out = _tool("pdffonts", str(pdf))
    if out is None:
        return None
    rows = []
    for line in out.splitlines()[2:]:
        parts = line.split()
        # name type [type…] encoding emb sub uni object ID: emb is the 5th field from the end
        if len(parts) >= 7:
            rows.append({"name": parts[0], "embedded": parts[-5] == "yes"})
    return rows


def pages(pdf: Path) -> int | None:
    out = _tool("pdfinfo", str(pdf))
    found = re.search(r"^Pages:\s+(\d+)", out or "", re.M)
    return int(found.group(1)) if found else None


def text_figures(pdf: Path, tex: Path | None) -> dict:
    text = _tool("pdftotext", "-enc", "UTF-8", str(pdf), "-")
    if text is None:
        return {"beyond_bmp": None, "stand_ins": None, "replacement": None, "han_lost": None}
    in_pdf = set(text)
    lost = None
    if tex is not None and tex.exists():
        lost = sorted(set(HAN.findall(tex.read_text(encoding="utf-8", errors="replace"))) - in_pdf)
    return {"beyond_bmp": sum(1 for c in text if ord(c) > 0xFFFF),
            "beyond_bmp_distinct": len({c for c in text if ord(c) > 0xFFFF}),
            "stand_ins": text.count("〓"), "replacement": text.count("\ufffd"),
            "han_lost": lost, "text_chars": len(text)}


#: The text block's sides in PDF points: A4 (210 mm wide) with ``source/conf.py``'s 30 mm side margins;
#: a word wholly outside them is in a margin, and none comes nearer the paper's edge than 8 mm.
POINTS_PER_MM = 72 / 25.4
PAPER_WIDTH, SIDE_MARGIN, PAPER_EDGE = 210 * POINTS_PER_MM, 30 * POINTS_PER_MM, 8 * POINTS_PER_MM
TEXT_LEFT, TEXT_RIGHT = SIDE_MARGIN, PAPER_WIDTH - SIDE_MARGIN
Word = tuple[float, float, float, float, str]  # x0, y0, x1, y1 (points, from the top of the page), the word


def margins(pdf: Path) -> list[tuple[int, str, list[Word]]] | None:
    """The words of each page's two margins: (page, "left" or "right", words); None without pdftotext."""
    xhtml = _tool("pdftotext", "-bbox", str(pdf), "-")
    if xhtml is None:
        return None
    xhtml = re.sub(r"<!DOCTYPE[^>]*>", "", xhtml).replace(' xmlns="http://www.w3.org/1999/xhtml"', "")
    found = []
    for number, page in enumerate(ElementTree.fromstring(xhtml).iter("page"), 1):
        words = [(float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")), float(w.get("yMax")), w.text)
                 for w in page.iter("word")]
        found.append((number, "left", [w for w in words if w[2] < TEXT_LEFT]))
        found.append((number, "right", [w for w in words if w[0] > TEXT_RIGHT]))
    return found


def overprinted(words: list[Word]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap (by more than a point each way)."""
    return [(one[4], other[4]) for i, one in enumerate(words) for other in words[i + 1:]
            if min(one[2], other[2]) - max(one[0], other[0]) > 1 and min(one[3], other[3]) - max(one[1], other[1]) > 1]


def near_edge(words: list[Word]) -> list[str]:
    """The words nearer the paper's left or right edge than ``PAPER_EDGE``."""
    return [w[4] for w in words if w[0] < PAPER_EDGE or w[2] > PAPER_WIDTH - PAPER_EDGE]


def margin_figures(pdf: Path) -> dict:
    found = margins(pdf)
    if found is None:
        return {"margin_overprinted": None, "margin_near_edge": None}
    return {"margin_overprinted": len({page for page, _, words in found if overprinted(words)}),
            "margin_near_edge": sum(len(near_edge(words)) for _, _, words in found)}


def check(latex_dir: Path) -> dict:
    """The figures above for every PDF of ``latex_dir``."""
    out = {}
    for pdf in sorted(Path(latex_dir).glob("*.pdf")):
        log = pdf.with_suffix(".log")
        missing = ([(char, font.replace("\n", "")) for char, font in
                    MISSING.findall(log.read_text(encoding="utf-8", errors="replace"))] if log.exists() else None)
        found = fonts(pdf)
        out[pdf.name] = {
            "bytes": pdf.stat().st_size,
            "pages": pages(pdf),
            "fonts": None if found is None else len(found),
            "fonts_not_embedded": None if found is None else [f["name"] for f in found if not f["embedded"]],
            "missing_glyphs": None if missing is None else len(missing),
            "missing_examples": None if missing is None else sorted(set(missing))[:10],
        } | text_figures(pdf, pdf.with_suffix(".tex")) | margin_figures(pdf)
    return out
