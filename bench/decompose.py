"""Where the cold build's time goes (分解): ``python -m bench.decompose [--repeats N]``.

The benchmark's (a)/(b) ratio is one number: the conversion and every kind of page the edition
has, against the floor (the same text as bare MyST paragraphs, ``bench.projects.plain_project``).
This run splits it. The whole edition is converted once (timed, as (a′)'s ``convert`` step), and
three projects are made from that one conversion:

* **full**: the converted project as it is (Sphinx's part of (a), the same as (a′));
* **no copies**: the chapter pages without their ``yl:parallel`` blocks — the disclosures that
  copy each counterpart's words and notes (#20) and the 参见 links; the 互见 pages stay;
* **chapters**: also every back-matter page (``apparatus/``: the 校勘记, the 音义索引, 郑注训诂 and
  the 互见 pages) cut to its label and title — the chapter pages alone, with all their own markup
  (glosses, anchors, both views, search data, editorial notes).

Each is built cold with ``sphinx-build -b html -j JOBS``, alternating with the floor, ``--repeats``
times (medians). The cut projects leave references to entries they no longer hold: they are built
without ``-W`` and their warnings are counted, not fixed. The differences of the medians are what
each part costs: the conversion, the copies, the back matter, and the chapters' markup over the
floor. The results go to ``bench/results/decomposition.md`` (and a dated JSON file, never
overwriting an earlier one).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

from bench import projects
from bench.cli import unused_stem
from bench.corpus import FORBIDDEN, ROOT
from bench.environment import environment
from bench.harness import PY, sphinx_cmd
from bench.runner import _say, run

RESULTS = ROOT / "bench" / "results"
VARIANTS = ("full", "no-copies", "chapters", "floor")

#: A passage's parallel block as ``conv.myst.chapter`` writes it: the fence, its options, its close.
PARALLEL_BLOCK = re.compile(r"^:::\{yl:parallel\}[^\n]*\n(?::[^\n]*\n)*:::\n\n?", re.M)
#: What a cut back-matter page keeps: its front matter, labels and first heading.
KEPT_LINE = re.compile(r"^(\(.+\)=|# .+)$")


def without_copies(project: Path) -> int:
    """Remove the ``yl:parallel`` blocks from the chapter pages of ``project``; how many."""
    removed = 0
    for page in sorted(project.glob("*/*.md")):
        if page.parts[-2] in ("apparatus", "notes"):
            continue
        text, count = PARALLEL_BLOCK.subn("", page.read_text(encoding="utf-8"))
        if count:
            page.write_text(text, encoding="utf-8")
            removed += count
    return removed


def cut_back_matter(project: Path) -> int:
    """Cut each generated page under ``apparatus/`` to its front matter, the labels before its
    first heading and that heading; how many pages."""
    cut = 0
    for page in sorted((project / "apparatus").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        if not text.startswith(projects.GENERATED_HEADER):
            continue
        head, _, body = text[4:].partition("\n---\n")
        kept = []
        for line in body.split("\n"):
            if KEPT_LINE.match(line):
                kept.append(line)
                if line.startswith("# "):
                    break
        page.write_text(f"---\n{head}\n---\n" + "\n".join(kept) + "\n\n（本页从略。）\n", encoding="utf-8")
        cut += 1
    return cut


def make_projects(work: Path) -> tuple[dict[str, Path], dict]:
    """Convert once (timed) and make the four projects; what was cut."""
    full = projects.edition_project(work / "full")
    started = time.perf_counter()
    converted = run("convert", [PY, "-m", "conv", "build", "--edition", "whole", "--out", full],
                    work / "logs" / "convert.log", cwd=ROOT, check=False)
    if converted.returncode != 0:
        raise SystemExit(f"the conversion failed: see {converted.log}")
    info = {"convert_s": time.perf_counter() - started, "convert_cpu_s": converted.cpu_s}
    made = {"full": full}
    for name in ("no-copies", "chapters"):
        made[name] = work / name
        shutil.rmtree(made[name], ignore_errors=True)
        shutil.copytree(full, made[name], ignore=shutil.ignore_patterns("_build", ".converted"))
    info["parallel_blocks_removed"] = without_copies(made["no-copies"])
    without_copies(made["chapters"])
    info["back_matter_pages_cut"] = cut_back_matter(made["chapters"])
    from conv import cli
    from conv.edition import assemble
    edition = assemble.convert(cli.seed_paths([], "whole"), full=cli.whole_edition([], "whole"))
    made["floor"] = projects.plain_project(work / "floor", edition)
    return made, info


def build(name: str, project: Path, jobs: str, logs: Path, repeat: int) -> dict:
    shutil.rmtree(project / "_build", ignore_errors=True)
    result = run(f"{name} {repeat}", sphinx_cmd(project, "html", jobs) + ["--keep-going"],
                 logs / f"{name}-{repeat}.log", cwd=ROOT, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{name}: sphinx-build failed, see {result.log}")
    _say(f"{name:10s} {result.seconds:7.2f} s   cpu {result.cpu_s:7.2f} s   {result.warnings} warnings")
    return {"variant": name, "repeat": repeat, "seconds": result.seconds, "cpu_s": result.cpu_s,
            "warnings": result.warnings}


def medians(runs: list[dict]) -> dict[str, dict]:
    return {name: {key: statistics.median(r[key] for r in runs if r["variant"] == name) for key in ("seconds", "cpu_s")}
            | {"warnings": max(r["warnings"] for r in runs if r["variant"] == name)}
            for name in VARIANTS}


def markdown(results: dict) -> str:
    m, info = results["medians"], results["info"]
    floor = m["floor"]["seconds"]
    rows = [("the conversion (`python -m conv build`, before Sphinx)", info["convert_s"]),
            ("the counterparts' copies and 参见 links on the chapter pages (full − no copies)",
             m["full"]["seconds"] - m["no-copies"]["seconds"]),
            ("the back matter: 校勘记, 音义索引, 郑注训诂, 互见 pages (no copies − chapters)",
             m["no-copies"]["seconds"] - m["chapters"]["seconds"]),
            ("the chapters' own markup over bare paragraphs (chapters − floor)", m["chapters"]["seconds"] - floor),
            ("the floor: the same text as bare MyST paragraphs", floor)]
    total = info["convert_s"] + m["full"]["seconds"]
    lines = [f"# Where the cold build's time goes ({results['started'][:16]})", "",
             "Generated by `python -m bench.decompose` (see its docstring). "
             f"sphinx-build -b html -j {results['jobs']}, cold, medians of {results['repeats']} repeat(s), "
             "the variants alternated.", "",
             f"- Code: commit {results['env']['git_commit']}"
             f"{', uncommitted changes' if results['env']['git_dirty_files'] else ', clean tree'}; "
             f"load average {results['env']['loadavg_start']} at the start.",
             f"- Cut: {info['parallel_blocks_removed']:,} `yl:parallel` blocks, {info['back_matter_pages_cut']} back-matter pages.",
             "", "| variant | wall s | CPU s | × floor (wall) | warnings |", "|---|---:|---:|---:|---:|"]
    for name in VARIANTS:
        lines.append(f"| {name} | {m[name]['seconds']:.2f} | {m[name]['cpu_s']:.2f} | "
                     f"{m[name]['seconds'] / floor:.2f} | {m[name]['warnings']} |")
    lines += ["", f"The conversion once: {info['convert_s']:.2f} s wall. Conversion + full: {total:.2f} s = "
              f"{total / floor:.2f}× the floor.", "",
              "| part of the cold build | seconds | × floor | share |", "|---|---:|---:|---:|"]
    for label, seconds in rows:
        lines.append(f"| {label} | {seconds:.2f} | {seconds / floor:.2f} | {seconds / total:.0%} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.decompose", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", default="auto")
    parser.add_argument("--workdir", default=str(ROOT / "build" / "bench" / "decompose"))
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)
    work = Path(args.workdir).resolve()
    if any(work == f or f in work.parents for f in FORBIDDEN):
        print(f"error: --workdir {work} is inside a project folder", file=sys.stderr)
        return 2
    results = {"started": dt.datetime.now().isoformat(timespec="seconds"), "jobs": args.jobs,
               "repeats": args.repeats, "env": environment("")}
    made, results["info"] = make_projects(work)
    runs = []
    for repeat in range(args.repeats):
        order = VARIANTS if repeat % 2 == 0 else tuple(reversed(VARIANTS))
        runs += [build(name, made[name], args.jobs, work / "logs", repeat) for name in order]
    results["runs"], results["medians"] = runs, medians(runs)
    text = markdown(results)
    print(text)
    if not args.no_save:
        out = Path(args.results)
        stem = unused_stem(out, f"decomposition-{dt.date.today().isoformat()}")
        (out / f"{stem}.json").write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (out / "decomposition.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
