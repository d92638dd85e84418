"""The timed copy count: the forty-first card rule with each copy given a time (``ReservePosition``).

The counting bounds of ``_relaxed_play`` ask, turn by turn, how many cards the foundations can
hold by then; the copy count lets the foundations share out the copies afresh at every turn.  Here
one sharing serves the whole game, and each copy has a time: a real play is bound to one.

The relaxation.  Every card off the foundations is an *item*: a column card, free from now (time
0) or from when the card above it can have left, or a pack card, free from its turn.  The columns'
order is kept only as that lower bound; places, and the cards put on columns later, are forgotten
(a generous relaxation: it only makes items free earlier).  Each of a suit's two foundations
(rows 0 and 1, two rows of foundations) takes its next cards in order, one item each, an item
only into a row its marks allow; an item goes at the earliest time its card's turn comes in its
row: the later of its own time and the row's previous card's.

Claim: if for every sharing of the items between the rows, at some turn t the cards seen (in
columns now, and turned since) minus the items gone by t exceed the columns' places, then no line
of play gets past turn t (``learned_key``'s horizon: the stock's length when that card is turned,
plus one).  Proof: a real line gives each copy it plays a row, a sharing; it plays each copy no
earlier than the copy is free and no earlier than the row's previous card, so by every turn it has
played at most the items the earliest-time play of that sharing has gone (by induction along each
row); its cards out at the turn are at least seen minus those, more than the places.

Computing it.
- Lower bounds on the items' times (``ROUNDS`` rounds, each only raising valid bounds): a column
  card leaves after the one above it (in a queue, the one before it), which leaves no earlier
  than its row's previous card can be free: the latest of the earliest items of the cards before
  it in a row it may go to (the earliest over those rows).
- A card both rows still take has two items: which goes to row 0 is a choice; a card one row
  takes, that row's earliest item.  Choices are cut by dominance: when every sharing has row 0
  past the cards before it no earlier than the later item's time (``settled``: each earlier card's
  earliest item bounds it), row 0 cannot gain by the earlier item, so row 1 takes it (and the
  same with the rows swapped).  The rest are tried (at most ``MAX_CHOICES`` per suit, else the
  bound says nothing); each sharing gives the suit the times its items go, sorted, whose count at
  or before each turn is its curve (one curve matches or beats another at every turn exactly when
  its sorted times are, one by one, no later); only curves no other curve of the suit beats are
  kept, and the suits' curves are combined by a search with the other suits' best as its bound
  (at most ``BUDGET`` steps, else the bound says nothing).
- The horizon: the first turn by which every combination has failed.

The compiled twin (``ReserveCore._timed``) takes the same steps in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Protocol


class ReservePosition(Protocol):
    """What the count reads of a reserve position (``position.ReservePosition``)."""

    @property
    def slots(self) -> int | None: ...
    @property
    def stock(self) -> Sequence[int]: ...
    @property
    def cols(self) -> Sequence[Sequence[int]]: ...
    @property
    def fifo(self) -> bool: ...
    @property
    def h(self) -> Sequence[int]: ...
    @property
    def seq(self) -> Sequence[Sequence[int]]: ...


MAX_CHOICES = 10  # choices per suit tried at most (2**10 sharings)
ROUNDS = 3  # rounds of the items' lower bounds
BUDGET = 20_000  # combinations of the suits' curves tried at most, else the bound says nothing
NEVER = 1 << 20


def timed_horizon(pos: ReservePosition) -> int:
    """The horizon (stock length at the failing turn, plus one) if the timed count proves that no
    line gets past some turn; else 0.  Only for two rows of foundations holding two packs and every
    turned card placed at once on columns of limited size (``ReservePosition.timed``)."""
    stock, slots = pos.stock, pos.slots or 0
    turns = len(stock)
    card: list[int] = []
    value: list[int] = []
    free: list[int] = []
    above: list[int] = []  # the item that leaves its column before this one, or -1
    for col in pos.cols:
        prev = -1
        for v in (col if pos.fifo else col[::-1]):  # leaving order
            card.append(v & 63)
            value.append(v)
            free.append(0)
            above.append(prev)
            prev = len(card) - 1
    in_columns = len(card)
    for t in range(turns):
        v = stock[turns - 1 - t]
        card.append(v & 63)
        value.append(v)
        free.append(t + 1)
        above.append(-1)
    items_of: dict[int, list[int]] = {}
    for i, c in enumerate(card):
        items_of.setdefault(c, []).append(i)

    def allowed(i: int, row: int) -> bool:
        return not (value[i] >> (6 + row)) & 1

    rows = [[list(pos.seq[s + 4 * row][pos.h[s + 4 * row]:]) for row in (0, 1)] for s in range(4)]
    for s in range(4):
        for row in (0, 1):
            for c in rows[s][row]:
                if not any(allowed(i, row) for i in items_of.get(c, ())):
                    return 0  # the row cannot be finished: the end-of-game bounds' business
    times = free[:]
    for _ in range(ROUNDS):
        leave = [NEVER] * len(card)  # the earliest each item can leave, over its rows
        for s in range(4):
            for row in (0, 1):
                before = 0  # the row's previous card is free no earlier than this
                for c in rows[s][row]:
                    its = [i for i in items_of[c] if allowed(i, row)]
                    for i in its:
                        leave[i] = min(leave[i], max(before, times[i]))
                    before = max(before, min(times[i] for i in its))
        raised = [max(free[i], leave[above[i]] if above[i] >= 0 else 0) for i in range(len(card))]
        if raised == times:
            break
        times = raised

    fronts = []
    for s in range(4):
        front = _suit_front(rows[s], items_of, times, allowed, turns)
        if front is None:
            return 0
        fronts.append([_curve(times_gone, turns) for times_gone in front])
    need = [in_columns + t - slots for t in range(turns + 1)]
    if _combinable(fronts, need, turns):
        return 0
    low, high = 1, turns  # the first turn by which every combination has failed: in (low - 1, high]
    while low < high:
        mid = (low + high) // 2
        if _combinable(fronts, need, mid):
            low = mid + 1
        else:
            high = mid
    return turns - high + 1


def _suit_front(rows: list[list[int]], items_of: dict[int, list[int]], times: list[int],
                allowed, turns: int) -> list[tuple[int, ...]] | None:
    """The sharings of one suit that no other beats, each as the times its items go (after the last
    turn: ``turns + 1``), sorted; None if it has too many choices."""
    seq0, seq1 = rows
    fixed: tuple[dict[int, int], dict[int, int]] = ({}, {})  # row -> card -> item
    choices: list[tuple[int, int, int]] = []  # (card, earlier item, later item), in row 0's order
    for row, seq, other in ((0, seq0, seq1), (1, seq1, seq0)):
        for c in seq:
            if c not in other:
                fixed[row][c] = min((i for i in items_of[c] if allowed(i, row)), key=lambda i: times[i])
    for c in seq0:
        if c not in seq1:
            continue
        its = items_of[c]
        if len(its) != 2:
            return None
        a, b = sorted(its, key=lambda i: times[i])
        ways = [(x, y) for x, y in ((a, b), (b, a)) if allowed(x, 0) and allowed(y, 1)]
        if not ways:
            return None
        if len(ways) == 1 or times[a] == times[b]:
            fixed[0][c], fixed[1][c] = ways[0]
        else:
            choices.append((c, a, b))

    def settled(seq: list[int], row: int, c: int, open_cards: set[int]) -> int:
        """Every sharing has the row past the cards before c no earlier than this."""
        before = 0
        for c2 in seq:
            if c2 == c:
                return before
            if c2 in open_cards:
                before = max(before, min(times[i] for i in items_of[c2]))
            else:
                before = max(before, times[fixed[row][c2]])
        return before

    changed = True
    while changed:  # each pass fixes the first choice it can, then starts again
        changed = False
        open_cards = {c for c, _, _ in choices}
        for k, (c, early, late) in enumerate(choices):
            if settled(seq0, 0, c, open_cards) >= times[late]:
                fixed[0][c], fixed[1][c] = late, early
            elif settled(seq1, 1, c, open_cards) >= times[late]:
                fixed[0][c], fixed[1][c] = early, late
            else:
                continue
            del choices[k]
            changed = True
            break
    if len(choices) > MAX_CHOICES:
        return None
    front: list[tuple[int, ...]] = []
    for picks in product((0, 1), repeat=len(choices)):
        for (c, early, late), p in zip(choices, picks):
            fixed[0][c], fixed[1][c] = (early, late) if p == 0 else (late, early)
        gone = []
        for row, seq in ((0, seq0), (1, seq1)):
            t = 0
            for c in seq:
                t = max(t, times[fixed[row][c]])
                gone.append(min(t, turns + 1))
        new = tuple(sorted(gone))
        if any(all(x <= y for x, y in zip(kept, new)) for kept in front):
            continue
        front = [kept for kept in front if not all(y <= x for x, y in zip(kept, new))] + [new]
    return front


def _curve(times_gone: tuple[int, ...], turns: int) -> list[int]:
    """The items gone by each turn 0..turns, from the times they go."""
    curve = [0] * (turns + 1)
    for t in times_gone:
        if t <= turns:
            curve[t] += 1
    for t in range(1, turns + 1):
        curve[t] += curve[t - 1]
    return curve


def _combinable(fronts: list[list[list[int]]], need: list[int], last: int) -> bool:
    """Whether one curve per suit gives, at every turn 1..``last``, at least ``need`` gone."""
    span = range(1, last + 1)
    best = [[max(curve[t] for curve in front) for t in range(last + 1)] for front in fronts]
    rest = [[sum(best[s][t] for s in range(j, 4)) for t in range(last + 1)] for j in range(5)]
    tried = 0

    def go(j: int, acc: list[int]) -> bool:
        nonlocal tried
        tried += 1
        if tried > BUDGET:
            return True  # too many to try: claim nothing
        if any(acc[t] + rest[j][t] < need[t] for t in span):
            return False
        if j == 4:
            return True
        return any(go(j + 1, [a + b for a, b in zip(acc, curve)]) for curve in fronts[j])

    return go(0, [0] * (last + 1))
