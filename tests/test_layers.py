"""The house is one-way: imports in ``solver/`` run downward through the layers, with no circle.

Every ``import`` statement counts, those inside functions too, and the ``cimport``s and imports of
the Cython files (``.pyx``, ``.pxd``; a pure-Python-mode module's ``cython.cimports.X`` is X).
Layers, bottom up:

    ground     in the order of ``GROUND``: errors, files, cards, moves, ..., layout, deal, shuffles, ..., solvitaire
    families   solver.families.*   (each family may use ground and the shared family modules)
    engines    solver.engines.*, solver.core
    services   api, analysis, batch, graph, bench.*, draw*, play
    face       cli, commands.*, options, live, __main__

A module may import from its own layer or below, and a ground module only from those before it in
``GROUND`` (so the deal knows no outside format's adapter); the graph of modules must have no cycle.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver"

LAYERS = ["ground", "families", "engines", "services", "face"]
# The ground floor, bottom up: each module may import only those before it.
GROUND = ["__init__", "errors", "files", "cards", "moves", "limits", "result", "analysis_record", "schema", "layout",
          "fingerprint", "deal", "shuffles", "positions", "describe", "solvitaire", "seeds"]
# Circles through a package's __init__ that are known and allowed: none left (the reserve
# family's hand-written ``_core.pyx`` made the last; issue #32, ``solver/families/README.md``).
KNOWN_CIRCLES: set[tuple[str, str]] = set()
SERVICES = {"api", "analysis", "batch", "graph", "bench", "draw", "view", "play"}
FACE = {"cli", "commands", "options", "live", "__main__"}
SHARED_FAMILY_MODULES = {"solver.families", "solver.families.base", "solver.families.card",
                         "solver.families.spread", "solver.families.cpsat", "solver.families.brute",
                         "solver.families.core", "solver.families.game_core", "solver.families.shadow"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, list[Path]]:
    """Every module and its files: a ``.py`` or ``.pyx``, and the ``.pxd`` that declares it."""
    found: dict[str, list[Path]] = {}
    for suffix in ("*.py", "*.pyx", "*.pxd"):
        for p in PACKAGE.rglob(suffix):
            found.setdefault(module_name(p), []).append(p)
    return found


def layer(module: str) -> str:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    if top in GROUND:
        return "ground"
    if top == "families":
        return "families"
    if top in ("engines", "core"):
        return "engines"
    if top.startswith(tuple(SERVICES)):
        return "services"
    if top in FACE:
        return "face"
    raise AssertionError(f"{module}: no layer given for it in tests/test_layers.py")


# A Cython file's import statements: ``from X cimport a, b``, ``from X import a``, ``cimport X``, ``import X``.
CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+c?import\s+([\w\s,()]+?)\s*(?:#.*)?$|c?import\s+([\w.]+))",
                           re.MULTILINE)


def statements(path: Path) -> list[tuple[int, str, list[str]]]:
    """The import statements of a file: (level, module, names); ``import X`` is (0, "", ["X"])."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".pyx", ".pxd"):
        out = []
        for m in CYTHON_IMPORT.finditer(text):
            if m.group(3):
                out.append((0, "", [m.group(3)]))
            else:
                dots = len(m.group(1)) - len(m.group(1).lstrip("."))
                names = [n.split()[0] for n in m.group(2).replace("(", " ").replace(")", " ").split(",") if n.strip()]
                out.append((dots, m.group(1)[dots:], names))
        return out
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out += [(0, "", [a.name]) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.level, node.module or "", [a.name for a in node.names]))
    return out


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The solver modules that ``module``'s file ``path`` imports (statements anywhere in it)."""
    package = module if path.stem == "__init__" else module.rsplit(".", 1)[0]
    out = set()
    for level, name, names in statements(path):
        name = name.removeprefix("cython.cimports.")  # pure-Python mode's cimport
        if not level and not name:
            targets = [n.removeprefix("cython.cimports.") for n in names]
        else:
            if level:
                base = package.split(".")
                base = base[: len(base) - (level - 1)]
                origin = ".".join(base + ([name] if name else []))
            else:
                origin = name
            targets = [f"{origin}.{a}" if f"{origin}.{a}" in known else origin for a in names]
            # `from package import submodule` runs the package first: an edge to it too
            # (inside the package's own modules this is a circle through its __init__)
            targets.append(origin)
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
    for m, paths in mods.items():
        for p in paths:
            for t in imports(m, p, set(mods)):
                g.add_edge(m, t)
    return g


