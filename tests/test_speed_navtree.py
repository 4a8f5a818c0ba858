"""The theme's navigation tree kept between builds (``conv/sphinx_ext/speed/navtree.py``): furo's
tree of a page's toctree is made once, given back to a later build for the same HTML, made again
for other HTML. (That the pages are a clean build's: ``tests/test_incremental.py``; the same pages
without the speed layer: ``tests/test_speed_optional.py``.)"""
from __future__ import annotations

from types import SimpleNamespace

import furo
from furo.navigation import get_navigation_tree

from conv.sphinx_ext.speed import navtree
from conv.sphinx_ext.speed.kept import signature
from conv.sphinx_ext.speed.navcache import navigation_state

TOCTREE = ('<ul class="current"><li class="toctree-l1 current"><a class="reference internal" href="#">句读</a>'
           '<ul><li class="toctree-l2"><a class="reference internal" href="xiangshe.html">乡射礼</a></li></ul>'
           '</li></ul>')


def build(tmp_path, page: str | None = "judou/index"):
    """A build's application as the wrapper sees it, writing ``page``."""
    app = SimpleNamespace(builder=SimpleNamespace(), env=SimpleNamespace(doctreedir=str(tmp_path)))
    app.builder.yl_navigation = navigation_state(app.builder)
    app.builder.yl_navigation.signature = signature("navigation of this build")
    app.builder.yl_navigation.page = page
    return app


def counted(calls: list[str]):
    def original(html: str) -> str:
        calls.append(html)
        return get_navigation_tree(html)
    return original


def test_a_later_build_gets_the_tree_furo_made(tmp_path):
    calls: list[str] = []
    tree = navtree.kept_navigation_tree(build(tmp_path), counted(calls))(TOCTREE)
    assert tree == get_navigation_tree(TOCTREE) and 'class="toctree-checkbox"' in tree
    assert calls == [TOCTREE]
    again = navtree.kept_navigation_tree(build(tmp_path), counted(calls))(TOCTREE)
    assert again == tree and calls == [TOCTREE]  # kept: furo not asked


def test_other_html_or_another_page_is_made_again(tmp_path):
    calls: list[str] = []
    navtree.kept_navigation_tree(build(tmp_path), counted(calls))(TOCTREE)
    other = TOCTREE.replace("乡射礼", "燕礼")
    assert navtree.kept_navigation_tree(build(tmp_path), counted(calls))(other) == get_navigation_tree(other)
    navtree.kept_navigation_tree(build(tmp_path, "judou/yanli"), counted(calls))(TOCTREE)
    assert calls == [TOCTREE, other, TOCTREE]


def test_outside_a_page_furo_answers(tmp_path):
    calls: list[str] = []
    navtree.kept_navigation_tree(build(tmp_path, page=None), counted(calls))(TOCTREE)
    navtree.kept_navigation_tree(build(tmp_path, page=None), counted(calls))(TOCTREE)
    assert calls == [TOCTREE, TOCTREE] and not (tmp_path / "yl-nav").exists()


def test_furo_function_is_given_back_after_the_build(tmp_path):
    own = furo.get_navigation_tree
    app = build(tmp_path)
    app.builder.name = "html"
    app.config = SimpleNamespace(html_theme="furo")
    navtree.wrap_furo(app)
    try:
        assert furo.get_navigation_tree is not own and furo.get_navigation_tree.yl_original is own
    finally:
        navtree.unwrap_furo(app, None)
    assert furo.get_navigation_tree is own
