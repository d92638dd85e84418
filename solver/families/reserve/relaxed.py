"""The relaxed play (issue #39: a bound in a module of its own, functions over the position with
the proof beside them): the counting bound and the copy count over a generous game.

Play a generous version of the rest of the game; if even it fails, so does the deal.

Play a generous version of the rest of the game; if even it fails, so does the deal:
2 (``COUNTING_DEAD``) or 3 (``COPIES_DEAD``), else 0.

The generous game: every pack card is available from its turn on
(it never needs a place and never covers anything); one copy of a
card may serve both foundations that want it; a column card leaves
as soon as a foundation that may take it, and had not taken its card
at the position, has taken its card (a foundation past the card at the
position took another copy: each takes one copy).  Each
foundation is then at least as far on, at every turn, as in any real
play (playing a card in the generous game never hurts, so playing
every playable card at once is its best play), and every card a real
play has freed by a turn is free by then in the generous game too (the
cards above it have gone to foundations that had not taken their cards
at the position, which the generous game has then taken past them too).
So:

- if a foundation cannot be finished even so, the deal is lost, when
  the foundations hold exactly the pack (one row per pack: every one
  must be finished to win); with more foundation places than cards
  (two rows, one pack), if some card left is passed by no foundation
  that may take it, that card can never be played, and the deal is
  lost (a real win plays it to a foundation, which the generous game
  has then taken past it too);
- with columns of limited size and every turned card placed at once,
  the cards out at each turn must fit in the columns' places, or it
  is lost (``COUNTING_DEAD``).  Cards out = cards seen (in columns, or
  turned so far) minus those that can have left.  A copy leaves only to a
  foundation, one copy per foundation, so the copies of a card that
  can have left number at most the copies seen and at most the
  foundations the generous game has taken past that card since now
  (a copy marked for one row only is counted as free to go to
  either, which is generous, so still sound): the second copy of a
  card stays out until its other foundation gets there too.
- the same count with the copies kept apart (``cc_most``, for two
  rows of foundations: ``COPIES_DEAD``): at each turn, at most
  ``cc_most`` cards can have gone to the foundations since now,
  however the copies free by then (in the generous game, so at least
  every copy free in a real play) are shared out between a suit's two
  foundations, each copy serving one foundation that it may go to; the
  cards seen minus that many must fit in the columns' places.  With the
  foundations holding exactly the pack, the copies free at the end must
  also be able to finish every foundation.

The game is played by ``rp_start`` (at the position), then for each pack card in turn order
``rp_offer`` (and ``rp_see``, counting) and ``rp_settle``; ``passed`` asks whether a foundation
stands past a card at the game's heights.  The learned key (``learned.py``) and the dead-end
bounds (``dead_ends.py``, ``gap_may_open``) play the same game; the pairing bound (``pairing.py``)
plays it turn by turn through ``Generous``.  The game's state is the position's ``g_*`` scratch
fields (``state.pxd``), one game at a time; ``rp_free`` keeps the copy count's tally of the free
copies (``copies.py``) as it offers them.

Where: ``dead`` (``dead_ends.py``) calls ``relaxed_play`` at every node the other bounds leave;
``slack`` (``position.py``) with ``keep_going``.  ``relaxed.pxd`` declares what the other modules
call.

One source (``solver/families/README.md``, "One source"): compiled by Cython in pure-Python mode
where a compiler exists, interpreted otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .copies import cc_splits

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.reserve.copies import cc_most
    from cython.cimports.solver.families.reserve.state import NCARD, NSUIT, SEQ, T_PLACE, ReserveState, bit
else:
    from .copies import cc_most
    from .state import NCARD, NSUIT, SEQ, T_PLACE, bit

    if TYPE_CHECKING:  # mypy reads no .pxd, so not the fields (state.pxd): any position here (importing
        ReserveState = Any  # position.py instead would be an import circle, tests/test_layers.py)


@cython.cfunc
@cython.exceptval(check=False)
def relaxed_play(pos: ReserveState, keep_going: cython.bint) -> cython.int:
    """The relaxed play (the module text): 2 (``COUNTING_DEAD``) or 3 (``COPIES_DEAD``) if even
    the generous game fails, else 0.  ``room`` becomes the least room left over the turns; with
    ``keep_going`` (``slack``) the play goes on past a turn that overflows.  With learning,
    ``snap`` keeps the generous heights at every stock length for the learned key
    (``learned.py``: the same game)."""
    f: cython.int
    i: cython.int
    k: cython.int
    t: cython.int
    v: cython.int
    c: cython.int
    out: cython.int
    check_room: cython.bint = pos.c_slots >= 0 and pos.turn == T_PLACE and not pos.batch_size
    snap: cython.bint = pos.learns
    least: cython.int = pos.c_slots  # the least room over the turns
    rp_start(pos, check_room, pos.nf == 8 and pos.strong_bounds, -1, -1)
    if snap:
        keep_heights(pos, pos.stock_n)
    for t in range(pos.stock_n - 1, -1, -1):
        v = pos.stock_buf[t]  # marked if it was committed in the waste before a redeal
        c = v & 63
        rp_offer(pos, c, v)
        if check_room:
            rp_see(pos, c)
            if pos.g_ntodo:
                rp_settle(pos)
            out = pos.g_seen - pos.g_gone
            if out > pos.c_slots and not keep_going:
                pos.horizons = (t + 1, t + 1)
                return 2
            if pos.g_copies:
                out = max(out, pos.g_seen - cc_most(pos))
                if out > pos.c_slots and not keep_going:
                    pos.horizons = (t + 1, t + 1)
                    return 3
            if pos.c_slots - out < least:
                least = pos.c_slots - out
        elif pos.g_ntodo:
            rp_settle(pos)
        if snap:
            keep_heights(pos, t)
    pos.snap_ok = snap  # kept for the learned key (``learned.py``) until the next move
    pos.room = least
    if pos.exact:  # every foundation must be finished
        for f in range(pos.nf):
            if pos.g_nd[f] >= 0:
                return 2
        if pos.g_copies and cc_most(pos) < pos.total - pos.placed:
            return 3
        return 0
    # more foundation places than cards: lost if some card left is passed by no foundation
    for i in range(pos.ncols):
        for k in range(pos.col_len[i]):
            if not passed(pos, pos.colbuf[i * pos.stride + k]):
                return 2
    for k in range(pos.waste_n):
        if not passed(pos, pos.waste_buf[k]):
            return 2
    for k in range(pos.stock_n):
        if not passed(pos, pos.stock_buf[k]):
            return 2
    return 0


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def keep_heights(pos: ReserveState, t: cython.int) -> cython.void:
    """The generous heights when the stock has ``t`` cards left, into ``snap``."""
    f: cython.int
    for f in range(pos.nf):
        pos.snap[t * pos.nf + f] = pos.g_hh[f]


@cython.cfunc
@cython.exceptval(check=False)
def rp_start(pos: ReserveState, count: cython.bint, copies: cython.bint, held_col: cython.int,
              held_left: cython.int) -> cython.void:
    """The generous game of ``relaxed_play``, made at this position (its columns exposed, its
    waste offered, the foundations settled); then ``rp_offer`` (and ``rp_see``, counting)
    and ``rp_settle`` for each pack card in turn order.  ``g_hh`` and ``g_nd`` are the
    foundations of the generous game; with ``count``, ``g_seen`` and ``g_gone`` the cards seen
    and the most that can have left, and with ``copies`` the copy count (two rows of
    foundations).  ``held_col``, ``held_left``: a copy that never leaves, column ``held_col``'s
    card when ``held_left`` cards are left in it (``generous``; -1: none).

    The order of the steps matters (a column card is let go when any foundation takes its
    card, in ``rp_settle``, but when exposed only if a foundation it may go to is past it,
    in ``rp_expose``), and the counts and learned keys depend on it."""
    f: cython.int
    i: cython.int
    k: cython.int
    v: cython.int
    pos.g_ntodo = pos.g_seen = pos.g_gone = pos.g_turns = 0
    pos.g_held_col, pos.g_held_left = held_col, held_left
    for k in range(NCARD):
        pos.g_head[k] = -1
        pos.g_seen_of[k] = 0
        pos.g_passed[k] = 0
    pos.g_copies = copies
    if copies:
        for k in range(NCARD):
            pos.g_both[k] = pos.g_only0[k] = pos.g_only1[k] = 0
        for k in range(NSUIT):
            pos.g_dirty[k] = True
    for f in range(pos.nf):
        pos.g_hh[f] = pos.heights[f]
        pos.g_nd[f] = pos.needs[f]
        pos.g_can[f] = 0
    for i in range(pos.ncols):
        pos.g_left[i] = pos.col_len[i]
    if count:
        for i in range(pos.ncols):
            for k in range(pos.col_len[i]):
                rp_see(pos, pos.colbuf[i * pos.stride + k] & 63)
    for i in range(pos.ncols):
        rp_expose(pos, i)
    for k in range(pos.waste_n):
        v = pos.waste_buf[k]
        rp_offer(pos, v & 63, v)
    rp_settle(pos)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def passed(pos: ReserveState, v: cython.int) -> cython.bint:
    """Some foundation that may take value ``v`` stands past its card at the generous game's
    heights ``g_hh``."""
    k: cython.int
    for k in range(pos.fd_n[v]):
        if pos.g_hh[pos.fd[v * pos.nf + k]] > pos.fdw[v * pos.nf + k]:
            return True
    return False


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def rp_see(pos: ReserveState, c: cython.int) -> cython.void:
    pos.g_seen += 1
    pos.g_seen_of[c] += 1
    if pos.g_seen_of[c] <= pos.g_passed[c]:
        pos.g_gone += 1


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def rp_free(pos: ReserveState, v: cython.int) -> cython.void:
    """One more free copy of ``v``'s card."""
    c: cython.int = v & 63
    marks: cython.int = (v >> 6) & 3
    if marks == 0:
        pos.g_both[c] += 1
    elif marks == 1:  # never to row 0
        pos.g_only1[c] += 1
    elif marks == 2:
        pos.g_only0[c] += 1
    else:
        return  # may go nowhere
    pos.g_dirty[c & 3] = True


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def rp_offer(pos: ReserveState, c: cython.int, v: cython.int) -> cython.void:
    """A copy of card ``c`` (value ``v``) is free: every foundation that may take it could."""
    k: cython.int
    f: cython.int
    b: cython.ulonglong = bit(c)
    if pos.g_copies:
        rp_free(pos, v)
    for k in range(pos.fd_n[v]):
        f = pos.fd[v * pos.nf + k]
        if not (pos.g_can[f] & b):
            pos.g_can[f] |= b
            if pos.g_nd[f] == c:
                pos.g_todo[pos.g_ntodo] = f
                pos.g_ntodo += 1


