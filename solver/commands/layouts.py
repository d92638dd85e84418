"""``patience layouts``, ``patience show LAYOUT``, ``patience deal LAYOUT``."""

from __future__ import annotations

import argparse
import json

from .. import deal as deals
from .. import layout as layouts
from ..options import add_deal_source, add_layout, load


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("layouts", help="list every layout with a one-line description")
    p.set_defaults(handler=run_layouts)

    p = sub.add_parser("show", help="print a layout's rules in words")
    add_layout(p)
    p.set_defaults(handler=run_show)

    p = sub.add_parser("deal", help="print a deal")
    add_layout(p)
    add_deal_source(p)
    p.add_argument("--json", action="store_true", help="print the deal as JSON (the result contract's deal)")
    p.add_argument("--board", action="store_true", help="print the deal in the fc-solve board format")
    p.set_defaults(handler=run_deal)


def run_layouts(args: argparse.Namespace) -> int:
    names = layouts.builtin_names()
    width = max(map(len, names))
    for name in names:
        lay = layouts.load(name)
        print(f"{name:<{width}}  {lay.description}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    layout, _ = load(args)
    if hasattr(layout, "describe"):
        print(layout.describe(), end="")
    else:
        from ..describe import describe

        print(describe(layout), end="")
    return 0


def run_deal(args: argparse.Namespace) -> int:
    layout, deal = load(args)
    if args.json:
        to_json = getattr(layout, "deal_to_json", deals.to_json)  # peg boards write their own
        print(json.dumps(to_json(deal)))
    elif args.board:
        print(deals.to_board(deal, layout), end="")
    elif hasattr(layout, "deal_to_text"):  # peg boards draw their own
        print(layout.deal_to_text(deal), end="")
    elif hasattr(layout, "deal_to_json"):
        print(json.dumps(layout.deal_to_json(deal)))
    else:
        print(deals.to_text(deal), end="")
    return 0
