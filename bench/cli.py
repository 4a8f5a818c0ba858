"""The harness (基准): ``python -m bench [--quick] [options]`` — see bench/README.md.

Variants, timed in one run and alternated (a before b in even repeats, b before a in odd ones):

  a  the edition's full pipeline as ``make html`` runs it: ``sphinx-build -b html -j auto -D
     yl_seeds=SEEDS``, which converts the seeds first (conv/sphinx_ext/seeds.py), in a temporary
     project (copies of source/conf.py, source/index.md and the notes), from a cold start
  b  the floor: plain Sphinx (myst-parser, furo) on the same text as bare MyST paragraphs
  c  the converter alone, in a fresh interpreter (``python -m bench.converter``): characters/s
  d  incremental: after a, one hand-written notes page changed, ``sphinx-build`` again
  e  ``make latexpdf``'s equivalent on the seeds (skipped when xelatex is missing)

a and b run on the large generated corpus (``bench.corpus``) and on the seeds alone.
"""
from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from . import corpus as corpus_mod
from . import projects, report
from .runner import Run, _say, run

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PY = sys.executable

TARGETS = {
    "ratio_large": 1.5,  # (a)/(b) on the large corpus, at most
    "ratio_seeds": 1.25,  # (a)/(b) on the seeds, at most
    "large_html_s": 180.0,  # (a) on the large corpus, seconds, at most
    "peak_memory_mb": 2048.0,  # at most
    "converter_chars_per_s": 1_000_000.0,  # at least
    "incremental_s": 3.0,  # at most
    "searchindex_gz_mb": 4.0,  # at most
}


def sphinx_cmd(src: Path, builder: str, jobs: str) -> list:
    build = src / "_build"
    if builder == "latexpdf":
        return [PY, "-m", "sphinx", "-M", "latexpdf", src, build / "latexpdf", "-j", jobs]
    return [PY, "-m", "sphinx", "-b", builder, "-j", jobs, src, build / builder, "-d", build / "doctrees"]


def tree_size(path: Path) -> tuple[int, int]:
    """(bytes, files) under path."""
    total = count = 0
    for root, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(root, name))
            count += 1
    return total, count


def sizes(project: Path) -> dict:
    html = project / "_build" / "html"
    index = (html / "searchindex.js").read_bytes()
    html_bytes, html_files = tree_size(html)
    doctree_bytes, _ = tree_size(project / "_build" / "doctrees")
    return {
        "searchindex_bytes": len(index),
        "searchindex_gz_bytes": len(gzip.compress(index, compresslevel=6)),
        "html_bytes": html_bytes,
        "html_files": html_files,
        "doctrees_bytes": doctree_bytes,
        "source_md_chars": projects.text_chars(project),
    }


def environment(note: str) -> dict:
    def version(module: str) -> str:
        try:
            from importlib.metadata import version as v

            return v(module)
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
        "code_fingerprint": code_fingerprint(),
        "note": note,
    }


