"""A peg solitaire board: its holes, their names, the jumps and the board's symmetries.

The board is a set of holes on a square grid.  Hole ``i`` (numbered row by
row, left to right) sits at ``(row, col)`` and is named ``<column letter><row
number>``: columns ``a``, ``b``, ... from the left, rows from ``1`` at the top
(the usual coordinates of the peg solitaire literature for the English board,
where the centre is ``d4``).

A jump is a triple of holes ``(frm, over, to)`` in a straight horizontal or
vertical line, each next to the next.  A symmetry is a permutation of the
holes induced by one of the 8 rotations and reflections of the grid that maps
the board onto itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

HOLE = "o"
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # right, down, left, up
MAX_COLUMNS = 26  # one letter per column
MAX_ROWS = 99


def hole_name(row: int, col: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def _transforms(rows: int, cols: int):
    """The 8 symmetries of a ``rows`` x ``cols`` box, as maps (r, c) -> (r', c'); identity first."""
    r1, c1 = rows - 1, cols - 1
    return (
        lambda r, c: (r, c),
        lambda r, c: (r, c1 - c),          # mirror left-right
        lambda r, c: (r1 - r, c),          # mirror top-bottom
        lambda r, c: (r1 - r, c1 - c),     # half turn
        lambda r, c: (c, r),               # main diagonal
        lambda r, c: (c1 - c, r1 - r),     # other diagonal
        lambda r, c: (c, r1 - r),          # quarter turn
        lambda r, c: (c1 - c, r),          # three quarter turns
    )


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int
    cells: tuple[tuple[int, int], ...]  # (row, col) of each hole, row-major order
    names: tuple[str, ...] = field(init=False)
    index: dict[str, int] = field(init=False, compare=False)
    jumps: tuple[tuple[int, int, int], ...] = field(init=False, compare=False)
    symmetries: tuple[tuple[int, ...], ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        names = tuple(hole_name(r, c) for r, c in self.cells)
        at = {rc: i for i, rc in enumerate(self.cells)}
        jumps = []
        for i, (r, c) in enumerate(self.cells):
            for dr, dc in DIRECTIONS:
                over, to = at.get((r + dr, c + dc)), at.get((r + 2 * dr, c + 2 * dc))
                if over is not None and to is not None:
                    jumps.append((i, over, to))
        syms = []
        for f in _transforms(self.rows, self.cols):
            image = [at.get(f(r, c)) for r, c in self.cells]
            if None not in image:
                syms.append(tuple(i for i in image if i is not None))
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "index", {n: i for i, n in enumerate(names)})
        object.__setattr__(self, "jumps", tuple(jumps))
        object.__setattr__(self, "symmetries", tuple(syms))

    @classmethod
    def from_shape(cls, shape: Iterable[str]) -> Board:
        """A board from rows of a picture: ``o`` a hole, a space no hole (checked by the reader)."""
        cells = tuple((r, c) for r, line in enumerate(shape) for c, ch in enumerate(line) if ch == HOLE)
        rows = 1 + max((r for r, _ in cells), default=-1)
        cols = 1 + max((c for _, c in cells), default=-1)
        return cls(rows, cols, cells)

    @property
    def size(self) -> int:
        return len(self.cells)

    def stabilizer(self, *hole_sets: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """The symmetries that map each of ``hole_sets`` onto itself."""
        sets = [frozenset(s) for s in hole_sets]
        return tuple(p for p in self.symmetries if all(frozenset(p[i] for i in s) == s for s in sets))

    def picture(self, pegs: Iterable[int], mark: int | None = None, indent: str = "") -> str:
        """The board as text: ``o`` a peg, ``.`` an empty hole, ``@`` the peg at ``mark``."""
        full = set(pegs)
        grid = [[" "] * self.cols for _ in range(self.rows)]
        for i, (r, c) in enumerate(self.cells):
            grid[r][c] = "@" if i == mark else HOLE if i in full else "."
        width = len(str(self.rows))
        head = indent + " " * (width + 1) + " ".join(chr(ord("a") + c) for c in range(self.cols))
        body = [f"{indent}{r + 1:>{width}} " + " ".join(row).rstrip() for r, row in enumerate(grid)]
        return "\n".join([head, *body])
