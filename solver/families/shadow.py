"""``cython``: the few names of Cython's ``cython`` module that the one-source modules use, for
running them interpreted where Cython is not installed (``solver/families/README.md``, "One
source").  A one-source module imports ``cython`` and falls back to this one.

Compiled, ``import cython`` is the Cython language and this module is never imported.
Interpreted with Cython installed, Cython's own module serves; these names behave as its do:
``compiled`` is False, every decorator (directives too) returns what it decorates and ``declare`` the value it is
given.  C types appear in annotations, which ``from __future__ import annotations`` leaves
unevaluated, and as ``declare``'s first argument: of those only ``int``, ``longlong`` and ``bint`` are here.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def _same(f: Any) -> Any:
    return f


def _exceptval(*_: Any, **__: Any) -> Any:
    return _same


def _directive(*_: Any, **__: Any) -> Any:
    """``@cython.boundscheck(False)`` and the like: compiler directives, nothing interpreted."""
    return _same


def _declare(_type: Any = None, value: Any = None, **__: Any) -> Any:
    """``x = cython.declare(cython.int, 5)``: a C variable compiled, the value interpreted."""
    return value


cython = SimpleNamespace(compiled=False, cclass=_same, cfunc=_same, ccall=_same, inline=_same, final=_same,
                         exceptval=_exceptval, declare=_declare, int=int, longlong=int, bint=bool,
                         boundscheck=_directive,
                         wraparound=_directive, cdivision=_directive, initializedcheck=_directive)
