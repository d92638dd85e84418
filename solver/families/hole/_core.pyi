# Types of the compiled extension module _core.pyx (for mypy; the module itself is Cython).
from typing import Any

from ..core import CorePosition
from .position import HolePosition

class HoleCore(CorePosition):
    def __init__(self, ref: HolePosition) -> None: ...
    def move_json(self, move: int) -> dict[str, Any]: ...
    def reference_move(self, move: int) -> int: ...
