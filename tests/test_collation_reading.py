"""The collation in the reading text (#19): emendations (据改), the 文渊阁 forms of the seeds (繁体
view), the 校勘记 per 篇 with its maintainers' listing, the 通解 seeds against their witness.

The converter's side runs on the five seeds with the 文渊阁 files they stand in; the HTML and LaTeX
side on a small edition built here (000 and 004 with their 卷)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from bs4 import BeautifulSoup
from hypothesis import given, settings
from hypothesis import strategies as st

from pagetext import page_soup

from conv.collate import fold
from conv.collate.forms import emendations, traditional
from conv.edition.assemble import convert
from conv.myst import writer
from conv.unencoded import gaiji_char
from tests.forms_reference import per_character_page

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
JUDOU, TONGJIE = SEEDS / "wenyuange" / "KR1d0038", SEEDS / "wenyuange" / "KR1d0085"
S000, S001, S002, S003, S004 = (next(SEEDS.glob(f"00{n}_*.txt")) for n in range(5))
WITNESSES = [JUDOU / f"KR1d0038_0{n}.txt" for n in ("05", "06", "15", "16")] + \
    [TONGJIE / "KR1d0085_007.txt", TONGJIE / "KR1d0085_020.txt"]
ROLE = re.compile(r"\{yl:emend\}`([^`→]*)→([^` ]+) <([\w.-]+)>`")


@pytest.fixture(scope="module")
def edition():
    return convert([S000, S001, S002, S003, S004, *WITNESSES])


@pytest.fixture(scope="module")
def pages(edition) -> dict[str, str]:
    return writer.pages(edition)


def collation(edition, seed: Path) -> list[dict]:
    return [r for r in edition.apparatus if r["kind"] == "collation" and r["span"][0] == seed.name]


# -- the converter ---------------------------------------------------------------------------

def test_every_emendation_is_written_into_the_reading_text(edition, pages):
    """The eight 防 and the three characters 002 dropped: each a {yl:emend} role at its place,
    linked to its apparatus entry, whose words say 据改 / 据补."""
    emended = [r for r in edition.apparatus if r["kind"] == "collation" and r.get("emended")]
    assert sorted((r["text"], r["witness_text"]) for r in emended) == sorted(
        [("防", "䙝"), ("防", "膞"), ("防", "㨒"), ("防", "䘮"), ("防", "䋫"), ("防", "㫖"), ("防", "㫖"),
         ("防", "㑹"), ("", "𤣥"), ("", "𤣥"), ("", gaiji_char("&KR0362;"))])
    roles = [match for path, text in pages.items() if not path.startswith("apparatus/")
             for match in ROLE.findall(text)]
    assert sorted((printed, adopted) for printed, adopted, _ in roles) == sorted(
        (r["text"], r["witness_text"]) for r in emended)
    apparatus = pages["apparatus/judou.md"] + pages["apparatus/tongjie.md"]
    for printed, adopted, entry in roles:
        body = apparatus.split(f":::{{yl:app}} {entry}\n", 1)[1].split(":::", 1)[0]
        assert ":kind: collation" in body
        assert (f"“{printed}”，文渊阁本作“{adopted}”" in body and "据改。" in body) if printed \
            else (f"底本无，文渊阁本有“{adopted}”" in body and "据补。" in body)
    page = pages["judou/xiangshe.md"]
    assert "不敢以燕坐{yl:emend}`防→䙝 <judou-xiangshe-151-jiao-1>`" in page  # the entry: its passage's first


def test_the_reading_text_in_the_dump_takes_the_witness(edition):
    """``normalized`` (the reading text) has the emended character; ``text`` stays as printed."""
    blocks = [b for w in edition.works for c in w.chapters for s in c.sections for p in s.passages
              for b in (p, *p.notes) if b.span[0].startswith("00") and ("燕坐防" in b.text or "𤣥" in b.normalized)]
    yan = next(b for b in blocks if "燕坐防" in b.text)
    assert "燕坐亵贵肴" in yan.normalized and "燕坐防贵肴" in yan.text  # 䙝, 褻 of the 文渊阁 copy (variants.tsv)
    dropped = [b for b in blocks if b.span[0] == S002.name]  # 玄酒, 玄被: 002 dropped the 缺笔 𤣥
    assert len(blocks) == 1 and not dropped
    blocks = [b for w in edition.works for c in w.chapters for s in c.sections for p in s.passages
              for b in (p, *p.notes) if b.span[0] == S002.name and "玄" in b.normalized and "玄" not in b.text]
    assert sorted(w for b in blocks for w in ("玄酒", "玄被") if w in b.normalized) == ["玄被", "玄酒"]
    # the reading text takes the witness's 𤣥 in its standard form 玄


def test_the_tongjie_seeds_against_their_witness(edition):
    """003 乡饮酒礼 and 004 大射仪 against KR1d0085 (the real files): aligned, every difference
    classified as the 句读 seeds' are, with both spans and the page; U+E14B is the witness's
    &KR0871;, kept (a confirmed code point, no reading)."""
    for seed in (S003, S004):
        found = edition.collations[seed.name]
        assert found.aligned and found.collation.coverage > 0.995
    kinds = {}
    for seed in (S003, S004):
        for record in collation(edition, seed):
            assert record["witness_span"][0].startswith("KR1d0085_") and record["page"]
            kinds.setdefault((seed.name[:3], record["class"]), []).append(
                (record["span"][1], record["text"], record["witness_text"], record["page"]["juan"]))
    assert kinds[("003", "placeholder")] == [(1894, "防", "㫖", 7), (3160, "防", "㫖", 7)]
    assert kinds[("004", "placeholder")] == [(4149, "防", "㑹", 21)]
    assert sorted({(t, w) for _, t, w, _ in kinds[("003", "orthographic")]}) == [
        ("了", "瞭"), ("仿", "倣"), ("效", "傚"), ("着", "著"), ("谘", "諮")]
    assert {(t, w) for _, t, w, _ in kinds[("004", "orthographic")]} == {("着", "著")}
    assert ("003", "substantive") not in kinds and ("004", "substantive") not in kinds
    unidentified = [r for r in collation(edition, S004) if r["text"] == "\ue14b"]
    assert len(unidentified) == 1 and unidentified[0]["witness_text"] == gaiji_char("&KR0871;")
    assert unidentified[0]["confirmed"] and not unidentified[0]["emended"]
    assert unidentified[0]["page"] == {"juan": 21, "leaf": 51, "side": "b"}


def test_the_traditional_forms_of_a_passage(edition, pages):
    page = pages["judou/xiangshe.md"]
    at = page.index("不敢以燕坐{yl:emend}")
    trad = page.rfind(":trad: ", 0, at)
    assert page[trad:page.index("\n", trad)] == ":trad: 俎者肴之貴者也辭之者不敢以燕坐防貴肴"
    # the witness's own passages need none (their text is the witness's); the seed's have them
    chapter = next(c for w in edition.works for c in w.chapters if c.id == "xiangshe")
    blocks = {p.witness: page.split(f"::::{{yl:passage}} {p.id}\n", 1)[1].split("\n::::\n", 1)[0]
              for s in chapter.sections for p in s.passages if p.text}
    assert ":trad:" not in blocks["kanripo"] and ":trad:" in blocks["seed"]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_traditional_keeps_every_character_in_place(edition, data):
    """Any stretch of a collated seed in the 文渊阁 forms: as long as the stretch, each character
    the seed's own or a form of it, never a different reading or a character Unicode lacks."""
    seed = data.draw(st.sampled_from([S000, S001, S002, S003, S004]))
    found = edition.collations[seed.name].collation
    side = found.seed
    start = data.draw(st.integers(0, len(side.chars) - 1))
    end = data.draw(st.integers(start + 1, min(len(side.chars), start + 400)))
    text, offsets = side.chars[start:end], side.offsets[start:end]
    forms = traditional(found, offsets, text)
    assert len(forms) == len(text)
    for char, form in zip(text, forms):
        assert form == char or fold.relation(char, form) is not None
        assert ord(form) < 0xF0000


