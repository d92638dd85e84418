"""The timed copy count (issue #39: a bound in a module of its own, functions over the position
with the proof beside them).

The forty-first card rule with each copy given a time: the horizon (stock length at the
failing turn, plus one) if it proves that no line gets past some turn; else 0.  Only for two
rows of foundations holding two packs and every turned card placed at once on columns of limited
size (``timed``).

The counting bounds of ``relaxed.py`` ask, turn by turn, how many cards the foundations
can hold by then; the copy count lets the foundations share out the copies afresh at every
turn.  Here one sharing serves the whole game, and each copy has a time: a real play is
bound to one.

The relaxation.  Every card off the foundations is an *item*: a column card, free from now
(time 0) or from when the card above it can have left, or a pack card, free from its turn.
The columns' order is kept only as that lower bound; places, and the cards put on columns
later, are forgotten (a generous relaxation: it only makes items free earlier).  Each of a
suit's two foundations (rows 0 and 1, two rows of foundations) takes its next cards in
order, one item each, an item only into a row its marks allow; an item goes at the earliest
time its card's turn comes in its row: the later of its own time and the row's previous
card's.

Claim: if for every sharing of the items between the rows, at some turn t the cards seen
(in columns now, and turned since) minus the items gone by t exceed the columns' places,
then no line of play gets past turn t (``learned.py``'s horizon: the stock's length
when that card is turned, plus one).  Proof: a real line gives each copy it plays a row, a
sharing; it plays each copy no earlier than the copy is free and no earlier than the row's
previous card, so by every turn it has played at most the items the earliest-time play of
that sharing has gone (by induction along each row); its cards out at the turn are at least
seen minus those, more than the places.

Computing it.
- Lower bounds on the items' times (``ROUNDS`` rounds, each only raising valid bounds): a
  column card leaves after the one above it (in a queue, the one before it), which leaves
  no earlier than its row's previous card can be free: the latest of the earliest items of
  the cards before it in a row it may go to (the earliest over those rows).
- A card both rows still take has two items: which goes to row 0 is a choice; a card one
  row takes, that row's earliest item.  Choices are cut by dominance (``tm_sharings``); the
  rest are tried (at most ``MAX_CHOICES`` per suit, else the bound says nothing); each
  sharing gives the suit the times its items go, sorted, whose count at or before each turn
  is its curve; only curves no other curve of the suit beats are kept, and the suits'
  curves are combined by a search with the other suits' best as its bound
  (``tm_combinable``; at most ``BUDGET`` steps, else the bound says nothing).
- The horizon: the first turn by which every combination has failed.

The items: ``card``, ``value``, ``free_`` (the time it is free from at the least),
``above`` (the item that leaves its column before this one, or -1), ``times``, ``leave``,
``raised``: seven arrays of ``TM_ITEMS`` in ``tm_ints``; ``of[c * 2 + k]`` the k-th item
of card c (``nof[c]`` of them).

Where: ``dead`` (``dead_ends.py``) calls ``timed_memo`` (declared in ``timed.pxd``) within
``TIMED_PLY`` moves of the deal where the counts leave at most ``TIMED_ROOM`` room.  The functions
read the position's fields (``state.pxd``, ``ReserveState``) and work in its ``tm_*`` scratch.

One source (``solver/families/README.md``, "One source"): compiled by Cython in pure-Python mode
where a compiler exists, interpreted otherwise.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.reserve.state import (
        MEMO,
        NCARD,
        NSUIT,
        SEQ,
        TM_FRONT,
        TM_GONE,
        TM_ITEMS,
        TM_TURNS,
        ReserveState,
    )
else:
    from .state import MEMO, NCARD, NSUIT, SEQ, TM_FRONT, TM_GONE, TM_ITEMS, TM_TURNS

    if TYPE_CHECKING:  # mypy reads no .pxd, so not the fields (state.pxd): any position here (importing
        ReserveState = Any  # position.py instead would be an import circle, tests/test_layers.py)

MAX_CHOICES = cython.declare(cython.int, 10)  # choices per suit tried at most (2**10 sharings)
ROUNDS = cython.declare(cython.int, 3)  # rounds of the items' lower bounds
BUDGET = cython.declare(cython.int, 20000)  # combinations of the suits' curves tried at most, else nothing
TM_NEVER = cython.declare(cython.int, 1 << 20)


def timed_scratch(pos: ReserveState) -> None:
    """The count's scratch, made where it runs (``timed``, in ``ReservePosition.__init__``): the
    kept sharings and their curves (megabytes) as arrays; interpreted, the other ``tm_*`` fields
    too, as lists (compiled, they are C arrays in the object)."""
    if not cython.compiled:
        pos.tm_ints, pos.tm_best = [0] * (7 * TM_ITEMS), [0] * (NSUIT * TM_TURNS)
        pos.tm_rest, pos.tm_acc = [0] * ((NSUIT + 1) * TM_TURNS), [0] * ((NSUIT + 1) * TM_TURNS)
        pos.tm_nfront, pos.tm_total = [0] * NSUIT, [0] * NSUIT
    pos.tm_front = array("B", bytes(NSUIT * TM_FRONT * TM_GONE))
    pos.tm_curves = array("i", bytes(NSUIT * TM_FRONT * TM_TURNS * array("i").itemsize))


@cython.cfunc
@cython.exceptval(-1, check=False)
def timed_memo(pos: ReserveState) -> cython.int:
    """``timed_horizon``, remembered by the position's key: the positions near the deal are met
    again at every restart, and the count costs a hundred times the other bounds."""
    key = pos.key()
    found = pos.tm_memo.get(key)
    if found is not None:
        return found
    if len(pos.tm_memo) >= MEMO:
        pos.tm_memo.clear()
    horizon: cython.int = timed_horizon(pos)
    pos.tm_memo[key] = horizon
    return horizon


@cython.cfunc
@cython.exceptval(check=False)
@cython.cdivision(True)  # non-negative operands
def timed_horizon(pos: ReserveState) -> cython.int:
    """The timed copy count (the module text): the horizon (stock length at the failing turn,
    plus one) if it proves that no line gets past some turn; else 0."""
    turns: cython.int = pos.stock_n
    n: cython.int = 0
    i: cython.int
    k: cython.int
    t: cython.int
    v: cython.int
    c: cython.int
    s: cython.int
    row: cython.int
    f: cython.int
    prev: cython.int
    before: cython.int
    lo: cython.int
    hi: cython.int
    mid: cython.int
    _rnd: cython.int
    in_columns: cython.int
    best: cython.int
    x: cython.int
    changed: cython.bint
    card: cython.int = 0  # the arrays' offsets in tm_ints
    value: cython.int = TM_ITEMS
    free_: cython.int = 2 * TM_ITEMS
    above: cython.int = 3 * TM_ITEMS
    times: cython.int = 4 * TM_ITEMS
    leave: cython.int = 5 * TM_ITEMS
    raised: cython.int = 6 * TM_ITEMS
    nof: cython.int[NCARD]
    of: cython.int[128]  # 2 * NCARD (a compile-time expression is no size here)
    if not cython.compiled:
        nof, of = [0] * NCARD, [0] * (2 * NCARD)
    items: cython.p_int = pos.tm_ints
    for i in range(pos.ncols):  # the items: column cards in leaving order, then the pack's
        prev = -1
        for k in range(pos.col_len[i]):
            v = pos.colbuf[i * pos.stride + (k if pos.fifo else pos.col_len[i] - 1 - k)]
            items[card + n] = v & 63
            items[value + n] = v
            items[free_ + n] = 0
            items[above + n] = prev
            prev = n
            n += 1
    in_columns = n
    for t in range(turns):
        v = pos.stock_buf[turns - 1 - t]
        items[card + n] = v & 63
        items[value + n] = v
        items[free_ + n] = t + 1
        items[above + n] = -1
        n += 1
    for c in range(NCARD):
        nof[c] = 0
    for i in range(n):
        c = items[card + i]
        if nof[c] == 2:
            return 0  # more than two copies: not this bound's game
        of[c * 2 + nof[c]] = i
        nof[c] += 1
    for s in range(NSUIT):
        for row in range(2):
            f = s + 4 * row
            for k in range(pos.heights[f], pos.seq_len[f]):
                c = pos.fseq[f * SEQ + k]
                if not ((nof[c] > 0 and allowed(items[value + of[c * 2]], row))
                        or (nof[c] > 1 and allowed(items[value + of[c * 2 + 1]], row))):
                    return 0  # the row cannot be finished: the end-of-game bounds' business
    for i in range(n):
        items[times + i] = items[free_ + i]
    for _rnd in range(ROUNDS):
        for i in range(n):
            items[leave + i] = TM_NEVER  # the earliest each item can leave, over its rows
        for s in range(NSUIT):
            for row in range(2):
                f = s + 4 * row
                before = 0  # the row's previous card is free no earlier than this
                for k in range(pos.heights[f], pos.seq_len[f]):
                    c = pos.fseq[f * SEQ + k]
                    best = TM_NEVER
                    for t in range(nof[c]):
                        i = of[c * 2 + t]
                        if allowed(items[value + i], row):
                            items[leave + i] = min(items[leave + i], max(before, items[times + i]))
                            best = min(best, items[times + i])
                    before = max(before, best)
        changed = False
        for i in range(n):
            x = items[above + i]
            items[raised + i] = max(items[free_ + i], items[leave + x] if x >= 0 else 0)
            if items[raised + i] != items[times + i]:
                changed = True
        if not changed:
            break
        for i in range(n):
            items[times + i] = items[raised + i]
    for s in range(NSUIT):
        pos.tm_nfront[s] = tm_sharings(pos, s, nof, of, turns)
        if pos.tm_nfront[s] < 0:
            return 0
    if tm_combinable(pos, in_columns, turns):
        return 0
    lo, hi = 1, turns  # the first turn by which every combination has failed: in (lo - 1, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if tm_combinable(pos, in_columns, mid):
            lo = mid + 1
        else:
            hi = mid
    return turns - hi + 1


@cython.cfunc
@cython.exceptval(check=False)
def tm_settled(pos: ReserveState, s: cython.int, row: cython.int, c: cython.int, fixed: cython.p_int,
                is_open: cython.p_int, of: cython.p_int) -> cython.int:
    """Every sharing has the row past the cards before c no earlier than this."""
    f: cython.int = s + 4 * row
    k: cython.int
    c2: cython.int
    before: cython.int = 0
    times: cython.int = 4 * TM_ITEMS
    for k in range(pos.heights[f], pos.seq_len[f]):
        c2 = pos.fseq[f * SEQ + k]
        if c2 == c:
            return before
        if is_open[c2]:
            before = max(before, min(pos.tm_ints[times + of[c2 * 2]], pos.tm_ints[times + of[c2 * 2 + 1]]))
        else:
            before = max(before, pos.tm_ints[times + fixed[row * NCARD + c2]])
    return before


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)  # tm_front: s * TM_FRONT * TM_GONE + j * TM_GONE + k with j < TM_FRONT, k < TM_GONE
@cython.wraparound(False)
@cython.initializedcheck(False)
def tm_sharings(pos: ReserveState, s: cython.int, nof: cython.p_int, of: cython.p_int, turns: cython.int) -> cython.int:
    """Suit ``s``'s sharings that no other beats, each as the times its items go (after the
    last turn: ``turns + 1``), sorted, written to ``tm_front`` (TM_FRONT of them at most);
    their count, or -1 (too many choices).

    Choices are cut by dominance: when every sharing has row 0 past the cards before a card
    no earlier than its later item's time (``tm_settled``: each earlier card's earliest item
    bounds it), row 0 cannot gain by the earlier item, so row 1 takes it (and the same with
    the rows swapped).  One curve matches or beats another at every turn exactly when its
    sorted times are, one by one, no later (``no_later_kept``, ``no_later_new``)."""
    fixed: cython.int[128]  # 2 * NCARD: row * NCARD + card -> item
    ch_card: cython.int[16]
    ch_early: cython.int[16]
    ch_late: cython.int[16]
    is_open: cython.int[NCARD]
    gone: cython.uchar[TM_GONE]
    if not cython.compiled:
        fixed, ch_card, ch_early, ch_late, is_open, gone = \
            [0] * (2 * NCARD), [0] * 16, [0] * 16, [0] * 16, [0] * NCARD, [0] * TM_GONE
    nch: cython.int = 0
    k: cython.int
    j: cython.int
    c: cython.int
    a: cython.int
    b: cython.int
    f: cython.int
    f0: cython.int = s
    f1: cython.int = s + 4
    row: cython.int
    i: cython.int
    best: cython.int
    t: cython.int
    m: cython.int
    x: cython.int
    count: cython.int = 0
    q: cython.int
    total: cython.int
    ways: cython.int
    skip: cython.bint
    changed: cython.bint
    store: cython.int = s * TM_FRONT * TM_GONE  # the suit's kept sharings in tm_front
    value: cython.int = TM_ITEMS
    times: cython.int = 4 * TM_ITEMS
    items: cython.p_int = pos.tm_ints
    for k in range(NCARD):
        is_open[k] = 0
    for row in range(2):  # cards one row takes: that row's earliest item
        f = s + 4 * row
        for k in range(pos.heights[f], pos.seq_len[f]):
            c = pos.fseq[f * SEQ + k]
            if tm_in(pos, 1 - row, s, c):
                continue
            best = -1
            for j in range(nof[c]):
                i = of[c * 2 + j]
                if allowed(items[value + i], row) and (best < 0 or items[times + i] < items[times + best]):
                    best = i
            fixed[row * NCARD + c] = best
    for k in range(pos.heights[f0], pos.seq_len[f0]):  # cards both rows take, in row 0's order
        c = pos.fseq[f0 * SEQ + k]
        if not tm_in(pos, 1, s, c):
            continue
        if nof[c] != 2:
            return -1
        a, b = of[c * 2], of[c * 2 + 1]
        if items[times + b] < items[times + a]:
            a, b = b, a
        ways = 0
        if allowed(items[value + a], 0) and allowed(items[value + b], 1):
            ways |= 1
        if allowed(items[value + b], 0) and allowed(items[value + a], 1):
            ways |= 2
        if ways == 0:
            return -1
        if ways != 3 or items[times + a] == items[times + b]:
            if ways & 1:
                fixed[c], fixed[NCARD + c] = a, b
            else:
                fixed[c], fixed[NCARD + c] = b, a
        else:
            ch_card[nch], ch_early[nch], ch_late[nch] = c, a, b
            nch += 1
    changed = True
    while changed:  # each pass fixes the first choice it can, then starts again
        changed = False
        for j in range(nch):
            is_open[ch_card[j]] = 1
        for j in range(nch):
            c = ch_card[j]
            if tm_settled(pos, s, 0, c, fixed, is_open, of) >= items[times + ch_late[j]]:
                fixed[c], fixed[NCARD + c] = ch_late[j], ch_early[j]
            elif tm_settled(pos, s, 1, c, fixed, is_open, of) >= items[times + ch_late[j]]:
                fixed[c], fixed[NCARD + c] = ch_early[j], ch_late[j]
            else:
                continue
            for q in range(j, nch - 1):
                ch_card[q], ch_early[q], ch_late[q] = ch_card[q + 1], ch_early[q + 1], ch_late[q + 1]
            nch -= 1
            is_open[c] = 0
            changed = True
            break
    if nch > MAX_CHOICES:
        return -1
    total = (pos.seq_len[f0] - pos.heights[f0]) + (pos.seq_len[f1] - pos.heights[f1])
    for m in range(1 << nch):
        for j in range(nch):  # the first choice varies slowest
            c = ch_card[j]
            if (m >> (nch - 1 - j)) & 1:
                fixed[c], fixed[NCARD + c] = ch_late[j], ch_early[j]
            else:
                fixed[c], fixed[NCARD + c] = ch_early[j], ch_late[j]
        q = 0
        for row in range(2):
            f = s + 4 * row
            t = 0
            for k in range(pos.heights[f], pos.seq_len[f]):
                t = max(t, items[times + fixed[row * NCARD + pos.fseq[f * SEQ + k]]])
                gone[q] = min(t, turns + 1)
                q += 1
        for k in range(1, total):  # insertion sort
            x = gone[k]
            j = k
            while j > 0 and gone[j - 1] > x:
                gone[j] = gone[j - 1]
                j -= 1
            gone[j] = x
        skip = False
        for j in range(count):  # beaten or matched by a kept one?
            if no_later_kept(pos, store + j * TM_GONE, gone, total):
                skip = True
                break
        if skip:
            continue
        j = 0
        for k in range(count):  # drop the kept ones it beats, keeping their order
            if not no_later_new(pos, gone, store + k * TM_GONE, total):
                if j != k:
                    for x in range(TM_GONE):
                        pos.tm_front[store + j * TM_GONE + x] = pos.tm_front[store + k * TM_GONE + x]
                j += 1
        count = j
        if count == TM_FRONT:
            return -1
        for x in range(total):
            pos.tm_front[store + count * TM_GONE + x] = gone[x]
        pos.tm_total[s] = total
        count += 1
    pos.tm_total[s] = total
    return count


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def no_later_kept(pos: ReserveState, at: cython.int, gone: cython.p_uchar, n: cython.int) -> cython.bint:
    """Every one of the n times kept at ``tm_front[at:]`` is at most the one in ``gone``."""
    k: cython.int
    for k in range(n):
        if pos.tm_front[at + k] > gone[k]:
            return False
    return True


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def no_later_new(pos: ReserveState, gone: cython.p_uchar, at: cython.int, n: cython.int) -> cython.bint:
    """Every one of the n times in ``gone`` is at most the one kept at ``tm_front[at:]``."""
    k: cython.int
    for k in range(n):
        if gone[k] > pos.tm_front[at + k]:
            return False
    return True


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def tm_in(pos: ReserveState, row: cython.int, s: cython.int, c: cython.int) -> cython.bint:
    """Row ``row`` of suit ``s`` still takes card ``c``."""
    f: cython.int = s + 4 * row
    w: cython.int = pos.cwhere[f * NCARD + c]
    return pos.heights[f] <= w < pos.seq_len[f]


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)  # the indices stay in the arrays' sizes (TM_FRONT, TM_TURNS)
@cython.wraparound(False)
@cython.initializedcheck(False)
def tm_combinable(pos: ReserveState, in_columns: cython.int, last: cython.int) -> cython.bint:
    """Whether one curve per suit gives, at every turn 1..``last``, at least the cards seen by
    then less the places gone (``tm_go``): each kept sharing's curve, the items gone by each
    turn 0..last, in ``tm_curves``; each suit's best in ``tm_best``; the sums of the best of
    suits j.. in ``tm_rest``."""
    s: cython.int
    j: cython.int
    k: cython.int
    t: cython.int
    g: cython.int
    curve: cython.int
    best: cython.int
    for s in range(NSUIT):
        best = s * TM_TURNS
        for t in range(last + 1):
            pos.tm_best[best + t] = 0
        for j in range(pos.tm_nfront[s]):
            curve = (s * TM_FRONT + j) * TM_TURNS
            for t in range(last + 1):
                pos.tm_curves[curve + t] = 0
            for k in range(pos.tm_total[s]):
                g = pos.tm_front[(s * TM_FRONT + j) * TM_GONE + k]
                if g <= last:
                    pos.tm_curves[curve + g] += 1
            for t in range(1, last + 1):
                pos.tm_curves[curve + t] += pos.tm_curves[curve + t - 1]
            for t in range(last + 1):
                if pos.tm_curves[curve + t] > pos.tm_best[best + t]:
                    pos.tm_best[best + t] = pos.tm_curves[curve + t]
    for t in range(last + 1):
        pos.tm_rest[NSUIT * TM_TURNS + t] = 0
    for j in range(3, -1, -1):
        for t in range(last + 1):
            pos.tm_rest[j * TM_TURNS + t] = pos.tm_rest[(j + 1) * TM_TURNS + t] + pos.tm_best[j * TM_TURNS + t]
    for t in range(last + 1):
        pos.tm_acc[t] = 0
    pos.tm_tried = 0
    return tm_go(pos, 0, 0, in_columns, last)


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def tm_go(pos: ReserveState, j: cython.int, acc: cython.int, in_columns: cython.int, last: cython.int) -> cython.bint:
    """Suits j.. can add to the sums so far (``tm_acc[acc:]``) curves that reach the need at
    every turn: the search of ``tm_combinable``, bounded by the other suits' best."""
    t: cython.int
    k: cython.int
    nxt: cython.int = (j + 1) * TM_TURNS
    curve: cython.int
    pos.tm_tried += 1
    if pos.tm_tried > BUDGET:
        return True  # too many to try: claim nothing
    for t in range(1, last + 1):
        if pos.tm_acc[acc + t] + pos.tm_rest[j * TM_TURNS + t] < in_columns + t - pos.c_slots:
            return False
    if j == NSUIT:
        return True
    for k in range(pos.tm_nfront[j]):
        curve = (j * TM_FRONT + k) * TM_TURNS
        for t in range(last + 1):
            pos.tm_acc[nxt + t] = pos.tm_acc[acc + t] + pos.tm_curves[curve + t]
        if tm_go(pos, j + 1, nxt, in_columns, last):
            return True
    return False


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def allowed(v: cython.int, row: cython.int) -> cython.bint:
    """Value ``v``'s marks let it go to row ``row``."""
    return not ((v >> (6 + row)) & 1)
