# Types of the compiled extension module _minimax.pyx (for mypy; the module itself is Cython).
from collections.abc import Callable
from typing import Any

from ..families.game_core import GameCore

class CoreSearch:
    nodes: int
    stored: int
    entries: int
    def __init__(self, pos: GameCore, entries: int, max_nodes: int | None,
                 tick: Callable[[int, int], None]) -> None: ...
    def value(self, alpha: Any, beta: Any) -> int: ...
    def stored_move(self) -> int | None: ...
