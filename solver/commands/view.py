"""``patience view RESULT.json --out F.html``: a page that steps through a result."""

from __future__ import annotations

import argparse

from .. import api
from ..files import shown
from ..options import add_out, add_settings, emit, recorded_layout
from .solve import read_result


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("view", help="write a self-contained HTML page that steps through a result or an analysis",
                       description="Write one self-contained HTML page that steps through a result (`patience "
                                   "solve --json`) or an analysis (`patience analyse --json`: the game with the "
                                   "verdict after each move, the first losing move marked, and a button that steps "
                                   "through the winning line from just before it instead).")
    p.add_argument("result", help="a result JSON file written by `patience solve --json`, or an analysis written by "
                                  "`patience analyse --json`")
    p.add_argument("--layout", help="the layout (default: the one the result names)")
    add_settings(p)
    add_out(p, "the page")
    p.set_defaults(handler=run_view)


def run_view(args: argparse.Namespace) -> int:
    where = shown(args.result)
    obj = read_result(args.result, analysis=True)
    if obj.get("kind") == "analysis":
        from ..draw.viewer import analysis_html

        checked = api.Analysis.from_json(obj, where)
        analysis, layout = api.load_analysis(checked, recorded_layout(args, checked.layout, checked.max_rank),
                                             where=where)
        emit(analysis_html(analysis, layout), args.out)
        return 0
    result = api.load_result(obj, recorded_layout(args, obj["layout"], obj.get("max_rank")), where=where)
    emit(result.html(), args.out)
    return 0
