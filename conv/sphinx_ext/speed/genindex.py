"""The general index, kept between builds (总索引留存).

Every HTML build writes ``genindex.html``: Sphinx groups and sorts every index entry of the
environment (``IndexEntries.create_index``) and the theme draws each of them, also when no entry
changed — an editor changed a notes page without an index entry. On the whole 仪礼 (its terms
are in the general index: one entry per term and chapter) that is about 0.5 s of CPU, a sixth of
such a rebuild (``bench/results/latest.md``).

The page's content block (the part of the theme's ``genindex.html`` that shows the entries) is a
function of what :func:`genindex_signature` digests: every index entry of every page, each page's
URI from the index page, the builder, the language, the theme and its version, under the
signature every kept value has (``conv.sphinx_ext.speed.kept``: the files of ``conv/`` — this
module's template among them — and the versions of Sphinx, MyST and docutils). The first build
keeps the block in ``yl-genindex.pickle`` in the doctree directory: ``templates/genindex.html``
(added to ``templates_path`` here) hands it over through ``yl_keep_genindex``; a later build whose
signature is the kept one gives it back as ``yl_genindex_html`` and skips ``create_index``. The
rest of the page (navigation, head, footer) is drawn as always.

Private API (checked against Sphinx 9.0 and Furo 2025.12): ``StandaloneHTMLBuilder.write_genindex``
is wrapped on the builder instance; the context it gives ``handle_page`` (``genindexentries``,
``genindexcounts``, ``split_index``) is Sphinx 9.0's; Furo uses the entries only in its ``content``
block. A split index (``html_split_index``) is made as always.
"""
from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from conv.sphinx_ext.util import use_templates
from conv.sphinx_ext.speed.kept import Signature, read_kept, write_kept
from conv.sphinx_ext.speed.search_entries import index_entries_signature
from conv.sphinx_ext.speed.versions import compatible, installed

logger = logging.getLogger(__name__)

TEMPLATES = Path(__file__).with_name("templates")
GENINDEX_FILE = "yl-genindex.pickle"
#: Builders whose ``write_genindex`` is Sphinx's own, and the themes whose ``genindex.html`` uses
#: the entries only in its ``content`` block (what ``templates/genindex.html`` replaces).
GENINDEX_BUILDERS = ("html", "dirhtml")
GENINDEX_THEMES = ("furo",)


def setup_genindex(app: Sphinx) -> None:
    if not compatible("general index"):
        return
    use_templates(app, TEMPLATES)
    app.connect("builder-inited", reuse_genindex)
    app.connect("html-page-context", keep_genindex)


def genindex_signature(builder) -> Signature:
    """The signature of the general index's content block (see the module docstring)."""
    entries = builder.env.get_domain("index").entries
    uris = [(docname, builder.get_relative_uri("genindex", docname)) for docname in sorted(entries)]
    theme = builder.config.html_theme
    return index_entries_signature(builder).with_inputs(
        "genindex", builder.name, builder.config.language, theme, installed(theme), uris)


def reuse_genindex(app: Sphinx) -> None:
    """Wrap the builder's ``write_genindex`` (Sphinx 9.0): the page's content block comes from
    the last build when nothing it shows changed, else it is made and kept."""
    builder = app.builder
    if (builder.name not in GENINDEX_BUILDERS or app.config.html_theme not in GENINDEX_THEMES
            or "write_genindex" in vars(builder)):
        return
    original = builder.write_genindex

    def write_genindex() -> None:
        if builder.config.html_split_index:
            original()
            return
        made_from = genindex_signature(builder)
        path = Path(builder.env.doctreedir) / GENINDEX_FILE
        body = read_kept(path, made_from)
        if isinstance(body, str):
            logger.info("genindex ", nonl=True)  # as Sphinx's write_genindex logs it
            builder.handle_page("genindex", {"genindexentries": [], "genindexcounts": [],
                                             "split_index": False, "yl_genindex_html": body},
                                "genindex.html")
            return
        builder.yl_genindex_kept = kept = []
        try:
            original()
        finally:
            builder.yl_genindex_kept = None
        if len(kept) == 1:  # the template gave its content block: kept for the next build
            write_kept(path, made_from, kept[0])

    builder.write_genindex = write_genindex


def keep_genindex(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """While ``write_genindex`` makes the page, the template hands its content block over."""
    kept = getattr(app.builder, "yl_genindex_kept", None)
    if pagename == "genindex" and kept is not None and "yl_genindex_html" not in context:

        def yl_keep_genindex(body):
            kept.append(str(body))
            return body

        context["yl_keep_genindex"] = yl_keep_genindex
