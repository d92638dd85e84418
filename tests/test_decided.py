"""What decided a result and how far a search got (issue #24): ``decided_by``, ``bound``,
``max_depth``, ``cuts`` and the slack, the same in both cores; the tables' breakdown of losses."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from solver import api, batch
from solver.bench.summary import summarize
from solver.cli import main
from solver.engines.core import compiled_available, start_position
from solver.engines.dfs import Restarts, compiled_dfs, dfs
from solver.families.hole import position as hole
from solver.families.reserve import position as reserve
from solver.families.reserve.position import ReservePosition
from solver.families.tableau import position as tableau
from solver.limits import Limits
from solver.result import BOUND, CPSAT, DECIDED_BY, SEARCH, bound_name, loss_argument

KLONDIKE_8 = api.load_layout("klondike", 8)  # seed 9 lost at the deal, 10 lost by a search, 1 won


def test_a_loss_at_the_deal_names_its_bound():
    r = api.solve(KLONDIKE_8, seed=9)
    assert (r.verdict, r.stats["nodes"], r.stats["decided_by"]) == ("lost", 0, BOUND)
    assert r.stats["bound"] == bound_name(r.reason) == "blocked" and r.stats["cuts"] == {"blocked": 1}


def test_a_loss_by_search_and_a_win_say_search():
    lost = api.solve(KLONDIKE_8, seed=10)
    assert (lost.verdict, lost.reason, lost.stats["decided_by"]) == ("lost", None, SEARCH)
    assert lost.stats["nodes"] > 0 and lost.stats["cuts"]["blocked"] > 0 and "bound" not in lost.stats
    won = api.solve(KLONDIKE_8, seed=1)
    assert won.verdict == "won" and won.stats["decided_by"] == SEARCH
    assert won.stats["max_depth"] >= len(won.solution or [])  # the winning line is one the search entered


def test_an_unknown_says_how_far_it_got():
    r = api.solve("debutante", seed=58, limits=Limits(max_nodes=3000))
    assert r.verdict == "unknown" and "decided_by" not in r.stats
    assert r.stats["max_depth"] > 10 and set(r.stats["cuts"]) <= {"buried card", "counting bound", "copy count",
                                                                   "timed copy count", "pairing bound"}
    pos = ReservePosition(api.load_layout("debutante"), api.make_deal(api.load_layout("debutante"), 58))
    assert r.stats["slack_at_root"] == pos.slack() is not None
    assert r.stats["slack_on_line"] <= r.stats["slack_at_root"]
    # A family without a slack says nothing of it.
    assert "slack_at_root" not in api.solve("golf", seed=3, limits=Limits(max_nodes=3000)).stats


def test_cpsat_says_cpsat():
    r = api.solve(api.load_layout("debutante", 4), seed=1, engine="cpsat", limits=Limits(timeout=20))
    assert r.verdict == "won" and r.stats["decided_by"] == CPSAT


@pytest.mark.skipif(not compiled_available(), reason="the compiled core is not built")
@pytest.mark.parametrize("name, seed", [("debutante", 58), ("colorado", 1), ("klondike", 2),
                                        ("canfield", 2)])
def test_both_cores_count_the_same_depths_and_cuts(name, seed):
    """The compiled search's deepest line, depth and cuts are the Python search's, node for node."""
    lay = api.load_layout(name)
    deal = api.make_deal(lay, seed)
    ref, _ = start_position(lay, deal, "python")
    core, _ = start_position(lay, deal, "compiled")
    want = dfs(ref, Limits(max_nodes=2500), restarts=Restarts())
    got = compiled_dfs(core, Limits(max_nodes=2500), restarts=Restarts())
    line = []
    for code in got.deepest:
        line.append(core.reference_move(code))
        core.push(code)
    for _ in got.deepest:
        core.pop()
    assert (got.verdict, got.nodes, got.max_depth, got.cuts, line) == \
        (want.verdict, want.nodes, want.max_depth, want.cuts, want.deepest)
    assert got.max_depth == len(got.deepest) > 0


def test_each_familys_bounds_have_distinct_names():
    for module in (hole, reserve, tableau):
        names = [bound_name(r) for r in module.DEAD_REASONS]
        assert len(set(names)) == len(names) and all(names), module.__name__


def test_a_negative_slack_is_a_cut():
    """The slack is the counting bound's room: below zero, the bound cuts the position."""
    rnd = random.Random(5)
    seen = set()
    for name in ("debutante", "debutante-fifo"):
        lay = api.load_layout(name)
        for seed in range(1, 16):
            pos = ReservePosition(lay, api.make_deal(lay, seed))
            for _ in range(40):
                s = pos.slack()
                assert s is not None
                seen.add(s < 0)
                if s < 0:
                    assert pos.is_dead() is not None
                moves = pos.legal_moves()
                if not moves:
                    break
                pos.push(rnd.choice(moves))
    assert seen == {True, False}
    assert ReservePosition(api.load_layout("debutante-unlimited"),
                           api.make_deal(api.load_layout("debutante-unlimited"), 1)).slack() is None