def test_emendations_come_only_from_emended_records():
    records = [{"kind": "collation", "emended": True, "span": ["a.txt", 5, 6], "text": "防", "witness_text": "䙝"},
               {"kind": "collation", "emended": False, "span": ["a.txt", 9, 10], "text": "了", "witness_text": "瞭"},
               {"kind": "pua", "emended": True, "span": ["a.txt", 1, 2]}]
    found = emendations(records)
    assert [(e.start, e.end, e.printed, e.adopted) for e in found["a.txt"]] == [(5, 6, "防", "䙝")]


# -- the built edition -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("collated")
    shutil.copy(ROOT / "source" / "conf.py", src / "conf.py")
    (src / "index.md").write_text("# 仪礼\n\n```{toctree}\njudou/index\ntongjie/index\napparatus/index\n```\n",
                                  encoding="utf-8")
    files = [S000, S004, JUDOU / "KR1d0038_005.txt", TONGJIE / "KR1d0085_020.txt"]
    done = subprocess.run([sys.executable, "-m", "conv", "build", *map(str, files), "--out", str(src)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    for builder in ("html", "latex"):
        done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", builder,
                               str(src), str(src / "_build" / builder)], capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-3000:]
    return src / "_build"


def soup(site: Path, page: str) -> BeautifulSoup:
    return page_soup(site / "html", page)


