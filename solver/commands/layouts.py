"""``patience layouts``, ``patience show LAYOUT``, ``patience deal LAYOUT``."""

from __future__ import annotations

import argparse
import json

from ..errors import InputError
from ..families import family_of, load_layout
from ..layout import Layout
from ..options import add_deal_source, add_layout, add_out, emit, load
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
    p.add_argument("--json", action="store_true", help="print the deal as JSON (the result contract's deal)")
    p.add_argument("--board", action="store_true", help="print the deal in the fc-solve board format")
    p.add_argument("--svg", action="store_true", help="print the deal as a picture (SVG)")
    p.add_argument("--solvitaire", action="store_true",
                   help="print the deal as Solvitaire's deal file (JSON, read back by --deal)")
    add_out(p, "the deal")
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
    if sum((args.json, args.board, args.svg, args.solvitaire)) > 1:
        raise InputError("give at most one of --json, --board, --svg and --solvitaire")
    family = family_of(layout)
    if args.svg:
        from .. import draw

        where = f" #{args.seed}" if args.seed is not None else f" ({args.deal})" if args.deal else ""
        text = draw.deal_svg(layout, deal, title=f"{layout.title}{where}")
    elif args.json:
        text = json.dumps(family.deal_to_json(layout, deal))
    elif args.solvitaire:
        from ..solvitaire import deal_to_json

        if not isinstance(layout, Layout) or layout.family not in ("tableau", "hole"):
            raise InputError(f"--solvitaire: Solvitaire plays no game of the {layout.family} family")
        text = json.dumps(deal_to_json(layout, deal), indent=1)
    elif args.board:
        text = family.deal_to_board(layout, deal)
    else:
        text = family.deal_to_text(layout, deal)
    emit(text, args.out)
    return 0
