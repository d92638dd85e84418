"""Build the compiled search core (Cython) when a C compiler is there; install without it when not.

Every ``*.pyx`` under ``solver/`` becomes an optional extension module, and so does every
one-source module: a ``*.py`` that imports ``cython`` (pure-Python mode; ``solver/families/
README.md``, "One source").  A build failure (no compiler, no Python headers) only skips it,
and the pure-Python modules run instead (``patience --version`` says which core runs).
Everything else about the package is in ``pyproject.toml``.
"""

import re
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent


def one_source(path: Path) -> bool:
    """A module written in Cython's pure-Python mode: it imports ``cython``."""
    return re.search(r"^\s*import cython\s*$", path.read_text(encoding="utf-8"), re.MULTILINE) is not None


def extensions() -> list[Extension]:
    solver = HERE / "solver"
    sources = sorted(p.relative_to(HERE) for p in [*solver.rglob("*.pyx"), *filter(one_source, solver.rglob("*.py"))])
    modules = [Extension(".".join(p.with_suffix("").parts), [str(p)], optional=True,
                         extra_compile_args=["-O3"]) for p in sources]
    # A .pyx is C in Python's clothes: no bounds or sign checks on indexing, C division.  A
    # one-source module keeps Python's meaning everywhere (it must compute what it computes
    # interpreted); its hot methods switch the checks off themselves where indices are in range.
    compiled = cythonize([m for m in modules if m.sources[0].endswith(".pyx")], language_level=3,
                         include_path=[str(HERE)],
                         compiler_directives={"boundscheck": False, "wraparound": False,
                                              "cdivision": True, "initializedcheck": False})
    compiled += cythonize([m for m in modules if m.sources[0].endswith(".py")], language_level=3,
                          include_path=[str(HERE)])
    for ext in compiled:
        ext.optional = True  # cythonize copies the Extension; keep the flag on the copy
    return compiled


setup(ext_modules=extensions())
