# The copy count (``copies.py``, one source, compiled in pure-Python mode: this file augments it),
# declared for the relaxed play (``relaxed.py``), which cimports it.  It reads the position's fields
# through ``ReserveState`` (``state.pxd``), below both.

from solver.families.reserve.state cimport ReserveState


cdef int cc_most(ReserveState pos) noexcept
cdef int cc_longest_a(ReserveState pos, int s) noexcept
cdef int cc_longest_b(ReserveState pos, int s, int a, int b) noexcept
