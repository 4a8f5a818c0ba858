"""The environment (环境) of a benchmark run: machine, versions, git state, and a fingerprint of the code under test.

Other engineers edit the code concurrently: the fingerprint taken at the start is compared with
one taken at the end, and a change during the run is reported with the results.
"""
from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
from importlib.metadata import version as package_version

from bench.corpus import ROOT


def environment(note: str) -> dict:
    def version(module: str) -> str:
        try:
            return package_version(module)
        except Exception:
            return "?"

    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
        except Exception:
            return "?"

    cpu = "?"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except Exception:
        pass
    mem = "?"
    try:
        mem = next(line.split(":", 1)[1].strip() for line in open("/proc/meminfo") if line.startswith("MemTotal"))
    except Exception:
        pass
    xelatex = shutil.which("xelatex")
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "sphinx": version("sphinx"),
        "myst_parser": version("myst-parser"),
        "docutils": version("docutils"),
        "furo": version("furo"),
        "xelatex": xelatex or None,
        "git_commit": git("rev-parse", "--short", "HEAD"),
        "git_dirty_files": [line[3:] for line in git("status", "--porcelain").splitlines() if line.strip()],
        "loadavg_start": os.getloadavg(),
        # bench.runner.timed_environment: the timed commands cache bytecode whatever the shell says
        "shell_dont_write_bytecode": bool(os.environ.get("PYTHONDONTWRITEBYTECODE")),
        "code_fingerprint": code_fingerprint(),
        "note": note,
    }


def code_fingerprint() -> str:
    """sha256 of the code and data under test (conv/, source/conf.py, source/index.md): other
    engineers edit them concurrently; a change during the run is reported."""
    digest = hashlib.sha256()
    files = sorted(p for p in (ROOT / "conv").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files + [ROOT / "source" / "conf.py", ROOT / "source" / "index.md"]:
        digest.update(str(path.relative_to(ROOT)).encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            pass
    return digest.hexdigest()[:16]
