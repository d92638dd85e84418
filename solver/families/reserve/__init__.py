"""The debutante family: foundations in suit, reserve columns that only feed them.

Debutante and its readings, Colorado, Grandfather, Double Line, Twenty, Sly Fox.

- ``position``: the DFS's position, its moves, key and dominance: one source, compiled by Cython
  where a compiler exists (``solver/families/README.md``, "One source"); its C methods declared in
  ``position.pxd``.
- ``state``: the position's fields, declared once in ``state.pxd`` (the base class
  ``ReserveState``, with the sizes and codes as named constants), for the position and the modules
  of functions over it to cimport.
- The bounds and the learning, functions over the position with their proofs, each one source:
  ``dead_ends`` (``dead``: the bounds in turn; the buried card; whether a gap may open),
  ``relaxed`` (the generous game: the counting bound), ``copies`` (the copy count), ``timed`` (the
  timed copy count), ``learned`` (learning's key); ``pairing``: the pairing bound (plain Python).
- ``referee``: an independent replay of a solution, from the rules in words.
- ``model``: the CP-SAT model; ``grid``: the same on a fixed grid of instants, for layouts that place
  every turned card at once.
- ``evaluate``: the win finder's evaluation of a position (``solver.engines.finder``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...errors import UnsupportedError
from ...layout import Layout
from ..base import Evaluation, Model, Position, Referee
from ..card import CardFamily, Deal
from .rules import grid_supported


class ReserveFamily(CardFamily):
    name: ClassVar[str] = "reserve"
    picture: ClassVar[str] = "reserve"

    def start_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import ReservePosition

        return ReservePosition(layout, deal)

    def compiled_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import COMPILED, ReservePosition

        if not COMPILED:
            raise UnsupportedError("the reserve family's position is not compiled (it runs interpreted)")
        return ReservePosition(layout, deal)

    def shares_table(self, layout: Layout) -> bool:
        """True unless the waste is turned over without limit or gaps take column tops.

        No cycle: every move raises (-redeals left, -stock, -waste, cards on foundations,
        marks), compared in that order: a redeal spends one; a turn, a card placed from the
        pack or a row dealt shrinks the stock; a waste card leaving shrinks the waste; a column
        card goes only to a foundation; a decision adds a mark.  With unlimited redeals the key
        leaves the count out (a redeal can bring a key back), and a card moved into a gap
        (``gaps = "any-top"``) may move back.  One meaning: the key holds the foundations'
        heights, the columns (with their marks) and of the stock what a position of the game
        needs (``waste``: stock and waste; ``deal-row``: its size).  With ``place`` it holds
        no stock: the stock is the game's pack order less the cards that have left it, as many
        as the heights and columns count beyond the start's, so within one game the key names
        one position from any of its starts.
        """
        return not (layout.stock.turn == "waste" and layout.stock.redeals < 0) and layout.reserve.gaps != "any-top"

    def evaluation(self, layout: Layout) -> Evaluation:
        """No seat in the portfolio (``finder_seat``): measured, the finder won none of 9 of the
        debutante deals the portfolio left open at 60 s (15 s each); ``--engine finder`` runs it."""
        from .evaluate import ReserveEvaluation

        return ReserveEvaluation()

    def cpsat_seat(self, layout: Layout) -> bool:
        """The grid model's layouts: it wins tight deals the DFS leaves open (ground truth,
        ``benchmarks/results/ground-truth-2026-12-05``), so it takes the second core."""
        return grid_supported(layout)

    def cpsat_model(self, layout: Layout) -> type[Model]:
        """The grid model where every turned card is placed at once (it finds the wins of tight
        deals far sooner), the general model otherwise."""
        from .grid import GridModel
        from .model import ReserveModel, check_supported

        if grid_supported(layout):
            return GridModel
        check_supported(layout)
        return ReserveModel

    def referee(self, layout: Layout, deal: Deal) -> Referee:
        from .referee import ReserveGame

        return ReserveGame(layout, deal)

    def replay(self, layout: Layout, deal: Deal, solution: list[dict[str, Any]]) -> str | None:
        from .referee import replay

        return replay(layout, deal, solution)
