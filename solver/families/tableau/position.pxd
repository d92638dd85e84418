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
from solver.families.tableau.codes cimport (
    CARDS, HOME_USE, JOINED, P_HOME, PRIMITIVE, REDEAL, REDEAL_CODE, ROW, SUIT_HOME, TURN, TURN_CODE, code_dst, code_kind,
    code_n, code_place, code_src, joined_dst, joined_n, joined_src, make_card, plain_code,
)
from solver.families.tableau.state cimport MAXC, MAXCELL, MAXF, MAXH, MAXRES, NCARD, TAKES_CARD, TableauState


@cython.final  # no subclass when compiled: its C methods are called directly (and inlined)
cdef class TableauPosition(TableauState):
    # -- the C methods (``position.py``); the legal moves and their order are ``order.py``'s functions
    cdef bint safe(self, int c) noexcept

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
