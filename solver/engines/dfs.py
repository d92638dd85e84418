"""Depth-first search with a memoised transposition table, over any ``Position``.

The search is complete: it returns ``won`` with the moves that win, ``lost``
when every reachable position was explored (or cut by a sound bound), and
``unknown`` with the limit named when a node, time or memory limit stopped it.

The table remembers the keys of positions already entered.  In an acyclic
game every such position either is on the current line or was searched to
the end without a win, so meeting it again can be skipped.  Keys on the
current line are kept apart, so cycles are cut even after eviction.

Restarts (``Restarts``, on by default in the ``dfs`` engine): the search runs
in rounds with growing node budgets and a lightly shaken move order, keeping
the table between rounds, so one bad early turn cannot swallow the budget of a
won deal; verdicts stay exactly as complete (measured: colorado seeds the
plain search left unknown at 15 s were won; black-hole and golf unchanged).

Eviction: the table holds at most ``max_entries`` keys.  When it is full,
the older half (in insertion order) is dropped.  A dropped key only means
that its position may be searched again: more work, never a wrong verdict.

Learning (positions with ``learns``, ``solver.families.base.LearningPosition``): a
lost subtree is often lost for a reason much smaller than its position.  A family
states up to two kinds of *claim* about the lines of play from a position, each at a
*horizon* ``L``, a point of the game's clock (0: no claim), such that a position
with either claim is lost; kind 0 must imply kind 1 at the same horizon.  Each
exhausted position gets a pair of horizons: a position cut by a bound takes the
bound's (``pos.horizons``), a position without a legal move ``stuck_horizon()`` for
both, one met in the table the pair stored with it, one on the current line (0, 0),
and a searched position, kind by kind, the earliest of its children's (the lowest
clock, which is the latest point), and no later than its own ``stuck_horizon()``.
The family proves each kind of claim from its children's (its dominances and bounds
keep the lines the claim speaks of).  The family's ``learned_key(kind, L)`` keeps
only what that claim rests on, and its proof says why positions with equal learned
keys share the claim: so every position whose learned key of a kind at ``L`` was
learned is cut at once, lost with that horizon (and, from a claim of kind 0, the
same horizon of kind 1).  A position probes only the horizons learned at its own
``clock()`` (the first ``dfs_core.PROBES`` of each kind).

Learning costs: probing writes up to ``2 * PROBES`` learned keys at every position,
and the claims of kind 1 need decisions taken in a fixed order, which finds wins
later.  So the ``dfs`` engine (``run_dfs``) searches first without learning and
without the family's costly bounds (``strong_bounds``: where nothing is learned they
cost more time than they save, and without them the first search is, node for node,
the one the engine made before learning existed), for ``PLAIN_NODES`` nodes, and
learns only in a second search of the deals the first did not decide.  A deal the
costly bounds decide at once goes straight to the second search.  The split is by
nodes, not by time: a time limit of ``T`` seconds gives the first search at most
``PLAIN_RATE * T`` nodes (about three quarters of ``T`` here: a short limit still
leaves the second search time to learn), a node limit at most half its nodes.  So a
longer limit searches everything a shorter one did: its first search goes on past the
shorter's, and its second, a fresh search the same node for node, has more time.

The loop is written once, in ``dfs_core`` (one source: compiled where it is built, interpreted
otherwise): ``dfs`` runs it over the position's Python methods (any ``Position``), and
``compiled_dfs``, the compiled core (issue #15), over a compiled position's C methods with the
table in C (``_dfs.pyx``), the same search node for node; ``run_dfs`` picks the compiled core
where it is available (``solver.engines.core``, the ``core`` option).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..families import AnyLayout, family_of
from ..families.base import Position, slack, solution_json
from ..limits import Limits
from ..result import BOUND, LEARNED, SEARCH, EngineRun, Verdict, bound_name
from .core import start_position
from .dfs_core import Search, luby  # noqa: F401 (luby: the restarts' budgets, for the tests)

# Seconds between two calls of a ``progress`` callback (about: the clock is read every 1024 nodes).
PROGRESS_EVERY = 0.5
# ``progress(stats)``: a live report of a running search (see ``dfs``).
Progress = Callable[[dict[str, float | int]], None]

# Nodes ``run_dfs`` searches without learning before it searches again with it ("Learning"):
# about 45 s here, so that every deal the engine decided in 60 s before learning existed still is.
PLAIN_NODES = 24_000_000
# ... and at most this many per second of a time limit (``run_dfs``): 4 million at 10 s.
PLAIN_RATE = 400_000
# Bytes a table entry costs on average (key object plus dict slot), measured
# on debutante keys; used to turn --max-memory into an entry count.
BYTES_PER_ENTRY = 400


def max_entries(limits: Limits) -> int | None:
    """The table size that ``limits.max_memory`` allows."""
    return None if limits.max_memory is None else max(64, limits.max_memory // BYTES_PER_ENTRY)


@dataclass
class Outcome:
    verdict: Verdict
    reason: str | None = None
    moves: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    table_size: int = 0
    evictions: int = 0
    max_depth: int = 0  # the most pushes (moves, forced moves, decisions) from the start of any position entered
    deepest: list[Any] = field(default_factory=list)  # the pushes that first reached ``max_depth``
    cuts: dict[str, int] = field(default_factory=dict)  # positions each bound (by its reason) cut
    learned: int = 0  # positions cut by a learned key


class _Table:
    """Keys of positions already entered, each with its horizons (kind 0 in the low byte, kind 1
    above: 0 claims nothing), bounded by ``max_entries``: the older half goes when it is full."""

    def __init__(self, max_entries: int | None):
        self.max_entries = max_entries
        self.keys: dict[Any, int] = {}
        self.evictions = 0

    def add(self, key: Any, horizons: int = 0) -> None:
        self.keys[key] = horizons
        if self.max_entries is not None and len(self.keys) > self.max_entries:
            keep = list(self.keys.items())[len(self.keys) // 2:]
            self.keys = dict(keep)
            self.evictions += 1


@dataclass
class Restarts:
    """Restart the search now and then, with the move order shaken a little.

    A depth-first search that takes a bad early turn in a won deal can spend
    its whole budget under that turn.  With restarts, run ``i`` may search at
    most ``base * luby(i)`` nodes (the Luby sequence 1, 1, 2, 1, 1, 2, 4, ...)
    before starting again from the root; from the second run on, at each
    position the first move is swapped with another at random with
    probability ``noise``.  The table of exhausted positions is kept across
    runs: a position enters it only when its whole subtree was searched
    without a win, whatever run did it, so later runs never search it again
    and a run that exhausts the root proves the deal lost, as a single
    search would.  ``seed`` fixes the shaking, so runs repeat exactly.
    """

    base: int = 100
    noise: float = 0.08
    seed: int = 0


def dfs(pos: Position, limits: Limits | None = None, *, use_forced: bool = True,
        use_bounds: bool = True, restarts: Restarts | None = None,
        progress: Progress | None = None, progress_every: float | None = None, table: _Table | None = None,
        on_learned: Callable[[Position], None] | None = None) -> Outcome:
    """Search ``pos`` depth first; ``pos`` is restored to where it started.

    With ``restarts``, the search is a series of runs with growing node
    budgets (see ``Restarts``); the last verdict is as complete as without.
    ``progress``, if given, is called about every ``progress_every`` seconds (default
    ``PROGRESS_EVERY``) with
    ``seconds``, ``nodes``, ``nodes_per_second``, ``depth`` (moves from the start
    of the search) and ``table`` (positions in the transposition table); the
    clock is read every 1024 nodes, as for the timeout.  ``table``: the table of
    earlier searches to start from and add to (``SharedTable``); None: a new one
    bounded by ``limits.max_memory``.  ``on_learned``, if given, is called with
    the position at each cut by a learned key (for tests).

    The loop is ``dfs_core.Search`` over the position's Python methods (compiled where it is
    built, whatever the position).
    """
    limits = limits or Limits()
    entries = max_entries(limits)
    if use_bounds and pos.learns and entries is not None:  # the learned keys share the memory
        entries = max(64, entries // 2)
    search = Search(pos, False, _Table(entries) if table is None else table, _Table(entries), use_forced,
                    use_bounds, random.Random(restarts.seed if restarts else 0), on_learned)
    return _outcome(search, limits, restarts, progress, progress_every)


def compiled_dfs(pos: Any, limits: Limits | None = None, *, use_forced: bool = True, use_bounds: bool = True,
                 restarts: Restarts | None = None, progress: Progress | None = None,
                 max_entries: int | None = None, progress_every: float | None = None, table: Any = None) -> Outcome:
    """``dfs`` over a compiled position's C methods (``solver.families.core.CorePosition``, with
    ``dfs_core`` compiled): the same search node for node, with the same ``Outcome`` (moves as
    codes) and the same ``progress`` reports, its tables ``_dfs.KeyTable``s.

    ``max_entries`` bounds the table; by default ``limits.max_memory`` divided by what an
    entry of the compiled table costs (``_dfs.table_bytes_per_entry``).  ``table``: a compiled
    table (``_dfs.KeyTable``) of earlier searches to start from and add to (``SharedTable``).
    """
    from ._dfs import KeyTable, table_bytes_per_entry  # the extension: imported only where it is built

    limits = limits or Limits()
    if max_entries is None and limits.max_memory is not None:
        max_entries = max(64, limits.max_memory // table_bytes_per_entry(len(pos.key())))
    if use_bounds and pos.learns and max_entries is not None:  # the learned keys share the memory
        max_entries = max(64, max_entries // 2)
    most = -1 if max_entries is None else max_entries
    search = Search(pos, True, KeyTable(most) if table is None else table, KeyTable(most), use_forced, use_bounds,
                    random.Random(restarts.seed if restarts else 0))
    return _outcome(search, limits, restarts, progress, progress_every)


def _outcome(search: Search, limits: Limits, restarts: Restarts | None, progress: Progress | None,
             progress_every: float | None) -> Outcome:
    verdict, reason, moves, nodes, seconds, size, evictions, _, max_depth, deepest, cuts, learned = search.run(
        limits.max_nodes, limits.timeout, None if restarts is None else (restarts.base, restarts.noise), progress,
        PROGRESS_EVERY if progress_every is None else progress_every)
    return Outcome(verdict, reason, moves, nodes, seconds, size, evictions, max_depth, deepest, cuts, learned)


class SharedTable:
    """The exhausted keys of searches kept for the next ones, on one game (``solver.analysis``).

    A key the search exhausts is a position from which it found no win, searching everything
    under it.  In a game where no position can come back (no cycle) nothing under it was cut
    for lying on the current line, so it is a lost position, whatever search met it and from
    whatever start (the bounds' and dominances' cuts are sound from any position).  Searches
    from other positions of the same game may skip it too, provided a key means the same
    position from any of their starts.  Both are the family's to promise
    (``GameFamily.shares_table``); the caller checks it.  One table per core (their keys
    differ), made by the first search on it and bounded by that search's ``limits.max_memory``.
    """

    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}

    def table(self, core: str, pos: Any, limits: Limits) -> Any:
        if core not in self.tables:
            if core == "compiled":
                from ._dfs import KeyTable, table_bytes_per_entry

                most = -1 if limits.max_memory is None else max(
                    64, limits.max_memory // table_bytes_per_entry(len(pos.key())))
                self.tables[core] = KeyTable(most)
            else:
                self.tables[core] = _Table(max_entries(limits))
        return self.tables[core]

    def __len__(self) -> int:
        return sum(len(t.keys) if isinstance(t, _Table) else len(t) for t in self.tables.values())


def run_dfs(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """The ``dfs`` engine: the search from the family's start position, with restarts unless
    ``restarts=False`` (``random_seed`` and ``restart_noise`` set their seed and noise);
    ``use_forced``/``use_bounds`` switch the dominances and bounds off; ``progress`` and
    ``progress_every`` are ``dfs``'s;
    ``core`` chooses the compiled or the pure-Python search (``core.CORES``, or ``auto``: compiled where
    it is built and the family has a compiled position; any other is refused); ``shared``, a
    ``SharedTable`` to start from and add to (only where ``GameFamily.shares_table`` says so).

    Its stats (``search_stats``): the table, the core, what decided the deal, the deepest depth, the
    cuts of each bound and, for an unknown, the slack of the family's bound where it has one."""
    pos, core = start_position(layout, deal, options.get("core") or "auto")
    restarts = None
    if options.get("restarts", True):
        restarts = Restarts(seed=options.get("random_seed") or 0)
        if options.get("restart_noise") is not None:
            restarts.noise = options["restart_noise"]
    shared = options.get("shared")
    table = None if shared is None else shared.table(core, pos, limits)
    search = compiled_dfs if core == "compiled" else dfs
    use_bounds = options.get("use_bounds", True)
    common: dict[str, Any] = {"use_forced": options.get("use_forced", True), "restarts": restarts,
                              "progress": options.get("progress"), "progress_every": options.get("progress_every")}
    plain = options.get("plain_nodes", plain_nodes(limits))
    narrowed, asked = None, limits  # a first search over fewer moves, that only wins (``_narrowed``)
    if (table is None and options.get("narrow", True) and (limits.timeout or limits.max_nodes)
            and getattr(pos, "set_narrow", None) and pos.set_narrow(True)):
        narrowed = _narrowed(search, pos, limits, use_bounds, common)
        limits = _rest(limits, narrowed)
    if narrowed is not None and (narrowed.verdict == "won" or _spent(limits)):
        out = narrowed
    elif pos.learns and use_bounds and plain and table is None and pos.is_dead() is None:
        out = _plain_then_learning(search, pos, limits, plain, common)
    else:  # learning from the first node, or nothing to learn, or decided by the costly bounds at once
        out = search(pos, limits, use_bounds=use_bounds, table=table, **common)
    if narrowed is not None and out is not narrowed:
        out = _joined(narrowed, out)
    if narrowed is not None:
        _reason_asked(out, asked)
    solution = solution_json(pos, out.moves) if out.verdict == "won" else None
    stats: dict[str, Any] = {"table": out.table_size, "evictions": out.evictions, "core": core,
                             **search_stats(out)}
    if pos.learns:
        stats["learned"] = out.learned
    if out.verdict == "unknown":
        reference = pos if core == "python" else family_of(layout).start_position(layout, deal)
        stats.update(line_slack(reference, out.deepest, None if core == "python" else pos))
    return EngineRun(out.verdict, out.reason, solution, out.nodes, stats)


