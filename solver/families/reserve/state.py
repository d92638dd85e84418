"""The reserve position's state: its fields, declared once in ``state.pxd`` (issue #39).

One source (``solver/families/README.md``, "One source"): compiled, ``ReserveState`` is the
``cdef class`` that ``state.pxd`` declares, with every field of the position as a C field (the
deal's rules and tables, the mutable state, the scratch of the generous game, of learning and of
the timed copy count); interpreted, a plain class whose attributes ``ReservePosition.__init__``
sets.  It has no methods: the position (``position.py``) derives from it and adds them, and the
modules of functions over the position (``copies.py``, ``relaxed.py``, ``learned.py``,
``timed.py``, ``dead_ends.py``) read its fields through it, so that nothing imports in a circle
(core <- state <- copies <- relaxed <- learned, timed <- dead_ends <- position).

The sizes and codes are ``state.pxd``'s named constants, compiled; interpreted, the same names
and values here, which size the lists.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.core import CorePosition
else:
    from ..core import CorePosition

if not cython.compiled:  # compiled, these are state.pxd's enums
    NCARD = 64  # card ints 0..63 (a value's low 6 bits; ``card | marks << 6``)
    VALUES = 256  # card values: card | marks << 6 (bit 6 + row: never to that row's foundation)
    SEQ = 16  # room per foundation in ``fseq`` and ``pmask`` (13 cards, one past)
    MAXF = 64  # foundations at most (16 rows)
    MAXC = 64  # columns at most (the layout schema's limit)
    MAXCARDS = 255  # cards at most (a byte each in the key)
    NSUIT = 4  # suits: foundation f's suit is f % 4 (the copy count's and the timed count's)
    # the timed copy count's scratch (``timed.py``)
    TM_ITEMS = 256  # items at most: the cards off the foundations
    TM_TURNS = 256  # turns at most: the stock's cards, and one
    TM_FRONT = 1024  # kept sharings per suit at most (2 ** MAX_CHOICES)
    TM_GONE = 32  # room per kept sharing in ``tm_front``: a suit's two foundations' cards (26)
    MEMO = 1 << 16  # keys the timed and pairing bounds' memos keep at most
    # stock.turn (the field ``turn``)
    T_NONE = 0
    T_PLACE = 1
    T_WASTE = 2
    T_DEALROW = 3
    # Stack codes (``position.py``: moves are pairs of them)
    C_STOCK = -1
    C_WASTE = -2
    C_ROW = -3
    C_COMMIT = -4
    C_FOUND = 1000

    def bit(c: int) -> int:  # compiled, state.pxd's inline function
        """The 64-bit word with bit c set."""
        return 1 << c


@cython.cclass
class ReserveState(CorePosition):
    """The fields of a reserve position (``state.pxd``); not a position by itself."""
