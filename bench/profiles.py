"""Profiles (剖析): where a build's time goes, from cProfile output (``python -m bench --profile``).

:func:`phases` sums a Sphinx build's profile into the phases the benchmark compares (reading and
its MyST parse, the project's directives, transforms, post-transforms, search indexing, the
theme's navigation, HTML translation); :func:`top` lists the costliest functions.
"""
from __future__ import annotations

import pstats

PHASES = [
    ("read: parse, read transforms, events", "cum", "sphinx/builders/__init__.py:467(read)", None),
    ("  MyST parse (directives included)", "cum", "myst_parser/parsers/sphinx_.py:65(parse)", None),
    ("    domain directives (yl:…)", "cum", "sphinx/domains/__init__.py:195(run)", None),
    ("  read transforms", "from", "sphinx/transforms/__init__.py:90(apply_transforms)", "sphinx/util/docutils.py:837(_parse_str_to_doctree)"),
    ("write: resolve, HTML, search feed, theme", "cum", "sphinx/builders/__init__.py:703(write)", None),
    ("  post-transforms (resolving)", "cum", "sphinx/environment/__init__.py:759(apply_post_transforms)", None),
    ("  search index: feed", "cum", "sphinx/search/__init__.py:488(feed)", None),
    ("  theme navigation (furo html-page-context)", "cum", "furo/__init__.py:203(_html_page_context)", None),
    ("  HTML translation (write_doc)", "cum", "sphinx/builders/html/__init__.py:650(write_doc)", None),
    ("finish: search index dump, inventory, indices", "cum", "sphinx/builders/html/__init__.py:675(finish)", None),
    ("all docutils tree walks (findall)", "cum", "docutils/nodes.py:264(findall)", None),
]


def _short(file: str) -> str:
    for marker in ("site-packages/", "lib/python3.11/"):
        if marker in file:
            return file.split(marker, 1)[1]
    parts = file.split("/")
    for i, part in enumerate(parts):
        if part in ("conv", "bench"):
            return "/".join(parts[i:])
    return file


def _key(stats: pstats.Stats, pattern: str):
    """The first function matching ``pattern``: alternatives split by ``|``, each a substring of
    ``file:line(function)`` (``*`` for any line number)."""
    for alternative in pattern.split("|"):
        head, _, tail = alternative.partition("*")
        for key in stats.stats:
            name = f"{key[0]}:{key[1]}({key[2]})"
            if (head in name and name.endswith(tail)) if tail else alternative in name:
                return key
    return None


def phases(path: str) -> dict:
    """Seconds (under cProfile) of each phase of a Sphinx build, and the total."""
    stats = pstats.Stats(str(path))
    out = {"total": stats.total_tt}
    for name, how, pattern, caller in PHASES:
        key = _key(stats, pattern)
        value = 0.0
        if key is not None:
            if how == "cum":
                value = stats.stats[key][3]
            else:
                caller_key = _key(stats, caller)
                value = stats.stats[key][4].get(caller_key, (0, 0, 0, 0))[3] if caller_key else 0.0
        out[name] = value
    read, parse, transforms = (out[PHASES[i][0]] for i in (0, 1, 3))
    rest = {"  rest of reading (env-updated handlers, merging, pickling…)": read - parse - transforms}
    names = list(out)
    at = names.index(PHASES[3][0]) + 1
    return {k: out[k] for k in names[:at]} | rest | {k: out[k] for k in names[at:]}


def top(path: str, n: int = 20) -> dict:
    stats = pstats.Stats(str(path))
    total = stats.total_tt
    rows = []
    for (file, line, func), (_, calls, own, cumulative, _) in stats.stats.items():
        rows.append({"function": f"{_short(file)}:{line}({func})", "calls": calls, "tottime_s": own,
                     "cumtime_s": cumulative, "tottime_share": own / total if total else 0,
                     "cumtime_share": cumulative / total if total else 0})
    return {"total_s": total, "prof": str(path),
            "top_tottime": sorted(rows, key=lambda r: -r["tottime_s"])[:n],
            "top_cumtime": sorted(rows, key=lambda r: -r["cumtime_s"])[: 2 * n]}


def write_text(path, out_path) -> None:
    with open(out_path, "w") as handle:
        stats = pstats.Stats(str(path), stream=handle)
        stats.sort_stats("tottime").print_stats(40)
        stats.sort_stats("cumulative").print_stats(80)
