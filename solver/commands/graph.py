"""``patience graph``: a deal's state graph: its figures, files (GraphML, GEXF, DOT) and a picture."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import graph
from ..errors import InputError
from ..files import check_writable
from ..live import LiveLine
from ..options import add_deal_source, add_layout, add_timeout, load, positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("graph", help="build a deal's state graph: print its figures, write it to files",
                       description="Explore the positions a deal can reach, nearest first, up to --max-nodes states "
                                   "or --timeout; label each won, winnable or lost; print the graph's figures "
                                   "(states, branching factor, transpositions, dead ends, shortest win) and write it "
                                   "with --out (GraphML, GEXF, DOT, or a PNG picture of small graphs).")
    add_layout(p)
    add_deal_source(p)
    p.add_argument("--max-nodes", type=positive_int, default=graph.DEFAULT_MAX_NODES, metavar="K",
                   help=f"keep at most K states, the nearest to the deal (default {graph.DEFAULT_MAX_NODES})")
    add_timeout(p, "exploring", then="the graph cut there")
    p.add_argument("--out", action="append", default=[], metavar="FILE",
                   help="write the graph: .graphml, .gexf, .dot/.gv, or a .png picture (needs matplotlib; "
                        f"up to {graph.MAX_DRAWN} states); may be given more than once")
    p.add_argument("--follow-forced", action="store_true",
                   help="play the automatic (forced) moves after each move, as the DFS does: one edge each")
    p.add_argument("--prune-dead", action="store_true",
                   help="do not expand states the family's sound dead-end bound proves lost")
    p.add_argument("--shortest", action="store_true", help="also print the moves of a shortest win")
    p.add_argument("--json", action="store_true", help="print the figures (and --shortest moves) as JSON")
    p.set_defaults(handler=run_graph)


def run_graph(args: argparse.Namespace) -> int:
    for path in args.out:  # bad names and places fail before the work
        graph.check_out_path(path)
        check_writable(path, "--out")
    layout, deal = load(args)
    pictures = [path for path in args.out if path.lower().endswith(".png")]
    # A picture holds at most MAX_DRAWN states: explore one more than that, no further, so that a
    # graph too big to draw is refused at once, not after the whole exploration.
    cap = min(args.max_nodes, graph.MAX_DRAWN + 1) if pictures else args.max_nodes
    what = layout.name + (f" #{args.seed}" if args.seed is not None else "")
    with LiveLine(f"{what} (state graph): ") as live:
        g = graph.state_graph(layout, deal, cap, follow_forced=args.follow_forced,
                              prune_dead=args.prune_dead, timeout=args.timeout, progress=live)
    if pictures and g.number_of_nodes() > graph.MAX_DRAWN:
        raise InputError(f"--out {pictures[0]}: the graph has more than {graph.MAX_DRAWN} states, the most a "
                         f"picture shows; give --max-nodes {graph.MAX_DRAWN} for the nearest ones, a smaller "
                         "deck (--max-ranks), or write .graphml, .gexf or .dot")
    for path in args.out:
        graph.write_graph(g, path)
    f = graph.figures(g)
    f["seconds"] = g.graph["seconds"]
    if args.json:
        out: dict[str, Any] = {"layout": layout.name, "seed": args.seed, "figures": f}
        if args.shortest:
            out["solution"] = g.graph["solution"]
        print(json.dumps(out))
    else:
        print(format_figures(layout.name, args.seed, f))
        if args.shortest and g.graph["solution"]:
            for i, m in enumerate(g.graph["solution"], 1):
                count = f" ({m['count']} cards)" if m.get("count", 1) > 1 else ""
                print(f"{i:4}. {m['card']} from {m['from']} to {m['to']}{count}")
        for path in args.out:
            print(f"wrote {path}")
    return 0


def format_figures(name: str, seed: int | None, f: dict[str, Any]) -> str:
    what = name + (f" #{seed}" if seed is not None else "")
    state = "complete" if f["complete"] else f"cut at {f['reason']}"
    root = {True: "winnable", False: "lost", None: "not known (the graph was cut)"}[f["root_winnable"]]
    share = f"{f['winnable']} of {f['states']} ({100 * f['winnable_share']:.1f}%)"
    if f["winnable_unknown"]:
        share += f"; {f['winnable_unknown']} not known"
    win = f"{f['shortest_win']} moves" if f["shortest_win"] is not None else "none found"
    rows = [
        ("states", f["states"]),
        ("moves", f["moves"]),
        ("branching factor", f"{f['branching']:.2f} on average, {f['max_branching']} at most"),
        ("transpositions", f"{f['transpositions']} states with several parents"),
        ("dead ends", f"{f['dead_ends']} states with no move, not won"),
        ("dead by the bound", f["dead_by_bound"]),
        ("won states", f["won_states"]),
        ("still winnable", share),
        ("shortest win", win),
        ("deepest state", f"{f['max_depth']} moves"),
        ("the deal", root),
        ("seconds", f["seconds"]),
    ]
    return "\n".join([f"{what}: state graph, {state}"] + [f"  {k:<18} {v}" for k, v in rows])
