"""Warnings name the line of the text they are about: a gloss inside a note or a metadata line is
reported at that line of the page, whether the body is read by the fast path or through MyST."""
from __future__ import annotations

import re

import pytest

from conv.sphinx_ext.text import body

PAGE = """# 篇

::::{yl:passage} judou-xiangshe-901
:layer: jing

经文

:::{yl:zhu}
注文
:::

:::{yl:yin}
{yl:gloss}`某某某`
:::

:::{yl:yin}
:lacuna: end
乙{yl:gloss}`某某某`
:::
::::

:::{yl:meta} juan
卷{yl:gloss}`某某某`
:::
"""


def gloss_warning_lines(myst_app) -> list[int]:
    app, docname = myst_app.app, "locations-probe"
    myst_app.take_warnings()
    try:
        myst_app.parse(PAGE, docname)
        found = re.findall(rf"{docname}\.md:(\d+): WARNING: yl:gloss", myst_app.take_warnings())
    finally:  # the shared application forgets the page (its anchor, its label)
        app.events.emit("env-purge-doc", app.env, docname)
        app.env.clear_doc(docname)
    return [int(line) for line in found]


@pytest.mark.parametrize("fast", [True, False])
def test_gloss_warnings_name_their_line(myst_app, monkeypatch, fast):
    if not fast:
        monkeypatch.setattr(body, "fast_path", lambda directive: False)
    # the glosses stand on lines 13 (a note), 18 (a note after its :lacuna: line), 23 (yl:meta)
    assert gloss_warning_lines(myst_app) == [13, 18, 23]
