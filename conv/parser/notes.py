"""Notes (注): a note draft's units → the model's segments, each with its layer and glosses.

The units are classified into layers (``conv.parser.segments``; a bare 疏曰/疏云 is split off
first); a reviewed layer correction (``conv.parser.corrections``) overrides the layer and is
recorded in the apparatus. Glosses that open or end a 注 or 按 unit (``gloss_edges.embedded``:
便其事也扑普卜反) are cut off into a 音义 segment of their own. The first segment of a note whose
start is lost and the last one of a note still open at the end of the seed are lacunae. Only 音义
segments (``yin``) hold glosses, each with its reading (``conv.parser.phonology``).
"""
from __future__ import annotations

from dataclasses import replace

from conv.model.tree import Gloss, Segment
from conv.normalize import FoldedSource, is_cjk
from conv.parser import gloss_edges, gloss_remarks, glosses as gloss_parser
from conv.parser import collation_notes, phonology, sources
from conv.parser.corrections import Corrections
from conv.parser.drafts import NoteDraft
from conv.parser.report import SeedReport
from conv.parser.restorations import read_form, restore
from conv.parser.segments import BARE_MARKS, WITNESS_MARKS, Unit, classify, split_shu


#: What may stand between a note's first character and the text before it: its opening (【; the
#: 文渊阁 transcription's ``(`` is read as 【) and a line's end (the transcription's ``¶`` and line
#: break, read as blanks).
NOTE_OPENINGS = "【( ¶\n"
NOTE_EDGES = "【】()"  # where the text before a note begins: the note before it
LEMMAS = 80


class NoteSegmenter:
    """Turns the note drafts of one seed, of one work's layout, into segments."""

    def __init__(self, report: SeedReport, folded: FoldedSource, corrections: Corrections, layout: str,
                 restored: dict[int, dict] | None = None, witness: bool = False) -> None:
        self.report = report
        self.folded = folded
        self.corrections = corrections
        self.layer_corrections = corrections.applies(report.seed, "layer")
        self.layout = layout
        self.restored = restored or {}  # seed offset → restoration (conv.parser.restorations)
        self.marks = WITNESS_MARKS if witness else BARE_MARKS  # where a 通解 segment starts unseparated

    def segments(self, note: NoteDraft, mulu: bool, still_open: bool) -> list[Segment]:
        """The segments of ``note``; ``mulu``: a chapter title's note; ``still_open``: no 】 came."""
        report = self.report
        units = split_shu([unit for unit in note.units if unit.offsets], self.layout, self.marks)
        runs: dict[int, tuple] = {}  # the gloss runs classify parsed already
        lemmas = self._lemmas(units[0]) if units and self.layout == "tongjie" else ""
        before = lemmas[-1] if lemmas and not mulu and is_cjk(lemmas[-1]) else ""  # the character the note follows
        layers = classify(units, self.layout, mulu, runs, before, lemmas)
        out = []
        words = lemmas  # the 经 and the note's words before the unit: what a reading ending it may read
        for index, (unit, layer) in enumerate(zip(units, layers)):
            correction = self.corrections.layer(report.seed, unit.text) if self.layer_corrections else None
            if correction is not None:
                if correction["layer"] == layer:
                    raise self.corrections.unneeded(correction, layer)
                report.record("correction", unit.offsets[0], unit.offsets[-1] + 1, reason=correction["reason"], decision=f"layer: {correction['layer']} (not {layer})", correction=correction["id"])
                layer = correction["layer"]
            pieces = [piece for whole in _pieces(unit, layer, runs.get(index) if layer == "yin" else None, self.layout,
                                                 words)
                      for piece in _collation_tail(*whole, self.layout)]
            if self.layout == "tongjie":
                pieces = [cut for piece in pieces for cut in _closing_source(*piece)]
            for number, (piece, piece_layer, parsed) in enumerate(pieces):
                lacuna = None
                if note.lacuna == "start" and index == 0 and number == 0:
                    lacuna = "start"
                if note.close_line is None and still_open and index == len(units) - 1 and number == len(pieces) - 1:
                    lacuna = "end"
                segment = self._segment(piece, piece_layer, lacuna)
                segment.glosses = self.glosses(segment, parsed)
                out.append(segment)
            words += unit.text
        return out

    def _lemmas(self, unit: Unit) -> str:
        """The text right before the note ``unit`` opens (``NOTE_OPENINGS`` between), back to the note before it
        (at most ``LEMMAS`` characters): the 经 whose words the note reads (其蟲倮(倮力果反…)); its last character,
        when one of the text, is the one a reading printed without its character glosses (樂闋(苦穴反))."""
        text = self.report.src.text
        end = unit.offsets[0]
        while end > 0 and text[end - 1] in NOTE_OPENINGS:
            end -= 1
        start = end
        while start > max(0, end - LEMMAS) and text[start - 1] not in NOTE_EDGES:
            start -= 1
        return text[start:end]

    def _segment(self, unit: Unit, layer: str, lacuna: str | None) -> Segment:
        offsets = unit.offsets
        pieces = ((offsets.start, offsets.stop),) if type(offsets) is range else [(o, o + 1) for o in offsets]
        return Segment(layer=layer, text=unit.text, normalized=self.folded.fold(unit.text, pieces),
                       span=self.report.span(offsets[0], offsets[-1] + 1), lacuna=lacuna, offsets=offsets)

    def glosses(self, segment: Segment, parsed: tuple | None = None) -> list[Gloss]:
        """The glosses of a 音义 segment; ``parsed``: ``parse_run`` of its text, when known."""
        if segment.layer != "yin":
            return []
        read = read_form(segment.text, segment.offsets, self.restored)  # a reviewed misprint in its right form (厭鄪: 鄭)
        if read != segment.text:
            found, unparsed = gloss_parser.parse_run(read)
            found = [replace(g, text=segment.text[g.start:g.end]) for g in found]  # the text keeps what is printed
        else:
            found, unparsed = parsed if parsed is not None else gloss_parser.parse_run(segment.text)
        for a, b in unparsed:
            why = gloss_parser.unread_reason(segment.text, a, found)
            self.report.problem(segment.offsets[a], "unparsed-gloss", f"音义 {segment.text!r}: {segment.text[a:b]!r} is {why} (it stays in the 音义): check the witness, or extend conv/parser/glosses.py")
        out = []
        for g in found:
            span = self.report.span(segment.offsets[g.start], segment.offsets[g.end - 1] + 1)
            sounded, restored = restore(g, segment.offsets[g.start:g.end], self.restored)
            reading = phonology.reading(sounded)
            out.append(Gloss(
                g.char, g.kind, g.upper, g.lower, g.sound, g.text, span, position=reading.position,
                positions=reading.positions, status=reading.status, second=g.second, context=g.context,
                definition=g.definition, scope=g.scope, remark=g.remark, related=g.related, note=reading.note,
                alternatives=reading.alternatives, homophone=reading.homophone, restored=restored,
                before=g.before,
            ))
        return out


