"""The theme's templates compiled once, kept between builds (模板编译留存).

Every HTML build compiles the theme's Jinja templates again (furo's ``page.html``, ``base.html``,
their partials, the edition's own: 23 of them), about a tenth of a second of CPU: a thirtieth of
a rebuild after one editorial note was edited. Jinja keeps compiled templates through its public
bytecode cache (``jinja2.FileSystemBytecodeCache``, set as the environment's ``bytecode_cache``):
a template is taken from the cache only while its source is the one it was compiled from (Jinja
compares a checksum of the source) and the cache's format is this Jinja's on this Python.

What else the compiled code depends on — the environment's extensions (``jinja2.ext.i18n`` when
the project has a language) and Jinja's version — names the cache's folder in the doctree
directory, ``yl-jinja/<digest>/``, so an environment set up otherwise never reads another's code.
Only public APIs: Sphinx's ``builder.templates.environment`` (its ``BuiltinTemplateLoader``) and
Jinja's bytecode cache.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2
from sphinx.application import Sphinx

JINJA_DIR = "yl-jinja"


def cache_folder(doctreedir: str | Path, environment: jinja2.Environment) -> Path:
    """The folder of the compiled templates of environments set up as ``environment``."""
    setup = repr((jinja2.__version__, sorted(environment.extensions), environment.autoescape,
                  environment.block_start_string, environment.variable_start_string,
                  environment.comment_start_string, environment.line_statement_prefix,
                  environment.trim_blocks, environment.lstrip_blocks))
    return Path(doctreedir) / JINJA_DIR / hashlib.sha256(setup.encode("utf-8")).hexdigest()[:16]


def keep_compiled(environment: jinja2.Environment, doctreedir: str | Path) -> None:
    """Let ``environment`` take its compiled templates from, and put them in, the kept folder
    (nothing when it has a cache already or the folder cannot be made)."""
    if environment.bytecode_cache is not None:
        return
    folder = cache_folder(doctreedir, environment)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    environment.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))


def keep_builder_templates(app: Sphinx) -> None:
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if isinstance(environment, jinja2.Environment):
        keep_compiled(environment, app.doctreedir)


def setup_jinja_cache(app: Sphinx) -> None:
    app.connect("builder-inited", keep_builder_templates)
