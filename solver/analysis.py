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

from .analysis_record import AFTER, BEFORE, ON_LINE, PLAYED, SEARCHED, Analysis
from .engines.dfs import SharedTable, run_dfs
from .errors import InputError, VerificationFailed
from .families import AnyLayout, family_of
from .fingerprint import rules_fingerprint
from .limits import Limits
from .result import EXIT_CODES, Verdict

# The bound of the table the searches share when ``limits.max_memory`` gives none: the oldest
# half is dropped when it is full, which costs time, never a verdict.
SHARED_MEMORY = 1 << 30

# The node budgets of the bisection's rounds before the last (which has the limits alone): 4 times
# more each round, so that the rounds before the last cost at most a third of it.
ROUNDS = tuple(10_000 * 4**r for r in range(6))

# ``progress(k, n, stats)``: a search from the position after move k (of n) reports ``stats``.
Progress = Callable[[int, int, dict[str, Any]], None]


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
