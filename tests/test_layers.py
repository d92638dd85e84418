"""The house is one-way: imports in ``solver/`` run downward through the layers, with no circle.

Every ``import`` statement counts, those inside functions too.  Layers, bottom up:

    ground     cards, errors, result, limits, schema, layout, deal, positions, describe, seeds, files,
               fingerprint, solvitaire
    families   solver.families.*   (each family may use ground and families/base, card, cpsat)
    engines    solver.engines.*, solver.core
    services   api, analysis, batch, graph, bench.*, draw*
    face       cli, commands.*, options, live, __main__

A module may import from its own layer or below; the graph of modules must have no cycle.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver"

LAYERS = ["ground", "families", "engines", "services", "face"]
GROUND = {"cards", "errors", "result", "limits", "schema", "layout", "deal", "positions", "describe", "seeds", "files",
          "fingerprint", "solvitaire", "__init__"}
SERVICES = {"api", "analysis", "batch", "graph", "bench", "draw", "view"}
FACE = {"cli", "commands", "options", "live", "__main__"}
SHARED_FAMILY_MODULES = {"solver.families", "solver.families.base", "solver.families.card",
                         "solver.families.spread", "solver.families.cpsat", "solver.families.brute",
                         "solver.families.core"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    found.update({module_name(p): p for p in PACKAGE.rglob("*.pyx")})
    return found


def layer(module: str) -> str:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    if top == "families":
        return "families"
    if top in ("engines", "core"):
        return "engines"
    if top.startswith(tuple(SERVICES)):
        return "services"
    if top in FACE:
        return "face"
    assert top in GROUND, f"{module}: no layer given for it in tests/test_layers.py"
    return "ground"


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The solver modules that ``module`` imports (statements anywhere in it)."""
    if path.suffix == ".pyx":
        return set()  # Cython: cimports are checked by the compiler's own dependency order
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in known else origin for a in node.names]
            # `from package import submodule` runs the package first: an edge to it too
            # (inside the package's own modules this is a circle through its __init__)
            targets.append(origin)
        else:
            continue
        for t in targets:
            while t and t not in known:  # `import solver.x.y` names a module; `from m import name` the module m
                t = t.rpartition(".")[0]
            if t.startswith("solver") and t != module:
                out.add(t)
    return out


@functools.cache
def import_graph() -> nx.DiGraph:
    mods = modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for m, p in mods.items():
        for t in imports(m, p, set(mods)):
            g.add_edge(m, t)
    return g


def test_no_import_circle():
    cycles = list(nx.simple_cycles(import_graph()))
    assert not cycles, "import circles: " + "; ".join(" -> ".join(c + [c[0]]) for c in cycles[:5])


def test_imports_run_downward():
    g = import_graph()
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = [(a, b) for a, b in g.edges if rank[layer(b)] > rank[layer(a)]]
    assert not upward, "upward imports: " + ", ".join(f"{a} ({layer(a)}) -> {b} ({layer(b)})" for a, b in upward)


def test_families_do_not_import_each_other():
    """A family may use the shared family modules, never another family's insides."""
    g = import_graph()

    def family(m: str) -> str | None:
        parts = m.split(".")
        return parts[2] if len(parts) > 2 and m.startswith("solver.families.") and m not in SHARED_FAMILY_MODULES \
            else None

    crossing = [(a, b) for a, b in g.edges
                if family(a) and family(b) and family(a) != family(b)]
    assert not crossing, "families importing each other: " + ", ".join(f"{a} -> {b}" for a, b in crossing)


@pytest.mark.parametrize("module", ["solver.result", "solver.layout", "solver.deal", "solver.limits"])
def test_the_ground_knows_no_game(module):
    g = import_graph()
    assert all(layer(b) == "ground" for b in g.successors(module))


def test_the_checker_sees_imports_of_a_package_itself():
    """`from . import x` in a package's module imports the package (its __init__), so it counts."""
    g = import_graph()
    assert g.has_edge("solver.engines.dfs", "solver.engines.core")
    assert not g.has_edge("solver.engines.dfs", "solver.engines")  # dfs imports `.core` by its own name


def test_the_checker_sees_function_local_imports():
    """The test itself: an import inside a function is an edge (so it cannot hide a circle)."""
    g = import_graph()
    assert g.has_edge("solver.families.hole", "solver.families.hole.position")  # inside start_position
