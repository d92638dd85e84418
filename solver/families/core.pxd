# The C-level interface of a compiled position (issue #15), declared for ``core.py`` (one source,
# compiled in pure-Python mode) and for every module that cimports it.
#
# A family's compiled position is a ``cdef class`` deriving from ``CorePosition``: a one-source
# position (``solver/families/hole/position.py``, ``solver/families/tableau/position.py``;
# ``solver/families/README.md``, "One source"; the reserve family's too).  The compiled DFS
# (``solver/engines/dfs_core.py``, compiled) drives it through the C methods below, and tests, perft and the
# pure-Python DFS through the Python methods of ``core.py``, with int moves.
#
# A subclass implements: legal, forced, push, pop, won, dead, write_key, and
# the Python methods move_json, state (and reference_move, for a hand-written core); it sets
# the class attribute DEAD_REASONS.  Its push ends with ``self.record(move)`` and its pop
# starts with ``move = self.unrecord()``, so that ``ply`` and ``history`` are
# kept here, once.

from libc.stdlib cimport free, realloc


cdef enum:
    MAX_MOVES = 1024  # room ``legal`` may fill in its ``out`` buffer
    MAX_KEY = 4096    # room ``write_key`` may fill in its ``buf``


# A growable stack of ints: the undo stacks of compiled positions.
cdef struct IntStack:
    int* data
    Py_ssize_t size
    Py_ssize_t cap


cdef inline int int_stack_push(IntStack* s, int value) except -1:
    """Append ``value``, doubling the room when full (no fixed depth limit)."""
    cdef Py_ssize_t cap
    cdef int* grown
    if s.size == s.cap:
        cap = 64 if s.cap < 32 else 2 * s.cap
        grown = <int*>realloc(s.data, cap * sizeof(int))
        if grown == NULL:
            raise MemoryError()
        s.data = grown
        s.cap = cap
    s.data[s.size] = value
    s.size += 1
    return 0


cdef inline int int_stack_pop(IntStack* s) except? -1:
    """Remove and return the last value (an IndexError when empty)."""
    if s.size == 0:
        raise IndexError("pop from an empty stack")
    s.size -= 1
    return s.data[s.size]


cdef class CorePosition:
    cdef readonly int ply     # moves since the deal: the length of ``history``
    cdef IntStack played      # the move codes played since the deal, oldest first
    # Learning (the reference's ``LearningPosition``; ``solver.engines.dfs``, "Learning"):
    # ``learns`` switches it on; ``horizons`` is set by ``dead``: the bound's horizon of each kind
    # of claim (0 when it claims nothing).
    cdef public bint learns  # the engine may search without learning first (``dfs.run_dfs``)
    cdef public bint strong_bounds  # the costly bounds, off with learning in that first search
    cdef readonly (int, int) horizons  # Python: a tuple

    # The legal moves, best first, in exactly the order of the reference's
    # ``legal_moves()``, as codes written to ``out`` (room for MAX_MOVES); the count.
    cdef int legal(self, int* out) except -1
    # The forced move's code, or -1 (exactly when and what the reference's ``forced_move()`` gives).
    cdef int forced(self) except -2
    # Play a move / take the last one back (returns its code).  cpdef: also the Python methods.
    cpdef int push(self, int move) except -1
    cpdef int pop(self) except -1
    cdef bint won(self) except -1
    # 0, or k >= 1: the k-th name of DEAD_REASONS proves no win (the reference's ``is_dead()``).
    cdef int dead(self) except -1
    # The transposition key written to ``buf`` (room for MAX_KEY bytes); its length.  Two
    # positions get equal bytes exactly when the reference's ``key()`` values are equal.
    cdef int write_key(self, unsigned char* buf) except -1
    # Learning, where ``learns``: as the reference's ``stuck_horizon()``, ``clock()`` (the c_ names:
    # a cdef class cannot have a C and a Python method of one name) and
    # ``learned_key(kind, horizon)``, the last written to ``buf`` (room for MAX_KEY bytes) with its length
    # returned; equal bytes exactly when the reference's learned keys are equal.
    cdef int c_stuck_horizon(self) except -1
    cdef int c_clock(self) except -1
    cdef int write_learned_key(self, int kind, int horizon, unsigned char* buf) except -1

    # For subclasses: the bookkeeping of ``history`` and ``ply`` (inline: on the hot path).
    cdef inline int record(self, int move) except -1:
        """Note ``move`` as played (a subclass's ``push`` ends with this)."""
        if self.played.size == self.played.cap:
            int_stack_push(&self.played, move)
        else:
            self.played.data[self.played.size] = move
            self.played.size += 1
        self.ply += 1
        return 0

    cdef inline int unrecord(self) except -1:
        """Forget the last move and return it (a subclass's ``pop`` starts with this)."""
        if self.ply == 0:
            raise IndexError("pop from a position at the deal")
        self.ply -= 1
        self.played.size -= 1
        return self.played.data[self.played.size]
