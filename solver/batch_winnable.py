"""Lists of winnable deals from a batch database (``patience report DB --winnable``).

A list is the seeds one engine proved ``won`` for one layout under one set of rules (a
database holding several layouts or engines needs ``--layout`` or ``--engine`` to pick
one); ``--engine any`` takes every engine's rows together: a seed is winnable when any engine
proved it won (each win is a proof, replayed), and counts as lost when one proved it lost.
Every ``won`` row was replayed by the referee when the batch stored it (``api.solve`` replays a
win before returning it; a win that does not replay stops the batch); ``verify`` replays the
stored solutions again, from the seed's deal.

Three forms:

- ``text``: one seed a line, ascending;
- ``pysolfc``: a Python module that sets ``SOLVABLE_SEEDS`` to a tuple of the seeds, eight a
  line, after a comment saying how many there are and which seeds the batch covered.  Only for
  layouts whose seed N is PySolFC's game number N (``pysolfc_numbering`` says why not);
- ``json``: the list with each seed's difficulty: the search's nodes and seconds to its first
  win (the stored row's: the engine stops at the first win) and a tier, ``easy``, ``medium`` or
  ``hard`` by thirds of the nodes within the list (``tier_bounds``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from .batch import _fingerprint_column, percentile
from .errors import InputError, VerificationFailed
from .families import AnyLayout
from .fingerprint import rules_fingerprint
from .layout import Layout
from .shuffles import PYSOLFC_MT_FROM, generator, words

TIERS = ("easy", "medium", "hard")
PER_LINE = 8  # seeds a line of the pysolfc module, as PySolFC's own list has them
ANY = "any"  # the engine filter that takes every engine's rows (``read``)


@dataclass(frozen=True)
class Won:
    """One winnable seed and what its first win cost."""

    seed: int
    nodes: int | None
    seconds: float | None
    solution_length: int | None


@dataclass(frozen=True)
class WinnableList:
    """The won seeds of one (layout, engine, rules) group of a batch database, and the seeds it covered."""

    layout: str
    rules_version: int
    fingerprint: str | None
    engine: str
    max_rank: int
    covered: tuple[int, ...]  # every seed stored for the group, whatever its verdict
    counts: dict[str, int]
    won: tuple[Won, ...]

    @property
    def seeds(self) -> list[int]:
        return [w.seed for w in self.won]


# ------------------------------------------------------------------ reading


def layout_names(conn: sqlite3.Connection) -> list[str]:
    return [name for name, in conn.execute("SELECT DISTINCT layout FROM results ORDER BY layout")]


def read(conn: sqlite3.Connection, meta: dict[str, str], db: str, layout: str | None = None,
         engine: str | None = None, seeds: Collection[int] | None = None) -> WinnableList:
    """The list of the one group left by the ``layout`` and ``engine`` filters, over ``seeds``
    (None: every seed stored); ``InputError`` when no group is left or several are (naming the
    option that picks one)."""
    fp = _fingerprint_column(conn)
    groups = conn.execute(f"SELECT DISTINCT layout, engine, rules_version, {fp} FROM results "
                          "ORDER BY layout, engine, rules_version").fetchall()
    if not groups:
        raise InputError(f"{db}: no deals stored yet ({meta.get('layout')}): no list to make")
    chosen = [g for g in groups if (layout is None or g[0] == layout) and (engine in (None, ANY) or g[1] == engine)]
    if engine == ANY:  # one group per layout and rules, every engine's rows in it
        chosen = sorted({(g[0], ANY, g[2], g[3]) for g in chosen})
    if not chosen:
        asked = " and ".join(f"{name} {value!r}" for name, value in (("layout", layout), ("engine", engine))
                             if value is not None)
        held = ", ".join(sorted({f"{g[0]} ({g[1]})" for g in groups}))
        raise InputError(f"{db}: no deals stored for {asked}; it holds {held}")
    for index, option in ((0, "--layout"), (1, "--engine")):
        names = sorted({g[index] for g in chosen})
        if len(names) > 1:
            what = "layouts" if index == 0 else "engines"
            raise InputError(f"{db}: holds deals of several {what} ({', '.join(names)}); pick one with {option}")
    if len(chosen) > 1:
        rules = ", ".join(f"rules version {g[2]} fingerprint {g[3] or '-'}" for g in chosen)
        raise InputError(f"{db}: holds {chosen[0][0]} results of several rules ({rules}); a list mixes no rules")
    name, eng, rules_version, fingerprint = chosen[0]
    where = "fingerprint IS ?" if fp == "fingerprint" else "? IS NULL"
    rows = conn.execute(
        "SELECT seed, verdict, nodes, seconds, solution_length FROM results "
        f"WHERE layout = ? AND (engine = ? OR ? = '{ANY}') AND rules_version = ? AND {where} ORDER BY seed",
        (name, eng, eng, rules_version, fingerprint)).fetchall()
    if eng == ANY:
        rows = one_row_a_seed(rows)
    if seeds is not None:
        wanted = set(seeds)
        rows = [r for r in rows if r[0] in wanted]
        if not rows:
            raise InputError(f"{db}: no {name} deals stored for --seeds {ranges_text(sorted(wanted))}")
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for row in rows:
        counts[row[1]] += 1
    return WinnableList(
        layout=name, rules_version=int(rules_version), fingerprint=fingerprint, engine=eng,
        max_rank=int(meta.get("max_rank", "13")) if meta.get("layout") == name else 13,
        covered=tuple(r[0] for r in rows), counts=counts,
        won=tuple(Won(r[0], r[2], r[3], r[4]) for r in rows if r[1] == "won"))


def one_row_a_seed(rows: list[Any]) -> list[Any]:
    """One row per seed (seed, verdict, nodes, ...) from the rows of several engines (``--engine any``):
    a won one if any engine
    proved the deal won (the one of fewest nodes), else a lost one (a proof too: no engine proved it
    won, and the engines never disagree: a disagreement stops a batch), else an unknown one."""
    best: dict[int, Any] = {}
    rank = {"won": 0, "lost": 1, "unknown": 2}
    for row in rows:
        seen = best.get(row[0])
        if seen is None or (rank[row[1]], row[2] or 0) < (rank[seen[1]], seen[2] or 0):
            best[row[0]] = row
    return [best[seed] for seed in sorted(best)]


def stored_results(conn: sqlite3.Connection, wl: WinnableList) -> Iterable[tuple[int, dict[str, Any]]]:
    """(seed, result JSON) of every won row of the list (with ``--engine any``, each seed's first)."""
    fp = _fingerprint_column(conn)
    where = "fingerprint IS ?" if fp == "fingerprint" else "? IS NULL"
    done: set[int] = set()
    for seed, text in conn.execute(
            f"SELECT seed, result FROM results WHERE layout = ? AND (engine = ? OR ? = '{ANY}') AND rules_version = ? "
            f"AND {where} AND verdict = 'won' ORDER BY seed",
            (wl.layout, wl.engine, wl.engine, wl.rules_version, wl.fingerprint)):
        if seed in done:
            continue
        done.add(seed)
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        if not isinstance(obj, dict):
            raise VerificationFailed(f"{wl.layout} seed {seed}: the stored result is not a result JSON object")
        yield seed, obj


def verify(conn: sqlite3.Connection, wl: WinnableList, layout: AnyLayout,
           check: Callable[[dict[str, Any], AnyLayout], str | None]) -> int:
    """Replay the stored solution of every seed of the list with ``check`` (``api.verify``: the seed's deal,
    the rules' fingerprint, then the referee); ``VerificationFailed`` on the first that fails.
    Returns how many were replayed."""
    replayed = 0
    listed = set(wl.seeds)
    for seed, obj in stored_results(conn, wl):
        if seed not in listed:  # left out by --seeds
            continue
        if obj.get("seed") != seed or obj.get("verdict") != "won":
            raise VerificationFailed(f"{wl.layout} seed {seed}: the stored result is of seed {obj.get('seed')!r}, "
                                     f"verdict {obj.get('verdict')!r}")
        problem = check(obj, layout)
        if problem is not None:
            raise VerificationFailed(f"{wl.layout} seed {seed}: the stored win does not replay: {problem}")
        replayed += 1
    return replayed


def same_rules(wl: WinnableList, layout: AnyLayout, db: str) -> None:
    """``InputError`` unless ``layout`` (the built-in layout of the list's name) has the list's rules."""
    if wl.fingerprint is not None:
        mine = rules_fingerprint(layout)
        if mine != wl.fingerprint:
            raise InputError(f"{db}: its {wl.layout} results are of rules fingerprint {wl.fingerprint}, but the "
                             f"layout {wl.layout!r} here has rules fingerprint {mine} (made from a file, with "
                             "--set, or by another version? give the same --layout FILE and --set KEY=VALUE): "
                             "cannot tell which deals its seeds are")
    elif layout.rules_version != wl.rules_version:
        raise InputError(f"{db}: its {wl.layout} results are of rules version {wl.rules_version}, but the layout "
                         f"here is rules version {layout.rules_version}: cannot tell which deals its seeds are")


# ----------------------------------------------------------- PySolFC's numbers


def pysolfc_numbering(layout: AnyLayout, seeds: Iterable[int]) -> str | None:
    """None when seed N of ``layout`` is PySolFC's game number N for every seed of ``seeds``;
    else why not, in words for a one-line error."""
    if not isinstance(layout, Layout):
        return f"layout {layout.name!r} is not dealt as PySolFC deals its games"
    gen = generator(layout)
    if gen == "pysolfc":
        return None
    game = layout.deal.pysolfc_game
    if gen in ("ms-freecell", "pysol") and game:
        # Both are PySolFC's numbers but at 32000: Microsoft's deals go on past it (PySolFC's
        # "ms N"), pysol-cards' numbering keeps Microsoft's generator for 32000 itself.
        beyond = [s for s in seeds if (s >= PYSOLFC_MT_FROM if gen == "ms-freecell" else s == PYSOLFC_MT_FROM)]
        if not beyond:
            return None
        return (f"layout {layout.name!r}: seed {beyond[0]} is not PySolFC's {game} game {beyond[0]} "
                f"({words(layout)}); list the seeds below {PYSOLFC_MT_FROM} only (--seeds)")
    return (f"layout {layout.name!r}: {words(layout)}, not PySolFC's game numbers; --format pysolfc is for "
            "layouts dealt as PySolFC deals (generator pysolfc)")


def ranges(seeds: Iterable[int]) -> list[tuple[int, int]]:
    """The runs of consecutive seeds of ascending ``seeds``, as (first, last)."""
    out: list[tuple[int, int]] = []
    for s in seeds:
        if out and s == out[-1][1] + 1:
            out[-1] = (out[-1][0], s)
        else:
            out.append((s, s))
    return out


def ranges_text(seeds: Iterable[int]) -> str:
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges(seeds)) or "none"


