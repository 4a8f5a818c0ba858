"""Reader pages hold no developer material (issue 22, point 7): no seed file name, no ``conv/``
path and no English sentence in what a reader sees (text, tooltips, alternative text) on any page
of the seeds' edition's HTML; the maintainers' listing keeps them. The front page's reading notes
name the marks this edition shows."""
from __future__ import annotations

import re

from bs4 import BeautifulSoup, Comment

from front_page import marks_named_but_missing

#: Three or more English words in a row (an anchor such as judou-xiangshe-s3 is not a sentence).
ENGLISH = re.compile(r"[A-Za-z]{2,}(?:[ ,'’]+[A-Za-z]+){2,}")
DEVELOPER = re.compile(r"\d{3}_[0-9a-f]{16}\.txt|\bconv/|\.toml\b|\.py\b")
SEEN_ATTRIBUTES = ("title", "alt", "placeholder", "data-tip", "data-cite")


def reader_pages(outdir):
    for page in sorted(outdir.rglob("*.html")):
        relative = page.relative_to(outdir).as_posix()
        if not relative.startswith(("_static/", "_sources/", "_maintainers/")):
            yield relative, page


def seen_texts(html: str) -> list[str]:
    """What a reader can see of a page: its text (not scripts, styles, comments) and the
    attributes shown as tooltips or in the edition's tips."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style", "noscript", "svg"]):
        hidden.decompose()
    for comment in soup.find_all(string=lambda s: isinstance(s, Comment)):
        comment.extract()
    texts = [soup.get_text(" ")]
    for tag in soup.find_all(True):
        texts += [value for name, value in tag.attrs.items()
                  if name in SEEN_ATTRIBUTES and isinstance(value, str)]
    return texts


def test_no_reader_page_shows_developer_material(edition_html):
    found = {}
    pages = list(reader_pages(edition_html.outdir))
    assert len(pages) > 25
    for relative, page in pages:
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", html), f"{relative}: a seed's file name"
        bad = {m.group() for text in seen_texts(html) for m in ENGLISH.finditer(text)}
        bad |= {m.group() for text in seen_texts(html) for m in DEVELOPER.finditer(text)}
        if bad:
            found[relative] = sorted(bad)
    assert found == {}


def test_the_maintainers_listing_keeps_sources_and_reasons(edition_html):
    listing = (edition_html.outdir / "_maintainers" / "apparatus.tsv").read_text(encoding="utf-8")
    lines = listing.splitlines()
    assert lines[0] == "page\tentry\tlabel\tkind\tlocus\tsource\treason"
    rows = [line.split("\t") for line in lines[1:]]
    assert len(rows) > 60 and all(len(row) == 7 for row in rows)
    assert all(re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt:\d+:\d+", row[5]) for row in rows)
    watermark = next(row for row in rows if row[3] == "dropped")
    assert "website watermark" in watermark[6]
    # linked from no page
    for _, page in reader_pages(edition_html.outdir):
        assert "_maintainers" not in page.read_text(encoding="utf-8")


def test_the_front_page_names_only_marks_the_seeds_edition_shows(edition_html):
    """The reading notes named the joins of the two witnesses (〔以下据文渊阁本〕), which the seeds' edition has
    none of; its lacunae (〔前阙〕…) it does show."""
    assert marks_named_but_missing(edition_html.outdir) == []
    assert "〔前阙〕" in (edition_html.outdir / "index.html").read_text(encoding="utf-8")