def test_loss_argument_reads_old_results_from_their_reason():
    assert loss_argument(None, {}) == SEARCH
    assert loss_argument("cp-sat: the model is infeasible", None) == CPSAT
    assert loss_argument("counting bound: the forty-first card rule", {"decided_by": "dfs"}) == \
        "bound at the deal (counting bound)"  # an old portfolio named the engine
    assert loss_argument("heads bound: x", {"decided_by": BOUND, "bound": "heads bound"}) == \
        "bound at the deal (heads bound)"
    assert set(DECIDED_BY) == {SEARCH, BOUND, CPSAT, "learned"}


def test_breakdown_counts_losses_and_takes_medians_of_what_was_recorded():
    rows = [("won", None, 5, {}), ("lost", None, 90, {"decided_by": SEARCH}),
            ("lost", "counting bound: x", 0, {}), ("lost", "counting bound: x", 0, {}),
            ("unknown", "timeout 1 s", 100, {"max_depth": 40, "slack_at_root": 2}),
            ("unknown", "timeout 1 s", 300, {"max_depth": 60}), ("unknown", "timeout 1 s", 200, {})]
    b = batch.breakdown(rows)
    assert b["lost_by"] == {"bound at the deal (counting bound)": 2, "search": 1}
    assert (b["unknown_median_depth"], b["unknown_median_nodes"], b["unknown_median_slack"]) == (50, 200, 2)
    assert batch.breakdown([])["unknown_median_depth"] is None


def test_bench_rows_recorded_before_the_breakdown_still_summarize():
    rows = [{"seed": 1, "verdict": "lost", "reason": "buried card: y", "seconds": 0.1, "nodes": 0},
            {"seed": 2, "verdict": "unknown", "reason": "timeout 10 s", "seconds": 10.0, "nodes": 9}]
    s = summarize(rows)
    assert s["lost_by"] == {"bound at the deal (buried card)": 1}
    assert s["unknown_median_nodes"] == 9 and s["unknown_median_depth"] is None


def test_batch_and_report_break_losses_down(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    db = tmp_path / "k.sqlite"
    assert main(["batch", "klondike", "--max-ranks", "8", "--seeds", "1-12", "--jobs", "1", "--db", str(db),
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert sum(summary["lost_by"].values()) == summary["lost"] > 0
    assert summary["lost_by"]["bound at the deal (blocked)"] >= 1 and summary["lost_by"]["search"] >= 1
    # A row stored before the statistics existed: its loss is read from its reason.
    conn = sqlite3.connect(db)
    conn.execute("UPDATE results SET result = '{}' WHERE seed = 9")
    conn.commit()
    conn.close()
    assert main(["report", str(db), "--json"]) == 0
    [again] = json.loads(capsys.readouterr().out)
    assert again["lost_by"] == summary["lost_by"]
    assert main(["report", str(db)]) == 0
    line = next(t for t in capsys.readouterr().out.splitlines() if t.startswith("klondike dfs: lost by "))
    assert "bound at the deal (blocked)" in line and "search" in line
