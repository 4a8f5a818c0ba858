"""Shared fixtures: Sphinx builds of a project, in-process MyST parsing, a local HTTP server and a
headless browser (Debian's chromium driven by playwright; no browser is ever downloaded)."""
from __future__ import annotations

import os

import functools
import hashlib
import http.server
import io
import pickle
import shutil
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import settings

from once import once

ROOT = Path(__file__).resolve().parents[1]

# Property tests are judged by what they draw, not by how fast this shared 2-core machine runs them:
# no per-example deadline anywhere (a loaded run once failed a title test on time alone).
settings.register_profile("edition", deadline=None)
# On the CI machine (CI=true, which .ci/run sets too) the examples are drawn from a fixed seed: a landing is judged by the
# code, not by which random examples one run happened to draw; a run elsewhere draws new ones each time (and what it finds
# becomes an @example).
settings.register_profile("edition-ci", deadline=None, derandomize=True)
settings.load_profile("edition-ci" if os.environ.get("CI") == "true" else "edition")

# Sphinx colours its output when CI=true (as on the CI machine); tests read that output as text.
os.environ["NO_COLOR"] = "1"
FIXTURES = ROOT / "tests" / "fixtures"
FIXTURE_PROJECT = FIXTURES / "project"
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


# -- Sphinx builds ------------------------------------------------------------------------------

@dataclass
class SphinxBuild:
    """The outcome of one ``sphinx-build`` run (a subprocess, as ``make html`` runs it)."""

    srcdir: Path
    outdir: Path
    doctreedir: Path
    builder: str
    returncode: int
    stdout: str
    stderr: str
    args: list[str] = field(default_factory=list)

    @property
    def warnings(self) -> str:
        return self.stderr

    def doctree(self, docname: str):
        """The pickled doctree of ``docname`` as read (before resolving)."""
        with (self.doctreedir / f"{docname}.doctree").open("rb") as handle:
            return pickle.load(handle)

    def file(self, relative: str) -> Path:
        return self.outdir / relative

    def html(self, docname: str) -> str:
        return (self.outdir / f"{docname}.html").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def sphinx_build(tmp_path_factory):
    """``sphinx_build(srcdir=FIXTURE_PROJECT, builder="html", *args, check=True)``: build once per
    test run (shared by xdist's workers: ``once``) with ``-W --keep-going`` (warnings are errors); a
    failed build fails the test with Sphinx's output unless ``check=False``."""
    cache: dict[tuple, SphinxBuild] = {}

    def build(srcdir: Path = FIXTURE_PROJECT, builder: str = "html", *args: str,
              check: bool = True) -> SphinxBuild:
        key = (str(srcdir), builder, args)
        if key not in cache:
            def make(base: Path) -> dict:
                outdir, doctreedir = base / builder, base / "doctrees"
                command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", builder,
                           "-d", str(doctreedir), *args, str(srcdir), str(outdir)]
                proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
                return {"outdir": str(outdir), "doctreedir": str(doctreedir), "returncode": proc.returncode,
                        "stdout": proc.stdout, "stderr": proc.stderr, "command": command}

            name = f"sphinx-{builder}-" + hashlib.sha1(repr(key).encode()).hexdigest()[:12]
            made = once(tmp_path_factory, name, make)
            cache[key] = SphinxBuild(Path(srcdir), Path(made["outdir"]), Path(made["doctreedir"]), builder,
                                     made["returncode"], made["stdout"], made["stderr"], made["command"])
        result = cache[key]
        if check and result.returncode != 0:
            pytest.fail(f"sphinx-build -b {builder} {srcdir} failed ({result.returncode}):\n"
                        f"{result.stderr[-6000:]}", pytrace=False)
        return result

    return build


@pytest.fixture(scope="session")
def fixture_html(sphinx_build) -> SphinxBuild:
    """The fixture project (real seed text in the FORMAT.md format) built as HTML."""
    return sphinx_build(FIXTURE_PROJECT, "html")


def without_index_entries(tex: str) -> str:
    """LaTeX source ``tex`` without its ``\\index{…}`` entries (the term index marks words of the
    text with them)."""
    out, i = [], 0
    while (start := tex.find("\\index{", i)) != -1:
        out.append(tex[i:start])
        depth, j = 0, start + len("\\index")
        while True:
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            j += 1
            if depth == 0:
                break
        i = j
    out.append(tex[i:])
    return "".join(out)


# -- in-process parsing -------------------------------------------------------------------------

