"""Walks that find nothing are not taken (``conv/sphinx_ext/speed/walks.py``): the gated transforms
skip the pages that hold nothing of theirs, and every page comes out the same as without the gates
— also pages that hold what they look for: sphinx-design components (in a page and in an editor's
note placed on a chapter page), a card opening in a new tab, a code block, a table, math, a
footnote and an image."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from docutils import nodes

ROOT = Path(__file__).resolve().parents[1]

PROBE = """\
(probe)=
# 试页

::::{tab-set}
:::{tab-item} 甲
经文
:::
:::{tab-item} 乙
注文
:::
::::

:::{dropdown} 展开
内容
:::

:::{card} 卡
:link: https://example.org/
:link-new-tab:
正文
:::

```python
>>> 1 + 1  # doctest: +SKIP
2
```

| 甲 | 乙 |
|---|---|
| 丙 | 丁 |

```{math}
a^2
```

脚注[^1]。

[^1]: 注。

![图](pic.svg)

```{glossary}
:sorted:

甲项
  一

乙项
  二
```

```{index} single: 射侯
```

下载 {download}`图 <pic.svg>`。

```{only} html
唯网页见之
```

```{only} latex
唯印本见之
```

```{py:function} she(hou)
射侯。
```

```{eval-rst}
引 [CIT2002]_ ，版 |version| ，见 `jia`_ 。

.. _jia: https://example.org/jia

.. [CIT2002] 文献。

  >>> 1 + 1
  2
```
"""

NOTE = """
::::{yl:note} judou-xiangshe-51
:author: 编者
:date: 2026-12-01

试注。

:::{dropdown} 注中展开
注中内容
:::
::::
"""

REPORT = """
def _yl_report_skips(app, exception):
    import json
    from conv.sphinx_ext.speed import walks
    (app.outdir / "skipped.json").write_text(json.dumps(dict(walks.skipped(app.builder))))

def setup(app):
    app.connect("build-finished", _yl_report_skips)
