"""``patience view RESULT.json --out F.html``: a page that steps through a result."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import api
from ..options import add_out, add_settings, emit
from .solve import read_result


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("view", help="write a self-contained HTML page that steps through a result")
    p.add_argument("result", help="a result JSON file written by `patience solve --json`")
    p.add_argument("--layout", help="the layout (default: the one the result names)")
    add_settings(p)
    add_out(p, "the page")
    p.set_defaults(handler=run_view)


def run_view(args: argparse.Namespace) -> int:
    path = Path(args.result)
    obj = read_result(args.result)
    layout = args.layout
    if args.settings:
        layout = api.load_layout(args.layout or obj["layout"], obj.get("max_rank"), args.settings)
    result = api.load_result(obj, layout, where=str(path))
    emit(result.html(), args.out)
    return 0
