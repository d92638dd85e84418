"""The move table: the kinds of card moves and the rules that give them, one entry each (issue #32).

A move of the result contract is ``{"card", "from", "to"[, "count"]}`` between named stacks
(``tableau:3``, ``cell:0``, ``waste``, ``stock``, ``reserve:0``, ``foundation:2``, ``hole``).
Its *kind* (``KINDS``) says what those fields mean and how the cards land; a layout's *move
rules* (``RULES``: its ``stock.turn``, ``tableau.moves`` and ``foundations.takes``) say which
moves a game has.  Every module that reads or writes moves reads them from here:

- the tableau position (``solver/families/tableau/position.py``) packs a move into an int
  *code* (``code``, ``decode``): the kind's ``number``, the stacks' numbers, the count; its
  CP-SAT model (``solver/families/tableau/model.py``) and its tests name moves so;
- the referees (``solver/families/tableau/referee.py``) tell a move's kind by its stacks
  (``kind_of``) and check it with their own rules, written from the rules in words (a kind
  they have no rule for is refused);
- the pictures play moves on plain stacks (``land``, ``solver/draw/replay.py``);
- the peers' solutions become moves (``contract``; ``solver/bench/peers.py``,
  ``solver/bench/disagree.py``), and a peer's printed positions are read back as moves by how
  each kind lands;
- the layout schema takes the rules' values from ``RULES`` (``solver/layout.py``), the rules in
  words take their words (``solver/describe.py``), Solvitaire's files their names
  (``solver/solvitaire.py``), fc-solve its ``--sequence-move`` (``solver/bench/peers.py``).

A position (``solver/positions.py``) is what lies on the table, whatever moves put it there:
it reads nothing here.  Adding a kind of move or a rule value: ``solver/families/README.md``,
"A new move kind", names the files it touches.

The kinds
---------
``cards``: ``count`` cards from the top of ``from`` onto ``to``, in the same order; ``card`` is
the lowest of them.  From the stock (a card turned onto the hole, or placed), or from a reserve
column with ``access = "first"``, the card that leaves is the stack's first-listed one.  Every
single-card move is one, and every group move.
``turn``: the stock turns ``count`` cards (its ``deal_count``, fewer at the end) onto the
waste, first turned first; ``card`` is the first turned.
``redeal``: the whole waste goes back to the stock, its first card to turn first again;
``card`` is the waste's first (bottom) card, ``count`` its size.
``row``: the stock deals one card onto each of the first ``count`` stacks of the kind ``to``
names (``reserve``: Twenty's reserve columns; ``tableau``: Spider's columns), in order, face up;
``card`` is the first dealt.

Codes
-----
A code is a non-negative 31-bit int: bits 0-5 the source stack's number, 6-11 the target's,
12-18 the count, 19-25 a waste place (the tableau position's decisions), 26-29 the kind's
number; bit 30 is left to the positions (the tableau position's joined moves, laid out its own
way).  What a
stack's number means is the position's (the tableau family: columns 0..C-1, cells C.., the
waste W, foundations F.., the reserve R after them); the stock's own kinds name no stack.
A position's history holds primitive codes (place 0, bit 30 clear): each one move of the
contract.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

# ------------------------------------------------------------------ the kinds


@dataclass(frozen=True)
class Kind:
    """One kind of move (see the module text)."""

    name: str
    number: int  # in a code's bits 24-27
    source: str  # what ``from`` says ("*": any stack)
    targets: tuple[str, ...]  # what ``to`` may say ("*": any stack; a row names its stacks' kind)
    lands: str  # how the cards land on plain stacks (``land``): "pile", "turn", "back", "row"
    words: str  # what it does, in one phrase


CARDS = Kind("cards", 0, "*", ("*",), "pile", "cards from the top of one stack onto another, in order")
TURN = Kind("turn", 1, "stock", ("waste",), "turn", "the stock turns its next cards onto the waste")
REDEAL = Kind("redeal", 2, "waste", ("stock",), "back", "the whole waste turns back into the stock")
ROW = Kind("row", 3, "stock", ("reserve", "tableau"), "row", "the stock deals one card onto each column of a row")
KINDS: tuple[Kind, ...] = (CARDS, TURN, REDEAL, ROW)  # CARDS first: every move no other kind claims


def kind_of(move: dict[str, Any]) -> Kind:
    """The kind of a move of the contract, by the stacks it names: a kind whose ``source`` and
    one of whose ``targets`` they are, else ``CARDS``."""
    src, dst = move.get("from"), move.get("to")
    for kind in KINDS[1:]:
        if kind.source == src and dst in kind.targets:
            return kind
    return CARDS


def contract(card: str, src: str, dst: str, count: int = 1) -> dict[str, Any]:
    """A move of the contract (``count`` left out when it is 1)."""
    out: dict[str, Any] = {"card": card, "from": src, "to": dst}
    if count != 1:
        out["count"] = count
    return out


def land(stacks: dict[str, list[Any]], move: dict[str, Any],
         from_front: Callable[[str], bool] = lambda s: s == "stock") -> list[tuple[str, int]]:
    """Play ``move`` on plain stacks (each listed bottom card first; the stock first-turned
    first), by how its kind lands; the places (stack, index) of the cards it moved, as they lie
    now.  ``from_front``: the stacks whose first-listed card is the one that leaves (the stock,
    a reserve column with ``access = "first"``).  Nothing is checked: the referee has."""
    src, dst, n = move["from"], move["to"], move.get("count", 1)
    lands = kind_of(move).lands
    if lands == "turn":
        stacks[dst] += stacks[src][:n]
        del stacks[src][:n]
    elif lands == "back":
        stacks[dst], stacks[src] = stacks[src], []
        n = len(stacks[dst])
    elif lands == "row":
        for i in range(n):
            stacks[f"{dst}:{i}"].append(stacks[src].pop(0))
        return [(f"{dst}:{i}", len(stacks[f"{dst}:{i}"]) - 1) for i in range(n)]
    else:
        pile = stacks[src]
        if from_front(src):
            group = pile[:n]
            del pile[:n]
        else:
            group = pile[len(pile) - n:]
            del pile[len(pile) - n:]
        stacks[dst] += group
    return [(dst, len(stacks[dst]) - n + k) for k in range(n)]


# ------------------------------------------------------------------ the rules that give moves


@dataclass(frozen=True)
class Rule:
    """A value of one of the layout's move rules, and what reads it.

    ``solvitaire``: how Solvitaire's rules say it, as alternatives of keys of its section
    (``SOLVITAIRE_SECTIONS``), the first written (``solver/solvitaire.py``); empty when
    Solvitaire has no such rule.  ``fc_solve``: fc-solve's ``--sequence-move`` for it (None:
    fc-solve cannot play it)."""

    rule: str  # the layout's rule, "section.key" (``layout.rule_values``)
    value: Any
    words: str  # the rule in words (``describe``); "" when the section's own sentence says it
    kinds: tuple[Kind, ...] = ()  # the kinds of move it brings
    solvitaire: tuple[dict[str, Any], ...] = ()
    fc_solve: str | None = None


RULES: tuple[Rule, ...] = (
    # what the stock does (``stock.turn``)
    Rule("stock.turn", "place", "each turned card must go at once to a foundation or a column with room "
                                "(the player's choice)", (CARDS,)),
    Rule("stock.turn", "waste", "turned cards go to a waste pile whose top card may go to a foundation or a "
                                "column with room", (TURN, REDEAL), ({"deal type": "waste"},)),
    Rule("stock.turn", "deal-row", "each deal puts one card on every column in turn, from the first (the last "
                                   "deal on as many as it has cards for), whenever the player chooses", (ROW,),
         ({"deal type": "tableau piles"},)),
    # (PySolFC's, Windows' and KPat's Spider: ``Spider.canDealCards`` in pysollib/games/spider.py)
    Rule("stock.turn", "deal-row-no-spaces", "each deal puts one card on every column in turn, from the first (the "
                                             "last deal on as many as it has cards for), whenever the player "
                                             "chooses, but only while no column is empty", (ROW,)),
    Rule("stock.turn", "hole", "the next stock card may be turned onto the hole at any time", (CARDS,),
         ({"deal type": "hole"},)),
    Rule("stock.turn", "none", ""),
    # how many cards one move of a tableau column carries (``tableau.moves``)
    Rule("tableau.moves", "single", "", (CARDS,), ({"move built group": "no"},), "limited"),
    Rule("tableau.moves", "sequence", "A built sequence moves as a unit.", (CARDS,),
         ({"move built group": "yes"}, {"move built group": "partial-if-card-above-buildable"}), "unlimited"),
    # (a supermove is a shortcut for single moves through cells and spaces: Solvitaire plays it so)
    Rule("tableau.moves", "suit-sequence", "A built sequence moves as a unit when it is all of one suit.", (CARDS,),
         ({"move built group": "yes", "move built group policy": "same-suit"},)),
    # (Solvitaire's whole-pile: a subset of the sequence moves, so every bound of those holds)
    Rule("tableau.moves", "whole-pile", "A column's cards go to another column only all together, when the "
                                        "whole column is one built sequence.", (CARDS,),
         ({"move built group": "whole-pile"},)),
    Rule("tableau.moves", "supermove", "A built sequence moves as a unit when free cells and empty columns "
                                       "could carry it one card at a time.", (CARDS,),
         ({"move built group": "no"},), "limited"),
    # what a foundation takes in one move (``foundations.takes``)
    Rule("foundations.takes", "card", "", (CARDS,), ({"only complete pile moves": False},)),
    # (Spider: a whole suit, king to ace, in one move; Solvitaire's rule takes it only as a whole column)
    Rule("foundations.takes", "column", "A foundation takes only a whole suit, in one move, from a column that "
                                        "holds exactly that suit from the king (at the bottom) to the ace.", (CARDS,),
         ({"only complete pile moves": True},)),
    Rule("foundations.takes", "suit", "A foundation takes only a whole suit, in one move: the king to the ace, "
                                      "in suit, from the top of a column.", (CARDS,)),
)
SOLVITAIRE_SECTIONS = {"stock": "stock", "tableau": "tableau piles", "foundations": "foundations"}


def values(rule: str) -> tuple[Any, ...]:
    """The values ``rule`` ("section.key") may take, in the table's order."""
    return tuple(r.value for r in RULES if r.rule == rule)


