"""The whole edition: the converter's pages for all seeds, the real ``source/conf.py`` and
``source/index.md``, built with ``-W -j 2`` (parallel reading merges the ``yl`` domain data)."""
from __future__ import annotations

import pickle
import re
import shutil
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT

PUA = re.compile("[\ue000-\uf8ff]")


@pytest.fixture(scope="module")
def edition(tmp_path_factory, sphinx_build):
    src = tmp_path_factory.mktemp("edition") / "source"
    src.mkdir()
    for name in ("conf.py", "index.md"):
        shutil.copy(ROOT / "source" / name, src / name)
    shutil.copytree(ROOT / "source" / "notes", src / "notes")  # the hand-written editorial notes
    proc = subprocess.run([sys.executable, "-m", "conv", "build", "--edition", "seeds", "--out", str(src)],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        pytest.fail(f"conversion failed:\n{proc.stderr[-3000:]}", pytrace=False)
    return sphinx_build(src, "html", "-j", "2")


def test_edition_builds_and_renders(edition):
    from conv.sphinx_ext.nodes import yl_passage

    pages = sorted(p for p in edition.outdir.glob("*/*.html")
                   if p.stem != "index" and p.parent.name != "apparatus")  # back matter: test_indices
    assert {p.parent.name for p in pages} == {"judou", "tongjie"}
    with (edition.doctreedir / "environment.pickle").open("rb") as handle:
        data = pickle.load(handle).domaindata["yl"]
    total = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not PUA.search(html), page
        soup = BeautifulSoup(html, "html.parser")
        divs = soup.select("div.yl-passage")
        assert divs, page
        docname = f"{page.parent.name}/{page.stem}"
        doctree = edition.doctree(docname)
        anchors = [p["ids"][0] for p in doctree.findall(yl_passage)]
        assert [d["id"] for d in divs] == anchors
        assert all(data["passages"][a]["docname"] == docname for a in anchors)
        for div in divs:
            for note in div.select(".yl-ednote-ref"):  # an editorial note is not witness text
                note.decompose()
            assert not re.search(r"\s", div.get_text()), (div["id"], div.get_text()[:30])
        total += len(anchors)
    assert len(data["passages"]) == total


def test_front_page_links_every_chapter(edition):
    soup = BeautifulSoup(edition.html("index"), "html.parser")
    links = {a["href"].split("#")[0] for a in soup.select(".sd-card a.reference.internal")}
    chapters = {f"{p.parent.name}/{p.name}" for p in edition.outdir.glob("*/*.html")
                if p.stem != "index" and not p.stem.startswith("glosses-")}  # the 音义索引's pages: from its first
    assert chapters <= links
    assert {"judou/index.html", "tongjie/index.html"} <= links
