"""Another Sphinx project cites the edition's passages through intersphinx (tests/fixtures/citer):
against the built edition's objects.inv, read from a local file (no network)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup

from citing import cited_edition_source
from conftest import FIXTURES, ROOT

CITER = FIXTURES / "citer"
URL = "https://yili.example.org/"


@pytest.fixture(scope="module")
def edition(tmp_path_factory, sphinx_build):
    src, _ = cited_edition_source(tmp_path_factory)
    return sphinx_build(src, "html", "-j", "auto")


@pytest.fixture(scope="module")
def inventory_env(edition):
    """``YILI_INVENTORY`` set for the citer's builds (they inherit the environment)."""
    saved = {name: os.environ.get(name) for name in ("YILI_INVENTORY", "YILI_URL")}
    os.environ["YILI_INVENTORY"] = str(edition.outdir / "objects.inv")
    os.environ["YILI_URL"] = URL
    yield edition.outdir / "objects.inv"
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="module")
def citer(inventory_env, sphinx_build):
    return sphinx_build(CITER, "html")


def test_objects_inv_reads_with_intersphinx(inventory_env):
    proc = subprocess.run([sys.executable, "-m", "sphinx.ext.intersphinx", str(inventory_env)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "yl:passage" in proc.stdout and "judou-xiangshe-12" in proc.stdout


def test_citer_resolves_through_intersphinx(citer):
    soup = BeautifulSoup(citer.html("index"), "html.parser")
    items = [(li.get_text(), li.a["href"] if li.a else None) for li in soup.select("section li")]
    passage = URL + "judou/xiangshe.html#judou-xiangshe-12"
    assert items == [
        ("段：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("自定：下射", passage),
        ("章：《句读·乡射礼》司射诱射", URL + "judou/xiangshe.html#judou-xiangshe-s1"),
        ("篇：《通解·大射仪》", URL + "tongjie/dashe.html#tongjie-dashe"),
        ("旧锚：《句读·乡射礼》司马出于下射之南还其后降…", passage),  # a redirected anchor
        ("external：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("ref：《句读·乡射礼》司马出于下射之南还其后降…", passage),
        ("ref 自定：第十二段", passage),
        ("external ref：《句读·乡射礼》司马出于下射之南还其后降…", passage),
    ]
    for li in soup.select("section li"):
        assert li.a["href"].endswith(("judou/xiangshe.html#judou-xiangshe-12", "#judou-xiangshe-s1", "#tongjie-dashe"))
        assert "external" in li.a["class"]


def test_citer_unknown_anchor_is_an_error_at_file_and_line(tmp_path, inventory_env, sphinx_build):
    src = tmp_path / "citer"
    shutil.copytree(CITER, src)
    (src / "index.md").write_text("# 引用\n\n见 {yl:cite}`judou-xiangshe-12`。\n\n又见 {yl:cite}`judou-xiangshe-1200`。\n",
                                  encoding="utf-8")
    build = sphinx_build(src, "html", check=False)
    assert build.returncode != 0
    assert "index.md:5: WARNING: yl:cite: unknown anchor 'judou-xiangshe-1200'" in build.warnings
    assert build.warnings.count("unknown anchor") == 1
