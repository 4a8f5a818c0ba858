"""The index of terms (名物索引): the listing in reading order, the domain index, its HTML page."""
from __future__ import annotations

import html
from collections import Counter
from itertools import groupby

from sphinx.application import Sphinx
from sphinx.domains import Index, IndexEntry
from sphinx.environment import BuildEnvironment

from conv.analyses import terms as term_index

from conv.myst.backmatter.terms import TERMS_RULE, tone_marks

from conv.sphinx_ext.backmatter.terms_found import _pages, unplaced_terms, where


def reading_order(env: BuildEnvironment) -> list[str]:
    """Every document, in the order of the toctrees from the root document (then the rest)."""
    order: list[str] = []
    seen: set[str] = set()
    stack = [env.config.root_doc]
    while stack:
        docname = stack.pop()
        if docname in seen:
            continue
        seen.add(docname)
        order.append(docname)
        stack.extend(reversed(env.toctree_includes.get(docname, [])))
    return order + sorted(set(env.found_docs) - seen)


def forget_listing(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages were read again: the listing of the last build is stale."""
    env.yl_term_listings = {}
    env.yl_passages_with_terms = None
    return []


def term_listing(env: BuildEnvironment, docnames=None) -> list[tuple[object, list[dict]]]:
    """Per category (``conv.analyses.terms.Category``): its terms in pinyin order, each ``{term, pinyin,
    variants, count, places: [(docname, anchor, count)]}`` with the places in reading order.

    A listing (the whole one: ``docnames`` None) is computed once per build and shared by the
    domain index (its length, its content) and the HTML page (``forget_listing`` drops it when
    pages are read again)."""
    listings = getattr(env, "yl_term_listings", None)
    if listings is None:
        listings = env.yl_term_listings = {}
    key = None if docnames is None else frozenset(docnames)
    if key not in listings:
        listings[key] = _term_listing(env, docnames)
    return listings[key]


def _term_listing(env: BuildEnvironment, docnames) -> list[tuple[object, list[dict]]]:
    catalogue = term_index.load()
    pages = _pages(env)
    places: dict[str, list[tuple[str, str, int]]] = {}
    for docname in reading_order(env):
        if docnames is not None and docname not in docnames:
            continue
        for anchor, _layer, found in pages.get(docname, []):
            for word, count in Counter(found).items():
                places.setdefault(word, []).append((docname, anchor, count))
    listing = []
    for category, words in term_index.ordered_categories(catalogue):
        entries = []
        for word in words:
            here = places.get(word, [])
            entries.append({
                "term": word, "pinyin": term_index.pinyin(word, catalogue),
                "variants": list(catalogue.terms[word].variants), "note": catalogue.terms[word].note,
                "count": sum(c for _, _, c in here), "places": here,
            })
        listing.append((category, entries))
    return listing


def passage_label(anchor: str) -> str:
    """The passage's number (the anchor's last part: ``76``)."""
    return anchor.rsplit("-", 1)[-1]


class TermIndex(Index):
    """名物索引: see the module docstring."""

    name = "terms"
    localname = "名物索引"
    shortname = "名物"

    def generate(self, docnames=None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        return self._generate(docnames), True

    def _generate(self, docnames) -> list[tuple[str, list[IndexEntry]]]:
        env = self.domain.env
        domain = env.get_domain("yl")
        in_print = getattr(env, "yl_builder_format", "html") == "latex"  # terms_nodes.record_builder_format
        content = []
        for category, entries in term_listing(env, docnames):
            rows: list[IndexEntry] = []
            for entry in entries:
                if not entry["places"]:
                    continue
                docname, anchor, _ = entry["places"][0]
                extra = tone_marks(entry["pinyin"])
                rows.append(IndexEntry(entry["term"], 1, docname, anchor, extra, "",
                                       f"{entry['count']}次，{len(entry['places'])}段"))
                if in_print:
                    rows.extend(chapter_rows(entry["places"], env))
                    continue
                for docname, anchor, count in entry["places"]:
                    found = domain.passages.get(anchor, {})
                    rows.append(IndexEntry(f"\u3000{where(anchor, env, docname)} 第{passage_label(anchor)}段",
                                           2, docname, anchor, "", "", found.get("title", "")))
            if rows:
                content.append((category.name, rows))
        return content


def chapter_rows(places: list[tuple[str, str, int]], env: BuildEnvironment) -> list[IndexEntry]:
    """In print, a term's places by chapter: one line each, its passages' numbers (the numbers in
    the book's margin) and the page of the first (``句读·乡射礼 第224、225、239段 (第59页)``: yili.sty's
    ``\\sphinxstyleindexpageref``), as the HTML category pages list them; a line per passage made
    the index 325 of the book's pages. Every passage's own page is in the general index, under the
    term and the chapter."""
    rows: list[IndexEntry] = []
    for docname, group in groupby(places, key=lambda place: place[0]):  # in reading order: a chapter's together
        anchors = [anchor for _, anchor, _ in group]
        rows.append(IndexEntry(f"\u3000{where(anchors[0], env, docname)} 第{'、'.join(map(passage_label, anchors))}段",
                               2, docname, anchors[0], "", "", ""))
    return rows


# -- the HTML pages ---------------------------------------------------------------------------
#
# A reader opens the index per category: ``yl-terms.html`` (the domain index's page) lists every
# term that occurs, with its counts, each a link to its place on its category's page; each
# category has a page of its own (``yl-terms-<category id>.html``, ``html-collect-pages``) with
# every passage its terms occur in. Terms of the word list that never occur are not listed.

def category_page(category) -> str:
    """The page name of a category's terms (``yl-terms-qi``)."""
    return f"yl-{TermIndex.name}-{category.id}"


