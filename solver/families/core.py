"""The compiled positions' shared base: ``CorePosition`` (issue #15), one source (issue #32).

A family's position written once (``solver/families/README.md``, "One source") derives from this
class.  Compiled by Cython in pure-Python mode, it is the ``cdef class`` that ``core.pxd``
declares: the compiled DFS (``solver.engines.dfs_core``) calls the C methods a family implements
(``legal``, ``forced``, ``push``, ``pop``, ``won``, ``dead``, ``write_key``) and the bookkeeping
of ``core.pxd`` (``record``/``unrecord``: ``ply`` and the moves played).  Interpreted (no
compiler), it is a plain class with the same methods, the bookkeeping in Python.

Either way this class gives a position the Python API the pure-Python DFS, the tests, perft and
``solution_json`` use, with int moves: ``legal_moves``, ``forced_move``, ``push``, ``pop``,
``is_won``, ``is_dead``, ``key`` (bytes), ``history``, and, from the subclass, ``move_json``,
``reference_move`` and ``state``.

Names: the C-level key is ``write_key(buf)``, since a cdef class cannot have a C method and a
Python method of one name; ``push`` and ``pop`` are ``cpdef``, one method for both levels.
"""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from .shadow import cython

if not cython.compiled:  # compiled, these are core.pxd's enum
    MAX_MOVES = 1024  # room ``legal`` may fill in its ``out`` buffer
    MAX_KEY = 4096  # room ``write_key`` may fill in its ``buf``


@cython.cclass
class CorePosition:
    """The base of every position with int move codes; not a position by itself."""

    # The names of the sound bounds ``dead`` reports, in order: ``dead() == k`` means
    # DEAD_REASONS[k - 1].  The same strings as ``is_dead()`` gives.
    DEAD_REASONS: tuple[str, ...] = ()

    if cython.compiled:
        def __dealloc__(self) -> None:
            free(self.played.data)  # noqa: F821 (libc's, cimported by core.pxd)
    else:  # core.pxd's fields and its inline bookkeeping, in Python
        def __init__(self) -> None:
            self.ply = 0
            self.played: list[int] = []
            self.learns = False
            self.strong_bounds = False
            self.horizons = (0, 0)
            self.moves_buf = [0] * MAX_MOVES  # for ``legal`` and ``write_key``, as the compiled
            self.key_buf = bytearray(MAX_KEY)  # class's C arrays on the stack

        def record(self, move: int) -> int:
            self.played.append(move)
            self.ply += 1
            return 0

        def unrecord(self) -> int:
            if self.ply == 0:
                raise IndexError("pop from a position at the deal")
            self.ply -= 1
            return self.played.pop()

    # ------------------------------------------------ the C level (a family overrides)

    def legal(self, out: cython.p_int) -> cython.int:
        """The legal moves, best first, as codes written to ``out`` (room for MAX_MOVES); the count."""
        raise NotImplementedError(f"{type(self).__name__}.legal")

    def forced(self) -> cython.int:
        """The forced move's code (a move that is safe to play without branching), or -1."""
        raise NotImplementedError(f"{type(self).__name__}.forced")

    def push(self, move: cython.int) -> cython.int:
        """Play ``move`` (a code from ``legal`` or ``forced``); ends with ``self.record(move)``."""
        raise NotImplementedError(f"{type(self).__name__}.push")

    def pop(self) -> cython.int:
        """Take the last move back and return its code; starts with ``move = self.unrecord()``."""
        raise NotImplementedError(f"{type(self).__name__}.pop")

    def won(self) -> cython.bint:
        raise NotImplementedError(f"{type(self).__name__}.won")

    def dead(self) -> cython.int:
        """0, or k >= 1: the k-th name of DEAD_REASONS proves no win."""
        raise NotImplementedError(f"{type(self).__name__}.dead")

    def write_key(self, buf: cython.p_uchar) -> cython.int:
        """The transposition key written to ``buf`` (room for MAX_KEY bytes); its length.  Equal
        bytes exactly for positions that are the same for play."""
        raise NotImplementedError(f"{type(self).__name__}.write_key")

    def c_stuck_horizon(self) -> cython.int:
        return 0

    def c_clock(self) -> cython.int:
        return 0

    def write_learned_key(self, kind: cython.int, horizon: cython.int, buf: cython.p_uchar) -> cython.int:
        raise NotImplementedError(f"{type(self).__name__}.write_learned_key")

    # ------------------------------------------------ the Python level

    @property
    def history(self) -> list[int]:
        """The move codes played since the deal, oldest first (compiled, a fresh list;
        interpreted, the list the position keeps, as the Python positions give theirs)."""
        if cython.compiled:
            return [self.played.data[i] for i in range(self.played.size)]
        else:
            return self.played

    def legal_moves(self) -> list[int]:
        """The legal moves, best first, as codes."""
        out: cython.int[MAX_MOVES]
        if not cython.compiled:
            out = self.moves_buf
        n: cython.int = self.legal(out)
        return [out[i] for i in range(n)]

    def forced_move(self) -> int | None:
        """The forced move's code, or None."""
        m: cython.int = self.forced()
        return None if m < 0 else m

    def is_won(self) -> bool:
        return self.won()

    def is_dead(self) -> str | None:
        """The name of the bound that proves no win, or None."""
        k: cython.int = self.dead()
        return self.DEAD_REASONS[k - 1] if k else None

    def key(self) -> bytes:
        """The transposition key, as bytes."""
        buf: cython.uchar[MAX_KEY]
        if not cython.compiled:
            buf = self.key_buf
        n: cython.int = self.write_key(buf)
        return bytes(buf[:n])

    # the learning methods (``LearningPosition``), for tests and the pure-Python DFS
    def stuck_horizon(self) -> int:
        return self.c_stuck_horizon()

    def clock(self) -> int:
        return self.c_clock()

    def learned_key(self, kind: int, horizon: int) -> bytes:
        buf: cython.uchar[MAX_KEY]
        if not cython.compiled:
            buf = self.key_buf
        n: cython.int = self.write_learned_key(kind, horizon, buf)
        return bytes(buf[:n])

    def move_json(self, move: int) -> dict[str, Any] | None:
        """The move in the result contract."""
        raise NotImplementedError(f"{type(self).__name__}.move_json")

    def reference_move(self, move: int) -> Any:
        """The same move in the reference position's own representation (a hand-written core's
        reference); a one-source position is its own: the code itself."""
        return move

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check that pop restores a position."""
        raise NotImplementedError(f"{type(self).__name__}.state")
