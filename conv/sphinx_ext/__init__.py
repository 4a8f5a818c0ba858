"""The edition's Sphinx extension (仪礼 Sphinx 扩展): the ``yl`` domain, its directives and roles,
the layer nodes with HTML/LaTeX/text visitors, the CJK newline transform and the search language.

``source/conf.py`` loads it as ``conv.sphinx_ext``. Each component lives in its own module with a
``setup_<component>(app)`` function; ``setup`` only calls them (the sphinx-design pattern).
"""
from __future__ import annotations

from sphinx.application import Sphinx


def setup(app: Sphinx) -> dict:
    # lazy: Python runs this module for any submodule, and conv.sphinx_ext.refs.cite alone (the
    # yl domain for another project) must not load every component
    from conv.sphinx_ext import components

    for setup_component in components.SETUPS:
        setup_component(app)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
