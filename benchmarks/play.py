"""``patience play``: how long from a move to its verdict, on games a player could play.

``python -m benchmarks.play [--seeds 1-3] [--moves 30] [--deviate 0.3] [--out DIR] [--note TEXT]`` serves each
deal as ``patience play`` does (``solver.play``, on 127.0.0.1, the default 10 s per search, the
compiled core) and plays it through HTTP as the page does: a player who follows the hint most of
the time and otherwise makes another legal move (seeded by the deal: ``--deviate`` of the moves),
for at most ``--moves`` moves or until the game is won.  After each move it asks for the verdict
of the new position (long polls, as the page) and records the wall time from sending the move to
holding a verdict that is not ``searching``, and whether the move's own answer held it already
(a position on a winning line found before: no search).  A lost position goes back to the last
won one (the page's "back to before it"), as a player would.

The layouts: Klondike (draw 1), FreeCell, Spider with ``foundations.takes=card`` (its default
rule, whole suits only, leaves the DFS undecided past 10 s on most deals) and debutante.  Writes
DIR/play-dNN.json and DIR/play-dNN.md (NN: the deviation in percent; DIR by default
benchmarks/results/play-DATE): per layout the positions timed, how many were decided, the
median, p90 and maximum seconds over the decided ones (the target: median <= 0.5 s), and the
machine's load.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from solver import api
from solver.batch import parse_seeds
from solver.bench.machine import busy_notes, load_average, machine
from solver.draw.replay import steps
from solver.play import Session, contract_move, make_server, stock_moves

LAYOUTS: list[tuple[str, list[str]]] = [("klondike-draw-1", []), ("freecell", []),
                                        ("spider", ["foundations.takes=card"]), ("debutante", [])]
DEVIATE = 0.3  # the share of moves that are not the hint's


class Client:
    def __init__(self, port: int):
        self.port = port

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json",
                                                      "Host": f"127.0.0.1:{self.port}"})
        r = conn.getresponse()
        out: dict[str, Any] = json.loads(r.read())
        conn.close()
        if r.status != 200:
            raise RuntimeError(f"{path}: {r.status} {out}")
        return out


def legal(session: Session, played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every move a player can make after ``played``: each number of cards from each stack onto
    each other stack, and the stock's own moves, kept where the referee accepts them."""
    layout = session.layout
    table = steps(layout, session.shown, played)[-1].table
    game = session.replayed(played).game
    tried = [m for src, pile in table.stacks.items() for dst in table.stacks if dst != src
             for count in range(1, len(pile) + 1) if (m := contract_move(layout, table, src, dst, count)) is not None]
    tried += stock_moves(layout, table)
    return [m for m in tried if game.copy().play(m) is None]


