"""What a build keeps for the next one (留存): results stored in the doctree directory under a
signature of everything they were made from.

An incremental build after an editor changed one notes page would otherwise make again, from an
unchanged environment, what the last build made: the index of terms and its page
(``conv.sphinx_ext.backmatter.terms``), the general index's content, the search index's entries of the
pages not written again (``conv.sphinx_ext.search.language``), ``objects.inv`` (``conv.sphinx_ext.refs.domain``),
the site's navigation (``conv.sphinx_ext.speed.navcache``). Each is kept in a file next to the pickled
environment: first the signature (a digest of the inputs), then the value. A reader gets the value
only when the signature is the one it computed for this build — a stale file is not read past
its signature —, and a file that cannot be read is as good as none: the value is made again.
Files are replaced whole (written aside, then renamed), so a process that reads one never sees it
half written, whichever of ``-j N``'s processes wrote it.
"""
from __future__ import annotations

import os
import pickle
from pathlib import Path

_FAILURES = (OSError, EOFError, pickle.UnpicklingError, AttributeError, TypeError, ValueError,
             ImportError, IndexError)


def read_kept(path: Path, signature: object):
    """The value kept in ``path`` under ``signature``, or ``None``."""
    try:
        with open(path, "rb") as handle:
            if pickle.load(handle) != signature:
                return None
            return pickle.load(handle)
    except _FAILURES:
        return None


def write_kept(path: Path, signature: object, value: object) -> None:
    """Keep ``value`` in ``path`` under ``signature`` (nothing is kept if the file cannot be
    written: the next build makes the value again)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as handle:
            pickle.dump(signature, handle, pickle.HIGHEST_PROTOCOL)
            pickle.dump(value, handle, pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


def file_stamps(paths) -> list:
    """``(path, mtime, size)`` of each file (``None``s for a missing one): the part of a signature
    that says the code or data a value was made from has not changed."""
    stamps = []
    for path in paths:
        try:
            stat = Path(path).stat()
            stamps.append((str(path), stat.st_mtime_ns, stat.st_size))
        except OSError:
            stamps.append((str(path), None, None))
    return stamps
