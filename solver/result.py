"""The one result type every engine returns, and its stable JSON contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

Verdict = Literal["won", "lost", "unknown"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
EXIT_CODES: dict[Verdict, int] = {"won": 0, "lost": 1, "unknown": 3}
EXIT_BAD_INPUT = 2
EXIT_DISAGREEMENT = 4


@dataclass
class EngineRun:
    """What an engine returns for one deal, before it becomes a ``Result``."""

    verdict: Verdict
    reason: str | None = None  # the limit hit ("unknown"), or the argument that proved "lost"
    solution: list[dict[str, Any]] | None = None  # result-contract moves, for "won"
    nodes: int = 0
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class Result:
    layout: str
    seed: int | None
    engine: str
    verdict: Verdict
    reason: str | None = None  # the limit hit, for "unknown"
    stats: dict[str, Any] = field(default_factory=dict)  # nodes, seconds, ...
    deal: dict[str, list[str]] = field(default_factory=dict)
    solution: list[dict[str, Any]] | None = None
    max_rank: int | None = None  # a reduced deck (ranks A..max_rank); None for the full deck

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    def to_json(self) -> dict[str, Any]:
        out = {
            "layout": self.layout, "seed": self.seed, "engine": self.engine,
            "verdict": self.verdict, "reason": self.reason, "stats": self.stats,
            "deal": self.deal, "solution": self.solution,
        }
        if self.max_rank is not None:  # only for reduced decks, so full-deck results are unchanged
            out["max_rank"] = self.max_rank
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Result:
        return cls(
            layout=obj["layout"], seed=obj.get("seed"), engine=obj.get("engine", "?"),
            verdict=obj["verdict"], reason=obj.get("reason"), stats=obj.get("stats") or {},
            deal=obj.get("deal") or {}, solution=obj.get("solution"), max_rank=obj.get("max_rank"),
        )
