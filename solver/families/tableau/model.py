"""CP-SAT model of the open tableau games (the FreeCell family, Baker's Dozen): a plan of single-card moves.

Scope
-----
Columns, free cells and foundations built up in suit from the ace, one pack, every
card face up, no stock: FreeCell, Baker's Game, Eight Off, Seahaven Towers, ForeCell,
Baker's Dozen, on any deck (aimed at reduced ones, ``max_rank`` 2..6).  Cards move one
at a time (``single``) or in groups as large as the free cells and spaces could carry
(``supermove``): such a group move is a shortcut for single-card moves through the
cells and the spaces, so plans of single-card moves lose no win and every such plan is
a legal game.  ``sequence`` (groups of any size, whatever the cells) is not such a
shortcut and is refused, as are a stock, face-down cards, two packs, removable
foundations and columns that never give cards to the foundations.

Time and variables
------------------
Steps ``t = 0..H``; between step ``t`` and ``t + 1`` at most one card moves
(``mv[t, c]``), and once no card moves none does again (idle steps at the end).  At
every step each card has exactly one *place*:

- ``on[t, c, p]``: on card ``p`` in a column, for every ``p`` that ``c`` builds on
  and the card ``c`` was dealt on (which it cannot come back to unless it builds on it);
- ``root[t, c]``: at the bottom of a column.  Columns are not numbered: the number of
  roots never exceeds the column count, and the plan puts a card that starts a column
  into any empty one (so the model has no symmetry between columns);
- ``cell[t, c]``: in a free cell (cells are not numbered either: at most ``cells.count``);
- ``home[t, c]``: on its foundation.

Rules, as clauses: at most one card lies on any card; a card lies only on a card that
is in a column (not in a cell, not home); a card that moves is uncovered and not home,
and changes its place; a card that does not move keeps it; a card goes home only after
the card of its suit one rank lower (``home[t + 1, c] => home[t, pred c]``), and stays
there; a card comes to a root only if the empty column takes it (``spaces``), or it
was dealt there and never left.  The plan is won when every card is home at step ``H``.

Dominance (``FEATURES``, each keeps some shortest win, so a win within ``H`` moves is
kept): ``merge``, no card moves twice in a row (two moves of one card in a row are one
move, or none, from its first place to its last: the last place took the card at the
second move and nothing else changed since the first).  Implied (``remaining``): a card
not home at step ``t`` needs a move of its own, so at most ``H - t`` cards are not home
(on FreeCell A-9 it cut one deal from 38 s to 7 s).  Measured on seeds of FreeCell A-7,
A-9 and Baker's Game A-7: the first horizon 1.5 n finds wins a little sooner than 2 n,
and the move-by-move decision strategy (``strategy``) makes no clear difference.

What a verdict means
--------------------
A solution is extracted into moves (columns and cells named by replaying the plan) that
the referee replays: ``won`` is always backed by a plan.  An infeasible horizon only says
*no win within H single-card moves*.  No sound bound on the length of a shortest win is
known here that would be small enough to use (the number of distinct positions is sound
but astronomically large even for 16 cards; FreeCell's plan existence being in NP gives
a polynomial bound, but not one with constants we could state and prove here), so an
infeasible horizon gives ``unknown`` with the horizon named.  Without the ``horizon``
option the horizons ``HORIZONS`` (times the number of cards) are tried in turn within
the time limit.

``lost`` comes only from the *order relaxation* (feature ``relaxation``), a second,
horizon-free model that every win satisfies, so that its infeasibility is a proof.  In
any win of single-card moves let ``first[c]`` be the step of card ``c``'s first move
and ``home[c]`` the step it goes home (each card moves at least once, the last time
home).  Then:

1. the ``home`` steps are all different, and so are the ``first`` steps (one move a step);
2. ``first[c] <= home[c]``, and ``home[pred c] < home[c]``;
3. a card ``d`` dealt directly on ``c`` leaves it before ``c`` moves: ``first[d] < first[c]``;
4. with no free cell, a card ``d`` that no empty column takes goes at its first move
   either home (``first[d] = home[d]``) or onto a card ``p`` it builds on, other than the
   card it was dealt on, that is still in play (``home[p] > first[d]``) and uncovered:
   the card ``e`` dealt directly on ``p``, if any, has left it (``first[e] < first[d]``).

Only the order of the steps matters, so steps ``0..2n`` (``n`` cards) lose no win.  The
relaxation is what decides Baker's Dozen's losses (no cells, no spaces: a card buried
above a lower card of its suit must find a higher card to go on, and that one must be
free in time), in milliseconds where the DFS searches for seconds.  With free cells (or
spaces that take every card) rule 4 never applies and rules 1-3 always hold (every first
move before every move home), so the relaxation is skipped; it may take
``RELAXATION_SHARE`` of the time limit (on full-deck Baker's Dozen seeds 1-50: median
0.09 s, at most 6.6 s, no loss found).  Tried and dropped: rule 4 with free cells (a
card's first stay in a cell as an interval, at most ``cells.count`` at once, left for
home or a card it builds on) proved no loss on 720 Seahaven Towers, ForeCell and Eight
Off deals (A-4 to full), and on full decks sometimes did not finish within 10 s.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, ClassVar

from ortools.sat.python import cp_model

from ... import cards, moves
from ...errors import UnsupportedError
from ...layout import Layout, Reads
from ...limits import Limits
from ..base import Solved
from ..cpsat import decided, feature_flags, limit_reason, make_solver, stats_of
from .rules import rules_for

FEATURES = {
    # no card moves twice in a row (two moves of one card in a row are one move, or none)
    "merge": True,
    # idle steps only at the end of the plan (a solution is a plan followed by idle steps)
    "idle_last": True,
    # solver settings: no LP relaxation (the model is pure clauses)
    "light_search": True,
    # (implied) each card not yet home needs a move of its own: at most H - t are left at step t
    "remaining": True,
    # a search hint: branch on the moves, step by step
    "strategy": True,
    # first the order relaxation, whose infeasibility proves the deal lost (see above)
    "relaxation": True,
}

# The share of the time limit the order relaxation may take before the horizons.
RELAXATION_SHARE = 0.25

# Horizons tried without the ``horizon`` option, in single-card moves per card.
HORIZONS = (1.5, 2.5, 4.0)


# The rules this model is exact for; any other rule value is refused (``Reads``).  Groups of
# any size (``sequence``) are not shortcuts for single-card moves, so they are refused.
READS = Reads("the CP-SAT tableau model", {
    "foundations.rows": lambda rows: bool(rows) and all(r == (1, 1) for r in rows),
    "tableau.count": None, "tableau.deal": None, "tableau.face_down": lambda v: not any(v),
    "tableau.build": None, "tableau.direction": None, "tableau.spaces": {"any", "kings", "none"},
    "tableau.moves": {"single", "supermove"}, "tableau.wrap": None,
    "cells.count": None, "cells.deal": None,
})


def check_supported(layout: Layout, deal: dict[str, list[int]]) -> None:
    """Refuse, in one line, a layout whose rules this model does not capture exactly."""
    READS.check(layout)
    if deal.get("stock"):
        raise UnsupportedError(f"layout {layout.name!r}: the CP-SAT tableau model does not play a stock "
                               f"(stock.turn = {layout.stock.turn!r}, stock cards)")


class TableauModel:
    """The model of one deal, built for one horizon at a time (``_build``)."""

    # The ``auto`` engine's share of the time left after its first DFS phase: small, since
    # the model proves losses only where the order relaxation applies (Baker's Dozen) and
    # rarely wins a full deck, where the DFS decides most deals (FreeCell 11982: the DFS
    # proves it lost in about 11 s; with the default share CP-SAT took the time it needed).
    AUTO_SHARE: ClassVar[float] = 0.15

    def __init__(self, layout: Layout, deal: dict[str, list[int]], features: Any = None):
        check_supported(layout, deal)
        self.layout = layout
        self.deal = deal
        self.flags = feature_flags(FEATURES, features)
        t = layout.tableau
        self.ncol, self.ncell = t.count, layout.cells.count
        self.card: list[int] = []
        self.start: list[tuple[str, int]] = []  # ("on", parent) / ("root", -1) / ("cell", -1)
        for i in range(self.ncol):
            for h, c in enumerate(deal.get(f"tableau:{i}", [])):
                self.start.append(("on", len(self.card) - 1) if h else ("root", -1))
                self.card.append(c)
        for j in range(self.ncell):
            for c in deal.get(f"cell:{j}", []):
                self.start.append(("cell", -1))
                self.card.append(c)
        n = len(self.card)
        if len(set(self.card)) != n:
            raise UnsupportedError(f"layout {layout.name!r}: the CP-SAT tableau model needs distinct cards")
        index = {c: i for i, c in enumerate(self.card)}
        self.pred = [index.get(c - 4, -1) if cards.rank(c) > 1 else -1 for c in self.card]
        if any(cards.rank(c) > 1 and p < 0 for c, p in zip(self.card, self.pred)):
            raise UnsupportedError(f"layout {layout.name!r}: the deal lacks a card the foundations need")
        rules = self.rules = rules_for(layout)  # the same table the DFS position reads
        self.space_ok = [rules.space_ok[c] for c in self.card]
        # parents[c]: the cards c may lie on (those it builds on, and the one it was dealt on)
        self.parents: list[list[int]] = []
        for a in range(n):
            ps = [p for p in range(n) if p != a and rules.builds_on(self.card[p], self.card[a])]
            kind, p0 = self.start[a]
            if kind == "on" and p0 not in ps:
                ps.append(p0)
            self.parents.append(ps)
        self.children: list[list[int]] = [[] for _ in range(n)]
        for a, ps in enumerate(self.parents):
            for p in ps:
                self.children[p].append(a)
        self.horizon = 0
        self.model: cp_model.CpModel | None = None

    # ------------------------------------------------------------ building

    def _build(self, horizon: int) -> cp_model.CpModel:
        m = cp_model.CpModel()
        self.model, self.horizon = m, horizon
        n, H = len(self.card), horizon
        flags = self.flags
        self.on: list[list[dict[int, Any]]] = []
        self.root: list[list[Any]] = []
        self.cell: list[list[Any]] = []
        self.home: list[list[Any]] = []
        for t in range(H + 1):
            on_t: list[dict[int, Any]] = []
            root_t: list[Any] = []
            cell_t: list[Any] = []
            home_t: list[Any] = []
            for a in range(n):
                on_t.append({p: m.new_bool_var(f"on{t}_{a}_{p}") for p in self.parents[a]})
                root_ok = self.space_ok[a] or self.start[a][0] == "root"
                root_t.append(m.new_bool_var(f"root{t}_{a}") if root_ok else None)
                cell_t.append(m.new_bool_var(f"cell{t}_{a}") if self.ncell else None)
                home_t.append(m.new_bool_var(f"home{t}_{a}"))
            self.on.append(on_t)
            self.root.append(root_t)
            self.cell.append(cell_t)
            self.home.append(home_t)
            for a in range(n):
                m.add_exactly_one(self._places(t, a))
            for p in range(n):
                lying = [on_t[a][p] for a in self.children[p]]
                if lying:
                    m.add_at_most_one(lying)
                for x in lying:  # a card lies only on a card in a column
                    m.add_implication(x, ~home_t[p])
                    if cell_t[p] is not None:
                        m.add_implication(x, ~cell_t[p])
            m.add(sum(x for x in root_t if x is not None) <= self.ncol)
            if self.ncell:
                m.add(sum(cell_t) <= self.ncell)
            for a in range(n):
                if self.pred[a] >= 0:
                    m.add_implication(home_t[a], home_t[self.pred[a]])
        # the deal
        for a in range(n):
            kind, p0 = self.start[a]
            first = self.on[0][a][p0] if kind == "on" else self.root[0][a] if kind == "root" else self.cell[0][a]
            m.add(first == 1)
        # the moves
        self.mv: list[list[Any]] = []
        for t in range(H):
            mv_t = [m.new_bool_var(f"mv{t}_{a}") for a in range(n)]
            self.mv.append(mv_t)
            m.add_at_most_one(mv_t)
            for a in range(n):
                mv = mv_t[a]
                for x0, x1 in zip(self._places(t, a), self._places(t + 1, a), strict=True):
                    m.add_bool_or([~x0, mv, x1])  # a card that does not move keeps its place
                    m.add_bool_or([~x0, ~mv, ~x1])  # a card that moves changes it
                for b in self.children[a]:  # a card that moves is uncovered
                    m.add_implication(mv, ~self.on[t][b][a])
                m.add_implication(mv, ~self.home[t][a])
                if self.pred[a] >= 0:
                    m.add_implication(self.home[t + 1][a], self.home[t][self.pred[a]])
                if self.root[t][a] is not None and not self.space_ok[a]:  # back to its root: never
                    m.add_implication(self.root[t + 1][a], self.root[t][a])
                kind, p0 = self.start[a]
                if kind == "on" and not self.rules.builds_on(self.card[p0], self.card[a]):
                    m.add_implication(self.on[t + 1][a][p0], self.on[t][a][p0])
            if flags["merge"] and t:
                for a in range(n):
                    m.add_bool_or([~self.mv[t - 1][a], ~mv_t[a]])
            if flags["idle_last"] and t:
                m.add(sum(mv_t) <= sum(self.mv[t - 1]))
        for a in range(n):
            m.add(self.home[H][a] == 1)
        if flags["remaining"]:
            for t in range(H):
                if n > H - t:
                    m.add(sum(self.home[t]) >= n - (H - t))
        if flags["strategy"]:  # step by step, the move first
            m.add_decision_strategy([x for row in self.mv for x in row], cp_model.CHOOSE_FIRST,
                                    cp_model.SELECT_MAX_VALUE)
        return m

    def _places(self, t: int, a: int) -> list[Any]:
        out = list(self.on[t][a].values())
        for x in (self.root[t][a], self.cell[t][a], self.home[t][a]):
            if x is not None:
                out.append(x)
        return out

    # ------------------------------------------------------------- solving

    def horizons(self, options: dict[str, Any]) -> list[int]:
        if options.get("horizon") is not None:
            return [int(options["horizon"])]
        n = len(self.card)
        return sorted({max(n, round(f * n)) for f in HORIZONS})

    def relaxation(self) -> cp_model.CpModel:
        """The order relaxation: a model every win satisfies (rules 1-4 of the docstring)."""
        m = cp_model.CpModel()
        n = len(self.card)
        self.first = [m.new_int_var(0, 2 * n, f"first{a}") for a in range(n)]
        self.home_step = [m.new_int_var(0, 2 * n, f"home{a}") for a in range(n)]
        first, home = self.first, self.home_step
        m.add_all_different(first)
        m.add_all_different(home)
        dealt_on: dict[int, int] = {}  # card -> the card dealt directly on it
        for a in range(n):
            m.add(first[a] <= home[a])
            if self.pred[a] >= 0:
                m.add(home[self.pred[a]] < home[a])
            kind, p0 = self.start[a]
            if kind == "on":
                m.add(first[a] < first[p0])
                dealt_on[p0] = a
        for d in range(n):
            if self.ncell or self.space_ok[d]:
                continue
            kind, p0 = self.start[d]
            home_first = m.new_bool_var(f"direct{d}")
            m.add(first[d] == home[d]).only_enforce_if(home_first)
            ways = [home_first]
            for p in self.parents[d]:
                if kind == "on" and p == p0:
                    continue
                onto = m.new_bool_var(f"onto{d}_{p}")
                m.add(home[p] > first[d]).only_enforce_if(onto)
                if p in dealt_on:
                    m.add(first[dealt_on[p]] < first[d]).only_enforce_if(onto)
                ways.append(onto)
            m.add_bool_or(ways)
        return m

    def solve(self, limits: Limits, options: dict[str, Any]) -> Solved:
        start = time.perf_counter()
        relaxed: dict[str, Any] = {}
        stats: dict[str, Any] = {}
        tried = []
        if self.flags["relaxation"] and not self.ncell and not all(self.space_ok):
            # (with free cells, or spaces for every card, rule 4 never applies and rules 1-3
            # always hold: every first move before every move home)
            quick = limits
            if limits.timeout is not None:
                quick = replace(limits, timeout=RELAXATION_SHARE * limits.timeout)
            solver = make_solver(quick, options)
            status = solver.solve(self.relaxation())
            if status == cp_model.INFEASIBLE:
                return "lost", ("cp-sat: the order relaxation is infeasible, and every win satisfies it"), \
                    None, {"status": "INFEASIBLE", "proof": "order relaxation",
                                            "wall": round(solver.wall_time, 4), "branches": solver.num_branches}
            relaxed = {"relaxation": solver.status_name(status), "relaxation_wall": round(solver.wall_time, 4)}
        for horizon in self.horizons(options):
            left = limits
            if limits.timeout is not None and options.get("random_seed") is None:
                remaining = limits.timeout - (time.perf_counter() - start)
                left = replace(limits, timeout=remaining)
                if remaining <= 0.01:
                    return "unknown", limit_reason(limits, options), None, {**stats, **relaxed}
            model = self._build(horizon)
            solver = make_solver(left, options)
            if self.flags["light_search"]:
                solver.parameters.linearization_level = 0
            status = solver.solve(model)
            stats = {**stats_of(solver, status, model), "horizon": horizon, **relaxed}
            verdict = decided(status)
            if verdict is None:
                return "unknown", limit_reason(limits, options), None, stats
            if verdict == "won":
                return "won", None, self._extract(solver), stats
            tried.append(horizon)
        return "unknown", (f"horizon: no win within {tried[-1]} single-card moves (not a proof of loss: "
                           "no usable bound on the length of a shortest win)"), None, stats

    def _extract(self, solver: cp_model.CpSolver) -> list[dict[str, Any]]:
        """The plan as moves of the result contract, columns and cells named by replaying it."""
        from ..base import solution_json
        from .position import TableauPosition

        n = len(self.card)
        cols = [list(range(len(self.deal.get(f"tableau:{i}", [])))) for i in range(self.ncol)]
        k = 0
        for col in cols:  # card indices, in the order the model numbered them
            col[:] = range(k, k + len(col))
            k += len(col)
        cells = [-1] * self.ncell
        for j in range(self.ncell):
            if self.deal.get(f"cell:{j}"):
                cells[j] = k
                k += 1
        found = [0] * 4
        plan = []  # move codes (``solver/moves.py``), named by the position
        for t in range(self.horizon):
            moving = [a for a in range(n) if solver.value(self.mv[t][a])]
            if not moving:
                continue
            a = moving[0]
            if a in cells:
                src = self.ncol + cells.index(a)
                cells[src - self.ncol] = -1
            else:
                src = next(i for i, col in enumerate(cols) if col and col[-1] == a)
                cols[src].pop()
            if solver.value(self.home[t + 1][a]):
                s = cards.suit(self.card[a])
                dst = self.ncol + self.ncell + 1 + s
                found[s] += 1
            elif self.cell[t + 1][a] is not None and solver.value(self.cell[t + 1][a]):
                dst = self.ncol + cells.index(-1)
                cells[dst - self.ncol] = a
            elif self.root[t + 1][a] is not None and solver.value(self.root[t + 1][a]):
                dst = next(i for i, col in enumerate(cols) if not col)
                cols[dst].append(a)
            else:
                p = next(p for p, x in self.on[t + 1][a].items() if solver.value(x))
                dst = next(i for i, col in enumerate(cols) if col and col[-1] == p)
                cols[dst].append(a)
            plan.append(moves.code(moves.CARDS, src, dst))
        return solution_json(TableauPosition(self.layout, self.deal), plan)


def single_card_moves(layout: Layout, deal: dict[str, list[int]],
                      solution: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``solution`` (moves of the result contract) with each group move made card by card.

    A group of ``n`` cards going from a column to a column travels through the free
    cells and the empty columns that take any card (not the destination): with ``f``
    free cells, up to ``f + 1`` cards go one to each cell, the lowest across, the rest
    back on it; more go half to an empty column (through the other spaces), the rest
    across, then the half from that column.  Any group a ``supermove`` allows, at most
    ``(f + 1) * 2 ** spaces`` cards, goes so: this is the shortcut the model relies on.
    Raises ``ValueError`` for a group that cannot be carried.
    """
    cols = [list(deal.get(f"tableau:{i}", [])) for i in range(layout.tableau.count)]
    cells: list[int | None] = [deal[f"cell:{j}"][0] if deal.get(f"cell:{j}") else None
                               for j in range(layout.cells.count)]
    out: list[dict[str, Any]] = []

    def take(stack: str) -> int:
        kind, i = stack.split(":")
        if kind == "tableau":
            return cols[int(i)].pop()
        card, cells[int(i)] = cells[int(i)], None
        if card is None:
            raise ValueError(f"{stack} is empty")
        return card

    def step(src: str, dst: str) -> None:
        card = take(src)
        kind, i = dst.split(":")
        if kind == "tableau":
            cols[int(i)].append(card)
        elif kind == "cell":
            cells[int(i)] = card
        out.append({"card": cards.name(card), "from": src, "to": dst})

    def carry(n: int, src: int, dst: int, spaces: list[int]) -> None:
        free = [j for j, c in enumerate(cells) if c is None]
        if n <= len(free) + 1:
            for j in free[:n - 1]:
                step(f"tableau:{src}", f"cell:{j}")
            step(f"tableau:{src}", f"tableau:{dst}")
            for j in reversed(free[:n - 1]):
                step(f"cell:{j}", f"tableau:{dst}")
            return
        if not spaces:
            raise ValueError(f"{n} cards cannot be carried with {len(free)} free cells and no space")
        half = (len(free) + 1) << (len(spaces) - 1)
        if n <= half:  # the other spaces are enough
            carry(n, src, dst, spaces[1:])
            return
        carry(half, src, spaces[0], spaces[1:])
        carry(n - half, src, dst, spaces[1:])
        carry(half, spaces[0], dst, spaces[1:])

    for move in solution:
        n = move.get("count", 1)
        if n == 1:
            step(move["from"], move["to"])
            continue
        src, dst = int(move["from"].split(":")[1]), int(move["to"].split(":")[1])
        spaces = [i for i, col in enumerate(cols) if not col and i != dst] if layout.tableau.spaces == "any" else []
        carry(n, src, dst, spaces)
    return out
