"""The reader's toolbar and the styles (阅读工具栏与样式).

HTML: ``static/yili.css`` (layer styles, diplomatic/normalized switch, CJK font stacks) and
``static/yili.js`` (a toolbar on pages with passages: show or hide 注 疏 按 音义 目录, switch
底本/规范 view; the choice is kept in ``localStorage`` under ``yili.view``). Without JavaScript
every layer is shown in the diplomatic view.

LaTeX: ``static/yili.sty`` (the ``ylpassage`` and ``ylline`` environments, ``\\ylnote``,
``\\yltext``, ``\\ylgap``, ``\\ylopen``/``\\ylclose``), copied next to the ``.tex`` file.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.application import Sphinx
from conv.sphinx_ext.util import STATIC_DIR



def setup_toolbar(app: Sphinx) -> None:
    app.connect("builder-inited", add_assets)
    app.add_latex_package("yili")


def add_assets(app: Sphinx) -> None:
    if app.builder.format == "html":
        if str(STATIC_DIR) not in app.config.html_static_path:
            app.config.html_static_path.append(str(STATIC_DIR))
        app.add_css_file("yili.css")
        app.add_js_file("yili.js")
    elif app.builder.format == "latex":
        Path(app.builder.outdir).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(STATIC_DIR / "yili.sty", Path(app.builder.outdir) / "yili.sty")