@cython.cfunc
@cython.exceptval(check=False)
def rp_expose(pos: ReserveState, i: cython.int) -> cython.void:
    """Column ``i``'s next card is offered; a card some foundation that had not taken its card
    at the position is past already (a copy of it was played) is let go too, and the next."""
    n: cython.int = pos.col_len[i]
    v: cython.int
    c: cython.int
    k: cython.int
    f: cython.int
    past: cython.bint
    while pos.g_left[i] and not (i == pos.g_held_col and pos.g_left[i] == pos.g_held_left):
        v = pos.colbuf[i * pos.stride + n - pos.g_left[i]] if pos.fifo \
            else pos.colbuf[i * pos.stride + pos.g_left[i] - 1]
        c = v & 63
        rp_offer(pos, c, v)
        past = False
        for k in range(pos.fd_n[v]):
            f = pos.fd[v * pos.nf + k]
            # a foundation past the card at the position took a copy that is not this one
            if pos.g_hh[f] > pos.fdw[v * pos.nf + k] >= pos.heights[f]:
                past = True
                break
        if past:
            pos.g_left[i] -= 1  # a copy of its card was played already: let it go too
            continue
        pos.g_nxt[i] = -1  # by_card[c].append(i)
        if pos.g_head[c] < 0:
            pos.g_head[c] = i
        else:
            pos.g_nxt[pos.g_tail[c]] = i
        pos.g_tail[c] = i
        return


