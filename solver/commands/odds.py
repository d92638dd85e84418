"""``patience odds LAYOUT``: the exact expectation of a game of chance, its strategy, the banker's
table, and a simulation to check it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import InputError
from ..families import family_of
from ..options import add_out, add_settings, emit, nonnegative_int, positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("odds", help="a game of chance: the seat's exact expectation and best strategy",
                       description="The seat's expected result per stake for an unknown shuffle, both sides at "
                                   "their best, computed exactly over the pack's composition (not simulated); "
                                   "the best first action by total and up-card.")
    p.add_argument("layout", help="a game of chance: blackjack, vingt-un, dvadtsat-odin, quinze, lansquenet")
    add_settings(p)
    p.add_argument("--seat", default=None, metavar="SEAT", help="the side to price (default: the player)")
    p.add_argument("--dealer", action="store_true",
                   help="the banker's final totals by up-card, before he looks for a natural")
    p.add_argument("--simulate", type=positive_int, default=None, metavar="N",
                   help="also play N random shuffles with the strategy found and give the 95%% interval")
    p.add_argument("--seed", type=nonnegative_int, default=1, metavar="S", help="the simulation's seed (default 1)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print everything as JSON")
    g.add_argument("--svg", action="store_true", help="the strategy as a chart (SVG)")
    add_out(p, "the output")
    p.set_defaults(handler=run_odds)


def run_odds(args: argparse.Namespace) -> int:
    from .. import api
    from ..families.chance import odds

    layout = api.load_layout(args.layout, None, args.settings)
    family = family_of(layout)
    if not isinstance(layout, odds.ChanceLayout):
        raise InputError(f"layout {layout.name!r} is a patience: `patience odds` prices games of chance "
                         "(`patience batch` measures a patience's win rate)")
    seat = args.seat
    if seat is not None and seat not in family.seats(layout):
        raise InputError(f"--seat: layout {layout.name!r} has the seats {', '.join(family.seats(layout))}, "
                         f"got {seat!r}")
    if args.dealer:
        table = odds.dealer_table(layout)
        if args.json:
            emit(json.dumps(table), args.out)
        else:
            emit(format_dealer(layout, table), args.out)
        return 0
    with _bar("odds", "starts") as bar:
        rep = odds.report(layout, seat, bar)
    if args.simulate:
        if args.simulate > 10_000_000:
            raise InputError(f"--simulate: expected at most 10000000 rounds, got {args.simulate}")
        with _bar("simulating", "rounds") as bar:
            rep["simulation"] = odds.simulate(layout, rep, args.simulate, args.seed, bar)
    rep.pop("_odds", None)
    if args.json:
        emit(json.dumps(rep), args.out)
    elif args.svg:
        if "cells" not in rep["strategy"] or "legend" not in rep["strategy"]:
            raise InputError(f"--svg: layout {layout.name!r} has no strategy by total and up-card to draw")
        from ..draw.odds import strategy_svg

        emit(strategy_svg(rep), args.out)
    else:
        emit(format_report(rep), args.out)
    return 0


class _bar:
    """A tqdm progress bar on stderr for anything that takes more than a moment (only on a terminal)."""

    def __init__(self, what: str, unit: str):
        self.what, self.unit = what, unit
        self.bar: Any = None

    def __enter__(self) -> _bar:
        return self

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=self.what, unit=f" {self.unit}", file=sys.stderr, leave=False,
                            disable=not sys.stderr.isatty(), mininterval=0.5)
        self.bar.n = done
        self.bar.refresh() if done == total else self.bar.update(0)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()


def format_dealer(layout: Any, table: dict[str, dict[str, float]]) -> str:
    keys = list(next(iter(table.values())))
    lines = [f"{layout.title}: the banker's final total by up-card, before he looks for a natural", "",
             "up   " + "".join(f"{k:>10}" for k in keys)]
    for up, row in table.items():
        lines.append(f"{up:<5}" + "".join(f"{row[k]:>10.6f}" for k in keys))
    return "\n".join(lines)


def format_report(rep: dict[str, Any]) -> str:
    lines = [f"{rep['layout']}: the {rep['seat']}'s expectation per round {100 * rep['expectation']:+.6f}% of a stake"
             + (f" (exactly {rep['exact']})" if rep.get("exact") and len(rep["exact"]) < 60 else "")
             + f"  [{rep['seconds']} s]"]
    if rep.get("banker_edge_per_stake") is not None:
        lines.append(f"the banker's edge per unit staked: {100 * rep['banker_edge_per_stake']:+.6f}% "
                     f"({rep['stakes_per_round']:.6f} stakes a round)")
        best = rep["best_play"]
        lines.append(f"the company staking only where it pays: {100 * best['expectation']:+.6f}% a round")
    if rep.get("splits"):
        lines.append(f"splits: {rep['splits']}")
    strategy = rep["strategy"]
    lines.append("")
    if "legend" in strategy:
        lines.append("best first action: " + ", ".join(f"{k} {v}" for k, v in strategy["legend"].items())
                     + "; * depends on the cards, not only the total")
        width = max(len(r) for r in strategy["rows"])
        lines.append(" " * width + "  " + "".join(f"{c:>4}" for c in strategy["columns"]))
        for row, cells in zip(strategy["rows"], strategy["cells"]):
            lines.append(f"{row:<{width}}  " + "".join(f"{c:>4}" for c in cells))
    else:
        lines.append(strategy["rule"])
    if "simulation" in rep:
        s = rep["simulation"]
        lines.append("")
        lines.append(f"simulated {s['rounds']} rounds (seed {s['seed']}): mean {100 * s['mean']:+.4f}%, 95% interval "
                     f"{100 * s['low']:+.4f}% .. {100 * s['high']:+.4f}%"
                     + ("" if s["contains_expectation"] else "  (the exact value lies outside)"))
    return "\n".join(lines)
