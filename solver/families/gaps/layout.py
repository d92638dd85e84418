"""Gaps layouts: the TOML reader and ``GapsLayout``.

A layout file (``layouts/gaps-one-deal.toml`` is the model)::

    title = "Gaps"
    description = "..."
    rules_version = 1

    [gaps]
    build = "suit"      # a gap takes the card one rank above its left neighbour: of its suit
                        # ("suit"), of the other colour ("alternate"), of any suit ("any")
    row_suits = []      # or ["C", "H", "S", "D"]: the left end of row R takes only that suit's two

    [deal]
    generator = "solvitaire"

The grid has four rows of ``max_rank`` places (13, or fewer on a reduced deck), named
``grid:R:C`` (row R from 0 at the top, column C from 0 at the left); the aces are out of the
game, so a deal leaves four places empty, the gaps.  Seed N is Solvitaire's ``--random N``: its
shuffled deck read from the end, dealt row by row down the columns (card t to row t mod 4,
column t div 4), an ace leaving a gap.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ... import cards, shuffles, solvitaire
from ...errors import DealError, LayoutError
from ...schema import Table
from ..base import Position, Referee
from ..spread import Deal, check_max_rank, check_pack, listing_lines, read_head
from .rules import BUILDS, ROWS

GAP_WORD = "--"
BUILD_WORDS = {"suit": "of its suit", "alternate": "of the other colour", "any": "of any suit"}


def parse_gaps_layout(data: dict[str, Any], where: str, name: str) -> GapsLayout:
    """A Gaps layout from parsed TOML ``data`` (which has a ``[gaps]`` table)."""
    top = Table(where, "", data)
    head = read_head(top, name)
    t = top.sub("gaps")
    assert t is not None  # the reader claims only TOML with a [gaps]
    build = t.str("build", "suit", BUILDS)
    row_suits = t.get("row_suits", [], f"[] or a list of {ROWS} distinct suits such as ['C', 'H', 'S', 'D']",
                      lambda v: isinstance(v, list) and (not v or (len(v) == ROWS and len(set(v)) == ROWS
                                                                    and all(s in cards.SUITS for s in v))))
    t.done()
    top.done()
    return GapsLayout(**head, build=build, row_suits=tuple(row_suits), path=where)


@dataclass(frozen=True)
class GapsLayout:
    """Four rows of places, the pack without its aces, four gaps (Gaps, its Solvitaire variants)."""

    name: str
    title: str
    description: str
    rules_version: int
    build: str = "suit"
    row_suits: tuple[str, ...] = ()
    max_rank: int = 13
    path: str = ""

    family: ClassVar[str] = "gaps"
    decks: ClassVar[int] = 1

    def pack(self) -> list[int]:
        """The cards in play: every card but the aces."""
        return [c for c in cards.pack(1, self.max_rank) if cards.rank(c) > 1]

    def with_max_rank(self, max_rank: int) -> GapsLayout:
        check_max_rank(max_rank)
        if max_rank < 2:
            raise LayoutError(f"--max-ranks {max_rank}: Gaps needs ranks A..2 at least (the aces are taken out)")
        return replace(self, max_rank=max_rank)

    def places(self) -> list[str]:
        return [f"grid:{r}:{c}" for r in range(ROWS) for c in range(self.max_rank)]

    def stack_names(self) -> list[str]:
        return self.places()

    def grid(self, deal: Deal) -> list[list[int | None]]:
        """The rows of ``deal``, left to right, a gap as None."""
        grid: list[list[int | None]] = [[None] * self.max_rank for _ in range(ROWS)]
        for r in range(ROWS):
            for c in range(self.max_rank):
                got = deal.get(f"grid:{r}:{c}")
                if got:
                    grid[r][c] = got[0]
        return grid

    def from_grid(self, grid: list[list[int | None]]) -> Deal:
        return {f"grid:{r}:{c}": [card] for r, row in enumerate(grid) for c, card in enumerate(row)
                if card is not None}

    # -- deals

    def deal_from_seed(self, seed: int) -> Deal:
        deck = shuffles.solvitaire_deck(1, self.max_rank, seed)
        deal: Deal = {}
        for t in range(len(deck)):
            card = deck[-1 - t]
            if cards.rank(card) > 1:
                deal[f"grid:{t % ROWS}:{t // ROWS}"] = [card]
        return deal

    def check_deal(self, deal: Deal, where: str) -> None:
        for stack, got in deal.items():
            if len(got) > 1:
                raise DealError(f"{where}: {stack}: a place holds one card, got {len(got)}")
        check_pack(self, deal, where, whole=True)

    def deal_to_text(self, deal: Deal) -> str:
        """The grid, a row a line, ``--`` for a gap."""
        return "".join(f"row:{r}: " + " ".join(GAP_WORD if c is None else cards.name(c) for c in row) + "\n"
                       for r, row in enumerate(self.grid(deal)))

    def parse_listing(self, text: str, where: str) -> Deal:
        rows = [f"row:{r}" for r in range(ROWS)]
        lines = listing_lines(text, where, rows, "row:0: 6H -- QS ...")
        grid: list[list[int | None]] = []
        for stack in rows:
            if stack not in lines:
                raise DealError(f"{where}: {stack} is missing: the listing gives the {ROWS} rows, '--' for a gap")
            line, words = lines[stack]
            if len(words) != self.max_rank:
                raise DealError(f"{where}:{line}: expected {self.max_rank} places (cards, '--' for a gap), "
                                f"got {len(words)}")
            try:
                grid.append([None if w == GAP_WORD else cards.parse(w) for w in words])
            except ValueError as e:
                raise DealError(f"{where}:{line}: {e}") from None
        return self.from_grid(grid)

    def from_solvitaire(self, obj: dict[str, Any], where: str) -> Deal:
        return self.from_grid(solvitaire.sequences_from_json(obj, ROWS, self.max_rank, where))

    def to_solvitaire(self, deal: Deal) -> dict[str, Any]:
        return solvitaire.sequences_to_json(self.grid(deal))

    def solvitaire_rules(self) -> dict[str, Any] | None:
        """Solvitaire's rules for this layout, or None (its fixed suits are clubs, hearts, spades,
        diamonds for rows 0..3: other row suits it cannot say)."""
        if self.row_suits and "".join(self.row_suits) != solvitaire.GAPS_SUITS:
            return None
        words = {"suit": "same-suit", "alternate": "red-black", "any": "any-suit"}
        return {"foundations": {"present": False}, "tableau piles": {"count": 0},
                "sequences": {"count": ROWS, "direction": "L", "build policy": words[self.build],
                              "fixed suit": bool(self.row_suits)},
                "max rank": self.max_rank}

    # -- engines

    def start_position(self, deal: Deal) -> Position:
        from .position import GapsPosition

        return GapsPosition(self, deal)

    def referee(self, deal: Deal) -> Referee:
        from .referee import GapsGame

        return GapsGame(self, deal)

    # -- words

    def describe(self) -> str:
        top = self.max_rank
        reduced = "" if top == 13 else f", reduced to ranks A..{cards.RANKS[top - 1]}"
        highest = cards.RANKS[top - 1].replace("T", "10")
        twos = ("any two" if not self.row_suits else
                "only the two of its row's suit (" + ", ".join(f"row {r}: {s}" for r, s in enumerate(self.row_suits))
                + ")")
        order = {"suit": "in one suit", "alternate": "in alternate colours", "any": "in any suits"}[self.build]
        lines = [
            f"{self.title} ({self.name}, rules version {self.rules_version})", "",
            f"Cards: one pack of {4 * top} cards{reduced}; the four aces are taken out; "
            "the whole order is known to the solver.",
            f"Deal: {ROWS} rows of {top} places (grid:R:C, row R from 0 at the top, column C from 0 at the left), "
            "card t of Solvitaire's deal to row t mod 4, column t div 4; each ace leaves a gap.",
            "Seeds: seed N (from 0) is Solvitaire's --random N (generator solvitaire).",
            f"Moves: a card goes into a gap when it is one rank above the card just left of the gap, "
            f"{BUILD_WORDS[self.build]}; a gap at the left end of a row takes {twos}; a gap after a gap or after "
            f"a {highest} takes nothing. No redeal.",
            f"Won: each row holds 2 up to {highest} from the left, {order}, with its gap at the right end.",
        ]
        return "\n".join(lines) + "\n"
