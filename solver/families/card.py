"""What the three card families share: the card layout schema, its deals and its words.

The debutante family (``reserve``), the hole games and the tableau games all read
the same layout files (``solver.layout``) and deal them the same way
(``solver.shuffles``, ``solver.deal``; Solvitaire's deal files too, ``DEAL_READERS``);
they differ in their positions, referees and CP-SAT models.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .. import deal as deals
from .. import positions, shuffles, solvitaire
from ..describe import describe
from ..errors import SeedError, UnsupportedError
from ..layout import Layout, parse
from ..positions import Snapshot
from .base import GameFamily, LayoutReader

Deal = deals.Deal

# The outside forms of a deal file the card families read besides their own (``deal.from_json``).
DEAL_READERS = (deals.DealReader(claims=solvitaire.is_solvitaire_deal, read=solvitaire.deal_from_json),)


class CardFamily(GameFamily):
    layout_type: ClassVar[type] = Layout

    def describe(self, layout: Layout) -> str:
        return describe(layout)

    def max_rank(self, layout: Layout) -> int | None:
        return None if layout.max_rank == 13 else layout.max_rank

    def seed_range(self, layout: Layout) -> tuple[int, int] | None:
        return shuffles.seed_range(layout)

    def deal_from_seed(self, layout: Layout, seed: int | None) -> Deal:
        if seed is None:
            raise SeedError(f"layout {layout.name!r}: expected a seed (--seed N) or a deal file (--deal FILE)")
        return shuffles.from_seed(layout, seed)

    def read_deal(self, layout: Layout, path: str) -> Deal:
        return deals.read(path, layout, DEAL_READERS)

    def deal_from_json(self, layout: Layout, obj: Any, where: str) -> Deal:
        return deals.from_json(obj, layout, where, DEAL_READERS)

    def deal_to_json(self, layout: Layout, deal: Deal) -> dict[str, list[str]]:
        return deals.to_json(deal)

    def deal_to_text(self, layout: Layout, deal: Deal) -> str:
        return deals.to_text(deal)

    def deal_to_board(self, layout: Layout, deal: Deal) -> str:
        return deals.to_board(deal, layout)

    def solvitaire_deal(self, layout: Layout, deal: Deal) -> dict[str, Any]:
        if "solvitaire" not in self.peers:
            return super().solvitaire_deal(layout, deal)
        return solvitaire.deal_to_json(layout, deal)

    # -- positions: ``solver.positions.Snapshot``

    def position_of_deal(self, layout: Layout, deal: Deal) -> Snapshot:
        return positions.from_deal(layout, deal)

    def read_position(self, layout: Layout, path: str) -> Snapshot:
        return positions.read(path, layout)

    def position_from_json(self, layout: Layout, obj: Any, where: str) -> Snapshot:
        return positions.from_json(obj, layout, where)

    def position_to_json(self, layout: Layout, position: Snapshot) -> dict[str, Any]:
        return positions.to_json(layout, position)

    def position_to_text(self, layout: Layout, position: Snapshot, title: str | None = None) -> str:
        return positions.to_text(layout, position, title)

    def is_deal(self, layout: Layout, start: Deal | Snapshot) -> bool:
        return not isinstance(start, Snapshot)

    def model_deal(self, layout: Layout, start: Deal | Snapshot) -> Deal:
        if not isinstance(start, Snapshot):
            return start
        deal = positions.to_deal(layout, start)
        if deal is None:
            raise UnsupportedError("the cpsat engine starts from a deal, not from a position part-way through a "
                                   "game: use --engine dfs")
        return deal


READER = LayoutReader(claims=lambda data: "board" not in data, parse=parse)
