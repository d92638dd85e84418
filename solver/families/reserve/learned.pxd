# Learning's key (``learned.py``, one source, compiled in pure-Python mode: this file augments it),
# declared for the position, which cimports ``learned_key`` and calls it from ``write_learned_key``.
# It reads the position's fields through ``ReserveState`` (``state.pxd``) and plays the generous
# game of ``relaxed.pxd``, both below it.

from solver.families.reserve.state cimport ReserveState


cdef int learned_key(ReserveState pos, int kind, int horizon, unsigned char* buf) except -1
