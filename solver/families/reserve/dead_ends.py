"""The reserve position's dead ends (issue #39: the bounds in modules of their own, functions over
the position with their proofs beside them): ``dead_end``, which asks them in turn, the buried card
(``buried``) and whether a gap may open (``gap_may_open``), which the others assume never does.

In order, cheap first: the buried card; the relaxed play's counting bound and copy count
(``relaxed.py``, ``copies.py``); near the deal, the timed copy count (``timed.py``: within
``TIMED_PLY`` moves of the deal where the counts leave at most ``TIMED_ROOM`` room) and the pairing
bound (``pairing.py``, Python: at the deal, where they leave at most ``PAIR_ROOM``), each proved in
its module.  With ``reserve.gaps = "any-top"`` (Twenty) none of them runs while a gap may open.

The buried card.  A card that can leave its column only after a card it must follow.

In a column, card y leaves before the cards behind it.  If every
foundation that may still take y needs first a card of which every
copy not yet on a foundation is behind y in that column, y can never
leave, and the deal is lost.

Each column is read once, from the card that leaves last up: ``blocked`` holds the
cards of which every copy not yet on a foundation is behind the current card, and a
foundation is blocked for card y when one of the cards it needs before y
(``seq[h[f]:where[y]]``, a mask from ``pmask``) is.

A gap.  Whether a gap may ever open: an empty column while the pack is empty, which
(``reserve.gaps = "any-top"``, Twenty) takes any top card of another column.

``buried`` and ``relaxed_play`` assume that a card leaves its column only to a
foundation, so that a column's cards leave top first; a move into a gap breaks
that (a card can be set aside to dig out the one under it), so they may prune only
where no gap can ever open.  A gap move needs an empty column; before the first
gap move every card leaves its column to a foundation, in order, so the first empty
column (unless one is empty now) is emptied that way: all its present cards go to
foundations, top first (cards put on it later only add to what must go).  The
generous game of ``relaxed_play`` (every pack card free from its turn, a column
card free to leave once a foundation that may take it has passed its card) lets
every column card leave that a real play without gap moves lets leave.  So if,
played to the end, the generous game leaves a card in every column, no column
is ever emptied, no gap move is ever made, and the two bounds hold as proved.
This is that play, without the turns (only its end counts): True if some column
is empty now or empties in it.  (It uses the generous game's ``g_hh``, ``g_can``
and ``g_left``.)

Where: ``ReservePosition.dead`` calls ``dead_end`` and ``slack`` calls ``gap_may_open`` (both
declared in ``dead_ends.pxd``).  The functions read the position's fields (``state.pxd``,
``ReserveState``).

One source (``solver/families/README.md``, "One source"): compiled by Cython in pure-Python mode
where a compiler exists, interpreted otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .pairing import pairing_horizon

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.reserve.relaxed import passed, relaxed_play
    from cython.cimports.solver.families.reserve.state import MEMO, NCARD, SEQ, ReserveState, bit
    from cython.cimports.solver.families.reserve.timed import timed_memo
else:
    from .relaxed import passed, relaxed_play
    from .state import MEMO, NCARD, SEQ, bit
    from .timed import timed_memo

    if TYPE_CHECKING:  # mypy reads no .pxd, so not the fields (state.pxd): any position here (importing
        ReserveState = Any  # position.py instead would be an import circle, tests/test_layers.py)

ALL_LINES = cython.declare(cython.int, 255)  # a horizon no line gets past: a buried card (``learned.py``)
# The timed copy count costs a hundred times the other bounds and cuts few positions deep in a
# search (measured: 4% of them on debutante 55, where every position is tight), so it runs only
# near the deal: within TIMED_PLY moves of it, where the counts leave at most TIMED_ROOM room.
TIMED_ROOM = cython.declare(cython.int, 2)
TIMED_PLY = cython.declare(cython.int, 8)
# The pairing bound (``pairing.py``) costs a generous game per copy it holds (0.1 to 0.5 s in
# Python): at the deal only, where the counts leave at most PAIR_ROOM room.  Deeper in the search
# it cut 8 positions of 226 it was asked about on debutante 58 at 115 s, and decided nothing.
PAIR_ROOM = cython.declare(cython.int, 1)
PAIR_PLY = cython.declare(cython.int, 0)


@cython.cfunc
@cython.exceptval(-1, check=False)
def dead_end(pos: ReserveState) -> cython.int:
    """The bound that proves no win is reachable (the module text), by its number in
    ``DEAD_REASONS`` (1 the buried card, 2 the counting bound, 3 the copy count, 4 the timed
    copy count, 5 the pairing bound), or 0; ``horizons`` the claims of the learned key
    (``learned.py``)."""
    why: cython.int
    horizon: cython.int
    pos.horizons = (0, 0)
    pos.snap_ok = False
    if pos.gaps_any_top and gap_may_open(pos):
        return 0  # the bounds below assume cards leave columns only to foundations
    if buried(pos):
        pos.horizons = (0, ALL_LINES)  # every line is buried
        return 1
    why = relaxed_play(pos, False)
    if why == 0 and pos.timed and pos.strong_bounds and pos.ply <= TIMED_PLY and pos.room <= TIMED_ROOM:
        horizon = timed_memo(pos)
        if horizon:
            pos.horizons = (horizon, horizon)
            return 4
    if why == 0 and pos.pairs and pos.strong_bounds and pos.ply <= PAIR_PLY and pos.room <= PAIR_ROOM:
        horizon = pairing_memo(pos)
        if horizon:
            pos.horizons = (max(horizon, 0), max(horizon, 0))
            return 5
    return why


@cython.cfunc
@cython.exceptval(check=False)
def buried(pos: ReserveState) -> cython.bint:
    """A card that can leave its column only after a card it must follow (the module text)."""
    cnt: cython.int[NCARD]
    if not cython.compiled:
        cnt = [0] * NCARD
    i: cython.int
    j: cython.int
    k: cython.int
    f: cython.int
    n: cython.int
    wy: cython.int
    y: cython.int
    c: cython.int
    base: cython.int
    blocked: cython.ulonglong
    stuck: cython.bint
    found: cython.bint = False
    for c in range(NCARD):
        cnt[c] = 0
    for i in range(pos.ncols):
        n = pos.col_len[i]
        if n < 2:
            continue
        base = i * pos.stride
        blocked = 0
        for j in range(n - 2, -1, -1):  # the j-th card to leave; the ones after it are behind
            c = (pos.colbuf[base + j + 1] if pos.fifo else pos.colbuf[base + n - 2 - j]) & 63
            cnt[c] += 1
            if cnt[c] >= pos.remaining[c]:
                blocked |= bit(c)
            y = pos.colbuf[base + j] if pos.fifo else pos.colbuf[base + n - 1 - j]
            stuck = True
            for k in range(pos.fd_n[y]):
                f = pos.fd[y * pos.nf + k]
                wy = pos.fdw[y * pos.nf + k]
                if wy < pos.heights[f]:
                    continue  # f is already past y's card
                if not (blocked & pos.pmask[f * SEQ + wy] & ~pos.pmask[f * SEQ + pos.heights[f]]):
                    stuck = False
                    break
            if stuck:
                found = True
                break
        for j in range(n):
            cnt[pos.colbuf[base + j] & 63] = 0
        if found:
            return True
    return False


@cython.cfunc
@cython.exceptval(check=False)
def gap_may_open(pos: ReserveState) -> cython.bint:
    """Whether a gap may ever open (the module text): True if some column is empty now or
    empties in the generous game played to its end (it uses the game's ``g_hh``, ``g_can`` and
    ``g_left``)."""
    f: cython.int
    i: cython.int
    k: cython.int
    v: cython.int
    moved: cython.bint = True
    for i in range(pos.ncols):
        if pos.col_len[i] == 0:
            return True
        pos.g_left[i] = pos.col_len[i]
    for f in range(pos.nf):
        pos.g_hh[f] = pos.heights[f]
        pos.g_can[f] = 0
    for k in range(pos.stock_n):
        gm_offer(pos, pos.stock_buf[k])
    for k in range(pos.waste_n):
        gm_offer(pos, pos.waste_buf[k])
    for i in range(pos.ncols):
        gm_offer(pos, gm_top(pos, i))
    while moved:
        moved = False
        for f in range(pos.nf):
            while pos.g_hh[f] < pos.seq_len[f] and (pos.g_can[f] >> pos.fseq[f * SEQ + pos.g_hh[f]]) & 1:
                pos.g_hh[f] += 1
                moved = True
        for i in range(pos.ncols):
            while True:
                v = gm_top(pos, i)
                if not passed(pos, v):
                    break
                pos.g_left[i] -= 1  # a foundation passed its card: it may have left
                moved = True
                if pos.g_left[i] == 0:
                    return True
                gm_offer(pos, gm_top(pos, i))
    return False


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def gm_top(pos: ReserveState, i: cython.int) -> cython.int:
    """``gap_may_open``'s top of column ``i``, with ``g_left[i]`` cards still in it."""
    if pos.fifo:
        return pos.colbuf[i * pos.stride + pos.col_len[i] - pos.g_left[i]]
    return pos.colbuf[i * pos.stride + pos.g_left[i] - 1]


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def gm_offer(pos: ReserveState, v: cython.int) -> cython.void:
    """Every foundation that may take ``v`` may be given its card (``gap_may_open``)."""
    k: cython.int
    for k in range(pos.fd_n[v]):
        pos.g_can[pos.fd[v * pos.nf + k]] |= bit(v & 63)


def pairing_memo(pos: ReserveState) -> int:
    """``pairing.pairing_horizon`` (Python, run near the deal only) on this position,
    remembered by the position's key."""
    key = pos.key()
    found = pos.pr_memo.get(key)
    if found is not None:
        return found
    if len(pos.pr_memo) >= MEMO:
        pos.pr_memo.clear()
    horizon: int = pairing_horizon(pos)
    pos.pr_memo[key] = horizon
    return horizon