def present(listing) -> list[tuple[object, list[dict]]]:
    """The categories and terms that occur in the text (a term of the word list the text never
    uses is not listed to readers)."""
    out = []
    for category, entries in listing:
        found = [entry for entry in entries if entry["places"]]
        if found:
            out.append((category, found))
    return out


def term_page_context(app: Sphinx, pagename: str, templatename: str, context: dict,
                      doctree) -> None:
    """The ``yl-terms`` page's HTML (``yl_index_html``, which ``templates/domainindex.html``
    prints). A context that already holds ``yl_index_html`` is left as it is: another extension
    (the optional speed layer) gave the page it kept from the last build."""
    if pagename != f"yl-{TermIndex.name}" or "yl_index_html" in context:
        return
    if "pathto" in context:
        context["yl_index_html"] = render_terms(app.env, context["pathto"])


def category_pages(app: Sphinx):
    """``html-collect-pages``: one page per category of terms. A list the builder already holds
    (``yl_category_pages``: another extension, the optional speed layer, gave the pages it kept
    from the last build) is written as it is."""
    if app.builder.format != "html" or "yl" not in app.env.domains:
        return
    given = getattr(app.builder, "yl_category_pages", None)
    yield from (make_category_pages(app) if given is None else given)


def make_category_pages(app: Sphinx) -> list[tuple[str, dict, str]]:
    """``(pagename, context, template)`` of every category's page (``yl-terms-<id>``)."""
    builder = app.builder
    pages = []
    for category, entries in present(term_listing(app.env)):
        pagename = category_page(category)

        def uri(docname: str, pagename: str = pagename) -> str:
            return builder.get_relative_uri(pagename, docname)

        body = render_category(app.env, category, entries, uri)
        pages.append((pagename, {"title": f"{TermIndex.localname}·{category.name}", "body": body}, "page.html"))
    return pages


def render_terms(env: BuildEnvironment, pathto) -> str:
    """The HTML of the ``yl-terms`` page (inside Furo's content block): the rule, then per
    category its terms with their counts, each a link to its entry on the category's page."""
    esc = html.escape
    listing = present(term_listing(env))
    out = ['<section class="yl-index yl-terms-index" id="yl-terms">',
           f"<h1>{esc(TermIndex.localname)}</h1>",
           '<div class="yl-index-intro">']
    out += [f"<p>{esc(paragraph)}</p>" for paragraph in TERMS_RULE]
    total = sum(len(entries) for _, entries in listing)
    out.append(f"<p>共 {total} 词见于经文。下列各类之词，括注出现次数；点击词条，即至该类索引页中此词所见的全部段落。</p>")
    out.append("</div>")
    out.append('<nav class="yl-index-jump">' + " · ".join(
        f'<a href="#yl-terms-{esc(c.id)}">{esc(c.name)}</a>' for c, _ in listing) + "</nav>")
    for category, entries in listing:
        page = esc(pathto(category_page(category)))
        out.append(f'<section class="yl-index-group" id="yl-terms-{esc(category.id)}">')
        out.append(f'<h2>{esc(category.name)}</h2>')
        out.append(f'<p class="yl-index-more"><a href="{page}">{esc(category.name)}：各词所见段落</a></p>')
        out.append('<ul class="yl-term-list">')
        for entry in entries:
            term = entry["term"]
            out.append(f'<li><a class="reference internal" href="{page}#yl-term-{esc(term)}">'
                       f'<span class="yl-term">{esc(term)}</span></a>'
                       f'<span class="yl-term-count">{entry["count"]}</span></li>')
        out.append("</ul></section>")
    out += _unplaced(env, pathto, {})
    out.append("</section>")
    return "\n".join(out)


