# The C-level interface of a compiled two-sided game (the games of chance on a known shuffle).
#
# A family's compiled game is a ``cdef class`` deriving from ``GameCore``; the compiled minimax
# (``solver/engines/_minimax.pyx``) drives it through the C methods below, and the pure-Python
# ``solver.engines.minimax.Search`` through the Python methods of the subclass, which are the
# reference position's (``GamePosition``) with int moves.
#
# Scores are whole numbers.  A move is a ``long long`` code; ``c_key`` writes the transposition
# key as two 64-bit words, exactly (two positions get equal words exactly when the reference's
# ``key()`` values are equal: no hashing).

from libc.stdlib cimport realloc


cdef struct MoveVec:
    long long* data
    Py_ssize_t size
    Py_ssize_t cap


cdef inline int movevec_push(MoveVec* v, long long value) except -1:
    """Append ``value``, doubling the room when full."""
    cdef Py_ssize_t cap
    cdef long long* grown
    if v.size == v.cap:
        cap = 64 if v.cap < 32 else 2 * v.cap
        grown = <long long*>realloc(v.data, cap * sizeof(long long))
        if grown == NULL:
            raise MemoryError()
        v.data = grown
        v.cap = cap
    v.data[v.size] = value
    v.size += 1
    return 0


cdef class GameCore:
    # +1: the seat moves, -1: the other side, 0: the game is over (the reference's ``side()``)
    cdef int c_side(self) except? -9
    # The legal moves appended to ``out`` in exactly the reference's order; their count.
    cdef int c_legal(self, MoveVec* out) except -1
    cdef int c_push(self, long long move) except -1
    cdef long long c_pop(self) except? -1
    cdef int c_score(self) except? -999999   # the seat's score, the game over
    cdef int c_banked(self) except? -999999  # the reference's ``banked()``
    cdef int c_bounds(self, int* lo, int* hi) except -1  # the reference's ``bounds()``
    cdef int c_key(self, unsigned long long* words) except -1  # the key in words[0], words[1]
    cdef int c_plies_left(self) except -1  # moves left to the end: the table keeps the deeper entries
