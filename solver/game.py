"""The small game interface every engine works through.

A *position* is one mutable object with an undo stack, in the manner of
python-chess: ``push(move)`` plays a move, ``pop()`` takes the last one back.
Engines never look inside a position; they only use the methods below, so a
new family of games (card layouts, peg boards) plugs in by providing them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Protocol


class Position(Protocol):
    history: list[Any]  # the moves played since the deal, oldest first

    def legal_moves(self) -> list[Any]:
        """Every legal move here, best first (a list: the position will change)."""

    def forced_move(self) -> Any | None:
        """A move that is safe to play automatically (a proved dominance), or None."""

    def push(self, move: Any) -> None: ...

    def pop(self) -> Any: ...

    def is_won(self) -> bool: ...

    def is_dead(self) -> bool:
        """True only if no win is reachable from here (a sound bound)."""

    def key(self) -> Hashable:
        """The transposition key: equal for positions that are the same for play."""

    def move_json(self, move: Any) -> dict[str, Any]:
        """A move in the result contract's form: {"card", "from", "to"[, "count"]}."""