# --------------------------------------------------------------------- forms


def as_text(wl: WinnableList) -> str:
    return "".join(f"{s}\n" for s in wl.seeds)


def as_pysolfc(wl: WinnableList, game: str, numbering: str, settings: Collection[str] = ()) -> str:
    """The list as a Python module in the shape of PySolFC's seed lists; ``settings``: the
    ``--set KEY=VALUE`` the batch's layout was changed by, named in the header."""
    c = wl.counts
    head = [
        f"# {game}: deals proved winnable by patience-solver",
        "# (`patience report --winnable --format pysolfc`).",
        f"# Layout {wl.layout}, rules version {wl.rules_version}, rules fingerprint {wl.fingerprint or '-'}, "
        f"engine {wl.engine}.",
        *([f"# The layout changed by:{''.join(f' --set {kv}' for kv in settings)}"] if settings else []),
        f"# {numbering}.",
        "# Each win was replayed by the solver's referee.",
        "#",
        f"# {len(wl.won)} seeds, covering {ranges_text(wl.covered)}.",
        f"# Of the {len(wl.covered)} deals covered: {c['won']} won, {c['lost']} lost, "
        f"{c['unknown']} unknown (a search limit was hit).",
        "",
        "SOLVABLE_SEEDS = (",
    ]
    seeds = wl.seeds
    body = ["    " + " ".join(f"{s}," for s in seeds[i:i + PER_LINE]) for i in range(0, len(seeds), PER_LINE)]
    return "\n".join(head + body + [")"]) + "\n"


