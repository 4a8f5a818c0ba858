"""The index of terms (名物索引): the ``yl`` domain's index ``yl-terms`` and Sphinx's general index.

While a page is read, ``TermOccurrences`` looks for the terms of ``conv/data/terms.toml`` in the
words of every passage (its ``yl_text``, in the reading form: 賔 is found under 宾) with
``conv.terms.find`` — the same leftmost-longest rule as the JSON export (``conv/terms.py``: a term
inside a longer term is not counted; homographs are skipped). Nothing is placed by hand: each
passage with terms gets one ``index`` node right before it (its children stay words and notes), whose entries
(``single``: ``觯; 句读·乡射礼``, category key the pinyin's first letter) feed the general index
(``genindex``: 觯 → 句读·乡射礼 → links to its passages), and whose ``yl_terms`` attribute (the
terms in order, repeated as often as they occur) the ``TermCollector`` keeps per page
(``env.yl_terms``, parallel-safe).

``TermIndex`` (``yl-terms``, its own page in HTML, a back-matter index in LaTeX) groups the terms
by category (the data file's order) and orders them by pinyin (``conv.terms``); each term is an
entry (its pinyin, how often and in how many passages it occurs) with one sub-entry per passage, in
reading order (the order of the toctrees), linking to the passage's anchor. In HTML the page is
drawn by ``templates/domainindex.html`` from ``term_listing``: the rule for terms inside longer
terms, then per category each term with its passages grouped by chapter (``乡射礼 76 81 85 …``),
every number a link. In LaTeX Sphinx prints the index (one page reference per passage), and the
general index's entries get pinyin sort keys (``\\index{zhi4 觯@…}``), so ``makeindex`` orders
them by pinyin under their initial letter.
"""
from __future__ import annotations

import html
from collections import Counter
from functools import lru_cache
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.domains import Index, IndexEntry
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from conv import data
from conv import terms as term_index
from conv.pages import TERMS_RULE, tone_marks

from .walk import blocks

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
CSS_FILE = "yili-indices.css"


def setup_indices(app: Sphinx) -> None:
    app.add_index_to_domain("yl", TermIndex)
    app.add_transform(TermOccurrences)
    app.add_env_collector(TermCollector)
    app.add_post_transform(PinyinIndexKeys)
    app.connect("config-inited", add_templates)
    app.connect("builder-inited", add_assets)
    app.connect("html-page-context", term_page_context)
    app.connect("env-get-outdated", reread_when_terms_change)
    app.connect("env-updated", forget_listing)


def add_templates(app: Sphinx, config: Config) -> None:
    if str(TEMPLATES) not in config.templates_path:
        config.templates_path.append(str(TEMPLATES))


def add_assets(app: Sphinx) -> None:
    if app.builder.format == "html":
        if str(STATIC) not in app.config.html_static_path:
            app.config.html_static_path.append(str(STATIC))
        app.add_css_file(CSS_FILE)


# -- finding the terms ------------------------------------------------------------------------

def where(anchor: str, env: BuildEnvironment | None = None, docname: str = "") -> str:
    """``句读·乡射礼``: the work's short name and the chapter of an anchor."""
    chapter = _chapter_of(anchor)
    if chapter:
        return chapter
    if env is not None and docname in env.titles:
        return env.titles[docname].astext()
    return docname


@lru_cache(maxsize=None)
def _chapter_of(anchor: str) -> str:
    """``句读·乡射礼`` for an edition anchor, ``""`` for any other (cached: asked for every
    occurrence of every term)."""
    from .domain import work_and_chapter

    _, short, chapter = work_and_chapter(anchor)
    if chapter:
        return f"{short}·{chapter}" if short else chapter
    return ""


@lru_cache(maxsize=None)
def initial(word: str) -> str:
    """The category key of a term in the general index: its pinyin's first letter (``Z``)."""
    return term_index.pinyin(word)[:1].upper() or word[:1]


