"""What plays each game of chance, by the layout's ``game``: one table (``PLAYS``).

The family reads its entry instead of asking what kind of rules a layout has: the two-sided
position on a known shuffle (``position``), the referee's replay of a line (``replay``), and
whether a compiled game exists (``compiled``: Casino's, ``casino``, where it is built).  The odds keep their own
tables beside their code (``odds``).  A new game is one entry here and one in ``rules.RULE_TYPES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..base import GamePosition
from .casino import CasinoGame
from .layout import Deal
from .position import LansquenetRound, TwentyOneRound
from .referee import replay_casino, replay_lansquenet, replay_twenty_one


@dataclass(frozen=True)
class Play:
    position: Callable[[Any, Deal, str], GamePosition]  # (rules, deal, seat)
    # (rules, pack, seat, line) -> what is wrong with the line or None, and the seat's score
    replay: Callable[[Any, list[str], str, list[dict[str, Any]]], tuple[str | None, Fraction]]
    compiled: bool = False


PLAYS: dict[str, Play] = {
    "twenty-one": Play(TwentyOneRound, replay_twenty_one),
    "lansquenet": Play(LansquenetRound, replay_lansquenet),
    "casino": Play(CasinoGame, replay_casino, compiled=True),
}