def code_fingerprint() -> str:
    """sha256 of the code and data under test (conv/, source/conf.py, source/index.md): other
    engineers edit them concurrently; a change during the run is reported."""
    import hashlib

    digest = hashlib.sha256()
    files = sorted(p for p in (ROOT / "conv").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files + [ROOT / "source" / "conf.py", ROOT / "source" / "index.md"]:
        digest.update(str(path.relative_to(ROOT)).encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            pass
    return digest.hexdigest()[:16]


class Bench:
    def __init__(self, args) -> None:
        self.args = args
        self.work = Path(args.workdir).resolve()
        self.logs = self.work / "logs"
        self.runs: list[dict] = []
        self.jobs = args.jobs
        self.counter = 0

    # -- set-up ----------------------------------------------------------------------------
    def setup(self) -> None:
        from conv.edition import assemble
        from conv.anchors.ledger import Ledger

        self.work.mkdir(parents=True, exist_ok=True)
        self.env = environment(self.args.note)
        _say(f"work dir {self.work}; load average {self.env['loadavg_start']}")
        self.large = corpus_mod.generate(self.work / "corpus", self.args.chars)
        self.seeds = corpus_mod.from_seeds()
        self.large_ledger = self.work / "corpus" / "anchors.tsv"  # never written: an empty ledger
        _say(f"corpus: {self.large.chars:,} characters in {len(self.large.copies)} seed files "
             f"({', '.join(f'{w} {n:,}' for w, n in self.large.chars_by_work().items())}); seeds alone {self.seeds.chars:,}")
        self.projects = {
            "edition-seeds": projects.edition_project(self.work / "edition-seeds"),
            "edition-large": projects.edition_project(self.work / "edition-large"),
        }
        _say("converting in-process for the plain (floor) projects")
        seeds_edition = assemble.convert(self.seeds.paths, full=True)
        large_edition = assemble.convert(self.large.paths, ledger=Ledger.load(self.large_ledger))
        self.projects["plain-seeds"] = projects.plain_project(self.work / "plain-seeds", seeds_edition)
        self.projects["plain-large"] = projects.plain_project(self.work / "plain-large", large_edition)
        self.problems = {"seeds": len(seeds_edition.problems), "large": len(large_edition.problems)}

    def seeds_options(self, which: str) -> list:
        """``-D`` options for the conversion inside ``sphinx-build`` (as ``make html`` passes them)."""
        if which == "seeds":  # seeds/ of the project, the committed ledger
            return ["-D", f"yl_seeds={ROOT / 'seeds'}"]
        return ["-D", f"yl_seeds={self.large.directory}", "-D", f"yl_seeds_ledger={self.large_ledger}"]

    def convert_cmd(self, which: str, out: Path) -> list:
        if which == "seeds":  # as `make convert` does: seeds/ from the project root, committed ledger
            return [PY, "-m", "conv", "build", "--out", out]
        return [PY, "-m", "conv", "build", *self.large.paths, "--out", out, "--ledger", self.large_ledger]

    def record(self, variant: str, corpus: str, step: str, result: Run, repeat: int) -> Run:
        entry = result.as_dict() | {"variant": variant, "corpus": corpus, "step": step, "repeat": repeat}
        if result.timed_out:
            entry["failed"] = f"stopped after {result.seconds:.0f} s (--timeout)"
        elif result.returncode != 0:
            entry["failed"] = f"exit status {result.returncode}"
        self.runs.append(entry)
        _say(f"{variant} {corpus:5} {step:9} {result.seconds:8.2f} s   cpu {result.cpu_s:8.2f} s   "
             f"peak {result.peak_tree_mb:6.0f} MB (tree PSS), maxrss {result.maxrss_mb:5.0f} MB, {result.warnings} warnings"
             + (f"   FAILED: {entry['failed']}, see {result.log}" if "failed" in entry else ""))
        return result

    def step(self, variant: str, corpus: str, step: str, cmd: list, log_name: str, repeat: int) -> bool:
        """Run and record one timed command; False when it failed or was stopped."""
        result = run(f"{variant} {corpus} {step}", cmd, self.logs / log_name, cwd=ROOT, check=False,
                     timeout_s=self.args.timeout)
        self.record(variant, corpus, step, result, repeat)
        return "failed" not in self.runs[-1]

    # -- variants ----------------------------------------------------------------------------
    def variant_a(self, which: str, repeat: int) -> bool:
        project = projects.edition_project(self.projects[f"edition-{which}"])  # cold: a fresh project
        return self.step("a", which, "sphinx", sphinx_cmd(project, "html", self.jobs) + self.seeds_options(which),
                         f"a-{which}-sphinx-{repeat}.log", repeat)

    def variant_b(self, which: str, repeat: int) -> bool:
        project = self.projects[f"plain-{which}"]
        shutil.rmtree(project / "_build", ignore_errors=True)
        return self.step("b", which, "sphinx", sphinx_cmd(project, "html", self.jobs), f"b-{which}-sphinx-{repeat}.log", repeat)

    def variant_d(self, which: str, repeat: int) -> None:
        """Right after variant a: one notes page changed, rebuild (``--incremental-repeats`` times).

        A rebuild that was not incremental (the pickled environment was discarded and every
        document added again, e.g. because someone changed the extension's code meanwhile) is
        recorded but marked invalid."""
        project = self.projects[f"edition-{which}"]
        for _ in range(self.args.incremental_repeats):
            self.counter += 1
            projects.touch_note(project, self.counter)
            if not self.step("d", which, "sphinx", sphinx_cmd(project, "html", self.jobs) + self.seeds_options(which),
                             f"d-{which}-sphinx-{repeat}-{self.counter}.log", repeat):
                return
            entry = self.runs[-1]
            if entry["docs_added"] or entry["env_reused"] is False:
                entry["invalid"] = (f"not incremental: {entry['docs_read']} documents read, environment "
                                    f"{'reused' if entry['env_reused'] else 'discarded'} (see {entry['log']})")
                _say(f"  ! {entry['invalid']}")

    def variant_c(self, which: str, repeat: int) -> None:
        cmd = [PY, "-m", "bench.converter", "--repeats", str(self.args.converter_repeats)]
        if which == "large":
            cmd += [*self.large.paths, "--ledger", self.large_ledger]
        log = f"c-{which}-{repeat}.log"
        if self.step("c", which, "converter", cmd, log, repeat):
            lines = [l for l in (self.logs / log).read_text(encoding="utf-8").splitlines() if l.startswith("{")]
            self.runs[-1]["converter"] = json.loads(lines[-1])

    def variant_e(self, repeat: int) -> None:
        project = self.projects["edition-seeds"]
        if not (project / "judou").is_dir():
            run("e convert (untimed)", self.convert_cmd("seeds", project), self.logs / f"e-convert-{repeat}.log", cwd=ROOT)
        shutil.rmtree(project / "_build" / "latexpdf", ignore_errors=True)
        self.step("e", "seeds", "latexpdf", sphinx_cmd(project, "latexpdf", self.jobs) + self.seeds_options("seeds"),
                  f"e-seeds-latexpdf-{repeat}.log", repeat)

    # -- the run --------------------------------------------------------------------------------
    def go(self) -> dict:
        wanted = set(self.args.only)
        latex = "e" in wanted and not self.args.no_latex
        latex_skipped = None
        if latex and not shutil.which("xelatex"):
            latex, latex_skipped = False, "xelatex not found: (e) latexpdf skipped (install texlive-xetex texlive-lang-chinese latexmk fonts-noto-cjk)"
            _say(latex_skipped)
        for repeat in range(self.args.repeats):
            _say(f"— repeat {repeat + 1}/{self.args.repeats} —")
            for which in ("seeds", "large"):
                pair = [("a", self.variant_a), ("b", self.variant_b)]
                if repeat % 2:
                    pair.reverse()
                for name, fn in pair:
                    if name in wanted:
                        ok = fn(which, repeat)
                        if name == "a" and ok and "d" in wanted:
                            self.variant_d(which, repeat)
            if "c" in wanted:
                self.variant_c("large", repeat)
                if repeat == 0:
                    self.variant_c("seeds", repeat)
            if latex:
                self.variant_e(repeat)
        sizes_out = {}
        for name, project in self.projects.items():
            if (project / "_build" / "html" / "searchindex.js").exists():
                sizes_out[name] = sizes(project)
        pdfs = sorted((self.projects["edition-seeds"] / "_build" / "latexpdf" / "latex").glob("*.pdf"))
        if pdfs:
            sizes_out["latexpdf-seeds"] = {"pdf_bytes": pdfs[0].stat().st_size}
        profile = self.profile() if self.args.profile else None
        return self.summarise(sizes_out, latex_skipped, profile)

    # -- profiles -------------------------------------------------------------------------------
    def profile(self) -> dict:
        """cProfile the converter, and -j 1 builds of the large corpus: the edition and the floor."""
        from . import profiles as prof

        out = {}
        conv_prof = self.work / "profile-converter.prof"
        run("profile converter", [PY, "-m", "bench.converter", *self.large.paths, "--ledger", self.large_ledger,
                                  "--profile", conv_prof], self.logs / "profile-converter.log", cwd=ROOT)
        project = projects.edition_project(self.projects["edition-large"])
        run("profile convert (untimed)", self.convert_cmd("large", project), self.logs / "profile-convert.log", cwd=ROOT)
        builds = {"sphinx_j1": project, "plain_j1": self.projects["plain-large"]}
        for name, source in builds.items():
            shutil.rmtree(source / "_build", ignore_errors=True)
            path = self.work / f"profile-{name}.prof"
            cmd = [PY, "-m", "cProfile", "-o", path] + sphinx_cmd(source, "html", "1")[1:]
            run(f"profile {name}", cmd, self.logs / f"profile-{name}.log", cwd=ROOT, timeout_s=self.args.timeout * 3)
        for name in ("converter", *builds):
            path = self.work / f"profile-{name}.prof"
            out[name] = prof.top(path)
            prof.write_text(path, path.with_suffix(".txt"))
            if name in builds:
                out[name]["phases"] = prof.phases(path)
        return out

    # -- summary --------------------------------------------------------------------------------
    def summarise(self, sizes_out: dict, latex_skipped: str | None, profile: dict | None) -> dict:
        def pick(variant, corpus, step):
            return [r for r in self.runs if r["variant"] == variant and r["corpus"] == corpus and r["step"] == step
                    and "failed" not in r]

        def med(values):
            return statistics.median(values) if values else None

        medians: dict[str, dict] = {}
        for corpus in ("seeds", "large"):
            sph = pick("a", corpus, "sphinx")  # the conversion runs inside sphinx-build
            if sph:
                totals = [s["seconds"] for s in sph]
                medians[f"a_{corpus}"] = {"total_s": med(totals),
                                          "cpu_s": med([r.get("cpu_s", 0) for r in sph]),
                                          "all_total_s": totals, "warnings": max(r["warnings"] for r in sph)}
            plain = pick("b", corpus, "sphinx")
            if plain:
                medians[f"b_{corpus}"] = {"total_s": med([r["seconds"] for r in plain]),
                                          "cpu_s": med([r.get("cpu_s", 0) for r in plain]),
                                          "all_total_s": [r["seconds"] for r in plain],
                                          "warnings": max(r["warnings"] for r in plain)}
            inc = pick("d", corpus, "sphinx")
            valid = [r for r in inc if not r.get("invalid")]
            if valid:
                medians[f"d_{corpus}"] = {"total_s": med([r["seconds"] for r in valid]), "all_total_s": [r["seconds"] for r in valid],
                                          "cpu_s": med([r.get("cpu_s", 0) for r in valid]),
                                          "invalid_s": [r["seconds"] for r in inc if r.get("invalid")]}
        latex_runs = pick("e", "seeds", "latexpdf")
        if latex_runs:
            medians["e_seeds"] = {"total_s": med([r["seconds"] for r in latex_runs]),
                                  "cpu_s": med([r.get("cpu_s", 0) for r in latex_runs]),
                                  "all_total_s": [r["seconds"] for r in latex_runs]}
        converter = {}
        for corpus in ("large", "seeds"):
            runs = [r["converter"] for r in pick("c", corpus, "converter")]
            if runs:
                cold = [r["runs"][0] for r in runs]
                warm = [x for r in runs for x in r["runs"][1:]]
                chars = runs[0]["chars"]
                converter[corpus] = {
                    "chars": chars,
                    "files": runs[0]["files"],
                    "import_s": med([r["import_s"] for r in runs]),
                    "cold_total_s": med([x["total_s"] for x in cold]),
                    "cold_convert_s": med([x["convert_s"] for x in cold]),
                    "cold_pages_s": med([x["pages_s"] for x in cold]),
                    "cold_chars_per_s": chars / med([x["total_s"] for x in cold]),
                    "cold_convert_chars_per_s": chars / med([x["convert_s"] for x in cold]),
                    "warm_convert_chars_per_s": chars / med([x["convert_s"] for x in warm]) if warm else None,
                    "warm_total_s": med([x["total_s"] for x in warm]) if warm else None,
                    "warm_chars_per_s": chars / med([x["total_s"] for x in warm]) if warm else None,
                    "process_s": med([r["seconds"] for r in pick("c", corpus, "converter")]),
                }
        ratios = {}
        for corpus in ("large", "seeds"):
            a, b = medians.get(f"a_{corpus}"), medians.get(f"b_{corpus}")
            if a and b:
                ratios[corpus] = a["total_s"] / b["total_s"]
                if a.get("cpu_s") and b.get("cpu_s"):
                    ratios[f"{corpus}_cpu"] = a["cpu_s"] / b["cpu_s"]
        memory = {}
        for variant in ("a", "b", "c", "d", "e"):
            for corpus in ("seeds", "large"):
                rs = [r for r in self.runs if r["variant"] == variant and r["corpus"] == corpus]
                if rs:
                    memory[f"{variant}_{corpus}"] = {"peak_tree_mb": max(r["peak_tree_mb"] for r in rs),
                                                     "maxrss_mb": max(r["maxrss_mb"] for r in rs)}
        peak = max((m["peak_tree_mb"] for m in memory.values()), default=None)
        targets = []

        def target(name, label, value, limit, at_most=True, unit=""):
            if value is None:
                targets.append({"name": name, "label": label, "value": None, "target": limit, "met": None, "unit": unit})
                return
            met = value <= limit if at_most else value >= limit
            targets.append({"name": name, "label": label, "value": value, "target": limit,
                            "op": "≤" if at_most else "≥", "met": met, "unit": unit})

        target("ratio_large", "(a)/(b) large corpus", ratios.get("large"), TARGETS["ratio_large"], unit="×")
        target("ratio_seeds", "(a)/(b) seeds", ratios.get("seeds"), TARGETS["ratio_seeds"], unit="×")
        target("large_html_s", "(a) large corpus HTML, -j " + self.jobs,
               (medians.get("a_large") or {}).get("total_s"), TARGETS["large_html_s"], unit="s")
        target("peak_memory_mb", "peak memory (any step, process-tree PSS)", peak, TARGETS["peak_memory_mb"], unit="MB")
        # the converter of issue #3: seeds → model with spans, conservation checked (conv.edition.assemble.convert);
        # writing the MyST pages (conv.myst.writer) is reported beside it, in the converter table
        target("converter_chars_per_s", "converter (seeds → model, conservation checked), large corpus, cold",
               (converter.get("large") or {}).get("cold_convert_chars_per_s"), TARGETS["converter_chars_per_s"], at_most=False, unit="chars/s")
        target("incremental_s", "(d) incremental after one notes page",
               (medians.get("d_large") or {}).get("total_s"), TARGETS["incremental_s"], unit="s")
        gz = (sizes_out.get("edition-large") or {}).get("searchindex_gz_bytes")
        target("searchindex_gz_mb", "searchindex.js gzipped, large corpus", gz / 2**20 if gz else None,
               TARGETS["searchindex_gz_mb"], unit="MB")
        env = self.env
        env["loadavg_end"] = os.getloadavg()
        env["code_changed_during_run"] = code_fingerprint() != env["code_fingerprint"]
        return {
            "date": dt.datetime.now().isoformat(timespec="seconds"),
            "mode": "quick" if self.args.quick else "full",
            "options": {"chars": self.args.chars, "repeats": self.args.repeats, "jobs": self.jobs,
                        "only": "".join(sorted(self.args.only)), "converter_repeats": self.args.converter_repeats,
                        "incremental_repeats": self.args.incremental_repeats},
            "environment": env,
            "corpus": self.large.summary() | {"problems": self.problems["large"]},
            "seeds": self.seeds.summary() | {"problems": self.problems["seeds"]},
            "medians": medians,
            "ratios": ratios,
            "converter": converter,
            "memory": memory,
            "sizes": sizes_out,
            "targets": targets,
            "latex_skipped": latex_skipped,
            "failures": [{k: r.get(k) for k in ("variant", "corpus", "step", "repeat", "failed", "seconds", "log")}
                         for r in self.runs if "failed" in r],
            "profile": profile,
            "runs": self.runs,
        }


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="a smaller corpus (200k characters) and one repeat; results in <date>-quick.json, latest-quick.md")
    parser.add_argument("--chars", type=int, help="size of the generated corpus in characters (default 800000; --quick 200000)")
    parser.add_argument("--repeats", type=int, help="repeats of each variant (default 3; --quick 1)")
    parser.add_argument("--converter-repeats", type=int, default=3, help="conversions per (c) process (first cold, rest warm)")
    parser.add_argument("--incremental-repeats", type=int, default=3, help="(d) rebuilds after each (a) (default 3)")
    parser.add_argument("--timeout", type=float, default=1200.0,
                        help="stop a command after this many seconds and record it as failed (default 1200)")
    parser.add_argument("--jobs", default="auto", help="sphinx-build -j (default auto)")
    parser.add_argument("--only", default="abcde", help="variants to run, e.g. 'ab' or 'cd' (d needs a)")
    parser.add_argument("--no-latex", action="store_true", help="skip (e)")
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile the converter and a -j 1 edition build of the large corpus (work dir profile-*.txt)")
    parser.add_argument("--workdir", default=str(ROOT / "build" / "bench"), help="where projects and builds go (default build/bench)")
    parser.add_argument("--results", default=str(RESULTS), help="where results go (default bench/results)")
    parser.add_argument("--no-save", action="store_true", help="print the summary, write no results file")
    parser.add_argument("--note", default="", help="a note stored with the results (e.g. machine load)")
    args = parser.parse_args(argv)
    args.chars = args.chars or (200_000 if args.quick else 800_000)
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.only = set(args.only)
    if "d" in args.only and "a" not in args.only:
        parser.error("--only: d (incremental) runs after a")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    work = Path(args.workdir).resolve()
    for forbidden in (ROOT / "seeds", ROOT / "source"):
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
        stem = dt.date.today().isoformat() + ("-quick" if args.quick else "")
        if (out / f"{stem}.json").exists():  # several runs a day: never overwrite an earlier one
            stem += "-" + str(next(n for n in range(2, 1000) if not (out / f"{stem}-{n}.json").exists()))
        (out / f"{stem}.json").write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (out / ("latest-quick.md" if args.quick else "latest.md")).write_text(text, encoding="utf-8")
        _say(f"results: {out / (stem + '.json')}, {out / ('latest-quick.md' if args.quick else 'latest.md')}")
    return 0
