"""Analysing played games: how long ``patience analyse`` takes on games a player could have played.

``python -m benchmarks.analyse [--layout debutante] [--seeds 1-40] [--player mistake,greedy]
[--at 0.5] [--out DIR]`` makes one game per seed and player, analyses it with the defaults of ``patience
analyse`` (10 s per search, 60 s in all, the compiled core), and writes DIR/analyse.json and
DIR/analyse.md (default benchmarks/results/analyse): per game its length, the start's own
solve, the analysis's seconds, searches and nodes, the first losing move and the positions left
unknown; then the median, p90 and maximum, and how many games took under 5 s.  Run it alone
on the machine (``--note`` records anything else worth knowing about the run).

The players (``game``), each deterministic given the seed:

* ``greedy``: at every move the search's own first choice (its forced move, else the first of
  its ordered legal moves), with no look-ahead, until the game is won or no move is left;
* ``mistake``: a good player who errs once: the solver's winning line (``patience solve``'s
  solution) for its first half (``--at``), then one other legal move picked at random (seeded
  by the deal), then the greedy player to the end (which may still win).  Deals the solver does
  not win in 10 s have no such game.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from solver import api
from solver.batch import parse_seeds
from solver.bench.machine import busy_notes, load_average, machine
from solver.families import family_of
from solver.families.base import solution_json
from solver.limits import Limits

PLAYERS = ("mistake", "greedy")
TARGET_SECONDS = 5.0


def greedy(layout: Any, start: Any) -> list[dict[str, Any]]:
    """The greedy player's moves from ``start`` (a deal or a position), in the result contract."""
    pos = family_of(layout).start_position(layout, start)
    while not pos.is_won():
        forced = pos.forced_move()
        moves = [forced] if forced is not None else pos.legal_moves()
        if not moves:
            break
        pos.push(moves[0])
    played = list(pos.history)
    while pos.history:
        pos.pop()
    return solution_json(pos, played)


def game(layout: Any, seed: int, player: str, at: float = 0.5) -> list[dict[str, Any]] | None:
    """The game ``player`` plays on deal ``seed`` (None: no such game, see the module text)."""
    deal = api.make_deal(layout, seed)
    if player == "greedy":
        return greedy(layout, deal)
    won = api.solve(layout, deal=deal, limits=Limits(timeout=10))
    if won.verdict != "won":
        return None
    line = won.solution or []
    m = int(at * len(line))
    at = api.position_after(layout, deal, line[:m])
    pos = family_of(layout).start_position(layout, at)
    others = [x for x in pos.legal_moves() if (j := pos.move_json(x)) is not None and j != line[m]]
    if not others:
        return line  # no other move there: the line is played to the end
    pos.push(random.Random(seed).choice(others))
    played = list(pos.history)  # the move as the game's moves (a compound move of the search is several)
    pos.pop()
    wrong = solution_json(pos, played)
    return [*line[:m], *wrong, *greedy(layout, api.position_after(layout, at, wrong))]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.analyse", description=__doc__.split("\n\n")[0])
    ap.add_argument("--layout", default="debutante")
    ap.add_argument("--seeds", default="1-40")
    ap.add_argument("--player", default=",".join(PLAYERS), help=f"players, comma separated: {', '.join(PLAYERS)}")
    ap.add_argument("--at", type=float, default=0.5, help="where the mistake player errs: a share of the line")
    ap.add_argument("--out", default="benchmarks/results/analyse")
    ap.add_argument("--note", action="append", default=[], help="a note for the report (repeatable)")
    args = ap.parse_args(argv)
    players = [p.strip() for p in args.player.split(",")]
    if bad := [p for p in players if p not in PLAYERS]:
        ap.error(f"--player: expected {', '.join(PLAYERS)}, got {bad[0]!r}")
    layout = api.load_layout(args.layout)
    info = machine()
    rows = []
    for player in players:
        for seed in parse_seeds(args.seeds):
            moves = game(layout, seed, player, args.at)
            if moves is None:
                continue
            deal = api.make_deal(layout, seed)
            t0 = time.perf_counter()
            start = api.solve(layout, deal=deal, limits=Limits(timeout=10))
            solve_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            a = api.analyse(layout, moves, deal=deal, seed=seed, limits=Limits(timeout=10), budget=60)
            seconds = time.perf_counter() - t0
            row = {"player": player, "seed": seed, "moves": len(moves), "start": start.verdict,
                   "start_solve_s": round(solve_s, 4), "seconds": round(seconds, 4),
                   "searches": a.stats["searches"], "nodes": a.stats["nodes"],
                   "first_losing_move": a.first_losing_move, "lost_after": a.lost_after,
                   "unknown": sum(v == "unknown" for v in a.verdicts)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    info["load_at_end"] = load_average()
    summary = {p: _summary([r for r in rows if r["player"] == p]) for p in players}
    long_games = [r for r in rows if r["moves"] >= 120]
    summary["games of 120 moves or more"] = _summary(long_games)
    command = shlex.join(["python", "-m", "benchmarks.analyse", *argv])
    notes = args.note + busy_notes(info["load_at_start"], info["load_at_end"], 1, info["cores"])
    report = {"machine": info, "command": command, "layout": layout.name, "players": players, "rows": rows,
              "summary": summary, "notes": notes}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "analyse.json").write_text(json.dumps(report, indent=2) + "\n")
    (out / "analyse.md").write_text(_markdown(report))
    print(_markdown(report))
    return 0


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {"games": 0}
    secs = sorted(r["seconds"] for r in rows)
    return {"games": len(rows), "median_s": round(statistics.median(secs), 4),
            "p90_s": round(secs[min(len(secs) - 1, int(0.9 * len(secs)))], 4), "max_s": round(secs[-1], 4),
            "under_5s": sum(s < TARGET_SECONDS for s in secs),
            "median_moves": statistics.median(r["moves"] for r in rows),
            "with_unknown": sum(r["unknown"] > 0 for r in rows),
            "median_searches": statistics.median(r["searches"] for r in rows)}


def _markdown(report: dict[str, Any]) -> str:
    info = report["machine"]
    lines = ["# Analysing played games", "",
             f"`{report['command'].strip()}`: layout {report['layout']}, `patience analyse`'s defaults (10 s per "
             f"search, 60 s in all, compiled core); {info['cpu']}, {info['cores']} cores, commit {info['commit']}, "
             f"{info['date']}; 1-minute load {info['load_at_start']} at the start, {info['load_at_end']} at the end.",
             "", "| games | count | moves (median) | searches (median) | median s | p90 s | max s | under 5 s | "
             "with unknown positions |", "|---|---|---|---|---|---|---|---|---|"]
    for name, s in report["summary"].items():
        if s["games"]:
            lines.append(f"| {name} | {s['games']} | {s['median_moves']} | {s['median_searches']} | {s['median_s']} | "
                         f"{s['p90_s']} | {s['max_s']} | {s['under_5s']} | {s['with_unknown']} |")
    lines += ["", "| player | seed | moves | start | start solve s | analysis s | searches | nodes | first losing move "
              "| lost after | unknown |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in report["rows"]:
        lines.append(f"| {r['player']} | {r['seed']} | {r['moves']} | {r['start']} | {r['start_solve_s']} | "
                     f"{r['seconds']} | {r['searches']} | {r['nodes']:,} | {_none(r['first_losing_move'])} | "
                     f"{_none(r['lost_after'])} | {r['unknown']} |")
    lines += [""] + [f"Note: {n}." for n in report["notes"]]
    return "\n".join(lines).rstrip() + "\n"


def _none(v: Any) -> str:
    return "-" if v is None else str(v)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
