"""Sizes (体积) of a built project: the search index (raw and gzipped), the HTML, the doctrees and the MyST input."""
from __future__ import annotations

import gzip
import os
from pathlib import Path

from bench import projects


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
