"""Summary (汇总) of a benchmark run: medians per variant, converter rates, ratios, memory, and the targets met.

Every function reads the recorded runs (``Bench.runs``: one dict per timed command, see
``bench.runner.Run``); failed runs are left out of medians, incremental rebuilds that were not
incremental are reported apart.
"""
from __future__ import annotations

import statistics

#: Issue #18 (the whole edition): (a)/(b) ≤ 2, one note edited ≤ 2 s, searchindex.js ≤ 3 MB gzipped,
#: the PDF ≤ 15 minutes; the others are earlier issues' (#3, #17).
TARGETS = {
    "ratio_whole": 2.0,  # (a)/(b) on the whole edition, at most
    "ratio_seeds": 1.25,  # (a)/(b) on the seeds, at most
    "whole_html_s": 180.0,  # (a) on the whole edition, seconds, at most
    "peak_memory_mb": 2048.0,  # at most
    "converter_chars_per_s": 1_000_000.0,  # at least
    "incremental_s": 2.0,  # at most
    "searchindex_gz_mb": 3.0,  # at most
    "latexpdf_s": 900.0,  # (e) on the whole edition, at most
}


def pick(runs: list[dict], variant: str, corpus: str, step: str) -> list[dict]:
    """The runs of one variant, corpus and step that did not fail."""
    return [r for r in runs if r["variant"] == variant and r["corpus"] == corpus and r["step"] == step
            and "failed" not in r]


def med(values):
    return statistics.median(values) if values else None


def median_times(runs: list[dict]) -> dict[str, dict]:
    """Median wall and CPU times of the Sphinx builds (a, b, d, e), per corpus."""
    out: dict[str, dict] = {}
    for corpus in ("seeds", "whole"):
        sph = pick(runs, "a", corpus, "sphinx")  # the conversion runs inside sphinx-build
        if sph:
            totals = [s["seconds"] for s in sph]
            out[f"a_{corpus}"] = {"total_s": med(totals),
                                  "cpu_s": med([r.get("cpu_s", 0) for r in sph]),
                                  "all_total_s": totals, "warnings": max(r["warnings"] for r in sph)}
        alone = pick(runs, "a1", corpus, "sphinx")  # (a′): Sphinx alone, on MyST converted beforehand
        if alone:
            out[f"a1_{corpus}"] = {"total_s": med([r["seconds"] for r in alone]),
                                   "cpu_s": med([r.get("cpu_s", 0) for r in alone]),
                                   "all_total_s": [r["seconds"] for r in alone],
                                   "warnings": max(r["warnings"] for r in alone)}
        plain = pick(runs, "b", corpus, "sphinx")
        if plain:
            out[f"b_{corpus}"] = {"total_s": med([r["seconds"] for r in plain]),
                                  "cpu_s": med([r.get("cpu_s", 0) for r in plain]),
                                  "all_total_s": [r["seconds"] for r in plain],
                                  "warnings": max(r["warnings"] for r in plain)}
        inc = pick(runs, "d", corpus, "sphinx")
        valid = [r for r in inc if not r.get("invalid")]
        if valid:
            out[f"d_{corpus}"] = {"total_s": med([r["seconds"] for r in valid]), "all_total_s": [r["seconds"] for r in valid],
                                  "cpu_s": med([r.get("cpu_s", 0) for r in valid]),
                                  "invalid_s": [r["seconds"] for r in inc if r.get("invalid")]}
    latex_runs = pick(runs, "e", "whole", "latexpdf")
    if latex_runs:
        out["e_whole"] = {"total_s": med([r["seconds"] for r in latex_runs]),
                          "cpu_s": med([r.get("cpu_s", 0) for r in latex_runs]),
                          "all_total_s": [r["seconds"] for r in latex_runs]}
    return out


def converter_rates(runs: list[dict]) -> dict[str, dict]:
    """The converter alone (c), per corpus: import time, cold and warm times and characters per second."""
    converter = {}
    for corpus in ("whole", "seeds"):
        measured = [r["converter"] for r in pick(runs, "c", corpus, "converter")]
        if measured:
            cold = [r["runs"][0] for r in measured]
            warm = [x for r in measured for x in r["runs"][1:]]
            chars = measured[0]["chars"]
            converter[corpus] = {
                "chars": chars,
                "files": measured[0]["files"],
                "import_s": med([r["import_s"] for r in measured]),
                "cold_total_s": med([x["total_s"] for x in cold]),
                "cold_convert_s": med([x["convert_s"] for x in cold]),
                "cold_pages_s": med([x["pages_s"] for x in cold]),
                "cold_chars_per_s": chars / med([x["total_s"] for x in cold]),
                "cold_convert_chars_per_s": chars / med([x["convert_s"] for x in cold]),
                "warm_convert_chars_per_s": chars / med([x["convert_s"] for x in warm]) if warm else None,
                "warm_total_s": med([x["total_s"] for x in warm]) if warm else None,
                "warm_chars_per_s": chars / med([x["total_s"] for x in warm]) if warm else None,
                "process_s": med([r["seconds"] for r in pick(runs, "c", corpus, "converter")]),
            }
    return converter