class TermOccurrences(SphinxTransform):
    """Find the terms in each passage's words; an ``index`` node per passage (see the module
    docstring). After the passages' ids are settled, before the domains read the page (850)."""

    default_priority = 830

    def apply(self, **kwargs) -> None:
        from .passage import yl_passage, yl_text

        catalogue = term_index.load()
        for passage in list(blocks(self.document, yl_passage)):  # nodes are inserted
            anchor = passage.get("anchor") or (passage["ids"][0] if passage["ids"] else "")
            words = next((c for c in passage.children if isinstance(c, yl_text)), None)
            if not anchor or words is None or anchor not in passage["ids"]:
                continue
            found = [word for _, _, word in term_index.find(words.astext(), catalogue)]
            if not found:
                continue
            place = where(anchor, self.env, self.env.docname)
            entries = [("single", f"{word}; {place}", anchor, "", initial(word))
                       for word in dict.fromkeys(found)]
            node = addnodes.index(entries=entries, inline=False, yl_terms=found, yl_anchor=anchor,
                                  yl_layer=passage.get("layer", ""))
            # right before the passage: the passage keeps its children (words, notes) as they are
            passage.parent.insert(passage.parent.index(passage), node)


def _pages(env: BuildEnvironment) -> dict[str, list[tuple[str, str, list[str]]]]:
    """docname → ``(anchor, layer, terms)`` of its passages with terms, in page order."""
    if not hasattr(env, "yl_terms"):
        env.yl_terms = {}
    return env.yl_terms


class TermCollector(EnvironmentCollector):
    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _pages(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: set[str],
                    other: BuildEnvironment) -> None:
        mine, theirs = _pages(env), _pages(other)
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        found = [(node["yl_anchor"], node.get("yl_layer", ""), list(node["yl_terms"]))
                 for node in blocks(doctree, addnodes.index) if node.get("yl_terms")]
        if found:
            _pages(app.env)[app.env.docname] = found


def terms_signature() -> str:
    """A digest of the term list: when it changes, the pages with passages are read again."""
    import hashlib

    return hashlib.sha256(term_index.TERMS_FILE.read_bytes()).hexdigest()


