"""The tableau family: FreeCell and its relatives, Klondike, Canfield, Baker's Dozen, Forty Thieves.

- ``rules``: the rule table (build, spaces, safe moves), shared by the position and the model.
- ``position``: the DFS's position, its moves, key, dominances and move ordering: one source,
  compiled by Cython where a compiler exists (then the compiled DFS drives it), interpreted
  otherwise; its C methods declared in ``position.pxd``.  Its moves are codes of the move table,
  ``solver/moves.py``.
- ``state``: the position's fields, declared once in ``state.pxd`` (the base class
  ``TableauState``, with the sizes as named constants), for the position and the modules of
  functions over it to cimport.
- ``blocked``: the blocked bound, functions over the position with their proof (``dead``).
- ``referee``: an independent replay of a solution, from the rules in words.
- ``model``: the CP-SAT model of the open games (no stock, no face-down cards).
- ``evaluate``: the win finder's evaluation of a position (``solver.engines.finder``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ... import solvitaire
from ...errors import UnsupportedError
from ...layout import Layout
from ..base import Evaluation, Model, Position, Referee
from ..card import CardFamily, Deal


class TableauFamily(CardFamily):
    name: ClassVar[str] = "tableau"
    peers: ClassVar[tuple[str, ...]] = ("fc-solve", "solvitaire")

    def solvitaire_rules(self, layout: Layout) -> dict[str, Any] | None:
        return solvitaire.tableau_rules(layout)

    def start_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import TableauPosition

        return TableauPosition(layout, deal)

    def compiled_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import COMPILED, TableauPosition

        if not COMPILED:
            raise UnsupportedError("the tableau family's position is not compiled (it runs interpreted)")
        return TableauPosition(layout, deal)

    def evaluation(self, layout: Layout) -> Evaluation:
        from .evaluate import TableauEvaluation

        return TableauEvaluation(layout.tableau.count)

    def finder_seat(self, layout: Layout) -> bool:
        """Every tableau layout: the finder wins deep deals (Spider with runs going home, Forty
        Thieves) that the DFS leaves open (``benchmarks/results/finder-*``)."""
        return True

    def cpsat_model(self, layout: Layout) -> type[Model]:
        from .model import TableauModel

        return TableauModel

    def referee(self, layout: Layout, deal: Deal) -> Referee:
        from .referee import TableauGame

        return TableauGame(layout, deal)

    def replay(self, layout: Layout, deal: Deal, solution: list[dict[str, Any]]) -> str | None:
        from .referee import replay

        return replay(layout, deal, solution)
