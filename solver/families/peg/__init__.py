"""Peg solitaire boards, served through the same game interface and engines as the patiences.

A board layout (``layouts/english-33.toml`` and friends) holds the board's
shape as a text picture, the start (which holes are empty) and the goal (how
many pegs remain, optionally in which hole).  Holes are named by coordinates:
columns ``a``, ``b``, ... from the left, rows ``1``, ``2``, ... from the top,
so the English centre is ``d4`` and the opening jumps of the central game are
``d2-d4``, ``b4-d4``, ``f4-d4`` and ``d6-d4``.

- ``geometry``: the board: holes, names, jumps, symmetries, pictures.
- ``layout``: the layout file reader and ``PegLayout`` (describe, deals, start position).
- ``position``: the depth-first search's position: bitboards, a transposition
  key with the symmetries folded in, pagoda-function pruning.
- ``pagoda``: pagoda functions and position classes, the sound bounds.
- ``referee``: an independent replay of a solution.
- ``model``: the CP-SAT step model of Jefferson, Miguel, Miguel and Tarim.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...result import Result
from ..base import GameFamily, LayoutReader, Model, Position, Referee

if TYPE_CHECKING:  # the board code loads when a board layout is read, not with the package
    from .layout import Deal, PegLayout


class PegFamily(GameFamily):
    name: ClassVar[str] = "peg"
    shuffled: ClassVar[bool] = False  # one start position: a run needs no seed
    picture: ClassVar[str] = "pegs"

    @property
    def layout_type(self) -> type:  # type: ignore[override]
        from .layout import PegLayout

        return PegLayout

    def describe(self, layout: PegLayout) -> str:
        return layout.describe()

    def with_max_rank(self, layout: PegLayout, max_rank: int) -> PegLayout:
        return layout.with_max_rank(max_rank)

    def deal_from_seed(self, layout: PegLayout, seed: int | None) -> Deal:
        return layout.deal_from_seed(seed)

    def read_deal(self, layout: PegLayout, path: str) -> Deal:
        return layout.read_deal(path)

    def deal_from_json(self, layout: PegLayout, obj: Any, where: str) -> Deal:
        return layout.deal_from_json(obj, where)

    def deal_to_json(self, layout: PegLayout, deal: Deal) -> dict[str, list[str]]:
        return layout.deal_to_json(deal)

    def deal_to_text(self, layout: PegLayout, deal: Deal) -> str:
        return layout.deal_to_text(deal)

    def position_to_text(self, layout: PegLayout, position: Deal, title: str | None = None) -> str:
        """The board as ``read_position`` (``--deal``, ``--position``) reads it: ``o`` a peg, ``.`` an
        empty hole, one row a line."""
        return layout.compact_picture(position)

    def start_position(self, layout: PegLayout, deal: Deal) -> Position:
        return layout.start_position(deal)

    def cpsat_model(self, layout: PegLayout) -> type[Model]:
        from .model import PegModel

        return PegModel

    def referee(self, layout: PegLayout, deal: Deal) -> Referee:
        from .referee import PegGame

        goal = None if layout.goal.hole is None else layout.board.names[layout.goal.hole]
        return PegGame(layout.board.names, deal, layout.goal.pegs, goal)

    def replay(self, layout: PegLayout, deal: Deal, solution: list[dict[str, Any]]) -> str | None:
        from .referee import replay

        goal = None if layout.goal.hole is None else layout.board.names[layout.goal.hole]
        return replay(layout.board.names, deal, solution, layout.goal.pegs, goal)

    def format_solution(self, layout: PegLayout, result: Result) -> str | None:
        return layout.format_solution(result)


def _parse(data: dict[str, Any], where: str, name: str) -> PegLayout:
    from .layout import parse_board_layout

    return parse_board_layout(data, where, name)


READER = LayoutReader(claims=lambda data: "board" in data, parse=_parse)
