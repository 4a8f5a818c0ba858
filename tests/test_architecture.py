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


def _module_containers(tree) -> set[str]:
    """Names bound at module level to a dict, set or list (a literal or a call of the type)."""
    import ast

    names = set()
    for node in tree.body:
        targets, value = [], None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        container = isinstance(value, (ast.Dict, ast.Set, ast.List)) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in {"dict", "set", "list", "defaultdict"})
        if container:
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def test_no_module_state_keyed_by_id():
    """Per-build state lives on the builder or the environment (``yl_*`` attributes), never in a
    module's dict or set keyed by ``id(app)``, ``id(env)`` or ``id(catalogue)``: an id is reused
    once its object is gone, and such state outlives the build."""
    import ast

    def is_id_call(node) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id"

    found = []
    for path in sorted((ROOT / "conv").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        containers = _module_containers(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                name, keys = node.value.id, [node.slice]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name):
                name, keys = node.func.value.id, node.args[:1]
            elif isinstance(node, ast.Compare) and isinstance(node.comparators[0], ast.Name):
                name, keys = node.comparators[0].id, [node.left]
            else:
                continue
            if name in containers and any(is_id_call(key) for key in keys):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert found == []


def test_function_level_imports_say_why_they_are_lazy():
    """An import of ``conv`` inside a function bridges no cycle: each group of them follows a
    ``# lazy: why`` comment; every other import is at the top of its module."""
    import ast

    unexplained = []
    for path in sorted((ROOT / "conv").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                if not any(name == "conv" or name.startswith("conv.") for name in names):
                    continue
                above = node.lineno - 2  # the line above, skipping the group's other imports
                while above >= 0 and lines[above].strip().startswith(("from conv", "import conv")):
                    above -= 1
                while above > 0 and lines[above - 1].strip().startswith("#") \
                        and lines[above].strip().startswith("#"):
                    above -= 1  # a comment of several lines: its first
                if not lines[above].strip().startswith("# lazy: "):
                    unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert unexplained == []
