"""Referee for the accordion family (Accordion, Late-binding Solitaire), written from the rules in words.

The rules: the cards lie in a row of piles.  A move takes a whole pile and puts it on another
pile of the row: the pile next to it on the left is one place away, the one beyond it two, and
so on (empty places do not count: the row closes up when a pile leaves it).  The game's moves
say which distances are allowed and in which direction ("L3": three places to the left).  The
two top cards must match as the game says: the same suit, the same rank, one red and one black,
or any two cards.  The game is won when a single pile is left.

A move names the moving pile's bottom card, its pile, the pile it goes onto, and ``count``, the
number of cards in the moving pile (left out when it is one).

This module works on card names and plain lists, and shares nothing with the search's move
generation.  ``AccordionGame`` is the game at one moment, stepped by ``replay`` (``solver.
families.base.replay_moves``) and by the plain exhaustive search (``solver.families.brute``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ... import cards
from ...errors import CardError
from ...files import json_text

RED_SUITS = "DH"


def _matches(a: str, b: str, ways: tuple[str, ...]) -> bool:
    """Whether top cards ``a`` and ``b`` (names such as 'TD') match in one of the game's ways."""
    for way in ways:
        if way == "any":
            return True
        if way == "suit" and a[1] == b[1]:
            return True
        if way == "rank" and a[0] == b[0]:
            return True
        if way == "alternate" and (a[1] in RED_SUITS) != (b[1] in RED_SUITS):
            return True
    return False


def _name(card: Any) -> str:
    return card if isinstance(card, str) else cards.name(card)


class AccordionGame:
    """A deal of an accordion game being played: each pile bottom card first, and the row."""

    def __init__(self, layout: Any, deal: dict[str, list[Any]]):
        self.ways = tuple(layout.match)
        self.steps = tuple(layout.moves)  # such as ("L1", "L3")
        self.piles = {f"pile:{i}": [_name(c) for c in deal.get(f"pile:{i}", [])] for i in range(layout.piles)}
        self.row = [p for p, cs in self.piles.items() if cs]  # left to right
        self.moves = 0
        self.problem: str | None = None
        extra = sorted(s for s in deal if s not in self.piles and deal[s])
        if extra:
            self.problem = f"the deal has cards on {extra[0]}, which this game does not have"
        elif not self.row:
            self.problem = "the deal has no cards"

    def copy(self) -> AccordionGame:
        other = object.__new__(AccordionGame)
        other.__dict__.update(self.__dict__)
        other.piles = {k: list(v) for k, v in self.piles.items()}
        other.row = list(self.row)
        return other

    def state(self) -> Hashable:
        """What decides the rest of the game: the top cards, left to right."""
        return tuple(self.piles[p][-1] for p in self.row)

    def stacks(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in self.piles.items()}

    def position(self) -> dict[str, list[int]]:
        return {k: [cards.parse(c) for c in v] for k, v in self.piles.items() if v}

    def won(self) -> bool:
        return self.problem is None and len(self.row) == 1

    def unfinished(self) -> str | None:
        if self.won():
            return None
        return f"after move {self.moves}: {len(self.row)} piles are left, not one"

    def play(self, move: Any) -> str | None:
        at = f"move {self.moves + 1}"
        if self.problem:
            return f"{at}: {self.problem}"
        if not isinstance(move, dict):
            return f"{at}: expected an object with card, from and to, got {json_text(move)}"
        card, source, target, count = move.get("card"), move.get("from"), move.get("to"), move.get("count", 1)
        if not isinstance(card, str):
            return f"{at}: no card named"
        if source not in self.row:
            return f"{at}: {source!r:.40} is not a pile in the row"
        if target not in self.row:
            return f"{at}: {target!r:.40} is not a pile in the row"
        pile = self.piles[source]
        try:
            named = cards.name(cards.parse(card))
        except CardError:
            return f"{at}: {card!r:.20} is not a card name"
        if named != pile[0]:
            return f"{at}: {named} is not the bottom card of {source} (that is {pile[0]})"
        if isinstance(count, bool) or count != len(pile):
            return f"{at}: {source} holds {len(pile)} card(s), and a move takes the whole pile, not {count!r:.20}"
        distance = self.row.index(target) - self.row.index(source)
        step = f"L{-distance}" if distance < 0 else f"R{distance}"
        if step not in self.steps:
            return (f"{at}: {target} is {abs(distance)} place(s) to the {'left' if distance < 0 else 'right'} "
                    f"of {source}; this game moves piles {', '.join(self.steps) or 'nowhere'}")
        top, under = pile[-1], self.piles[target][-1]
        if not _matches(top, under, self.ways):
            return f"{at}: {top} does not match {under} ({' or '.join(self.ways)})"
        self.piles[target].extend(pile)
        self.piles[source] = []
        self.row.remove(source)
        self.moves += 1
        return None
