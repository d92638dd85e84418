"""The games of chance (issue #25): exact odds against published figures and a peer, known shuffles timed.

``python -m benchmarks.chance [--casino-seeds 1-200] [--casino-timeout 60] [--out DIR]`` writes
DIR/chance.json and DIR/chance.md (default benchmarks/results/chance); with ``--casino-only``
only Casino's known shuffles, to DIR/casino.json and DIR/casino.md, rewritten after every deal
(an interrupted run keeps the deals done):

- the banker's tables of ``blackjack`` for 1, 2, 6 and 8 packs, standing and hitting on soft 17, in
  fractions, against every published table reachable here (``PUBLISHED_DEALER`` names them);
- the expectation of ``blackjack`` under the rule sets of published basic-strategy figures;
- the peer ``exactbj`` (PyPI; composition-dependent single-deck hit/stand), when it is installed;
- the exact odds of the texts' games (Lansquenet, Quinze, Vingt-un, Двадцать один), with time;
- known shuffles: seeds 1..1000 of each of those decided, and Casino's seeds with its time limit.

Run it alone on the machine (its times are wall seconds; the report notes the load).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver import api
from solver.batch import parse_seeds
from solver.bench.machine import busy_notes, load_average, machine
from solver.families.chance.odds import dealer_table, report
from solver.families.chance.rules import TwentyOne
from solver.families.chance.twentyone import Odds
from solver.limits import Limits

OUTCOMES = ("17", "18", "19", "20", "21", "natural", "bust")
WIZARD_2B = "The Wizard of Odds, blackjack appendix 2B (before the peek), wizardofodds.com/games/blackjack/appendix/2b/"
WIZARD_2A = "The Wizard of Odds, blackjack appendix 2A (after the peek), wizardofodds.com/blackjack/appendix2.html"
BJINFO = "blackjackinfo.com, dealer outcome probabilities (after the peek, percent to 2 decimals)"

# Published banker's tables: (decks, hits soft 17, peeked, source, places) -> up-card -> values in
# OUTCOMES order (peeked tables have no "natural" column: None there).
PUBLISHED_DEALER: list[tuple[int, bool, bool, str, int, dict[str, list[float | None]]]] = [
    (1, False, False, WIZARD_2B, 6, {
        "A": [0.126128, 0.131003, 0.129486, 0.131553, 0.0515646, 0.313726, 0.11654],
        "2": [0.138976, 0.131762, 0.131815, 0.123948, 0.120526, 0, 0.352973],
        "3": [0.130313, 0.130946, 0.123761, 0.123345, 0.116047, 0, 0.375588],
        "4": [0.130973, 0.114163, 0.120679, 0.116286, 0.115096, 0, 0.402803],
        "5": [0.119687, 0.123483, 0.116909, 0.104694, 0.106321, 0, 0.428905],
        "6": [0.166948, 0.106454, 0.107192, 0.100705, 0.0978785, 0, 0.420823],
        "7": [0.372345, 0.138583, 0.0773344, 0.0788967, 0.072987, 0, 0.259854],
        "8": [0.130857, 0.362989, 0.129445, 0.0682898, 0.0697914, 0, 0.238627]}),
    (1, False, True, WIZARD_2A, 6, {
        "A": [0.183786, 0.19089, 0.18868, 0.191692, 0.075137, None, 0.169815],
        "9": [0.121886, 0.103921, 0.357391, 0.12225, 0.061109, None, 0.233442],
        "10": [0.124156, 0.122486, 0.124421, 0.356869, 0.03957, None, 0.232499]}),
    (2, False, True, WIZARD_2A, 6, {
        "A": [0.186367, 0.189883, 0.188851, 0.190272, 0.076531, None, 0.168096],
        "2": [0.139367, 0.133348, 0.130744, 0.123997, 0.119254, None, 0.353291],
        "3": [0.132764, 0.130676, 0.124575, 0.121811, 0.11538, None, 0.374794],
        "4": [0.130704, 0.120208, 0.121038, 0.116366, 0.113145, None, 0.39854],
        "5": [0.121005, 0.122831, 0.117318, 0.109022, 0.10732, None, 0.422505],
        "6": [0.166224, 0.10617, 0.106749, 0.101217, 0.097508, None, 0.422132],
        "7": [0.370478, 0.138195, 0.078013, 0.078781, 0.07339, None, 0.261143],
        "8": [0.129697, 0.361182, 0.129025, 0.068857, 0.06961, None, 0.24163],
        "9": [0.12094, 0.112016, 0.354051, 0.121118, 0.060977, None, 0.230898],
        "10": [0.122412, 0.1216, 0.122524, 0.36387, 0.038449, None, 0.231144]}),
    (1, True, True, BJINFO, 4, {
        up: [None if x is None else x / 100 for x in row] for up, row in {
            "2": [12.98, 13.31, 13.32, 12.56, 12.20, None, 35.63],
            "3": [12.35, 13.19, 12.50, 12.42, 11.73, None, 37.81],
            "4": [12.28, 11.54, 12.19, 11.78, 11.63, None, 40.58],
            "5": [11.67, 12.38, 11.74, 10.52, 10.69, None, 43.00],
            "6": [11.61, 11.38, 11.61, 10.96, 10.67, None, 43.78],
            "7": [37.23, 13.86, 7.73, 7.89, 7.30, None, 25.99],
            "8": [13.09, 36.30, 12.94, 6.83, 6.98, None, 23.86],
            "9": [12.19, 10.39, 35.74, 12.23, 6.11, None, 23.34],
            "10": [12.42, 12.25, 12.44, 35.69, 3.96, None, 23.25],
            "A": [8.18, 20.54, 20.62, 20.95, 9.26, None, 20.46]}.items()}),
]

BASIC = dict(upcard=True, natural_pays="3:2", banker_natural_collects="1:1", double="any-two", split_hands=4)
# Published basic-strategy expectations: (what, decks, rule changes, the player's expectation in %, source).
PUBLISHED_EV: list[tuple[str, int, dict[str, Any], float, str]] = [
    ("infinite shoe, S17, DAS, split to 4 (aces once, one card each)", 0,
     {"double_after_split": True}, -0.511734, "The Wizard of Odds, blackjack appendix 1"),
    ("1 pack, S17, DAS, split to 4 (aces once, one card each)", 1,
     {"double_after_split": True}, 0.1839, "The Wizard of Odds, blackjack appendix 9 (1ds17r4)"),
    ("1 pack, S17, no DAS, split to 4", 1, {}, 0.0423, "The Wizard of Odds, blackjack appendix 9 (1ds17r4)"),
    ("2 packs, H17, DAS, split to 4", 2, {"double_after_split": True, "hits_soft_17": True}, -0.3797,
     "The Wizard of Odds, blackjack appendix 9 (2dh17r4)"),
    ("6 packs, H17, no hole card, DAS, split to 4", 6,
     {"double_after_split": True, "hits_soft_17": True, "peek": False}, -0.72705,
     "The Wizard of Odds, blackjack appendix 9 (euro-6dh17r4)"),
    ("8 packs, H17, no hole card, DAS, split to 4", 8,
     {"double_after_split": True, "hits_soft_17": True, "peek": False}, -0.7562,
     "The Wizard of Odds, blackjack appendix 9 (euro-8dh17r4)"),
]


def dealer_section() -> dict[str, Any]:
    out: dict[str, Any] = {"tables": {}, "published": []}
    for decks in (1, 2, 6, 8):
        for h17 in (False, True):
            layout = api.load_layout("blackjack", None, [f"decks={decks}", f"hits_soft_17={str(h17).lower()}"])
            t0 = time.perf_counter()
            table = dealer_table(layout)
            out["tables"][f"{decks}{'H' if h17 else 'S'}17"] = {"seconds": round(time.perf_counter() - t0, 3),
                                                              "table": table}
    for decks, h17, peeked, source, places, rows in PUBLISHED_DEALER:
        rules = TwentyOne(**BASIC, hits_soft_17=h17)  # type: ignore[arg-type]
        odds = Odds(rules, decks, Fraction)
        worst = 0.0
        for up, row in rows.items():
            u = 1 if up == "A" else int(up)
            c = list(odds.full)
            c[u - 1] -= 1
            dist = odds.dealer((u, u == 1, 1), tuple(c), peeked)
            ours = [float(dist.get(int(k) if k.isdigit() else (100 if k == "natural" else -1), 0)) for k in OUTCOMES]
            worst = max(worst, max(abs(a - b) for a, b in zip(ours, row) if b is not None))
        out["published"].append({"decks": decks, "hits_soft_17": h17, "after_peek": peeked, "source": source,
                                 "up_cards": list(rows), "places": places, "largest_difference": worst,
                                 "agrees": worst <= 10 ** -places})
    return out


def ev_section() -> list[dict[str, Any]]:
    rows = []
    for what, decks, changes, published, source in PUBLISHED_EV:
        rules = TwentyOne(**{**BASIC, **changes})  # type: ignore[arg-type]
        t0 = time.perf_counter()
        value = 100 * Odds(rules, decks).expectation()
        rows.append({"rules": what, "decks": decks, "ours_percent": round(value, 6), "published_percent": published,
                     "difference_percent": round(value - published, 6), "source": source,
                     "seconds": round(time.perf_counter() - t0, 2)})
    return rows


def peer_section() -> dict[str, Any]:
    """exactbj (PyPI): one pack, the dealer hits soft 17, no doubling or splitting, 3:2."""
    try:
        import exactbj  # type: ignore[import-not-found]
    except ImportError:
        return {"installed": False}
    rules = TwentyOne(upcard=True, natural_pays="3:2", banker_natural_collects="1:1", hits_soft_17=True,
                      peek=False)
    odds = Odds(rules, 1, Fraction)
    worst = 0.0
    for u in range(1, 11):
        c = list(odds.full)
        c[u - 1] -= 1
        dist = odds.dealer((u, u == 1, 1), tuple(c), False)
        peer_comp = c[1:9] + [c[9], c[0]]  # exactbj: 2..9, ten, ace
        theirs = exactbj.dealer_outcomes(9 if u == 1 else u - 2, peer_comp)
        ours = [float(dist.get(t, 0)) for t in (17, 18, 19, 20, 21, 100, -1)]
        worst = max(worst, max(abs(a - b) for a, b in zip(ours, theirs)))
    fast = Odds(rules, 1)
    same = differ = 0
    examples = []
    for a in range(1, 11):
        for b in range(a, 11):
            for u in range(1, 11):
                c = list(fast.full)
                for v in (a, b, u):
                    c[v - 1] -= 1
                if min(c) < 0 or (a + b == 11 and 1 in (a, b)):
                    continue
                hard, ace = a + b, 1 in (a, b)
                b0 = (u, u == 1, 1)
                values = fast.first(hard, ace, tuple(c), b0, False)
                ours_stand = values["S"] >= values["H"]
                total = fast.best(hard, ace)
                theirs_stand = exactbj.best_action(total, fast.soft(hard, ace), 9 if u == 1 else u - 2,
                                                   c[1:9] + [c[9], c[0]])
                if ours_stand == bool(theirs_stand):
                    same += 1
                else:
                    differ += 1
                    if len(examples) < 10:
                        examples.append(f"{a},{b} v {u}: ours {'stand' if ours_stand else 'hit'}")
    return {"installed": True, "dealer_largest_difference": worst, "first_decisions_same": same,
            "first_decisions_different": differ, "different_examples": examples,
            "note": "both without the peek (exactbj's README does not condition on the dealer's natural; "
                    "ours with peek = false does not either)"}


def texts_section() -> list[dict[str, Any]]:
    rows = []
    for name, settings in (("lansquenet", []), ("lansquenet", ["double_banker_card=play"]),
                           ("lansquenet", ["stakes=every-single", "double_banker_card=play"]),
                           ("quinze", []), ("quinze", ["draw=doubled"]), ("vingt-un", []), ("dvadtsat-odin", []),
                           ("blackjack", []), ("blackjack", ["decks=8", "hits_soft_17=true"])):
        layout = api.load_layout(name, None, settings)
        t0 = time.perf_counter()
        rep = report(layout)
        rep.pop("_odds", None)
        rows.append({"layout": name, "set": settings, "seconds": round(time.perf_counter() - t0, 2),
                     "player_expectation": rep["expectation"], "exact": rep.get("exact"),
                     "banker_edge_per_stake": rep.get("banker_edge_per_stake"),
                     "banker_rule": rep.get("banker_rule")})
    return rows


def percentile(times: list[float], q: int) -> float:
    """The q-th percentile of ``times`` (nearest rank)."""
    ordered = sorted(times)
    return ordered[max(0, -(-q * len(ordered) // 100) - 1)]


def casino_deals(span: list[int], timeout: float, save: Any = None) -> list[dict[str, Any]]:
    """Each Casino seed decided for the elder hand within ``timeout`` seconds: verdict, seconds, nodes,
    the table, the core; ``save(rows)`` after each deal."""
    layout = api.load_layout("casino")
    rows: list[dict[str, Any]] = []
    for seed in span:
        t0 = time.perf_counter()
        result = api.solve(layout, seed=seed, limits=Limits(timeout=timeout))
        rows.append({"seed": seed, "verdict": result.verdict, "seconds": round(time.perf_counter() - t0, 3),
                     "nodes": result.stats.get("nodes"), "table": result.stats.get("table"),
                     "core": result.stats.get("core"), "score": result.score,
                     "score_at_least": result.stats.get("score_at_least"),
                     "score_at_most": result.stats.get("score_at_most")})
        print(f"casino #{seed}: {result.verdict} in {rows[-1]['seconds']} s ({result.stats.get('nodes')} nodes)",
              file=sys.stderr, flush=True)
        if save is not None:
            save(rows)
    return rows


def casino_summary(rows: list[dict[str, Any]], timeout: float) -> dict[str, Any]:
    """Counts, and the median, p90 and largest time over every deal (an unknown one at the time it
    was stopped) and over the decided ones."""
    times = [r["seconds"] for r in rows]
    decided = [r["seconds"] for r in rows if r["verdict"] != "unknown"]
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("won", "lost", "drawn", "unknown")}
    return {"layout": "casino", "seeds": f"{rows[0]['seed']}-{rows[-1]['seed']}" if rows else "-",
            "deals": len(rows), **counts,
            "median_s": round(statistics.median(times), 4) if times else None,
            "p90_s": round(percentile(times, 90), 4) if times else None,
            "max_s": round(max(times), 4) if times else None,
            "decided_median_s": round(statistics.median(decided), 4) if decided else None,
            "decided_p90_s": round(percentile(decided, 90), 4) if decided else None,
            "timeout_s": timeout}


def shuffles_section(seeds: dict[str, list[int]], casino_timeout: float) -> list[dict[str, Any]]:
    rows = []
    for name, span in seeds.items():
        if name == "casino":
            rows.append({**casino_summary(casino_deals(span, casino_timeout), casino_timeout)})
            continue
        layout = api.load_layout(name)
        limits = Limits(timeout=60)
        times, counts = [], {"won": 0, "lost": 0, "drawn": 0, "unknown": 0}
        for seed in span:
            t0 = time.perf_counter()
            result = api.solve(layout, seed=seed, limits=limits)
            times.append(time.perf_counter() - t0)
            counts[result.verdict] += 1
        rows.append({"layout": name, "seeds": f"{span[0]}-{span[-1]}", "deals": len(span), **counts,
                     "median_s": round(statistics.median(times), 4),
                     "p90_s": round(percentile(times, 90), 4),
                     "max_s": round(max(times), 4), "timeout_s": limits.timeout})
    return rows


def casino_markdown(rep: dict[str, Any], command: str) -> str:
    m, s = rep["machine"], rep["summary"]
    lines = ["# Casino: known shuffles decided for the elder hand", "",
             f"`{command}`; {m['cpu']}, {m['cores']} cores, commit {m['commit']}, {m['date']}; 1-minute load "
             f"{m['load_at_start']} at the start, {m.get('load_at_end', '-')} at the end.", "",
             "| seeds | won | lost | drawn | unknown | median s | p90 s | max s | decided: median s | p90 s | "
             "limit s |", "|---|---|---|---|---|---|---|---|---|---|---|",
             f"| {s['seeds']} | {s['won']} | {s['lost']} | {s['drawn']} | {s['unknown']} | {s['median_s']} | "
             f"{s['p90_s']} | {s['max_s']} | {s['decided_median_s']} | {s['decided_p90_s']} | {s['timeout_s']:g} |",
             "", "| seed | verdict | seconds | nodes | core |", "|---|---|---|---|---|"]
    lines += [f"| {r['seed']} | {r['verdict']} | {r['seconds']} | {r['nodes']} | {r['core']} |" for r in rep["deals"]]
    lines += [""] + [f"Note: {n}." for n in rep.get("notes", [])]
    return "\n".join(lines).rstrip() + "\n"


def casino_only(argv: list[str], span: list[int], timeout: float, out: Path) -> int:
    """Casino's known shuffles alone: DIR/casino.json and casino.md, rewritten after each deal."""
    info = machine()
    command = "python -m benchmarks.chance " + " ".join(argv)
    out.mkdir(parents=True, exist_ok=True)
    rep: dict[str, Any] = {"machine": info, "deals": []}

    def save(rows: list[dict[str, Any]], final: bool = False) -> None:
        rep["deals"] = rows
        rep["summary"] = casino_summary(rows, timeout)
        if final:
            info["load_at_end"] = load_average()
            rep["notes"] = busy_notes(info["load_at_start"], info["load_at_end"], 1, info["cores"])
        (out / "casino.json").write_text(json.dumps(rep, indent=1) + "\n")
        (out / "casino.md").write_text(casino_markdown(rep, command.strip()))

    rows = casino_deals(span, timeout, save)
    save(rows, final=True)
    print(casino_markdown(rep, command.strip()))
    return 0


