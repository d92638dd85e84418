"""The CP-SAT engine for peg boards: the step model of Jefferson, Miguel, Miguel and Tarim.

C. Jefferson, A. Miguel, I. Miguel, S. A. Tarim, "Modelling and solving English
Peg Solitaire", Computers & Operations Research 33(10), 2006.  Every jump
removes one peg, so a game from ``n`` pegs to ``k`` has exactly ``T = n - k``
steps.  The model, as the paper describes it:

- ``state[t][h]``: hole ``h`` holds a peg after ``t`` jumps (``t = 0 .. T``);
  ``state[0]`` is the start and ``state[T]`` the goal.
- ``jump[t][j]``: jump ``j`` is the ``t+1``-th; exactly one jump per step.
- Preconditions: a jump at step ``t`` needs pegs in its from and over holes and
  an empty to hole in ``state[t]``.
- Effects: after it, from and over are empty and to holds a peg in ``state[t+1]``.
- Frame axioms: a hole that no jump of step ``t`` touches keeps its state.
- Symmetry breaking, as in the paper: the board's symmetries (those that keep
  the start and the goal) are broken on the first jump, which must be the
  least of its orbit; and two independent jumps in a row (no hole in common,
  so they commute) must come in index order.

Implied constraints, each sound and each switchable for experiments:

- ``count`` (default on): ``n - t`` pegs after ``t`` jumps.
- ``parity`` (default on): each jump changes the number of pegs on each
  position-class label (see ``pagoda.position_class``) by one, so its parity
  alternates step by step.  This is what lets CP-SAT refute the French centre
  game at once; without it the solver has to find the contradiction by search.
- ``pagodas`` (default on): every pagoda function of the search's bounds stays
  at or above its goal value at every step (the goal holes narrowed by position
  class only when ``parity`` is on).
- ``flow`` (default on): effects and frame axioms again, as one linear equation
  per hole and step.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ortools.sat.python import cp_model

from ...limits import Limits
from ..base import Solved
from .layout import Deal, PegLayout
from .pagoda import bounds_for


class PegModel:
    """The step model of one start position (the ``Model`` interface of ``solver.families.base``)."""

    AUTO_SHARE: ClassVar[float] = 0.7

    def __init__(self, layout: PegLayout, deal: Deal, features: Any = None):
        self.layout, self.deal = layout, deal

    def solve(self, limits: Limits, options: dict[str, Any]) -> Solved:
        return solve_peg_cpsat(self.layout, self.deal, limits, **options)


def solve_peg_cpsat(layout: PegLayout, deal: Deal, limits: Limits, **options: Any) -> Solved:
    """Decide a peg board game with CP-SAT; ``won`` carries the jumps, ``lost`` is a proof
    of infeasibility, ``unknown`` names the limit hit."""
    board, goal = layout.board, layout.goal
    start = layout.peg_indices(deal)
    steps = len(start) - goal.pegs
    holes, jumps = range(board.size), board.jumps
    if steps < 0:
        return "lost", "fewer pegs than the goal", None, {"steps": steps, "branches": 0}

    m = cp_model.CpModel()
    state = [[m.new_bool_var(f"s{t}_{board.names[h]}") for h in holes] for t in range(steps + 1)]
    jump = [[m.new_bool_var(f"j{t}_{j}") for j in range(len(jumps))] for t in range(steps)]
    touching: list[list[int]] = [[] for _ in holes]
    for j, jmp in enumerate(jumps):
        for h in jmp:
            touching[h].append(j)

    for h in holes:
        m.add(state[0][h] == int(h in start))
    if goal.hole is not None:
        for h in holes:
            m.add(state[steps][h] == int(h == goal.hole))
    for t in range(steps):
        now, nxt, x = state[t], state[t + 1], jump[t]
        m.add_exactly_one(x)
        for j, (frm, over, to) in enumerate(jumps):
            m.add_bool_and([now[frm], now[over], now[to].Not()]).only_enforce_if(x[j])  # preconditions
            m.add_bool_and([nxt[frm].Not(), nxt[over].Not(), nxt[to]]).only_enforce_if(x[j])  # effects
        for h in holes:  # frame axioms: a change at h needs a jump touching h
            moved = [x[j] for j in touching[h]]
            m.add_bool_or([now[h].Not(), nxt[h], *moved])
            m.add_bool_or([now[h], nxt[h].Not(), *moved])

    if options.get("flow", True):  # effects and frame axioms again, as one linear equation per hole
        for t in range(steps):
            for h in holes:
                gain = [jump[t][j] for j in touching[h] if jumps[j][2] == h]
                loss = [jump[t][j] for j in touching[h] if jumps[j][2] != h]
                m.add(state[t + 1][h] == state[t][h] + sum(gain) - sum(loss))
    if options.get("symmetry", True):
        _break_symmetries(m, layout, start, jump)
    if options.get("count", True):
        for t in range(steps + 1):
            m.add(sum(state[t]) == len(start) - t)
    if options.get("parity", True):
        _parity(m, board, start, state)
    if options.get("pagodas", True) and goal.pegs == 1:
        bounds = bounds_for(board, goal.pegs, goal.hole, start, classes=options.get("parity", True))
        for w, floor in zip(bounds.pagodas, bounds.thresholds, strict=True):
            for t in range(1, steps + 1):
                m.add(sum(w[h] * state[t][h] for h in holes if w[h]) >= floor)

    if options.get("in_order", True):  # branch on the jumps step by step, as a player would
        order = _jump_order(board) if options.get("order", "edge") == "edge" else range(len(jumps))
        m.add_decision_strategy([step[j] for step in jump for j in order], cp_model.CHOOSE_FIRST,
                                cp_model.SELECT_MAX_VALUE)
    solver = cp_model.CpSolver()
    p = solver.parameters
    if limits.timeout is not None:
        p.max_time_in_seconds = limits.timeout
    if limits.max_nodes is not None:
        p.max_number_of_conflicts = limits.max_nodes
    # One worker diving through the jumps in step order (the decision strategy above) finds
    # wins far sooner than the default portfolio, whose LP workers crawl on this model; with
    # more workers, CP-SAT runs its portfolio, that dive among them.  No LP either way.
    p.linearization_level = 0
    p.num_workers = options.get("workers") or 1
    if p.num_workers == 1 and options.get("in_order", True):
        p.search_branching = cp_model.FIXED_SEARCH
    for name, value in (options.get("parameters") or {}).items():  # raw CP-SAT parameters, for experiments
        if isinstance(value, list):
            getattr(p, name).extend(value)
        else:
            setattr(p, name, getattr(cp_model, value) if isinstance(value, str) else value)
    if options.get("random_seed") is not None:
        p.random_seed = options["random_seed"]
        p.interleave_search = True  # deterministic
    status = solver.solve(m)
    stats = {"steps": steps, "status": solver.status_name(status), "conflicts": solver.num_conflicts,
             "branches": solver.num_branches, "wall": round(solver.wall_time, 4)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        solution = []
        for t in range(steps):
            j = next(j for j in range(len(jumps)) if solver.boolean_value(jump[t][j]))
            frm, _, to = jumps[j]
            solution.append({"card": "peg", "from": board.names[frm], "to": board.names[to]})
        return "won", None, solution, stats
    if status == cp_model.INFEASIBLE:
        return "lost", "cp-sat: the step model is infeasible, a proof that no line of jumps reaches the goal", \
            None, stats
    if limits.timeout is not None and solver.wall_time >= limits.timeout * 0.95:
        reason = f"timeout {limits.timeout:g} s"
    elif limits.max_nodes is not None:
        reason = f"max-nodes {limits.max_nodes} (CP-SAT conflicts)"
    else:
        reason = f"CP-SAT status {solver.status_name(status)}"
    return "unknown", reason, None, stats


def _jump_order(board: Any) -> list[int]:
    """Jumps from holes far from the board's centre first (the DFS's static order)."""
    mid_r, mid_c = (board.rows - 1) / 2, (board.cols - 1) / 2

    def far(j: int) -> float:
        r, c = board.cells[board.jumps[j][0]]
        return -(abs(r - mid_r) + abs(c - mid_c))

    return sorted(range(len(board.jumps)), key=far)


def _break_symmetries(m: Any, layout: Any, start: set[int], jump: list[list[Any]]) -> None:
    board, goal = layout.board, layout.goal
    if not jump:
        return
    keep = [start] + ([[goal.hole]] if goal.hole is not None else [])
    group = board.stabilizer(*keep)
    index = {jmp: j for j, jmp in enumerate(board.jumps)}
    for j, (frm, over, to) in enumerate(board.jumps):
        images = [index[(p[frm], p[over], p[to])] for p in group]
        if min(images) < j:  # not the least of its orbit: never the first jump
            m.add(jump[0][j] == 0)
    holes = [set(jmp) for jmp in board.jumps]
    for t in range(len(jump) - 1):
        for j in range(len(board.jumps)):
            earlier = [jump[t + 1][k] for k in range(j) if not holes[j] & holes[k]]
            if earlier:
                m.add_bool_and([x.Not() for x in earlier]).only_enforce_if(jump[t][j])


def _parity(m: Any, board: Any, start: set[int], state: list[list[Any]]) -> None:
    labels = []
    for k in range(3):
        labels.append([h for h, (r, c) in enumerate(board.cells) if (r + c) % 3 == k])
        labels.append([h for h, (r, c) in enumerate(board.cells) if (r - c) % 3 == k])
    for group in labels:
        first = sum(1 for h in group if h in start)
        for t in range(1, len(state)):
            half = m.new_int_var(0, len(group) // 2, "")
            m.add(sum(state[t][h] for h in group) == 2 * half + (first + t) % 2)
