"""The index of terms and the general index are taken from the last build (名物索引、总索引留存).

An editor changes a notes page (one more sentence, as the benchmark's (d)): no passage is read
again, no index entry changes, and the optional speed layer (``conv/sphinx_ext/speed/``:
``terms_cache.py``, ``genindex.py``) gives both indices back from what the last build kept: the
build never loads the terms' readings (pypinyin) and never has Sphinx sort the general index
(``IndexEntries.create_index``). An edit that adds an index entry makes the general index again.
That the pages are those of a clean build is ``tests/test_incremental.py``'s part.
"""
from __future__ import annotations


import re
import subprocess
import sys
from pathlib import Path

from incremental_project import NOTES_PAGE, ROOT, add_sentence, edition

#: sphinx-build in one process (``-j 1``), reporting what it loaded and made.
RUNNER = """
import sys
from sphinx.environment.adapters.indexentries import IndexEntries
made = []
create_index = IndexEntries.create_index
def counted(self, *args, **kwargs):
    made.append(1)
    return create_index(self, *args, **kwargs)
IndexEntries.create_index = counted
from sphinx.cmd.build import main
status = main(sys.argv[1:])
print("YL pypinyin", "pypinyin" in sys.modules, "create_index", len(made))
sys.exit(status)
"""


def build(src: Path, out: Path) -> tuple[bool, int]:
    """(pypinyin loaded?, general indices made) of ``sphinx-build -W -b html -j 1``."""
    proc = subprocess.run([sys.executable, "-c", RUNNER, "-W", "--keep-going", "-b", "html",
                           "-j", "1", "-d", str(out / "doctrees"), str(src), str(out / "html")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    found = re.search(r"^YL pypinyin (True|False) create_index (\d+)$", proc.stdout, re.M)
    assert found, proc.stdout[-2000:]
    return found.group(1) == "True", int(found.group(2))


def test_notes_edit_takes_both_indices_from_the_last_build(tmp_path):
    src = edition(tmp_path / "inc")
    out = tmp_path / "out"
    assert build(src, out) == (True, 1)  # cold: both made
    terms_page = (out / "html" / "yl-terms.html").read_text(encoding="utf-8")
    genindex = (out / "html" / "genindex.html").read_text(encoding="utf-8")
    categories = {p.name: p.read_text(encoding="utf-8") for p in (out / "html").glob("yl-terms-*.html")}
    assert "yl-terms-qi.html" in categories and 'id="yl-term-' in categories["yl-terms-qi.html"]
    add_sentence(src / NOTES_PAGE, "校记补一：一事。")
    assert build(src, out) == (False, 0)  # both kept: no readings loaded, no index sorted
    assert (out / "html" / "yl-terms.html").read_text(encoding="utf-8") == terms_page
    # the categories' pages (yl-terms-<id>.html) are written again, from the last build's
    assert {p.name: p.read_text(encoding="utf-8") for p in (out / "html").glob("yl-terms-*.html")} == categories
    assert (out / "html" / "genindex.html").read_text(encoding="utf-8") == genindex
    assert "校记补一：一事" in (out / "html" / "judou" / "xiangshe.html").read_text(encoding="utf-8")
    # an index entry in the note: the general index is made again and shows it
    add_sentence(src / NOTES_PAGE, "校记补二：又一事{index}`校记词`。")
    assert build(src, out) == (False, 1)
    assert "校记词" in (out / "html" / "genindex.html").read_text(encoding="utf-8")
