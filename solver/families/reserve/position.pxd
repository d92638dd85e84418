# The reserve (debutante) family's position, declared once (issue #39): ``ReservePosition``, the
# class of ``position.py`` (one source, compiled in pure-Python mode: this file augments it), over
# its fields, ``ReserveState`` (``state.pxd``), with the signatures of its C methods.  A module that
# cimports it (``from solver.families.reserve.position cimport ReservePosition``;
# ``solver/families/README.md``, "One source") calls them and reads the fields at C speed.
#
# The C interface of ``core.pxd`` (``legal``, ``forced``, ``push``, ``pop``, ``won``, ``dead``,
# ``write_key``, ``c_clock``, ``c_stuck_horizon``, ``write_learned_key``) is declared there, with
# the same signatures, and not again here: Cython refuses a final class that declares a method of
# its base a second time ("Overriding final methods").

cimport cython

# (the names below are the module's: ``position.py`` reads them compiled)
from solver.families.core cimport MAX_KEY, MAX_MOVES
from solver.families.reserve.state cimport (
    C_COMMIT, C_FOUND, C_ROW, C_STOCK, C_WASTE, MAXC, MAXCARDS, MAXF, NCARD, NSUIT, SEQ, T_DEALROW, T_PLACE,
    T_WASTE, VALUES, ReserveState, bit,
)


@cython.final  # no subclass when compiled: its C methods are called directly (and inlined)
cdef class ReservePosition(ReserveState):
    # -- the C methods (``position.py``): helpers
    cdef inline int _top(self, int i) noexcept
    cdef inline bint _same_col(self, int a, int b) noexcept
    cdef inline int _need_of(self, int f) noexcept
    cdef inline void _set_want(self) noexcept
    cdef inline bint _wanted(self, int v) noexcept
    cdef inline int _accepting(self, int v, int* out) noexcept
    cdef inline int _open(self, int v) noexcept
    cdef inline int _marks(self, int v) noexcept
    cdef inline bint _takes(self, int i, int card) noexcept
    cdef inline int _pending_refill(self) noexcept
    cdef inline bint _decides(self, int i) noexcept

    # the key's order of the columns (kept by ``push`` and ``pop``)
    cdef inline void _sort_key(self, int i) noexcept
    cdef inline bint _after(self, int a, int b) noexcept
    cdef void _moved(self, int i) noexcept
    cdef void _sort_all(self) noexcept

    # the legal moves and their order (under ``legal`` and ``forced``)
    cdef int _decision(self, int* out) noexcept
    cdef inline int _decide(self, int src, int v, int* out) noexcept
    cdef inline int _urgency(self, int v) noexcept
    cdef inline int _placement_score(self, int i, int v) noexcept
    cdef int _batch_placement_score(self, int i, int v) noexcept
    cdef int _copy_urgency(self, int v, int skip) noexcept
    cdef int _placements(self, int v, int src, int* out, int n) noexcept

    # play (under ``push``)
    cdef int _check(self, int src, int dst) except -1
