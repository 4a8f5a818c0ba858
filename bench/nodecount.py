"""Nodes (节点数) in a build's doctrees: how many, of which classes.

Every transform and post-transform walks every node of every page, so the count is what the cold
build pays for per walk (issue #18 point 5)::

    .venv/bin/python -m bench.nodecount build/bench/a-whole/_build/doctrees [--top 12]
"""
from __future__ import annotations

import argparse
import pickle
from collections import Counter
from pathlib import Path

from docutils import nodes


def count(doctrees: Path) -> tuple[Counter, int, int]:
    """(nodes per class name, doctree bytes, pages) of the ``*.doctree`` files under ``doctrees``."""
    counts: Counter = Counter()
    size = pages = 0
    for path in sorted(doctrees.rglob("*.doctree")):
        data = path.read_bytes()
        size += len(data)
        pages += 1
        doctree = pickle.loads(data)  # noqa: S301 (the build's own output)
        for node in doctree.findall():
            counts["Text" if isinstance(node, nodes.Text) else type(node).__name__] += 1
    return counts, size, pages


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("doctrees", type=Path, help="a build's doctrees folder")
    parser.add_argument("--top", type=int, default=12, help="how many classes to list")
    args = parser.parse_args(argv)
    counts, size, pages = count(args.doctrees)
    print(f"{pages} doctrees, {size / 1e6:.1f} MB, {sum(counts.values()):,} nodes")
    for name, number in counts.most_common(args.top):
        print(f"  {name:<24} {number:>10,}")


if __name__ == "__main__":
    main()
