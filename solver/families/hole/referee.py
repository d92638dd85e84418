"""Referee for the hole family (Black Hole, Golf), written from the rules in words.

The rules: the hole starts with the deal's hole card.  A move takes the top
card of a tableau column and puts it on the hole, allowed only when its rank is
one above or one below the rank of the hole's top card, whatever the suits.
When the layout wraps, the highest rank of the pack and the ace count as next
to each other.  When the layout turns its stock onto the hole, a move may
instead take the next stock card (in the order the deal lists the stock) and
put it on the hole whatever its rank.  The game is won when the columns and
the stock are empty.

This module works on card names and plain lists, and shares nothing with the
search's move generation.
"""

from __future__ import annotations

from typing import Any

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


def replay(layout: Any, deal: dict[str, list[Any]], solution: list[dict[str, Any]]) -> str | None:
    """None if every move of ``solution`` is legal and all cards end on the hole; else what is wrong."""
    wrap = bool(layout.hole.wrap)
    highest = layout.max_rank
    stock_turns = layout.stock.turn == "hole"
    columns = {f"tableau:{i}": [_name(c) for c in deal.get(f"tableau:{i}", [])]
               for i in range(layout.tableau.count)}
    stock = [_name(c) for c in deal.get("stock", [])]
    hole = [_name(c) for c in deal.get("hole", [])]
    for stack in deal:
        if stack not in columns and stack not in ("stock", "hole") and deal[stack]:
            return f"the deal has cards on {stack}, which this game does not have"
    if not hole:
        return "the deal puts no card on the hole"
    if stock and not stock_turns:
        return "the deal has stock cards but this game never turns the stock"

    for number, move in enumerate(solution, 1):
        at = f"move {number}"
        if not isinstance(move, dict):
            return f"{at}: expected an object with card, from and to, got {move!r}"
        card, source, target = move.get("card"), move.get("from"), move.get("to")
        if not isinstance(card, str):
            return f"{at}: no card named"
        card = _name(card)
        if target != "hole":
            return f"{at}: {card} goes to {target!r}, but cards only go to the hole"
        if move.get("count", 1) != 1:
            return f"{at}: moves {move.get('count')} cards, but cards move one at a time"
        if source == "stock":
            if not stock_turns:
                return f"{at}: this game has no stock to turn"
            if not stock:
                return f"{at}: the stock is empty"
            if stock[0] != card:
                return f"{at}: {card} is not the next stock card (that is {stock[0]})"
            hole.append(stock.pop(0))
            continue
        if source not in columns:
            return f"{at}: {card} comes from {source!r}, which is not a column of this game"
        column = columns[source]
        if not column or column[-1] != card:
            return f"{at}: {card} is not on top of {source}"
        if not _next_to(card, hole[-1], wrap, highest):
            return f"{at}: {card} is not one rank from {hole[-1]}, the top of the hole"
        hole.append(column.pop())

    left = sum(len(c) for c in columns.values()) + len(stock)
    if left:
        return f"after move {len(solution)}: {left} cards are not on the hole"
    return None