class InProcessSphinx:
    """A Sphinx application kept in memory: parse MyST strings into doctrees with the project's
    extensions and transforms, render nodes as HTML, read the warnings — no build per call."""

    def __init__(self, app, warnings: io.StringIO) -> None:
        self.app = app
        self._warnings = warnings

    def parse(self, text: str, docname: str = "probe"):
        from sphinx.util.docutils import _parse_str_to_doctree

        env = self.app.env
        env.prepare_settings(docname)
        env.current_document.docname = docname
        parser = self.app.registry.create_source_parser("markdown", config=self.app.config, env=env)
        try:
            return _parse_str_to_doctree(
                text,
                filename=self.app.srcdir / f"{docname}.md",
                default_settings=env.settings,
                env=env,
                events=self.app.events,
                parser=parser,
                transforms=self.app.registry.get_transforms(),
            )
        finally:
            env.current_document.docname = ""

    def html(self, node) -> str:
        """The HTML of a node (or a whole doctree) as the HTML builder writes it."""
        node = node.deepcopy()
        return self.app.builder.render_partial(node)["fragment"]

    def take_warnings(self) -> str:
        text = self._warnings.getvalue()
        self._warnings.seek(0)
        self._warnings.truncate()
        return text


@pytest.fixture(scope="session")
def myst_app(tmp_path_factory) -> InProcessSphinx:
    """An in-memory Sphinx (HTML builder) with the project's ``source/conf.py``."""
    from sphinx.application import Sphinx

    base = tmp_path_factory.mktemp("myst-app")
    src = base / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "from pathlib import Path\n"
        f"_conf = Path({str(ROOT / 'source' / 'conf.py')!r})\n"
        "exec(compile(_conf.read_text(encoding='utf-8'), str(_conf), 'exec'))\n",
        encoding="utf-8",
    )
    (src / "index.md").write_text("# probe\n", encoding="utf-8")
    warnings = io.StringIO()
    app = Sphinx(src, src, base / "out", base / "doctrees", "html", status=None,
                 warning=warnings, freshenv=True)
    return InProcessSphinx(app, warnings)


# -- HTTP and browser ---------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002
        pass


@pytest.fixture(scope="session")
def http_server():
    """``serve(directory) -> base URL`` on 127.0.0.1 and a free port; stopped after the session."""
    servers = []

    def serve(directory: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(directory))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser():
    """Headless chromium (Debian's ``/usr/bin/chromium``) under playwright."""
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh browser page (own context: empty localStorage), 1280×900, zh-CN."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    yield page
    context.close()


#: Viewports of the reader's tests in a browser: desktop, tablet and phone.
DESKTOP = {"width": 1366, "height": 900}
TABLET = {"width": 800, "height": 1000}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def open_page(browser):
    """``open_page(viewport, touch=False, permissions=())``: a fresh page (own context: empty
    storage), zh-CN."""
    contexts = []

    def make(viewport=DESKTOP, touch: bool = False, permissions=()):
        context = browser.new_context(viewport=viewport, locale="zh-CN", has_touch=touch,
                                      is_mobile=touch)
        if permissions:
            context.grant_permissions(list(permissions))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# -- the five seeds, converted (one conversion per test module: tests may not share mutations) ----
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


@pytest.fixture(scope="module")
def edition():
    """The Edition of the five seeds (``conv.edition.assemble.convert``)."""
    from conv.edition import assemble

    return assemble.convert(SEEDS)


@pytest.fixture(scope="session")
def tongjie_alone():
    """The 通解's 37 files of the 文渊阁 witness converted alone, once (conservation is checked by
    the conversion itself): (edition, dump, chapters by id, the work's dump). Read it, never change it."""
    from conv.edition import assemble, export

    files = sorted((ROOT / "seeds" / "wenyuange" / "KR1d0085").glob("KR1d0085_*.txt"))
    assert len(files) == 37
    edition = assemble.convert(files)
    dump = export.edition(edition)
    (work,) = dump["works"]
    return edition, dump, {c["id"]: c for c in work["chapters"]}, work


@pytest.fixture(scope="session")
def whole_edition():
    """The whole edition (``python -m conv dump`` with no argument: the five seeds and every
    文渊阁 file the manifest converts), converted once per session: read it, never change it."""
    from conv.anchors.ledger import Ledger
    from conv.edition import assemble, build

    return assemble.convert(build.edition_in(ROOT / "seeds"), ledger=Ledger.load(ROOT / "conv" / "data" / "anchors.tsv"),
                            full=True)


