"""Same pages (页面比对): build one small edition with two checkouts and compare their output.

For a change that must not change what readers get (issue #18 point 5: one ``yl_forms`` node per run
instead of a ``yl_char`` per character), build the five seeds and two 文渊阁 files (句读 卷五, 通解
卷二十 with &KR0871;) with each checkout's converter and extension, then compare every HTML page,
``searchindex.js`` and text file byte for byte, and count the doctrees' nodes::

    git archive main | tar -x -C /tmp/base
    .venv/bin/python -m bench.compare_html /tmp/base . --workdir /tmp/compare

Each checkout runs in its own interpreter with its own root first on ``sys.path``.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bench.nodecount import count

FILES = ("seeds/wenyuange/KR1d0038/KR1d0038_005.txt", "seeds/wenyuange/KR1d0085/KR1d0085_020.txt")
COMPARED = (".html", ".js", ".txt", ".tsv", ".json")


def build(root: Path, out: Path) -> Path:
    """Convert the small edition with ``root``'s code into ``out`` and build its HTML; the HTML folder."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    files = [*sorted((root / "seeds").glob("*.txt")), *(root / name for name in FILES)]
    shutil.copy(root / "source" / "conf.py", out / "conf.py")
    env = {**os.environ, "PYTHONPATH": str(root)}
    run = [sys.executable, "-m", "conv", "build", *map(str, files), "--out", str(out)]
    subprocess.run(run, cwd=root, env=env, check=True, capture_output=True)
    tocs = "\n".join(f"{path.parent.name}/index" for path in sorted(out.glob("*/index.md")))
    (out / "index.md").write_text(f"# 仪礼\n\n```{{toctree}}\n{tocs}\n```\n", encoding="utf-8")
    run = [sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", "html", "-d",
           str(out / "_doctrees"), str(out), str(out / "_build")]
    subprocess.run(run, cwd=root, env=env, check=True)
    return out / "_build"


def differing(one: Path, other: Path) -> tuple[list[str], list[str]]:
    """(the compared files, those that differ or are missing in ``other``)."""
    names = sorted(str(p.relative_to(one)) for p in one.rglob("*") if p.suffix in COMPARED)
    return names, [n for n in names if not (other / n).exists() or (one / n).read_bytes() != (other / n).read_bytes()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the reference checkout (e.g. main, archived)")
    parser.add_argument("new", type=Path, help="the changed checkout")
    parser.add_argument("--workdir", type=Path, default=Path("build/compare"))
    args = parser.parse_args(argv)
    built = {name: build(root.resolve(), args.workdir.resolve() / name) for name, root in
             (("base", args.base), ("new", args.new))}
    names, changed = differing(built["base"], built["new"])
    for name in ("base", "new"):
        counts, size, _ = count(built[name].parent / "_doctrees")
        print(f"{name}: {sum(counts.values()):,} doctree nodes, {size / 1e6:.1f} MB")
    print(f"{len(names)} files compared, {len(changed)} differ" + "".join(f"\n  {n}" for n in changed))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
