"""The copy count (issue #39: a bound in a module of its own, functions over the position with the
proof beside them): the most cards that can go to the foundations from now on, copy by copy.

For two rows of foundations: suit ``s`` has foundations ``s`` (row 0) and ``s + 4`` (row 1), each
taking its next cards in order, one copy each.  The generous game (``relaxed.py``, ``rp_free``)
counts the copies it has made free, by the rows their marks let them go to: ``g_both[c]`` may go
to either row, ``g_only0[c]`` to row 0 only and ``g_only1[c]`` to row 1 only (a copy marked never
to go to one row, bit ``6 + row`` of its value, may serve only the other), and marks the suit
stale (``g_dirty``).  ``cc_most`` is the sum over the suits of the largest ``a + b`` such that row
0's next ``a`` cards and row 1's next ``b`` cards can each be given a free copy that may go there,
no copy given twice.

Each foundation's next cards are distinct cards, so a card is wanted at most once by each row; it
is wanted by both exactly when it lies in both prefixes, and then needs two copies, one for each
row.  Proof of the search (``cc_suit``): for a fixed ``a`` the feasible ``b`` form a prefix
(dropping a card of row 1's prefix frees nothing row 0 needs), and shortening row 0's prefix only
frees copies, so the longest ``b`` grows as ``a`` shrinks: one pass of ``a`` down from its longest
and ``b`` up gives the maximum.  Row 0's cards take a copy that only row 0 may use when there is
one, which leaves row 1 the most.

Where: the relaxed play (``relaxed.py``, ``relaxed_play``) compares the cards seen with
``cc_most`` at every turn (``COPIES_DEAD``, and with the foundations holding exactly the pack at
the end); the pairing bound (``pairing.py``) asks for a suit's splits near the most
(``cc_splits``, through ``Generous.splits``).  The functions read the position's fields
(``state.pxd``, ``ReserveState``) and keep ``g_best``/``g_dirty``, its scratch; ``copies.pxd``
declares what the other modules call.

One source (``solver/families/README.md``, "One source"): compiled by Cython in pure-Python mode
where a compiler exists, interpreted otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.reserve.state import NCARD, NSUIT, SEQ, ReserveState
else:
    from .state import NCARD, NSUIT, SEQ

    if TYPE_CHECKING:  # mypy reads no .pxd, so not the fields (state.pxd): any position here (importing
        ReserveState = Any  # position.py instead would be an import circle, tests/test_layers.py)


@cython.cfunc
@cython.exceptval(check=False)
def cc_most(pos: ReserveState) -> cython.int:
    """The copy count's most: the sum over the suits of ``cc_suit``, each computed again only when
    copies of its cards were made free since (``g_dirty``)."""
    s: cython.int
    total: cython.int = 0
    for s in range(NSUIT):
        if pos.g_dirty[s]:
            pos.g_dirty[s] = False
            pos.g_best[s] = cc_suit(pos, s)
        total += pos.g_best[s]
    return total


@cython.cfunc
@cython.exceptval(check=False)
def cc_suit(pos: ReserveState, s: cython.int) -> cython.int:
    """Suit ``s``'s most: the largest a + b (the module text)."""
    a: cython.int = cc_longest_a(pos, s)
    b: cython.int = 0
    best: cython.int = 0
    while True:
        b = cc_longest_b(pos, s, a, b)
        if a + b > best:
            best = a + b
        if a == 0:
            return best
        a -= 1


@cython.cfunc
@cython.exceptval(check=False)
def cc_longest_a(pos: ReserveState, s: cython.int) -> cython.int:
    """The longest prefix of row 0 given free copies."""
    a: cython.int = 0
    c: cython.int
    while pos.heights[s] + a < pos.seq_len[s]:
        c = pos.fseq[s * SEQ + pos.heights[s] + a]
        if not (pos.g_both[c] + pos.g_only0[c]):
            break
        a += 1
    return a


@cython.cfunc
@cython.exceptval(check=False)
def cc_longest_b(pos: ReserveState, s: cython.int, a: cython.int, b: cython.int) -> cython.int:
    """The longest prefix of row 1 given copies while row 0 takes its next ``a`` cards, from
    ``b`` on (a prefix known feasible)."""
    h0: cython.int = pos.heights[s]
    h1: cython.int = pos.heights[s + 4]
    c: cython.int
    spare: cython.int
    while h1 + b < pos.seq_len[s + 4]:
        c = pos.fseq[(s + 4) * SEQ + h1 + b]
        spare = pos.g_both[c] + pos.g_only1[c]
        if h0 <= pos.cwhere[s * NCARD + c] < h0 + a and not pos.g_only0[c]:
            spare -= 1  # row 0 takes one of the copies either row may use
        if spare < 1:
            break
        b += 1
    return b


def cc_splits(pos: ReserveState, s: int, spare: int) -> list[tuple[int, int]]:
    """Suit ``s``'s splits (a, b) within ``spare`` of its most: row 0's next ``a`` cards and
    row 1's next ``b`` each given a free copy (as ``cc_suit``), a + b >= the most - ``spare``;
    the feasible ``b`` for a given ``a`` form a prefix (``cc_suit``), so each ``a`` gives its
    longest and every shorter one."""
    longest = [(a, cc_longest_b(pos, s, a, 0)) for a in range(cc_longest_a(pos, s) + 1)]
    best = max(a + b for a, b in longest)
    return [(a, b) for a, top in longest for b in range(top + 1) if a + b >= best - spare]