def markdown(rep: dict[str, Any], command: str) -> str:
    m = rep["machine"]
    lines = ["# The games of chance", "", f"`{command}`; {m['cpu']}, {m['cores']} cores, commit {m['commit']}, "
             f"{m['date']}; 1-minute load {m['load_at_start']} at the start, {m['load_at_end']} at the end.", "",
             "## The banker's tables (blackjack, exact fractions)", "",
             "| packs, rule | seconds |", "|---|---|"]
    lines += [f"| {k} | {v['seconds']} |" for k, v in rep["dealer"]["tables"].items()]
    lines += ["", "| published table | up-cards | largest difference | agrees to |", "|---|---|---|---|"]
    for p in rep["dealer"]["published"]:
        lines.append(f"| {p['decks']} pack{'s' if p['decks'] > 1 else ''} {'H' if p['hits_soft_17'] else 'S'}17, "
                     f"{'after' if p['after_peek'] else 'before'} the peek ({p['source']}) | "
                     f"{' '.join(p['up_cards'])} | {p['largest_difference']:.2e} | "
                     f"{p['places']} decimals: {'yes' if p['agrees'] else 'NO'} |")
    lines += ["", "## Basic-strategy expectation (blackjack, 3:2, double any two, the player's %)", "",
              "| rules | ours | published | difference | seconds | source |", "|---|---|---|---|---|---|"]
    lines += [f"| {r['rules']} | {r['ours_percent']:+.6f} | {r['published_percent']:+.6f} | "
              f"{r['difference_percent']:+.6f} | {r['seconds']} | {r['source']} |" for r in rep["ev"]]
    peer = rep["peer"]
    lines += ["", "## The peer: exactbj (PyPI), one pack, H17, hit/stand only", ""]
    if peer["installed"]:
        lines += [f"Banker's outcomes by up-card: largest difference {peer['dealer_largest_difference']:.2e}. "
                  f"First hit/stand decisions on every two-card hand and up-card: {peer['first_decisions_same']} "
                  f"the same, {peer['first_decisions_different']} different "
                  f"({'; '.join(peer['different_examples']) or 'none'}). {peer['note']}."]
    else:
        lines += ["Not installed (`pip install exactbj` to compare)."]
    lines += ["", "## The texts' games (and blackjack's layout): the player's exact expectation per round", "",
              "| layout | --set | player | exactly | banker's edge per stake | banker's rule | seconds |",
              "|---|---|---|---|---|---|---|"]
    for r in rep["texts"]:
        edge = r["banker_edge_per_stake"]
        exact = r["exact"] if r["exact"] and len(r["exact"]) < 40 else "-"
        lines.append(f"| {r['layout']} | {' '.join(r['set']) or '-'} | {100 * r['player_expectation']:+.6f}% | "
                     f"{exact} | {'-' if edge is None else f'{100 * edge:+.6f}%'} | {r['banker_rule'] or '-'} | "
                     f"{r['seconds']} |")
    lines += ["", "## Known shuffles (minimax, the player's seat; casino: the elder hand)", "",
              "| layout | seeds | won | lost | drawn | unknown | median s | p90 s | max s | limit s |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['layout']} | {r['seeds']} | {r['won']} | {r['lost']} | {r['drawn']} | {r['unknown']} | "
              f"{r['median_s']} | {r['p90_s']} | {r['max_s']} | {r['timeout_s']:g} |" for r in rep["shuffles"]]
    lines += [""] + [f"Note: {n}." for n in rep["notes"]]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.chance", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-1000", help="seeds of lansquenet, quinze, vingt-un, dvadtsat-odin, "
                                                      "blackjack (default 1-1000)")
    ap.add_argument("--casino-seeds", default="1-200", help="Casino's seeds (default 1-200)")
    ap.add_argument("--casino-timeout", type=float, default=60.0, help="seconds per Casino deal (default 60)")
    ap.add_argument("--casino-only", action="store_true", help="only Casino's seeds: DIR/casino.json and casino.md")
    ap.add_argument("--out", default="benchmarks/results/chance")
    args = ap.parse_args(argv)
    if args.casino_only:
        return casino_only(argv, parse_seeds(args.casino_seeds), args.casino_timeout, Path(args.out))
    info = machine()
    t0 = time.perf_counter()
    seeds = {name: parse_seeds(args.seeds) for name in ("lansquenet", "quinze", "vingt-un", "dvadtsat-odin",
                                                         "blackjack")}
    seeds["casino"] = parse_seeds(args.casino_seeds)
    rep: dict[str, Any] = {"machine": info}
    for key, run in (("dealer", dealer_section), ("ev", ev_section), ("peer", peer_section),
                     ("texts", texts_section), ("shuffles", lambda: shuffles_section(seeds, args.casino_timeout))):
        print(f"benchmarks.chance: {key} ...", file=sys.stderr, flush=True)
        rep[key] = run()
    info["load_at_end"] = load_average()
    rep["wall_seconds"] = round(time.perf_counter() - t0, 1)
    rep["notes"] = busy_notes(info["load_at_start"], info["load_at_end"], 1, info["cores"])
    command = "python -m benchmarks.chance " + " ".join(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "chance.json").write_text(json.dumps(rep, indent=1) + "\n")
    text = markdown(rep, command.strip())
    (out / "chance.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
