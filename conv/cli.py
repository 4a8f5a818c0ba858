"""The command line (命令行): ``python -m conv dump|build|clean``.

  python -m conv dump [SEED…] --json      the model as JSON (all of seeds/ when none is given)
  python -m conv build [SEED…] --out DIR  write the MyST pages under DIR (source/)
  python -m conv clean --out DIR          remove the generated pages (never a hand-written file)

Errors print ``file:line:col: message`` and a hint, and exit with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import ConversionError

DEFAULT_SEEDS = Path("seeds")


def seed_paths(given: list[str]) -> list[Path]:
    if given:
        return [Path(p) for p in given]
    base = DEFAULT_SEEDS if DEFAULT_SEEDS.is_dir() else Path(__file__).resolve().parent.parent / "seeds"
    return sorted(base.glob("*.txt"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conv", description="Convert the 仪礼 witnesses into MyST.")
    commands = parser.add_subparsers(dest="command", required=True)
    dump = commands.add_parser("dump", help="print the model as JSON")
    dump.add_argument("seeds", nargs="*")
    dump.add_argument("--json", action="store_true", help="JSON output (the only format)")
    build = commands.add_parser("build", help="write MyST pages")
    build.add_argument("seeds", nargs="*")
    build.add_argument("--out", default="source")
    clean = commands.add_parser("clean", help="remove generated pages")
    clean.add_argument("--out", default="source")
    args = parser.parse_args(argv)
    try:
        if args.command == "clean":
            from . import writer

            for path in writer.clean(Path(args.out)):
                print(f"removed {path}", file=sys.stderr)
            return 0
        from . import assemble, export

        edition = assemble.convert(seed_paths(args.seeds))
        if args.command == "dump":
            json.dump(export.edition(edition), sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        else:
            from . import writer

            written = writer.write(edition, Path(args.out))
            for problem in edition.problems:
                print(f"{problem['seed']}:{problem['line']}:{problem['col']}: {problem['kind']}: {problem['message']}", file=sys.stderr)
            print(f"conv: {len(written)} pages written or unchanged under {args.out}/", file=sys.stderr)
    except ConversionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except FileNotFoundError as error:
        print(f"error: {error.filename}: no such file", file=sys.stderr)
        return 2
    return 0
