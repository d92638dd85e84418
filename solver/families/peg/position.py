"""The depth-first search's view of a peg board: bitboards, applied and undone in place.

State is kept three ways at once, each a Python int updated by one operation
per jump (``^=`` or ``+=`` a precomputed mask), so ``push`` and ``pop`` cost
three integer operations:

- ``grid``: one bit per square of the board's bounding box, rows padded by one
  column, so the jumps in one direction are found for all pegs at once by
  shifts: a peg, a peg next to it, an empty hole beyond.
- ``images``: the set of pegs seen through each symmetry of the game (the
  board's symmetries that keep the goal in place), one field of ``n`` bits per
  symmetry.  The transposition key is the smallest field: equal for positions
  that are mirror images of each other, which are won or lost together.
- ``weights``: the pagoda sums, one 16-bit field each.  A pagoda function
  never grows under a jump, so a position whose sum is below the goal's can
  never reach the goal: ``is_dead`` tests every field with one addition and
  one mask.

A move is the index of a jump in ``Board.jumps``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .geometry import Board
from .pagoda import Bounds

FIELD = 16  # bits per pagoda field
BIAS = 1 << (FIELD - 2)  # a field holds BIAS + sum, kept within 0 .. 2**(FIELD-1)
TOP = 1 << (FIELD - 1)


@dataclass(frozen=True)
class Goal:
    pegs: int = 1
    hole: int | None = None  # the hole of the last peg, when pegs == 1


class Tables:
    """Everything about a board and goal that the search needs, precomputed once."""

    def __init__(self, board: Board, goal: Goal, bounds: Bounds):
        self.board, self.goal, self.bounds = board, goal, bounds
        n = self.n = board.size
        width = board.cols + 1  # one padding column: shifts never wrap into the next row
        self.grid_bit = [r * width + c for r, c in board.cells]
        self.full_grid = sum(1 << b for b in self.grid_bit)
        self.field_mask = (1 << n) - 1
        self.symmetries = board.stabilizer([goal.hole]) if goal.hole is not None else board.symmetries
        self.shifts = [n * k for k in range(len(self.symmetries))]
        self.goal_grid = 0 if goal.hole is None else 1 << self.grid_bit[goal.hole]

        jumps = board.jumps
        self.jump_grid = [sum(1 << self.grid_bit[h] for h in jump) for jump in jumps]
        self.jump_images = [
            sum(sum(1 << p[h] for h in jump) << (n * k) for k, p in enumerate(self.symmetries))
            for jump in jumps
        ]
        pagodas = bounds.pagodas
        self.jump_weight = [
            sum((w[to] - w[frm] - w[over]) << (FIELD * k) for k, w in enumerate(pagodas))
            for frm, over, to in jumps
        ]
        self.weight_add = sum((TOP - BIAS - t) << (FIELD * k) for k, t in enumerate(bounds.thresholds))
        self.weight_top = sum(TOP << (FIELD * k) for k in range(len(pagodas)))

        # For each direction: the grid offset and, by the grid bit of the jumping peg, the jump.
        size = board.rows * width
        by_delta: dict[int, list[int]] = {}
        for j, (frm, over, _) in enumerate(jumps):
            delta = self.grid_bit[over] - self.grid_bit[frm]
            by_delta.setdefault(delta, [-1] * size)[self.grid_bit[frm]] = j
        self.forward = [(d, ids) for d, ids in sorted(by_delta.items()) if d > 0]
        self.backward = [(-d, ids) for d, ids in sorted(by_delta.items()) if d < 0]
        self.order, self.after = _move_order(board)
        self.width = width

    def state(self, pegs: set[int]) -> tuple[int, int, int]:
        grid = sum(1 << self.grid_bit[h] for h in pegs)
        images = sum(sum(1 << p[h] for h in pegs) << (self.n * k) for k, p in enumerate(self.symmetries))
        weights = sum((BIAS + sum(w[h] for h in pegs)) << (FIELD * k)
                      for k, w in enumerate(self.bounds.pagodas))
        return grid, images, weights


def _move_order(board: Board) -> tuple[list[float], list[list[float]]]:
    """Static ranks of the jumps, lower first: by themselves, and after each jump.

    Jumps from holes far from the board's centre come first (clear the edges
    while there are pegs to clear them with); after a jump, jumps over a peg
    near the hole it landed in are preferred (finish a region before starting
    another).  ``legal_moves`` adds the number of pegs left without a neighbour.
    """
    mid_r, mid_c = (board.rows - 1) / 2, (board.cols - 1) / 2
    cells, jumps = board.cells, board.jumps
    alone = [-(abs(cells[frm][0] - mid_r) + abs(cells[frm][1] - mid_c)) for frm, _, _ in jumps]
    after = []
    for _, _, landed in jumps:
        lr, lc = cells[landed]
        after.append([alone[j] + 0.25 * (abs(cells[over][0] - lr) + abs(cells[over][1] - lc))
                      for j, (_, over, _) in enumerate(jumps)])
    return alone, after


class PegPosition:
    """A position on a peg board for the DFS (``solver.engines.dfs``); see ``solver.families.base.Position``."""

    learns = False  # the DFS learns nothing from its lost subtrees (``dfs``, "Learning")

    def __init__(self, tables: Tables, pegs: set[int]):
        self.t = tables
        self.grid, self.images, self.weights = tables.state(pegs)
        self.count = len(pegs)
        self.history: list[int] = []
        # Position classes never change, so a start in a class the goal is not in is lost at once.
        self.doomed = not tables.bounds.reachable(pegs)

    # -- the Position interface

    def legal_moves(self) -> list[int]:
        g = self.grid
        e = self.t.full_grid ^ g
        moves: list[int] = []
        for d, ids in self.t.forward:
            f = g & (g >> d) & (e >> (d + d))
            while f:
                low = f & -f
                moves.append(ids[low.bit_length() - 1])
                f ^= low
        for d, ids in self.t.backward:
            f = g & (g << d) & (e << (d + d))
            while f:
                low = f & -f
                moves.append(ids[low.bit_length() - 1])
                f ^= low
        if len(moves) > 1:
            rank = self.t.after[self.history[-1]] if self.history else self.t.order
            w, jg = self.t.width, self.t.jump_grid

            def score(j: int) -> float:
                h = g ^ jg[j]
                return rank[j] + (h & ~((h << 1) | (h >> 1) | (h << w) | (h >> w))).bit_count()

            moves.sort(key=score)
        return moves

    def forced_move(self) -> None:
        return None  # no jump is provably safe to play blind

    def push(self, move: int) -> None:
        t = self.t
        self.grid ^= t.jump_grid[move]
        self.images ^= t.jump_images[move]
        self.weights += t.jump_weight[move]
        self.count -= 1
        self.history.append(move)

    def pop(self) -> int:
        move = self.history.pop()
        t = self.t
        self.grid ^= t.jump_grid[move]
        self.images ^= t.jump_images[move]
        self.weights -= t.jump_weight[move]
        self.count += 1
        return move

    def is_won(self) -> bool:
        goal = self.t.goal
        return self.count == goal.pegs and (goal.hole is None or bool(self.grid & self.t.goal_grid))

    def is_dead(self) -> str | None:
        """The bound that proves the goal unreachable, or None."""
        t = self.t
        if self.doomed:
            return "position classes: the start and the goal lie in different classes, which no jump changes"
        if self.count < t.goal.pegs:
            return "fewer pegs than the goal"
        if (self.weights + t.weight_add) & t.weight_top != t.weight_top:
            return "pagoda function: the pegs weigh less than the goal, and a jump never adds weight"
        return None

    def key(self) -> int:
        x, m = self.images, self.t.field_mask
        return min([(x >> s) & m for s in self.t.shifts])

    def move_json(self, move: int) -> dict[str, Any]:
        frm, _, to = self.t.board.jumps[move]
        names = self.t.board.names
        return {"card": "peg", "from": names[frm], "to": names[to]}

    # -- for tests and tools

    def pegs(self) -> set[int]:
        bits = self.t.grid_bit
        return {h for h in range(self.t.n) if self.grid >> bits[h] & 1}