def rule(name: str, value: Any) -> Rule:
    """The table's entry for ``name`` = ``value`` (a ``KeyError`` when there is none)."""
    for r in RULES:
        if (r.rule, r.value) == (name, value):
            return r
    raise KeyError(f"{name} = {value!r}")


# ------------------------------------------------------------------ codes

SRC_SHIFT, DST_SHIFT, COUNT_SHIFT, PLACE_SHIFT, KIND_SHIFT = 0, 6, 12, 19, 26
STACK_MASK, COUNT_MASK, PLACE_MASK, KIND_MASK = 63, 127, 127, 15
MAX_STACK = STACK_MASK - 1  # stack numbers 0..62 (63 is left to the positions' own use)
BY_NUMBER = {k.number: k for k in KINDS}


class Code(NamedTuple):
    """A primitive code's fields (``decode``)."""

    kind: Kind
    src: int = 0
    dst: int = 0
    n: int = 1  # the count
    place: int = 0


def code(kind: Kind, src: int = 0, dst: int = 0, n: int = 1, place: int = 0) -> int:
    """The code of a move (see the module text); ``ValueError`` for a field out of range."""
    if not (0 <= src <= STACK_MASK and 0 <= dst <= STACK_MASK and 0 <= n <= COUNT_MASK and 0 <= place <= PLACE_MASK):
        raise ValueError(f"move fields out of range: {kind.name} {src} -> {dst}, {n} card(s), place {place}")
    return kind.number << KIND_SHIFT | src << SRC_SHIFT | dst << DST_SHIFT | n << COUNT_SHIFT | place << PLACE_SHIFT


def decode(move: int) -> Code:
    """A code's fields (bit 30 clear)."""
    return Code(BY_NUMBER[move >> KIND_SHIFT & KIND_MASK], move >> SRC_SHIFT & STACK_MASK,
                move >> DST_SHIFT & STACK_MASK, move >> COUNT_SHIFT & COUNT_MASK, move >> PLACE_SHIFT & PLACE_MASK)
