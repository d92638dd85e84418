"""Accordion layouts: the TOML reader and ``AccordionLayout``.

A layout file (``layouts/accordion.toml`` is the model)::

    title = "Accordion"
    description = "..."
    rules_version = 1
    decks = 1

    [accordion]
    piles = 52                # cards dealt in a row, one a pile; the rest of the pack stays out
    moves = ["L1", "L3"]      # where a pile may go: k piles to its left (L) or right (R)
    match = ["suit", "rank"]  # when: top cards of one suit, of one rank, of alternate colours, any

    [deal]
    generator = "solvitaire"

The piles are ``pile:0`` .. ``pile:N-1``, left to right, each listed bottom card first (one card
at the deal; a pile keeps its name when others are put on it).  Seed N is Solvitaire's
``--random N``: its shuffled deck read from the end, one card to each pile from the left.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ... import cards, shuffles, solvitaire
from ...errors import DealError, LayoutError
from ...schema import Table
from ..base import Position, Referee
from ..spread import Deal, check_max_rank, check_pack, listing_lines, read_head
from .rules import MATCHES

MATCH_WORDS = {"suit": "of the same suit", "rank": "of the same rank", "alternate": "one red and one black",
               "any": "whatever they are"}
MAX_STEP = 103


def _moves_ok(v: Any) -> bool:
    return isinstance(v, list) and all(
        isinstance(m, str) and len(m) >= 2 and m[0] in "LR" and m[1:].isdigit() and m[1] != "0"
        and int(m[1:]) <= MAX_STEP for m in v) and len(set(v)) == len(v)


def parse_accordion_layout(data: dict[str, Any], where: str, name: str) -> AccordionLayout:
    """An accordion layout from parsed TOML ``data`` (which has an ``[accordion]`` table)."""
    top = Table(where, "", data)
    head = read_head(top, name)
    decks = top.int("decks", 1, 1, 2)
    t = top.sub("accordion")
    assert t is not None  # the reader claims only TOML with an [accordion]
    piles = t.int("piles", 52 * decks, 1, 52 * decks)
    moves = t.get("moves", ["L1", "L3"], f"a list of distinct moves such as 'L1' or 'R3' (L: to the left, "
                  f"R: to the right, then a distance 1..{MAX_STEP})", _moves_ok)
    match = t.get("match", ["suit", "rank"], f"a list of distinct values drawn from {', '.join(map(repr, MATCHES))}",
                  lambda v: isinstance(v, list) and all(x in MATCHES for x in v) and len(set(v)) == len(v))
    t.done()
    top.done()
    return AccordionLayout(**head, decks=decks, piles=piles, moves=tuple(moves), match=tuple(match), path=where)


@dataclass(frozen=True)
class AccordionLayout:
    """A row of piles that close up into one (Accordion, Late-binding Solitaire)."""

    name: str
    title: str
    description: str
    rules_version: int
    decks: int
    piles: int
    moves: tuple[str, ...] = ("L1", "L3")
    match: tuple[str, ...] = ("suit", "rank")
    max_rank: int = 13
    path: str = ""

    family: ClassVar[str] = "accordion"

    def pack(self) -> list[int]:
        return cards.pack(self.decks, self.max_rank)

    def with_max_rank(self, max_rank: int) -> AccordionLayout:
        """The same game on ranks A..``max_rank``; a row of the whole pack becomes a row of the
        whole reduced pack."""
        check_max_rank(max_rank)
        size = 4 * max_rank * self.decks
        piles = size if self.piles == 52 * self.decks else self.piles
        if piles > size:
            raise LayoutError(f"--max-ranks {max_rank}: {self.name} deals {piles} cards in its row "
                              f"but ranks A..{cards.RANKS[max_rank - 1]} make only {size}")
        return replace(self, max_rank=max_rank, piles=piles)

    def stack_names(self) -> list[str]:
        return [f"pile:{i}" for i in range(self.piles)]

    # -- deals

    def deal_from_seed(self, seed: int) -> Deal:
        deck = shuffles.solvitaire_deck(self.decks, self.max_rank, seed)
        return {f"pile:{i}": [deck[-1 - i]] for i in range(self.piles)}

    def check_deal(self, deal: Deal, where: str) -> None:
        held = sum(map(len, deal.values()))
        if held != self.piles:
            raise DealError(f"{where}: {self.name!r} holds {self.piles} cards in its row (one a pile at the deal), "
                            f"got {held}")
        check_pack(self, deal, where, whole=False)

    def deal_to_text(self, deal: Deal) -> str:
        return "".join(f"{p}: {' '.join(cards.names(deal[p]))}\n" for p in self.stack_names() if deal.get(p))

    def parse_listing(self, text: str, where: str) -> Deal:
        deal: Deal = {}
        for stack, (line, words) in listing_lines(text, where, self.stack_names(), "pile:0: 6H").items():
            try:
                got = [cards.parse(w) for w in words]
            except ValueError as e:
                raise DealError(f"{where}:{line}: {e}") from None
            if got:
                deal[stack] = got
        return deal

    def from_solvitaire(self, obj: dict[str, Any], where: str) -> Deal:
        row = solvitaire.accordion_from_json(obj, self.piles, where)
        return {f"pile:{i}": [c] for i, c in enumerate(row)}

    def to_solvitaire(self, deal: Deal) -> dict[str, Any]:
        """Solvitaire's deal file: its row, one card a pile (a deal, not a game part-way through)."""
        if any(len(deal.get(p, [])) != 1 for p in self.stack_names()):
            raise DealError(f"layout {self.name!r}: Solvitaire's deal file holds one card in each pile of the row")
        return solvitaire.accordion_to_json([deal[p][0] for p in self.stack_names()])

    def solvitaire_rules(self) -> dict[str, Any]:
        """Solvitaire's rules for this layout."""
        words = {"suit": "same-suit", "rank": "same-rank", "alternate": "red-black", "any": "any-suit"}
        return {"foundations": {"present": False}, "tableau piles": {"count": 0},
                "accordion": {"size": self.piles, "moves": list(self.moves),
                              "build policies": [words[m] for m in self.match]},
                "two decks": self.decks == 2, "max rank": self.max_rank}

    # -- engines

    def start_position(self, deal: Deal) -> Position:
        from .position import AccordionPosition

        return AccordionPosition(self, deal)

    def referee(self, deal: Deal) -> Referee:
        from .referee import AccordionGame

        return AccordionGame(self, deal)

    # -- words

    def describe(self) -> str:
        packs = "one pack" if self.decks == 1 else f"{self.decks} packs"
        reduced = "" if self.max_rank == 13 else f", reduced to ranks A..{cards.RANKS[self.max_rank - 1]}"
        size = len(self.pack())
        rest = "" if self.piles == size else f"; the other {size - self.piles} cards of the pack are not used"
        steps = [("next pile" if m[1:] == "1" else f"pile {m[1:]} places")
                 + f" to its {'left' if m[0] == 'L' else 'right'}" for m in self.moves]
        lines = [
            f"{self.title} ({self.name}, rules version {self.rules_version})", "",
            f"Cards: {packs} of {size // self.decks} cards{reduced}; the whole order is known to the solver.",
            f"Deal: {self.piles} cards in a row, one a pile, left to right (pile:0 .. pile:{self.piles - 1}){rest}.",
            "Seeds: seed N (from 0) is Solvitaire's --random N (generator solvitaire).",
            ("Moves: a pile, all its cards at once, goes onto the " + " or the ".join(steps)
             + ", counting only the piles still in the row, when the two top cards are "
             + " or ".join(MATCH_WORDS[m] for m in self.match) + "; the row closes up."
             if steps else "Moves: none (the layout lists no moves)."),
            "Won: every card in one pile.",
        ]
        return "\n".join(lines) + "\n"
