"""Replay a peg solitaire solution from the rules in words, sharing nothing with the engines.

The referee knows the board only as the list of its hole names.  It reads each
name as a column letter and a row number, and checks each move as a person
would: the hole left holds a peg, the hole landed in is empty, the two are in
one row or one column two apart, and the hole between them holds the peg that
is jumped and removed.  At the end the goal must be met.  ``PegGame`` is the board
at one moment, stepped by ``replay`` and by the plain exhaustive search
(``solver.families.brute``).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from typing import Any

from ...files import json_text
from ..base import replay_moves

_NAME = re.compile(r"([a-z])([0-9]+)")


def _where(name: str) -> tuple[int, int]:
    m = _NAME.fullmatch(name)
    assert m is not None, name
    return ord(m.group(1)) - ord("a"), int(m.group(2))


def _name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row}"


class PegGame:
    """A board being played: the holes holding pegs.  ``play`` checks one jump and makes it if
    it is legal (a refused jump changes nothing); ``problem`` says what is wrong with the start."""

    def __init__(self, holes: Iterable[str], start: Iterable[str], goal_pegs: int, goal_hole: str | None):
        self.order = list(dict.fromkeys(holes))  # the holes in the board's own order
        self.board = sorted(self.order)
        self.on_board = set(self.board)
        self.pegs = set(start)
        self.goal_pegs, self.goal_hole = goal_pegs, goal_hole
        self.moves = 0  # jumps made so far
        self.problem: str | None = None
        if not self.pegs <= self.on_board:
            self.problem = f"the start names holes not on the board: {sorted(self.pegs - self.on_board)}"

    def copy(self) -> PegGame:
        other = object.__new__(PegGame)
        other.__dict__.update(self.__dict__)
        other.pegs = set(self.pegs)
        return other

    def state(self) -> Hashable:
        return frozenset(self.pegs)

    def stacks(self) -> dict[str, list[str]]:
        """Every hole by name, holding ``["peg"]`` or nothing."""
        return {h: ["peg"] if h in self.pegs else [] for h in self.board}

    def position(self) -> tuple[str, ...]:
        """The board now: the holes holding pegs, in the board's order (a start, as deals are)."""
        return tuple(h for h in self.order if h in self.pegs)

    def unfinished(self) -> str | None:
        """None when the goal is met, else how it is missed."""
        if len(self.pegs) != self.goal_pegs:
            return f"after {self.moves} moves {len(self.pegs)} pegs remain; the goal is {self.goal_pegs}"
        if self.goal_hole is not None and self.goal_hole not in self.pegs:
            return f"after {self.moves} moves the last peg is in {sorted(self.pegs)[0]}, not in {self.goal_hole}"
        return None

    def won(self) -> bool:
        return self.problem is None and self.unfinished() is None

    def play(self, move: Any) -> str | None:
        """Make the jump ``move`` if it is legal and return None; else what is wrong, naming it."""
        n = self.moves + 1
        if self.problem:
            return f"move {n}: {self.problem}"
        if not isinstance(move, dict):
            return f"move {n}: expected an object with 'from' and 'to', got {json_text(move)}"
        frm, to = move.get("from"), move.get("to")
        what = f"move {n} ({frm}-{to})"
        board, pegs = self.on_board, self.pegs
        if move.get("card", "peg") != "peg":
            return f"{what}: expected card 'peg', got {json_text(move.get('card'))}"
        if not isinstance(frm, str) or not isinstance(to, str) or frm not in board or to not in board:
            return f"{what}: not a hole of the board"
        if frm not in pegs:
            return f"{what}: no peg in {frm}"
        if to in pegs:
            return f"{what}: {to} is not empty"
        (c1, r1), (c2, r2) = _where(frm), _where(to)
        if not ((c1 == c2 and abs(r1 - r2) == 2) or (r1 == r2 and abs(c1 - c2) == 2)):
            return f"{what}: the holes are not two apart in one row or one column"
        over = _name((c1 + c2) // 2, (r1 + r2) // 2)
        if over not in board:
            return f"{what}: {over} between them is not a hole of the board"
        if over not in pegs:
            return f"{what}: no peg in {over} to jump over"
        pegs -= {frm, over}
        pegs.add(to)
        self.moves += 1
        return None


def replay(holes: Iterable[str], start: Iterable[str], solution: list[dict[str, Any]],
           goal_pegs: int, goal_hole: str | None) -> str | None:
    """None if every move is legal and the goal is met; else what is wrong, naming the move."""
    return replay_moves(PegGame(holes, start, goal_pegs, goal_hole), solution)
