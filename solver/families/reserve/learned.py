"""Learning's key for the reserve position (issue #39: learning in a module of its own, a function
over the position with its proof beside it).

What the claim of ``kind`` at ``horizon`` rests on (``solver.engines.dfs``, "Learning"),
written to ``buf``; its length.

A line *gets past* L when it turns the pack's card ``stock[L - 1]`` and places or plays it.
The claims at horizon L (kind 0 implies kind 1; either makes the position lost, since a win
turns every card and the search's tree holds a win if there is one):

- kind 0: no line of play from here gets past L;
- kind 1: every line of the search's tree from here buries a card (``dead_ends.buried``: then it is
  lost) or gets stuck before it gets past L.

The key.  Run the generous game of ``relaxed.relaxed_play`` from here through the turns down to
stock length L (cards ``stock[L:]``).  A column card is *inert* if no foundation that may
take it is then past its card: no real line plays it before getting past L, since every
foundation is then at most as far as in the generous game.  Kind 0 hides the inert cards.
Kind 1 hides fewer: a card is *shown* if a foundation that takes its card, marks aside,
is then past it (so no copy of it is played before L otherwise), or it is the last copy of
its card off the foundations, or it leaves its column before a shown card; in a queue
(``access = "first"``) also the column's first inert card in the order they leave; the
others are hidden.  The key is the stock's length, the foundation heights, and the columns
as a multiset (each as its length and values, sorted by (length, values)) with each hidden
card written ``INERT`` (the others keep their values, marks included).

Proof that positions with equal keys share the claim.  Say P has it and Q has P's key.
Both hold the same stock and foundations, hence the same cards out and the same hidden
cards as a multiset, in columns matched by their symbols.  Take a line from Q that gets
past L (of kind 1: a line of Q's tree that buries no card), up to that turn, and play the
same moves from P on the matched columns.  Hidden cards never move in it (they are inert,
and cards leave columns only to foundations), so at each step the two positions differ
only in which hidden card lies where, and the same moves are legal: a move involves
shown cards or the pack's, and columns of the same length take any card.  So P has a line
that gets past L: for kind 0, a contradiction.  For kind 1, also:

- the search's tree offers the same moves: decisions take the available card of least
  value that a foundation takes now, which is never hidden, and equal columns are one
  column either way;
- neither has a buried card or both.  A buried card y leaves before a card z that is the
  last copy of its card off the foundations (columns hold two cards at most).  Either z
  was in a column here: z is then shown (a card only becomes a last copy when its other
  copy is played, which shows it), and y, leaving before z, is shown too.  Or z is a pack
  card put behind y: in a stack it goes on top, so there y is the pack card and z a
  column's card, as before; in a queue y is the first card left in a column with room,
  every card before it having gone to a foundation (so not inert): y is shown.  The pack's
  cards are the same in both.

So P's tree has a line that gets past L without burying a card: a contradiction.

The search stores a claim for a position whose tree it has searched to the end, from its
children's.  Kind 0: the tree keeps, of all lines, one that gets as far (the decision
dominance moves a play to a foundation earlier, or keeps a line that never makes it; a
pack card placed where no foundation could ever take it instead goes to one now, which
changes no later move; equal columns are one column).  A child cut by the counting bounds
claims the turn whose count fails, which no line survives (both kinds); one with no legal
move, its stock length (both); one with a buried card claims nothing of kind 0 and kind 1
at every horizon (``ALL_LINES``); the end-of-game bounds claim nothing (0).

The clock (``ReservePosition.c_clock``) is the stock's length: play turns it down, one card at a
time; with no legal move and the stock not empty, the next card can be neither placed nor played,
so no line gets past this stock length (``c_stuck_horizon``).  Learning runs where every turned
card is placed at once, on columns of limited size taking any card, which cards leave only to the
foundations (``learns``, set in ``ReservePosition.__init__``).

Where: ``ReservePosition.write_learned_key`` calls ``learned_key`` (declared in ``learned.pxd``);
it plays the generous game of ``relaxed.py`` (or reads its heights, ``snap``, when ``dead`` has
just played it at this position) and writes the columns into the position's ``lk`` scratch.

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
    from cython.cimports.solver.families.reserve.relaxed import passed, rp_offer, rp_settle, rp_start
    from cython.cimports.solver.families.reserve.state import MAXC, ReserveState
else:
    from .relaxed import passed, rp_offer, rp_settle, rp_start
    from .state import MAXC

    if TYPE_CHECKING:  # mypy reads no .pxd, so not the fields (state.pxd): any position here (importing
        ReserveState = Any  # position.py instead would be an import circle, tests/test_layers.py)

INERT = cython.declare(cython.int, 255)  # a card that the learned key leaves out


@cython.cfunc
@cython.exceptval(-1, check=False)
def learned_key(pos: ReserveState, kind: cython.int, horizon: cython.int, buf: cython.p_uchar) -> cython.int:
    """The learned key of ``kind`` at ``horizon`` (the module text), written to ``buf``; its
    length (``ReservePosition.write_learned_key``)."""
    t: cython.int
    i: cython.int
    k: cython.int
    j: cython.int
    n: cython.int
    p: cython.int
    v: cython.int
    a: cython.int
    b: cython.int
    m: cython.int
    f: cython.int
    first: cython.int
    base: cython.int
    shown: cython.bint
    packed: cython.bint = True
    before: cython.bint
    order: cython.int[MAXC]
    sk: cython.ulonglong[MAXC]  # (length, values) packed into one number, for columns of at most 7 cards
    y: cython.ulonglong
    if not cython.compiled:
        order, sk = [0] * MAXC, [0] * MAXC
    horizon = min(horizon, pos.stock_n)
    if pos.snap_ok:  # the heights of ``dead``'s generous game, which is the same game
        for f in range(pos.nf):
            pos.g_hh[f] = pos.snap[horizon * pos.nf + f]
    else:
        rp_start(pos, False, False, -1, -1)
        for t in range(pos.stock_n - 1, horizon - 1, -1):
            v = pos.stock_buf[t]
            rp_offer(pos, v & 63, v)
            if pos.g_ntodo:
                rp_settle(pos)
    for i in range(pos.ncols):  # the columns, hidden cards written INERT, into ``lk``
        base = i * pos.stride
        n = pos.col_len[i]
        order[i] = i
        if kind == 0:  # the inert cards hidden
            for k in range(n):
                v = pos.colbuf[base + k]
                pos.lk[base + k] = v if passed(pos, v) else INERT
            continue
        first = -1  # in a queue: the first inert card, in the order cards leave (from the front)
        if pos.fifo:
            for k in range(n):
                v = pos.colbuf[base + k]
                if not (pos.remaining[v & 63] == 1 or passed(pos, v & 63)):
                    first = k
                    break
        shown = False
        for j in range(n):  # from the card that leaves last: the front of a stack, the end of a queue
            k = n - 1 - j if pos.fifo else j
            v = pos.colbuf[base + k]
            shown = shown or k == first or pos.remaining[v & 63] == 1 or passed(pos, v & 63)
            pos.lk[base + k] = v if shown else INERT
    for i in range(pos.ncols):
        n = pos.col_len[i]
        if n > 7:
            packed = False
            break
        sk[i] = n
        sk[i] <<= 56
        for k in range(n):
            y = pos.lk[i * pos.stride + k]
            sk[i] |= y << (48 - 8 * k)
    if packed:  # the same order as below, comparing one number a column
        for i in range(1, pos.ncols):
            a = order[i]
            j = i
            while j > 0 and sk[order[j - 1]] > sk[a]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = a
    for i in range(1, pos.ncols if not packed else 0):  # insertion sort by (length, values)
        a = order[i]
        j = i
        while j > 0:
            b = order[j - 1]
            n = pos.col_len[b]
            if n < pos.col_len[a]:
                break
            if n == pos.col_len[a]:
                before = True  # b's values <= a's
                for k in range(n):
                    if pos.lk[b * pos.stride + k] != pos.lk[a * pos.stride + k]:
                        before = pos.lk[b * pos.stride + k] < pos.lk[a * pos.stride + k]
                        break
                if before:
                    break
            order[j] = b
            j -= 1
        order[j] = a
    buf[0] = pos.stock_n
    p = 1
    for f in range(pos.nf):
        buf[p] = pos.heights[f]
        p += 1
    for k in range(pos.ncols):
        i = order[k]
        m = pos.col_len[i]
        buf[p] = m
        p += 1
        for j in range(m):
            buf[p + j] = pos.lk[i * pos.stride + j]
        p += m
    return p
