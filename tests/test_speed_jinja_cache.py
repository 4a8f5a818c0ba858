"""Compiled templates kept between builds (模板编译留存, ``conv/sphinx_ext/speed/jinja_cache.py``).

A template comes from the kept folder only while its source is the one it was compiled from, and
an environment set up otherwise (another extension: other compiled code) never reads another's
folder. That whole pages equal a clean build's with the cache on is ``tests/test_incremental.py``'s.
"""
from __future__ import annotations

import jinja2

from conv.sphinx_ext.speed.jinja_cache import cache_folder, keep_compiled


class CountingEnvironment(jinja2.Environment):
    compiled = 0

    def compile(self, *args, **kwargs):
        CountingEnvironment.compiled += 1
        return super().compile(*args, **kwargs)


def environment(templates, **options) -> CountingEnvironment:
    return CountingEnvironment(loader=jinja2.FileSystemLoader(str(templates)), **options)


def test_a_template_is_compiled_once_while_its_source_is_the_same(tmp_path):
    templates, doctrees = tmp_path / "t", tmp_path / "d"
    templates.mkdir()
    (templates / "page.html").write_text("<p>{{ title }}：{% for x in items %}{{ x }}{% endfor %}</p>",
                                         encoding="utf-8")
    CountingEnvironment.compiled = 0
    first = environment(templates)
    keep_compiled(first, doctrees)
    assert first.get_template("page.html").render(title="乡射礼", items="一二") == "<p>乡射礼：一二</p>"
    assert CountingEnvironment.compiled == 1 and any(cache_folder(doctrees, first).iterdir())
    second = environment(templates)  # the next build
    keep_compiled(second, doctrees)
    assert second.get_template("page.html").render(title="燕礼", items="三") == "<p>燕礼：三</p>"
    assert CountingEnvironment.compiled == 1  # taken from the cache
    (templates / "page.html").write_text("<h1>{{ title }}</h1>", encoding="utf-8")
    third = environment(templates)
    keep_compiled(third, doctrees)
    assert third.get_template("page.html").render(title="燕礼") == "<h1>燕礼</h1>"
    assert CountingEnvironment.compiled == 2  # the source changed: compiled again


def test_environments_set_up_otherwise_keep_apart(tmp_path):
    plain = environment(tmp_path)
    i18n = environment(tmp_path, extensions=["jinja2.ext.i18n"])
    assert cache_folder(tmp_path, plain) != cache_folder(tmp_path, i18n)
    assert cache_folder(tmp_path, plain) == cache_folder(tmp_path, environment(tmp_path))
    cached = environment(tmp_path, bytecode_cache=jinja2.FileSystemBytecodeCache(str(tmp_path)))
    mine = cached.bytecode_cache
    keep_compiled(cached, tmp_path / "d")
    assert cached.bytecode_cache is mine  # a cache set up elsewhere is left alone
