"""The pairing bound: the forty-first card rule with the columns' order (``ReservePosition``).

The counting bounds count the cards out at each turn against the columns' places, as if any two
cards could share a column.  With columns of two, they cannot: a column's two cards leave in one
order only (a stack: the card put on last first; a queue: the card put on first first), so the
card that leaves first must be able to leave while the other is still there, and the other must be
able to wait that long.  At a turn where the cards out fill most of the places, few pairs of them
can share a column; if the columns needed exceed the columns there are, no line gets past it.

Definitions (a *step* t >= 1 is the turn of the pack's t-th card from now, its placement and the
plays after it; step 0 is now; a copy is *out at t* if it lies in a column at the end of step t):

- ``e(x | y)``: a step no earlier than any at which copy ``x``, out at T, can leave while copy ``y``
  stays in its column: the later of T + 1, x's turn, and the least, over the foundations that may
  take x (its marks allow them, they had not taken its card now, and they are not surely past it at
  T, below), of the step at which the generous game with ``y`` held passes x's card there.  The
  generous game (``ReservePosition.generous``) lets each foundation take its next card as soon as some
  copy of it is free, every other card leaving as early as it can, so each foundation is at least
  as far on at every step as in any real line in which ``y`` stays (a held copy is never free, and
  nothing under it in its column is either): a foundation takes x no earlier.
- ``L(y)``: the first step at which the counts of ``relaxed_play`` (``relaxed.py``) fail in the
  generous game with ``y`` held.  A line with ``y`` still out at the end of that step has at least
  that many cards out then (the counts' proof, with ``y`` never free), more than the places: so
  ``y`` leaves by step ``L(y)`` in every line that gets past it.
- *Surely past*: at a turn T where the copy count leaves ``s`` places spare (``slack``), a line that
  gets past T has at most ``s`` cards fewer on the foundations than the most the count allows;
  the count's most is the sum of each suit's, so each suit's two rows stand at one of the splits
  (a, b) (cards row 0 and row 1 have taken since now) with a + b at least the suit's most minus
  ``s``.  A row past a card in every such split is surely past it: it took a copy of the card,
  which is then not a copy out at T (a row takes one copy of each card).
- Cards surely out at T: of the copies of a card seen by T (in columns now, or turned), at least
  all but as many as the foundations that can be past it by T (surely-past splits where known, the
  generous game's otherwise).  A *node* is one such copy, or, when one of two copies is out and
  either may be, the two together.

Claim: in a line that gets past step H (the latest of T and the ``L`` used below), let ``b`` and
``x`` be two copies out at T in one column, ``f`` the one that leaves first and ``l`` the other
(stack: ``f`` the later put on; queue: the earlier).  Then ``e(f | l) <= D(f) <= D(l) <= L(l)``,
where ``D`` is the step at which a copy leaves: ``l`` stays while ``f`` leaves, and ``l`` leaves by
``L(l)``.  Also the later-arrived of the two arrived after the other (cards never move between
columns), and a column's two cards now are one such pair.  So the columns holding copies of the
nodes are at least the nodes less a matching of the graph whose edges join two nodes holding such
a pair; more than the columns there are, and no line gets past H.

Cost: a generous game per held copy and a matching per tight turn, so the search runs it only near
the deal where the counts leave little room, like the timed copy count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class ReservePosition(Protocol):
    """What the bound reads of a reserve position (``position.ReservePosition``)."""

    @property
    def slots(self) -> int | None: ...
    @property
    def ncols(self) -> int: ...
    @property
    def nf(self) -> int: ...
    @property
    def fifo(self) -> bool: ...
    @property
    def stock(self) -> Sequence[int]: ...
    @property
    def cols(self) -> Sequence[Sequence[int]]: ...
    @property
    def h(self) -> Sequence[int]: ...
    @property
    def seq(self) -> Sequence[Sequence[int]]: ...
    @property
    def where(self) -> Sequence[Sequence[int]]: ...
    @property
    def fdests(self) -> Sequence[Sequence[int]]: ...

    def generous(self, held: tuple[int, int, int] | None) -> Any:
        """The generous game of ``relaxed_play`` made at the position, counting, with ``held``
        (``relaxed.Generous``: ``turn``, ``hh``, ``seen``, ``gone``, ``most``, ``splits``)."""

NEVER = 1 << 20
TIGHT = 3  # the turns examined: the counts leave at most this many places spare there


@dataclass(frozen=True)
class Copy:
    """One card of the game: in column ``col`` (``depth`` 0 leaves first) or the pack's card turned
    at step ``turn`` (then ``col`` is -1)."""

    value: int
    turn: int = 0
    col: int = -1
    depth: int = 0


@dataclass
class Trace:
    """The generous game step by step: ``out[t]`` the counts' cards out at the end of step t (the
    larger of the two counts), ``spare[t]`` the copy count's places spare, ``passed[f][c]`` the step
    at which foundation f passed card c, and ``splits[t]`` each suit's splits of the copy count
    where step t is tight (else absent)."""

    out: list[int] = field(default_factory=list)
    spare: list[int] = field(default_factory=list)
    passed: list[dict[int, int]] = field(default_factory=list)
    splits: dict[int, list[list[tuple[int, int]]]] = field(default_factory=dict)


def pairing_horizon(pos: ReservePosition) -> int:
    """The horizon (the stock's length at the failing turn, plus one, as ``learned_key`` reads it)
    if the pairing bound proves that no line gets past some turn; -1 if it proves the position
    lost without such a turn (a pair that could never leave in its order); else 0.  For columns of two with
    every turned card placed at once and two rows of foundations holding two packs."""
    games = Games(pos)
    for t in sorted(games.base.splits):
        nodes, fixed, surely_past = _nodes_at(pos, games.copies, games.base, t)
        if len(nodes) + fixed <= pos.ncols:
            continue  # even with no two sharing a column they fit
        used = [t]
        columns = len(nodes) - matching_size(games.graph(nodes, t, surely_past, used)) + fixed
        if columns > pos.ncols:
            return -1 if max(used) >= NEVER else games.turns - max(used) + 1
    return 0


class Games:
    """The generous games of the bound at ``pos``, each played once, when first asked for: the one
    with nothing held (``base``, with each suit's splits at the tight turns) and one per held copy
    (``trace_with``), with the deadline ``L`` it gives (``deadline``).  ``copies``: every copy of
    the game, the columns' and the pack's (the CP-SAT model reads the same facts, ``grid.py``)."""

    def __init__(self, pos: ReservePosition):
        self.pos = pos
        self.slots = pos.slots or 0
        self.turns = turns = len(pos.stock)
        self.copies = [Copy(v, 0, i, d) for i, col in enumerate(pos.cols)
                       for d, v in enumerate(col if pos.fifo else col[::-1])]
        self.copies += [Copy(pos.stock[turns - t], t) for t in range(1, turns + 1)]
        self.base = self._run(None, True)
        self._held: dict[Copy, Trace] = {}
        self._limits: dict[Copy, int] = {}

    def _run(self, held: Copy | None, record_splits: bool) -> Trace:
        pos, stock, turns, slots = self.pos, self.pos.stock, self.turns, self.slots
        game = pos.generous(None if held is None else (held.col, held.depth, held.turn))
        trace = Trace(passed=[{} for _ in range(pos.nf)])
        hh = list(pos.h)
        for t in range(turns + 1):
            if t:
                game.turn(stock[turns - t])
            for f in range(pos.nf):
                for k in range(hh[f], game.hh[f]):
                    trace.passed[f][pos.seq[f][k]] = t
            hh = list(game.hh)
            most = game.most()
            trace.out.append(max(game.seen - game.gone, game.seen - most))
            trace.spare.append(slots - (game.seen - most))
            if record_splits and trace.out[-1] >= slots - TIGHT:
                trace.splits[t] = [game.splits(s, trace.spare[-1]) for s in range(4)]
        return trace

    def trace_with(self, y: Copy) -> Trace:
        """The generous game with ``y`` held."""
        if y not in self._held:
            self._held[y] = self._run(y, False)
        return self._held[y]

    def graph(self, nodes: list[tuple[Copy, ...]], t: int, surely_past: dict[int, set[int]],
              used: list[int]) -> list[set[int]]:
        """The bound's graph at tight turn ``t``: two nodes are joined when a copy of one may lie
        under (ahead of) a copy of the other then (``_may_share``; the steps its claims rest on
        are added to ``used``)."""
        adjacent: list[set[int]] = [set() for _ in nodes]
        for u, below in enumerate(nodes):
            for w, above in enumerate(nodes):
                if u != w and w not in adjacent[u] and any(
                        _may_share(self.pos, a, b, t, self.trace_with, self.deadline, surely_past, used)
                        for a in below for b in above):
                    adjacent[u].add(w)
                    adjacent[w].add(u)
        return adjacent

    def deadline(self, y: Copy) -> int:
        """``L(y)``: the step by which ``y`` leaves in every line that gets past it (NEVER: none)."""
        if y not in self._limits:
            out = self.trace_with(y).out
            self._limits[y] = next((t for t in range(self.turns + 1) if out[t] > self.slots), NEVER)
        return self._limits[y]


def _nodes_at(pos: ReservePosition, copies: list[Copy], base: Trace, t: int
              ) -> tuple[list[tuple[Copy, ...]], int, dict[int, set[int]]]:
    """The nodes at tight turn ``t``, the columns two of them surely fill together (a column's two
    cards now, both surely out: taken out of the nodes), and each card's foundations surely past it."""
    h = pos.h
    surely_past: dict[int, set[int]] = {}
    most_past: dict[int, int] = {}
    for s, splits in enumerate(base.splits[t]):
        for f in (s, s + 4):
            for k in range(h[f], len(pos.seq[f])):
                c = pos.seq[f][k]
                ahead = k - h[f]  # cards the row takes before c
                past = [(a if f == s else b) > ahead for a, b in splits]
                if all(past):
                    surely_past.setdefault(c, set()).add(f)
                most_past[c] = most_past.get(c, 0) + any(past)
    by_card: dict[int, list[Copy]] = {}
    for cp in copies:
        if cp.turn <= t:
            by_card.setdefault(cp.value & 63, []).append(cp)
    out: set[Copy] = set()
    nodes: list[tuple[Copy, ...]] = []
    for c, cps in by_card.items():
        k = len(cps) - min(len(cps), most_past.get(c, 0))
        if k == len(cps):
            out.update(cps)
            nodes.extend((cp,) for cp in cps)
        elif k:
            nodes.append(tuple(cps))
    fixed = 0
    for i in range(len(pos.cols)):
        pair = [cp for cp in copies if cp.col == i]
        if len(pair) == 2 and all(cp in out for cp in pair):
            nodes = [n for n in nodes if n[0] not in pair]
            fixed += 1
    return nodes, fixed, surely_past


def _may_share(pos: ReservePosition, a: Copy, b: Copy, t: int, trace_with, deadline,
               surely_past: dict[int, set[int]], used: list[int]) -> bool:
    """Whether copies ``a`` (below, or ahead in a queue) and ``b`` (put on later), both out at
    ``t``, may share a column then, by the claim of the module docstring."""
    if a.col >= 0 and b.col >= 0:
        return a.col == b.col and a.depth == 1 and b.depth == 0 if not pos.fifo else (
            a.col == b.col and a.depth == 0 and b.depth == 1)
    if b.col >= 0 or a.turn >= b.turn:
        return False  # the card put on later is a pack card turned after the other
    if a.col >= 0 and len(pos.cols[a.col]) > 1 and a.depth == 0:
        return False  # a full column's card that leaves first has its partner on it (or behind it)
    first, last = (a, b) if pos.fifo else (b, a)
    limit = deadline(last)
    if _earliest(pos, first, t, trace_with(last), surely_past) <= limit:
        return True
    used.append(limit)  # the claim rests on the line getting past step ``limit`` (NEVER: no horizon)
    return False


def _earliest(pos: ReservePosition, x: Copy, t: int, trace: Trace, surely_past: dict[int, set[int]]) -> int:
    """``e(x | y)`` with ``trace`` the generous game with y held."""
    c = x.value & 63
    best = NEVER
    for f in pos.fdests[x.value]:
        if pos.where[f][x.value] >= pos.h[f] and f not in surely_past.get(c, ()):
            best = min(best, trace.passed[f].get(c, NEVER))
    return max(best, t + 1, x.turn)


def matching_size(adjacent: list[set[int]]) -> int:
    """The size of a largest matching of the graph (Edmonds' blossoms: an augmenting path from each
    free vertex in turn, odd cycles shrunk to their base while searching)."""
    n = len(adjacent)
    mate = [-1] * n
    for root in range(n):
        if mate[root] < 0:
            _augment(adjacent, mate, root)
    return sum(1 for v in mate if v >= 0) // 2


def _augment(adjacent: list[set[int]], mate: list[int], root: int) -> bool:
    """Search one augmenting path from the free vertex ``root`` and flip it; True if found."""
    n = len(adjacent)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = [root]

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] < 0:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for u in adjacent[v]:
            if base[v] == base[u] or mate[v] == u:
                continue
            if u == root or (mate[u] >= 0 and parent[mate[u]] >= 0):
                b = lca(v, u)
                blossom = [False] * n
                mark_path(v, b, u, blossom)
                mark_path(u, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[u] < 0:
                parent[u] = v
                if mate[u] < 0:
                    while u >= 0:  # flip the path back to the root
                        pv = parent[u]
                        nxt = mate[pv]
                        mate[u], mate[pv] = pv, u
                        u = nxt
                    return True
                used[mate[u]] = True
                queue.append(mate[u])
    return False
