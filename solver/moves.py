"""The kinds of card moves, one entry each (issue #32: "a move kind is one entry").

A move of the result contract is ``{"card", "from", "to"[, "count"]}`` between named stacks
(``tableau:3``, ``cell:0``, ``waste``, ``stock``, ``reserve:0``, ``foundation:2``, ``hole``).
Its *kind* says what those fields mean and how the cards land; every kind is one entry of
``KINDS`` below, and every place that reads or writes moves of cards reads it from there:

- the search positions pack a move into an int *code* (``code``, ``decode``): the kind's
  ``number``, the stacks' numbers, the count (the tableau position, ``solver/families/
  tableau/position.py``, its CP-SAT model, its tests);
- the referees tell a move's kind by its stacks (``kind_of``) and check it with their own
  rules, written from the rules in words (a kind they have no rule for is refused);
- the pictures play moves on plain stacks (``land``, ``solver/draw/replay.py``);
- the peers' solutions become moves (``contract``; ``solver/bench/peers.py``, ``disagree.py``),
  a peer's positions are read back by how each kind changes the stacks (``Kind.lands``);
- the rules in words (``solver/describe.py``) and Solvitaire's files (``solver/solvitaire.py``)
  read the words and names of the stock's kinds (``STOCK_KINDS``) and of the group rules
  (``GROUPS``: how many cards one move may carry, the layout's ``tableau.moves``).

Adding a move kind (Spider's row dealt onto the columns, a whole suit going home, ...): the
steps are in ``solver/families/README.md``, "A new move kind".

The kinds
---------
``cards``: ``count`` cards from the top of ``from`` onto ``to`` in the same order, ``card`` the
lowest of them (from the stock, or a reserve column with ``access = "first"``, the card that
leaves next: the stock lists its first-turned card first).  Every single-card move is one,
and every group move.
``turn``: the stock turns ``count`` cards (its ``deal_count``, fewer at the end) onto the
waste, first turned first; ``card`` is the first turned.
``redeal``: the whole waste goes back to the stock, its first card to turn first again;
``card`` is the waste's first (bottom) card, ``count`` its size.
``row``: the stock deals one card onto each of the first ``count`` stacks named like ``to``
(``reserve``: Twenty's reserve columns), in order; ``card`` is the first dealt.

Codes
-----
A code is a non-negative 31-bit int: bits 0-4 the source stack's number, 5-9 the target's,
10-16 the count, 17-23 a waste place (the tableau position's decisions, below), 24-27 the
kind's number; bit 30 is left to the positions (the tableau position's joined moves).  What
a stack's number means is the position's (the tableau family: columns 0..C-1, cells C..,
the waste W, foundations F.., the reserve R after them); the stock's own kinds (``turn``,
``redeal``) name no stack.  A history holds primitive codes only (place 0, bit 30 clear),
each the code of one move of the contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

# ------------------------------------------------------------------ codes

SRC_SHIFT, DST_SHIFT, COUNT_SHIFT, PLACE_SHIFT, KIND_SHIFT = 0, 5, 10, 17, 24
STACK_MASK, COUNT_MASK, PLACE_MASK, KIND_MASK = 31, 127, 127, 15
MAX_STACK = STACK_MASK - 1  # stack numbers 0..30 (31 is left to the positions' own use)
MAX_COUNT = COUNT_MASK  # cards one move carries, and places in the ring, at most


@dataclass(frozen=True)
class Kind:
    """One kind of move (see the module text)."""

    name: str
    number: int  # in a code's bits 24-27
    source: str  # the stack ``from`` names ("*": any stack but the stock's own kinds' stacks)
    target: str  # the stack ``to`` names, or the kind of stacks ("*": any)
    lands: str  # how the cards land on plain stacks (``land``): "pile", "turn", "back", "row"
    words: str  # what it does, in one phrase


CARDS = Kind("cards", 0, "*", "*", "pile", "cards from the top of one stack onto another, in order")
TURN = Kind("turn", 1, "stock", "waste", "turn",
            "the stock turns its next cards onto the waste, whose top card plays")
REDEAL = Kind("redeal", 2, "waste", "stock", "back", "the waste turns back into the stock")
ROW = Kind("row", 3, "stock", "reserve", "row", "the stock deals one card onto each column")
KINDS: tuple[Kind, ...] = (CARDS, TURN, REDEAL, ROW)
BY_NUMBER = {k.number: k for k in KINDS}


class Code(NamedTuple):
    """A code's fields (``decode``)."""

    kind: Kind
    src: int = 0
    dst: int = 0
    n: int = 1  # the count
    place: int = 0


def code(kind: Kind, src: int = 0, dst: int = 0, count: int = 1, place: int = 0) -> int:
    """The code of a move (see the module text); ``ValueError`` for a field out of range."""
    if not (0 <= src <= STACK_MASK and 0 <= dst <= STACK_MASK and 0 <= count <= COUNT_MASK
            and 0 <= place <= PLACE_MASK):
        raise ValueError(f"move fields out of range: {kind.name} {src} -> {dst}, {count} card(s), place {place}")
    return (kind.number << KIND_SHIFT | src << SRC_SHIFT | dst << DST_SHIFT | count << COUNT_SHIFT
            | place << PLACE_SHIFT)


def decode(move: int) -> Code:
    """A primitive code's fields (bit 30 clear)."""
    return Code(BY_NUMBER[move >> KIND_SHIFT & KIND_MASK], move >> SRC_SHIFT & STACK_MASK,
                move >> DST_SHIFT & STACK_MASK, move >> COUNT_SHIFT & COUNT_MASK, move >> PLACE_SHIFT & PLACE_MASK)


# ------------------------------------------------------------------ the contract


def stack_kind(name: str) -> str:
    """``tableau:3`` -> ``tableau``; ``waste`` -> ``waste``."""
    return name.split(":", 1)[0]


def kind_of(move: dict[str, Any]) -> Kind:
    """The kind of a move of the contract, by the stacks it names (``CARDS`` unless a stock
    kind's ``from`` and ``to`` say otherwise)."""
    src, dst = stack_kind(str(move.get("from"))), stack_kind(str(move.get("to")))
    for kind in KINDS[1:]:
        if (kind.source, kind.target) == (src, dst):
            return kind
    return CARDS


def contract(card: str, src: str, dst: str, count: int = 1) -> dict[str, Any]:
    """A move of the contract (``count`` left out when it is 1)."""
    out: dict[str, Any] = {"card": card, "from": src, "to": dst}
    if count != 1:
        out["count"] = count
    return out
