"""What ``patience analyse`` found about a played game: the ``Analysis`` record and its JSON.

The record apart from the algorithm (``solver.analysis``), so that what reads an analysis (the
viewer, ``solver.draw.viewer``) needs no search engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import InputError
from .result import EXIT_CODES, Verdict

# How a position's verdict was found (``Analysis.how``).
SEARCHED = "searched"  # a search from this position decided it
ON_LINE = "line"  # it lies on a winning line a search found from an earlier (or the same) position
PLAYED = "played"  # the game ends won: the moves played from here win
BEFORE = "before"  # a later position is won: the moves played from here lead to it
AFTER = "after"  # an earlier position is lost, and no move leaves a lost position for a won one
HOW = (SEARCHED, ON_LINE, PLAYED, BEFORE, AFTER)  # what ``Analysis.from_json`` accepts (or null)


@dataclass
class Analysis:
    """What ``analyse`` found (its JSON: ``to_json``).

    ``verdicts[k]`` and ``how[k]`` are about the position after ``k`` moves (``verdicts[0]``:
    the start).  ``first_losing_move`` is the index in ``moves`` of the move after which the
    game can no longer be won, played from a won position.  ``winning_line`` wins from the
    position after ``winning_line_from`` moves: just before the first losing move, or, with no
    losing move and the last position won, the last position (how to finish; empty when the
    game is won).
    """

    layout: str
    seed: int | None
    start: dict[str, Any]  # {"deal": ...} or {"position": ...}: the result contract's forms
    moves: list[dict[str, Any]]
    verdicts: list[Verdict]
    how: list[str | None]
    reasons: list[str | None]  # the argument of each searched lost position, the limit of an unknown
    first_losing_move: int | None
    winning_line: list[dict[str, Any]] | None
    winning_line_from: int | None
    stats: dict[str, Any] = field(default_factory=dict)
    max_rank: int | None = None
    fingerprint: str | None = None

    @property
    def lost_after(self) -> int | None:
        """The number of moves after which the game is first proved lost (0: the start), or None."""
        return next((k for k, v in enumerate(self.verdicts) if v == "lost"), None)

    @property
    def exit_code(self) -> int:
        """The verdict of the position after the last move: 0 won, 1 lost, 3 unknown."""
        return EXIT_CODES[self.verdicts[-1]]

    def lost_reason(self) -> str | None:
        """Why the first lost position is lost: the bound that proved it, or a complete search."""
        k = self.lost_after
        if k is None:
            return None
        return self.reasons[k] or "a complete search finds no win"

    @classmethod
    def from_json(cls, obj: Any, where: str = "analysis") -> Analysis:
        """An analysis read back from its JSON, every key's shape checked (``InputError`` naming
        it); whether its moves and its line are legal is for ``api.load_analysis`` to check."""

        def bad(key: str, expected: str) -> InputError:
            return InputError(f"{where}: {key}: expected {expected}")

        if not isinstance(obj, dict) or obj.get("kind") != "analysis":
            raise InputError(f"{where}: expected an analysis written by `patience analyse --json`")
        if not isinstance(obj.get("layout"), str):
            raise bad("layout", "a layout name")
        moves = obj.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, dict) and isinstance(m.get("move"), dict)
                                                  and m.get("verdict") in EXIT_CODES for m in moves):
            raise bad("moves", 'a list of {"move", "verdict", "how", "reason"}')
        start = obj.get("start")
        if not isinstance(start, dict) or start.get("verdict") not in EXIT_CODES:
            raise bad("start", 'an object with "verdict"')
        n = len(moves)
        for key, lo, hi, what in (("first_losing_move", 0, n - 1, "a move's index"),
                                  ("winning_line_from", 0, n, "a number of moves"), ("seed", 0, None, "a seed"),
                                  ("max_rank", 1, 13, "a reduced deck's top rank")):
            v = obj.get(key)
            if v is not None and not (type(v) is int and lo <= v and (hi is None or v <= hi)):
                raise bad(key, f"{what} ({lo}..{'' if hi is None else hi}) or null")
        line = obj.get("winning_line")
        if line is not None and not (isinstance(line, list) and all(isinstance(m, dict) for m in line)):
            raise bad("winning_line", "a list of moves or null")
        if (line is None) != (obj.get("winning_line_from") is None):
            raise bad("winning_line_from", "the number of moves before the winning line, with the line")
        if not all(p.get("how") in (None, *HOW) for p in (start, *moves)):
            raise bad("moves", f"each position's \"how\" one of {', '.join(HOW)}, or null")
        start_keys = {k: obj[k] for k in ("deal", "position") if k in obj}
        a = cls(obj["layout"], obj.get("seed"), start_keys, [m["move"] for m in moves],
                [start["verdict"], *(m["verdict"] for m in moves)],
                [start.get("how"), *(m.get("how") for m in moves)],
                [start.get("reason"), *(m.get("reason") for m in moves)],
                obj.get("first_losing_move"), line, obj.get("winning_line_from"),
                stats if isinstance(stats := obj.get("stats"), dict) else {}, obj.get("max_rank"),
                obj.get("fingerprint") if isinstance(obj.get("fingerprint"), str) else None)
        problem = a.contradiction()
        if problem is not None:
            raise InputError(f"{where}: the verdicts contradict each other: {problem}")
        if "lost_after" in obj and obj["lost_after"] != a.lost_after:
            raise bad("lost_after", f"{a.lost_after} (the first position proved lost), as the verdicts say")
        return a

    def contradiction(self) -> str | None:
        """What makes the verdicts impossible, or None: a won position after a lost one (no move
        leaves a lost position for a won one), a first losing move not from won to lost (or none
        named where one is), a winning line from a position not won."""
        v = self.verdicts
        k = self.lost_after
        if k is not None and any(x != "lost" for x in v[k:]):
            j = next(j for j in range(k, len(v)) if v[j] != "lost")
            return f"{_after(k)} is lost but {_after(j)} is {v[j]}"
        crossing = next((i for i in range(len(v) - 1) if v[i] == "won" and v[i + 1] == "lost"), None)
        if self.first_losing_move != crossing:
            said = "none" if self.first_losing_move is None else f"move {self.first_losing_move + 1}"
            real = "none" if crossing is None else f"move {crossing + 1}"
            return f"first_losing_move is {said}, but by the verdicts it is {real}"
        if self.winning_line_from is not None and v[self.winning_line_from] != "won":
            return f"the winning line starts from {_after(self.winning_line_from)}, which is " \
                   f"{v[self.winning_line_from]}, not won"
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": "analysis", "layout": self.layout, "seed": self.seed, **self.start,
            "start": {"verdict": self.verdicts[0], "how": self.how[0], "reason": self.reasons[0]},
            "moves": [{"move": m, "verdict": v, "how": h, "reason": r}
                      for m, v, h, r in zip(self.moves, self.verdicts[1:], self.how[1:], self.reasons[1:])],
            "first_losing_move": self.first_losing_move,
            "lost_after": self.lost_after,
            "lost_reason": self.lost_reason(),
            "winning_line": self.winning_line,
            "winning_line_from": self.winning_line_from,
            "stats": self.stats,
        }
        if self.max_rank is not None:
            out["max_rank"] = self.max_rank
        if self.fingerprint is not None:
            out["fingerprint"] = self.fingerprint
        return out


def _after(k: int) -> str:
    """The position after ``k`` moves, in words."""
    return "the start" if k == 0 else f"the position after move {k}"
