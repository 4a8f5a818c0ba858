"""Simple options read at once (选项速读): the ``:key: value`` lines of the edition's own directives.

MyST reads a directive's option block with its own restricted YAML tokenizer
(``myst_parser.parsers.options``), a character at a time: on the whole 仪礼, 25,000 generated
directives (``yl:passage``, ``yl:parallel``, ``yl:app`` …) cost it about a tenth of the read, for
lines such as ``:layer: jing`` and ``:source: KR1d0038_005.txt:13:1``.

For a directive of this extension whose option block is nothing but such lines, each a key and
a value that the tokenizer reads as the plain text it is (no quote, block scalar, comment, tab,
control character or trailing space: :data:`SIMPLE`), :func:`fast_options` builds the very
result MyST builds — the same options, converted by the directive's ``option_spec``, the same
body and line count. Anything else (another block form, a key the spec lacks, a value its
converter refuses, another directive) goes to MyST's own function, which also reports what is
wrong. ``tests/test_speed_options.py`` compares both on generated option blocks and the doctrees
of a small edition built with and without it.

Private API (checked against myst-parser 5.2): ``myst_parser.parsers.directives._parse_directive_options``
(replaced in its module while a build runs: ``parse_directive_text`` looks it up there) and its
result class ``_DirectiveOptions``.
"""
from __future__ import annotations

import re
from typing import Any

from docutils.parsers.rst.directives import flag
from myst_parser.parsers import directives as myst_directives
from sphinx.application import Sphinx

from conv.sphinx_ext.speed.versions import compatible

#: One option line as MyST's tokenizer reads it to itself: ``:key:`` (an empty value), or
#: ``:key: value`` whose value starts with none of ``' " | > #`` or a space and holds no ``#``,
#: tab, control or line-breaking character, and does not end in a space.
SIMPLE = re.compile(
    r":([A-Za-z][A-Za-z0-9_-]*):"
    r"(?: ([^\x00-\x20'\"|>#\x7f\x85\u2028\u2029\ufeff]"
    r"(?:[^\x00-\x1f#\x7f\x85\u2028\u2029\ufeff]*[^\x00-\x20#\x7f\x85\u2028\u2029\ufeff])?))?")

#: The extension's directives live in this package.
OWN = "conv.sphinx_ext."


def own_directive(directive_class: type) -> bool:
    """Is ``directive_class`` one of the extension's (or Sphinx's domain adapter of one)?"""
    return any(cls.__module__.startswith(OWN) for cls in directive_class.__mro__)


def fast_options(content: str, directive_class: type, as_yaml: bool, line: int | None,
                 additional_options: dict[str, str] | None = None) -> Any | None:
    """MyST's ``_parse_directive_options`` result for a block of simple lines, else ``None``."""
    if as_yaml or additional_options or content.startswith("---") or not content.lstrip().startswith(":"):
        return None
    if not own_directive(directive_class):
        return None
    lines = content.splitlines()
    options: dict[str, str] = {}
    count = 0
    while count < len(lines) and myst_directives.is_option_line(lines[count]):
        found = SIMPLE.fullmatch(lines[count].lstrip())
        if found is None:
            return None
        options[found.group(1)] = found.group(2) or ""
        count += 1
    spec = directive_class.option_spec
    converted: dict[str, Any] = {}
    for name, value in options.items():
        converter = spec.get(name)
        if converter is None:
            return None  # MyST warns of the unknown key
        try:
            converted[name] = converter(None if converter is flag or not value else value)
        except (ValueError, TypeError):
            return None  # MyST warns of the value
    return myst_directives._DirectiveOptions("\n".join(lines[count:]), converted, [], True, count)


def install(app: Sphinx) -> None:
    """Put :func:`fast_options` before MyST's own reading for this build."""
    original = getattr(myst_directives._parse_directive_options, "yl_original", None)
    original = original or myst_directives._parse_directive_options

    def parse_options(content, directive_class, as_yaml, line, additional_options=None):
        found = fast_options(content, directive_class, as_yaml, line, additional_options)
        if found is None:
            return original(content, directive_class, as_yaml, line, additional_options)
        return found

    parse_options.yl_original = original  # type: ignore[attr-defined]
    myst_directives._parse_directive_options = parse_options


def uninstall(app: Sphinx, exception: BaseException | None) -> None:
    """MyST's own reading again once the build is over (other builds in the process)."""
    original = getattr(myst_directives._parse_directive_options, "yl_original", None)
    if original is not None:
        myst_directives._parse_directive_options = original


def setup_options(app: Sphinx) -> None:
    if compatible("options"):
        app.connect("builder-inited", install)
        app.connect("build-finished", uninstall)
