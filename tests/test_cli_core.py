"""The command line's side of the compiled core: ``--core``, ``--version``, and a quick start
(``patience solve`` loads neither networkx nor OR-Tools)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from solver.cli import main
from solver.engines.core import compiled_available

ROOT = Path(__file__).resolve().parent.parent


def run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return out.stdout


def test_the_compiled_core_is_built_where_required():
    """CI installs with a compiler and sets PATIENCE_REQUIRE_COMPILED=1: the tests must run the
    compiled core there, not skip it."""
    if os.environ.get("PATIENCE_REQUIRE_COMPILED") == "1":
        assert compiled_available(), "PATIENCE_REQUIRE_COMPILED=1 but the compiled core is not built"


@pytest.mark.parametrize("core", ["auto", "python"])
def test_solve_loads_no_graph_or_cpsat_library(core):
    code = ("import sys; from solver.cli import main; "
            f"main(['solve', 'black-hole', '--seed', '1', '--core', '{core}']); "
            "print(sorted({m.split('.')[0] for m in sys.modules}))")
    loaded = run(code).splitlines()[-1]
    for heavy in ("networkx", "ortools", "sqlite3", "multiprocessing", "dask", "matplotlib", "numpy"):
        assert f"'{heavy}'" not in loaded, heavy


def test_version_names_the_core(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("patience ")
    if compiled_available():
        assert out[1] == "core: compiled (Cython)"
    else:
        assert out[1].startswith("core: python (no compiled extension: ")


def test_core_option(capsys):
    assert main(["solve", "black-hole", "--seed", "3", "--core", "python", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stats"]["core"] == "python"
    assert main(["solve", "black-hole", "--seed", "3", "--json"]) == 0
    want = "compiled" if compiled_available() else "python"
    assert json.loads(capsys.readouterr().out)["stats"]["core"] == want


def test_core_compiled_where_there_is_none_is_bad_input(capsys):
    from solver import api
    from solver.families import family_of
    from solver.families.base import GameFamily
    from solver.schema import builtin_names

    # A layout of a family that has no compiled position (it keeps the base class's refusal).
    name = next(n for n in builtin_names()
                if type(family_of(api.load_layout(n))).compiled_position is GameFamily.compiled_position
                and family_of(api.load_layout(n)).default_engine == "dfs")
    seed = ["--seed", "1"] if family_of(api.load_layout(name)).shuffled else []  # peg boards have one start
    assert main(["solve", name, *seed, "--core", "compiled"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("has no compiled core; use --core python" in err or "is not built" in err)


def test_patience_core_python_makes_the_compiled_core_absent():
    """``PATIENCE_CORE=python`` (the CI's second leg): no extension module of the package imports,
    in the process and in the ones it starts, as on a machine without a compiler."""
    env = {**os.environ, "PATIENCE_CORE": "python"}
    code = ("import importlib, json, sys; from solver.engines.core import describe; print(describe()); "
            "from solver.cli import main; main(['solve', 'golf', '--seed', '2', '--engine', 'dfs', '--json'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    lines = out.stdout.splitlines()
    # where the DFS's extension is built, the switch is what refuses it (and says so); on a checkout
    # with nothing compiled (a machine without a compiler) it is simply not there
    built = any((ROOT / "solver" / "engines" / f"_dfs{suffix}").exists() for suffix in EXTENSION_SUFFIXES)
    assert lines[0] == "core: python (no compiled extension: No module named 'solver.engines._dfs'" + \
                       (" (PATIENCE_CORE=python))" if built else ")")
    assert json.loads(lines[1])["stats"]["core"] == "python"
    # a one-source module imports from its source, interpreted (golf above ran on it), and so do
    # Casino's game and the minimax (one source too)
    code = ("import solver.families.core as c, solver.families.hole.position as p, solver.families.chance.casino as g, "
            "solver.engines.minimax_core as m; print(c.__file__, p.__file__, g.__file__, m.__file__, g.COMPILED, "
            "m.COMPILED)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    *files, casino, search = out.stdout.split()
    assert [Path(f).suffix for f in files] == [".py"] * 4 and casino == search == "False"
