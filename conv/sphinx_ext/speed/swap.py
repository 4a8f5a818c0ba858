"""A library's function swapped for a build (构建期替换), and given back after it.

Two parts of the speed layer put a function of their own in place of a library's, for the
length of a build: MyST's option reading (``options.py``) and furo's navigation tree
(``navtree.py``). The library's function is kept on the one put in its place (``yl_original``),
so that swapping twice wraps the library's function, not the wrapper, and restoring needs
nothing but the module.
"""
from __future__ import annotations

from types import ModuleType
from typing import Callable

#: The attribute of a swapped-in function that holds the library's own.
ORIGINAL = "yl_original"


def swap(module: ModuleType, name: str, make: Callable[[Callable], Callable]) -> None:
    """Put ``make(original)`` in ``module.name`` in place of the library's ``original``."""
    current = getattr(module, name)
    original = getattr(current, ORIGINAL, current)
    wrapper = make(original)
    setattr(wrapper, ORIGINAL, original)
    setattr(module, name, wrapper)


def restore(module: ModuleType, name: str) -> None:
    """The library's own function in ``module.name`` again (nothing when it was not swapped)."""
    original = getattr(getattr(module, name), ORIGINAL, None)
    if original is not None:
        setattr(module, name, original)