@pytest.fixture(scope="session")
def whole_dump(whole_edition):
    """The JSON export of the whole edition, as ``python -m conv dump --json`` prints it."""
    import json

    from conv.edition import export

    return json.loads(json.dumps(export.edition(whole_edition), ensure_ascii=False))


@pytest.fixture(scope="module")
def dump(edition):
    """The JSON export of ``edition``, as ``python -m conv dump --json`` prints it."""
    import json

    from conv.edition import export

    return json.loads(json.dumps(export.edition(edition), ensure_ascii=False))


def copy_front_pages(src: Path) -> None:
    """The real ``conf.py`` and the hand-written pages at the top of source/ (``index.md``, ``copyright.md``:
    底本与许可, which the front page links to) into ``src``."""
    for page in sorted((ROOT / "source").iterdir()):
        if page.is_file() and page.suffix in (".py", ".md"):
            shutil.copy(page, src / page.name)


def project_source(directory: Path) -> Path:
    """``directory/source``: the real ``conf.py``, front pages and notes of source/."""
    src = directory / "source"
    src.mkdir(parents=True)
    copy_front_pages(src)
    if (ROOT / "source" / "notes").is_dir():
        shutil.copytree(ROOT / "source" / "notes", src / "notes")
    return src


@pytest.fixture(scope="session")
def edition_source(tmp_path_factory) -> Path:
    """The seeds' edition as a project: the real ``conf.py``, ``index.md`` and notes with the
    converter's pages of the five seeds (chapters and back matter; ``--edition seeds``); made
    once per test run (``once``): read it, never change it."""
    def make(directory: Path) -> dict:
        src = project_source(directory)
        proc = subprocess.run([sys.executable, "-m", "conv", "build", "--edition", "seeds", "--out", str(src)],
                              capture_output=True, text=True, cwd=ROOT)
        return {"source": str(src), "returncode": proc.returncode, "stderr": proc.stderr}

    made = once(tmp_path_factory, "edition-source", make)
    if made["returncode"] != 0:
        pytest.fail(f"conversion failed:\n{made['stderr'][-3000:]}", pytrace=False)
    return Path(made["source"])


@pytest.fixture(scope="session")
def edition_html(edition_source, sphinx_build) -> SphinxBuild:
    """The seeds' edition built as HTML (``-j 2``, as ``make html`` on this machine)."""
    return sphinx_build(edition_source, "html", "-j", "2")


@pytest.fixture(scope="session")
def seeds_export() -> dict:
    """The JSON export of the seeds' edition (``python -m conv dump --edition seeds --json``)."""
    import json

    proc = subprocess.run([sys.executable, "-m", "conv", "dump", "--edition", "seeds", "--json"], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return json.loads(proc.stdout)


@pytest.fixture(scope="session")
def seeds_soup(edition_html):
    """A page of the seeds' edition (``edition_html``) by its docname, parsed once."""
    from bs4 import BeautifulSoup

    cache: dict = {}

    def get(docname: str):
        if docname not in cache:
            cache[docname] = BeautifulSoup(edition_html.html(docname), "html.parser")
        return cache[docname]

    return get


@pytest.fixture(scope="session")
def whole_html(tmp_path_factory, sphinx_build) -> SphinxBuild:
    """The whole edition (both works complete: the default) built as HTML once per test run as
    ``make html`` builds it: the real ``conf.py``, ``index.md`` and notes, the converter inside
    ``sphinx-build`` (``-D yl_seeds``, whole edition), ``-j auto``. Read it, never change it."""
    src = Path(once(tmp_path_factory, "whole-source", lambda directory: {"source": str(project_source(directory))})["source"])
    return sphinx_build(src, "html", "-j", "auto", "-D", f"yl_seeds={ROOT / 'seeds'}")


@pytest.fixture(scope="session")
def fixture_site(fixture_html, http_server) -> str:
    """The fixture project's HTML (``fixture_html``), served."""
    return http_server(fixture_html.outdir)


@pytest.fixture(scope="session")
def edition_site(edition_html, http_server) -> str:
    """The seeds' edition (chapters, apparatus, indices), served."""
    return http_server(edition_html.outdir)


@pytest.fixture(scope="session")
def whole_site(whole_html, http_server) -> str:
    """The whole edition (both works complete), served."""
    return http_server(whole_html.outdir)
