"""The accordion family's rule table: which top cards match, and how far a pile may move.

A pile goes onto another pile ``k`` places to its left (``"Lk"``) or right (``"Rk"``), counting
only the piles still in the row, when the two top cards match: by suit (``"suit"``), by rank
(``"rank"``), by colour, one red and one black (``"alternate"``), or always (``"any"``); a layout
lists the ways that count.  The DFS position reads these two tables; the referee is written
apart, from the rules in words.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ... import cards

MATCHES = ("suit", "rank", "alternate", "any")
CARDS = 52  # card ints are 0..51 (``solver.cards``); two packs share them


def offsets(layout: Any) -> tuple[int, ...]:
    """The moves as signed distances in the row: ``"L3"`` is -3, ``"R1"`` is +1."""
    return tuple(-int(m[1:]) if m[0] == "L" else int(m[1:]) for m in layout.moves)


@lru_cache(maxsize=16)
def match_table(match: tuple[str, ...]) -> list[bool]:
    """``match_table(match)[a * CARDS + b]``: whether cards ``a`` and ``b`` match (symmetric)."""
    table = [False] * (CARDS * CARDS)
    for a in range(CARDS):
        for b in range(CARDS):
            table[a * CARDS + b] = (
                ("suit" in match and cards.suit(a) == cards.suit(b))
                or ("rank" in match and cards.rank(a) == cards.rank(b))
                or ("alternate" in match and cards.is_red(a) != cards.is_red(b))
                or "any" in match
            )
    return table
