"""The command line (命令行): ``python -m conv dump|build|clean|anchors|suspects``.

  python -m conv dump [SEED…] --json      the model as JSON (the whole edition when none is given)
  python -m conv build [SEED…] --out DIR  write the MyST pages under DIR (source/)
  python -m conv clean --out DIR          remove the generated pages (never a hand-written file)
  python -m conv anchors [SEED…]          check the anchor ledger (exit 1 when it is not up to date)
  python -m conv anchors --update         issue new anchors into the ledger (conv/data/anchors.tsv)
  python -m conv anchors --keep OLD NEW | --redirect OLD NEW [--note WHY]
                                          record the decision on a changed or retired anchor
                                          (the workflow: README, "The anchor ledger")
  python -m conv suspects                 the suspected misprints between the works, for review
                                          (``conv.collate.suspects``; the reviewed: conv/data/misprints.toml)

With no SEED, the edition is the whole edition of ``seeds/`` (``conv.edition.build.edition_in``:
the five seeds and every 文渊阁 file the manifest marks ``convert = true``); ``--edition seeds``
takes the five seeds alone, as giving ``seeds/*.txt`` does.

``dump``, ``build`` and ``anchors`` take ``--ledger PATH`` (default: conv/data/anchors.tsv); only
``anchors --update|--keep|--redirect`` write it. ``build`` with no SEED writes the conversion
stamp ``DIR/.converted`` (``make``'s rule, ``conv.edition.build.up_to_date``).

Errors print ``file:line:col: message`` and a hint, and exit with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conv.anchors import decisions
from conv.anchors.ledger import Ledger, display
from conv.collate import suspects
from conv.edition import assemble, build, export
from conv.errors import ConversionError
from conv.myst import writer
from conv.reader.manifest import PROJECT_SEEDS

DEFAULT_SEEDS = Path("seeds")


def seed_paths(given: list[str], which: str = "whole") -> list[Path]:
    """The files given, or the edition ``which`` of ``seeds/``."""
    if given:
        return [Path(p) for p in given]
    base = DEFAULT_SEEDS if DEFAULT_SEEDS.is_dir() else PROJECT_SEEDS
    return build.edition_in(base, which)


def whole_edition(given: list[str], which: str = "whole") -> bool:
    """No SEED given, the whole edition, and seeds/ is the project's: every ledger anchor is checked."""
    base = DEFAULT_SEEDS if DEFAULT_SEEDS.is_dir() else PROJECT_SEEDS
    return not given and which == "whole" and base.resolve() == PROJECT_SEEDS.resolve()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conv", description="Convert the 仪礼 witnesses into MyST.")
    commands = parser.add_subparsers(dest="command", required=True)
    dump_parser = commands.add_parser("dump", help="print the model as JSON")
    dump_parser.add_argument("seeds", nargs="*")
    dump_parser.add_argument("--json", action="store_true", help="JSON output (the only format)")
    dump_parser.add_argument("--ledger", help="anchor ledger to read (default: conv/data/anchors.tsv)")
    build_parser = commands.add_parser("build", help="write MyST pages")
    build_parser.add_argument("seeds", nargs="*")
    build_parser.add_argument("--out", default="source")
    build_parser.add_argument("--ledger", help="anchor ledger to read (default: conv/data/anchors.tsv)")
    anchors_parser = commands.add_parser("anchors", help="check or update the anchor ledger")
    anchors_parser.add_argument("seeds", nargs="*")
    anchors_parser.add_argument("--ledger", help="the ledger (default: conv/data/anchors.tsv)")
    anchors_parser.add_argument("--update", action="store_true", help="write the ledger: issue new anchors, refresh spans")
    anchors_parser.add_argument("--keep", nargs=2, action="append", default=[], metavar=("OLD", "NEW"),
                        help="OLD names the changed passage shown as NEW (corrected, the same passage): it keeps OLD")
    anchors_parser.add_argument("--redirect", nargs=2, action="append", default=[], metavar=("OLD", "TARGET"),
                        help="citations of OLD (changed or retired) land on TARGET (a passage, section or chapter anchor)")
    anchors_parser.add_argument("--note", default="", help="why (recorded with --redirect)")
    suspects_parser = commands.add_parser("suspects", help="list suspected misprints between the works")
    suspects_parser.add_argument("--ledger", help="anchor ledger to read (default: conv/data/anchors.tsv)")
    suspects_parser.add_argument("seeds", nargs="*")
    for sub in (dump_parser, build_parser, anchors_parser, suspects_parser):
        sub.add_argument("--edition", choices=build.EDITIONS, default="whole",
                         help="with no SEED: the whole edition (default) or the five seeds alone")
    clean_parser = commands.add_parser("clean", help="remove generated pages")
    clean_parser.add_argument("--out", default="source")
    args = parser.parse_args(argv)
    try:
        if args.command == "clean":
            skipped: list[Path] = []
            for path in writer.clean(Path(args.out), skipped):
                print(f"removed {path}", file=sys.stderr)
            for path in skipped:
                print(f"skipped {path}: not UTF-8 and not a generated page (left alone: check it)", file=sys.stderr)
            return 0
        if args.command == "build":
            out = Path(args.out)
            written = build.build(seed_paths(args.seeds, args.edition), out, Path(args.ledger) if args.ledger else None,
                                  full=whole_edition(args.seeds, args.edition), say=lambda line: print(line, file=sys.stderr))
            if not args.seeds:
                build.mark_converted(out, written, args.edition)
            return 0
        ledger = Ledger.load(Path(args.ledger) if args.ledger else None)
        if args.command == "anchors":
            return anchors_command(args, ledger)
        edition = assemble.convert(seed_paths(args.seeds, args.edition), ledger=ledger,
                                   full=whole_edition(args.seeds, args.edition))
        if args.command == "suspects":
            return suspects_command(edition)
        json.dump(export.edition(edition), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    except ConversionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except FileNotFoundError as error:
        print(f"error: {error.filename}: no such file", file=sys.stderr)
        return 2
    return 0


def suspects_command(edition) -> int:
    """One line per suspected misprint: the file:line:col of the character, its passage, the context as printed,
    the other reading and the passages that print it; reviewed ones (conv/data/misprints.toml) marked so."""
    found = suspects.suspects(edition)
    for suspect in found:
        line, col = edition.sources[suspect.file].position(suspect.offset)
        state = ("reviewed (the edition reads it otherwise)" if suspect.reviewed
                 else f"stands ({suspect.stands})" if suspect.stands else "to review")
        print(f"{suspect.file}:{line}:{col}: {suspect.anchor}: {suspect.printed} in {suspect.context}; "
              f"{suspect.other} in {len(suspect.elsewhere)} places ({', '.join(suspect.elsewhere)}): {state}")
    waiting = sum(1 for suspect in found if not suspect.reviewed and not suspect.stands)
    print(f"conv: {len(found)} suspected misprints, {waiting} to review: a misprint goes into conv/data/misprints.toml "
          "(words = true) with its evidence, one that stands into its [[stands]] with the reason", file=sys.stderr)
    return 0


def anchors_command(args, ledger) -> int:
    """Check the ledger against the conversion, or write it (--update, --keep, --redirect)."""
    paths, full = seed_paths(args.seeds, args.edition), whole_edition(args.seeds, args.edition)
    name = display(ledger.path)
    edition = assemble.convert(paths, ledger=ledger, full=full)
    outcome = edition.anchors
    writing = args.update or args.keep or args.redirect
    if args.keep or args.redirect:
        try:
            decided, pending = decisions.decide(outcome, [tuple(k) for k in args.keep], [tuple(r) for r in args.redirect], args.note)
        except decisions.DecisionError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        edition = assemble.convert(paths, ledger=decided, full=full)
        outcome = edition.anchors
        decisions.settle(outcome, pending)
    for problem in outcome.problems:
        print(f"{problem['seed']}:{problem['line']}:{problem['col']}: {problem['kind']}: {problem['message']}", file=sys.stderr)
    if outcome.unresolved:
        print(f"conv: {name} {'not written' if writing else 'is not up to date'}: every changed or retired anchor needs "
              "a decision (--keep or --redirect, all in one command)", file=sys.stderr)
        return 2 if writing else 1
    try:
        new = decisions.updated(outcome)
    except decisions.DecisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    old_text = ledger.path.read_text(encoding="utf-8") if ledger.path.exists() else ""
    for item in outcome.provisional:
        seed, start, _ = item.span
        line, col = edition.sources[seed].position(start)
        print(f"{'issued' if writing else 'new'} {item.anchor}\t{seed}:{line}:{col}\t{item.opening}", file=sys.stderr)
    for anchor, entry in sorted(new.entries.items()):
        before = ledger.get(anchor)
        if before is not None and before.live and entry.live and before.row() != entry.row():
            print(f"{'refreshed' if writing else 'moved'} {anchor}\t{entry.seed} {entry.start}–{entry.end}\t{entry.opening}", file=sys.stderr)
    for entry in new.redirects():
        if ledger.get(entry.anchor) is None or ledger.get(entry.anchor).live:
            print(f"redirect {entry.anchor} → {entry.to}", file=sys.stderr)
    if new.dumps() == old_text:
        print(f"conv: {name} is up to date ({len(new.entries)} anchors)", file=sys.stderr)
        return 0
    if not writing:
        print(f"conv: {name} is not up to date: run `python -m conv anchors --update` and review its diff", file=sys.stderr)
        return 1
    new.save(ledger.path)
    print(f"conv: {name} written ({len(new.entries)} anchors, {len(outcome.provisional)} issued)", file=sys.stderr)
    return 0