def test_the_emendation_on_the_page(site):
    """底本: 防 (marked); 规范: 亵 (䙝 is 褻); 繁体: 䙝; a link to its entry, whose locus links back. The entry
    quotes the witness's 䙝 in every view: the form is what it says (the PDF prints the 规范 view)."""
    page = soup(site, "judou/xiangshe")
    emend = page.select_one("a.yl-emend")
    assert emend.select_one(".yl-w").get_text() == "防"
    assert emend.select_one(".yl-n").get_text() == "亵" and emend.select_one(".yl-t").get_text() == "䙝"
    assert emend["title"] == "底本作“防”，文渊阁本作“䙝”，据改"
    passage = emend.find_parent(class_="yl-passage")
    href = emend["href"]
    assert href.startswith(f"../apparatus/judou.html#{passage['id']}-jiao-")  # numbered within its passage
    entry = soup(site, "apparatus/judou").find(id=href.split("#")[1])
    assert "代字：“防”，文渊阁本作“䙝”（卷五叶三十三b），据改。" in entry.get_text()
    assert not entry.select(".yl-n")  # nothing of it folds in the 规范 view
    assert entry.select_one(".yl-app-locus a")["href"].endswith("#" + passage["id"])
    titles = [a["title"] for a in page.select("sup.yl-appmark a")]  # the marks' tips: Chinese
    assert any("对校：代字" in t for t in titles) and any("底本转换" in t for t in titles)
    assert not [t for t in titles if re.search(r"collation|witness-join|unencoded|placeholder", t)]


def test_the_seed_in_the_witness_forms(site):
    page = soup(site, "judou/xiangshe")
    emend = page.select_one("a.yl-emend")
    segment = emend.find_parent(class_="yl-note")
    for hidden in segment.select(".yl-s, .yl-w, .yl-n, .yl-ed"):
        hidden.decompose()
    assert segment.get_text() == "俎者肴之貴者也辭之者不敢以燕坐䙝貴肴"


def test_the_traditional_view_only_where_there_are_witness_forms(site, fixture_html):
    """A collated seed's page offers 繁体; a page of uncollated seeds does not (its 繁体 would be
    its 底本 view)."""
    views = [r["value"] for r in soup(site, "judou/xiangshe").select(".yl-toolbar input[data-view]")]
    assert views == ["diplomatic", "normalized", "traditional"]
    page = BeautifulSoup(fixture_html.html("judou/xiangshe"), "html.parser")
    assert [r["value"] for r in page.select(".yl-toolbar input[data-view]")] == ["diplomatic", "normalized"]


