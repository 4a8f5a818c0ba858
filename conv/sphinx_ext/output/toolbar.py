"""The reader's toolbar and the styles (阅读工具栏与样式).

HTML:

- ``static/yili.css``: layer styles, the diplomatic/normalized switch, CJK font stacks, the
  toolbar (sticky under furo's header), print rules;
- the toolbar's markup is written into each page with passages at build time
  (``html-page-context``, :func:`toolbar_html`): a checkbox per commentary layer the page has
  (注 疏 按 音义 目录) and the 底本/规范 radio buttons, then an inline call that sets them to the
  saved choice before they are drawn;
- ``static/yili-head.js`` is inlined in ``<head>`` (:func:`head_script`, appended to the
  ``metatags`` template variable, which every theme writes in ``<head>``: furo puts the scripts
  Sphinx is given at the end of ``<body>``, after the first paint): it applies the saved choice
  (``localStorage`` ``yili.view``) to ``<html>`` before the first paint, so hidden notes never
  flash and the page never reflows;
- ``static/yili.js`` (deferred) saves each change and follows other tabs;
- ``static/gloss-tip.js`` (deferred): the tip of an 音义 gloss (``text/glosses.py``) and of an
  apparatus mark (``backmatter/apparatus.py``).

Without JavaScript the toolbar is hidden and every layer is shown in the diplomatic view.

LaTeX: ``static/yili.sty`` (the ``ylpassage`` and ``ylline`` environments, ``\\ylnote``,
``\\yltext``, ``\\ylgap``, ``\\ylopen``/``\\ylclose``), copied next to the ``.tex`` file.
"""
from __future__ import annotations

import json
import shutil
from functools import lru_cache
from html import escape
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from conv.sphinx_ext.nodes import yl_chaptertitle, yl_char, yl_emend, yl_forms, yl_passage, yl_segment, yl_title, yl_trad
from conv.sphinx_ext.util import LAYER_NAMES, SEGMENT_LAYERS, STATIC_DIR, layer_names
from conv.sphinx_ext.walk import elements

#: The two views of the characters: key, label, tooltip.
VIEWS = (
    # the 底本 view shows each stretch in its own witness's forms: the seeds' simplified
    # transcription (录入本, which merged characters the 文渊阁 copy keeps apart: 着/著, 干/乾/幹) or
    # the 文渊阁 text's traditional ones; the chapter's head and the join marks say which is which
    ("diplomatic", "底本", "底本字形：各段照录其底本，录入本为简体，文渊阁本为繁体（篇首注明各段所据；异体、避讳缺笔字加标记；"
                            "录入本之简体字或合并文渊阁本有别之字，见校勘记“简体合并之字”）"),
    ("normalized", "规范", "规范字形：异体归并，私用区字校正，代字据文渊阁本改"),
    # the 文渊阁 forms: the seeds' stretches through the collation, the witness's own as they are
    ("traditional", "繁体", "文渊阁本字形：录入本各段依对校所得文渊阁本之字，文渊阁本各段照录"),
)


def setup_toolbar(app: Sphinx) -> None:
    app.connect("builder-inited", add_assets)
    app.connect("html-page-context", add_toolbar)
    app.add_latex_package("yili")


@lru_cache(maxsize=1)
def head_script() -> str:
    """``static/yili-head.js`` with the layers' keys filled in (inlined in ``<head>``)."""
    source = (STATIC_DIR / "yili-head.js").read_text(encoding="utf-8")
    return source.replace("__LAYERS__", json.dumps(list(SEGMENT_LAYERS)))


def add_assets(app: Sphinx) -> None:
    if app.builder.format == "html":
        if str(STATIC_DIR) not in app.config.html_static_path:
            app.config.html_static_path.append(str(STATIC_DIR))
        app.add_css_file("yili.css")
        app.add_js_file("yili.js", loading_method="defer")
        app.add_js_file("gloss-tip.js", loading_method="defer")
    elif app.builder.format == "latex":
        Path(app.builder.outdir).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(STATIC_DIR / "yili.sty", Path(app.builder.outdir) / "yili.sty")


def page_marks(doctree: nodes.document) -> tuple[list[str] | None, bool]:
    """What the toolbar needs of a page, in one walk: :func:`page_layers` and
    :func:`has_witness_forms`."""
    text, layers, forms = False, set(), False
    for node in elements(doctree, (yl_segment, yl_passage, yl_title, yl_chaptertitle, yl_trad, yl_emend, yl_char, yl_forms)):
        if isinstance(node, yl_segment):
            layers.add(node["layer"])
        elif isinstance(node, (yl_passage, yl_title, yl_chaptertitle)):
            text = True
        elif isinstance(node, yl_trad) or node.get("trad") or (
                isinstance(node, yl_emend) and node.get("basis") != "misprint"):  # a misprint: read right, no 文渊阁 form
            forms = True
    return ([layer for layer in SEGMENT_LAYERS if layer in layers] if text else None), forms


def page_layers(doctree: nodes.document) -> list[str] | None:
    """The commentary layers of a page in the toolbar's order, or ``None`` for a page without
    passages or titles (no toolbar)."""
    return page_marks(doctree)[0]


def has_witness_forms(doctree: nodes.document) -> bool:
    """Does the page show anything in the 繁体 view that the 底本 view does not (a collated seed's
    文渊阁 forms, an emendation)? Else its toolbar offers no 繁体 view."""
    return page_marks(doctree)[1]


def toolbar_html(layers: list[str], traditional: bool = True, names: dict[str, str] = LAYER_NAMES) -> str:
    """The toolbar's markup (reader-facing: Chinese only); ``traditional``: with the 繁体 view;
    ``names``: the layers' names in their tips (``util.layer_names`` of the page)."""
    out = ['<div class="yl-toolbar" role="group" aria-label="阅读设置">']
    if layers:  # a page of 经 alone (原序, a lost 篇) has no layer to show or hide
        out.append('<fieldset class="yl-toolbar-group yl-toolbar-layers"><legend>层次</legend>')
        for layer in layers:
            out.append(f'<label class="yl-toggle" title="显示或隐藏{escape(names[layer])}">'
                       f'<input type="checkbox" data-layer="{layer}" checked>'
                       f'<span class="yl-swatch yl-swatch-{layer}">{escape(SEGMENT_LAYERS[layer])}</span></label>')
        out.append('</fieldset>')
    out.append('<fieldset class="yl-toolbar-group yl-toolbar-view"><legend>字形</legend>')
    for key, label, title in VIEWS:
        if key == "traditional" and not traditional:
            continue
        checked = " checked" if key == "diplomatic" else ""
        out.append(f'<label class="yl-toggle" title="{escape(title)}"><input type="radio" '
                   f'name="yl-view" value="{key}" data-view="{key}"{checked}>'
                   f'<span>{escape(label)}</span></label>')
    out.append("</fieldset></div>")
    out.append("<script>window.YL_VIEW && YL_VIEW.sync(YL_VIEW.load());</script>")
    return "".join(out)


def add_toolbar(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The head script on every page; the toolbar at the top of a page with passages (before
    its heading)."""
    context["metatags"] = context.get("metatags", "") + f"\n<script>{head_script()}</script>\n"
    if doctree is None or "body" not in context:
        return
    layers, forms = page_marks(doctree)
    if layers is None:
        return
    context["body"] = toolbar_html(layers, forms, layer_names(pagename)) + context["body"]