def test_no_import_circle():
    g = import_graph().copy()
    g.remove_edges_from(KNOWN_CIRCLES)
    cycles = list(nx.simple_cycles(g))
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


def test_the_ground_floor_is_ordered():
    """A ground module imports only those before it in ``GROUND`` (the deal no adapter of an outside
    format: Solvitaire's files are read above it)."""
    g = import_graph()
    rank = {f"solver.{name}" if name != "__init__" else "solver": i for i, name in enumerate(GROUND)}
    assert set(rank) == {m for m in g if layer(m) == "ground"}, "GROUND lists every ground module once"
    wrong = [(a, b) for a, b in g.edges if a in rank and b in rank and rank[b] >= rank[a]]
    assert not wrong, "ground imports against its order: " + ", ".join(f"{a} -> {b}" for a, b in wrong)


@pytest.mark.parametrize("module", ["solver.result", "solver.layout", "solver.deal", "solver.limits"])
def test_the_ground_knows_no_game(module):
    g = import_graph()
    assert all(layer(b) == "ground" for b in g.successors(module))


def test_the_pictures_import_no_engine():
    """The drawing reads an analysis as a record (``analysis_record``), never the search."""
    g = import_graph()
    drawn = {m for m in g if m.startswith("solver.draw")}
    reached = set().union(*(nx.descendants(g, m) for m in drawn))
    assert not {m for m in reached if m.startswith("solver.engines")}


def test_the_checker_reads_cython_files():
    """Cimports count: of a ``.pxd`` and of a pure-Python-mode module."""
    g = import_graph()
    assert g.has_edge("solver.families.tableau.position", "solver.families.tableau.state")  # position.pxd's cimport
    assert g.has_edge("solver.engines.dfs_core", "solver.engines._dfs")  # cython.cimports of the .pyx kernel
    assert g.has_edge("solver.families.chance.casino", "solver.families.game_core")  # cython.cimports
    assert g.has_edge("solver.engines.minimax_core", "solver.families.game_core")
    assert g.has_edge("solver.families.hole.position", "solver.families.core")  # cython.cimports


def test_the_checker_sees_imports_of_a_package_itself():
    """`from . import x` in a package's module imports the package (its __init__), so it counts."""
    g = import_graph()
    assert g.has_edge("solver.engines.dfs", "solver.engines.core")
    assert not g.has_edge("solver.engines.dfs", "solver.engines")  # dfs imports `.core` by its own name


def test_the_checker_sees_function_local_imports():
    """The test itself: an import inside a function is an edge (so it cannot hide a circle)."""
    g = import_graph()
    assert g.has_edge("solver.families.hole", "solver.families.hole.position")  # inside start_position


# A layout's family named in a comparison: `layout.family == "tableau"`, `lay.family in (...)`.
ASKS_THE_FAMILY = re.compile(r"\.family\s*(?:==|!=|\bin\b|\bnot\s+in\b)")


def test_nothing_above_the_families_asks_a_layout_its_family():
    """The edges (pictures, peers, Solvitaire's files, commands) ask the registered family
    (``GameFamily.picture``, ``peers``, ``solvitaire_rules``, ...), never ``layout.family``."""
    asking = [f"{p.relative_to(ROOT)}:{n}" for p in PACKAGE.rglob("*.py")
              if "families" not in p.relative_to(PACKAGE).parts[:1]
              for n, line in enumerate(p.read_text().splitlines(), 1) if ASKS_THE_FAMILY.search(line)]
    assert asking == []
    assert ASKS_THE_FAMILY.search('    if layout.family not in ("tableau", "hole"):')  # the pattern itself
    assert ASKS_THE_FAMILY.search('return bool(layout.family == "peg")')