def test_the_apparatus_per_chapter_for_readers_and_maintainers(site):
    page = soup(site, "apparatus/tongjie")
    collation = page.find(id="apparatus-tongjie-collation")
    assert [h.get_text().rstrip("#¶") for h in collation.select("h3")] == ["大射仪"]
    text = page.select_one("article").get_text()
    for english in ("placeholder", "substantive", "collation", ".txt", "conv/data"):
        assert english not in text
    rows = [line.split("\t") for line in (site / "html" / "_maintainers" / "collation.tsv")
            .read_text(encoding="utf-8").splitlines()]
    header, rows = rows[0], rows[1:]
    assert header == ["page", "entry", "label", "class", "op", "seed", "witness", "page", "seed_text",
                      "witness_text", "emended", "note"]
    row = next(r for r in rows if r[8] == "防" and r[9] == "䙝")
    assert row[3:8] == ["placeholder", "replace", f"{S000.name}:7973-7974", "KR1d0038_005.txt:18131-18132",
                        "卷五叶三十三b"]
    assert row[10] == "True"
    assert sorted(r[3] for r in rows) == ["placeholder", "placeholder"]


def test_search_holds_both_forms_and_the_entity(site):
    text = (site / "html" / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(text[len("Search.setIndex("):-1])["terms"]
    for term in ("亵", "坐亵", "亵贵", "防", "坐防", "防贵", "kr0871"):  # 䙝 folds to 亵
        assert term in terms, term
    data = json.loads((site / "html" / "_search" / "tongjie" / "dashe.json").read_text(encoding="utf-8"))
    texts = "".join(segment[1] for unit in data["u"] for segment in unit[3])  # [layer, text, reading?]
    assert "谓" + gaiji_char("&KR0871;") + "肝膋" in texts


def test_the_pdf_prints_the_adopted_character(site):
    tex = next((site / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "燕坐亵贵肴" in re.sub(r"\s|\\[a-zA-Z]+\{?|[{}]", "", tex)  # the 规范 form of 䙝
    assert "文渊阁本作“䙝”" in re.sub(r"\s|\\[a-zA-Z]+\{?|[{}]", "", tex)  # the 校勘记 quotes the witness's form
    assert "燕坐防贵" not in tex


# -- in the browser ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(site, http_server) -> str:
    return http_server(site / "html")


NOTE_JS = "() => document.querySelector('a.yl-emend').closest('.yl-note').innerText"


@pytest.mark.browser
def test_three_views_remembered(page, served, screenshots):
    """底本 shows what the seed printed (防, simplified), 规范 the emended reading text, 繁体 the
    seed in the 文渊阁 forms (貴, 辭, 䙝); the choice survives a reload."""
    page.goto(f"{served}/judou/xiangshe.html")
    assert "辞之者不敢以燕坐防贵肴" in page.evaluate(NOTE_JS)
    page.get_by_role("radio", name="规范").check()
    assert "辞之者不敢以燕坐亵贵肴" in page.evaluate(NOTE_JS)
    page.get_by_role("radio", name="繁体").check()
    assert "俎者肴之貴者也辭之者不敢以燕坐䙝貴肴" in page.evaluate(NOTE_JS)
    page.reload()
    assert page.get_by_role("radio", name="繁体").is_checked()
    assert "辭之者不敢以燕坐䙝貴肴" in page.evaluate(NOTE_JS)
    assert page.evaluate("() => document.documentElement.classList.contains('yl-traditional')")
    passage = page.locator("a.yl-emend").locator("xpath=ancestor::div[contains(@class, 'yl-passage')]")
    for width, height in ((390, 844), (1366, 900)):  # the passage itself (a long page's far end
        page.set_viewport_size({"width": width, "height": height})  # shoots blank in headless chromium)
        passage.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        passage.screenshot(path=str(screenshots / f"collation-traditional-{width}.png"))


VIEWS = {"diplomatic": "底本", "normalized": "规范", "traditional": "繁体"}
PASSAGES_JS = "() => [...document.querySelectorAll('.yl-passage')].map((p) => [p.id, p.innerText])"
# the first run of two or more characters: its forms, and the passage's text it stands in
RUN_JS = """() => { const run = [...document.querySelectorAll('.yl-passage .yl-text .yl-fs')]
  .find((r) => r.firstChild.textContent.length > 1);
  return {passage: run.closest('.yl-passage').id, w: run.children[0].textContent, n: run.children[1].textContent}; }"""
COPY_JS = """(id) => { const text = document.querySelector('#' + id + ' .yl-text');
  getSelection().selectAllChildren(text); return getSelection().toString(); }"""
HIGHLIGHTED_JS = """() => [...document.querySelectorAll('.highlighted')].filter((e) => e.getClientRects().length)
  .map((e) => e.textContent)"""


@pytest.mark.browser
def test_every_view_shows_what_a_span_per_character_showed(page, served, site):
    """乡射礼 with its 文渊阁 forms, each run of folding text one span (yl-fs): in the 底本, 规范 and
    繁体 views every passage shows the characters the old markup (a span per folding character,
    tests/forms_reference.py) showed; a passage copied in the 规范 view is the reading text;
    find-in-page and Sphinx's search-word highlighting find a word across a run's characters."""
    now = (site / "html" / "judou" / "xiangshe.html").read_text(encoding="utf-8")
    before = per_character_page(now)
    assert 'class="yl-fs' in now and 'class="yl-fs' not in before and 'class="yl-fs yl-char-t"' in now
    page.route(f"{served}/judou/before.html", lambda route: route.fulfill(
        body=before, content_type="text/html; charset=utf-8"))
    shown = {}
    for name in ("xiangshe", "before"):
        page.goto(f"{served}/judou/{name}.html")
        for view, label in VIEWS.items():
            page.get_by_role("radio", name=label).check()
            shown[name, view] = page.evaluate(PASSAGES_JS)
    for view in VIEWS:
        assert len(shown["xiangshe", view]) > 100 and shown["xiangshe", view] == shown["before", view], view
    assert len({str(shown["xiangshe", view]) for view in VIEWS}) == 3
    page.goto(f"{served}/judou/xiangshe.html")
    run = page.evaluate(RUN_JS)
    assert run["w"] != run["n"]
    reading = dict(shown["xiangshe", "normalized"])[run["passage"]]
    for view, form in (("diplomatic", run["w"]), ("normalized", run["n"])):
        page.goto(f"{served}/judou/xiangshe.html?highlight={quote(form)}")
        page.get_by_role("radio", name=VIEWS[view]).check()
        assert page.evaluate("(word) => window.find(word, false, false, true)", form), view
        assert form in page.evaluate(HIGHLIGHTED_JS), view  # the word shown, highlighted whole
        if view == "normalized":
            copied = page.evaluate(COPY_JS, run["passage"])
            assert form in copied and run["w"] not in copied and reading.startswith(copied)


def _search(page, base: str, query: str) -> set[str]:
    page.goto(f"{base}/search.html?q={quote(query)}")
    page.wait_for_function("() => { const s = document.querySelector('#search-results p.search-summary');"
                           " return !!(s && s.innerText.trim()); }", timeout=10000)
    return set(page.evaluate("() => [...document.querySelectorAll('#search-results ul.search li > a')]"
                             ".map(a => a.getAttribute('href').split('#')[1])"))


@pytest.mark.browser
@pytest.mark.parametrize("view", ["diplomatic", "normalized", "traditional"])
def test_search_from_either_script_in_every_view(page, served, site, view):
    page.goto(f"{served}/index.html")
    page.evaluate("(view) => localStorage.setItem('yili.view', JSON.stringify({hide: [], view}))", view)
    page_html = soup(site, "judou/xiangshe")
    passage = page_html.select_one("a.yl-emend").find_parent(class_="yl-passage")["id"]
    for query in ("辞之者不敢", "辭之者不敢", "燕坐䙝贵", "燕坐䙝貴"):
        assert passage in _search(page, served, query), (view, query)
    gaiji = soup(site, "tongjie/dashe").select_one('.yl-char-unencoded[data-code="U+E14B"]').find_parent(
        class_="yl-passage")["id"]
    for query in ("KR0871", "&KR0871;"):
        found = _search(page, served, query)  # the passage, and the 校勘记's entries on it
        assert gaiji in found and all(f == gaiji or f.startswith((gaiji + "-jiao-", "apparatus-")) for f in found)
    assert gaiji not in _search(page, served, "KR0872")


# -- a reviewed decision on a substantive difference (conv/data/corrections.toml, kind emend) -----

@pytest.fixture(scope="module")
def changed_seed(tmp_path_factory) -> Path:
    """Seed 000 with one character changed: 燕坐防贵肴 → 燕坐防贱肴 (the witness reads 貴)."""
    path = tmp_path_factory.mktemp("changed") / S000.name
    text = S000.read_text(encoding="utf-8")
    assert text.count("燕坐防贵肴") == 1
    path.write_text(text.replace("燕坐防贵肴", "燕坐防贱肴"), encoding="utf-8")
    return path


def test_a_substantive_difference_is_listed_not_emended(changed_seed):
    from conv.parser.corrections import Corrections

    edition = convert([changed_seed, JUDOU / "KR1d0038_005.txt"], corrections=Corrections([]))
    found = [r for r in edition.apparatus if r["kind"] == "collation" and r["class"] == "substantive"]
    assert [(r["text"], r["witness_text"], r["emended"]) for r in found] == [("贱", "貴", False)]
    assert "燕坐防贱肴" in writer.pages(edition)["judou/xiangshe.md"].replace("{yl:emend}`防→䙝 <judou-xiangshe-151-jiao-1>`", "防")


def test_a_reviewed_correction_emends_a_substantive_difference(changed_seed):
    from conv.errors import ConversionError
    from conv.parser.corrections import Corrections

    decision = {"id": "t1", "seed": S000.name, "kind": "emend", "text": "贱", "reading": "貴",
                "reason": "test: the witness's reading"}
    edition = convert([changed_seed, JUDOU / "KR1d0038_005.txt"], corrections=Corrections([decision]))
    record = next(r for r in edition.apparatus if r["kind"] == "collation" and r["class"] == "substantive")
    assert record["emended"] and record["correction"] == "t1"
    pages = writer.pages(edition)
    assert re.search(r"\{yl:emend\}`贱→貴 <(judou-xiangshe-\d+-jiao-\d+)>`肴", pages["judou/xiangshe.md"])
    assert "异文：“贱”，文渊阁本作“貴”（卷五叶三十三b），据改。" in pages["apparatus/judou.md"]
    # a decision that matches no difference of a collated seed stops the conversion …
    stale = {**decision, "text": "贵"}
    with pytest.raises(ConversionError, match="t1"):
        convert([changed_seed, JUDOU / "KR1d0038_005.txt"], corrections=Corrections([stale]))
    # … and is not checked where the seed is converted without its witness
    convert([changed_seed], corrections=Corrections([stale]))


@pytest.mark.browser
def test_a_saved_traditional_view_on_a_page_without_it(page, fixture_html, http_server):
    """A page of uncollated seeds has no 繁体 radio: a saved 繁体 choice shows its 底本 forms and
    checks 录入本 there, and is kept for the pages that have it."""
    base = http_server(fixture_html.outdir)
    page.goto(f"{base}/index.html")
    page.evaluate("() => localStorage.setItem('yili.view', JSON.stringify({hide: [], view: 'traditional'}))")
    page.goto(f"{base}/judou/xiangshe.html")
    assert page.get_by_role("radio", name="底本").is_checked()
    assert page.locator(".yl-char .yl-w").first.is_visible()
    assert json.loads(page.evaluate("() => localStorage.getItem('yili.view')"))["view"] == "traditional"
