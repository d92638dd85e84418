"""Analyse a played game: the verdict after each move, the first losing move, a winning line.

A game is a start (a deal, or a position part-way through one) and the moves played from it, in
the result contract.  ``analyse`` replays them through the referee (an illegal move is bad input
naming its index) and decides the position at the start and after each move, as cheaply as four
facts allow:

* the position before a won one is won (the move played from it leads to a win), and every
  position after a lost one is lost (a move from a lost position leads only to lost ones): the
  verdicts are ``won`` up to a boundary and ``lost`` from there on, and the first losing move is
  the one that crosses it;
* a winning line found by a search from one position wins from every position on it: where the
  game follows the line, or meets a position on it by another order of moves (the referee's
  ``state`` tells), the position is won with the rest of the line, at no cost;
* a game that ends won was won all along, its own moves the winning line;
* between the last position known won and the first known lost, each search that wins moves
  the first bound, each that loses the second, so the boundary is found by bisection.

So the start is searched first (a lost start makes every position lost), then the last
position, then the boundary is bisected, in rounds of growing node budgets so that the
positions easy to decide are found first and a hard one does not hold up the others (measured
on debutante games: as fast as plain bisection, fewer positions left unknown in the same time).
A game of n moves costs the start's search and about log2(n) more where the positions near the
boundary are easy; the positions next to a losing move are often the hardest of the game to
decide (barely won, or barely lost), and a search cut by a limit leaves its position
``unknown``.  A boundary the searches cannot pin down is reported as such
(``first_losing_move`` null, the positions whose verdict stayed unknown named).  Where the
family proves it sound (``GameFamily.shares_table``) the searches share their table: what one
proved lost, the next ones skip.

Every winning line a search finds is replayed by the referee from its position before it is
used (a line that does not replay is a bug, ``VerificationFailed``); a ``lost`` comes from a
complete search or a sound bound, or from a lost position before it.

``hint`` is the same search on one position: the next move of a winning line, or why it is lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any

from .engines.dfs import SharedTable, run_dfs
from .errors import InputError, VerificationFailed
from .families import AnyLayout, family_of
from .fingerprint import rules_fingerprint
from .limits import Limits
from .result import EXIT_CODES, Verdict

# How a position's verdict was found (``Analysis.how``).
SEARCHED = "searched"  # a search from this position decided it
ON_LINE = "line"  # it lies on a winning line a search found from an earlier (or the same) position
PLAYED = "played"  # the game ends won: the moves played from here win
BEFORE = "before"  # a later position is won: the moves played from here lead to it
AFTER = "after"  # an earlier position is lost, and no move leaves a lost position for a won one
HOW = (SEARCHED, ON_LINE, PLAYED, BEFORE, AFTER)  # what ``Analysis.from_json`` accepts (or null)

# The bound of the table the searches share when ``limits.max_memory`` gives none: the oldest
# half is dropped when it is full, which costs time, never a verdict.
SHARED_MEMORY = 1 << 30

# The node budgets of the bisection's rounds before the last (which has the limits alone): 4 times
# more each round, so that the rounds before the last cost at most a third of it.
ROUNDS = tuple(10_000 * 4**r for r in range(6))

# ``progress(k, n, stats)``: a search from the position after move k (of n) reports ``stats``.
Progress = Callable[[int, int, dict[str, Any]], None]


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


def analyse(layout: AnyLayout, start: Any, moves: list[dict[str, Any]], *, seed: int | None = None,
            limits: Limits | None = None, budget: float | None = None, core: str = "auto",
            progress: Progress | None = None, where: str = "moves") -> Analysis:
    """Decide the start and the position after each of ``moves`` (see the module text).

    ``start`` is a deal or a position of ``layout``'s family; ``limits`` bound each search (one
    per position searched); ``budget``, seconds for the whole analysis (None: no limit): once
    spent, no more searches, and what is undecided stays ``unknown``.  ``core`` is the DFS's.
    An illegal move is an ``InputError`` naming ``where`` and its index.
    """
    t0 = time.perf_counter()
    family = family_of(layout)
    limits = limits or Limits()
    game = family.referee(layout, start)
    if game.problem:
        raise InputError(f"the start: {game.problem}")
    states: list[Hashable] = [game.state()]
    positions = [game.position()]
    for i, move in enumerate(moves):
        problem = game.play(move)
        if problem:
            raise InputError(f"{where}[{i}]: {problem}")
        states.append(game.state())
        positions.append(game.position())
    n = len(moves)
    work = _Work(layout, moves, states, positions, limits, core, progress, budget)
    if game.won():
        work.mark_played()
    else:
        work.search(0)
        if work.verdicts[0] != "lost":
            if work.verdicts[n] is None:
                work.search(n)
            work.bisect()
    first = work.first_losing_move()
    line_from = first if first is not None else n if work.verdicts[n] == "won" else None
    line = work.line_of(line_from) if line_from is not None else None
    shown = family.start_to_json(layout, start)
    if "position" in shown:
        shown["deal"] = None
    verdicts: list[Verdict] = [v or "unknown" for v in work.verdicts]
    stats = {"searches": work.searches, "nodes": work.nodes, "seconds": round(time.perf_counter() - t0, 4)}
    return Analysis(layout.name, seed, shown, list(moves), verdicts, work.how, work.reasons, first, line,
                    line_from, stats, family.max_rank(layout), rules_fingerprint(layout))


class _Work:
    """The verdicts found so far and how, with the winning lines they rest on."""

    def __init__(self, layout: AnyLayout, moves: list[dict[str, Any]], states: list[Hashable],
                 positions: list[Any], limits: Limits, core: str, progress: Progress | None,
                 budget: float | None):
        self.layout, self.moves, self.states, self.positions = layout, moves, states, positions
        self.limits, self.core, self.progress = limits, core, progress
        self.budget = budget
        self.deadline = None if budget is None else time.perf_counter() + budget
        n = len(moves)
        self.verdicts: list[Verdict | None] = [None] * (n + 1)
        self.how: list[str | None] = [None] * (n + 1)
        self.reasons: list[str | None] = [None] * (n + 1)
        self.lines: dict[int, list[dict[str, Any]]] = {}  # searched won positions: the line found
        self.via: dict[int, tuple[int, int]] = {}  # won position -> (m, j): the line of m from its move j on
        self.on_line: dict[Hashable, tuple[int, int]] = {}  # a referee state on the line of m, at move j
        self.final: set[int] = set()  # positions left unknown by a search cut by the limits
        self.searches = 0
        self.nodes = 0
        # What each search exhausted, for the next ones, where the family proves it sound.
        self.shared = SharedTable() if family_of(layout).shares_table(layout) else None
        if self.shared is not None and limits.max_memory is None:
            self.limits = replace(limits, max_memory=SHARED_MEMORY)

    # -------------------------------------------------------------- facts

    def mark_played(self) -> None:
        """The game ends won: every position is won, the moves played from it the line."""
        for k in range(len(self.verdicts)):
            self.verdicts[k], self.how[k] = "won", PLAYED

    def mark_won(self, k: int, line: list[dict[str, Any]]) -> None:
        """Position k is won by ``line`` (replayed): so is every position of the game that lies
        on a winning line found so far, and every position before a won one."""
        self.verdicts[k], self.how[k], self.reasons[k] = "won", SEARCHED, None
        self.lines[k] = line
        self._record_line(k, line)
        for j, state in enumerate(self.states):
            if self.verdicts[j] != "won" and state in self.on_line:
                self.verdicts[j], self.how[j], self.reasons[j] = "won", ON_LINE, None
                self.via[j] = self.on_line[state]
        last = max(j for j, v in enumerate(self.verdicts) if v == "won")
        for i in range(last):
            if self.verdicts[i] != "won":
                self.verdicts[i], self.how[i], self.reasons[i] = "won", BEFORE, None

    def mark_lost(self, k: int, reason: str | None) -> None:
        """Position k is lost: so is every position after it."""
        self.verdicts[k], self.how[k], self.reasons[k] = "lost", SEARCHED, reason
        for j in range(k + 1, len(self.verdicts)):
            if self.verdicts[j] != "lost":
                self.verdicts[j], self.how[j], self.reasons[j] = "lost", AFTER, None

    def _record_line(self, k: int, line: list[dict[str, Any]]) -> None:
        """Replay ``line`` from position k through the referee, noting every state on it."""
        family = family_of(self.layout)
        game = family.referee(self.layout, self.positions[k])
        self.on_line.setdefault(game.state(), (k, 0))
        for j, move in enumerate(line):
            problem = game.play(move)
            if problem:
                raise VerificationFailed(f"a winning line from the position after move {k} does not replay: {problem}")
            self.on_line.setdefault(game.state(), (k, j + 1))
        if not game.won():
            raise VerificationFailed(f"a winning line from the position after move {k} does not win: "
                                     f"{game.unfinished()}")

    # -------------------------------------------------------------- searches

    def spent(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def search(self, k: int, nodes: int | None = None) -> None:
        """Search position k (unless decided already), with at most ``nodes`` nodes (None: the
        limits' own), and note what it proves.  A search cut by ``nodes`` alone may be tried
        again with more (``bisect``); one cut by the limits is final."""
        if self.verdicts[k] is not None and self.verdicts[k] != "unknown":
            return
        limits = self.limits
        if nodes is not None and (limits.max_nodes is None or nodes < limits.max_nodes):
            limits = replace(limits, max_nodes=nodes)
        else:
            nodes = None
        if self.deadline is not None:
            left = self.deadline - time.perf_counter()
            if left <= 0:
                self.verdicts[k], self.how[k] = "unknown", None
                self.reasons[k] = f"not searched: the analysis's time limit ({self.budget:g} s) was spent"
                return
            if limits.timeout is None or limits.timeout > left:
                limits = replace(limits, timeout=left)
        self.searches += 1
        progress = None
        if self.progress is not None:
            report, total = self.progress, len(self.moves)

            def progress(stats: dict[str, Any]) -> None:
                report(k, total, stats)

            report(k, total, {})
        run = run_dfs(self.layout, self.positions[k], limits, core=self.core, progress=progress,
                      shared=self.shared)
        self.nodes += run.nodes
        if run.verdict == "won":
            self.mark_won(k, run.solution or [])
        elif run.verdict == "lost":
            self.mark_lost(k, run.reason)
        else:
            self.verdicts[k], self.how[k], self.reasons[k] = "unknown", SEARCHED, run.reason
            if nodes is None or run.reason != f"max-nodes {nodes}":
                self.final.add(k)

    def bounds(self) -> tuple[int, int]:
        """The last position known won (-1: none) and the first known lost (n + 1: none)."""
        won = [k for k, v in enumerate(self.verdicts) if v == "won"]
        lost = [k for k, v in enumerate(self.verdicts) if v == "lost"]
        return (max(won) if won else -1), (min(lost) if lost else len(self.verdicts))

    def bisect(self) -> None:
        """Search the positions between the bounds until the bounds meet, every position
        between them stays unknown at the limits, or the time is spent.

        In rounds of growing node budgets (``ROUNDS``, then the limits alone): the positions
        easy to decide are found first wherever they lie, and a hard one does not stop the
        search of the others.  Within a round, each search is the position farthest from the
        bounds and from those searched in the round: the middle first, then the middles of the
        gaps; every search that wins moves the first bound, every one that loses the second.
        """
        for nodes in (*ROUNDS, None):
            tried: set[int] = set()
            while not self.spent():
                lo, hi = self.bounds()
                left = [k for k in range(lo + 1, hi) if k not in self.final and k not in tried]
                if not left:
                    break
                done = sorted({lo, hi} | {k for k in range(lo + 1, hi) if k in tried or k in self.final})
                gaps = [(b - a, a) for a, b in zip(done, done[1:]) if b - a > 1]
                width, a = max(gaps, key=lambda g: (g[0], -g[1]))
                k = a + width // 2
                tried.add(k)
                self.search(k, nodes)

    # -------------------------------------------------------------- answers

    def first_losing_move(self) -> int | None:
        """The index of the move from a won position to a lost one, if there is one."""
        lo, hi = self.bounds()
        return hi - 1 if 0 <= lo == hi - 1 and hi < len(self.verdicts) else None

    def line_of(self, k: int) -> list[dict[str, Any]]:
        """A winning line from won position k."""
        if self.how[k] == PLAYED:
            return list(self.moves[k:])
        if k in self.lines:
            return list(self.lines[k])
        if k in self.via:
            m, j = self.via[k]
            return list(self.lines[m][j:])
        m = next(i for i in range(k + 1, len(self.verdicts)) if i in self.lines or i in self.via)
        return list(self.moves[k:m]) + self.line_of(m)  # BEFORE: the moves played reach m


@dataclass
class Hint:
    """What ``hint`` found: the verdict of one position, the next move of a winning line (and the
    line), or the argument that it is lost, or the limit that stopped the search."""

    layout: str
    verdict: Verdict
    reason: str | None
    line: list[dict[str, Any]] | None
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def move(self) -> dict[str, Any] | None:
        return self.line[0] if self.line else None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    def why(self) -> str | None:
        """Why the position is lost (the bound, or a complete search), or why it stayed unknown."""
        if self.verdict == "lost" and self.reason is None:
            return f"a complete search of {self.stats.get('nodes', 0):,} positions finds no win"
        return self.reason

    def to_json(self) -> dict[str, Any]:
        return {"kind": "hint", "layout": self.layout, "verdict": self.verdict, "reason": self.why(),
                "move": self.move, "line": self.line, "stats": self.stats}


def hint(layout: AnyLayout, position: Any, *, limits: Limits | None = None, core: str = "auto",
         progress: Callable[[dict[str, Any]], None] | None = None) -> Hint:
    """The next move of a winning line from ``position`` (a deal or a position), replayed by the
    referee with the rest of the line; or the argument that proves it lost; or the limit hit."""
    t0 = time.perf_counter()
    family = family_of(layout)
    game = family.referee(layout, position)
    if game.problem:
        raise InputError(f"the position: {game.problem}")
    run = run_dfs(layout, position, limits or Limits(), core=core, progress=progress)
    line = run.solution if run.verdict == "won" else None
    if line is not None:
        problem = family.replay(layout, position, line)
        if problem is not None:
            raise VerificationFailed(f"a winning line from the position does not replay: {problem}")
    stats = {"nodes": run.nodes, "seconds": round(time.perf_counter() - t0, 4), **run.stats}
    return Hint(layout.name, run.verdict, run.reason, line, stats)
