"""What a build keeps for the next one (留存): values stored in the doctree directory under one
signature of everything they were made from.

An incremental build after an editor changed one notes page would otherwise make again, from an
unchanged environment, what the last build made: the site's navigation of every page written
(``conv.sphinx_ext.speed.navcache``) and the search index's entries of the pages not written again
(``conv.sphinx_ext.speed.search_entries``). Each is kept in a file next to the pickled environment:
first its :class:`Signature`, then the value.

The signature is the same for every kept value (签名): a digest of the package — every file under
``conv/`` but ``__pycache__``: the code, the data tables, the templates and static files, whatever
a value may have been made with —, the versions of Sphinx, MyST and docutils, and a digest of the
value's own inputs (what of the environment it was made from). No list of input files is written
by hand: a change to any file of the package makes every kept value stale.

A reader gets the value only when the signature is the one it computed for this build — a stale
file is not read past its signature —, and a file that cannot be read is as good as none: the
value is made again. Files are replaced whole (written aside, then renamed), so a process that
reads one never sees it half written, whichever of ``-j N``'s processes wrote it.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from conv.sphinx_ext.speed.versions import installed
from conv.sphinx_ext.util import PACKAGE_DIR, files_digest

#: The libraries whose versions the signature holds (distribution names).
LIBRARIES = ("sphinx", "myst-parser", "docutils")

_FAILURES = (OSError, EOFError, pickle.UnpicklingError, AttributeError, TypeError, ValueError,
             ImportError, IndexError)


class Signature(NamedTuple):
    """What a kept value was made from (留存签名): the package's files, the libraries, its inputs."""

    code: str  # code_digest(): every file of the package
    libraries: tuple[tuple[str, str], ...]  # library_versions()
    inputs: str  # a digest of the value's own inputs

    def with_inputs(self, *more: object) -> Signature:
        """The signature of a value made from this one's inputs and ``more`` (a page, arguments)."""
        return self._replace(inputs=_digest((self.inputs, more)))


def code_digest(root: Path | None = None) -> str:
    """A digest of every file under ``root`` (the package ``conv/``) but ``__pycache__``
    (``conv.sphinx_ext.util.files_digest``). The package's is made once per build (the signatures of one build
    are many: every kept page); ``forget_code_digest`` at each build's ``config-inited`` makes the next build read
    the files again."""
    return _package_digest() if root is None else files_digest(root)


@lru_cache(maxsize=1)
def _package_digest() -> str:
    return code_digest(PACKAGE_DIR)


def forget_code_digest(app: object = None, config: object = None) -> None:
    """Digest the package's files again at the next signature (a new build: ``config-inited``)."""
    _package_digest.cache_clear()


def setup_kept(app) -> None:
    app.connect("config-inited", forget_code_digest)


def library_versions() -> tuple[tuple[str, str], ...]:
    """``(distribution, version)`` of Sphinx, MyST and docutils as installed."""
    return tuple((name, installed(name)) for name in LIBRARIES)


def signature(*inputs: object) -> Signature:
    """The signature of a value made from ``inputs`` (their ``repr`` is digested) by this
    package with these libraries."""
    return Signature(code_digest(), library_versions(), _digest(inputs))


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode("utf-8")).hexdigest()


def file_state(path: Path) -> tuple[int, int] | None:
    """A written file's size and modification time (what a value kept beside it describes), or
    ``None`` when it is not there."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


def read_kept(path: Path, expected: Signature):
    """The value kept in ``path`` under the signature ``expected``, or ``None``."""
    try:
        with open(path, "rb") as handle:
            if pickle.load(handle) != expected:
                return None
            return pickle.load(handle)
    except _FAILURES:
        return None


def write_kept(path: Path, made_from: Signature, value: object) -> None:
    """Keep ``value`` in ``path`` under the signature ``made_from`` (nothing is kept if the file
    cannot be written: the next build makes the value again)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as handle:
            pickle.dump(made_from, handle, pickle.HIGHEST_PROTOCOL)
            pickle.dump(value, handle, pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