def reread_when_terms_change(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    signature = terms_signature()
    previous = getattr(env, "yl_terms_signature", None)
    env.yl_terms_signature = signature
    if previous is None or previous == signature:
        return []
    domain = env.get_domain("yl")
    return sorted({e["docname"] for e in domain.passages.values()} | set(_pages(env)))


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


_LISTINGS: dict[int, list] = {}  # id(env) → the whole listing, computed once per build


def forget_listing(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages were read again: the listing of the last build is stale."""
    _LISTINGS.clear()
    return []


def term_listing(env: BuildEnvironment, docnames=None) -> list[tuple[object, list[dict]]]:
    """Per category (``conv.terms.Category``): its terms in pinyin order, each ``{term, pinyin,
    variants, count, places: [(docname, anchor, count)]}`` with the places in reading order.

    The whole listing (``docnames`` None) is computed once per build and shared by the domain
    index and the HTML page (``forget_listing`` drops it when pages are read again)."""
    if docnames is None:
        if id(env) not in _LISTINGS:
            _LISTINGS[id(env)] = _term_listing(env, None)
        return _LISTINGS[id(env)]
    return _term_listing(env, docnames)


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
                "variants": list(catalogue.terms[word].variants),
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
        env = self.domain.env
        domain = env.get_domain("yl")
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
                for docname, anchor, count in entry["places"]:
                    found = domain.passages.get(anchor, {})
                    rows.append(IndexEntry(f"\u3000{where(anchor, env, docname)} 第{passage_label(anchor)}段",
                                           2, docname, anchor, "", "", found.get("title", "")))
            if rows:
                content.append((category.name, rows))
        return content, True


# -- the HTML page ----------------------------------------------------------------------------

def term_page_context(app: Sphinx, pagename: str, templatename: str, context: dict,
                      doctree) -> None:
    if pagename == f"yl-{TermIndex.name}" and "pathto" in context:
        context["yl_index_html"] = render_terms(app.env, context["pathto"])


def render_terms(env: BuildEnvironment, pathto) -> str:
    """The HTML of the ``yl-terms`` page (inside Furo's content block)."""
    domain = env.get_domain("yl")
    esc = html.escape
    listing = term_listing(env)
    uris: dict[str, str] = {}  # docname → its relative URI, escaped (one pathto per page)
    out = ['<section class="yl-index yl-terms-index" id="yl-terms">',
           f"<h1>{esc(TermIndex.localname)}</h1>",
           '<div class="yl-index-intro">']
    out += [f"<p>{esc(paragraph)}</p>" for paragraph in TERMS_RULE]
    total = sum(1 for _, entries in listing for e in entries if e["places"])
    out.append(f"<p>共 {total} 词见于经文（词表 {sum(len(e) for _, e in listing)} 词）。"
               "各词下列出所见段落，按篇分组，数字为段号（锚点末段），点击即至该段。</p>")
    out.append("</div>")
    out.append('<nav class="yl-index-jump">' + " · ".join(
        f'<a href="#yl-terms-{esc(c.id)}">{esc(c.name)}</a>' for c, _ in listing) + "</nav>")
    for category, entries in listing:
        out.append(f'<section class="yl-index-group" id="yl-terms-{esc(category.id)}">')
        out.append(f'<h2>{esc(category.name)} <span class="yl-index-label">{esc(category.label)}</span></h2>')
        out.append('<dl class="yl-terms">')
        for entry in entries:
            term = entry["term"]
            absent = not entry["places"]
            out.append(f'<dt id="yl-term-{esc(term)}"' + (' class="yl-term-absent"' if absent else "") + ">"
                       f'<span class="yl-term">{esc(term)}</span>'
                       f'<span class="yl-pinyin">{esc(tone_marks(entry["pinyin"]))}</span>')
            if entry["variants"]:
                out.append(f'<span class="yl-term-variants">（又作{esc("、".join(entry["variants"]))}）</span>')
            if absent:
                out.append('<span class="yl-term-count">未见</span></dt>')
                continue
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
                        uris[docname] = esc(pathto(docname))
                    links.append(f'<a class="reference internal" href="{uris[docname]}#{esc(anchor)}"'
                                 f' title="{esc(title)}" data-anchor="{esc(anchor)}">{esc(passage_label(anchor))}</a>')
                parts.append(f'<span class="yl-term-chapter"><span class="yl-term-where">{esc(name)}</span> '
                             + " ".join(links) + "</span>")
            out.append("；".join(parts))
            out.append("</dd>")
        out.append("</dl></section>")
    out.append("</section>")
    return "\n".join(out)


# -- LaTeX: pinyin sort keys for the general index --------------------------------------------

class PinyinIndexKeys(SphinxPostTransform):
    """LaTeX: the terms' ``index`` nodes become ``\\index{zhi4 觯@\\spxentry{觯}!…}`` so that
    ``makeindex`` sorts them by pinyin (the sub-entries, the chapters, in reading order)."""

    builders = ("latex",)
    default_priority = 30

    def run(self, **kwargs) -> None:
        from .passage import yl_passage, yl_text

        works = {w["id"]: i for i, w in enumerate(data.works())}
        chapters = {c["id"]: c["number"] for c in data.chapters()}
        for node in list(blocks(self.document, addnodes.index)):  # the terms' nodes: block level
            if not node.get("yl_terms"):
                continue
            anchor = node["yl_anchor"]
            parts = anchor.split("-")
            sub_key = (f"{works.get(parts[0], 9)}{chapters.get(parts[1], 99):02d}"
                       if len(parts) > 2 else "9")
            sub = _latex_text(where(anchor, self.env))
            tex = "".join(
                r"\index{%s %s@\spxentry{%s}!%s@\spxentry{%s}}"
                % (term_index.pinyin(word).replace(" ", ""), word, word, sub_key, sub)
                for word in dict.fromkeys(node["yl_terms"]))
            raw = nodes.raw("", tex, format="latex")
            parent, at = node.parent, node.parent.index(node)
            passage = parent[at + 1] if at + 1 < len(parent) else None  # it stands right before it
            words = next((c for c in passage.children if isinstance(c, yl_text)), None) \
                if isinstance(passage, yl_passage) else None
            if words is not None:
                node.parent.remove(node)
                words.insert(0, raw)  # inside the passage's words: its page, no paragraph break
            else:
                node.replace_self(raw)


def _latex_text(text: str) -> str:
    """Index text is Han characters and ``·``; anything makeindex or TeX would read is dropped."""
    return "".join(c for c in text if c not in '\\{}@!|"%#&$^_~')
