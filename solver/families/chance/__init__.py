"""The games of chance of the source texts: a banker and players, not a patience (issue #25).

Lansquenet, Quinze, Vingt-un, Двадцать один, blackjack and Casino.  Two
questions, two searches:

- a known shuffle (``patience solve blackjack --seed 7``): can the seat win when
  every card's place is known to both sides and each plays its best?  The
  ``minimax`` engine searches the family's ``GamePosition``; the line of best
  replies is replayed by the referee, which must reach the same score.
- an unknown shuffle (``patience odds blackjack``): the seat's exact expectation
  under best play (``odds``).

- ``rules``: the rule tables; ``layout``: the layout reader and the deals; ``games``: what plays
  each game (its position, its referee's replay), by the layout's ``game``.
- ``position``: Vingt-un & co. and Lansquenet on a known shuffle; ``casino``: Casino (one source:
  compiled by Cython where a compiler exists, ``compiled_game``).
- ``twentyone``, ``odds``: the exact expectations.
- ``referee``: the replay, written from the rules in words.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from ... import cards
from ...errors import UnsupportedError
from ...result import Result
from ..base import GameFamily, GamePosition, LayoutReader, Position
from .layout import ChanceLayout, Deal, parse


class ChanceFamily(GameFamily):
    name: ClassVar[str] = "chance"
    layout_type: ClassVar[type] = ChanceLayout
    default_engine: ClassVar[str] = "minimax"
    drawn: ClassVar[bool] = False  # a pack, not a table: `patience odds --svg` draws the strategy
    verdicts: ClassVar[tuple[str, ...]] = ("won", "lost", "drawn", "unknown")

    def describe(self, layout: ChanceLayout) -> str:
        from .odds import describe

        return describe(layout)

    def with_max_rank(self, layout: ChanceLayout, max_rank: int) -> Any:
        raise UnsupportedError(f"--max-ranks: layout {layout.name!r} is a game of chance, played with whole packs")

    def seed_range(self, layout: ChanceLayout) -> tuple[int, int]:
        from .layout import SEEDS

        return SEEDS

    def deal_from_seed(self, layout: ChanceLayout, seed: int | None) -> Deal:
        from .layout import deal_from_seed

        return deal_from_seed(layout, seed)

    def read_deal(self, layout: ChanceLayout, path: str) -> Deal:
        from .layout import read_deal

        return read_deal(layout, path)

    def deal_from_json(self, layout: ChanceLayout, obj: Any, where: str) -> Deal:
        from .layout import deal_from_json

        return deal_from_json(layout, obj, where)

    def deal_to_json(self, layout: ChanceLayout, deal: Deal) -> dict[str, list[str]]:
        from .layout import deal_to_json

        return deal_to_json(deal)

    def deal_to_text(self, layout: ChanceLayout, deal: Deal) -> str:
        from .layout import deal_to_text

        return deal_to_text(deal)

    def start_position(self, layout: ChanceLayout, deal: Deal) -> Position:
        raise UnsupportedError(f"layout {layout.name!r}: a game of chance has two sides; it is decided by "
                               "--engine minimax (the default), not by the patiences' depth-first search")

    def seats(self, layout: ChanceLayout) -> tuple[str, ...]:
        return layout.seats

    def check_seat(self, layout: ChanceLayout, seat: str | None) -> str:
        if seat is None:
            return layout.seats[0]
        if seat not in layout.seats:
            from ...errors import InputError

            raise InputError(f"--seat: layout {layout.name!r} has the seats {', '.join(layout.seats)}, "
                             f"got {seat!r}")
        return seat

    def game_position(self, layout: ChanceLayout, deal: Deal, seat: str) -> GamePosition:
        from .games import PLAYS
        from .layout import check_finite

        check_finite(layout)
        seat = self.check_seat(layout, seat)
        return PLAYS[layout.game].position(layout.rules, deal, seat)

    def compiled_game(self, layout: ChanceLayout, deal: Deal, seat: str) -> GamePosition:
        """Casino's game (``casino.CasinoGame``, one source) where it is compiled; the other games
        are decided in well under a second by the Python positions and have no compiled one."""
        from .games import PLAYS

        if not PLAYS[layout.game].compiled:
            raise UnsupportedError(f"layout {layout.name!r}: only Casino has a compiled game; use --core python")
        from .casino import COMPILED

        if not COMPILED:
            raise UnsupportedError("the chance family's compiled Casino is not built")
        return self.game_position(layout, deal, seat)

    def _referee(self, layout: ChanceLayout, deal: Deal, seat: str,
                 line: list[dict[str, Any]]) -> tuple[str | None, Fraction]:
        from .games import PLAYS

        return PLAYS[layout.game].replay(layout.rules, cards.names(deal), seat, line)

    def replay(self, layout: ChanceLayout, deal: Deal, solution: list[dict[str, Any]]) -> str | None:
        """None if the line is legal and plays the round to its end."""
        return self._referee(layout, deal, layout.seats[0], solution)[0]

    def replay_result(self, layout: ChanceLayout, deal: Deal, result: Result) -> str | None:
        """The line replayed to the end, its score the result's and its verdict the score's sign."""
        seat = result.seat or layout.seats[0]
        if seat not in layout.seats:
            return f"seat: layout {layout.name!r} has the seats {', '.join(layout.seats)}, not {seat!r}"
        problem, score = self._referee(layout, deal, seat, result.solution or [])
        if problem is not None:
            return problem
        if result.score is not None and Fraction(result.score) != score:
            return f"the line ends at {score} for the {seat}, not at the result's score {result.score}"
        want = "won" if score > 0 else "lost" if score < 0 else "drawn"
        if result.verdict != want:
            return f"the line ends at {score} for the {seat}: {want}, not {result.verdict}"
        return None

    # -- positions part-way through a round (issue #27) are the patiences': a round is decided whole,
    # from its deal, by the minimax engine, and its referee replays a whole line, not a move at a time.

    def referee(self, layout: ChanceLayout, deal: Any) -> Any:
        raise UnsupportedError(_no_positions(layout))

    def read_position(self, layout: ChanceLayout, path: str) -> Any:
        raise UnsupportedError(_no_positions(layout))

    def position_from_json(self, layout: ChanceLayout, obj: Any, where: str) -> Any:
        raise UnsupportedError(_no_positions(layout))

    def format_solution(self, layout: ChanceLayout, result: Result) -> str | None:
        """The line of best play, one decision a line."""
        lines = []
        for i, m in enumerate(result.solution or [], 1):
            card = m.get("card", "")
            if m.get("action") in ("take", "trail"):
                taken = " ".join(m.get("taken", []))
                text = f"{m['from']} plays {card}" + (f" and takes {taken}" if taken else " to the table")
            elif m.get("action") == "split":
                text = f"{m['from']} splits, {card} to {m['to']}"
            elif m.get("action") in ("stake", "pass"):
                text = f"the company {'stakes on' if m['action'] == 'stake' else 'passes'} {card}"
            else:
                text = f"{m.get('to')} {m.get('action')}s" + (f" {card}" if card else "")
            lines.append(f"{i:4}. {text}")
        return "\n".join(lines) if lines else "      (no decision: the deal settles the round)"


def _no_positions(layout: ChanceLayout) -> str:
    return (f"layout {layout.name!r}: a game of chance is decided whole from its deal (`patience solve`); "
            "positions part-way through a game (--position, --moves, `patience hint`, `patience analyse`) "
            "are for the patiences")


READER = LayoutReader(claims=lambda data: "game" in data, parse=parse)
