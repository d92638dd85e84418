# cython: language_level=3
"""The compiled positions' shared base: ``CorePosition`` (issue #15).

A compiled position is the same game state as a family's pure-Python position
(the *reference*), with int move codes and C arrays, built from the reference
of the same deal (which computes the rule tables once).  The compiled DFS
(``solver.engines._dfs``) calls its C methods (``core.pxd``): ``legal``,
``forced``, ``push``, ``pop``, ``won``, ``dead``, ``write_key``.

This class gives every compiled position the Python-level API of the
reference position, with int moves, so that the tests, perft, the pure-Python
DFS (``solver.engines.dfs.dfs``) and ``solution_json`` work on it unchanged:
``legal_moves``, ``forced_move``, ``push``, ``pop``, ``is_won``, ``is_dead``,
``key`` (bytes), ``history``, and, from the subclass, ``move_json``,
``reference_move`` and ``state``.

Names: the spec's C-level ``key(buf)`` is ``write_key(buf)`` here, since a
cdef class cannot have a C method and a Python method of one name; ``push``
and ``pop`` are ``cpdef``, one method for both levels.
"""

from libc.stdlib cimport free


cdef class CorePosition:
    """The base of every compiled position; not a position by itself."""

    # The names of the sound bounds ``dead`` reports, in order: ``dead() == k`` means
    # DEAD_REASONS[k - 1].  The same strings as the reference's ``is_dead()``.
    DEAD_REASONS = ()

    def __dealloc__(self):
        free(self.played.data)

    # ------------------------------------------------ the C level (override)

    cdef int legal(self, int* out) except -1:
        raise NotImplementedError(f"{type(self).__name__}.legal")

    cdef int forced(self) except -2:
        raise NotImplementedError(f"{type(self).__name__}.forced")

    cpdef int push(self, int move) except -1:
        """Play ``move`` (a code from ``legal_moves`` or ``forced_move``)."""
        raise NotImplementedError(f"{type(self).__name__}.push")

    cpdef int pop(self) except -1:
        """Take the last move back; returns its code."""
        raise NotImplementedError(f"{type(self).__name__}.pop")

    cdef bint won(self) except -1:
        raise NotImplementedError(f"{type(self).__name__}.won")

    cdef int dead(self) except -1:
        raise NotImplementedError(f"{type(self).__name__}.dead")

    cdef int write_key(self, unsigned char* buf) except -1:
        raise NotImplementedError(f"{type(self).__name__}.write_key")

    cdef int c_stuck_horizon(self) except -1:
        return 0

    cdef int c_clock(self) except -1:
        return 0

    cdef int write_learned_key(self, int kind, int horizon, unsigned char* buf) except -1:
        raise NotImplementedError(f"{type(self).__name__}.write_learned_key")

    # ------------------------------------------------ the Python level

    @property
    def history(self) -> list:
        """The move codes played since the deal, oldest first (a fresh list)."""
        return [self.played.data[i] for i in range(self.played.size)]

    def legal_moves(self) -> list:
        """The legal moves, best first, as codes (the reference's order)."""
        cdef int out[MAX_MOVES]
        cdef int n = self.legal(out)
        return [out[i] for i in range(n)]

    def forced_move(self):
        """The forced move's code, or None."""
        cdef int m = self.forced()
        return None if m < 0 else m

    def is_won(self) -> bool:
        return self.won()

    def is_dead(self):
        """The name of the bound that proves no win (the reference's), or None."""
        cdef int k = self.dead()
        return self.DEAD_REASONS[k - 1] if k else None

    def key(self) -> bytes:
        """The transposition key, as bytes: equal exactly when the reference's keys are equal."""
        cdef unsigned char buf[MAX_KEY]
        cdef int n = self.write_key(buf)
        return buf[:n]

    # the reference's learning methods (``LearningPosition``), for tests and the pure-Python DFS
    def stuck_horizon(self) -> int:
        return self.c_stuck_horizon()

    def clock(self) -> int:
        return self.c_clock()

    def learned_key(self, int kind, int horizon) -> bytes:
        cdef unsigned char buf[MAX_KEY]
        cdef int n = self.write_learned_key(kind, horizon, buf)
        return buf[:n]

    @property
    def horizons(self) -> tuple:
        return (self.horizons[0], self.horizons[1])

    def move_json(self, int move):
        """The move in the result contract (as the reference's ``move_json``)."""
        raise NotImplementedError(f"{type(self).__name__}.move_json")

    def reference_move(self, int move):
        """The same move in the reference position's own representation."""
        raise NotImplementedError(f"{type(self).__name__}.reference_move")

    def state(self):
        """Everything mutable, for tests that check that pop restores a position."""
        raise NotImplementedError(f"{type(self).__name__}.state")
