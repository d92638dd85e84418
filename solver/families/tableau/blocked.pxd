# The tableau position's blocked bound (``blocked.py``, one source, compiled in pure-Python mode:
# this file augments it), declared for the position, which cimports ``blocked`` and calls it from
# ``dead``.  It reads the position's fields through ``TableauState`` (``state.pxd``), below both.

from solver.families.tableau.state cimport TableauState


cdef bint blocked(TableauState pos) noexcept
