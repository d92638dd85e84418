"""The position after each move of a solution, on plain stacks of card names.

The pictures need every position of a game, not a yes or no, so this module
plays a result's moves on plain lists, the way a person moves cards on a
table.  It checks nothing: a solution is replayed by the referee before it is
drawn (``patience view`` verifies first), and an engine's ``won`` has been
replayed already.  It shares nothing with the engines.

A move ``{"card", "from", "to"[, "count"]}`` lands as the move table says its kind
lands (``solver/moves.py``, ``land``: ``count`` cards from the top of ``from`` onto
``to``, a turn of the stock, a redeal, a row dealt onto columns), with the table's
few special cases:

- a stock card is the first in the stock's list; with ``reserve.access =
  "first"`` a reserve column gives its first-placed card.
- a tableau column's face-down card turns up when it becomes the top card;
  with ``spaces = "reserve-then-any"`` (or ``"reserve-then-waste"``) an emptied
  column is filled at once from the reserve (Canfield).
- Canfield's ``base`` card starts the foundation of its suit.

Peg boards: a jump removes the peg between the two holes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import deal as deals
from .. import moves
from ..families import family_of

SUITS = "CDHS"


@dataclass
class Table:
    """A position: each stack's cards bottom to top (the stock: first to turn first)."""

    stacks: dict[str, list[str]]
    face_down: dict[str, int] = field(default_factory=dict)  # a column's bottom cards lying face down

    def copy(self) -> Table:
        return Table({k: list(v) for k, v in self.stacks.items()}, dict(self.face_down))

    def cards(self) -> int:
        return sum(map(len, self.stacks.values()))


@dataclass(frozen=True)
class Step:
    """A position and how it was reached: the stack the move took from and the cards it moved
    (stack, index) as they lie now.  The deal is a step with no move."""

    table: Any  # Table, or a frozenset of peg holes
    source: str | None = None
    moved: tuple[tuple[str, int], ...] = ()


def is_peg(layout: Any) -> bool:
    """Peg boards: a board of holes, no cards (the family's picture)."""
    return family_of(layout).picture == "pegs"


def is_spread(layout: Any) -> bool:
    """The families with a layout of their own (Accordion's row, Gaps' grid): they name their stacks."""
    return family_of(layout).own_stacks


def stack_names(layout: Any) -> list[str]:
    """Every stack of a card layout, in the order the pictures list them."""
    if is_spread(layout):
        return list(layout.stack_names())
    names = []
    if layout.stock.turn != "none" or "stock" in deals.expected_counts(layout):
        names.append("stock")
    if layout.stock.turn == "waste":
        names.append("waste")
    names += [f"reserve:{i}" for i in range(layout.reserve.count)]
    names += [f"cell:{i}" for i in range(layout.cells.count)]
    names += [f"foundation:{i}" for i in range(layout.foundations.count)]
    names += [f"tableau:{i}" for i in range(layout.tableau.count)]
    if layout.hole is not None:
        names.append("hole")
    return names


def start(layout: Any, deal: dict[str, Any]) -> Any:
    """The table as dealt, from the result contract's deal (card names); or the table at a
    position, from its JSON (``{"stacks": ..., "face_down": ...}``, ``solver.positions``)."""
    if is_peg(layout):  # {"pegs": [...]} or {"empty": [...]}
        return frozenset(deal["pegs"]) if "pegs" in deal else frozenset(layout.board.names) - set(deal["empty"])
    table = Table({name: [] for name in stack_names(layout)})
    if isinstance(deal.get("stacks"), dict):  # a position: every stack as it lies, its face-down cards
        for stack, cards in deal["stacks"].items():
            table.stacks[stack] = list(cards)
        table.face_down.update(deal.get("face_down", {}))
        return table
    for stack, cards in deal.items():
        if stack == "base":  # Canfield: the base card starts the foundation of its suit
            table.stacks[f"foundation:{SUITS.index(cards[0][1])}"] = list(cards)
        else:
            table.stacks.setdefault(stack, []).extend(cards)
    if is_spread(layout):
        return table
    for i, fd in enumerate(layout.tableau.face_down):
        table.face_down[f"tableau:{i}"] = min(fd, max(0, len(table.stacks[f"tableau:{i}"]) - 1))
    _fill_spaces(layout, table)
    return table


def play(layout: Any, table: Any, move: dict[str, Any]) -> Step:
    """The step after ``move`` (a legal move, already refereed) from ``table``."""
    if is_peg(layout):
        return _jump(layout, table, move)
    t = table.copy()
    s = t.stacks
    src = move["from"]
    moved = moves.land(s, move, lambda stack: stack == "stock" or (stack.startswith("reserve:")
                                                                   and layout.reserve.access == "first"))
    if src in t.face_down and s[src] and len(s[src]) == t.face_down[src]:
        t.face_down[src] -= 1  # the top card turns face up
    moved += _fill_spaces(layout, t)
    return Step(t, src, tuple(moved))


def _fill_spaces(layout: Any, table: Table) -> list[tuple[str, int]]:
    """Canfield: the reserve's top card fills each empty column at once."""
    filled: list[tuple[str, int]] = []
    if not is_spread(layout) and layout.tableau.spaces == "waste-then-stock":
        for i in range(layout.tableau.count):
            col, waste, stock = table.stacks[f"tableau:{i}"], table.stacks["waste"], table.stacks["stock"]
            if not col and (waste or stock):
                col.append(waste.pop() if waste else stock.pop(0))
                filled.append((f"tableau:{i}", 0))
        return filled
    if is_spread(layout) or layout.tableau.spaces not in ("reserve-then-any", "reserve-then-waste"):
        return filled
    reserve = table.stacks["reserve:0"]
    for i in range(layout.tableau.count):
        col = table.stacks[f"tableau:{i}"]
        if not col and reserve:
            col.append(reserve.pop())
            filled.append((f"tableau:{i}", 0))
    return filled


def _jump(layout: Any, pegs: frozenset[str], move: dict[str, Any]) -> Step:
    board = layout.board
    (r1, c1), (r2, c2) = board.cells[board.index[move["from"]]], board.cells[board.index[move["to"]]]
    over = board.names[board.cells.index(((r1 + r2) // 2, (c1 + c2) // 2))]
    return Step(pegs - {move["from"], over} | {move["to"]}, move["from"], ((move["to"], 0),))


def steps(layout: Any, deal: dict[str, list[str]], solution: list[dict[str, Any]]) -> list[Step]:
    """The deal and the position after each move: ``len(solution) + 1`` steps."""
    out = [Step(start(layout, deal))]
    for move in solution:
        out.append(play(layout, out[-1].table, move))
    return out
