"""The converter alone (转换器), timed in a fresh interpreter: ``python -m bench.converter``.

  python -m bench.converter [SEED…] [--ledger PATH] [--repeats N] [--profile OUT.prof]

Prints one JSON object: the import time, then for each repeat the time of ``conv.edition.assemble.convert``
(read, parse, corrections, anchors, readings, conservation) and of ``conv.myst.writer.pages`` (the MyST
text, in memory). The first repeat is *cold* (the converter's tables — variants, 广韵, terms —
are loaded lazily on first use); the later ones are warm. With no SEED: the project's seeds, as a
whole edition (``full``), as ``python -m conv build`` converts them.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

T0 = time.perf_counter()
from conv import cli  # noqa: E402
from conv.myst import writer  # noqa: E402
from conv.edition import assemble
from conv.anchors.ledger import Ledger  # noqa: E402

IMPORT_S = time.perf_counter() - T0


def measure(paths: list[Path], ledger: Path | None, full: bool, repeats: int) -> dict:
    chars = sum(len(p.read_bytes().decode("utf-8")) for p in paths)
    runs = []
    for _ in range(repeats):
        t = time.perf_counter()
        edition = assemble.convert(paths, ledger=Ledger.load(ledger), full=full)
        t_convert = time.perf_counter() - t
        t = time.perf_counter()
        pages = writer.pages(edition)
        t_pages = time.perf_counter() - t
        runs.append({"convert_s": t_convert, "pages_s": t_pages, "total_s": t_convert + t_pages,
                     "chars_per_s": chars / (t_convert + t_pages)})
    return {"import_s": IMPORT_S, "files": len(paths), "chars": chars, "pages": len(pages),
            "page_chars": sum(len(t) for t in pages.values()), "problems": len(edition.problems), "runs": runs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.converter")
    parser.add_argument("seeds", nargs="*")
    parser.add_argument("--ledger")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", help="write a cProfile of one cold conversion here instead of timing")
    args = parser.parse_args(argv)
    paths = cli.seed_paths(args.seeds)
    full = cli.whole_edition(args.seeds)
    ledger = Path(args.ledger) if args.ledger else None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
        edition = assemble.convert(paths, ledger=Ledger.load(ledger), full=full)
        writer.pages(edition)
        profiler.disable()
        profiler.dump_stats(args.profile)
        return 0
    json.dump(measure(paths, ledger, full, args.repeats), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
