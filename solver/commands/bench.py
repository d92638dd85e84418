"""``patience bench``: engines, cores and peers on the same deals; resumable; a JSON and Markdown report."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from ..errors import InputError
from ..families import family_of
from ..options import positive_int
from .solve import add_limits, limits_from

DEFAULT_LAYOUTS = ["black-hole", "golf", "debutante", "freecell"]
DEFAULT_TIMEOUT = 10.0
DESCRIPTION = (
    "Solve the same deals with every engine (on every core of --cores) and, with --peers, every other "
    "solver installed here that plays the layout, one deal at a time per worker process. Each deal is "
    "stored in DIR/deals.jsonl as it finishes; rerunning the same command skips the deals stored and "
    "goes on, and Ctrl-C or SIGTERM stops the run with the tables written from what finished. The tables "
    f"are DIR/bench.json and DIR/bench.md. Limits per deal: --timeout (default {DEFAULT_TIMEOUT:g} s), "
    "--max-nodes, --max-memory.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("layouts", nargs="*", metavar="LAYOUT",
                   help=f"layout names or files; NAME@R for a reduced deck of ranks A..R "
                        f"(default: {' '.join(DEFAULT_LAYOUTS)})")
    p.add_argument("--seeds", action="append", metavar="[NAME=]SPEC",
                   help="seeds and ranges for every layout (e.g. 1-1000), or NAME=SPEC for one layout "
                        "(e.g. freecell=1-1000,11982); repeat for more layouts (default 1-20)")
    p.add_argument("--engines", default="dfs", metavar="LIST",
                   help="engines, comma separated, e.g. dfs,cpsat,auto (default dfs)")
    p.add_argument("--cores", metavar="LIST",
                   help="run each engine that searches on a core once per core, e.g. python,compiled, "
                        "and compare them (default: each engine's own core)")
    add_limits(p, "each deal's search", DEFAULT_TIMEOUT)
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                   help="worker processes, one deal each at a time (default 1: timings are cleanest)")
    p.add_argument("--max-ranks", type=positive_int, metavar="R",
                   help="a reduced deck (ranks A..R) for every LAYOUT given without @R")
    p.add_argument("--peers", action=argparse.BooleanOptionalAction, default=False,
                   help="also run every installed peer that plays a layout (fc-solve, freecell-solver, solvitaire, "
                        "black-hole-solver)")
    p.add_argument("--peer-path", action="append", default=[], metavar="NAME=PATH",
                   help="where a peer's program is when PATH does not find it, e.g. "
                        "solvitaire=/opt/solvitaire/solvitaire (repeatable)")
    p.add_argument("--fc-solve-args", default="", metavar="ARGS",
                   help="more arguments for the Freecell Solver peers, e.g. '-l lg' (its fastest preset); "
                        "default: none, its default scan")
    p.add_argument("--perft", action=argparse.BooleanOptionalAction, default=False,
                   help="also measure the engine core's raw speed")
    p.add_argument("--perft-playouts", type=positive_int, default=100, metavar="N",
                   help="random playouts per start position for --perft (default 100)")
    p.add_argument("--note", action="append", default=[], metavar="TEXT", help="a note for the report (repeatable)")
    p.add_argument("--out", default="bench", metavar="DIR", help="the folder of the run (default ./bench)")
    p.add_argument("--plots", action=argparse.BooleanOptionalAction, default=True,
                   help="draw a PNG plot when matplotlib is installed (default: yes)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="benchmark engines, cores and peers on the same deals (resumable)",
                       description=DESCRIPTION, allow_abbrev=False)
    add_arguments(p)
    p.set_defaults(handler=run_bench)


def _list(text: str, option: str) -> list[str]:
    items = [w.strip() for w in text.split(",")]
    if not all(items):
        raise InputError(f"{option} {text!r}: expected names separated by commas")
    return items


def _peer_paths(specs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for spec in specs:
        name, eq, path = spec.partition("=")
        if not eq or not name or not path:
            raise InputError(f"--peer-path {spec!r}: expected NAME=PATH, e.g. solvitaire=/opt/bin/solvitaire")
        if name in out:
            raise InputError(f"--peer-path {spec!r}: the path of {name!r} is given twice")
        out[name] = path
    return out


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as e:
        raise InputError(f"--fc-solve-args {text!r}: {e}") from None


def config_from(args: argparse.Namespace) -> Any:
    from .. import bench

    targets = [bench.Target.parse(t, args.max_ranks) for t in (args.layouts or DEFAULT_LAYOUTS)]
    for t in targets:
        lay = bench.plan.load(t.name, None)
        if set(family_of(lay).verdicts) - {"won", "lost", "unknown"}:
            raise InputError(f"layout {lay.name!r}: a game of chance, whose games may end drawn; `patience bench` "
                             "measures patiences: use `python -m benchmarks.chance`")
    return bench.Config(
        targets=targets, seeds=bench.seed_plan(args.seeds or [], targets),
        engines=_list(args.engines, "--engines") if args.engines else [],
        cores=_list(args.cores, "--cores") if args.cores else None, limits=limits_from(args), jobs=args.jobs,
        peers=args.peers, fc_solve_args=_split(args.fc_solve_args), peer_paths=_peer_paths(args.peer_path),
        perft=args.perft,
        perft_playouts=args.perft_playouts, notes=list(args.note), command=command_line(args))


def command_line(args: argparse.Namespace) -> str:
    """The command in full (the defaults that matter written out), to repeat or resume the run."""
    words = ["patience", "bench", *(args.layouts or DEFAULT_LAYOUTS)]
    for spec in args.seeds or []:
        words += ["--seeds", spec]
    words += ["--engines", args.engines]
    if args.cores:
        words += ["--cores", args.cores]
    for flag, value in (("--timeout", args.timeout), ("--max-nodes", args.max_nodes),
                        ("--max-memory", args.max_memory), ("--max-ranks", args.max_ranks)):
        if value is not None:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    words += ["--jobs", str(args.jobs)]
    if args.peers:
        words.append("--peers")
        if args.fc_solve_args:
            words += ["--fc-solve-args", args.fc_solve_args]
        for spec in args.peer_path:
            words += ["--peer-path", spec]
    if args.perft:
        words += ["--perft", "--perft-playouts", str(args.perft_playouts)]
    for note in args.note:
        words += ["--note", note]
    if not args.plots:
        words.append("--no-plots")
    return shlex.join(words + ["--out", args.out])


def run_bench(args: argparse.Namespace) -> int:
    from .. import bench
    from ..bench.report import markdown_table, result_rows

    config = config_from(args)
    bench.check(config)
    out = bench.prepare_out(args.out)
    outcome = bench.run(config, out, plots=args.plots)
    rows = result_rows(outcome.report)
    if rows:
        print(markdown_table(rows, ["layout", "runner", "deals", "won", "lost", "unknown", "won_95", "median_s",
                                    "p90_s", "max_s", "nodes_per_s", "peak_mb"]), end="")
    for note in outcome.report["notes"]:
        print(f"note: {note}")
    print("wrote " + ", ".join(str(f) for f in outcome.files))
    if outcome.stopped != "complete":
        rep = outcome.report
        print(f"patience bench: stopped ({outcome.stopped}); {rep['finished']} of {rep['planned']} deals are "
              f"stored in {out / 'deals.jsonl'}; run the same command again to go on", file=sys.stderr)
    return outcome.exit_code
