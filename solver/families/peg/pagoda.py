"""Sound bounds for peg solitaire: position classes and pagoda functions.

Position classes (Conway; de Bruijn).  Label the hole in row ``r``, column
``c`` by ``(r + c) mod 3`` and by ``(r - c) mod 3``.  The three holes of a
horizontal or vertical jump carry three different labels of each kind, and a
jump changes the number of pegs on each of them by one (two holes lose a peg,
one gains).  So for each kind, the parities of ``n0 + n1`` and ``n1 + n2`` never
change: a position can only reach positions of its own class, and a goal of
another class is unreachable.  This is the classical parity argument that the
French 37-hole board cannot go from the centre vacancy to a centre finish.

Pagoda functions (Berlekamp, Conway and Guy).  Weights ``w`` on the holes such
that for every jump ``(frm, over, to)``, ``w[to] <= w[frm] + w[over]``: the sum
of the weights under the pegs never grows.  A position whose sum is below every
goal position's sum is lost.  Every function used here is checked against every
jump of the board before it is used, whatever produced it.  They are found for
each board and goal by a small integer program (CP-SAT): for each hole ``h``,
the function with the largest margin ``w[goal] - w[h]``, the weight of the
rest of the board as small as possible; so a position with its pegs on holes
far from the goal falls below the goal's value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .geometry import Board

MAX_WEIGHT = 2  # pagoda weights are integers in -MAX_WEIGHT .. MAX_WEIGHT
MAX_DENOMINATOR = 12  # fractional optima are scaled by their denominators, if this small
MAX_TOTAL = 4000  # a pagoda sum must fit its field in the search's packed sums


# ----------------------------------------------------------- position classes


def position_class(board: Board, pegs: Iterable[int]) -> tuple[int, int, int, int]:
    """The invariant class of a set of pegs: four parities."""
    u = [0, 0, 0]
    v = [0, 0, 0]
    for h in pegs:
        r, c = board.cells[h]
        u[(r + c) % 3] ^= 1
        v[(r - c) % 3] ^= 1
    return u[0] ^ u[1], u[1] ^ u[2], v[0] ^ v[1], v[1] ^ v[2]


def is_pagoda(board: Board, weights: Sequence[int]) -> bool:
    return all(weights[to] <= weights[frm] + weights[over] for frm, over, to in board.jumps)


@dataclass(frozen=True)
class Bounds:
    """What the search may use to prune, for one board and goal."""

    board: Board
    goal_pegs: int
    goal_holes: tuple[int, ...]  # where the last peg may be (goal_pegs == 1), else ()
    # (narrowed to the start's position class when ``use_classes``: empty if none is left)
    pagodas: tuple[tuple[int, ...], ...] = ()
    use_classes: bool = True

    @property
    def thresholds(self) -> list[int]:
        """Per pagoda: the least sum of a goal position."""
        return [min(w[h] for h in self.goal_holes) for w in self.pagodas]

    def reachable(self, pegs: Iterable[int]) -> bool:
        """False if the position class of ``pegs`` is that of no goal position."""
        if not self.use_classes or self.goal_pegs != 1:
            return True
        cls = position_class(self.board, pegs)
        return any(position_class(self.board, [h]) == cls for h in self.goal_holes)


def bounds_for(board: Board, goal_pegs: int, goal_hole: int | None, start: Iterable[int] = (), *,
               pagodas: bool = True, classes: bool = True) -> Bounds:
    """The bounds for a goal; with ``classes``, the goal holes are narrowed to those in the
    position class of ``start`` (none: the start is lost, and no pagoda is needed)."""
    if goal_pegs != 1:
        goal_holes: tuple[int, ...] = ()
    elif goal_hole is not None:
        goal_holes = (goal_hole,)
    else:
        goal_holes = tuple(range(board.size))
    start = list(start)
    if classes and goal_holes:
        cls = position_class(board, start)
        goal_holes = tuple(h for h in goal_holes if position_class(board, [h]) == cls)
    found: tuple[tuple[int, ...], ...] = ()
    if pagodas and goal_holes:
        found = tuple(w for w in find_pagodas(board, goal_holes)
                      if is_pagoda(board, w) and sum(map(abs, w)) < MAX_TOTAL)
    return Bounds(board, goal_pegs, goal_holes, found, classes)


def find_pagodas(board: Board, goal_holes: Sequence[int]) -> list[tuple[int, ...]]:
    """Pagoda functions that can cut positions short of ``goal_holes`` (see the module doc).

    One linear program per hole outside the goal, up to the symmetries that keep
    the goal in place.  Pagoda functions form a cone, so a fractional optimum
    scaled to whole numbers is one too (and is checked again by the caller).
    Each function found is added with its mirror images.
    """
    from ortools.linear_solver import pywraplp  # light to import, unlike the CP-SAT Python layer

    goal = set(goal_holes)
    group = board.stabilizer(goal)
    lp = pywraplp.Solver.CreateSolver("GLOP")
    if lp is None:
        return []
    w = [lp.NumVar(-MAX_WEIGHT, MAX_WEIGHT, f"w{h}") for h in range(board.size)]
    for frm, over, to in board.jumps:
        lp.Add(w[to] <= w[frm] + w[over])
    floor = lp.NumVar(-MAX_WEIGHT, MAX_WEIGHT, "floor")
    for g in goal:
        lp.Add(floor <= w[g])
    big = 4 * board.size
    found: set[tuple[int, ...]] = set()
    done: set[int] = set()
    for target in range(board.size):
        if target in goal or target in done:
            continue
        done.update(p[target] for p in group)
        objective = lp.Objective()
        objective.Clear()
        for h in range(board.size):
            objective.SetCoefficient(w[h], -1 - (big if h == target else 0))
        objective.SetCoefficient(floor, big)
        objective.SetMaximization()
        if lp.Solve() != pywraplp.Solver.OPTIMAL:
            continue
        weights = _whole([x.solution_value() for x in w])
        if min(weights[g] for g in goal) <= weights[target]:
            continue
        found.update(tuple(weights[p.index(h)] for h in range(board.size)) for p in group)
    return sorted(found)


def _whole(values: list[float]) -> tuple[int, ...]:
    """Floating weights as whole numbers in the same proportions (to within rounding)."""
    fractions = [Fraction(v).limit_denominator(MAX_DENOMINATOR) for v in values]
    scale = math.lcm(*(f.denominator for f in fractions))
    return tuple(int(f * scale) for f in fractions)