def _narrowed(search: Callable[..., Outcome], pos: Any, limits: Limits, use_bounds: bool,
              common: dict[str, Any]) -> Outcome:
    """``run_dfs``'s first search where the position narrows its moves (``set_narrow``: a
    subset of the legal moves, so a win it finds is a win, and nothing else it says is kept):
    with half the limits and a table of its own (what it exhausts is not lost).  Spider: the
    moves of groups onto cards of another suit that turn nothing up keep a full search wandering
    through millions of arrangements (measured: 0 of 20 deals won at 30 s); without them the
    search builds suits."""
    try:
        out = search(pos, Limits(None if limits.max_nodes is None else limits.max_nodes // 2,
                                 None if limits.timeout is None else limits.timeout / 2, limits.max_memory),
                     use_bounds=use_bounds, **common)
    finally:
        pos.set_narrow(False)
    if out.verdict == "lost":  # lost with fewer moves says nothing of the game
        out.verdict, out.reason = "unknown", "narrowed"
    return out


def _rest(limits: Limits, first: Outcome) -> Limits:
    """What ``limits`` leave after the search ``first``."""
    return Limits(None if limits.max_nodes is None else limits.max_nodes - first.nodes,
                  None if limits.timeout is None else limits.timeout - first.seconds, limits.max_memory)


