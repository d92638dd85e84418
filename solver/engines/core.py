"""Which search core runs: the compiled one (Cython) or the pure-Python reference.

The compiled core is two kinds of extension module, built by ``pip install .``
when a C compiler is there (``setup.py``): the compiled DFS (its loop ``solver.engines.dfs_core``,
one source, and its table's kernel ``solver.engines._dfs``) and each family's compiled position, over
``solver.families.core``: one source compiled (``solver/families/hole/position.py``,
``solver/families/tableau/position.py``, ``solver/families/reserve/position.py``).
Without them everything runs in pure Python, the same search node for node, only slower.

``--core`` chooses: ``auto`` (the default) runs the compiled core where the
deal's family has one and the extension is built, else the Python one;
``compiled`` insists on it (bad input when it cannot); ``python`` runs the
Python DFS over the family's start position (a one-source position is compiled
there too where it is built: one source has no separate reference).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Literal

from ..errors import UnsupportedError
from ..families import family_of

Core = Literal["compiled", "python"]
CORES: tuple[Core, ...] = ("compiled", "python")  # what the search can run on
CHOICES = ("auto", *CORES)  # the ``core`` option


@cache
def unavailable_reason() -> str | None:
    """None when the compiled DFS (its table's kernel and its loop) imports; else why not."""
    try:
        importlib.import_module("solver.engines._dfs")
    except ImportError as e:
        return f"no compiled extension: {e}"
    if not importlib.import_module("solver.engines.dfs_core").COMPILED:
        return "the DFS loop (solver/engines/dfs_core.py) is not compiled"
    return None


def compiled_available() -> bool:
    return unavailable_reason() is None


def describe() -> str:
    """One line for ``patience --version``."""
    why = unavailable_reason()
    return "core: compiled (Cython)" if why is None else f"core: python ({why})"


def start_position(layout: Any, deal: Any, core: str = "auto") -> tuple[Any, Core]:
    """The DFS's start position for ``core`` (auto, compiled or python), and which core it is.

    ``compiled`` raises ``UnsupportedError`` when the extension is not built or the
    family has no compiled position; ``auto`` then falls back to the Python position.
    """
    if core not in CHOICES:
        raise UnsupportedError(f"engine dfs: no core {core!r} here (cores: {', '.join(CHOICES)})")
    family = family_of(layout)
    if core != "python":
        why = unavailable_reason()
        try:
            if why is not None:
                raise UnsupportedError(f"--core compiled: the compiled core is not built ({why})")
            return family.compiled_position(layout, deal), "compiled"
        except UnsupportedError:
            if core == "compiled":
                raise
    return family.start_position(layout, deal), "python"