def _unplaced(env: BuildEnvironment, pathto, uris: dict[str, str]) -> list[str]:
    """The occurrences no sense rule places (counted above), for an editor: 未能归类."""
    esc = html.escape
    found = unplaced_terms(env)
    places = [(docname, anchor, word) for docname in reading_order(env) for anchor, word in found.get(docname, [])]
    if not places:
        return []
    out = ['<section class="yl-index-group yl-terms-unplaced" id="yl-terms-unplaced">',
           "<h2>未能归类</h2>",
           "<p>以下各处，其字在一字多义的名物词（如尊、序、舌）的义项规则中无所归：暂计入其词，待校者判定。</p>",
           '<dl class="yl-terms">']
    for docname, anchor, word in places:
        if docname not in uris:
            uris[docname] = esc(pathto(docname))
        out.append(f'<dt><span class="yl-term">{esc(word)}</span></dt><dd><a class="reference internal" '
                   f'href="{uris[docname]}#{esc(anchor)}" data-anchor="{esc(anchor)}">'
                   f'{esc(where(anchor, env, docname))} {esc(passage_label(anchor))}</a></dd>')
    return out + ["</dl></section>"]


def render_category(env: BuildEnvironment, category, entries: list[dict], uri) -> str:
    """The HTML of a category's page: each term, its pinyin and counts, and its passages grouped
    by chapter (``乡射礼 76 81 85 …``), every number a link. ``uri(docname)`` is a page's
    relative address."""
    domain = env.get_domain("yl")
    esc = html.escape
    uris: dict[str, str] = {}  # docname → its relative URI, escaped (once per page)
    out = [f'<section class="yl-index yl-terms-index" id="yl-terms-{esc(category.id)}">',
           f"<h1>{esc(TermIndex.localname)}·{esc(category.name)}</h1>",
           f'<p class="yl-index-more"><a href="{esc(uri(f"yl-{TermIndex.name}"))}">'
           f"{esc(TermIndex.localname)}：收词之法与各类</a></p>",
           '<dl class="yl-terms">']
    for entry in entries:
        term = entry["term"]
        out.append(f'<dt id="yl-term-{esc(term)}"><span class="yl-term">{esc(term)}</span>'
                   f'<span class="yl-pinyin">{esc(tone_marks(entry["pinyin"]))}</span>')
        if entry["variants"]:
            out.append(f'<span class="yl-term-variants">（又作{esc("、".join(entry["variants"]))}）</span>')
        if entry.get("note"):  # the sense rules: what the characters are when they are not the term
            out.append(f'<span class="yl-term-note">（{esc(entry["note"])}）</span>')
        out.append(f'<span class="yl-term-count">{entry["count"]}次，{len(entry["places"])}段</span></dt>')
        out.append("<dd>")
        groups: dict[str, list[tuple[str, str, int]]] = {}
        for place in entry["places"]:
            groups.setdefault(where(place[1], env, place[0]), []).append(place)
        parts = []
        for name, group in groups.items():
            links = []
            for docname, anchor, count in group:
                title = domain.passages.get(anchor, {}).get("title", "")
                title = f"{name} {passage_label(anchor)}：{title}" + (f"（{count}次）" if count > 1 else "")
                if docname not in uris:
                    uris[docname] = esc(uri(docname))
                links.append(f'<a class="reference internal" href="{uris[docname]}#{esc(anchor)}"'
                             f' title="{esc(title)}" data-anchor="{esc(anchor)}">{esc(passage_label(anchor))}</a>')
            parts.append(f'<span class="yl-term-chapter"><span class="yl-term-where">{esc(name)}</span> '
                         + " ".join(links) + "</span>")
        out.append("；".join(parts))
        out.append("</dd>")
    out.append("</dl></section>")
    return "\n".join(out)
