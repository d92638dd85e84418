# The tableau position's legal moves and their order (``order.py``, one source, compiled in
# pure-Python mode: this file augments it), declared for the position, which cimports them:
# ``legal_moves`` (its ``legal``) and the queries it shares.  They read the position's fields
# through ``TableauState`` (``state.pxd``), below both.

from solver.families.tableau.state cimport TableauState


cdef int legal_moves(TableauState pos, int* out) except -1
cdef int found_for(TableauState pos, int c) noexcept
cdef int suit_home(TableauState pos, int i) noexcept
cdef int row_code(TableauState pos) noexcept
cdef int waste_reach(TableauState pos, int* out) noexcept
