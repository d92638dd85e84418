"""``patience layouts``, ``patience show LAYOUT``, ``patience deal LAYOUT``."""

from __future__ import annotations

import argparse
import json

from .. import api
from ..errors import InputError
from ..families import family_of, load_layout
from ..files import shown
from ..options import add_deal_source, add_layout, add_moves, add_out, emit, load
from ..schema import builtin_names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("layouts", help="list every layout with a one-line description",
                       description="List every built-in layout, one a line: its name (what LAYOUT takes on "
                                   "every command) and its description. A layout file of your own (a .toml path) "
                                   "or Solvitaire's rules (--rules FILE.json) is accepted wherever a name is.")
    p.set_defaults(handler=run_layouts)

    p = sub.add_parser("show", help="print a layout's rules in words",
                       description="Print a layout's rules in words, generated from the layout file (with --set, "
                                   "as changed; with --rules, Solvitaire's rules as this project reads them).")
    add_layout(p)
    p.set_defaults(handler=run_show)

    p = sub.add_parser("deal", help="print a deal, or the position after some moves",
                       description="Print a deal; with --moves, the position after those moves (played by the "
                                   "referee: an illegal move is named with its index), in the position format "
                                   "that --position reads (docs/positions.md); with --position, that position.")
    add_layout(p)
    add_deal_source(p)
    add_moves(p, False, "print the position after these moves")
    p.add_argument("--json", action="store_true",
                   help="print the deal as JSON (the result contract's deal; a position's JSON for a position)")
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
    if sum((args.json, args.board, args.svg, args.solvitaire)) > 1:
        raise InputError("give at most one of --json, --board, --svg and --solvitaire")
    layout, deal = load(args)
    family = family_of(layout)
    moves = None
    if args.moves is not None:
        moves = api.read_moves(args.moves)
        deal = family.position_after(layout, deal, moves, shown(args.moves))
    shown_as = api.DrawableDeal(layout, deal, args.seed, len(moves) if moves is not None else None)
    if args.svg:
        from .. import draw

        where = f" #{args.seed}" if args.seed is not None else f" ({args.deal})" if args.deal else ""
        after = f", after move {len(moves)}" if moves else ""
        text = draw.deal_svg(layout, deal, title=f"{layout.title}{where}{after}")
    elif args.json:
        text = json.dumps(shown_as.to_json())
    elif args.solvitaire:
        if "solvitaire" not in family.peers:
            raise InputError(f"--solvitaire: Solvitaire plays no game of the {family.name} family")
        if not shown_as.is_deal:
            raise InputError("--solvitaire: Solvitaire's deal files hold deals, not positions part-way through a game")
        text = json.dumps(family.solvitaire_deal(layout, deal), indent=1)
    elif args.board:
        if not shown_as.is_deal:
            raise InputError("--board: the board format holds deals, not positions part-way through a game; "
                             "use the listing or --json")
        text = family.deal_to_board(layout, deal)
    else:
        text = shown_as.text()
    emit(text, args.out)
    return 0
