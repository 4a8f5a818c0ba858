"""The fixture project with editorial notes of a test's own (校注测试项目): the small project of
real seed text (``tests/fixtures/project``) with a ``notes/`` tree and, unless told otherwise, an
anchor ledger in which judou-xiangshe-900 was retired for -13 (``test_notes.py``,
``test_notes_safety.py``)."""
from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURE_PROJECT, ROOT

CONF = (
    "from pathlib import Path\n"
    f"_conf = Path({str(ROOT / 'source' / 'conf.py')!r})\n"
    "exec(compile(_conf.read_text(encoding='utf-8'), str(_conf), 'exec'))\n"
)
NOTES_INDEX = """\
(notes)=
# 校注

```{toctree}
:glob:

*/*
```
"""
# the fixture project's ledger: judou-xiangshe-900 was retired, its citations land on -13
LEDGER = (
    "judou-xiangshe-13\tlive\t-\t0123456789abcdef\t000_065af0aba9fcdf9d.txt\t0\t1\t众宾未拾取矢\n"
    "judou-xiangshe-900\tredirect\tjudou-xiangshe-13\t0123456789abcdef\t000_065af0aba9fcdf9d.txt"
    "\t0\t1\t旧文\tmerged\n"
)


def notes_project(base: Path, notes: dict[str, str], ledger: bool = True) -> Path:
    """The fixture project (real seed text) with ``notes`` (path under notes/ → MyST)."""
    src = base / "src"
    shutil.copytree(FIXTURE_PROJECT, src, ignore=shutil.ignore_patterns("conf.py"))
    (src / "conf.py").write_text(CONF + ('yl_anchor_ledger = "ledger.tsv"\n' if ledger else ""),
                                 encoding="utf-8")
    if ledger:
        (src / "ledger.tsv").write_text(LEDGER, encoding="utf-8")
    index = src / "index.md"
    text = index.read_text(encoding="utf-8")
    assert "judou/index\ntongjie/index\n```" in text
    index.write_text(text.replace("tongjie/index\n```", "tongjie/index\nnotes/index\n```"),
                     encoding="utf-8")
    (src / "notes").mkdir()
    (src / "notes" / "index.md").write_text(NOTES_INDEX, encoding="utf-8")
    for name, body in notes.items():
        path = src / "notes" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return src
