"""``patience analyse`` (where did a played game go wrong?) and ``patience hint`` (what next?)."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from .. import api
from ..analysis import Hint
from ..analysis_record import PLAYED, Analysis
from ..errors import InputError
from ..limits import Limits
from ..live import LiveLine, format_stat
from ..options import (
    add_deal_source,
    add_layout,
    add_moves,
    add_out,
    add_timeout,
    emit,
    fit_memory,
    layout_arg,
    load,
    memory_size,
    node_count,
    seconds_or_none,
)
from .solve import add_core, add_limits, limits_from
from .solve import format_stat as result_stat

SEARCH_TIMEOUT = 10.0  # seconds per position searched (the whole analysis: --timeout, the common default)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyse", help="find the first losing move of a played game, and a winning line from just before it",
        description=textwrap.fill(
            "Replay a played game through the referee and decide the start and the position after each move: "
            "won, lost or unknown (a limit). Report the first move after which the game can no longer be won, "
            "and a winning line from just before it. Work is shared between positions: a search's winning "
            "line decides every position on it, a won position decides those before it and a lost one those "
            "after it (the boundary is bisected), so most positions need no search of their own; the ones "
            "next to a losing move are often the hardest of the game to decide. The start: "
            "--seed, --deal or --position; by default the deal or position of the result file --moves names. "
            "Exit code: the verdict of the position after the last move (0 won, 1 lost, 3 unknown); 2 bad "
            "input, such as an illegal move (named with its index).", 78),
        epilog="example:\n  patience solve debutante --seed 2 --json > r.json\n"
               "  patience analyse debutante --moves r.json        # no losing move: the game was won\n"
               "  patience analyse debutante --seed 5 --moves my-game.json --json > a.json\n"
               "  patience view a.json --out a.html                # the game, the first losing move marked",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_layout(p)
    add_deal_source(p)
    add_moves(p, True, "the moves played")
    p.add_argument("--json", action="store_true",
                   help="print the analysis as JSON: the verdict after each move, the first losing move, the line")
    add_timeout(p, "the whole analysis", then="what is undecided then unknown")
    p.add_argument("--search-timeout", type=seconds_or_none, default=SEARCH_TIMEOUT, metavar="SECONDS",
                   help=f"stop each search after this many seconds, its position unknown (default "
                        f"{SEARCH_TIMEOUT:g}; 0: no limit but --timeout)")
    p.add_argument("--max-nodes", type=node_count, metavar="N", help="stop each search after N nodes")
    p.add_argument("--max-memory", type=memory_size, metavar="SIZE",
                   help="bound the transposition table (shared by the searches where the game allows; "
                        "default 1G then); the oldest half is dropped when full, which costs time, never a verdict")
    add_core(p)
    add_out(p, "the analysis")
    p.set_defaults(handler=run_analyse)

    p = sub.add_parser(
        "hint", help="the next move of a winning line from a position, or why it is lost",
        description=textwrap.fill(
            "Search a position (--position FILE, or --seed/--deal with --moves for the position after them) "
            "and print the next move of a winning line; or, when the position is lost, the argument that "
            "proves it (a sound bound, or a complete search). Exit code: 0 won, 1 lost, 3 unknown, 2 bad "
            "input.", 78),
        epilog="example:\n  patience deal debutante --seed 5 --moves my-game.json > now.txt\n"
               "  patience hint debutante --position now.txt",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_layout(p)
    add_deal_source(p)
    add_moves(p, False, "the position after these moves")
    p.add_argument("--json", action="store_true", help="print the verdict, the next move and the whole line as JSON")
    add_limits(p, "the search")
    add_core(p)
    p.set_defaults(handler=run_hint)


def _start(args: argparse.Namespace) -> tuple[Any, Any, str]:
    """The layout, the start given (None: the one the moves file records) and the name to show."""
    if any(x is not None for x in (args.seed, args.deal, args.position)):
        layout, start = load(args)
    else:
        layout, start = api.load_layout(layout_arg(args), args.max_ranks, args.settings), None
    return layout, start, layout.name + (f" #{args.seed}" if args.seed is not None else "")


def run_analyse(args: argparse.Namespace) -> int:
    layout, start, what = _start(args)
    with LiveLine(f"{what} (analyse): ") as live:
        def progress(k: int, n: int, stats: dict[str, Any]) -> None:
            live.show(f"the position after move {k} of {n}" + "".join(f"  {format_stat(key, v)}"
                                                                     for key, v in stats.items()))

        limits = Limits(max_nodes=args.max_nodes, timeout=args.search_timeout, max_memory=fit_memory(args.max_memory))
        analysis = api.analyse(layout, args.moves, seed=args.seed, deal=start, limits=limits, budget=args.timeout,
                               core=args.core, progress=progress)
    text = json.dumps(analysis.to_json()) if args.json else format_analysis(analysis)
    emit(text, args.out)
    return analysis.exit_code


def run_hint(args: argparse.Namespace) -> int:
    layout, start, what = _start(args)
    if start is None:
        raise InputError("give the start: --seed N, --deal FILE or --position FILE (with --moves for the position "
                         "after them)")
    with LiveLine(f"{what} (hint): ") as live:
        live.show("searching")
        found = api.hint(layout, deal=start, moves=args.moves, limits=limits_from(args), core=args.core, progress=live)
    print(json.dumps(found.to_json()) if args.json else format_hint(found, what))
    return found.exit_code


# ------------------------------------------------------------------ words


def move_text(m: dict[str, Any]) -> str:
    count = f" ({m['count']} cards)" if m.get("count", 1) > 1 else ""
    card = "" if m.get("card") in (None, "peg") else f"{m['card']} "
    return f"{card}from {m['from']} to {m['to']}{count}"


def spans(verdicts: list[str]) -> str:
    """``won: moves 1-36; lost: moves 37-152`` (the start is move 0)."""
    out: list[str] = []
    k = 1
    while k < len(verdicts):
        j = k
        while j + 1 < len(verdicts) and verdicts[j + 1] == verdicts[k]:
            j += 1
        out.append(f"{verdicts[k]}: move{'s' if j > k else ''} {k}{f'-{j}' if j > k else ''}")
        k = j + 1
    return "; ".join(out)


def format_analysis(a: Analysis) -> str:
    what = a.layout + (f" #{a.seed}" if a.seed is not None else "")
    n = len(a.moves)
    lines = [f"{what}: {n} move{'s' * (n != 1)} analysed; the start is {a.verdicts[0]}"
             + (f" ({a.reasons[0]})" if a.verdicts[0] != "won" and a.reasons[0] else "")]
    lost = a.lost_after
    if a.first_losing_move is not None:
        i = a.first_losing_move
        lines.append(f"first losing move: {i + 1}. {move_text(a.moves[i])}")
        lines.append(f"  after it the game cannot be won ({a.lost_reason()})")
    elif lost == 0:
        lines.append("no move could have saved it: the start is lost" + (f" ({a.lost_reason()})" if a.lost_reason()
                                                                           else ""))
    elif lost is not None:
        won = max((k for k in range(lost) if a.verdicts[k] == "won"), default=-1)
        undecided = list(range(won + 1, lost))
        lines.append(f"lost after move {lost} ({a.lost_reason()}), but the positions after moves "
                     f"{undecided[0]}-{undecided[-1]} stayed undecided ({_limit(a, undecided)}): the first losing "
                     f"move is one of moves {won + 1}-{lost}" if undecided[0] else
                     f"lost after move {lost} ({a.lost_reason()}), but every position before it stayed "
                     f"undecided, the start too ({_limit(a, undecided)})")
    elif a.verdicts[-1] == "won":
        lines.append("no losing move: " + ("the game is won" if a.how[-1] == PLAYED and not a.winning_line
                                           else "the position after the last move can still be won"))
    else:
        lines.append(f"no losing move found; the position after the last move stayed unknown ({a.reasons[-1]})")
    if a.winning_line:
        k = a.winning_line_from or 0
        head = (f"a winning line from just before it (the position after move {k})" if a.first_losing_move is not None
                else f"a winning line from the position after move {k}")
        lines.append(f"{head}:")
        lines += [f"{k + j + 1:6}. {move_text(m)}" for j, m in enumerate(a.winning_line)]
    if n:
        lines.append(spans(list(a.verdicts)))
    s = a.stats
    lines.append(f"[{s['searches']} search{'es' * (s['searches'] != 1)}, {s['nodes']:,} nodes, {s['seconds']} s]")
    return "\n".join(lines)


def _limit(a: Analysis, ks: list[int]) -> str:
    return next((r for k in ks if (r := a.reasons[k])), "not searched")


def format_hint(h: Hint, what: str) -> str:
    stats = ", ".join(result_stat(k, v) for k, v in h.stats.items())  # as `patience solve` prints them
    if h.verdict == "won":
        if not h.line:
            return f"{what}: won: the game is won already  [{stats}]"
        return (f"{what}: won; next: {move_text(h.line[0])}  (a win in {len(h.line)} "
                f"move{'s' * (len(h.line) != 1)}; --json for the line)  [{stats}]")
    return f"{what}: {h.verdict} ({h.why()})  [{stats}]"