@cython.cfunc
@cython.exceptval(check=False)
def rp_settle(pos: ReserveState) -> cython.void:
    """The foundations that may move on take every card they can, in turn; the columns
    showing a card taken let it go and expose the next."""
    f: cython.int
    c: cython.int
    i: cython.int
    j: cython.int
    while pos.g_ntodo:
        pos.g_ntodo -= 1
        f = pos.g_todo[pos.g_ntodo]
        while pos.g_nd[f] >= 0 and (pos.g_can[f] >> pos.g_nd[f]) & 1:
            c = pos.g_nd[f]
            pos.g_hh[f] += 1
            pos.g_nd[f] = pos.fseq[f * SEQ + pos.g_hh[f]] if pos.g_hh[f] < pos.seq_len[f] else -1
            pos.g_passed[c] += 1
            if pos.g_passed[c] <= pos.g_seen_of[c]:
                pos.g_gone += 1
            i = pos.g_head[c]  # by_card.pop(c): detach the list, then walk it
            pos.g_head[c] = -1
            while i >= 0:
                j = pos.g_nxt[i]
                pos.g_left[i] -= 1
                rp_expose(pos, i)
                i = j


class Generous:
    """The generous game of ``relaxed_play`` (the module text has the rules and the proof),
    counting, with the copy count, made at a position by ``generous`` (``ReservePosition.generous``),
    for ``pairing.py``: ``turn(v)`` for each pack card in turn order; ``hh`` the foundations'
    heights, ``seen`` and ``gone`` the cards seen and the most that can have left, ``most()`` the
    copy count's most and ``splits(s, spare)`` suit ``s``'s splits within ``spare`` of it
    (``copies.cc_splits``)."""

    def __init__(self, pos: Any):
        self.pos = pos
        self.hh, self.seen, self.gone, self._most = g_state(pos)

    def turn(self, v: int) -> None:
        g_turn(self.pos, v)
        self.hh, self.seen, self.gone, self._most = g_state(self.pos)

    def most(self) -> int:
        return self._most

    def splits(self, s: int, spare: int) -> list[tuple[int, int]]:
        return cc_splits(self.pos, s, spare)


