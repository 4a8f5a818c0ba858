"""Running one timed command (计时): wall time, peak memory, output log, progress on long runs.

Peak memory is measured two ways:

* ``maxrss_mb`` — the kernel's figure for the command: the largest resident set of the process
  *or of any of its waited-for descendants* (sphinx-build's ``-j`` workers are forked children),
  as ``/usr/bin/time`` reports it ("Maximum resident set size"). The command runs under
  ``/usr/bin/time`` when it exists: measured from ``os.wait4`` in this process instead, the figure
  would include this process's own size (a child spawned with vfork counts its parent's pages
  until it execs).
* ``peak_tree_mb`` — sampled every 0.1 s: the sum over the whole process tree of each process's
  proportional set size (PSS, ``/proc/PID/smaps_rollup``; pages shared after ``fork`` counted once
  overall), i.e. what the build takes from the machine at its peak. Falls back to the RSS sum
  where smaps_rollup cannot be read.

CPU time (``cpu_s``: user + system of the command and all its waited-for descendants, from
``os.wait4``) is recorded beside wall time: on a shared, loaded machine it is the steadier
measure of the work done (it sums the ``-j`` workers, so it is not a wall time).
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

SAMPLE_S = 0.1
UPDATED = re.compile(r"updating environment: (?:\[[^\]]*\] )?(\d+) added, (\d+) changed, (\d+) removed")


@dataclass
class Run:
    label: str
    cmd: list[str]
    seconds: float
    returncode: int
    maxrss_mb: float
    peak_tree_mb: float
    warnings: int = 0
    log: str = ""
    first_warnings: list[str] = field(default_factory=list)
    cpu_s: float = 0.0  # user + system CPU time of the command and all its waited-for descendants
    loadavg: tuple = ()  # the machine's 1/5/15-minute load when the command started
    docs_read: int | None = None  # sphinx-build: documents read ("N added, M changed")
    docs_added: int | None = None  # of which added (all of them when the environment was discarded)
    timed_out: bool = False
    env_reused: bool | None = None  # sphinx-build: the pickled environment was loaded

    def as_dict(self) -> dict:
        out = asdict(self)
        out["cmd"] = " ".join(self.cmd)
        return out


def _children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as handle:
                    out.extend(int(c) for c in handle.read().split())
            except OSError:
                pass
    except OSError:
        pass
    return out


def _tree(pid: int) -> list[int]:
    seen, todo = [], [pid]
    while todo:
        current = todo.pop()
        seen.append(current)
        todo.extend(_children(current))
    return seen


def _memory_kb(pid: int) -> int:
    """PSS of one process (kB), or its RSS when smaps_rollup is unreadable; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _kill_tree(pid: int) -> None:
    """Terminate the process ``pid`` started and everything below it (then kill what is left)."""
    pids = _tree(pid)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for p in reversed(pids):
            try:
                os.kill(p, sig)
            except ProcessLookupError:
                pass
        time.sleep(2)


def timed_environment() -> dict:
    """The environment of a timed command: this process's, but bytecode is cached as Python does
    by default (a shell's ``PYTHONDONTWRITEBYTECODE`` would make every build compile the
    converter's modules again, which no reader's build does twice)."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run(label: str, cmd: list[str], log: Path, cwd: Path | None = None, progress_s: float = 15.0,
        env: dict | None = None, check: bool = True, timeout_s: float | None = None) -> Run:
    """Run ``cmd``; its stdout and stderr go to ``log``; a progress line every ``progress_s``.

    After ``timeout_s`` the command and its descendants are stopped and the run is marked
    ``timed_out`` (a hung build must not hang the benchmark)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    state = {"last": "", "warnings": 0, "first": []}
    lock = threading.Lock()
    handle = log.open("w", encoding="utf-8", errors="replace")
    handle.write("$ " + " ".join(map(str, cmd)) + "\n")

    def pump(stream, is_err: bool) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with lock:
                handle.write(line + "\n")
                if line.strip():
                    state["last"] = line.strip()
                if is_err and ("WARNING" in line or "ERROR" in line):
                    state["warnings"] += 1
                    if len(state["first"]) < 5:
                        state["first"].append(line.strip()[:300])
        stream.close()

    loadavg = os.getloadavg()
    timer = Path("/usr/bin/time")
    rss_file = log.with_suffix(".maxrss")
    argv = [str(c) for c in cmd]
    if timer.exists():
        argv = [str(timer), "-o", str(rss_file), "-f", "%M"] + argv
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=timed_environment() if env is None else env)
    threads = [threading.Thread(target=pump, args=(proc.stdout, False), daemon=True),
               threading.Thread(target=pump, args=(proc.stderr, True), daemon=True)]
    for thread in threads:
        thread.start()
    peak = [0]
    done = threading.Event()
    timed_out = [False]

    def sample() -> None:
        next_report = start + progress_s
        while not done.is_set():
            total = sum(_memory_kb(p) for p in _tree(proc.pid))
            peak[0] = max(peak[0], total)
            now = time.perf_counter()
            if timeout_s is not None and now - start > timeout_s and not timed_out[0]:
                timed_out[0] = True
                _say(f"  ! {label}: no result after {timeout_s:.0f} s: stopping it")
                _kill_tree(proc.pid)
            if now >= next_report:
                with lock:
                    last = state["last"]
                _say(f"  … {label}: {now - start:5.0f} s, {total / 1024:6.0f} MB now — {last[:100]}")
                next_report = now + progress_s
            done.wait(SAMPLE_S)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    done.set()
    proc.returncode = os.waitstatus_to_exitcode(status)
    sampler.join()
    for thread in threads:
        thread.join()
    handle.close()
    maxrss_kb = usage.ru_maxrss
    if timer.exists():
        try:
            maxrss_kb = int(rss_file.read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
    result = Run(label, [str(c) for c in cmd], seconds, proc.returncode, maxrss_kb / 1024, peak[0] / 1024,
                 state["warnings"], str(log), state["first"], usage.ru_utime + usage.ru_stime, loadavg)
    result.timed_out = timed_out[0]
    text = log.read_text(encoding="utf-8", errors="replace")
    updated = UPDATED.search(text)
    if updated:
        result.docs_read = int(updated.group(1)) + int(updated.group(2))
        result.docs_added = int(updated.group(1))
    if "loading pickled environment" in text:
        result.env_reused = "loading pickled environment... failed" not in text
    elif updated:
        result.env_reused = False
    if check and (proc.returncode != 0 or result.timed_out):
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-20:]
        raise RuntimeError(f"{label} failed (exit {proc.returncode}); see {log}:\n" + "\n".join(tail))
    return result
