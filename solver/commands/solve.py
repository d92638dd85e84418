"""``patience solve`` and ``patience verify``."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from .. import api
from ..engines import DESCRIPTIONS, ENGINES, USES_JOBS
from ..engines.core import CHOICES as CORES
from ..engines.portfolio import Disagreement
from ..errors import EngineDisagreement, InputError
from ..families import family_of
from ..files import RESULT_LIMIT, parse_json, read_text, shown
from ..limits import Limits
from ..live import LiveLine
from ..options import (
    DEFAULT_TIMEOUT,
    add_deal_source,
    add_layout,
    add_settings,
    add_timeout,
    fit_memory,
    load,
    memory_size,
    node_count,
    positive_workers,
    random_seed,
    recorded_layout,
    workers,
)
from ..result import EXIT_BAD_INPUT, EXIT_DISAGREEMENT, Result


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="decide whether a deal can be won",
                       description=textwrap.fill(
                           "Decide whether a deal can be won. Exit code 0 won, 1 lost, 3 unknown (a limit "
                           "was hit), 5 drawn (a game of chance that neither side wins with best play), 2 bad "
                           "input, 4 the engines disagree, 70 an internal error. On a terminal a live line on "
                           "stderr shows the search as it runs.", 78),
                       epilog=engines_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    add_layout(p)
    add_deal_source(p)
    p.add_argument("--engine", default=None, choices=list(ENGINES),
                   help=f"the engine (default: {DEFAULT_ENGINE} for a patience, --engine dfs for one repeatable "
                        "search; minimax for a game of chance; see below)")
    p.add_argument("--seat", default=None, metavar="SEAT",
                   help="a game of chance: the side the verdict is for (player or banker; casino: elder or "
                        "dealer; default the first)")
    p.add_argument("--json", action="store_true", help="print the result as JSON (the result contract)")
    add_limits(p, "the search")
    add_core(p)
    p.add_argument("--workers", type=workers, default=None, metavar="K",
                   help="CP-SAT search workers (default: CP-SAT's own choice; in --engine portfolio, 1)")
    p.add_argument("--jobs", type=positive_workers, default=None, metavar="N",
                   help="--engine portfolio: how many of its parts run at once, each in its own process "
                        "(default: every core, at most one per part)")
    p.add_argument("--random-seed", type=random_seed, default=None, metavar="S",
                   help="the random seed of CP-SAT (then run deterministically) and of the DFS's restarts")
    p.add_argument("--shortest", action="store_true",
                   help="a win with the fewest moves, by breadth-first search over the state graph (small or "
                        "reduced deals: it keeps every state it meets; --max-nodes bounds them)")
    p.set_defaults(handler=run_solve)

    p = sub.add_parser("verify", help="replay a result's solution and check every move",
                       description="Replay a result's solution (`patience solve --json`) move by move through the "
                                   "layout's referee, and check its deal (the seed's deal when it names a seed) and "
                                   "its rules fingerprint. Exit code 0 when every move is legal and the line ends as "
                                   "the verdict says; 2 naming the first illegal move or the first wrong key.")
    p.add_argument("result", help="a result JSON file written by `patience solve --json`")
    p.add_argument("--layout", help="the layout (default: the one the result names)")
    add_settings(p)
    p.set_defaults(handler=run_verify)


# `patience solve`'s engine: one deal on every core (docs/engines-and-proofs.md, "Engines: one process or several").
DEFAULT_ENGINE = "portfolio"


def default_engine(family: Any) -> str:
    """`patience solve`'s engine for a family: the portfolio where the family's own default is the
    DFS (the patiences: the DFS is one of the portfolio's parts), else the family's own (minimax for
    a game of chance, which the portfolio does not play)."""
    return DEFAULT_ENGINE if family.default_engine == "dfs" else str(family.default_engine)


def engines_epilog() -> str:
    width = max(map(len, DESCRIPTIONS))
    return "engines:\n" + "\n".join(f"  {name:<{width}}  {text}" for name, text in DESCRIPTIONS.items())


def add_limits(p: argparse.ArgumentParser, what: str, default_timeout: float = DEFAULT_TIMEOUT) -> None:
    p.add_argument("--max-nodes", type=node_count, metavar="N", help=f"stop {what} after N search nodes")
    add_timeout(p, what, default_timeout)
    p.add_argument("--max-memory", type=memory_size, metavar="SIZE",
                   help="bound the transposition table (e.g. 500M, 2G; at least 1M); the oldest half is "
                        "dropped when full, which costs time, never a verdict")


def add_core(p: argparse.ArgumentParser) -> None:
    p.add_argument("--core", choices=CORES, default="auto",
                   help="the search core (dfs; minimax on Casino): compiled (Cython) where the game's family has "
                        "one and the extension is built, else python (default: auto); `patience --version` says "
                        "which is built")


def limits_from(args: argparse.Namespace) -> Limits:
    return Limits(max_nodes=args.max_nodes, timeout=args.timeout, max_memory=fit_memory(args.max_memory))


def engine_options(args: argparse.Namespace) -> dict:
    opts = {}
    if getattr(args, "workers", None) is not None:
        opts["workers"] = args.workers
    if getattr(args, "random_seed", None) is not None:
        opts["random_seed"] = args.random_seed
    if getattr(args, "core", "auto") != "auto":
        opts["core"] = args.core
    if getattr(args, "seat", None) is not None:
        opts["seat"] = args.seat
    return opts


def run_solve(args: argparse.Namespace) -> int:
    if getattr(args, "shortest", False):
        if args.engine not in (None, "dfs"):
            raise InputError(f"--shortest runs its own breadth-first search: leave out --engine {args.engine}")
        return run_shortest(args, *load(args))
    layout, deal = load(args)
    limits = limits_from(args)
    family = family_of(layout)
    engine = args.engine or default_engine(family)
    if args.jobs is not None and engine not in USES_JOBS:
        raise InputError(f"--jobs: only --engine {' or '.join(sorted(USES_JOBS))} runs in several processes, "
                         f"not --engine {engine}")
    if args.seat is not None and args.seat not in family.seats(layout):
        raise InputError(f"--seat: layout {layout.name!r} has the seats {', '.join(family.seats(layout))}, "
                         f"got {args.seat!r}")
    what = layout.name + (f" #{args.seed}" if args.seed is not None else "")
    try:
        with LiveLine(f"{what} ({engine}): ") as live:
            live.show("solving" + (f", at most {limits.timeout:g} s" if limits.timeout is not None else ""))
            options = engine_options(args)
            if args.jobs is not None:
                options["jobs"] = args.jobs
            result = api.solve(layout, seed=args.seed, deal=deal, engine=engine,
                               limits=limits, progress=live, **options)
    except EngineDisagreement as e:  # --engine both: print both results, exit 4
        for r in e.results(layout, args.seed, deal) if isinstance(e, Disagreement) else []:
            print(json.dumps(r.to_json()) if args.json else format_result(r, layout))
        print(f"patience: error: {e}", file=sys.stderr)
        return EXIT_DISAGREEMENT
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_result(result, layout))
    return result.exit_code


def run_shortest(args: argparse.Namespace, layout: Any, deal: Any) -> int:
    """``--shortest``: the breadth-first shortest win of ``solver.graph``, replayed by the referee."""
    from ..graph import solve_shortest

    what = layout.name + (f" #{args.seed}" if args.seed is not None else "")
    with LiveLine(f"{what} (shortest win): ") as live:
        result = solve_shortest(layout, deal, args.seed, limits_from(args), progress=live)
    print(json.dumps(result.to_json()) if args.json else format_result(result, layout))
    return result.exit_code


def format_stat(key: str, value: Any) -> str:
    """One statistic for the text output: a dict as ``key (name n, ...)``, a list of parts or phases
    as ``key (name verdict, ...)``."""
    if isinstance(value, dict):
        return f"{key} ({', '.join(f'{k} {v}' for k, v in value.items()) or 'none'})"
    if isinstance(value, list):
        said = [f"{p.get('part') or p.get('engine')} "
                f"{p.get('verdict') or next((k for k in ('failed', 'skipped', 'stopped') if k in p), '?')}"
                for p in value if isinstance(p, dict)]
        return f"{key} ({', '.join(said)})"
    return f"{key} {value}"


def format_result(result: Result, layout: Any = None) -> str:
    what = f"{result.layout}" + (f" #{result.seed}" if result.seed is not None else "")
    stats = ", ".join(format_stat(k, v) for k, v in result.stats.items())
    seat = f" for the {result.seat}" if result.seat else ""
    if result.score is not None:
        seat += f", {result.score} with best play on both sides"
    elif result.seat and "score_at_least" in result.stats:  # the sign alone (Casino): a bound
        seat += f", at least {result.stats['score_at_least']} with best play on both sides"
    elif result.seat and "score_at_most" in result.stats:
        seat += f", at most {result.stats['score_at_most']} with best play on both sides"
    head = (f"{what}: {result.verdict}{seat}" + (f" ({result.reason})" if result.reason else "")
            + f"  [{stats}]")
    lines = [head]
    drawn = family_of(layout).format_solution(layout, result) if result.solution and layout is not None else None
    if drawn is not None:  # the family draws its own (peg boards)
        return "\n".join([head, drawn])
    for i, m in enumerate(result.solution or [], 1):
        count = f" ({m['count']} cards)" if m.get("count", 1) > 1 else ""
        lines.append(f"{i:4}. {m['card']} from {m['from']} to {m['to']}{count}")
    return "\n".join(lines)


def read_result(path: str, analysis: bool = False) -> dict[str, Any]:
    """A result JSON file as ``patience solve --json`` writes it, every key checked
    (``Result.from_json``); at most ``files.RESULT_LIMIT`` bytes.  With ``analysis``, an analysis
    (``patience analyse --json``) is passed through unchecked (``api.load_analysis`` checks it)."""
    text = read_text(path, RESULT_LIMIT, "result file", "the JSON of `patience solve --json`")
    where = shown(path)
    obj = parse_json(text, where)
    if not (analysis and isinstance(obj, dict) and obj.get("kind") == "analysis"):
        Result.from_json(obj, where)
    return obj


def run_verify(args: argparse.Namespace) -> int:
    path = shown(args.result)
    result = Result.from_json(read_result(args.result), path)
    problem = api.verify(result, recorded_layout(args, result.layout, result.max_rank))
    if problem is not None:
        print(f"patience: error: {path}: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if result.seat is not None:
        ends = f"at {result.score}" if result.score is not None else "on the verdict's side"
        print(f"{path}: all {len(result.solution or [])} moves legal; the line ends {ends} for the "
              f"{result.seat}: {result.verdict}")
        return 0
    if result.verdict != "won":
        print(f"{path}: verdict {result.verdict!r}: there is no solution to replay; the deal and the rules check")
        return 0
    print(f"{path}: all {len(result.solution or [])} moves legal; the game is won")
    return 0
