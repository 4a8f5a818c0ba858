"""The harness (基准): one benchmark run — set-up, the timed variants a–e, profiles, and the results.

``Bench`` builds the corpora and projects (``bench.corpus``, ``bench.projects``), runs each variant
as a timed command (``bench.runner``), alternating a and b across repeats, and gathers the runs,
sizes (``bench.sizes``), environment (``bench.environment``) and summary (``bench.summary``) into
the results that ``bench.report`` renders. The command line is ``bench.cli``.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sys
from pathlib import Path

from bench import corpus as corpus_mod
from bench import pdfcheck, profiles, projects, summary
from bench.corpus import ROOT
from bench.environment import code_fingerprint, environment
from bench.runner import Run, _say, run
from bench.sizes import sizes

PY = sys.executable


def sphinx_cmd(src: Path, builder: str, jobs: str) -> list:
    build = src / "_build"
    if builder == "latexpdf":
        return [PY, "-m", "sphinx", "-M", "latexpdf", src, build / "latexpdf", "-j", jobs]
    return [PY, "-m", "sphinx", "-b", builder, "-j", jobs, src, build / builder, "-d", build / "doctrees"]


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

        self.work.mkdir(parents=True, exist_ok=True)
        self.env = environment(self.args.note)
        _say(f"work dir {self.work}; load average {self.env['loadavg_start']}")
        self.whole = corpus_mod.whole_edition(self.work)
        self.seeds = corpus_mod.from_seeds()
        _say(f"the whole edition: {self.whole.chars:,} characters in {len(self.whole.copies)} files "
             f"({', '.join(f'{w} {n:,}' for w, n in self.whole.chars_by_work().items())}; "
             f"{'the converter' if self.whole.own_list else 'explicit'} list, -D yl_seeds={self.whole.directory}); "
             f"seeds alone {self.seeds.chars:,}")
        self.projects = {
            "edition-seeds": projects.edition_project(self.work / "edition-seeds"),
            "edition-whole": projects.edition_project(self.work / "edition-whole"),
        }
        _say("converting in-process for the plain (floor) projects")
        seeds_edition = assemble.convert(self.seeds.paths)  # the seeds alone: not the whole ledger
        whole_edition = assemble.convert(self.whole.paths, full=self.whole.own_list)
        self.projects["plain-seeds"] = projects.plain_project(self.work / "plain-seeds", seeds_edition)
        self.projects["plain-whole"] = projects.plain_project(self.work / "plain-whole", whole_edition)
        self.problems = {"seeds": len(seeds_edition.problems), "whole": len(whole_edition.problems)}

    def seeds_options(self, which: str) -> list:
        """``-D`` options for the conversion inside ``sphinx-build`` (as ``make html`` passes them)."""
        if which == "seeds":  # seeds/ of the project, the committed ledger
            return ["-D", f"yl_seeds={ROOT / 'seeds'}", "-D", "yl_edition=seeds"]
        return ["-D", f"yl_seeds={self.whole.directory}"]  # the committed ledger too

    def convert_cmd(self, which: str, out: Path) -> list:
        if which == "seeds":  # as `make convert` does: seeds/ from the project root, committed ledger
            return [PY, "-m", "conv", "build", "--edition", "seeds", "--out", out]
        return [PY, "-m", "conv", "build", *self.whole.paths, "--out", out]

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

    def variant_a1(self, which: str, repeat: int) -> bool:
        """(a′): Sphinx alone on the converted MyST — (a) without the conversion inside it. The
        seeds are converted first (``python -m conv build``, as ``make convert``; recorded as its
        own step), then a fresh build of the project without ``-D yl_seeds``."""
        project = projects.edition_project(self.work / f"converted-{which}")  # cold: a fresh project
        if not self.step("a1", which, "convert", self.convert_cmd(which, project),
                         f"a1-{which}-convert-{repeat}.log", repeat):
            return False
        return self.step("a1", which, "sphinx", sphinx_cmd(project, "html", self.jobs),
                         f"a1-{which}-sphinx-{repeat}.log", repeat)

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
        if which == "whole":
            cmd += [*self.whole.paths]
        else:  # the five seeds given: with none, the converter takes the whole edition
            cmd += [*self.seeds.paths]
        log = f"c-{which}-{repeat}.log"
        if self.step("c", which, "converter", cmd, log, repeat):
            lines = [l for l in (self.logs / log).read_text(encoding="utf-8").splitlines() if l.startswith("{")]
            self.runs[-1]["converter"] = json.loads(lines[-1])

    def variant_e(self, repeat: int) -> None:
        """``make latexpdf`` of the whole edition (converting inside sphinx-build as it does), then
        what the PDFs hold: fonts, missing characters (``bench.pdfcheck``; not timed)."""
        project = projects.edition_project(self.work / "pdf-whole")  # cold: a fresh project of its own
        if self.step("e", "whole", "latexpdf", sphinx_cmd(project, "latexpdf", self.jobs) + self.seeds_options("whole"),
                     f"e-whole-latexpdf-{repeat}.log", repeat):
            self.runs[-1]["pdf"] = pdfcheck.check(project / "_build" / "latexpdf" / "latex")

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
            for which in ("seeds", "whole"):
                pair = [("a", self.variant_a), ("a1", self.variant_a1), ("b", self.variant_b)]
                if repeat % 2:
                    pair.reverse()
                for name, fn in pair:
                    if name[0] in wanted:  # (a′) runs with (a)
                        ok = fn(which, repeat)
                        if name == "a" and ok and "d" in wanted:
                            self.variant_d(which, repeat)
            if "c" in wanted:
                self.variant_c("whole", repeat)
                if repeat == 0:
                    self.variant_c("seeds", repeat)
            if latex and repeat == 0:  # once: the whole edition's PDF takes minutes
                self.variant_e(repeat)
        sizes_out = {}
        for name, project in self.projects.items():
            if (project / "_build" / "html" / "searchindex.js").exists():
                sizes_out[name] = sizes(project)
        for pdf in sorted((self.work / "pdf-whole" / "_build" / "latexpdf" / "latex").glob("*.pdf")):
            sizes_out[f"latexpdf-whole {pdf.name}"] = {"pdf_bytes": pdf.stat().st_size}
        profile = self.profile() if self.args.profile else None
        return self.summarise(sizes_out, latex_skipped, profile)

    # -- profiles -------------------------------------------------------------------------------
    def profile(self) -> dict:
        """cProfile the converter, and -j 1 builds of the whole edition: the edition and the floor."""
        out = {}
        conv_prof = self.work / "profile-converter.prof"
        run("profile converter", [PY, "-m", "bench.converter", *self.whole.paths,
                                  "--profile", conv_prof], self.logs / "profile-converter.log", cwd=ROOT)
        project = projects.edition_project(self.projects["edition-whole"])
        run("profile convert (untimed)", self.convert_cmd("whole", project), self.logs / "profile-convert.log", cwd=ROOT)
        builds = {"sphinx_j1": project, "plain_j1": self.projects["plain-whole"]}
        for name, source in builds.items():
            shutil.rmtree(source / "_build", ignore_errors=True)
            path = self.work / f"profile-{name}.prof"
            cmd = [PY, "-m", "cProfile", "-o", path] + sphinx_cmd(source, "html", "1")[1:]
            run(f"profile {name}", cmd, self.logs / f"profile-{name}.log", cwd=ROOT, timeout_s=self.args.timeout * 3)
        for name in ("converter", *builds):
            path = self.work / f"profile-{name}.prof"
            out[name] = profiles.top(path)
            profiles.write_text(path, path.with_suffix(".txt"))
            if name in builds:
                out[name]["phases"] = profiles.phases(path)
        return out

    # -- summary --------------------------------------------------------------------------------
    def summarise(self, sizes_out: dict, latex_skipped: str | None, profile: dict | None) -> dict:
        medians = summary.median_times(self.runs)
        converter = summary.converter_rates(self.runs)
        ratios = summary.build_ratios(medians)
        memory = summary.peak_memory(self.runs)
        targets = summary.targets_met(medians, ratios, converter, memory, sizes_out, self.jobs)
        env = self.env
        env["loadavg_end"] = os.getloadavg()
        env["code_changed_during_run"] = code_fingerprint() != env["code_fingerprint"]
        return {
            "date": dt.datetime.now().isoformat(timespec="seconds"),
            "mode": "quick" if self.args.quick else "full",
            "options": {"repeats": self.args.repeats, "jobs": self.jobs,
                        "only": "".join(sorted(self.args.only)), "converter_repeats": self.args.converter_repeats,
                        "incremental_repeats": self.args.incremental_repeats},
            "environment": env,
            "corpus": self.whole.summary() | {"problems": self.problems["whole"]},
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

