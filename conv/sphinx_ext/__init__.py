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
    from conv.sphinx_ext.util import code_version

    for setup_component in components.SETUPS:
        setup_component(app)
    # env_version: any change to the package's code or data reads every page again (util.code_version)
    return {"version": "0.1", "env_version": code_version(), "parallel_read_safe": True, "parallel_write_safe": True}
