"""``patience play LAYOUT --seed N``: play a deal on a local page, the solver's verdict beside you."""

from __future__ import annotations

import argparse
import shlex
import sys
import textwrap
import webbrowser

from .. import api
from ..engines.core import CHOICES as CORES
from ..files import shown
from ..options import add_deal_source, add_layout, load, nonnegative_int, seconds_or_none
from ..play import SEARCH_SECONDS, Session, make_server, url_of


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help="play a deal on a local page, with a live verdict, hints, undo and the losing move",
        description=textwrap.fill(
            "Serve a page on 127.0.0.1 that plays one deal: click a card, then where it goes (or drag it); "
            "the referee refuses an illegal move with its reason. After every move a search of the new "
            "position runs in the background and the page says whether the game can still be won; when it "
            "cannot, which move lost it, with a click back to before it. Hint, undo, redo, finish (plays a "
            "winning line to the end), and a save of the moves that `patience analyse --moves` reads. The "
            "page's URL (the first line printed) reopens the same game. Ctrl-C stops the server.", 78),
        epilog="example:\n  patience play klondike-draw-1 --seed 32005\n"
               "  patience play freecell --seed 1 --port 8765 --no-browser\n(docs/play.md)",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_layout(p)
    add_deal_source(p)
    p.add_argument("--moves", metavar="FILE",
                   help="open the game after these moves (a moves file the page saved, or a result JSON)")
    p.add_argument("--port", type=port_number, default=0, metavar="P",
                   help="the port on 127.0.0.1 (default: a free one; give one to keep the page's URL)")
    p.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")
    p.add_argument("--search-timeout", type=seconds_or_none, default=SEARCH_SECONDS, metavar="SECONDS",
                   help=f"stop each search after this many seconds, its position unknown (default "
                        f"{SEARCH_SECONDS:g}; 0: no limit)")
    p.add_argument("--save", metavar="FILE",
                   help="the page's save button writes the moves to FILE (default: the browser downloads them)")
    p.add_argument("--core", choices=CORES, default="auto", help="the search core (as `patience solve --core`)")
    p.set_defaults(handler=run_play)


def port_number(text: str) -> int:
    n = nonnegative_int(text)
    if n > 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0..65535, got {text!r}")
    return n


def start_args(args: argparse.Namespace) -> str:
    """The options that give the start again, for the command the page suggests."""
    out = []
    if args.max_ranks is not None:
        out += ["--max-ranks", str(args.max_ranks)]
    for setting in args.settings or ():
        out += ["--set", setting]
    if args.seed is not None:
        out += ["--seed", str(args.seed)]
    elif args.deal is not None:
        out += ["--deal", args.deal]
    elif args.position is not None:
        out += ["--position", args.position]
    return shlex.join(out)


def run_play(args: argparse.Namespace) -> int:
    layout, start = load(args)
    session = Session(layout, start, seed=args.seed, timeout=args.search_timeout, core=args.core, save=args.save,
                      start_args=start_args(args))
    try:
        first = ""
        if args.moves is not None:
            from ..play import code_of

            played = api.read_moves(args.moves)
            api.position_after(layout, start, played, shown(args.moves))
            first = "?moves=" + code_of(played)
        server = make_server(session, args.port)
        try:
            url = url_of(server) + first
            print(url, flush=True)
            print("Ctrl-C stops the server.", file=sys.stderr, flush=True)
            if not args.no_browser and not webbrowser.open(url):
                print("patience: no browser found: open the URL above in one", file=sys.stderr, flush=True)
            server.serve_forever(poll_interval=0.2)
        finally:
            server.server_close()
    finally:
        session.close()
    return 0