def build_ratios(medians: dict[str, dict]) -> dict[str, float]:
    """(a)/(b), wall time and CPU time, per corpus."""
    out = {}
    for corpus in ("whole", "seeds"):
        b = medians.get(f"b_{corpus}")
        for variant, key in (("a", corpus), ("a1", f"{corpus}_a1")):  # (a)/(b) and (a′)/(b)
            a = medians.get(f"{variant}_{corpus}")
            if a and b:
                out[key] = a["total_s"] / b["total_s"]
                if a.get("cpu_s") and b.get("cpu_s"):
                    out[f"{key}_cpu"] = a["cpu_s"] / b["cpu_s"]
    return out


def peak_memory(runs: list[dict]) -> dict[str, dict]:
    """Peak memory per variant and corpus: process-tree PSS and the largest process's max RSS."""
    out = {}
    for variant in ("a", "a1", "b", "c", "d", "e"):
        for corpus in ("seeds", "whole"):
            rs = [r for r in runs if r["variant"] == variant and r["corpus"] == corpus]
            if rs:
                out[f"{variant}_{corpus}"] = {"peak_tree_mb": max(r["peak_tree_mb"] for r in rs),
                                              "maxrss_mb": max(r["maxrss_mb"] for r in rs)}
    return out


def targets_met(medians: dict, ratios: dict, converter: dict, memory: dict, sizes_out: dict, jobs: str) -> list[dict]:
    """Each target (``TARGETS``) with the value measured and whether it is met (None: not measured)."""
    out = []

    def target(name, label, value, limit, at_most=True, unit=""):
        if value is None:
            out.append({"name": name, "label": label, "value": None, "target": limit, "met": None, "unit": unit})
            return
        met = value <= limit if at_most else value >= limit
        out.append({"name": name, "label": label, "value": value, "target": limit,
                    "op": "≤" if at_most else "≥", "met": met, "unit": unit})

    peak = max((m["peak_tree_mb"] for m in memory.values()), default=None)
    target("ratio_whole", "(a)/(b) whole edition", ratios.get("whole"), TARGETS["ratio_whole"], unit="×")
    target("ratio_whole_cpu", "(a)/(b) whole edition, CPU time", ratios.get("whole_cpu"), TARGETS["ratio_whole"], unit="×")
    target("ratio_seeds", "(a)/(b) seeds", ratios.get("seeds"), TARGETS["ratio_seeds"], unit="×")
    target("whole_html_s", "(a) whole edition HTML, -j " + jobs,
           (medians.get("a_whole") or {}).get("total_s"), TARGETS["whole_html_s"], unit="s")
    target("peak_memory_mb", "peak memory (any step, process-tree PSS)", peak, TARGETS["peak_memory_mb"], unit="MB")
    # the converter of issue #3: seeds → model with spans, conservation checked (conv.edition.assemble.convert);
    # writing the MyST pages (conv.myst.writer) is reported beside it, in the converter table
    target("converter_chars_per_s", "converter (seeds → model, conservation checked), whole edition, cold",
           (converter.get("whole") or {}).get("cold_convert_chars_per_s"), TARGETS["converter_chars_per_s"], at_most=False, unit="chars/s")
    target("incremental_s", "(d) one editorial note edited, whole edition",
           (medians.get("d_whole") or {}).get("total_s"), TARGETS["incremental_s"], unit="s")
    target("incremental_cpu_s", "(d) one editorial note edited, whole edition, CPU time",
           (medians.get("d_whole") or {}).get("cpu_s"), TARGETS["incremental_s"], unit="s")
    gz = (sizes_out.get("edition-whole") or {}).get("searchindex_gz_bytes")
    target("searchindex_gz_mb", "searchindex.js gzipped, whole edition", gz / 2**20 if gz else None,
           TARGETS["searchindex_gz_mb"], unit="MB")
    target("latexpdf_s", "(e) latexpdf, whole edition", (medians.get("e_whole") or {}).get("total_s"),
           TARGETS["latexpdf_s"], unit="s")
    return out
