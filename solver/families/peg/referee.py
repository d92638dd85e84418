"""Replay a peg solitaire solution from the rules in words, sharing nothing with the engines.

The referee knows the board only as the list of its hole names.  It reads each
name as a column letter and a row number, and checks each move as a person
would: the hole left holds a peg, the hole landed in is empty, the two are in
one row or one column two apart, and the hole between them holds the peg that
is jumped and removed.  At the end the goal must be met.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_NAME = re.compile(r"([a-z])([0-9]+)")


def _where(name: str) -> tuple[int, int]:
    m = _NAME.fullmatch(name)
    assert m is not None, name
    return ord(m.group(1)) - ord("a"), int(m.group(2))


def _name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row}"


def replay(holes: Iterable[str], start: Iterable[str], solution: list[dict[str, Any]],
           goal_pegs: int, goal_hole: str | None) -> str | None:
    """None if every move is legal and the goal is met; else what is wrong, naming the move."""
    board = set(holes)
    pegs = set(start)
    if not pegs <= board:
        return f"the start names holes not on the board: {sorted(pegs - board)}"
    for n, move in enumerate(solution, 1):
        if not isinstance(move, dict):
            return f"move {n}: expected an object with 'from' and 'to', got {move!r}"
        frm, to = move.get("from"), move.get("to")
        what = f"move {n} ({frm}-{to})"
        if move.get("card", "peg") != "peg":
            return f"{what}: expected card 'peg', got {move.get('card')!r}"
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
    if len(pegs) != goal_pegs:
        return f"after {len(solution)} moves {len(pegs)} pegs remain; the goal is {goal_pegs}"
    if goal_hole is not None and goal_hole not in pegs:
        return f"after {len(solution)} moves the last peg is in {sorted(pegs)[0]}, not in {goal_hole}"
    return None
