"""Cards: names, parsing and the compact integer encoding the engines use.

A card is an ``int`` ``(rank - 1) * 4 + suit`` with ranks 1..13 (ace..king)
and suits 0..3 in the order ``C D H S``.  The two copies of a card in a
two-pack game are the same integer: the engines never tell them apart.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import CardError
from .files import json_text

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED_SUITS = frozenset((1, 2))


def make(rank: int, suit: int) -> int:
    """The card of ``rank`` (1..13) and ``suit`` (0..3)."""
    return (rank - 1) * 4 + suit


def rank(card: int) -> int:
    return (card >> 2) + 1


def suit(card: int) -> int:
    return card & 3


def is_red(card: int) -> bool:
    return (card & 3) in RED_SUITS


def parse(text: str) -> int:
    """Read ``AS``, ``TD``, ``10D``, ``qh`` (rank then suit) into a card."""
    if not isinstance(text, str):
        raise CardError(f"expected a card name such as 'AS' or '10D', got {json_text(text)}")
    t = text.strip()
    t = t.upper() if t.isascii() else ""  # no look-alikes: 'ſ'.upper() is 'S'
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(
            f"expected a card name: rank {RANKS} (or 10) then suit {SUITS}, got {text!r}"
        )
    return make(RANKS.index(t[0]) + 1, SUITS.index(t[1]))


def move_card_ok(text: str) -> bool:
    """Whether a move's ``card`` names a card (or is ``peg``, a peg board's, or empty: a game of
    chance's stand or pass has none)."""
    if text in ("", "peg"):
        return True
    try:
        parse(text)
    except CardError:
        return False
    return True


MOVE_CARD = "a card name such as 'AS' or '10D' ('peg' on a peg board)"


def name(card: int) -> str:
    """The two-character name of a card: ``TD``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def names(cards: Iterable[int]) -> list[str]:
    return [name(c) for c in cards]


def pack(decks: int = 1, max_rank: int = 13) -> list[int]:
    """Every card of ``decks`` packs holding ranks A..``max_rank``, in suit order."""
    return [make(r, s) for _ in range(decks) for s in range(4) for r in range(1, max_rank + 1)]
