/*
 * Passage search for the 仪礼 edition (search language "lzh", conv/sphinx_ext/search.py).
 *
 * Loaded with `defer` on the search page only, after Sphinx's searchtools.js (which defines
 * `Search`) and language_data.js (which defines `YL_SEARCH`: the fold table generated from
 * conv.normalize at build time, `splitQuery` and the folding `Stemmer`).
 *
 * Sphinx's index finds the pages that hold every character and every pair of the query. This
 * script then fetches those pages' search data (`_search/<page>.json`, written with each page by
 * conv/sphinx_ext/search/summaries.py: the text of each passage by layer, never the page
 * itself), folds it with the same table and looks for the query as a string in each passage:
 * one result per passage, linked to its anchor, with a snippet of its own characters (賔
 * highlighted for the query 宾). A place may read otherwise than its printed character folds (閒
 * read 间 by its sense, an emendation's printed 防 read 亵): a string typing such a character is
 * matched on the printed text, either reading (閒嘗), any other on the reading text (间尝 finds
 * 閒 read 间, 闲尝 does not). Text outside the passages (section titles, notes) is matched per
 * element with an id. The prefix `经:` or the checkbox restricts matching to the text of the
 * classic (经 and 记).
 *
 * A character Unicode lacks is found by its Kanripo entity (KR0871). Any other query without Han
 * characters goes to Sphinx's own search unchanged.
 */
"use strict";