def _pieces(unit: Unit, layer: str, parsed: tuple | None, layout: str,
            lemmas: str = "") -> list[tuple[Unit, str, tuple | None]]:
    """A 注 or 按 unit cut where glosses open or end it (``gloss_edges.embedded``: 便其事也 | 扑普卜反;
    辩音遍 | 亦每献荐于其位…): each run of glosses is a 音义 segment of its own, so the reader's 音义
    toggle governs it. Any other unit is one piece. ``(unit, layer, parsed glosses)`` each. Prose after
    the glosses of a 音义 unit is 张尔岐's remark (``an``) in the 句读, the 注 going on in the 通解."""
    if layer == "yin" and parsed is not None and (at := _prose_after(unit.text, *parsed)) is not None:
        kept = [g for g in parsed[0] if g.end <= at]  # 還音旋 | 向席取俎轉身以授人…: 张尔岐's remark
        rest = _cut(unit, at, len(unit.text))
        after = _rest_layer(rest, "an" if layout == "judou" else "zhu", layout)
        return [(_cut(unit, 0, at), "yin", (kept, [])), *_pieces(rest, after, None, layout)]
    edged = ("zhu", "an", "shu") if layout == "tongjie" else ("zhu", "an")  # …捼乃禾反莎息禾反: after the 通解's 疏 too
    found = gloss_edges.embedded(unit.text, lemmas) if layer in edged else []
    if layout == "tongjie" and layer == "zhu":
        found = _opening_readings(unit.text, found, lemmas)
    if not found:
        return [(unit, layer, parsed)]
    runs: list[list] = []
    for gloss in found:
        if runs and runs[-1][-1].end == gloss.start:
            runs[-1].append(gloss)
        else:
            runs.append([gloss])
    pieces, at = [], 0
    for run in runs:
        start, end = run[0].start, run[-1].end
        if start > at:
            pieces.append((_cut(unit, at, start), layer, None))
        shifted = [replace(g, start=g.start - start, end=g.end - start) for g in run]
        whole = gloss_parser.parse_run(unit.text[start:end])  # read again as a 音义 of its own: 婉行晚反徐紆願反 (徐's)
        pieces.append((_cut(unit, start, end), "yin", whole if not whole[1] else (shifted, [])))
        at = end
    if at < len(unit.text):  # (…擯必忍反士相見禮): the source 朱熹 names after the glosses (出处)
        rest = _cut(unit, at, len(unit.text))
        pieces.append((rest, _rest_layer(rest, layer, layout), None))
    return pieces


