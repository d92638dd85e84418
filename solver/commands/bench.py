"""``patience bench``: engines and peers on the same deals; perft; scaling; a JSON and Markdown report."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from ..errors import InputError
from ..options import positive_float, positive_int

DEFAULT_LAYOUTS = ["black-hole", "golf", "debutante", "freecell"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="benchmark engines and peers on the same deals; write a report",
                       description="Solve the same deals with every engine (and peers such as fc-solve), one "
                                   "deal at a time per core, and write bench.json and bench.md (with PNG plots "
                                   "when matplotlib is installed) into --out.")
    p.add_argument("layouts", nargs="*", metavar="LAYOUT",
                   help=f"layout names or files; NAME@R for a reduced deck of ranks A..R "
                        f"(default: {' '.join(DEFAULT_LAYOUTS)})")
    p.add_argument("--seeds", default="1-20", metavar="SPEC", help="seeds and ranges, e.g. 1-50 (default 1-20)")
    p.add_argument("--engines", default="dfs,cpsat", metavar="LIST",
                   help="engines, comma separated, e.g. dfs,cpsat,auto (default dfs,cpsat)")
    p.add_argument("--timeout", type=positive_float, default=10.0, metavar="S",
                   help="seconds per deal and engine (default 10)")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                   help="worker processes, one deal each at a time (default 1: timings are cleanest)")
    p.add_argument("--max-ranks", type=positive_int, metavar="R",
                   help="a reduced deck (ranks A..R) for every LAYOUT given without @R")
    p.add_argument("--peers", action="store_true", help="also run the peers that cover a layout (fc-solve)")
    p.add_argument("--fc-solve-args", default="", metavar="ARGS",
                   help="more fc-solve arguments for --peers, e.g. '-l lg' (its fastest preset); "
                        "default: none, fc-solve's default scan")
    p.add_argument("--perft", action="store_true", help="also measure the engine core's raw speed")
    p.add_argument("--perft-playouts", type=positive_int, default=100, metavar="N",
                   help="random playouts per start position for --perft (default 100)")
    p.add_argument("--scaling", action="store_true",
                   help="also measure time and nodes against deal size on reduced decks")
    p.add_argument("--scaling-layouts", default="debutante,freecell", metavar="LIST",
                   help="layouts for --scaling (default debutante,freecell)")
    p.add_argument("--scaling-ranks", default="5,7,9,13", metavar="LIST",
                   help="highest ranks of the reduced decks for --scaling (default 5,7,9,13)")
    p.add_argument("--scaling-seeds", default="1-10", metavar="SPEC", help="seeds for --scaling (default 1-10)")
    p.add_argument("--out", default="bench", metavar="DIR", help="the folder of the report (default ./bench)")
    p.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    p.set_defaults(handler=run_bench)


def _list(text: str, option: str) -> list[str]:
    items = [w.strip() for w in text.split(",")]
    if not all(items):
        raise InputError(f"{option} {text!r}: expected names separated by commas")
    return items


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as e:
        raise InputError(f"--fc-solve-args {text!r}: {e}") from None


def _ranks(text: str) -> tuple[int, ...]:
    try:
        ranks = tuple(int(w) for w in _list(text, "--scaling-ranks"))
    except ValueError:
        raise InputError(f"--scaling-ranks {text!r}: expected ranks 1..13 separated by commas") from None
    if not all(1 <= r <= 13 for r in ranks):
        raise InputError(f"--scaling-ranks {text!r}: expected ranks 1..13 separated by commas")
    return tuple(sorted(set(ranks)))


def config_from(args: argparse.Namespace) -> Any:
    from .. import bench
    from ..batch import parse_seeds

    return bench.Config(
        targets=[bench.Target.parse(t, args.max_ranks) for t in (args.layouts or DEFAULT_LAYOUTS)],
        seeds=parse_seeds(args.seeds), engines=_list(args.engines, "--engines"), timeout=args.timeout,
        jobs=args.jobs, peers=args.peers, peer_args=_split(args.fc_solve_args), perft=args.perft,
        perft_playouts=args.perft_playouts,
        scaling=args.scaling, scaling_layouts=_list(args.scaling_layouts, "--scaling-layouts"),
        scaling_ranks=_ranks(args.scaling_ranks), scaling_seeds=parse_seeds(args.scaling_seeds),
        command=_command_line(args))


def _command_line(args: argparse.Namespace) -> str:
    """The command in full (defaults written out), to repeat the run."""
    words = ["patience", "bench", *(args.layouts or DEFAULT_LAYOUTS), "--seeds", args.seeds, "--engines", args.engines,
             "--timeout", f"{args.timeout:g}", "--jobs", str(args.jobs)]
    if args.max_ranks is not None:
        words += ["--max-ranks", str(args.max_ranks)]
    if args.peers:
        words.append("--peers")
        if args.fc_solve_args:
            words += ["--fc-solve-args", args.fc_solve_args]
    if args.perft:
        words += ["--perft", "--perft-playouts", str(args.perft_playouts)]
    if args.scaling:
        words += ["--scaling", "--scaling-layouts", args.scaling_layouts, "--scaling-ranks", args.scaling_ranks,
                  "--scaling-seeds", args.scaling_seeds]
    return shlex.join(words + ["--out", args.out])


def run_bench(args: argparse.Namespace) -> int:
    from concurrent.futures import BrokenExecutor

    from .. import bench
    from ..bench.report import RESULT_COLUMNS, markdown_table, prepare_out

    config = config_from(args)
    bench.check(config)
    out = prepare_out(args.out)
    try:
        report = bench.run(config)
    except BrokenExecutor:
        print("patience: a worker process died (killed, or out of memory?); no report written", file=sys.stderr)
        return 1
    files = bench.write(report, out, plots=not args.no_plots)
    rows = [r for r in report["results"] if "skipped" not in r]
    cols = ["layout", "engine", "deals", "won", "lost", "unknown", "median_s", "p90_s", "max_s", "nodes_per_s",
            "peak_mb"]
    assert set(cols) <= set(RESULT_COLUMNS)
    if rows:
        print(markdown_table(rows, cols), end="")
    for note in report["notes"]:
        print(f"note: {note}")
    print("wrote " + ", ".join(str(f) for f in files))
    return 0
