# The timed copy count (``timed.py``, one source, compiled in pure-Python mode: this file augments
# it), declared for the dead-end bounds (``dead_ends.py``), which cimport ``timed_memo`` and call it
# from ``dead_end``.  It reads the position's fields through ``ReserveState`` (``state.pxd``).

from solver.families.reserve.state cimport ReserveState


cdef int timed_memo(ReserveState pos) except -1
