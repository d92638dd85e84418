"""The tableau position's move codes (issue #39: split by concern).

A move is an int code laid out by the move table (``solver/moves.py``): its kind, the stacks'
numbers, the count and a waste place.  A lateral move played together with the use of the card
it uncovers (``JOINED``, bit 30; ``order.py``'s ``uses_after`` proves nothing else is needed) has
its own layout, narrower than a plain code's (joined moves exist only without cells and
single-card reserve piles, so every stack number is below 31): bits 0-4 the lateral move's
column i, 5-9 its column j, 10-16 its n cards; bits 17-21 the use's source (``HOME_USE``: not
from a stack, by its payload), bits 22-28 its count or waste place.  The use's destination,
column i or the uncovered card's foundation, follows from the position the code is played in,
which is the position the move ordering made it in.

Compiled, the constants and functions are ``codes.pxd``'s (compile-time constants; functions
written there with their bodies, so that the position and the move ordering, which cimport them,
inline them); interpreted, the same here.  Both builds check the constants against the move
table at import.
"""

from __future__ import annotations

from ... import moves

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if not cython.compiled:  # compiled, codes.pxd's enums and inline functions
    KIND_SHIFT = moves.KIND_SHIFT
    DST_SHIFT = moves.DST_SHIFT
    STACK_MASK = moves.STACK_MASK
    COUNT_SHIFT = moves.COUNT_SHIFT
    PLACE_SHIFT = moves.PLACE_SHIFT
    CARDS = moves.CARDS.number
    TURN = moves.TURN.number
    REDEAL = moves.REDEAL.number
    ROW = moves.ROW.number
    TURN_CODE = moves.code(moves.TURN)
    REDEAL_CODE = moves.code(moves.REDEAL)
    ROW_CODE = moves.code(moves.ROW, n=0)  # plus the count dealt
    PRIMITIVE = (1 << moves.PLACE_SHIFT) - 1  # a move's stacks and count
    JOINED = 1 << 30  # a lateral move with its use (the module text)
    HOME_USE = 31  # a joined move's use not from a stack, by its payload:
    P_HOME = 0  # the uncovered card goes home
    SUIT_HOME = 1  # the whole suit the move completed on its target column goes home
    DEAL_USE = 2  # the stock deals a row

    def plain_code(src: int, dst: int, n: int, place: int) -> int:
        """Cards from ``src`` to ``dst`` (``moves.CARDS``); ``place``: a waste card further in."""
        return src | (dst << DST_SHIFT) | (n << COUNT_SHIFT) | (place << PLACE_SHIFT)

    def joined_code(i: int, j: int, n: int, use_src: int, payload: int) -> int:
        """The lateral move (i, j, n) and its use: from ``use_src`` (``HOME_USE``: home), with
        ``payload`` its count or waste place (see the module text)."""
        return JOINED | i | (j << 5) | (n << 10) | (use_src << 17) | (payload << 22)

    def joined_src(m: int) -> int:
        """A joined code's lateral move: its column i ..."""
        return m & 31

    def joined_dst(m: int) -> int:
        """... its column j ..."""
        return (m >> 5) & 31

    def joined_n(m: int) -> int:
        """... and its count."""
        return (m >> 10) & 127

    def code_src(m: int) -> int:
        """A plain code's source stack (of a joined code: ``joined_src``)."""
        return m & STACK_MASK

    def code_dst(m: int) -> int:
        return (m >> DST_SHIFT) & STACK_MASK

    def code_n(m: int) -> int:
        return (m >> COUNT_SHIFT) & 127

    def code_kind(m: int) -> int:
        """The kind of a primitive or placed code (a joined code is ``CARDS``: its lateral part)."""
        return CARDS if m & JOINED else (m >> KIND_SHIFT) & 15

    def code_place(m: int) -> int:
        """The waste place of a plain move (0 for a joined move's lateral part)."""
        return 0 if m & JOINED else (m >> PLACE_SHIFT) & 127

    def make_card(rank: int, suit: int) -> int:
        """``cards.make``."""
        return (rank - 1) * 4 + suit


JOINED_BIT = JOINED  # for Python (a C constant cannot be imported from the compiled module)

# The constants as the move table has them (compiled, codes.pxd's literals must agree).
if (KIND_SHIFT, DST_SHIFT, STACK_MASK, COUNT_SHIFT, PLACE_SHIFT, CARDS, TURN, REDEAL, ROW, TURN_CODE, REDEAL_CODE,
        ROW_CODE, PRIMITIVE) != (
        moves.KIND_SHIFT, moves.DST_SHIFT, moves.STACK_MASK, moves.COUNT_SHIFT, moves.PLACE_SHIFT, moves.CARDS.number,
        moves.TURN.number, moves.REDEAL.number, moves.ROW.number, moves.code(moves.TURN), moves.code(moves.REDEAL),
        moves.code(moves.ROW, n=0), (1 << moves.PLACE_SHIFT) - 1):
    raise ImportError("solver/families/tableau/codes.pxd: the move codes' constants differ from solver/moves.py's")
