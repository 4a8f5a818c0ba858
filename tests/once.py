"""Work done once per test run, shared by pytest-xdist's worker processes (``make test`` runs
``pytest -n 2``): a whole-edition build costs a minute and more, and every worker would otherwise
make its own. The first worker that needs a thing makes it in a directory of the run's shared
temporary root, under an exclusive lock; the others wait for the lock and read what it made.
Without xdist the root is the session's own temporary directory and the lock is uncontested."""
from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator


def shared_root(tmp_path_factory) -> Path:
    """The temporary directory all of this run's workers share (xdist: the parent of each
    worker's own ``basetemp``)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def locked(root: Path, name: str) -> Iterator[Path]:
    """``root/name`` while this process holds the run's lock on ``name``."""
    with (root / f".{name}.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield root / name
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def once(tmp_path_factory, name: str, make: Callable[[Path], dict]) -> dict:
    """What ``make(directory)`` returned (a JSON-able dict) the first time any worker of this run
    asked for ``name``; ``make`` fills the empty ``directory`` and runs in one worker only."""
    with locked(shared_root(tmp_path_factory), name) as directory:
        record = directory / "made.json"
        if record.is_file():
            return json.loads(record.read_text(encoding="utf-8"))
        directory.mkdir(parents=True, exist_ok=True)
        made = make(directory)
        record.write_text(json.dumps(made, ensure_ascii=False), encoding="utf-8")
        return made
