"""Referee for the hole family (Black Hole, Golf), written from the rules in words.

The rules: the hole starts with the deal's hole card.  A move takes the top
card of a tableau column and puts it on the hole, allowed only when its rank is
one above or one below the rank of the hole's top card, whatever the suits.
When the layout wraps, the highest rank of the pack and the ace count as next
to each other.  When the layout turns its stock onto the hole, a move may
instead take the next stock card (in the order the deal lists the stock) and
put it on the hole whatever its rank.  When the layout has free cells (Worm
Hole), a move may put the top card of a column into an empty cell, and a move
may take a cell's card to the hole on the same terms as a column's top card.
The game is won when the columns, the cells and the stock are empty.

This module works on card names and plain lists, and shares nothing with the
search's move generation.  ``HoleGame`` is the game at one moment, stepped by
``replay`` and by the plain exhaustive search (``solver.families.brute``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ... import cards
from ...files import json_text
from ...positions import Snapshot, stack_names
from ..base import replay_moves

RANK_LETTERS = "A23456789TJQK"


def _rank(name: str) -> int:
    return RANK_LETTERS.index(name[0]) + 1


def _next_to(a: str, b: str, wrap: bool, highest: int) -> bool:
    ra, rb = _rank(a), _rank(b)
    if abs(ra - rb) == 1:
        return True
    return wrap and {ra, rb} == {1, highest} and highest > 2


def _name(card: Any) -> str:
    """A card as its two-character name, from a name or the engines' int encoding."""
    if isinstance(card, int):
        return RANK_LETTERS[card // 4] + "CDHS"[card % 4]
    text = str(card).strip().upper()
    return "T" + text[2:] if text.startswith("10") else text


class HoleGame:
    """A deal of a hole game being played: the columns, the stock and the hole.  ``play``
    checks one move and plays it if it is legal (a refused move changes nothing)."""

    def __init__(self, layout: Any, deal: dict[str, list[Any]] | Snapshot):
        """The game at ``deal``, or at a position part-way through one (a ``Snapshot``)."""
        if isinstance(deal, Snapshot):
            deal = {k: list(v) for k, v in deal.stacks.items()}
        self.layout = layout
        self.wrap = bool(layout.hole.wrap)
        self.highest = layout.max_rank
        self.stock_turns = layout.stock.turn == "hole"
        self.columns = {f"tableau:{i}": [_name(c) for c in deal.get(f"tableau:{i}", [])]
                        for i in range(layout.tableau.count)}
        self.stock = [_name(c) for c in deal.get("stock", [])]  # stock[0] turns next
        self.hole = [_name(c) for c in deal.get("hole", [])]
        self.cells = {f"cell:{i}": [_name(c) for c in deal.get(f"cell:{i}", [])] for i in range(layout.cells.count)}
        self.moves = 0  # moves played so far
        self.problem: str | None = None  # what is wrong with the deal itself
        for stack in deal:
            if stack not in self.columns and stack not in self.cells and stack not in ("stock", "hole") and deal[stack]:
                self.problem = f"the deal has cards on {stack}, which this game does not have"
                return
        if not self.hole:
            self.problem = "the deal puts no card on the hole"
        elif any(len(c) > 1 for c in self.cells.values()):
            self.problem = "the deal puts more than one card in a cell"
        elif self.stock and not self.stock_turns:
            self.problem = "the deal has stock cards but this game never turns the stock"

    def copy(self) -> HoleGame:
        other = object.__new__(HoleGame)
        other.__dict__.update(self.__dict__)
        other.columns = {k: list(v) for k, v in self.columns.items()}
        other.cells = {k: list(v) for k, v in self.cells.items()}
        other.stock = list(self.stock)
        other.hole = list(self.hole)
        return other

    def state(self) -> Hashable:
        """Everything that decides what may happen next: the columns, the stock and the hole's
        top card (the cards under it never matter again)."""
        return (tuple(map(tuple, self.columns.values())), tuple(map(tuple, self.cells.values())), tuple(self.stock),
                self.hole[-1] if self.hole else "")

    def stacks(self) -> dict[str, list[str]]:
        """Every stack by name, bottom card first and the card that leaves next last."""
        return {**self.columns, **self.cells, "stock": self.stock[::-1], "hole": self.hole}

    def position(self) -> Snapshot:
        """The game now, as a position."""
        stacks = {**self.columns, **self.cells, "stock": self.stock, "hole": self.hole}
        return Snapshot({k: tuple(map(cards.parse, stacks[k])) for k in stack_names(self.layout)})

    def unfinished(self) -> str | None:
        left = self.left()
        return f"after move {self.moves}: {left} cards are not on the hole" if left else None

    def left(self) -> int:
        return sum(len(c) for c in self.columns.values()) + sum(len(c) for c in self.cells.values()) + len(self.stock)

    def won(self) -> bool:
        return self.problem is None and not self.left()

    def play(self, move: Any) -> str | None:
        """Play ``move`` if it is legal and return None; else what is wrong (nothing changes)."""
        at = f"move {self.moves + 1}"
        if self.problem:
            return f"{at}: {self.problem}"
        if not isinstance(move, dict):
            return f"{at}: expected an object with card, from and to, got {json_text(move)}"
        card, source, target = move.get("card"), move.get("from"), move.get("to")
        if not isinstance(card, str):
            return f"{at}: no card named"
        card = _name(card)
        if target in self.cells:
            if source not in self.columns:
                return f"{at}: {card} comes from {json_text(source)}; a cell takes a column's top card"
            column = self.columns[source]
            if not column or column[-1] != card:
                return f"{at}: {card} is not on top of {source}"
            if self.cells[target]:
                return f"{at}: {target} already holds {self.cells[target][0]}"
            if move.get("count", 1) != 1:
                return f"{at}: moves {move.get('count')} cards, but cards move one at a time"
            self.cells[target].append(column.pop())
            self.moves += 1
            return None
        if target != "hole":
            where = "the hole or a cell" if self.cells else "the hole"
            return f"{at}: {card} goes to {json_text(target)}, but cards only go to {where}"
        if move.get("count", 1) != 1:
            return f"{at}: moves {move.get('count')} cards, but cards move one at a time"
        if source == "stock":
            if not self.stock_turns:
                return f"{at}: this game has no stock to turn"
            if not self.stock:
                return f"{at}: the stock is empty"
            if self.stock[0] != card:
                return f"{at}: {card} is not the next stock card (that is {self.stock[0]})"
            self.hole.append(self.stock.pop(0))
            self.moves += 1
            return None
        if source not in self.columns and source not in self.cells:
            return f"{at}: {card} comes from {json_text(source)}, which is not a column of this game"
        column = self.columns[source] if source in self.columns else self.cells[source]
        if not column or column[-1] != card:
            return f"{at}: {card} is not on top of {source}"
        if not _next_to(card, self.hole[-1], self.wrap, self.highest):
            return f"{at}: {card} is not one rank from {self.hole[-1]}, the top of the hole"
        self.hole.append(column.pop())
        self.moves += 1
        return None


def replay(layout: Any, deal: dict[str, list[Any]], solution: list[dict[str, Any]]) -> str | None:
    """None if every move of ``solution`` is legal and all cards end on the hole; else what is wrong."""
    return replay_moves(HoleGame(layout, deal), solution)