"""


def _project(tmp: Path, edition_source: Path) -> Path:
    src = tmp / "source"
    shutil.copytree(edition_source, src, ignore=shutil.ignore_patterns("_build"))
    (src / "probe.md").write_text(PROBE, encoding="utf-8")
    (src / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>', encoding="utf-8")
    with (src / "index.md").open("a", encoding="utf-8") as index:
        index.write("\n```{toctree}\n:hidden:\n\nprobe\n```\n")
    notes = src / "notes" / "judou" / "xiangshe.md"
    notes.write_text(notes.read_text(encoding="utf-8") + NOTE, encoding="utf-8")
    return src


def _build(tmp: Path, name: str, src: Path, gates: bool) -> Path:
    conf = tmp / f"conf-{name}"
    conf.mkdir()
    text = (ROOT / "source/conf.py").read_text(encoding="utf-8")
    text += '\nextensions.remove("conv.sphinx_ext.speed")\n'
    if gates:
        text += 'extensions.append("conv.sphinx_ext.speed.walks")\n' + REPORT
    (conf / "conf.py").write_text(text, encoding="utf-8")
    out = tmp / name
    result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-j", "1",
                             "-c", str(conf), "-d", str(tmp / f"doctrees-{name}"), "-b", "html",
                             str(src), str(out)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def test_the_gates_change_no_page(tmp_path, edition_source):
    src = _project(tmp_path, edition_source)
    gated, plain = _build(tmp_path, "gated", src, True), _build(tmp_path, "plain", src, False)
    pages = sorted(p.relative_to(plain) for p in plain.rglob("*") if p.suffix in (".html", ".js", ".inv"))
    assert len(pages) > 30
    differ = [str(rel) for rel in pages if (gated / rel).read_bytes() != (plain / rel).read_bytes()]
    assert differ == []
    probe = (plain / "probe.html").read_text(encoding="utf-8")
    for made in ('class="sd-tab-set', "sd-dropdown", 'target="_blank"', "table-wrapper", "math-wrapper",
                 'class="highlight-python', "footnote", 'class="citation', 'href="#cit2002"', 'class="doctest',
                 'id="index-0"'):
        assert made in probe  # each gated transform had work on the probe page, and did it
    assert probe.index("乙项") < probe.index("甲项")  # the glossary sorted (乙 U+4E59 before 甲 U+7532)
    assert "|version|" not in probe and "<blockquote>" not in probe
    assert 'href="#jia"' in probe and 'class="reference download' in probe
    assert "唯网页见之" in probe and "唯印本见之" not in probe  # the only directives, kept and dropped
    assert 'class="sig sig-object py"' in probe  # the description's domain as a class (PropagateDescDomain)
    for made in (gated, plain):  # the image and the download collected and copied
        assert (made / "_images" / "pic.svg").is_file() and list((made / "_downloads").rglob("pic.svg"))
    chapter = (plain / "judou" / "xiangshe.html").read_text(encoding="utf-8")
    assert "注中展开" in chapter and "sd-dropdown" in chapter  # the note's dropdown, placed and shaped
    skipped = json.loads((gated / "skipped.json").read_text(encoding="utf-8"))
    chapters = len(list((src / "judou").glob("*.md"))) + len(list((src / "tongjie").glob("*.md")))
    # the chapter pages hold no tab set, code, table or image: each walk skipped them all (and more)
    for name in ("sphinx_design.tabs.TabSetHtmlTransform", "furo.WrapTableAndMathInAContainerTransform",
                 "sphinx.transforms.post_transforms.code.HighlightLanguageTransform",
                 "sphinx.transforms.post_transforms.images.ImageDownloader",
                 "sphinx_design.extension._resolve_new_tab_refs",
                 "sphinx.builders.latex.transforms.FootnoteDocnameUpdater",
                 "sphinx.transforms.DefaultSubstitutions", "sphinx.transforms.MoveModuleTargets",
                 "sphinx.transforms.HandleCodeBlocks", "sphinx.transforms.AutoIndexUpgrader",
                 "sphinx.transforms.DoctestTransform", "sphinx.transforms.GlossarySorter",
                 "sphinx.domains.citation.CitationDefinitionTransform",
                 "sphinx.domains.citation.CitationReferenceTransform",
                 "sphinx.transforms.references.SphinxDanglingReferences",
                 "sphinx.environment.collectors.asset.ImageCollector.process_doc",
                 "sphinx.environment.collectors.asset.DownloadFileCollector.process_doc",
                 "sphinx.transforms.post_transforms.OnlyNodeTransform",
                 "sphinx.transforms.post_transforms.PropagateDescDomain"):
        assert skipped.get(name, 0) >= chapters - 1, (name, skipped)
    # …but not the pages that hold them: every page but the probe is skipped by the code gate
    pages_written = len([p for p in pages if p.suffix == ".html"])
    assert skipped["sphinx.transforms.post_transforms.code.HighlightLanguageTransform"] < pages_written


def test_a_census_sees_every_kind_and_mark():
    from conv.sphinx_ext.speed.walks import Census

    document = nodes.document(None, None)
    box = nodes.container(design_component="dropdown")
    box += nodes.paragraph("", "", nodes.footnote_reference("", "1"))
    document += box
    census = Census.of(document)
    assert census.holds(nodes.footnote_reference) and census.holds(nodes.Inline)  # subclasses count
    assert not census.holds(nodes.table, nodes.image)
    assert census.marks == {"design_component"}


#: The registry's transforms in the order an HTML build applies them, read in a fresh interpreter (a
#: Sphinx application made in the test process would take over the logging and the node registry
#: of the session's in-process application, ``conftest.myst_app``).
_REGISTRY_SCRIPT = """
import json, sys
from sphinx.application import Sphinx
from conv.sphinx_ext.speed import walks

def supported(transform):
    return all(not getattr(transform, attribute, ()) or value in getattr(transform, attribute)
               for attribute, value in (("builders", "html"), ("formats", "html")))

project, confdir, out = sys.argv[1:]
app = Sphinx(project, confdir, out + "/html", out + "/doctrees", "html", status=None, warning=None, freshenv=True)
phases = {}
for phase, registered in (("write", app.registry.get_post_transforms()), ("read", app.registry.get_transforms())):
    order = sorted((t for t in registered if supported(t)), key=lambda t: t.default_priority)
    phases[phase] = [[walks.name_of(t), t.default_priority, bool(getattr(t, "yl_gated", False))] for t in order]
