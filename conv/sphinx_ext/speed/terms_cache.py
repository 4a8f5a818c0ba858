"""The index of terms, kept between builds (名物索引留存).

Every HTML build asks for the content of the index of terms (``TermIndex.generate``, in Sphinx's
``prepare_writing``) and draws its page (``render_terms``, ``yl-terms.html``), also when no
passage was read again — an editor changed a notes page. Both need the terms' readings (pypinyin,
a fifth of a second to load), the listing in reading order and, for the page, the HTML of every
link: on the whole 仪礼 about 0.8 s of CPU, a quarter of such a rebuild
(``bench/results/latest.md``).

Both are a function of what :func:`terms_signature` digests — each page's passages with terms
(anchor, layer, terms, the passage's title), the page's title, the reading order, pypinyin's
version — under the signature every kept value has (``conv.sphinx_ext.speed.kept``: the files of
``conv/``, the term list among them, and the versions of Sphinx, MyST and docutils). They are kept
in the doctree directory: the content in ``yl-terms-content.pickle`` (for an index of every page;
``yl-terms-content-part.pickle`` for the pages a LaTeX build asks for), as plain tuples, and the
page's HTML in ``yl-terms-page.pickle`` under the signature extended by the builder and every
page's URI from the index page. A build whose signature is the kept one takes them from there.

The categories' pages (``yl-terms-<id>.html``, ``html-collect-pages``): ``give_category_pages``
runs before the feature's handler and hands the builder the pages (``yl_category_pages``), kept
in ``yl-terms-categories.pickle`` under the index's signature extended by the builder and every
page's URI from the categories' pages, or made now by the feature's ``make_category_pages`` and
kept; the feature writes the list it is given.

The page: ``give_kept_page`` puts the kept HTML into the page's context before the feature's
handler (which leaves a context that holds ``yl_index_html`` alone), ``keep_page`` keeps the HTML
the feature made. The content: ``KeptTermIndex`` takes the place of ``TermIndex``.

Private API (checked against Sphinx 9.0): ``app.registry.domain_indices`` — ``Sphinx.add_index_to_domain``
cannot replace an index in 9.0 (its ``_override`` is not passed on, and a second class of the same
name would be a second index).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.domains import IndexEntry
from sphinx.environment import BuildEnvironment

from conv.sphinx_ext.backmatter.terms_index import TermIndex, make_category_pages, reading_order
from conv.sphinx_ext.speed.kept import Signature, read_kept, signature, write_kept
from conv.sphinx_ext.speed.versions import compatible, installed

CONTENT_FILE = "yl-terms-content.pickle"
PART_CONTENT_FILE = "yl-terms-content-part.pickle"
PAGE_FILE = "yl-terms-page.pickle"
CATEGORIES_FILE = "yl-terms-categories.pickle"
PAGE_NAME = f"yl-{TermIndex.name}"


def setup_terms_cache(app: Sphinx) -> None:
    if not compatible("index of terms"):
        return
    # Sphinx 9.0: the registry's list of the yl domain's indices, read when the domains are made
    indices = app.registry.domain_indices.get("yl", [])
    indices[:] = [KeptTermIndex if index is TermIndex else index for index in indices]
    app.connect("env-updated", forget_signature)
    app.connect("html-page-context", give_kept_page, priority=400)  # before the feature's (500)
    app.connect("html-page-context", keep_page, priority=600)  # after it
    app.connect("html-collect-pages", give_category_pages, priority=400)  # before the feature's (500)


def forget_signature(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages were read (or not): the signature is computed again from the environment."""
    env.yl_terms_kept_signature = None
    return []


def terms_signature(env: BuildEnvironment) -> Signature:
    """The signature of the index of terms (once per build, after the pages were read): every
    page with terms in reading order, with its title, its passages with terms (anchor, layer,
    terms) and their titles; pypinyin's version."""
    made = getattr(env, "yl_terms_kept_signature", None)
    if made is None:
        pages = getattr(env, "yl_terms", {})
        passages = env.get_domain("yl").passages
        parts: list = [installed("pypinyin")]
        for docname in reading_order(env):
            found = pages.get(docname)
            if not found:
                continue
            title = env.titles[docname].astext() if docname in env.titles else None
            parts.append((docname, title, found,
                          [passages.get(anchor, {}).get("title", "") for anchor, _, _ in found]))
        made = env.yl_terms_kept_signature = signature(parts)
    return made


class KeptTermIndex(TermIndex):
    """``TermIndex`` whose content is kept between builds (see the module docstring)."""

    def generate(self, docnames=None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        env = self.domain.env
        key = None if docnames is None else tuple(sorted(docnames))
        # the format too: in print a term's places are by chapter (terms_index.chapter_rows)
        made_from = terms_signature(env).with_inputs("content", key, getattr(env, "yl_builder_format", "html"))
        path = Path(env.doctreedir) / (CONTENT_FILE if key is None else PART_CONTENT_FILE)
        kept = read_kept(path, made_from)
        if isinstance(kept, tuple):
            make = tuple.__new__  # plain tuples back into IndexEntry, as Sphinx made them
            return [(letter, [make(IndexEntry, row) for row in rows]) for letter, rows in kept[0]], kept[1]
        content, collapse = super().generate(docnames)
        # plain tuples: read back several times faster than named tuples
        write_kept(path, made_from, ([(letter, [tuple(row) for row in rows]) for letter, rows in content],
                                     collapse))
        return content, collapse


def page_signature(app: Sphinx, pathto, kind: str = "page") -> Signature:
    """The signature of the ``yl-terms`` page (or of the categories' pages, which stand beside
    it): the index's, the builder, every page's URI."""
    env = app.env
    uris = tuple((docname, pathto(docname)) for docname in [*sorted(getattr(env, "yl_terms", {})), PAGE_NAME])
    return terms_signature(env).with_inputs(kind, app.builder.name,
                                            hashlib.sha256(repr(uris).encode("utf-8")).hexdigest())


def give_category_pages(app: Sphinx) -> list:
    """``html-collect-pages``, before the feature: the categories' pages kept by the last build
    when its signature is this build's, else made now (``make_category_pages``) and kept; the
    builder holds them (``yl_category_pages``) for the feature to write. Gives no page itself."""
    builder = app.builder
    if builder.format != "html" or "yl" not in app.env.domains:
        return []
    made_from = page_signature(app, lambda docname: builder.get_relative_uri(PAGE_NAME, docname), "categories")
    path = Path(app.env.doctreedir) / CATEGORIES_FILE
    kept = read_kept(path, made_from)
    if not isinstance(kept, list):
        kept = make_category_pages(app)
        write_kept(path, made_from, kept)
    builder.yl_category_pages = kept
    return []


def give_kept_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The kept HTML of the ``yl-terms`` page, when its signature is this build's."""
    if pagename != PAGE_NAME or "pathto" not in context or "yl_index_html" in context:
        return
    made_from = page_signature(app, context["pathto"])
    kept = read_kept(Path(app.env.doctreedir) / PAGE_FILE, made_from)
    if isinstance(kept, str):
        context["yl_index_html"] = kept
        app.builder.yl_terms_page_to_keep = None
    else:
        app.builder.yl_terms_page_to_keep = made_from


def keep_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Keep the page's HTML the feature made (``give_kept_page`` found none)."""
    made_from = getattr(app.builder, "yl_terms_page_to_keep", None)
    if pagename != PAGE_NAME or made_from is None or not isinstance(context.get("yl_index_html"), str):
        return
    write_kept(Path(app.env.doctreedir) / PAGE_FILE, made_from, context["yl_index_html"])
    app.builder.yl_terms_page_to_keep = None