def _spent(limits: Limits) -> bool:
    """Nothing is left of ``limits``."""
    return ((limits.max_nodes is not None and limits.max_nodes <= 0)
            or (limits.timeout is not None and limits.timeout <= 0))


def plain_nodes(limits: Limits) -> int:
    """The nodes of ``run_dfs``'s first search (without learning) under ``limits``: ``PLAIN_NODES``,
    at most ``PLAIN_RATE`` per second of a time limit (a node limit halves it in the search)."""
    if limits.timeout is None:
        return PLAIN_NODES
    return max(1, min(PLAIN_NODES, int(PLAIN_RATE * limits.timeout)))


def _plain_then_learning(search: Callable[..., Outcome], pos: Any, limits: Limits, plain: int,
                         common: dict[str, Any]) -> Outcome:
    """``run_dfs``'s two searches ("Learning"): without learning nor the costly bounds for ``plain``
    nodes (at most half a node limit), then, undecided and with limits left, with both."""
    pos.learns = pos.strong_bounds = False
    try:
        first = search(pos, Limits(plain if limits.max_nodes is None else min(plain, limits.max_nodes // 2),
                                   limits.timeout, limits.max_memory), use_bounds=True, **common)
    finally:
        pos.learns = pos.strong_bounds = True
    rest = _rest(limits, first)
    out = first if first.verdict != "unknown" or _spent(rest) else _joined(first, search(pos, rest, **common))
    return _reason_asked(out, limits)


def _reason_asked(out: Outcome, limits: Limits) -> Outcome:
    """``out`` of searches that shared ``limits``, unknown for the limit asked for, not for
    what a search had left."""
    if out.verdict == "unknown" and out.reason:
        if out.reason.startswith("timeout") or (out.reason == "narrowed" and limits.timeout):
            out.reason = f"timeout {limits.timeout:g} s"
        elif out.reason.startswith("max-nodes") or out.reason == "narrowed":
            out.reason = f"max-nodes {limits.max_nodes}"
    return out


def _joined(first: Outcome, second: Outcome) -> Outcome:
    """One outcome of two searches of the same deal, the second's verdict (``run_dfs``)."""
    cuts = dict(first.cuts)
    for k, v in second.cuts.items():
        cuts[k] = cuts.get(k, 0) + v
    deeper = second if second.max_depth >= first.max_depth else first
    return Outcome(second.verdict, second.reason, second.moves, first.nodes + second.nodes,
                   first.seconds + second.seconds, second.table_size, first.evictions + second.evictions,
                   deeper.max_depth, deeper.deepest, cuts, second.learned)


def search_stats(out: Outcome) -> dict[str, Any]:
    """What a search's result says of how it went (the ``stats`` of ``dfs``'s results):

    - ``decided_by`` (won or lost): ``search``, or ``bound at the deal`` when a bound cut the deal
      itself, with ``bound`` its name (``solver.result.bound_name`` of the reason), or ``learned``
      for a loss whose search cut positions by learned keys ("Learning" above);
    - ``max_depth``: the most pushes (moves, forced moves, decisions) from the deal to a position
      the search entered;
    - ``cuts``: per bound name, how many positions the bound cut (each at most once while the
      table keeps it), the deal's own cut included.
    """
    stats: dict[str, Any] = {}
    if out.verdict == "lost" and out.reason is not None:
        stats.update(decided_by=BOUND, bound=bound_name(out.reason))
    elif out.verdict == "lost" and out.learned:
        stats["decided_by"] = LEARNED
    elif out.verdict != "unknown":
        stats["decided_by"] = SEARCH
    cuts: dict[str, int] = {}
    for reason, n in out.cuts.items():
        cuts[bound_name(reason)] = cuts.get(bound_name(reason), 0) + n
    return {**stats, "max_depth": out.max_depth, "cuts": cuts}


def line_slack(reference: Any, line: list[Any], compiled: Any = None) -> dict[str, int]:
    """``slack_at_root``: the slack of the family's bound at the deal (``Position.slack`` in
    ``solver.families.base``); ``slack_on_line``: the least slack over the positions of ``line``
    (the search's deepest) that no bound cut.  Empty where the family cannot say.

    ``reference`` is the family's Python position at the deal; ``line`` the moves from it, or,
    with ``compiled`` (the compiled position at the deal), the compiled search's move codes,
    replayed on both in step.  Both positions are left as they were."""
    root = slack(reference)
    if root is None:
        return {}
    least = root
    for m in line:
        if compiled is not None:
            ref_move = compiled.reference_move(m)
            compiled.push(m)
            m = ref_move
        reference.push(m)
        here = slack(reference)
        if here is not None and reference.is_dead() is None:
            least = min(least, here)
    for _ in line:
        reference.pop()
        if compiled is not None:
            compiled.pop()
    return {"slack_at_root": root, "slack_on_line": least}