print(json.dumps(phases))
"""


def _registry_order(tmp_path: Path) -> dict:
    project = Path(__file__).resolve().parent / "fixtures" / "project"
    done = subprocess.run([sys.executable, "-c", _REGISTRY_SCRIPT, str(project), str(ROOT / "source"), str(tmp_path)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_between_the_census_and_the_gates_no_transform_makes_what_they_look_for(tmp_path):
    """A page's census is taken when its first gated transform runs. The transforms that run after
    it, before a gated one, are these, reviewed: none makes a node a gated one looks for. (In the
    read, the collectors of ``doctree-read`` (880) are the last that could miss one; translated and
    translatable marks are made by i18n's ``Locale`` alone, before the census.)"""
    reviewed_write = {
        "sphinx_design.badges_buttons.BadgeRefTooltipGraft",  # not in the order today; harmless: attributes
        "sphinx.transforms.post_transforms.SigElementFallbackTransform",  # desc_sig_* → inline
        "sphinx.transforms.post_transforms.PropagateDescDomain",  # classes of desc nodes
    }
    reviewed_read = {
        "sphinx.transforms.compact_bullet_list.RefOnlyBulletListTransform",  # flattens lists of refs
        "conv.sphinx_ext.refs.ednotes_safety.RefuseRawHtml",  # removes raw HTML from notes
        "sphinx.transforms.DefaultSubstitutions", "sphinx.transforms.MoveModuleTargets",
        "sphinx.transforms.HandleCodeBlocks", "sphinx.transforms.AutoNumbering",
        "sphinx.transforms.AutoIndexUpgrader", "sphinx.transforms.ReorderConsecutiveTargetAndIndexNodes",
        "sphinx.transforms.SortIds", "conv.sphinx_ext.text.cjk.CJKNewlines",  # text and ids
        "sphinx.transforms.DoctestTransform", "sphinx.transforms.GlossarySorter",
        "conv.sphinx_ext.refs.parallels.IntoPassage",  # moves yl_parallel nodes
        "sphinx.domains.citation.CitationDefinitionTransform", "sphinx.domains.citation.CitationReferenceTransform",
        "myst_parser.mdit_to_docutils.transforms.UnreferencedFootnotesDetector",  # reports, makes none
        "sphinx_design.extension.AddFirstTitleCss",  # a class on a title
        # up to the dangling references' gate (850) and the collectors of doctree-read (880)
        "conv.sphinx_ext.text.segments.SegmentPlacement",  # a paragraph around a stray segment
        "conv.sphinx_ext.text.glosses.SecondReadings", "conv.sphinx_ext.text.titles.HeadingText",  # attributes, text
        "sphinx.transforms.SphinxSmartQuotes", "conv.sphinx_ext.refs.ednotes_directive.NoteFootnotes",  # text; moves footnotes
        "conv.sphinx_ext.text.titles.SectionAnchors", "conv.sphinx_ext.refs.cite.CiteTargets",  # ids, labels
        "sphinx.transforms.references.SphinxDomains",  # domains' processing of the doc
        "conv.sphinx_ext.backmatter.terms_found.TermOccurrences",  # index entries of terms
        "sphinx.versioning.UIDTransform",  # uids (versioning builders only)
        "sphinx.transforms.DoctreeReadEvent",  # its other listeners (toctree, titles, apparatus…) record, make no image
    }
    phases = _registry_order(tmp_path)
    for phase, reviewed, until in (("write", reviewed_write, 10_000), ("read", reviewed_read, 881)):
        order = phases[phase]
        gated = [i for i, (_, _, is_gated) in enumerate(order) if is_gated]
        assert len(gated) >= 3
        between = {name for name, priority, is_gated in order[gated[0]:] if not is_gated and priority < until}
        assert between <= reviewed, f"review what these make: {sorted(between - reviewed)}"
    assert {name for name, _, is_gated in phases["write"] if is_gated} >= {
        "sphinx_design.tabs.TabSetHtmlTransform", "furo.WrapTableAndMathInAContainerTransform",
        "sphinx.transforms.post_transforms.code.HighlightLanguageTransform"}