def _opening_readings(text: str, found: list, lemmas: str) -> list:
    """``found`` (the glosses at a 通解 注's edges) with the readings the 注 opens with after them, in one
    parentheses (疑魚乙反｜疑正立自定之貌; 祺音其福叶筆勒反｜爾女也…: ``gloss_edges.opening_readings``)."""
    at = 0
    for gloss in found:
        if gloss.start != at:
            break
        at = gloss.end
    more = [replace(g, start=g.start + at, end=g.end + at) for g in gloss_edges.opening_readings(text[at:], lemmas)]
    if not more:
        return found
    return [g for g in found if g.end <= at] + more + [g for g in found if g.start >= more[-1].end]


TAIL_HEAD = 3  # the fewest characters of a 注 before 校语 that end it: fewer are the 校语's (埋胔｜吕作霾髊…: the
# word it reads; 以｜淮誓作贊: the end of the clause before), and the whole unit is 校语


def _collation_tail(unit: Unit, layer: str, parsed: tuple | None, layout: str) -> list[tuple[Unit, str, tuple | None]]:
    """A 注 of the 通解 that 月令's 校语 end (…凡周之法以正月和之｜淮職作賦地作墜無以給下十字, …亦舉其成數｜唐此下有其性義其事言):
    the 注, then the 校语 (``collation_notes.LAYER``): ``collation_notes.ending`` or a quotation (``quotation_at``)."""
    if layout != "tongjie" or layer != "zhu":
        return [(unit, layer, parsed)]
    cuts = [at for at in (collation_notes.ending(unit.text), collation_notes.quotation_at(unit.text, 1)) if at is not None]
    if not cuts:
        return [(unit, layer, parsed)]
    if min(cuts) < TAIL_HEAD:
        return [(unit, collation_notes.LAYER, None)]
    return [(_cut(unit, 0, min(cuts)), layer, None), (_cut(unit, min(cuts), len(unit.text)), collation_notes.LAYER, None)]


def _rest_layer(rest: Unit, layer: str, layout: str) -> str:
    """The layer of what follows a note's glosses: in the 通解 出处 when it is a source's name (…擯必忍反士相見禮),
    校语 when it opens with 月令's (繕市戰反｜吕繕作謹淮無是月也及具桎梏字…)."""
    if layout != "tongjie":
        return layer
    return sources.LAYER if sources.is_source(rest.text) else collation_notes.LAYER if collation_notes.opens(rest.text) else layer


PROSE = 8  # the fewest characters of a remark after a 音义 that holds no mark of a gloss (反 切 音)


def _prose_after(text: str, found: list, unparsed: list[tuple[int, int]]) -> int | None:
    """Where prose begins in a 音义 unit that opens with glosses (the 句读's ``還音旋向席取俎轉身以授人
    註云…``, ``盛音成盛於肵俎…``): the first stretch the grammar cannot read when it is ``PROSE``
    characters or more with no 反, 切 or 音 in it, or opens as 郑注 does (``gloss_remarks.zhu_phrase_at``), and
    glosses come before it; else None (a short tail such as ``字彚曰同結`` stays in the 音义, reported)."""
    for start, end in unparsed:
        piece = text[start:end]
        if found and found[0].end <= start and (end - start >= PROSE and not any(mark in piece for mark in "反切音")
                                                or gloss_remarks.zhu_phrase_at(text, start)
                                                or end == len(text) and sources.is_source(piece)):
            return start  # (鄉去聲｜方猶道也: 郑注's words after the 音义, however short; …和户卧反｜少儀: the 出处)
    return None


def _closing_source(unit: Unit, layer: str, parsed: tuple | None) -> list[tuple[Unit, str, tuple | None]]:
    """A 注, 疏 or 按 whose words close with the source of the paragraph (…故也以上曲禮): the source a
    segment of its own (出处, ``conv.parser.sources``)."""
    at = sources.closing(unit.text) if layer in ("zhu", "shu", "an") else None
    if at is None:
        return [(unit, layer, parsed)]
    return [(_cut(unit, 0, at), layer, parsed), (_cut(unit, at, len(unit.text)), sources.LAYER, None)]


def _cut(unit: Unit, start: int, end: int) -> Unit:
    return Unit(unit.text[start:end], unit.offsets[start:end], unit.ordinal)
