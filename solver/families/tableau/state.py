"""The tableau position's state: its fields, declared once in ``state.pxd`` (issue #39).

One source (``solver/families/README.md``, "One source"): compiled, ``TableauState`` is the
``cdef class`` that ``state.pxd`` declares, with every field of the position as a C field (the
deal's rules, the mutable state, the scratch of ``legal`` and of the blocked bound); interpreted,
a plain class whose attributes ``TableauPosition.__init__`` sets.  It has no methods: the
position (``position.py``) derives from it and adds them, and the modules of functions over the
position (the blocked bound, ``blocked.py``; the legal moves and their order, ``order.py``) read
its fields through it, so that nothing imports in a circle (core <- state <- codes <- blocked,
order <- position).

The sizes are ``state.pxd``'s named constants, compiled; interpreted, the same names and values
here, which size the lists.
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
    NCARD = 52  # card ints 0..51; two packs share them
    MAXC = 20  # columns at most (as many as a layout may have)
    MAXCELL = 16  # cells at most
    MAXRES = 32  # single-card reserve piles at most (Solvitaire's klondike-reserve: 24)
    MAXF = 8  # foundations at most
    MAXH = 128  # cards in a column, the reserve or the ring at most (the code's 7 bits)
    NLEAVES = 8  # the move ordering's ``Leave`` rows: by group, by cell (4 scores each)
    NDESTINATIONS = 16  # its ``Destinations`` rows: cell, reserve, waste, foundation (4 each)
    # Policies (``tableau.moves``; the field ``policy``).
    SINGLE = 0
    SEQUENCE = 1
    SUPERMOVE = 2
    # What a foundation takes (``foundations.takes``; the field ``takes``).
    TAKES_CARD = 0
    TAKES_SUIT = 1
    TAKES_COLUMN = 2


@cython.cclass
class TableauState(CorePosition):
    """The fields of a tableau position (``state.pxd``); not a position by itself."""
