# The relaxed play and its generous game (``relaxed.py``, one source, compiled in pure-Python mode:
# this file augments it), declared for the learned key (``learned.py``) and the dead-end bounds
# (``dead_ends.py``), which cimport it.  It reads the position's fields through ``ReserveState``
# (``state.pxd``), below all of them, and cimports the copy count (``copies.pxd``).

from solver.families.reserve.state cimport ReserveState


cdef int relaxed_play(ReserveState pos, bint keep_going) noexcept
cdef void rp_start(ReserveState pos, bint count, bint copies, int held_col, int held_left) noexcept
cdef void rp_offer(ReserveState pos, int c, int v) noexcept
cdef void rp_settle(ReserveState pos) noexcept
cdef bint passed(ReserveState pos, int v) noexcept