def generous(pos: ReserveState, held: tuple[int, int, int] | None) -> Generous:
    """The counting generous game made at ``pos``, with the copy count, played turn by turn by
    ``pairing.py``; ``held`` a copy that never leaves, (column, depth, 0) for a column's card
    (depth 0 leaves first) or (-1, 0, turn) for the pack's card turned at step ``turn`` from
    1: it is never offered, so nothing under it in its column is exposed either.  One game at
    a time: the next game, or a bound, takes its place."""
    col, depth, turn = (-1, 0, -1) if held is None else held
    pos.g_held_turn = turn if col < 0 else -1
    rp_start(pos, True, pos.nf == 8, col, pos.col_len[col] - depth if col >= 0 else -1)
    return Generous(pos)


def g_turn(pos: ReserveState, v: int) -> None:
    """The generous game's next pack card ``v`` is turned (``Generous.turn``)."""
    c = v & 63
    pos.g_turns += 1
    if pos.g_turns != pos.g_held_turn:
        rp_offer(pos, c, v)
    rp_see(pos, c)
    rp_settle(pos)


def g_state(pos: ReserveState) -> tuple[list[int], int, int, int]:
    """The generous game's heights, cards seen, most gone, and the copy count's most."""
    return [pos.g_hh[f] for f in range(pos.nf)], pos.g_seen, pos.g_gone, cc_most(pos)