def tier_bounds(nodes: list[int]) -> tuple[int, int] | None:
    """The largest node counts of the easy and of the medium tier: the nearest-rank 1/3 and 2/3
    quantiles of ``nodes``.  A seed is easy up to the first, medium up to the second, hard above;
    equal counts share a tier, so ties can make the thirds uneven.  None for no counts."""
    if not nodes:
        return None
    low, high = percentile([float(n) for n in nodes], 1 / 3), percentile([float(n) for n in nodes], 2 / 3)
    assert low is not None and high is not None
    return int(low), int(high)


def tier(nodes: int | None, bounds: tuple[int, int] | None) -> str | None:
    if nodes is None or bounds is None:
        return None
    return TIERS[0] if nodes <= bounds[0] else TIERS[1] if nodes <= bounds[1] else TIERS[2]


def as_json(wl: WinnableList, numbering: str | None, replayed: int | None, settings: Iterable[str] = ()) -> str:
    bounds = tier_bounds([w.nodes for w in wl.won if w.nodes is not None])
    obj = {
        "layout": wl.layout, "settings": list(settings), "rules_version": wl.rules_version,
        "fingerprint": wl.fingerprint,
        "engine": wl.engine, "numbering": numbering,
        "covered": [list(r) for r in ranges(wl.covered)], "deals": len(wl.covered), **wl.counts,
        "tiers": None if bounds is None else {"easy_max_nodes": bounds[0], "medium_max_nodes": bounds[1]},
        "replayed": replayed,
        "seeds": [{"seed": w.seed, "nodes": w.nodes, "seconds": w.seconds, "solution_length": w.solution_length,
                   "tier": tier(w.nodes, bounds)} for w in wl.won],
    }
    return json.dumps(obj) + "\n"
