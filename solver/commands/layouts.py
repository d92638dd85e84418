"""``patience layouts``, ``patience show LAYOUT``, ``patience deal LAYOUT``."""

from __future__ import annotations

import argparse
import json

from ..families import family_of, load_layout
from ..options import add_deal_source, add_layout, load
from ..schema import builtin_names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("layouts", help="list every layout with a one-line description")
    p.set_defaults(handler=run_layouts)

    p = sub.add_parser("show", help="print a layout's rules in words")
    add_layout(p)
    p.set_defaults(handler=run_show)

    p = sub.add_parser("deal", help="print a deal")
    add_layout(p)
    add_deal_source(p)
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the deal as JSON (the result contract's deal)")
    form.add_argument("--board", action="store_true", help="print the deal in the fc-solve board format")
    p.set_defaults(handler=run_deal)


def run_layouts(args: argparse.Namespace) -> int:
    names = builtin_names()
    width = max(map(len, names))
    for name in names:
        lay = load_layout(name)
        print(f"{name:<{width}}  {lay.description}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    layout, _ = load(args)
    print(family_of(layout).describe(layout), end="")
    return 0


def run_deal(args: argparse.Namespace) -> int:
    layout, deal = load(args)
    family = family_of(layout)
    if args.json:
        print(json.dumps(family.deal_to_json(layout, deal)))
    elif args.board:
        print(family.deal_to_board(layout, deal), end="")
    else:
        print(family.deal_to_text(layout, deal), end="")
    return 0
