"""``patience bench``: a tiny run end to end, the fc-solve output parser, the pieces, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from solver import api
from solver.bench import Config, Target, machine, peers, perft, plots, report, runner, session
from solver.cli import main

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """One small run: two reduced-deck layouts, two seeds, both engines, perft, scaling, peers."""
    out = tmp_path_factory.mktemp("bench")
    code = main(["bench", "debutante@5", "golf@9", "--seeds", "1-2", "--engines", "dfs,cpsat", "--timeout", "60",
                 "--perft", "--perft-playouts", "3", "--scaling", "--scaling-layouts", "debutante",
                 "--scaling-ranks", "5,6", "--scaling-seeds", "1", "--peers", "--out", str(out)])
    assert code == 0
    return out


def test_tiny_run_json(tiny: Path):
    rep = json.loads((tiny / "bench.json").read_text())
    assert rep["format"] == "patience-bench"
    assert rep["config"]["seeds"] == "1-2"
    assert rep["config"]["targets"] == ["debutante@5", "golf@9"]
    assert rep["machine"]["cores"] >= 1 and rep["machine"]["versions"]["python"]
    groups = {(r["layout"], r["engine"]): r for r in rep["results"]}
    assert set(groups) == {(lay, e) for lay in ("debutante@5", "golf@9") for e in ("dfs", "cpsat")}
    for g in groups.values():
        assert g["deals"] == 2 and g["won"] + g["lost"] + g["unknown"] == 2
        assert [r["seed"] for r in g["rows"]] == [1, 2]
        assert g["median_s"] <= g["p90_s"] <= g["max_s"]
        assert g["peak_mb"] > 1 and g["nodes_per_s"] is not None
    # Known verdicts: debutante A..5 deals 1 and 2 are won, golf A..9 deals 1 and 2 are lost.
    for e in ("dfs", "cpsat"):
        assert groups[("debutante@5", e)]["won"] == 2 and groups[("debutante@5", e)]["won_share"] == 1.0
        assert groups[("golf@9", e)]["lost"] == 2 and groups[("golf@9", e)]["decided_share"] == 1.0
    assert [p["layout"] for p in rep["perft"]] == ["debutante@5", "golf@9"]
    for p in rep["perft"]:
        assert p["playouts"] == 9 and p["positions"] > 0 and p["positions_per_s"] > 0
    assert sorted((s["max_rank"], s["engine"], s["cards"]) for s in rep["scaling"]) == \
        [(5, "cpsat", 40), (5, "dfs", 40), (6, "cpsat", 48), (6, "dfs", 48)]
    assert rep["peers"] == []
    assert any("peers for golf@9: none" in n for n in rep["notes"])


def test_tiny_run_markdown(tiny: Path):
    md = (tiny / "bench.md").read_text()
    header = "| " + " | ".join(report.RESULT_COLUMNS) + " |"
    assert header in md
    table = md.split(header, 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert [line.split(" | ")[:3] for line in table] == [
        ["| debutante@5", "dfs", "2"], ["| debutante@5", "cpsat", "2"], ["| golf@9", "dfs", "2"],
        ["| golf@9", "cpsat", "2"]]
    for section in ("## Engines", "## Core speed (perft)", "## Scaling with the deal size", "## Peers", "## Notes"):
        assert section in md
    assert "| " + " | ".join(report.PERFT_COLUMNS) + " |" in md
    if plots_available():
        assert (tiny / "bench-times.png").read_bytes()[:4] == b"\x89PNG"
        assert (tiny / "bench-scaling.png").exists() and "![bench-times.png](bench-times.png)" in md
    else:
        assert "Plots skipped: matplotlib is not installed" in md


def plots_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def test_report_without_matplotlib(tmp_path: Path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    rep = {"results": [{"layout": "x", "engine": "dfs", "rows": [{"seconds": 0.1}]}], "scaling": [],
           "config": {"seeds": "1"}}
    names, note = plots.plot(rep, tmp_path)
    assert names == [] and "matplotlib is not installed" in note
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------- peers


def test_fc_solve_output_solved():
    parsed = peers.parse_fc_solve((DATA / "fc-solve-solved.txt").read_text())
    assert parsed == {"verdict": "won", "iterations": 4217, "generated": 4390, "moves": 4}


def test_fc_solve_output_unsolved_and_intractable():
    assert peers.parse_fc_solve((DATA / "fc-solve-unsolved.txt").read_text()) == \
        {"verdict": "lost", "iterations": 35265, "generated": 35265, "moves": None}
    assert peers.parse_fc_solve((DATA / "fc-solve-intractable.txt").read_text())["verdict"] == "unknown"
    assert peers.parse_fc_solve("Not enough input.\n") == \
        {"verdict": None, "iterations": None, "generated": None, "moves": None}


def test_fc_solve_options_come_from_the_layout():
    opts = peers.fc_solve_options(api.load_layout("freecell"))
    assert opts is not None
    pairs = dict(zip(opts[::2], opts[1::2]))
    assert pairs["--freecells-num"] == "4" and pairs["--stacks-num"] == "8"
    assert pairs["--sequences-are-built-by"] == "alternate_color"
    for name in ("black-hole", "golf", "debutante", "english-33"):
        assert peers.fc_solve_options(api.load_layout(name)) is None


def test_absent_peer_is_skipped_with_a_note(monkeypatch):
    monkeypatch.setattr(peers, "fc_solve_path", lambda: None)
    rep = session.run(Config(targets=[Target("freecell")], seeds=[1], engines=[], peers=True), progress=False)
    assert rep["peers"] == [] and rep["results"] == []
    assert any("fc-solve is not installed" in n for n in rep["notes"])


def test_peer_end_to_end_with_a_stand_in(tmp_path, monkeypatch):
    """The whole peer path (board file, process, parser, summary) with a stand-in fc-solve that
    prints the stored sample, so that it runs where fc-solve is not installed."""
    fake = tmp_path / "fc-solve"
    fake.write_text(f'#!/bin/sh\nif [ "$1" = --version ]; then echo "libfreecell-solver version 9.9.9"; '
                    f'else cat "{DATA / "fc-solve-solved.txt"}"; fi\n')
    fake.chmod(0o755)
    monkeypatch.setattr(peers, "fc_solve_path", lambda: str(fake))
    rep = session.run(Config(targets=[Target("freecell")], seeds=[1, 2], engines=[], peers=True,
                             peer_args=["-l", "lg"]), progress=False)
    [peer] = rep["peers"]
    assert (peer["peer"], peer["version"], peer["deals"], peer["won"]) == ("fc-solve", "9.9.9", 2, 2)
    assert peer["median_iterations"] == 4217 and peer["options"][-2:] == ["-l", "lg"]
    assert [r["moves"] for r in peer["rows"]] == [4, 4]
    md = report.markdown(rep)
    assert "| freecell | fc-solve | 9.9.9 | 2 | 2 | 0 | 0 | 0 |" in md


def test_benchmarks_suite_runs_patience_bench(tmp_path):
    from benchmarks import bench as suite

    assert suite.run(["debutante@5", "--seeds", "1", "--engines", "dfs", "--no-plots", "--out", str(tmp_path)]) == 0
    rep = json.loads((tmp_path / "bench.json").read_text())
    assert rep["config"]["command"].startswith("patience bench debutante@5 --seeds 1 --engines dfs")
    assert rep["results"][0]["won"] == 1


@pytest.mark.skipif(peers.fc_solve_path() is None, reason="fc-solve is not installed")
def test_fc_solve_runs_on_a_deal():
    from solver import deal as deals

    lay = api.load_layout("freecell")
    row = peers.run_fc_solve(peers.fc_solve_path(), peers.fc_solve_options(lay),
                             deals.to_board(api.make_deal(lay, 1), lay), timeout=60)
    assert row["verdict"] == "won" and row["iterations"] > 0 and row["moves"] > 0


# ----------------------------------------------------------------- pieces


def test_target_parse():
    assert Target.parse("debutante@5") == Target("debutante", 5)
    assert Target.parse("golf", 9) == Target("golf", 9) and Target.parse("golf").label == "golf"
    assert Target.parse("golf@9", 5).max_rank == 9


def test_seed_ranges_written_back():
    assert session._ranges([1, 2, 3, 5, 7, 8]) == "1-3,5,7-8"


def test_summary_counts():
    rows = [{"seed": s, "verdict": v, "seconds": t, "cpu_s": t, "nodes": n, "peak_mb": m}
            for s, v, t, n, m in [(1, "won", 1.0, 10, 20.0), (2, "lost", 3.0, 30, 25.0), (3, "unknown", 2.0, 20, 21.0)]]
    s = runner.summarize(rows)
    assert (s["won"], s["lost"], s["unknown"], s["decided_share"]) == (1, 1, 1, 0.6667)
    assert (s["median_s"], s["max_s"], s["median_nodes"], s["nodes_per_s"], s["peak_mb"]) == (2.0, 3.0, 20, 10, 25.0)


def test_perft_is_reproducible():
    lay = api.load_layout("golf", 9)
    a, b = perft.perft(lay, playouts=4), perft.perft(lay, playouts=4)
    keys = ("positions", "moves_generated", "push_pop", "longest_playout")
    assert [a[k] for k in keys] == [b[k] for k in keys]
    assert a["push_pop"] == 2 * round(a["mean_playout"] * a["playouts"])


def test_busy_warning(monkeypatch):
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (3.5, 3.0, 2.0))
    assert "load average is 3.5" in machine.busy_warning(1)
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    assert machine.busy_warning(1) is None
    assert "more than" in machine.busy_warning(10_000)


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize("argv, words", [
    (["no-such-layout"], "no-such-layout"),
    (["golf", "--seeds", "5-1"], "runs backwards"),
    (["golf", "--engines", "dfs,fast"], "--engines"),
    (["golf@x"], "NAME@R"),
    (["golf@3"], "--max-ranks 3"),
    (["golf", "--scaling-ranks", "0,5"], "--scaling-ranks"),
    (["golf", "--jobs", "0"], "--jobs"),
    (["golf", "--peers", "--fc-solve-args", "'open"], "--fc-solve-args"),
    (["golf", "--seeds", "1-2", "--out", "FILE"], "is a file"),
])
def test_bad_input_one_line_exit_2(argv, words, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_text("x")
    try:
        code = main(["bench", *argv])
    except SystemExit as e:  # argparse's own checks
        code = e.code
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and words in err, err
    assert not (tmp_path / "bench").exists()
