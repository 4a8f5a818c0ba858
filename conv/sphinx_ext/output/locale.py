"""The theme's interface in Chinese (界面汉化): furo's strings Sphinx's zh_CN catalog lacks.

furo translates its interface ("On this page", "Back to top", "Skip to content", Previous/Next…)
through Sphinx's ``sphinx`` message catalog, and Sphinx's zh_CN catalog has none of these strings.
``locale/<language>.po`` (a data file) holds them; at setup it is compiled with Babel (a
dependency of Sphinx) into ``<doctreedir>/yl-locale/<language>/LC_MESSAGES/sphinx.mo`` and added
with ``app.add_message_catalog("sphinx", …)``: a *fallback* of Sphinx's own catalog, so every
string Sphinx translates keeps its translation. The search language (``lzh``) is a separate
setting (``html_search_language``) and leaves ``language = "zh_CN"`` alone.
"""
from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from sphinx.application import Sphinx

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"


def setup_locale(app: Sphinx) -> None:
    language = app.config.language or ""
    source = LOCALE_DIR / f"{language}.po"
    if not source.is_file():
        return
    target_dir = Path(app.doctreedir) / "yl-locale"
    target = target_dir / language / "LC_MESSAGES" / "sphinx.mo"
    if not target.is_file() or target.stat().st_mtime < source.stat().st_mtime:
        target.parent.mkdir(parents=True, exist_ok=True)
        with source.open("rb") as handle:
            catalog = read_po(handle, locale=language)
        partial = target.with_name(f"sphinx.mo.{id(catalog)}")
        with partial.open("wb") as handle:
            write_mo(handle, catalog)
        partial.replace(target)  # atomic: a parallel build never reads half a file
    app.add_message_catalog("sphinx", str(target_dir))
