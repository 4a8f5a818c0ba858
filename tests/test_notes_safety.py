"""Editorial notes from contributors are safe to merge (issue 21, point 7): a note is MyST without
raw HTML (an HTML block, inline HTML or a ``{raw}`` directive is refused at its ``file:line`` and
left out of every page), its ``:date:`` is a real calendar date, and an unknown ``{yl:cite}`` in a
note is reported once (not once per page the note is shown on)."""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from notes_projects import notes_project

NOTES = """\
(notes-judou-xiangshe)=
# 乡射礼校注

:::{yl:note} judou-xiangshe-18
:author: 测试者

好注。<script>document.body.setAttribute("data-pwned", "inline")</script>
:::

:::{yl:note} judou-xiangshe-3

<script>document.body.setAttribute("data-pwned", "block")</script>

又一注。
:::

:::{yl:note} judou-xiangshe-5

```{raw} html
<script>document.body.setAttribute("data-pwned", "raw")</script>
```
:::

:::{yl:note} judou-xiangshe-7
:date: 2026-13-45

日期有误。
:::

:::{yl:note} judou-xiangshe-8
:date: 2026-02-30

日期有误。
:::

:::{yl:note} judou-xiangshe-9
:date: 2024-02-29

闰日无误，引{yl:cite}`judou-xiangshe-99999`。
:::
"""


@pytest.fixture(scope="module")
def build(tmp_path_factory, sphinx_build):
    src = notes_project(tmp_path_factory.mktemp("unsafe-notes"), {"judou/xiangshe.md": NOTES}, ledger=False)
    return src, sphinx_build(src, "html", check=False)


def test_raw_html_is_refused_at_its_line(build):
    src, result = build
    where = re.escape(str(src / "notes" / "judou" / "xiangshe.md"))
    assert result.returncode != 0
    for line in (7, 12, 19):
        assert re.search(where + rf":{line}: WARNING: editorial notes are MyST without raw HTML", result.warnings), \
            result.warnings


def test_no_script_reaches_a_page(build):
    _, result = build
    for docname in ("notes/judou/xiangshe", "judou/xiangshe"):
        scripts = BeautifulSoup(result.html(docname), "html.parser").find_all("script")
        assert scripts and not [s for s in scripts if "data-pwned" in s.decode()]
    assert "好注。" in result.html("notes/judou/xiangshe")  # the note itself is kept


def test_dates_are_calendar_dates(build):
    src, result = build
    where = re.escape(str(src / "notes" / "judou" / "xiangshe.md"))
    assert re.search(where + r":2[0-9]: .*'2026-13-45' is not a date", result.warnings), result.warnings
    assert re.search(where + r":3[0-9]: .*'2026-02-30' is not a date", result.warnings), result.warnings
    assert "2024-02-29" in result.html("notes/judou/xiangshe")


def test_an_unknown_citation_is_reported_once(build):
    _, result = build
    assert result.warnings.count("unknown anchor 'judou-xiangshe-99999'") == 1, result.warnings
