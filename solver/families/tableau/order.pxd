# The tableau position's legal moves and their order (``order.py``, one source, compiled in
# pure-Python mode: this file augments it), declared for the position, which cimports them:
# ``legal_moves`` (its ``legal``) and the queries it shares.  They read the position's fields
# through ``TableauState`` (``state.pxd``), below both.

# (the names below are the module's: ``order.py`` reads them compiled)
from solver.families.core cimport MAX_MOVES
from solver.families.tableau.codes cimport (
    CARDS, COUNT_SHIFT, DEAL_USE, HOME_USE, JOINED, P_HOME, REDEAL_CODE, ROW_CODE, SUIT_HOME, TURN_CODE, code_dst,
    code_kind, code_n, code_place, code_src, joined_code, joined_dst, joined_n, joined_src, make_card, plain_code,
)
from solver.families.tableau.state cimport (
    MAXC, MAXH, NCARD, SEQUENCE, SINGLE, TAKES_CARD, TAKES_COLUMN, TableauState,
)


cdef int legal_moves(TableauState pos, int* out) except -1
cdef int found_for(TableauState pos, int c) noexcept
cdef int suit_home(TableauState pos, int i) noexcept
cdef int row_code(TableauState pos) noexcept
cdef int waste_reach(TableauState pos, int* out) noexcept
