"""Pausing Python's cyclic garbage collector (暂停循环垃圾回收) while a big, acyclic structure is built.

The edition model is a tree of many small objects, and the generated pages are strings: neither
makes reference cycles. Python's cyclic collector would walk the growing model again and again
(a fifth of the conversion time on a whole work), for nothing; reference counting still frees
everything at once. Any cycle made meanwhile is found by the first collection after the pause.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Disable the cyclic collector inside the block (if it was enabled), then restore it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
