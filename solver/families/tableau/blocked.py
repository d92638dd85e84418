"""The tableau position's blocked bound (issue #39: a bound in a module of its own, functions over
the position with the proof beside them).

Whether some card not yet home can never go home, whatever is played: a sound bound.

A generous account of what can ever happen from here, as a least fixpoint.  Cards
are counted by their places (two copies of a card are two places).  For each card x
not home, three things may or may not ever happen: x is *freed* (nothing lies on it:
the card on it now leaves), x *leaves* (it moves from the card or stack under it now,
alone or carrying the cards on it), x *goes home*.  Per card value: it *can be a top*
(some copy lies on top of a column at some time) and it *is home* (some copy is,
or goes there).  And *a space* (some column is empty at some time).  Start from what
is true now (column tops, the stock and waste, the cells and the reserve's top are
free; cards on the foundations are home; empty columns) and apply until nothing
changes:

* x is freed if the card on x leaves (in the reserve, the card above it);
* a freed column card can be a top (a freed card of the stock, a cell or the reserve
  can be a top once it leaves: it goes alone, onto a column);
* x goes home if it is freed and the card of its suit below it is home (or x is an ace);
* x leaves if it can move: it is freed, or (groups of several cards moving) it is
  face up with the card on it built on it; and it has somewhere to go: home, a card
  it may go on that can be a top, or a space if a space takes it;
* a stock dealt in rows (``deal-row``) puts each of its cards on a column: it can be a top;
* a column's bottom card leaving makes a space;
* with ``removable`` foundations, a card that is home can be a top if it has
  somewhere to go (a card it may go on that can be a top, or a space).

Every rule only adds what is true, so the order does not matter.  Proof that it
is generous enough: take any play from here and its events (a card freed, leaving,
going home, a card value on top of a column, a column empty) in the order they
first happen.  Each event's conditions are events that happened before it, and
each rule above lists every way it can happen: the card on x is the first of the
cards above x to go (the others go with it or before), so x is freed exactly when
that card leaves; x moves only when nothing it cannot carry lies on it (for a
group, the card on x must be built on x at that time: the one that is on it now,
or, when that one has gone, x is freed); a card goes home only from the top of a
stack, onto its suit's card below it; a card goes onto a column only onto a top
or into a space; a column empties only when its bottom card leaves.  The stock is
taken as all free (more than the rules allow, which is generous); a row dealt onto
the columns puts a card on top of a card, which is no event above (the card under it
was freed before: it was a top) and a card that can be a top (listed), and fills
empty columns, which were spaces before.  By induction
each event of the play is reached by the fixpoint, so in a win every card goes
home in it.  A card that does not is thus a proof that the deal is lost.

The fixpoint is reached by propagation: each new fact wakes only the places it can
change (``b_push``), and the search stops as soon as every card can go home.  The
stock and waste's cards are free from the start and nothing lies on or under them,
so the copies of a card value there share their facts: they are kept per value
(``b_ring_*``), not as places.

Klondike's typical dead end: a queen on a king whose other king of that colour is
face down under the other queen of that colour, and a card below that king is the
start of a suit the first queen needs: neither queen can leave, so the cards under
them are never freed.  Only with ``tableau.to_foundation`` and no cells (a card could
always leave to a cell: the bound would never fire, and it costs time).

Where: ``TableauPosition.dead`` calls ``blocked`` when ``blocked_bound`` is set (``position.py``:
cards go home from the columns, no cells nor single-card reserve piles, foundations that take
one card at a time, a pack of four suits, no stock card filling a space).  The functions read
the position's fields (``state.pxd``, ``TableauState``: this module cimports it, and the
position cimports this module's ``blocked``, declared in ``blocked.pxd``) and work in its
``b_*`` scratch fields.

One source (``solver/families/README.md``, "One source"): compiled by Cython in pure-Python
mode where a compiler exists, interpreted otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.tableau.state import MAXH, NCARD, SINGLE, TableauState
else:
    from .state import MAXH, NCARD, SINGLE

    if TYPE_CHECKING:  # mypy reads no .pxd, so not the fields (state.pxd): any position here (importing
        TableauState = Any  # position.py instead would be an import circle, tests/test_layers.py)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def bit(c: cython.int) -> cython.ulonglong:
    """The 64-bit word with bit c set."""
    one: cython.ulonglong = 1
    return one << c


@cython.cfunc
@cython.exceptval(check=False)
def blocked(pos: TableauState) -> cython.bint:
    """Whether some card not yet home can never go home, whatever is played (the module text
    proves it sound)."""
    n: cython.int = 0
    i: cython.int
    j: cython.int
    x: cython.int
    c: cython.int
    f: cython.int
    r: cython.int
    pos.b_space = False
    pos.b_homed = 0
    pos.b_top = 0
    pos.b_home = pos.b_can_top = pos.b_ring_home = pos.b_ring_left = 0
    for c in range(NCARD):
        pos.b_nplaces[c] = 0
        pos.b_ring_count[c] = 0
    for i in range(pos.nc):
        if not pos.h[i]:
            pos.b_space = True
        for j in range(pos.h[i]):
            pos.b_card[n] = pos.cols[i * MAXH + j]
            pos.b_above[n] = n + 1 if j + 1 < pos.h[i] else -1
            pos.b_below[n] = n - 1 if j else -1
            pos.b_face_down[n] = j < pos.down[i]
            pos.b_bottom[n] = j == 0
            pos.b_in_column[n] = True
            n += 1
    for j in range(pos.L):
        pos.b_ring_count[pos.ring[j]] += 1
    for j in range(pos.nrs):
        pos.b_ring_count[pos.rs[j]] += 1
    for j in range(pos.nheel):
        pos.b_card[n] = pos.heel[j]
        pos.b_above[n] = n + 1 if j + 1 < pos.nheel else -1
        pos.b_below[n] = n - 1 if j else -1
        pos.b_face_down[n] = pos.b_bottom[n] = pos.b_in_column[n] = False
        n += 1
    pos.b_n = n
    for x in range(n):
        c = pos.b_card[x]
        if pos.b_nplaces[c] < 2:  # two packs: at most two places per card value
            pos.b_places[c * 2 + pos.b_nplaces[c]] = x
            pos.b_nplaces[c] += 1
        pos.b_freed[x] = pos.b_leaves[x] = pos.b_goes_home[x] = pos.b_queued[x] = 0
    for f in range(pos.nf):
        for r in range(pos.fh[f]):
            pos.b_home |= bit(r * 4 + pos.fsuit[f])
    for x in range(n):
        if pos.b_above[x] < 0:
            b_set_freed(pos, x)
        b_push(pos, x)
    for c in range(NCARD):
        if pos.b_ring_count[c]:
            if pos.nrs:
                b_ring_leave(pos, c)  # dealt in a row, a stock card is a column's top
            b_ring_evaluate(pos, c)
    if pos.removable:
        for c in range(NCARD):
            b_check_removable(pos, c)
    n += pos.L + pos.nrs  # every card: the places and the stock's
    while pos.b_top and pos.b_homed < n:
        pos.b_top -= 1
        x = pos.b_stack[pos.b_top]
        pos.b_queued[x] = 0
        b_evaluate(pos, x)
    return pos.b_homed < n


@cython.cfunc
@cython.exceptval(check=False)
def b_ring_evaluate(pos: TableauState, c: cython.int) -> cython.void:
    """The rules for the stock's copies of card value c: they go home, they leave."""
    if c < 4 or (pos.b_home >> (c - 4)) & 1:
        b_ring_go_home(pos, c)
    elif (pos.b_space and pos.space_ok[c]) or pos.b_can_top & pos.over_mask[c]:
        b_ring_leave(pos, c)