def play_game(name: str, settings: list[str], seed: int, most: int, deviate: float = DEVIATE) -> list[dict[str, Any]]:
    layout = api.load_layout(name, settings=settings)
    deal = api.make_deal(layout, seed=seed)
    session = Session(layout, deal, seed=seed)
    server = make_server(session, 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    client = Client(server.server_address[1])
    rnd = random.Random(f"{name} {seed}")
    rows: list[dict[str, Any]] = []
    try:
        moves: list[dict[str, Any]] = []
        verdict = client.post("/api/verdict", {"moves": moves, "wait": 60})
        while verdict["verdict"] == "searching":
            verdict = client.post("/api/verdict", {"moves": moves, "wait": 60})
        last_won = list(moves) if verdict["verdict"] == "won" else None
        while len(rows) < most:
            if verdict["verdict"] == "lost":
                if last_won is None:
                    break  # lost from the start: nothing to play
                moves = list(last_won)  # back to before the losing move
                verdict = client.post("/api/verdict", {"moves": moves, "wait": 60})
            line = verdict.get("line") or []
            if verdict.get("verdict") == "won" and not line:
                break  # the game is won
            if line and rnd.random() >= deviate:
                move = line[0]
            else:
                options = [m for m in legal(session, moves) if not line or m != line[0]]
                if not options:
                    if not line:
                        break
                    move = line[0]
                else:
                    move = rnd.choice(options)
            t0 = time.perf_counter()
            answer = client.post("/api/move", {"moves": moves, "move": move})
            if not answer["ok"]:
                raise RuntimeError(f"{name} #{seed}: the move {move} was refused: {answer['reason']}")
            moves = answer["position"]["moves"]
            verdict = answer["position"]["verdict"]
            at_once = verdict["verdict"] != "searching"
            while verdict["verdict"] == "searching" or verdict.get("losing", {}).get("searching"):
                if verdict["verdict"] != "searching":
                    break  # decided; the losing move's search is not timed here
                verdict = client.post("/api/verdict", {"moves": moves, "wait": 60})
            seconds = time.perf_counter() - t0
            assert verdict["id"] == answer["position"]["id"]
            rows.append({"layout": name, "seed": seed, "move": len(moves), "verdict": verdict["verdict"],
                         "seconds": round(seconds, 4), "at_once": at_once,
                         "search_seconds": verdict.get("seconds"), "followed_hint": bool(line) and move == line[0]})
            if verdict["verdict"] == "won":
                last_won = list(moves)
    finally:
        server.shutdown()
        server.server_close()
        session.close()
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    decided = sorted(r["seconds"] for r in rows if r["verdict"] in ("won", "lost"))
    searched = sorted(r["seconds"] for r in rows if r["verdict"] in ("won", "lost") and not r["at_once"])

    def q(xs: list[float], p: float) -> float | None:
        return round(xs[min(len(xs) - 1, int(p * len(xs)))], 4) if xs else None

    return {"positions": len(rows), "decided": len(decided), "won": sum(r["verdict"] == "won" for r in rows),
            "lost": sum(r["verdict"] == "lost" for r in rows), "unknown": sum(r["verdict"] == "unknown" for r in rows),
            "at_once": sum(r["at_once"] for r in rows),
            "median": round(statistics.median(decided), 4) if decided else None, "p90": q(decided, 0.9),
            "max": decided[-1] if decided else None,
            "median_searched": round(statistics.median(searched), 4) if searched else None,
            "p90_searched": q(searched, 0.9)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.play", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-3")
    parser.add_argument("--moves", type=int, default=30, help="at most this many moves per game")
    parser.add_argument("--out", default=f"benchmarks/results/play-{time.strftime('%Y-%m-%d')}")
    parser.add_argument("--deviate", type=float, default=DEVIATE, help="the share of moves that are not the hint's")
    parser.add_argument("--note", default="")
    args = parser.parse_args(argv)
    info = machine()
    rows: list[dict[str, Any]] = []
    for name, settings in LAYOUTS:
        for seed in parse_seeds(args.seeds):
            got = play_game(name, settings, seed, args.moves, args.deviate)
            rows += got
            s = summary(got)
            print(f"{name} #{seed}: {s['positions']} positions, median {s['median']} s, max {s['max']} s, "
                  f"unknown {s['unknown']}", file=sys.stderr, flush=True)
    info["load_at_end"] = load_average()
    notes = busy_notes(info["load_at_start"], info["load_at_end"], 1, info["cores"])
    per = {name + (" (" + ", ".join(settings) + ")" if settings else ""): summary([r for r in rows if r["layout"]
                                                                                   == name])
           for name, settings in LAYOUTS}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"play-d{round(args.deviate * 100)}"
    (out / f"{stem}.json").write_text(json.dumps({"machine": info, "notes": notes, "note": args.note,
                                                 "seeds": args.seeds, "most_moves": args.moves,
                                                 "deviate": args.deviate, "summary": per, "rows": rows},
                                                indent=1) + "\n")
    lines = [f"# `patience play`: seconds from a move to its verdict ({info['date']})", "",
             f"Games of seeds {args.seeds}, at most {args.moves} moves each, played through the server's HTTP "
             f"requests as the page plays them: the hint's move, or another legal move {round(args.deviate * 100)}% of "
             "the time; back to the last won position after a losing move. 10 s per search, the compiled core, "
             "one search at a time (`python -m benchmarks.play`).", "",
             "| layout | positions | won | lost | unknown | decided at once | median s (decided) | p90 s | max s "
             "| median s (searched) | p90 s (searched) |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, s in per.items():
        lines.append(f"| {name} | {s['positions']} | {s['won']} | {s['lost']} | {s['unknown']} | {s['at_once']} | "
                     f"{s['median']} | {s['p90']} | {s['max']} | {s['median_searched']} | {s['p90_searched']} |")
    lines += ["", "\"decided at once\": the move's own answer held the verdict (a position on a winning line "
              "found before, or after a lost one); \"searched\": the others, which waited for a search.", "",
              f"Machine: {info['cpu']}, {info['cores']} cores; 1-minute load {info['load_at_start']} at the start, "
              f"{info['load_at_end']} at the end (other sessions share the machine)."]
    lines += [f"- {n}" for n in notes]
    if args.note:
        lines += ["", args.note]
    (out / f"{stem}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
