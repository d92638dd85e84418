# The C-level interface of a compiled two-sided game (the games of chance on a known shuffle),
# declared for ``game_core.py`` (one source, compiled in pure-Python mode) and for every module
# that cimports it (``solver/families/README.md``, "One source").
#
# A family's two-sided game is a ``cdef class`` deriving from ``GameCore`` (Casino's,
# ``solver/families/chance/casino.py``); the minimax (``solver/engines/minimax_core.py``, one
# source too) drives it through the C methods below, and the tests and the Python search through
# the Python methods of ``game_core.py`` (``side``, ``legal_moves``, ``push``, ...), with int moves.
#
# Scores are whole numbers.  A move is a ``long long`` code (>= 0); ``c_key`` writes the
# transposition key as two 64-bit words, exactly (two positions get equal words exactly when they
# are the same for the rest of the game: no hashing).

from libc.stdlib cimport free, realloc

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int popcount(unsigned long long x) noexcept nogil:
    """The number of bits set (``game_core.py``'s ``popcount`` interpreted)."""
    return __builtin_popcountll(x)


cdef inline int ctz(unsigned long long x) noexcept nogil:
    """The index of the lowest bit set, ``x`` not 0 (``game_core.py``'s ``ctz`` interpreted)."""
    return __builtin_ctzll(x)


# A list of ``long long`` (moves, masks): ``data[:size]``, room for ``room``; compiled a C buffer
# grown by ``realloc``, interpreted a list.
cdef class Moves:
    cdef long long* data
    cdef Py_ssize_t size, room
    cdef int grow(self) except -1  # twice the room (at least 64), ``data[:size]`` kept


cdef inline int add(Moves m, long long x) except -1:
    """Append ``x`` to ``m`` (``game_core.py``'s ``add`` interpreted)."""
    if m.size == m.room:
        m.grow()
    m.data[m.size] = x
    m.size += 1
    return 0


cdef class GameCore:
    cdef Moves mv  # the moves ``c_legal`` writes (``mv.size`` of them)

    # +1: the seat moves, -1: the other side, 0: the game is over
    cdef int c_side(self) except -9
    # The legal moves put in ``mv`` (emptied first; best first); their count.
    cdef int c_legal(self) except -1
    cdef int c_push(self, long long move) except -1
    cdef long long c_pop(self) except -1
    cdef int c_score(self) except -999999   # the seat's score, the game over
    cdef int c_banked(self) except -999999  # what the seat has earned for good so far
    # Sound bounds on what is still to come (the score at the end less ``c_banked``).
    cdef int c_bounds(self, int* lo, int* hi) except -1
    cdef int c_key(self, unsigned long long* words) except -1  # the key in words[0], words[1]
    cdef int c_plies_left(self) except -1  # moves left to the end: the table keeps the deeper entries
