"""The harness (基准): ``python -m bench [--quick] [options]`` — see bench/README.md.

Variants, timed in one run and alternated (a before b in even repeats, b before a in odd ones):

  a  the edition's full pipeline as ``make html`` runs it: ``sphinx-build -b html -j auto -D
     yl_seeds=SEEDS``, which converts the seeds first (conv/sphinx_ext/seeds.py), in a temporary
     project (copies of source/conf.py, source/index.md and the notes), from a cold start
  b  the floor: plain Sphinx (myst-parser, furo) on the same text as bare MyST paragraphs
  c  the converter alone, in a fresh interpreter (``python -m bench.converter``): characters/s
  d  incremental: after a, one hand-written notes page changed, ``sphinx-build`` again
  e  ``make latexpdf``'s equivalent on the whole edition, and what its PDFs hold (fonts, missing
     characters: ``bench.pdfcheck``); skipped when xelatex is missing

a, b and d run on the whole edition (the five seeds and the 文渊阁 transcription: ``bench.corpus``)
and on the seeds alone.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

from bench import report
from bench.corpus import FORBIDDEN, ROOT
from bench.harness import Bench
from bench.runner import _say

RESULTS = ROOT / "bench" / "results"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="one repeat, one incremental rebuild, no PDF; results in <date>-quick.json, latest-quick.md")
    parser.add_argument("--repeats", type=int, help="repeats of each variant (default 3; --quick 1)")
    parser.add_argument("--converter-repeats", type=int, default=3, help="conversions per (c) process (first cold, rest warm)")
    parser.add_argument("--incremental-repeats", type=int, help="(d) rebuilds after each (a) (default 3; --quick 1)")
    parser.add_argument("--timeout", type=float, default=2700.0,
                        help="stop a command after this many seconds and record it as failed (default 2700: the whole PDF)")
    parser.add_argument("--jobs", default="auto", help="sphinx-build -j (default auto)")
    parser.add_argument("--only", default="abcde", help="variants to run, e.g. 'ab' or 'cd' (d needs a)")
    parser.add_argument("--no-latex", action="store_true", help="skip (e)")
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile the converter and a -j 1 edition build of the whole edition (work dir profile-*.txt)")
    parser.add_argument("--workdir", default=str(ROOT / "build" / "bench"), help="where projects and builds go (default build/bench)")
    parser.add_argument("--results", default=str(RESULTS), help="where results go (default bench/results)")
    parser.add_argument("--no-save", action="store_true", help="print the summary, write no results file")
    parser.add_argument("--note", default="", help="a note stored with the results (e.g. machine load)")
    args = parser.parse_args(argv)
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.incremental_repeats = args.incremental_repeats or (1 if args.quick else 3)
    args.no_latex = args.no_latex or args.quick
    args.only = set(args.only)
    if "d" in args.only and "a" not in args.only:
        parser.error("--only: d (incremental) runs after a")
    return args


def unused_stem(out: Path, stem: str) -> str:
    """``stem``, or ``stem-2``, ``stem-3``…: several runs a day never overwrite an earlier results file."""
    if (out / f"{stem}.json").exists():
        stem += "-" + str(next(n for n in range(2, 1000) if not (out / f"{stem}-{n}.json").exists()))
    return stem


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    work = Path(args.workdir).resolve()
    for forbidden in FORBIDDEN:
        if work == forbidden or forbidden in work.parents:
            print(f"error: --workdir {work} is inside {forbidden}", file=sys.stderr)
            return 2
    started = time.perf_counter()
    bench = Bench(args)
    bench.setup()
    results = bench.go()
    results["wall_s"] = time.perf_counter() - started
    text = report.markdown(results)
    print(text)
    if not args.no_save:
        out = Path(args.results)
        out.mkdir(parents=True, exist_ok=True)
        stem = unused_stem(out, dt.date.today().isoformat() + ("-quick" if args.quick else ""))
        (out / f"{stem}.json").write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (out / ("latest-quick.md" if args.quick else "latest.md")).write_text(text, encoding="utf-8")
        _say(f"results: {out / (stem + '.json')}, {out / ('latest-quick.md' if args.quick else 'latest.md')}")
    return 0
