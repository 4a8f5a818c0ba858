"""The versions the speed layer was checked against (版本检查).

Each part of ``conv.sphinx_ext.speed`` leans on private attributes of Sphinx, MyST or docutils.
It runs only on the major.minor versions below; on any other it turns itself off with one log
line and the build goes on without it (slower, the same output).
"""
from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

from sphinx.util import logging

logger = logging.getLogger("conv.sphinx_ext.speed")

#: distribution → the major.minor version the speed layer was checked against.
CHECKED = {"sphinx": "9.0", "myst-parser": "5.2", "docutils": "0.22"}
_REPORTED: set[str] = set()


@cache
def installed(name: str) -> str:
    """The installed version of the distribution ``name`` (``"missing"`` when it is not); asked
    once per process (the metadata lookup costs milliseconds, and every part asks)."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "missing"


def mismatches() -> list[str]:
    """``name found (checked against X)`` for each distribution at another major.minor version."""
    found = []
    for name, checked in CHECKED.items():
        found_version = installed(name)
        if ".".join(found_version.split(".")[:2]) != checked:
            found.append(f"{name} {found_version} (checked against {checked})")
    return found


def compatible(part: str) -> bool:
    """May ``part`` run? Says once why not."""
    wrong = mismatches()
    if wrong and part not in _REPORTED:
        _REPORTED.add(part)
        logger.info(f"yl speed: {part} off: {', '.join(wrong)}")
    return not wrong
