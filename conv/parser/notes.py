"""Notes (注): a note draft's units → the model's segments, each with its layer and glosses.

The units are classified into layers (``conv.parser.segments``; 通解 splits a bare 疏曰/疏云 off
first); a reviewed layer correction (``conv.parser.corrections``) overrides the layer and is
recorded in the apparatus. The first segment of a note whose start is lost and the last one of a
note still open at the end of the seed are lacunae. The glosses of a segment are those of its 音义
run (``yin``), or those embedded in 郑注 and the editor's remarks (``zhu``, ``an``), each with its
reading (``conv.parser.phonology``).
"""
from __future__ import annotations

from conv.model.tree import Gloss, Segment
from conv.normalize import FoldedSource
from conv.parser import glosses as gloss_parser
from conv.parser import phonology
from conv.parser.corrections import Corrections
from conv.parser.drafts import NoteDraft
from conv.parser.report import SeedReport
from conv.parser.segments import classify, split_bare_shu


class NoteSegmenter:
    """Turns the note drafts of one seed, of one work's layout, into segments."""

    def __init__(self, report: SeedReport, folded: FoldedSource, corrections: Corrections, layout: str) -> None:
        self.report = report
        self.folded = folded
        self.corrections = corrections
        self.layer_corrections = corrections.applies(report.seed, "layer")
        self.layout = layout

    def segments(self, note: NoteDraft, mulu: bool, still_open: bool) -> list[Segment]:
        """The segments of ``note``; ``mulu``: a chapter title's note; ``still_open``: no 】 came."""
        report = self.report
        units = [unit for unit in note.units if unit.offsets]
        if self.layout == "tongjie":
            units = split_bare_shu(units)
        runs: dict[int, tuple] = {}  # the gloss runs classify parsed already
        layers = classify(units, self.layout, mulu, runs)
        out = []
        for index, (unit, layer) in enumerate(zip(units, layers)):
            correction = self.corrections.layer(report.seed, unit.text) if self.layer_corrections else None
            if correction is not None:
                report.record("correction", unit.offsets[0], unit.offsets[-1] + 1, reason=correction["reason"], decision=f"layer: {correction['layer']} (not {layer})", correction=correction["id"])
                layer = correction["layer"]
            lacuna = None
            if note.lacuna == "start" and index == 0:
                lacuna = "start"
            if note.close_line is None and still_open and index == len(units) - 1:
                lacuna = "end"
            offsets = unit.offsets
            pieces = ((offsets.start, offsets.stop),) if type(offsets) is range else [(o, o + 1) for o in offsets]
            segment = Segment(layer=layer, text=unit.text, normalized=self.folded.fold(unit.text, pieces), span=report.span(offsets[0], offsets[-1] + 1), lacuna=lacuna, offsets=offsets)
            segment.glosses = self.glosses(segment, runs.get(index) if layer == "yin" else None)
            out.append(segment)
        return out

    def glosses(self, segment: Segment, parsed: tuple | None = None) -> list[Gloss]:
        """The glosses of a segment; ``parsed``: ``parse_run`` of its text, when known."""
        if segment.layer == "yin":
            found, unparsed = parsed if parsed is not None else gloss_parser.parse_run(segment.text)
            for a, b in unparsed:
                self.report.problem(segment.offsets[a], "unparsed-gloss", f"音义 text {segment.text[a:b]!r} is not a gloss the parser knows: check it, or extend conv/glosses.py")
        elif segment.layer in ("zhu", "an"):
            found = gloss_parser.embedded(segment.text)
        else:
            found = []
        out = []
        for g in found:
            span = self.report.span(segment.offsets[g.start], segment.offsets[g.end - 1] + 1)
            reading = phonology.reading(g)
            out.append(Gloss(
                g.char, g.kind, g.upper, g.lower, g.sound, g.text, span, position=reading.position,
                positions=reading.positions, status=reading.status, second=g.second, context=g.context,
                definition=g.definition, scope=g.scope, note=reading.note,
                alternatives=reading.alternatives, homophone=reading.homophone,
            ))
        return out
