# The tableau family's position, declared once (issue #39): ``TableauPosition``, the class of
# ``position.py`` (one source, compiled in pure-Python mode: this file augments it), over its
# fields, ``TableauState`` (``state.pxd``), with the signatures of its C methods.  A module that
# cimports it (``from solver.families.tableau.position cimport TableauPosition``;
# ``solver/families/README.md``, "One source") calls them and reads the fields at C speed.
#
# The C interface of ``core.pxd`` (``legal``, ``forced``, ``push``, ``pop``, ``won``, ``dead``,
# ``write_key``) is declared there, with the same signatures, and not again here: Cython refuses
# a final class that declares a method of its base a second time ("Overriding final methods").

cimport cython

# (the names below are the module's: ``position.py`` reads them compiled)
from solver.families.core cimport MAX_MOVES
from solver.families.tableau.state cimport (
    MAXC, MAXCELL, MAXF, MAXH, MAXRES, NCARD, NDESTINATIONS, NLEAVES, SEQUENCE, SINGLE, SUPERMOVE, TableauState,
)


@cython.final  # no subclass when compiled: its C methods are called directly (and inlined)
cdef class TableauPosition(TableauState):
    # -- the C methods (``position.py``): helpers
    cdef inline int found_for(self, int c) noexcept
    cdef inline int seq_len(self, int i) noexcept
    cdef int suit_home(self, int i) noexcept
    cdef inline int row_code(self) noexcept
    cdef bint row_allowed(self) noexcept
    cdef int max_move(self, bint to_empty) noexcept
    cdef bint safe(self, int c) noexcept
    cdef int waste_reach(self, int* out) noexcept

    # play (under ``push`` and ``pop``)
    cdef int play(self, int move) except -1
    cdef int prim(self, int move) except -1
    cdef inline int note(self, int value) except -1
    cdef inline void touch(self, int s) noexcept
    cdef int unprim(self) except -1

    # the key (under ``write_key``)
    cdef unsigned long long pack(self, int i) noexcept
    cdef inline bint col_before(self, int a, int b) noexcept
    cdef int col_cmp(self, int a, int b) noexcept

    # the legal moves and their order (under ``legal``)
    cdef inline int add(self, int score, int code) except -1
    cdef inline int add_joined(self, int score, int code) except -1
    cdef void here(self) noexcept
    cdef int from_columns(self) except -1
    cdef int groups_from(self, int i) except -1
    cdef int to_spaces(self, int score, int src, int n, int place) except -1
    cdef inline int leave_score(self, int i, int n, int leave) noexcept
    cdef inline int depth_to_needed(self, int i) noexcept
    cdef int from_cells(self) except -1
    cdef int from_reserve_piles(self) except -1
    cdef int from_waste(self) except -1
    cdef int from_reserve(self) except -1
    cdef int from_foundations(self) except -1
    cdef int card_moves(self, int c, int src, int to, int place, int bonus) except -1
    cdef int uses_after(self, int i, int j, int n, int score) except -1
    cdef void prepare_disorder(self) noexcept
    cdef inline bint rooted(self, int i) noexcept
    cdef int ranked(self, int score, int code) noexcept
