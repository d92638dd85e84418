# cython: language_level=3
"""The compiled two-sided games' shared base: ``GameCore`` (``game_core.pxd``).

A compiled game is the same game state as a family's pure-Python ``GamePosition``
(the reference), with int move codes and C words; the compiled minimax
(``solver.engines._minimax``) calls its C methods.  The subclass gives the
Python-level API of the reference with int moves (``side``, ``legal_moves``,
``push``, ``pop``, ``score``, ``banked``, ``bounds``, ``key``, ``move_json``,
``history``), so that the pure-Python search runs on it unchanged, node for node.
"""


cdef class GameCore:
    """The base of every compiled two-sided game; not a game by itself."""

    cdef int c_side(self) except? -9:
        raise NotImplementedError(f"{type(self).__name__}.c_side")

    cdef int c_legal(self, MoveVec* out) except -1:
        raise NotImplementedError(f"{type(self).__name__}.c_legal")

    cdef int c_push(self, long long move) except -1:
        raise NotImplementedError(f"{type(self).__name__}.c_push")

    cdef long long c_pop(self) except? -1:
        raise NotImplementedError(f"{type(self).__name__}.c_pop")

    cdef int c_score(self) except? -999999:
        raise NotImplementedError(f"{type(self).__name__}.c_score")

    cdef int c_banked(self) except? -999999:
        raise NotImplementedError(f"{type(self).__name__}.c_banked")

    cdef int c_bounds(self, int* lo, int* hi) except -1:
        raise NotImplementedError(f"{type(self).__name__}.c_bounds")

    cdef int c_key(self, unsigned long long* words) except -1:
        raise NotImplementedError(f"{type(self).__name__}.c_key")

    cdef int c_plies_left(self) except -1:
        raise NotImplementedError(f"{type(self).__name__}.c_plies_left")
