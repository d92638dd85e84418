"""``patience odds LAYOUT``: the exact expectation of a game of chance, its strategy, the banker's
table, and a simulation to check it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..errors import EngineDisagreement, InputError
from ..families import family_of
from ..families.chance import odds
from ..options import add_out, add_settings, add_timeout, emit, nonnegative_int, positive_int
from ..result import EXIT_CODES, EXIT_DISAGREEMENT

MAX_ROUNDS = 10_000_000


def rounds(text: str) -> int:
    value = positive_int(text)
    if value > MAX_ROUNDS:
        raise argparse.ArgumentTypeError(f"expected a number 1..{MAX_ROUNDS}, got {value}")
    return value


def _no_deal(text: str) -> int:
    raise argparse.ArgumentTypeError("`patience odds` prices an unknown shuffle: it deals no numbered deal (the "
                                     "simulation's seed is --sim-seed; `patience solve LAYOUT --seed N` decides "
                                     "deal N)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("odds", help="a game of chance: the seat's exact expectation and best strategy",
                       description="The seat's expected result per stake for an unknown shuffle, both sides at "
                                   "their best, computed exactly over the pack's composition (not simulated); "
                                   "the best first action by total and up-card.")
    p.add_argument("layout", help="a game of chance: blackjack, vingt-un, dvadtsat-odin, quinze, lansquenet")
    add_settings(p, example="--set hits_soft_17=true")
    p.add_argument("--seat", default=None, metavar="SEAT", help="the side to price (default: the player)")
    p.add_argument("--dealer", action="store_true",
                   help="the banker's final totals by up-card, before he looks for a natural")
    p.add_argument("--simulate", type=rounds, default=None, metavar="N",
                   help=f"also play N random shuffles (at most {MAX_ROUNDS}), each side as the odds have it "
                        f"play, and check the mean: further than {odds.AGREE_SE} standard errors from the exact "
                        f"value is a failure (exit {EXIT_DISAGREEMENT})")
    p.add_argument("--sim-seed", type=nonnegative_int, default=1, metavar="S",
                   help="the simulation's random seed (default 1)")
    p.add_argument("--seed", type=_no_deal, default=None, help=argparse.SUPPRESS)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print everything as JSON")
    g.add_argument("--svg", action="store_true", help="the strategy as a chart (SVG)")
    add_timeout(p, "the odds and the simulation", then="answering unknown, or with the rounds played so far")
    add_out(p, "the output")
    p.set_defaults(handler=run_odds)


def run_odds(args: argparse.Namespace) -> int:
    from .. import api

    if args.dealer:
        given = [o for o, v in (("--simulate", args.simulate), ("--svg", args.svg), ("--seat", args.seat)) if v]
        if given:
            raise InputError(f"--dealer prints the banker's table alone: leave out {' and '.join(given)}")
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
            emit(json.dumps({"layout": layout.name, "decks": layout.decks, "by_up_card": table}), args.out)
        else:
            emit(format_dealer(layout, table), args.out)
        return 0
    if args.svg and not isinstance(layout.rules, odds.TwentyOne):
        raise InputError(f"--svg: layout {layout.name!r} has no strategy by total and up-card to draw")
    clock = _Clock(args.timeout)
    try:
        with _bar("odds", "starts") as bar:
            rep = odds.report(layout, seat, bar, clock.check)
    except odds.Stopped as e:
        what = f"{layout.name}: unknown ({e}): the exact odds are not finished; --timeout 0 for no limit"
        emit(json.dumps({"layout": layout.name, "seat": seat or layout.seats[0], "decks": layout.decks,
                         "expectation": None, "reason": str(e)}) if args.json else what, args.out)
        return EXIT_CODES["unknown"]
    if args.simulate:
        with _bar("simulating", "rounds") as bar:
            rep["simulation"] = odds.simulate(layout, rep, args.simulate, args.sim_seed, bar, clock.check)
    rep.pop("_odds", None)
    if args.json:
        emit(json.dumps(rep), args.out)
    elif args.svg:
        from ..draw.odds import strategy_svg

        emit(strategy_svg(rep), args.out)
    else:
        emit(format_report(rep), args.out)
    sim = rep.get("simulation")
    if sim is not None and not sim["agrees"]:
        off = "every round alike" if sim["standard_errors_off"] is None else \
            f"{abs(sim['standard_errors_off']):.1f} standard errors from"
        raise SimulationDisagrees(f"the simulation disagrees with the exact odds: its mean {100 * sim['mean']:+.4f}% "
                                  f"is {off} the exact {100 * rep['expectation']:+.6f}% (at most {odds.AGREE_SE} "
                                  "standard errors expected; a bug: please report it)")
    return EXIT_CODES["unknown"] if sim is not None and sim["stopped"] else 0


class _Clock:
    """``--timeout``: ``check`` raises ``odds.Stopped`` once the time is up."""

    def __init__(self, timeout: float | None):
        self.timeout = timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout

    def check(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise odds.Stopped(f"timeout {self.timeout:g} s")


class SimulationDisagrees(EngineDisagreement):
    """The rounds played disagree with the exact expectation: exit 4, as two engines that disagree."""


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
    lines = [f"{layout.name}: the banker's final total by up-card, before he looks for a natural", "",
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
        cut = f" (stopped: {s['stopped']})" if s["stopped"] else ""
        lines.append(f"simulated {s['rounds']} rounds{cut} (--sim-seed {s['seed']}): mean {100 * s['mean']:+.4f}%, 95% "
                     f"interval {100 * s['low']:+.4f}% .. {100 * s['high']:+.4f}%; "
                     + ("no spread" if s["standard_errors_off"] is None else
                        f"{s['standard_errors_off']:+.2f} standard errors from the exact value")
                     + ("" if s["agrees"] else f": DISAGREES (more than {odds.AGREE_SE})"))
    return "\n".join(lines)