(() => {
  if (typeof Search === "undefined" || typeof YL_SEARCH === "undefined") return;

  const YL = YL_SEARCH;
  const CLASSIC_LAYERS = ["jing", "ji"];
  const LAYER_LABELS = {
    jing: "经", ji: "记", zhu: "注", shu: "疏", an: "按", jiao: "校语", yin: "音义", mulu: "目录", chu: "出处", front: "文", errata: "校记", small: "小字",
    title: "章旨", meta: "卷次",
  };
  const MAX_PER_PAGE = 200;
  const SNIPPET_BEFORE = 30;
  const SNIPPET_LENGTH = 110;
  const SEPARATOR = "\u0000";
  /* a character Unicode lacks is one stand-in code point in the search data (conv/unencoded.py):
     shown 〓, found by its Kanripo entity (a query KR0871 or &KR0871;) */
  const GAIJI_BASE = 0xf0000;
  const STAND_IN_END = 0x100100;
  const ENTITY_QUERY = /kr\d{4}/i;
  const standIn = (c) => {
    const code = c.codePointAt(0);
    if (code < GAIJI_BASE || code >= STAND_IN_END) return null;
    return code < GAIJI_BASE + 10000 ? "&kr" + String(code - GAIJI_BASE).padStart(4, "0") + ";" : "〓";
  };

  const zh = (document.documentElement.lang || "").toLowerCase().startsWith("zh");
  const T = zh
    ? {
      classic: "只搜经文（经、记）",
      hint: "也可在检索词前加「经:」",
      found: (n, p) => `搜索完成，在 ${p} 页中找到 ${n} 处。`,
      more: (n) => `本页另有 ${n} 处`,
    }
    : {
      classic: "Search the classic only (经, 记)",
      hint: "or start the query with 经:",
      found: (n, p) => `Search finished, found ${n} passage${n === 1 ? "" : "s"} on ${p} page${p === 1 ? "" : "s"}.`,
      more: (n) => `${n} more on this page`,
    };
  const gettext = (s) => (typeof Documentation !== "undefined" ? Documentation.gettext(s) : s);

  /* --- the classic-only switch ------------------------------------------------------------ */

  const params = new URLSearchParams(window.location.search);
  const classicParam = () => ["1", "on", "true"].includes(params.get("jing") || "");

  const installSwitch = () => {
    const results = document.getElementById("search-results");
    if (!results || document.getElementById("yl-search-classic")) return;
    const box = document.createElement("p");
    box.className = "yl-search-scope";
    const label = box.appendChild(document.createElement("label"));
    const input = label.appendChild(document.createElement("input"));
    input.type = "checkbox";
    input.id = "yl-search-classic";
    input.checked = classicParam() || YL.parseScope(params.get("q") || "")[0];
    label.appendChild(document.createTextNode(" " + T.classic));
    box.appendChild(document.createElement("span")).className = "yl-search-hint";
    box.lastChild.textContent = T.hint;
    results.parentNode.insertBefore(box, results);

    const syncForms = () =>
      document.querySelectorAll("form").forEach((form) => {
        if (!form.querySelector('input[name="q"]')) return;
        let hidden = form.querySelector('input[name="jing"]');
        if (input.checked && !hidden) {
          hidden = form.appendChild(document.createElement("input"));
          hidden.type = "hidden";
          hidden.name = "jing";
          hidden.value = "1";
        } else if (!input.checked && hidden) hidden.remove();
      });
    syncForms();
    input.addEventListener("change", () => {
      syncForms();
      const url = new URL(window.location.href);
      if (input.checked) url.searchParams.set("jing", "1");
      else {
        url.searchParams.delete("jing");
        const q = url.searchParams.get("q") || "";
        if (YL.parseScope(q)[0]) url.searchParams.set("q", YL.parseScope(q)[1]);
      }
      if (url.searchParams.get("q")) window.location.assign(url.href);
    });
  };

  /* --- page text, folded, with a map back to the printed characters --------------------------- */

  class Unit {
    constructor(anchor, isPassage, heading) {
      this.anchor = anchor;
      this.isPassage = isPassage;
      this.heading = heading;
      this.display = []; // characters in the reader's view (code points); SEPARATOR between segments
      this.layers = []; // layer of each character
      this.folded = ""; // the reading text, folded, lower-cased (閒 of 閒嘗 read 间: 间)
      this.printed = ""; // the printed text, folded, lower-cased (閒 of 閒嘗: 闲, as search folds 閒)
      this.map = []; // folded index -> display index
      this.lastSegment = null;
    }

    /* one character as printed and as its place reads it, shown in the view's form */
    push(char, reading, shown, layer) {
      const entity = char === SEPARATOR ? null : standIn(char);
      this.display.push(entity ? "〓" : shown);
      this.layers.push(layer);
      const folded = char === SEPARATOR ? SEPARATOR : entity || YL.foldChar(reading).toLowerCase();
      const printed = char === SEPARATOR ? SEPARATOR : entity || YL.foldChar(char).toLowerCase();
      this.folded += folded;
      this.printed += printed.length === folded.length ? printed : folded;
      for (let k = 0; k < folded.length; k++) this.map.push(this.display.length - 1); // per UTF-16 unit
    }

    /* a segment: its printed characters, each one's reading form, which of the two the view shows */
    add(chars, readings, normalized, segment, layer) {
      if (this.lastSegment !== null && segment !== this.lastSegment) this.push(SEPARATOR, SEPARATOR, SEPARATOR, null);
      this.lastSegment = segment;
      for (let i = 0; i < chars.length; i++) {
        const c = chars[i];
        if (/\s/u.test(c)) {
          // whitespace between two Han characters is layout (source newlines), as in the index;
          // any other run of whitespace becomes one space
          const prev = this.display.length ? this.display[this.display.length - 1] : SEPARATOR;
          let j = i;
          while (j + 1 < chars.length && /\s/u.test(chars[j + 1])) j++;
          const next = j + 1 < chars.length ? chars[j + 1] : null;
          if (prev !== SEPARATOR && prev !== " " && next && !(YL.isHan(prev) && YL.isHan(next))) this.push(" ", " ", " ", layer);
          i = j;
          continue;
        }
        this.push(c, readings[i], normalized ? readings[i] : c, layer);
      }
    }

    /* every occurrence of every needle as [displayStart, displayEnd), or null if one is missing; a needle
       [text, printed] is matched on the printed text if it types a character some place of the page reads
       otherwise (閒嘗: 閒 in either sense; 防 printed, 亵 read), else on the reading text (间尝: 閒 read 间 only) */
    find(needles) {
      const hits = [];
      for (const [needle, printed] of needles) {
        const text = printed ? this.printed : this.folded;
        let found = false;
        for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
          found = true;
          hits.push([this.map[at], this.map[at + needle.length - 1] + 1]);
        }
        if (!found) return null;
      }
      return hits.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    }
  }

  /* The units of a page from its search data (_search/<page>.json, conv/sphinx_ext/search/
     summaries.py): [anchor, passage?, heading, [[layer, text, reading?], …]], in the view the reader
     uses; a segment's reading text is the page's forms (n) of its text, or its own where given */
  const pageUnits = (data, classicOnly) => {
    const normalized = document.documentElement.classList.contains("yl-normalized");
    const forms = data.n || {};
    const units = [];
    for (const [anchor, passage, heading, segments] of data.u) {
      const unit = new Unit(anchor, !!passage, heading >= 0 ? data.h[heading] : "");
      segments.forEach(([layer, text, reading], index) => {
        if (classicOnly && !(passage && CLASSIC_LAYERS.includes(layer))) return;
        const chars = Array.from(text);
        const readings = reading === undefined ? chars.map((c) => forms[c] || c) : Array.from(reading);
        unit.add(chars, readings, normalized, index, layer || null);
      });
      if (unit.display.length) units.push(unit);
    }
    return units;
  };

  /* --- results ----------------------------------------------------------------------------- */

  const urls = (docName) => {
    const builder = DOCUMENTATION_OPTIONS.BUILDER;
    const contentRoot = document.documentElement.dataset.content_root || "";
    if (builder === "dirhtml") {
      let dirname = docName + "/";
      if (dirname.match(/\/index\/$/)) dirname = dirname.substring(0, dirname.length - 6);
      else if (dirname === "index/") dirname = "";
      return [contentRoot + dirname, contentRoot + dirname];
    }
    return [contentRoot + docName + DOCUMENTATION_OPTIONS.FILE_SUFFIX, docName + DOCUMENTATION_OPTIONS.LINK_SUFFIX];
  };

  /* the page's search data (not the page: a fraction of its bytes) */
  const dataUrl = (docName) => (document.documentElement.dataset.content_root || "") + "_search/" + docName + ".json";

  const snippet = (unit, hits) => {
    const length = unit.display.length;
    let start = Math.max(0, hits[0][0] - SNIPPET_BEFORE);
    const end = Math.min(length, start + SNIPPET_LENGTH);
    start = Math.max(0, Math.min(start, end - SNIPPET_LENGTH));
    const marked = new Array(length).fill(false);
    hits.forEach(([a, b]) => { for (let i = a; i < b; i++) marked[i] = true; });

    const p = document.createElement("p");
    p.className = "context yl-search-context";
    if (start > 0) p.appendChild(document.createTextNode("…"));
    let span = null;
    let key = null;
    for (let i = start; i < end; i++) {
      const c = unit.display[i];
      if (c === SEPARATOR) {
        if (span) p.appendChild(document.createTextNode(" "));
        span = null;
        key = null;
        continue;
      }
      const layer = unit.layers[i];
      const k = `${layer}|${marked[i]}`;
      if (k !== key) {
        span = p.appendChild(document.createElement("span"));
        span.className = "yl-search-seg" + (layer ? " yl-search-" + layer : "") + (marked[i] ? " highlighted" : "");
        key = k;
      }
      span.textContent += c;
    }
    if (end < length) p.appendChild(document.createTextNode("…"));
    return p;
  };

  /* the printed forms of the first hits, for sphinx_highlight.js on the target page */
  const printed = (unit, hits) => {
    const seen = new Set();
    hits.forEach(([a, b]) => seen.add(unit.display.slice(a, b).filter((c) => c !== SEPARATOR && c !== " ").join("")));
    return [...seen].filter((s) => s).slice(0, 8).join(" ");
  };

  /* a page is named in a result as its data names it ("t": 句读·士冠礼, a 篇 with its work), its
     heading compared with its own title (士冠礼) */
  const resultItem = (docName, pageTitle, label, unit, hits) => {
    const [, linkUrl] = urls(docName);
    const li = document.createElement("li");
    li.className = "kind-text yl-search-hit" + (unit.isPassage ? " yl-search-passage" : "");
    const a = li.appendChild(document.createElement("a"));
    const highlight = printed(unit, hits);
    a.href = linkUrl + (highlight ? "?highlight=" + encodeURIComponent(highlight) : "") + (unit.anchor ? "#" + unit.anchor : "");
    const parts = [label];
    if (unit.heading && unit.heading !== pageTitle) parts.push(unit.heading);
    a.textContent = parts.join(" › ");
    if (unit.anchor && unit.isPassage) {
      const cite = li.appendChild(document.createElement("span"));
      cite.className = "yl-search-anchor";
      cite.textContent = " #" + unit.anchor;
    }
    const layer = unit.layers[hits[0][0]];
    if (layer && LAYER_LABELS[layer]) {
      const badge = li.appendChild(document.createElement("span"));
      badge.className = "yl-search-layer yl-search-" + layer;
      badge.textContent = LAYER_LABELS[layer];
    }
    if (DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY !== false) li.appendChild(snippet(unit, hits));
    return li;
  };

  const moreItem = (docName, pageTitle, count) => {
    const li = document.createElement("li");
    li.className = "kind-text yl-search-more";
    const a = li.appendChild(document.createElement("a"));
    a.href = urls(docName)[1];
    a.textContent = `${pageTitle}: ${T.more(count)}`;
    return li;
  };

  const finish = (passages, pages) => {
    Search.stopPulse();
    Search.title.innerText = gettext("Search Results");
    Search.status.innerText = passages
      ? T.found(passages, pages)
      : gettext(
        "Your search did not match any documents. Please make sure that all words are spelled correctly and that you've selected enough categories.",
      );
  };

  /* candidate pages from Sphinx's index, best first */
  const candidates = (query) => {
    const [, searchTerms, excludedTerms, highlightTerms, objectTerms] = Search._parseQuery(query);
    // the target page is highlighted from ?highlight= (the printed forms), not from the terms
    localStorage.removeItem("sphinx_highlight_terms");
    const results = Search._performSearch(query, searchTerms, excludedTerms, highlightTerms, objectTerms);
    const docNames = [];
    for (let i = results.length - 1; i >= 0; i--) if (!docNames.includes(results[i][0])) docNames.push(results[i][0]);
    return docNames;
  };

  const pageTitles = () => {
    const titles = new Map();
    Search._index.docnames.forEach((name, i) => titles.set(name, Search._index.titles[i]));
    return titles;
  };

  /* The pages in the edition's reading order: as the site's navigation on this page lists them
     (furo's sidebar, alabaster's), each page's name from its link */
  const readingOrder = () => {
    const root = new URL(document.documentElement.dataset.content_root || "", location.href).pathname;
    const order = new Map();
    document.querySelectorAll("a.reference.internal[href]").forEach((a) => {
      const path = new URL(a.getAttribute("href"), location.href).pathname;
      if (!path.startsWith(root)) return;
      const name = path.slice(root.length).replace(/\.html$/, "").replace(/(^|\/)$/, "$1index");
      if (!order.has(name)) order.set(name, order.size);
    });
    return order;
  };

  /* Sphinx scores every page with the query's characters in a title alike (a score per term, the
     best of them), ties by name: the pages named by the query come first — its title the query
     (乡射礼: 句读's and 通解's 篇), then a title holding it (乡射礼校注) —, then the rest, each group in
     the edition's reading order (a page the navigation does not list after them, as Sphinx ranks it) */
  const ranked = (docNames, titles, needles) => {
    const rank = (name) => {
      const title = YL.fold(titles.get(name) || "").toLowerCase();
      if (needles.length === 1 && title === needles[0]) return 0;
      return needles.length && needles.every((n) => title.includes(n)) ? 1 : 2;
    };
    const order = readingOrder();
    const place = (name) => (order.has(name) ? order.get(name) : Infinity);
    const keyed = docNames.map((name, i) => [rank(name), place(name), i, name]);
    keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    return keyed.map((key) => key[3]);
  };

  const sphinxQuery = Search.query;

  Search.query = async (query) => {
    const [prefixed, rest] = YL.parseScope(query);
    const classicOnly = prefixed || classicParam();
    // no Han character, or a searchtools.js without the hooks this relies on (Sphinx 9): Sphinx's search
    if (!(YL.hasHan(rest) || ENTITY_QUERY.test(rest)) || typeof Search._parseQuery !== "function" || typeof Search._performSearch !== "function")
      return sphinxQuery(rest);
    const needles = YL.needleForms(rest);
    const titles = pageTitles();
    const docNames = ranked(candidates(rest), titles, needles.map(([needle]) => needle));
    const fetches = docNames.map((docName) =>
      fetch(dataUrl(docName)).then((r) => (r.ok ? r.json() : null)).catch(() => null),
    );
    let passages = 0;
    let pages = 0;
    for (let i = 0; i < docNames.length; i++) {
      const data = await fetches[i];
      if (!data) continue;
      const units = pageUnits(data, classicOnly);
      const printedOtherwise = new Set(Array.from(data.p || ""));
      const pageNeedles = needles.map(([needle, typed]) => [needle, Array.from(typed).some((c) => printedOtherwise.has(c))]);
      const title = titles.get(docNames[i]) || docNames[i];
      const label = data.t || title;
      let found = 0;
      for (const unit of units) {
        const hits = unit.find(pageNeedles);
        if (!hits) continue;
        found++;
        if (found <= MAX_PER_PAGE) Search.output.appendChild(resultItem(docNames[i], title, label, unit, hits));
      }
      if (found > MAX_PER_PAGE) Search.output.appendChild(moreItem(docNames[i], label, found - MAX_PER_PAGE));
      if (found) pages++;
      passages += found;
    }
    finish(passages, pages);
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", installSwitch);
  else installSwitch();
})();
