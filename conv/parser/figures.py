"""Figures (图): a reviewed diagram of the book (``conv.reader.diagrams``) as one passage of the layer
``figure`` in its section, its printed columns → cells, each with its text and span.

The passage's ``text`` is every text character of the block in reading order (columns right to left,
cells top down, a pair's right half before its left): the text characters of its span, as for any
passage. Conservation counts the cells' spans, not the passage's (``conv.model.conservation``): every
character of the block lies in exactly one cell. A diagram printed right after a section title
(公食大夫禮: ``右為賔設加饌`` then the dishes' places) stands after that title, in its section, as the
通解's 记 items filed after a title do.
"""
from __future__ import annotations

from conv.model.tree import Cell, Column, Passage, text_chars
from conv.normalize import fold
from conv.reader.diagrams import Block
from conv.reader.source import page_at


def block_at(source, start: int, end: int) -> Block | None:
    """The diagram the parser's line ``[start, end)`` (its text, blanks stripped) lies in, None if none; a line partly in
    one (the block's lines joined to text outside it) is an error at the line."""
    for block in source.diagrams:
        if start < block.end and end > block.start:
            if not (block.start <= start and end <= block.end):
                raise source.error(start, "a diagram of conv/data/diagrams.toml shares its line with text outside it "
                                   "(the block's columns are joined to the lines around it)",
                                   "check the entry's first and last line against the witness and its page and column joins")
            return block
    return None


def place(parser, block: Block) -> None:
    """At the diagram's first line: end what is open and add the figure to its section (the section
    of a title whose line just ended, else the current one); its other lines add nothing."""
    target = parser.title_section if parser.title_held else None
    parser.title_held = False
    parser.end_title_mode()
    parser.close_passage()
    parser.ensure_chapter(block.start)
    parser.flush_meta()
    (target or parser.ensure_section()).passages.append(figure(block, parser.src, parser.report))


def figure(block: Block, source, report) -> Passage:
    """The passage of layer ``figure`` of ``block`` in ``source`` (its transliterated text)."""
    text = source.text
    columns = []
    for draft in block.columns:
        cells = [Cell(cell.kind, [text_chars(text, a, b) for a, b in cell.halves], report.span(cell.start, cell.end),
                      cell.end - cell.start if cell.kind == "gap" else 0) for cell in draft.cells]
        columns.append(Column(draft.line, report.span(draft.start, draft.end), page_at(source, draft.start), cells))
    words = "".join(half for column in columns for cell in column.cells for half in cell.halves)
    if words != text_chars(text, block.start, block.end):
        raise source.error(block.start, "the diagram's cells do not hold every character of its lines",
                           "this is a converter bug: please report it with the entry of conv/data/diagrams.toml")
    return Passage(id="", layer="figure", text=words, normalized=fold(words), span=report.span(block.start, block.end),
                   columns=columns, caption=block.caption)
