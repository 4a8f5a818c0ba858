"""Property tests: any text round-trips through the converter with nothing lost and nothing injected."""
from __future__ import annotations

import re
import string
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conv.anchors.ledger import Ledger
from conv.edition import assemble

from conv.edition import export

from conv.myst import writer
from conv.errors import ConservationError, ConversionError
from conv.myst.escape import escape_inline
from conv.model.tree import is_markup

JING = "司射适堂西袒执弓右记疏曰云今按愚案反音如字賔乗\ueb8e\uea20\ue14b"
META = "`{}:$\\%#<>&*_[]|!-+=~^'\"()."
PIECES = st.sampled_from(
    list(JING) + list(META) + ["【", "】", "○", "\u3000", "\n", "\n\n", " ", "右司射诱射", "记器具", "疏曰", "弛尸纸反", ":::", "{yl:zhu}", "<b>", "\\section{x}", "$x$"]
)
BODIES = st.lists(PIECES, max_size=60).map("".join)
HEADS = st.sampled_from(["仪礼郑注句读\n\n", "仪礼经传通解\n\n", "儀禮鄭注句讀\n\n"])

#: The committed ledger, read once: each example converts with a fresh copy of it (as
#: ``assemble.convert`` would read it), not the file again (0.5 s an example).
LEDGER = Ledger.load()


def convert_text(text: str):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "prop_seed.txt"
        path.write_text(text, encoding="utf-8")
        return assemble.convert([path], ledger=LEDGER.copy())


def unescape(myst: str) -> str:
    return re.sub(r"\\([%s])" % re.escape(string.punctuation), r"\1", myst)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(head=HEADS, body=BODIES)
def test_any_text_conserved_or_clear_error(head, body):
    text = head + body
    try:
        edition = convert_text(text)
    except ConservationError:
        raise
    except ConversionError as error:
        assert error.seed and error.line >= 1 and error.col >= 1
        return
    data = export.edition(edition)
    # every non-markup character of the seed appears in exactly one exported text, in order
    pieces = []
    for work in data["works"]:
        pieces += [(span[1], text[span[1] : span[2]]) for span in work["title_spans"]]
        for chapter in work["chapters"]:
            items = [chapter.get("heading_span")] + [m["span"] for m in chapter["meta"]]
            items += [s["span"] for s in chapter["mulu"]]
            for section in chapter["sections"]:
                items += [section["title_span"]] + [n["span"] for n in section["title_notes"]]
                if section["ji_marker"]:
                    items.append(section["ji_marker"]["span"])
                for passage in section["passages"]:
                    items += [passage["span"]] + [n["span"] for n in passage["notes"]]
            pieces += [(span[1], text[span[1] : span[2]]) for span in items if span]
    pieces += [(d["span"][1], text[d["span"][1] : d["span"][2]]) for d in data["dropped"]]
    got = "".join(c for _, piece in sorted(pieces) for c in piece if not is_markup(c))
    assert got == "".join(c for c in text if not is_markup(c))
    # the MyST pages hold every passage and segment text, escaped so nothing can be injected
    pages = writer.pages(edition)
    for work in data["works"]:
        for chapter in work["chapters"]:
            page = pages[f"{work['id']}/{chapter['id']}.md"]
            for section in chapter["sections"]:
                for passage in section["passages"]:
                    if passage["text"]:
                        assert escape_inline(passage["text"]) in page
                        assert unescape(escape_inline(passage["text"])) == passage["text"]


def test_a_title_note_running_past_its_line_keeps_its_text():
    """Found by the property above: a section title's note that has no 】 at the end of its line
    goes on on the next line, as any note does (reported), instead of losing that line."""
    edition = convert_text("仪礼郑注句读\n\n右司\u3000【\n司射")
    data = export.edition(edition)
    (section,) = data["works"][0]["chapters"][0]["sections"]
    assert section["title"] == "右司"
    assert [(n["layer"], n["text"]) for n in section["title_notes"]] == [("an", "司射")]
    assert [(p["line"], p["col"]) for p in edition.problems if p["kind"] == "unclosed-note"] == [(4, 1)]


@given(st.text(alphabet=JING + META + "【】○\u3000\n ", max_size=80))
def test_escape_leaves_no_active_character(text):
    escaped = escape_inline(text)
    assert unescape(escaped) == " ".join(text.split())
    for i, char in enumerate(escaped):
        if char in string.punctuation and char != "\\":
            assert escaped[i - 1] == "\\"
