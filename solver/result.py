"""The one result type every engine returns, and its stable JSON contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from . import cards
from .errors import InputError
from .files import json_text

# "drawn": a game of two sides that neither wins with best play (the games of chance, issue #25)
Verdict = Literal["won", "lost", "unknown", "drawn"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
EXIT_CODES: dict[Verdict, int] = {"won": 0, "lost": 1, "unknown": 3, "drawn": 5}
EXIT_BAD_INPUT = 2
EXIT_DISAGREEMENT = 4
EXIT_INTERNAL = 70  # the run failed: a bug (a traceback with --debug) or a worker process that died

# What decided a result: ``stats["decided_by"]`` of a won or lost result (an unknown has none).
SEARCH = "search"  # a win found by a search, or a loss from a search that exhausted every position
BOUND = "bound at the deal"  # a sound bound cut the deal itself (``stats["bound"]`` names it, ``reason`` says it)
CPSAT = "cp-sat"  # the CP-SAT model: a plan found (won), or the model infeasible (lost)
LEARNED = "learned"  # a loss from a search that cut positions by reasons learned from exhausted subtrees
DECIDED_BY = (SEARCH, BOUND, CPSAT, LEARNED)


def bound_name(reason: str) -> str:
    """A bound's short name: its reason (a family's ``DEAD_REASONS`` entry, or what ``is_dead``
    says) up to the first colon, e.g. ``counting bound``; each family's names are distinct."""
    return reason.split(":", 1)[0].strip()


def loss_argument(reason: str | None, stats: dict[str, Any] | None) -> str:
    """What proved a lost result, for tables: ``search``, ``cp-sat``, ``learned``, or ``bound at
    the deal (NAME)``.  A result recorded before ``decided_by`` existed is read from its
    ``reason``, which has always said it: null after a complete search, ``cp-sat: ...`` from the
    model, else the bound that cut the deal."""
    decided = (stats or {}).get("decided_by")
    if decided not in DECIDED_BY:  # not recorded (or an old portfolio's engine name)
        decided = SEARCH if reason is None else CPSAT if reason.startswith("cp-sat") else BOUND
    if decided == BOUND:
        bound = (stats or {}).get("bound")
        name = bound if isinstance(bound, str) else bound_name(reason or "?")
        return f"{BOUND} ({name})"
    return str(decided)


@dataclass
class EngineRun:
    """What an engine returns for one deal, before it becomes a ``Result``."""

    verdict: Verdict
    reason: str | None = None  # the limit hit ("unknown"), or the argument that proved "lost"
    solution: list[dict[str, Any]] | None = None  # result-contract moves, for "won"
    nodes: int = 0
    stats: dict[str, Any] = field(default_factory=dict)
    seat: str | None = None  # a game of two sides: the seat the verdict is for
    score: str | None = None  # and its result with best play on both sides, "3/2"


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
    fingerprint: str | None = None  # the layout's rules (``solver.fingerprint``); None: not recorded
    seat: str | None = None  # a game of two sides (the games of chance): the seat the verdict is for
    score: str | None = None  # that seat's result with best play on both sides (stakes or points), "3/2"
    position: dict[str, Any] | None = None  # the start, when it is a position part-way through a game

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
        if self.fingerprint is not None:
            out["fingerprint"] = self.fingerprint
        if self.seat is not None:  # only for games of two sides, so every other result is unchanged
            out["seat"] = self.seat
            out["score"] = self.score
        if self.position is not None:  # a start part-way through a game: it has no deal
            out["deal"] = None
            out["position"] = self.position
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "result") -> Result:
        """A result read back from its JSON; every field is checked, so that a hand-edited file is
        an ``InputError`` naming the key, never a crash further on."""
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a result object with 'layout', 'verdict', 'deal' and 'solution'")

        def check(key: str, ok: bool, expected: str) -> None:
            if not ok:
                raise InputError(f"{where}: {key}: expected {expected}, got {json_text(obj.get(key), 80)}")

        for key in ("layout", "verdict"):
            check(key, key in obj, "a value (the key is missing)")
        layout = obj["layout"]
        check("layout", isinstance(layout, str) and layout.isprintable() and 0 < len(layout) <= 100
              and not any(c in layout for c in "/\\"), "a layout name (give a layout file with --layout)")
        check("verdict", obj["verdict"] in VERDICTS, f"one of {', '.join(VERDICTS)}")
        seed, max_rank = obj.get("seed"), obj.get("max_rank")
        check("seed", seed is None or (type(seed) is int and seed >= 0), "a whole number >= 0 or null")
        check("max_rank", max_rank is None or (type(max_rank) is int and 1 <= max_rank <= 13),
              "a whole number 1..13 (a reduced deck), or no key")
        check("engine", isinstance(obj.get("engine", "?"), str), "an engine name")
        check("reason", obj.get("reason") is None or isinstance(obj["reason"], str), "a string or null")
        check("stats", obj.get("stats") is None or isinstance(obj["stats"], dict), "an object")
        check("deal", obj.get("deal") is None or isinstance(obj["deal"], dict), "an object: stack -> cards")
        solution = obj.get("solution")
        check("solution", solution is None or isinstance(solution, list), "a list of moves or null")
        for i, m in enumerate(solution or []):
            if not (isinstance(m, dict) and all(isinstance(m.get(k), str) for k in ("card", "from", "to"))
                    and (type(m.get("count", 1)) is int and m.get("count", 1) >= 1)):
                raise InputError(f"{where}: solution[{i}]: expected a move {{\"card\", \"from\", \"to\"[, \"count\"]}} "
                                 f"of strings (count a whole number >= 1), got {json_text(m, 80)}")
            if not cards.move_card_ok(m["card"]):
                raise InputError(f"{where}: solution[{i}]: card: expected {cards.MOVE_CARD}, got "
                                 f"{json_text(m['card'])}")
        check("fingerprint", obj.get("fingerprint") is None or isinstance(obj["fingerprint"], str),
              "the layout's rules fingerprint (a string)")
        check("seat", obj.get("seat") is None or isinstance(obj["seat"], str), "a seat's name (a string)")
        score = obj.get("score")
        check("score", score is None or (isinstance(score, str) and _is_fraction(score)),
              "a result such as '3/2' or '-1'")
        check("position", obj.get("position") is None or isinstance(obj["position"], dict),
              "an object: the position the game started from (docs/positions.md)")
        check("deal", obj.get("position") is None or not obj.get("deal"),
              "null when the result starts from a position")
        return cls(
            layout=obj["layout"], seed=seed, engine=obj.get("engine", "?"),
            verdict=obj["verdict"], reason=obj.get("reason"), stats=obj.get("stats") or {},
            deal=obj.get("deal") or {}, solution=solution, max_rank=max_rank,
            fingerprint=obj.get("fingerprint"), seat=obj.get("seat"), score=score,
            position=obj.get("position"),
        )


def _is_fraction(text: str) -> bool:
    from fractions import Fraction

    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        return False
    return len(text) <= 40
