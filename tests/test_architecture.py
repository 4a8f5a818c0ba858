"""The house (结构): no import cycles anywhere in ``conv`` (imports inside functions included), no
module over about 450 lines, the layer contracts of ``pyproject.toml`` kept (``lint-imports``)."""
from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 460


def test_no_import_cycles():
    graph = grimp.build_graph("conv")
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                cycles.append(" → ".join([module, *back]))
    assert cycles == []


def test_modules_are_small():
    large = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / "conv").rglob("*.py"))
             if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert large == {}
