"""Typed warnings (警告类型, ``conv/sphinx_ext/warnings_.py``): every warning of the extension has
a subtype of ``YlWarning``; each subtype can be silenced with ``suppress_warnings``; the README
lists them all."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conv.sphinx_ext.warnings_ import YlWarning

ROOT = Path(__file__).resolve().parents[1]

CONF = """\
project = "警告"
language = "zh_CN"
extensions = ["myst_parser", "conv.sphinx_ext"]
myst_enable_extensions = ["colon_fence"]
smartquotes = False
html_theme = "basic"
suppress_warnings = {suppressed!r}
"""

INDEX = """\
# 警告

```{toctree}
text
notes
```
"""

#: A page with one warning of each kind the text and the references can give.
TEXT = """\
(warn-chapter)=
# 篇

::::{yl:passage} warn-1
:layer: jing

*经*执\ue000弓

:::{yl:zhu}
注{yl:gloss}`天地`
:::
::::

::::{yl:passage} warn!2
:layer: jing

经
::::

:::{yl:zhu}
无所附之注
:::

{yl:cite}`warn-99`
"""

NOTES = """\
# 校注

:::{yl:note} warn-77
:author: 编者

校注
:::
"""

#: What each kind's warning says on that page: the kind is found by its message, not only its tag.
MESSAGES = {
    YlWarning.MARKUP: "witness text parsed as markup",
    YlWarning.STRUCTURE: "outside a yl:passage",
    YlWarning.ANCHOR: "'warn!2' is not a valid id",
    YlWarning.CITE: "unknown anchor 'warn-99'",
    YlWarning.NOTE: "anchor 'warn-77' does not exist",
    YlWarning.PUA: "U+E000",
    YlWarning.GLOSS: "yl:gloss '天地'",
}


def build(tmp_path: Path, suppressed: list[str]) -> str:
    """The warnings of a build of the small project with ``suppress_warnings = suppressed``."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF.format(suppressed=suppressed), encoding="utf-8")
    for name, text in (("index", INDEX), ("text", TEXT), ("notes", NOTES)):
        (src / f"{name}.md").write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-d",
                           str(tmp_path / "doctrees"), str(src), str(tmp_path / "html")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stderr


def kinds(warnings: str) -> dict[YlWarning, list[str]]:
    """The warning lines of each kind (``… [yl.cite]``)."""
    found: dict[YlWarning, list[str]] = {}
    for line in warnings.splitlines():
        match = re.search(r"\[yl\.(\w+)\]$", line)
        if match:
            found.setdefault(YlWarning(match[1]), []).append(line)
    return found


def test_the_subtypes_are_the_documented_ones():
    assert [kind.type for kind in YlWarning] == [
        "yl.markup", "yl.structure", "yl.anchor", "yl.cite", "yl.note", "yl.pua", "yl.gloss"]
    source = (ROOT / "conv/sphinx_ext/warnings_.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    enum = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "YlWarning")
    documented = [first.targets[0].id for first, second in zip(enum.body, enum.body[1:])
                  if isinstance(first, ast.Assign) and isinstance(second, ast.Expr)
                  and isinstance(second.value, ast.Constant) and len(second.value.value) > 20]
    assert documented == [kind.name for kind in YlWarning]


def test_every_warning_of_the_extension_has_a_typed_subtype():
    """Every ``warn`` call passes a member of ``YlWarning``; nothing else logs a ``yl`` warning."""
    untyped = []
    for path in sorted((ROOT / "conv/sphinx_ext").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if isinstance(node.func, ast.Name) and node.func.id == "warn":
                subtype = node.args[1] if len(node.args) > 1 else None
                if not (isinstance(subtype, ast.Attribute) and isinstance(subtype.value, ast.Name)
                        and subtype.value.id == "YlWarning" and subtype.attr in YlWarning.__members__):
                    untyped.append(where)
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "warning" \
                    and any(k.arg == "subtype" for k in node.keywords) and path.name != "util.py":
                untyped.append(where)
    assert untyped == []


@pytest.fixture(scope="module")
def unsuppressed(tmp_path_factory) -> str:
    return build(tmp_path_factory.mktemp("warnings-all"), [])


def test_the_small_project_gives_every_kind(unsuppressed):
    found = kinds(unsuppressed)
    assert set(found) == set(YlWarning), unsuppressed
    for kind, message in MESSAGES.items():
        assert any(message in line for line in found[kind]), (kind, found[kind])


def test_every_kind_suppressed_no_warning(tmp_path):
    warnings = build(tmp_path, [kind.type for kind in YlWarning])
    assert "WARNING" not in warnings, warnings


def test_each_kind_is_suppressed_alone(tmp_path):
    """Half the kinds suppressed: exactly the other half is still reported."""
    silenced = list(YlWarning)[::2]
    found = kinds(build(tmp_path, [kind.type for kind in silenced]))
    assert set(found) == set(YlWarning) - set(silenced)


def test_the_readme_lists_every_kind():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Warnings"):]
    section = section[:section.index("\n#", 1)]
    listed = re.findall(r"^\| `(yl\.\w+)` \|", section, flags=re.MULTILINE)
    assert listed == [kind.type for kind in YlWarning]
    assert "suppress_warnings" in section