@cython.cfunc
@cython.exceptval(check=False)
def b_ring_go_home(pos: TableauState, c: cython.int) -> cython.void:
    if (pos.b_ring_home >> c) & 1:
        return
    pos.b_ring_home |= bit(c)
    pos.b_homed += pos.b_ring_count[c]
    b_set_home(pos, c)
    b_ring_leave(pos, c)


@cython.cfunc
@cython.exceptval(check=False)
def b_ring_leave(pos: TableauState, c: cython.int) -> cython.void:
    """Leaving, a stock card goes alone onto a column (or home): it can be a top."""
    if (pos.b_ring_left >> c) & 1:
        return
    pos.b_ring_left |= bit(c)
    b_set_can_top(pos, c)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def b_push(pos: TableauState, x: cython.int) -> cython.void:
    if not pos.b_queued[x] and not (pos.b_leaves[x] and pos.b_goes_home[x]):
        pos.b_queued[x] = 1
        pos.b_stack[pos.b_top] = x
        pos.b_top += 1


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def b_push_card(pos: TableauState, c: cython.int) -> cython.void:
    """Wake the places of card value c."""
    y: cython.int
    for y in range(pos.b_nplaces[c]):
        b_push(pos, pos.b_places[c * 2 + y])


@cython.cfunc
@cython.exceptval(check=False)
def b_evaluate(pos: TableauState, x: cython.int) -> cython.void:
    """The rules for place x: it goes home, it leaves."""
    c: cython.int = pos.b_card[x]
    a: cython.int = pos.b_above[x]
    if not pos.b_goes_home[x] and pos.b_freed[x] and (c < 4 or (pos.b_home >> (c - 4)) & 1):
        pos.b_goes_home[x] = 1
        pos.b_homed += 1
        b_set_home(pos, c)
    if not pos.b_leaves[x] and (pos.b_freed[x] or (pos.b_in_column[x] and pos.policy != SINGLE
                                                     and not pos.b_face_down[x] and a >= 0
                                                     and pos.fits[c * NCARD + pos.b_card[a]])):
        if (pos.b_goes_home[x] or (pos.b_space and pos.space_ok[c])
                or pos.b_can_top & pos.over_mask[c]):
            pos.b_leaves[x] = 1
            if pos.b_below[x] >= 0 and not pos.b_freed[pos.b_below[x]]:
                b_set_freed(pos, pos.b_below[x])
            if not pos.b_in_column[x]:
                b_set_can_top(pos, c)
            if pos.b_bottom[x]:
                b_set_space(pos)


