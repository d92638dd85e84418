"""Build the compiled search core (Cython) when a C compiler is there; install without it when not.

Every ``*.pyx`` under ``solver/`` becomes an optional extension module: a build
failure (no compiler, no Python headers) only skips it, and the pure-Python
positions and search run instead (``patience --version`` says which core runs).
Everything else about the package is in ``pyproject.toml``.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent


def extensions() -> list[Extension]:
    sources = sorted(p.relative_to(HERE) for p in (HERE / "solver").rglob("*.pyx"))
    modules = [Extension(".".join(p.with_suffix("").parts), [str(p)], optional=True,
                         extra_compile_args=["-O3"]) for p in sources]
    compiled = cythonize(modules, language_level=3, include_path=[str(HERE)],
                         compiler_directives={"boundscheck": False, "wraparound": False,
                                              "cdivision": True, "initializedcheck": False})
    for ext in compiled:
        ext.optional = True  # cythonize copies the Extension; keep the flag on the copy
    return compiled


setup(ext_modules=extensions())
