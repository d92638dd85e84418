"""Referee for the gaps family (Gaps), written from the rules in words.

The rules: the cards lie in four rows of places; the aces are out of the game and the places
without a card are the gaps.  A move takes one card from its place into a gap.  A gap at the
left end of a row takes a two (when the game gives each row a suit, only the two of that row's
suit).  Any other gap takes the card one rank higher than the card just left of it, and of the
same suit (or, as the game says, of the other colour, or of any suit); a gap with a gap just left
of it takes nothing, and neither does a gap just right of the highest rank.  The game is won when
every row reads from the left two, three, and so on up to the highest rank, each card fitting the
one before it, with the row's gap at its right end.

Places are named ``grid:R:C``: row R from 0 at the top, column C from 0 at the left.

This module works on card names and plain lists, and shares nothing with the search's move
generation.  ``GapsGame`` is the game at one moment, stepped by ``replay`` (``solver.families.
base.replay_moves``) and by the plain exhaustive search (``solver.families.brute``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ... import cards
from ...errors import CardError
from ...files import json_text

RANKS = "A23456789TJQK"
RED = "DH"


def _rank(name: str) -> int:
    return RANKS.index(name[0]) + 1


class GapsGame:
    """A deal of Gaps being played: each row's places, a card name or None for a gap."""

    def __init__(self, layout: Any, deal: dict[str, list[Any]]):
        self.build = layout.build
        self.row_suits = list(layout.row_suits)
        self.highest = layout.max_rank
        self.grid: list[list[str | None]] = [[None] * self.highest for _ in range(4)]
        self.moves = 0
        self.problem: str | None = None
        for stack, got in deal.items():
            place = self._place(stack)
            if place is None:
                if got:
                    self.problem = f"the deal has cards on {stack}, which this game does not have"
                continue
            if len(got) > 1:
                self.problem = f"the deal puts {len(got)} cards on {stack}; a place holds one"
            elif got:
                self.grid[place[0]][place[1]] = got[0] if isinstance(got[0], str) else cards.name(got[0])

    def _place(self, name: Any) -> tuple[int, int] | None:
        """(row, column) of a place's name, or None when the game has no such place."""
        if not isinstance(name, str):
            return None
        parts = name.split(":")
        if len(parts) != 3 or parts[0] != "grid" or not (parts[1].isdigit() and parts[2].isdigit()):
            return None
        r, c = int(parts[1]), int(parts[2])
        return (r, c) if r < 4 and c < self.highest else None

    def copy(self) -> GapsGame:
        other = object.__new__(GapsGame)
        other.__dict__.update(self.__dict__)
        other.grid = [list(row) for row in self.grid]
        return other

    def state(self) -> Hashable:
        return tuple(tuple(row) for row in self.grid)

    def stacks(self) -> dict[str, list[str]]:
        return {f"grid:{r}:{c}": ([] if card is None else [card])
                for r, row in enumerate(self.grid) for c, card in enumerate(row)}

    def position(self) -> dict[str, list[int]]:
        return {f"grid:{r}:{c}": [cards.parse(card)]
                for r, row in enumerate(self.grid) for c, card in enumerate(row) if card is not None}

    def _follows(self, left: str, card: str) -> bool:
        """Whether ``card`` may lie just right of ``left``: one rank higher, and the suit rule."""
        if _rank(card) != _rank(left) + 1:
            return False
        if self.build == "suit":
            return card[1] == left[1]
        if self.build == "alternate":
            return (card[1] in RED) != (left[1] in RED)
        return True

    def _row_done(self, row: list[str | None]) -> bool:
        if row[-1] is not None or any(card is None for card in row[:-1]):
            return False
        names = [card for card in row[:-1] if card is not None]
        return (not names or _rank(names[0]) == 2) and all(self._follows(a, b) for a, b in zip(names, names[1:]))

    def won(self) -> bool:
        return self.problem is None and all(self._row_done(row) for row in self.grid)

    def unfinished(self) -> str | None:
        if self.won():
            return None
        bad = next(r for r, row in enumerate(self.grid) if not self._row_done(row))
        return f"after move {self.moves}: row {bad} does not read two up to the highest rank with its gap at the end"

    def play(self, move: Any) -> str | None:
        at = f"move {self.moves + 1}"
        if self.problem:
            return f"{at}: {self.problem}"
        if not isinstance(move, dict):
            return f"{at}: expected an object with card, from and to, got {json_text(move)}"
        card, source, target = move.get("card"), move.get("from"), move.get("to")
        try:
            card = cards.name(cards.parse(card)) if isinstance(card, str) else None
        except CardError:
            card = None
        if card is None:
            return f"{at}: no card named"
        if move.get("count", 1) != 1:
            return f"{at}: moves {json_text(move.get('count'), 20)} cards, but cards move one at a time"
        src, dst = self._place(source), self._place(target)
        if src is None or dst is None:
            return f"{at}: {source!r:.40} to {target!r:.40}: expected two places grid:R:C of this game"
        if self.grid[src[0]][src[1]] != card:
            return f"{at}: {card} is not at {source}"
        if self.grid[dst[0]][dst[1]] is not None:
            return f"{at}: {target} is not a gap"
        r, c = dst
        if c == 0:
            if _rank(card) != 2:
                return f"{at}: {target} is at the left end of a row and takes only a two, not {card}"
            if self.row_suits and card[1] != self.row_suits[r]:
                return f"{at}: {target} takes only the two of {self.row_suits[r]}, not {card}"
        else:
            left = self.grid[r][c - 1]
            if left is None:
                return f"{at}: {target} has a gap just left of it and takes nothing"
            if not self._follows(left, card):
                return f"{at}: {card} does not follow {left}, the card left of {target}"
        self.grid[r][c] = card
        self.grid[src[0]][src[1]] = None
        self.moves += 1
        return None