@cython.cfunc
@cython.exceptval(check=False)
def b_set_freed(pos: TableauState, x: cython.int) -> cython.void:
    pos.b_freed[x] = 1
    if pos.b_in_column[x]:
        b_set_can_top(pos, pos.b_card[x])
    b_push(pos, x)


@cython.cfunc
@cython.exceptval(check=False)
def b_set_home(pos: TableauState, c: cython.int) -> cython.void:
    if (pos.b_home >> c) & 1:
        return
    pos.b_home |= bit(c)
    if c + 4 < NCARD:
        b_push_card(pos, c + 4)
        if pos.b_ring_count[c + 4]:
            b_ring_go_home(pos, c + 4)
    if pos.removable:
        b_check_removable(pos, c)


@cython.cfunc
@cython.exceptval(check=False)
def b_set_can_top(pos: TableauState, c: cython.int) -> cython.void:
    y: cython.int
    b: cython.int
    if (pos.b_can_top >> c) & 1:
        return
    pos.b_can_top |= bit(c)
    for y in range(pos.under_n[c]):
        b = pos.under[c * NCARD + y]
        b_push_card(pos, b)
        if pos.b_ring_count[b]:
            b_ring_leave(pos, b)
        if pos.removable:
            b_check_removable(pos, b)


@cython.cfunc
@cython.exceptval(check=False)
def b_set_space(pos: TableauState) -> cython.void:
    x: cython.int
    c: cython.int
    if pos.b_space:
        return
    pos.b_space = True
    for x in range(pos.b_n):
        if pos.space_ok[pos.b_card[x]]:
            b_push(pos, x)
    for c in range(NCARD):
        if pos.b_ring_count[c] and pos.space_ok[c]:
            b_ring_leave(pos, c)
    if pos.removable:
        for c in range(NCARD):
            b_check_removable(pos, c)


@cython.cfunc
@cython.exceptval(check=False)
def b_check_removable(pos: TableauState, c: cython.int) -> cython.void:
    """With removable foundations: a card that is home can be a top if it has somewhere to go."""
    if not (pos.b_home >> c) & 1 or (pos.b_can_top >> c) & 1:
        return
    if (pos.b_space and pos.space_ok[c]) or pos.b_can_top & pos.over_mask[c]:
        b_set_can_top(pos, c)
