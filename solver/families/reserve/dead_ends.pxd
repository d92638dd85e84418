# The reserve position's dead ends (``dead_ends.py``, one source, compiled in pure-Python mode: this
# file augments it), declared for the position, which cimports ``dead_end`` (called from ``dead``)
# and ``gap_may_open`` (from ``slack``).  It reads the position's fields through ``ReserveState``
# (``state.pxd``) and calls the bounds of ``relaxed.pxd`` and ``timed.pxd``, all below it.

from solver.families.reserve.state cimport ReserveState


cdef int dead_end(ReserveState pos) except -1
cdef bint gap_may_open(ReserveState pos) noexcept
