"""``patience bench``: a tiny run end to end, resuming after an interruption, tables from partial
results, the presets of ``python -m benchmarks``, peers (present, absent, stand-ins), bad input."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from solver import api, shuffles
from solver.bench import Config, Target, machine, peers, perft, plots, report, session, store, summary
from solver.bench.plan import ranges, seed_plan, seeds_of
from solver.cli import main
from solver.engines.dfs import run_dfs
from solver.errors import InputError, UnsupportedError
from solver.families import family_of
from solver.layout import rule_values
from solver.limits import Limits
from solver.shuffles import from_seed

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parent.parent


def deals_of(folder: Path) -> list[dict[str, Any]]:
    return [r for r in store.read_records(folder / store.DEALS)[0] if r["kind"] == "deal"]


def groups_of(folder: Path) -> dict[tuple[str, str], dict[str, Any]]:
    rep = report.load(folder)
    return {(g["layout"], g["runner"]): g for g in rep["groups"]}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """One small run: two reduced-deck layouts, two seeds, both engines on two cores (the compiled
    one may be absent), perft, peers (none plays these layouts)."""
    out = tmp_path_factory.mktemp("bench")
    code = main(["bench", "debutante@5", "golf@9", "--seeds", "1-2", "--engines", "dfs,cpsat",
                 "--cores", "python,compiled", "--timeout", "60", "--perft", "--perft-playouts", "3", "--peers",
                 "--note", "a note of the user", "--out", str(out)])
    assert code == 0
    return out


def test_tiny_run_json(tiny: Path):
    rep = report.load(tiny)
    assert rep["format"] == "patience-bench" and rep["complete"]
    assert rep["config"]["seeds"] == {"debutante@5": "1-2", "golf@9": "1-2"}
    assert rep["config"]["targets"] == ["debutante@5", "golf@9"]
    assert rep["machine"]["cores"] >= 1 and rep["machine"]["versions"]["python"]
    [s] = rep["sessions"]
    assert s["ended"] == "complete" and s["load_at_end"] is not None and s["jobs"] == 1
    groups = {(g["layout"], g["runner"]): g for g in rep["groups"]}
    ran = {k: g for k, g in groups.items() if g["unsupported"] is None}
    assert {"dfs/python", "cpsat"} <= {r for _, r in ran}
    for g in ran.values():
        assert g["deals"] == 2 and g["won"] + g["lost"] + g["unknown"] == 2
        assert [r["seed"] for r in g["rows"]] == [1, 2]
        assert g["median_s"] <= g["p90_s"] <= g["max_s"]
        assert g["peak_mb"] > 1 and g["won_low"] <= g["won_share"] <= g["won_high"]
    # Known verdicts: debutante A..5 deals 1 and 2 are won, golf A..9 deals 1 and 2 are lost.
    for e in ("dfs/python", "cpsat"):
        assert groups[("debutante@5", e)]["won"] == 2 and groups[("debutante@5", e)]["won_share"] == 1.0
        assert groups[("golf@9", e)]["lost"] == 2 and groups[("golf@9", e)]["decided_share"] == 1.0
    compiled = groups[("debutante@5", "dfs/compiled")]
    if compiled["unsupported"] is not None:  # no compiled core here: said so, not a crash
        assert "compiled" in compiled["unsupported"] and compiled["rows"] == []
    pairs = {(c["layout"], c["runner"], c["against"]): c for c in rep["comparisons"]}
    agree = pairs[("debutante@5", "cpsat", "dfs/python")]
    assert agree["both_decided"] == 2 and agree["disagree"] == [] and agree["time_ratio"] > 0
    assert [p["layout"] for p in rep["perft"]] == ["debutante@5", "golf@9"]
    assert all(p["playouts"] == 9 and p["positions_per_s"] > 0 for p in rep["perft"])
    assert "a note of the user" in rep["notes"]
    # Solvitaire plays Golf on a reduced deck: it ran, or a note says it is not installed
    assert ("golf@9", "solvitaire") in groups or any("peers for golf@9: solvitaire is not installed" in n
                                                     for n in rep["notes"])
    assert any("peers for debutante@5: no peer plays this layout" in n for n in rep["notes"])


def test_tiny_run_markdown(tiny: Path):
    md = (tiny / "bench.md").read_text()
    header = "| " + " | ".join(report.RESULT_COLUMNS) + " |"
    assert header in md and "Complete: all" in md
    table = md.split(header, 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    rows = [line.split(" | ")[:3] for line in table]
    assert ["| debutante@5", "dfs/python", "2"] in rows and ["| debutante@5", "cpsat", "2"] in rows
    assert rows[0] == ["| debutante@5", "dfs/python", "2"]  # layouts, then runners, in the order given
    for section in ("## Sessions", "## Results", "## Comparisons", "## Core speed (perft)", "## Peers", "## Notes"):
        assert section in md
    assert "load_at_start | load_at_end" in md
    if plots_available():
        assert (tiny / "bench-times.png").read_bytes()[:4] == b"\x89PNG"
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
    rep = {"groups": [{"layout": "x", "runner": "dfs", "rows": [{"seconds": 0.1}]}]}
    names, note = plots.plot(rep, tmp_path)
    assert names == [] and "matplotlib is not installed" in note
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------ resuming, interrupting


def small_config(seeds: str = "1-6", **kw: Any) -> Config:
    targets = [Target("debutante", 5)]
    return Config(targets=targets, seeds=seed_plan([seeds], targets), engines=["dfs"], command="test", **kw)


def test_interrupted_run_keeps_what_it_did_and_resumes(tmp_path: Path, monkeypatch):
    """Interrupted after 3 deals: those 3 are stored and tabled; the rerun solves the other 3 only,
    and the rows are those of a run that was never interrupted, none twice."""
    append = store.DealStore.append
    calls = {"deals": 0}

    def stop_after_three(self: store.DealStore, record: dict[str, Any]) -> None:
        if record["kind"] == "deal" and calls["deals"] == 3:
            raise KeyboardInterrupt
        calls["deals"] += record["kind"] == "deal"
        append(self, record)

    monkeypatch.setattr(store.DealStore, "append", stop_after_three)
    first = session.run(small_config(), tmp_path, progress=False, plots=False)
    assert first.stopped == "interrupted" and first.exit_code == session.EXIT_INTERRUPTED
    assert (first.report["finished"], first.report["planned"], first.report["complete"]) == (3, 6, False)
    assert [r["seed"] for r in deals_of(tmp_path)] == [1, 2, 3]
    md = (tmp_path / "bench.md").read_text()
    assert "**Incomplete:** 3 of 6 deals" in md and "| debutante@5 | dfs | 3/6 |" in md
    monkeypatch.setattr(store.DealStore, "append", append)

    second = session.run(small_config(), tmp_path, progress=False, plots=False)
    assert second.stopped == "complete" and second.report["complete"]
    rows = deals_of(tmp_path)
    assert sorted(r["seed"] for r in rows) == [1, 2, 3, 4, 5, 6]
    assert [r["session"] for r in rows] == [1, 1, 1, 2, 2, 2]
    assert [s["ended"] for s in second.report["sessions"]] == ["interrupted", "complete"]
    straight = tmp_path / "straight"
    session.run(small_config(), straight, progress=False, plots=False)
    key = ("seed", "verdict", "nodes", "moves")
    assert [[r[k] for k in key] for r in sorted(rows, key=lambda r: r["seed"])] == \
        [[r[k] for k in key] for r in deals_of(straight)]

    third = session.run(small_config(), tmp_path, progress=False, plots=False)  # all done: nothing solved
    assert len(deals_of(tmp_path)) == 6 and third.report["sessions"][-1]["deals"] == 0


def test_sigterm_stops_the_run_with_the_tables_written(tmp_path: Path):
    """A real run in its own process, stopped by SIGTERM once a few deals are stored."""
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "solver", "bench", "golf@9", "--seeds", "1-5000", "--engines",
                             "dfs", "--no-plots", "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:  # no deadline: however slow the machine (the Python core), the run stores its deals
        while proc.poll() is None and not ((out / store.DEALS).exists() and len(deals_of(out)) >= 3):
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate()
    finally:
        proc.kill()
    assert proc.returncode == session.EXIT_TERMINATED, err
    stored = deals_of(out)
    assert 3 <= len(stored) < 5000 and len({r["seed"] for r in stored}) == len(stored)
    rep = json.loads((out / "bench.json").read_text())
    assert rep["finished"] == len(stored) and rep["sessions"][0]["ended"] == "SIGTERM"
    assert "run the same command again" in err


def test_tables_from_partial_results(tmp_path: Path):
    """A deals file left by a run killed outright (its last line cut short, no end record):
    the next run drops the cut line, keeps the stored deals and solves the rest."""
    session.run(small_config("1-2"), tmp_path, progress=False, plots=False)
    path = tmp_path / store.DEALS
    lines = store.read_bytes(path).decode().splitlines(keepends=True)
    store.gz(path).unlink()  # as the run left it when it was killed: not yet gzipped
    kept = [line for line in lines if '"kind":"end"' not in line]
    path.write_text("".join(kept) + '{"kind":"deal","session":1,"layout":"debutante@5","rul')
    out = session.run(small_config("1-4"), tmp_path, progress=False, plots=False)
    assert out.report["complete"] and sorted(r["seed"] for r in deals_of(tmp_path)) == [1, 2, 3, 4]
    assert [s["ended"] for s in out.report["sessions"]] == ["killed (no end record)", "complete"]
    assert all(line.endswith("\n") for line in store.read_bytes(path).decode().splitlines(keepends=True))


def test_report_rebuilt_from_stored_records_alone():
    config = small_config("1-3")
    groups, _ = session.plan_groups(config)
    records = [{"kind": "meta"}, {"kind": "session", "session": 1, "jobs": 1, "machine": {"cores": 2}},
               *({"kind": "deal", "session": 1, "layout": "debutante@5", "rules_version": groups[0].rules_version,
                  "runner": "dfs", "seed": s, "verdict": v, "reason": None, "seconds": t, "cpu_s": t, "nodes": n,
                  "moves": None, "peak_mb": 30.0} for s, v, t, n in [(1, "won", 0.5, 10), (3, "lost", 0.1, 4)])]
    rep = report.build(config, groups, records, [])
    [g] = rep["groups"]
    assert (g["deals"], g["planned"], rep["finished"], rep["planned"], rep["complete"]) == (2, 3, 2, 3, False)
    assert [r["seed"] for r in g["rows"]] == [1, 3]
    assert rep["sessions"][0]["ended"] == "running, or killed"
    assert "**Incomplete:** 2 of 3 deals" in report.markdown(rep)


def test_store_never_adds_a_deal_twice(tmp_path: Path):
    s = store.DealStore(tmp_path, {"timeout": 1.0})
    s.open()
    row = {"kind": "deal", "session": 1, "layout": "x", "rules_version": 1, "runner": "dfs", "seed": 1,
           "verdict": "won"}
    s.append(row)
    s.append(dict(row, verdict="lost"))
    s.close()
    assert [r["verdict"] for r in deals_of(tmp_path)] == ["won"]


def test_a_second_run_into_the_same_folder_is_refused(tmp_path: Path):
    first = store.DealStore(tmp_path, {})
    first.open()
    try:
        with pytest.raises(InputError, match="another `patience bench` is writing"):
            store.DealStore(tmp_path, {}).open()
    finally:
        first.close()


# --------------------------------------------------------------- presets


def test_preset_honours_its_arguments(tmp_path: Path):
    """The old bug: asked for golf seeds 1-3, the suite measured black-hole 1..1000."""
    from benchmarks.presets import PRESETS, bench_command

    words = bench_command(PRESETS["hole"], ["golf@9", "--seeds", "1-3", "--no-peers", "--timeout", "30",
                                            "--no-plots", "--out", str(tmp_path)])
    assert main(["bench", *words]) == 0
    rep = report.load(tmp_path)
    assert [(g["layout"], g["runner"], [r["seed"] for r in g["rows"]]) for g in rep["groups"]] == \
        [("golf@9", "dfs", [1, 2, 3])]
    assert rep["config"]["limits"] == {"timeout": 30.0} and not rep["config"]["peers"]
    assert rep["command"].startswith("patience bench golf@9 --seeds 1-3 --engines dfs --timeout 30")


def test_preset_keeps_its_own_options_and_drops_seeds_of_layouts_not_run():
    from benchmarks.presets import PRESETS, bench_command

    words = bench_command(PRESETS["tableau"], ["freecell", "canfield", "--jobs", "2"])
    assert words[:2] == ["freecell", "canfield"]
    seeds = [words[i + 1] for i, w in enumerate(words) if w == "--seeds"]
    assert seeds == ["1-200", "freecell=1-1000,11982"]  # klondike's seeds went with klondike
    assert "--peers" in words and words[words.index("--fc-solve-args") + 1] == "-l lg"
    assert words[words.index("--jobs") + 1] == "2"
    assert bench_command(PRESETS["tableau"], ["--seeds", "1-5"]).count("--seeds") == 1


def test_peg_preset_writes_the_single_vacancy_layouts(tmp_path: Path):
    from benchmarks.presets import PRESETS, bench_command

    words = bench_command(PRESETS["peg"], ["english-33", "--vacancies", "english-33", "--goals", "vacated",
                                           "--out", str(tmp_path)])
    files = [w for w in words if w.endswith(".toml")]
    assert len(files) == 33 and words[0] == "english-33"
    lay = api.load_layout(str(tmp_path / "layouts" / "english-33-c1-vacated.toml"))
    assert lay.name == "english-33-c1-vacated"
    assert api.make_deal(lay) == api.load_layout("english-33").variant("v", empty=["c1"]).deal_from_seed()


def test_solvitaire_preset_runs_only_layouts_solvitaire_is_given():
    """Every layout of the preset goes to Solvitaire (a layout it cannot be given would be ours alone)."""
    from benchmarks.presets import SOLVITAIRE

    s = peers.Solvitaire()
    assert [n for n in SOLVITAIRE if s.options(api.load_layout(n)) is None] == []


def test_solvitaire_preset_writes_the_presets_solvitaire_plays_otherwise(tmp_path: Path):
    from benchmarks.presets import PRESETS, SOLVITAIRE_WRITTEN, bench_command

    words = bench_command(PRESETS["solvitaire"], ["--seeds", "1-2", "--out", str(tmp_path)])
    files = [w for w in words if w.endswith(".toml")]
    assert [Path(f).name for f in files] == [f"{g}-{kind}.toml" for g, kind in SOLVITAIRE_WRITTEN.items()]
    s = peers.Solvitaire()
    for f, (game, kind) in zip(files, SOLVITAIRE_WRITTEN.items(), strict=True):
        lay, built_in = api.load_layout(f), api.load_layout(game)
        assert lay.name == f"{game}-{kind}" and s.options(built_in) is None and s.options(lay) is not None
        if kind == "singly":  # the same deals, cards home one at a time
            assert (built_in.foundations.takes, lay.foundations.takes) == ("column", "card")
            assert api.make_deal(lay, 7) == api.make_deal(built_in, 7)
        else:  # the same game on Solvitaire's deals: given to it as its seed
            assert rule_values(lay) == rule_values(built_in)
            assert api.make_deal(lay, 7) == shuffles.solvitaire_deal(lay, 7) != api.make_deal(built_in, 7)
            assert s.options(lay)[2:] == [peers.SEED]
    none = bench_command(PRESETS["solvitaire"], ["--written", "none", "--out", str(tmp_path / "b")])
    assert not [w for w in none if w.endswith(".toml")] and not (tmp_path / "b").exists()
    with pytest.raises(InputError, match="--written: expected"):
        bench_command(PRESETS["solvitaire"], ["--written", "klondike", "--out", str(tmp_path / "c")])


def test_benchmarks_main_dry_run_and_bad_preset(capsys):
    from benchmarks.__main__ import main as bench_main

    assert bench_main(["hole", "golf", "--seeds", "1-3", "--dry-run"]) == 0
    assert capsys.readouterr().out.startswith("patience bench golf --seeds 1-3 --engines dfs")
    assert bench_main(["no-such-preset"]) == 2
    assert bench_main([]) == 0 and "winrates:" in capsys.readouterr().out


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


def test_fc_solve_presets_go_only_with_freecells_rules():
    freecell = peers.fc_solve_options(api.load_layout("freecell"))
    seahaven = peers.fc_solve_options(api.load_layout("seahaven-towers"))
    assert freecell == peers.FREECELL_OPTIONS
    assert peers.extra_args(freecell, ["-l", "lg"]) == (["-l", "lg"], None)
    kept, note = peers.extra_args(seahaven, ["-l", "lg", "--method", "soft-dfs"])
    assert kept == ["--method", "soft-dfs"] and note is not None and "-l lg" in note


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed")
def test_fc_solve_keeps_seahavens_rules_without_a_preset():
    """Seahaven Towers deal 91 is lost (our complete search); fc-solve with -l lg 'solves' it by
    breaking the kings-only spaces rule, and without the preset agrees with us."""
    lay = api.load_layout("seahaven-towers")
    board = family_of(lay).deal_to_board(lay, from_seed(lay, 91))
    opts = peers.fc_solve_options(lay)
    assert opts is not None
    with_preset = peers.run_fc_solve(shutil.which("fc-solve"), opts + ["-l", "lg"], board, 60)
    plain = peers.run_fc_solve(shutil.which("fc-solve"), opts, board, 60)
    assert with_preset["verdict"] == "won"  # the reason presets are left out for this game
    assert plain["verdict"] == "lost"


def test_absent_peers_are_skipped_with_a_note(monkeypatch):
    for peer in peers.PEERS.values():
        monkeypatch.setattr(peer, "locate", lambda: None)
    targets = [Target("freecell")]
    groups, notes = session.plan_groups(Config(targets=targets, seeds=seed_plan(["1"], targets), engines=[],
                                               peers=True))
    assert groups == []
    assert any("fc-solve is not installed here: skipped" in n and "freecell-solver-bin" in n for n in notes)
    assert any("freecell-solver is not installed here" in n for n in notes)


def test_peer_end_to_end_with_a_stand_in(tmp_path, monkeypatch):
    """The whole fc-solve path (board file, process, parser, rows, comparison) with a stand-in
    fc-solve that prints the stored sample, so that it runs where fc-solve is not installed."""
    fake = tmp_path / "fc-solve"
    fake.write_text(f'#!/bin/sh\nif [ "$1" = --version ]; then echo "libfreecell-solver version 9.9.9"; '
                    f'else cat "{DATA / "fc-solve-solved.txt"}"; fi\n')
    fake.chmod(0o755)
    monkeypatch.setattr(peers.FcSolve, "locate", lambda self: str(fake))
    monkeypatch.setattr(peers.FreecellSolverLib, "locate", lambda self: None)
    targets = [Target("freecell")]
    config = Config(targets=targets, seeds=seed_plan(["1-2"], targets), engines=[], peers=True,
                    fc_solve_args=["-l", "lg"], command="test")
    out = session.run(config, tmp_path / "run", progress=False, plots=False)
    [g] = out.report["groups"]
    assert (g["runner"], g["version"], g["deals"], g["won"], g["median_nodes"]) == ("fc-solve -l lg", "9.9.9", 2, 2,
                                                                                     4217)
    assert g["options"][-2:] == ["-l", "lg"] and [r["moves"] for r in g["rows"]] == [4, 4]
    assert all(r["cpu_s"] >= 0 for r in g["rows"])
    assert "- fc-solve -l lg 9.9.9 on freecell:" in (tmp_path / "run" / "bench.md").read_text()


@pytest.mark.skipif(peers.FcSolve().locate() is None, reason="fc-solve is not installed")
def test_fc_solve_runs_on_a_deal():
    lay = api.load_layout("freecell")
    board = lay_board(lay, 1)
    row = peers.FcSolve().solve(peers.FcSolve().locate() or "", board, peers.fc_solve_options(lay) or [],
                                Limits(timeout=60))
    assert row["verdict"] == "won" and row["nodes"] > 0 and row["moves"] > 0 and row["cpu_s"] > 0


def lay_board(lay: Any, seed: int) -> str:
    from solver.families import family_of

    return family_of(lay).deal_to_board(lay, api.make_deal(lay, seed))


class FakeLibrary:
    """A stand-in for PyPI's freecell_solver: suspended until ``needs`` iterations, then solved."""

    def __init__(self, needs: int):
        self.needs, self.limit, self.moves = needs, 0, 3

    def input_cmd_line(self, args: list[str]) -> None:
        self.args = args

    def limit_iterations(self, n: int) -> None:
        self.limit = n

    def get_num_times(self) -> int:
        return min(self.limit, self.needs)

    def solve_board(self, board: str) -> int:
        return peers.FCS_WAS_SOLVED if self.limit >= self.needs else peers.FCS_SUSPEND

    def resume_solution(self) -> int:
        return self.solve_board("")

    def get_next_move(self) -> object | None:
        self.moves -= 1
        return object() if self.moves >= 0 else None


def test_freecell_solver_library_steps_until_solved_or_cut(monkeypatch):
    lib = peers.FreecellSolverLib()
    fake = FakeLibrary(needs=25_000)
    monkeypatch.setattr(peers.FreecellSolverLib, "_instance", staticmethod(lambda: fake))  # read at each call
    row = lib.solve("freecell_solver", "board", ["-l", "lg"], Limits(timeout=60))
    assert (row["verdict"], row["nodes"], row["moves"]) == ("won", 25_000, 3) and fake.args == ["-l", "lg"]
    fake = FakeLibrary(needs=25_000)
    row = lib.solve("freecell_solver", "board", [], Limits(max_nodes=15_000))
    assert (row["verdict"], row["reason"], row["nodes"]) == ("unknown", "max-iters", 15_000)


@pytest.mark.skipif(peers.FreecellSolverLib().locate() is None, reason="freecell_solver (PyPI) is not usable here")
def test_freecell_solver_library_runs_on_a_deal():
    """FreeCell #1 is won (a solution of some moves), the library's search is the same each time
    (the same iterations and moves), and cut at half its iterations it has not won yet: the
    node count is the library's own count of the search, not a figure of the wrapper's."""
    lay = api.load_layout("freecell")
    lib, board, options = peers.FreecellSolverLib(), lay_board(lay, 1), peers.fc_solve_options(lay) or []
    row = lib.solve("freecell_solver", board, options, Limits(timeout=60))
    assert (row["verdict"], row["reason"]) == ("won", None) and row["moves"] > 0
    again = lib.solve("freecell_solver", board, options, Limits(timeout=60))
    assert (again["nodes"], again["moves"]) == (row["nodes"], row["moves"])
    if row["nodes"] >= 2:
        cap = row["nodes"] // 2
        cut = lib.solve("freecell_solver", board, options, Limits(timeout=60, max_nodes=cap))
        assert (cut["verdict"], cut["reason"]) == ("unknown", "max-iters") and cap <= cut["nodes"] < row["nodes"]


# ----------------------------------------------------------------- pieces


def test_engine_refuses_a_core_it_does_not_have():
    lay = api.load_layout("golf", 9)
    deal = api.make_deal(lay, 1)
    assert run_dfs(lay, deal, Limits(), core="python").stats["core"] == "python"
    for engine in ("dfs", "auto", "both"):  # the portfolios refuse it too, never run CP-SAT alone
        with pytest.raises(UnsupportedError, match="no core 'nonesuch'"):
            api.solve(lay, deal=deal, engine=engine, limits=Limits(timeout=5), core="nonesuch")


def test_target_parse_and_labels():
    assert Target.parse("debutante@5") == Target("debutante", 5)
    assert Target.parse("golf", 9) == Target("golf", 9) and Target.parse("golf").label == "golf"
    assert Target.parse("golf@9", 5).max_rank == 9
    assert Target.parse("some/dir/my-game.toml").label == "my-game"


def test_seed_plan_per_layout():
    targets = [Target("freecell"), Target("golf"), Target("golf", 9), Target("english-33")]
    plan = seed_plan(["1-3", "freecell=1-2,11982", "golf@9=5"], targets)
    assert plan == {"freecell": [1, 2, 11982], "golf": [1, 2, 3], "golf@9": [5], "english-33": [None]}
    assert seed_plan(["golf=7"], targets[1:3])["golf@9"] == [7]  # a name covers every deck size
    assert seed_plan([], targets[1:2])["golf"] == list(range(1, 21))


@pytest.mark.parametrize("specs, words", [
    (["1-3", "4"], "given twice"),
    (["klondike=1-3"], "none of the layouts"),
    (["golf=1", "golf=2"], "given twice"),
    (["english-33=1"], "no shuffle"),
])
def test_seed_plan_refuses(specs, words):
    with pytest.raises(InputError, match=words):
        seed_plan(specs, [Target("golf"), Target("english-33")])


def test_summary_counts_decided_deals_only():
    rows = [{"seed": s, "verdict": v, "seconds": t, "cpu_s": t, "nodes": n, "peak_mb": m}
            for s, v, t, n, m in [(1, "won", 1.0, 10, 20.0), (2, "lost", 3.0, 30, 25.0),
                                  (3, "unknown", 9.0, 60, 21.0), (4, "error", 0.5, None, 1.0)]]
    s = summary.summarize(rows)
    assert (s["won"], s["lost"], s["unknown"], s["errors"], s["decided_share"]) == (1, 1, 1, 1, 0.5)
    assert (s["median_s"], s["max_s"], s["median_nodes"], s["max_nodes"]) == (2.0, 3.0, 20, 30)
    assert (s["nodes_per_s"], s["peak_mb"]) == (7, 25.0)  # 100 nodes in 13.5 s
    # Unknowns and errors count as lost at the low end and as won at the high end.
    assert s["won_low"] < 0.25 < s["won_high"] and s["won_high"] > 0.5


def test_comparison_of_two_cores():
    a = [{"seed": i, "verdict": "won", "seconds": 0.1, "cpu_s": 0.1, "nodes": 100} for i in range(4)]
    b = [{"seed": i, "verdict": "won" if i else "lost", "seconds": 1.0, "cpu_s": 1.0, "nodes": 100 if i else 7}
         for i in range(5)]
    c = summary.compare(a, b, same_search=True)
    assert (c["deals"], c["both_decided"], c["disagree"], c["same_nodes"]) == (4, 4, [0], 3)
    assert c["time_ratio"] == 0.1 and c["nodes_per_s_ratio"] == pytest.approx(10 * 400 / 307, rel=1e-3)


def test_perft_is_reproducible():
    lay = api.load_layout("golf", 9)
    a, b = perft.perft(lay, playouts=4), perft.perft(lay, playouts=4)
    keys = ("positions", "moves_generated", "push_pop", "longest_playout")
    assert [a[k] for k in keys] == [b[k] for k in keys]
    assert a["push_pop"] == 2 * round(a["mean_playout"] * a["playouts"])


def test_busy_notes(monkeypatch):
    assert machine.busy_notes(3.5, None, 1, 2) == ["the 1-minute load average was 3.5 on 2 cores when the run started"]
    assert machine.busy_notes(0.1, 1.2, 1, 2) == []  # the run's own job
    assert "at the end" in machine.busy_notes(0.1, 2.9, 1, 2)[0]
    assert "more than the 2 cores" in machine.busy_notes(None, None, 3, 2)[0]
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    assert machine.busy_warning(1) is None


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize("argv, words", [
    (["no-such-layout"], "no-such-layout"),
    (["golf", "--seeds", "5-1"], "runs backwards"),
    (["golf", "--seeds", "freecell=1-3"], "none of the layouts"),
    (["golf", "--engines", "dfs,fast"], "--engines"),
    (["golf", "--cores", "py thon"], "--cores"),
    (["golf@x"], "NAME@R"),
    (["golf@3"], "--max-ranks 3"),
    (["golf", "golf"], "given twice"),
    (["golf", "--jobs", "0"], "--jobs"),
    (["golf", "--peers", "--fc-solve-args", "'open"], "--fc-solve-args"),
    (["golf", "--seeds", "1-2", "--out", "FILE"], "is a file"),
    (["golf", "--seeds", "1-2", "--out", "OLD"], "earlier benchmark"),
])
def test_bad_input_one_line_exit_2(argv, words, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_text("x")
    (tmp_path / "OLD").mkdir()
    (tmp_path / "OLD" / "bench.md").write_text("a recorded result")
    try:
        code = main(["bench", *argv])
    except SystemExit as e:  # argparse's own checks
        code = e.code
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and words in err, err
    assert not (tmp_path / "bench").exists()
    assert sorted(os.listdir(tmp_path / "OLD")) == ["bench.md"]


def test_resuming_with_other_limits_is_refused(tmp_path: Path, capsys):
    assert main(["bench", "golf@9", "--seeds", "1", "--no-plots", "--out", str(tmp_path)]) == 0
    before = store.read_bytes(tmp_path / store.DEALS)
    capsys.readouterr()
    assert main(["bench", "golf@9", "--seeds", "1", "--timeout", "5", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "never mixed" in err
    assert store.read_bytes(tmp_path / store.DEALS) == before
    assert not (tmp_path / store.DEALS).exists()  # still the finished run's gzipped copy alone


# ------------------------------------------------------------------ Solvitaire


def test_solvitaire_output():
    """Solvitaire's printed verdicts (samples from its 0.10.1 build): solved with its states,
    unsolvable, and timed out (ours: unknown)."""
    solved = peers.parse_solvitaire((DATA / "solvitaire-solved.txt").read_text())
    assert (solved["verdict"], solved["iterations"], solved["moves"]) == ("won", 21, 21)
    lost = peers.parse_solvitaire((DATA / "solvitaire-unsolvable.txt").read_text())
    assert (lost["verdict"], lost["iterations"], lost["moves"]) == ("lost", 12176, None)
    cut = peers.parse_solvitaire((DATA / "solvitaire-timed-out.txt").read_text())
    assert (cut["verdict"], cut["kind"]) == ("unknown", "timed-out")
    assert peers.parse_solvitaire("Segmentation fault\n")["verdict"] is None


def test_solvitaire_plays_what_its_rules_say():
    s = peers.Solvitaire()
    for name in ("freecell", "klondike", "canfield", "beleaguered-castle", "black-hole", "golf", "forty-thieves"):
        opts = s.options(api.load_layout(name))
        assert opts is not None and opts[0] == "--custom-rules" and json.loads(opts[1])
    assert s.options(api.load_layout("debutante")) is None
    # cells dealt: its deal file has none (its schema), so it deals the seed itself where ours is its own
    for name in ("eight-off", "forecell", "seahaven-towers"):  # PySolFC's numbering
        assert api.load_layout(name).cells.deal and s.options(api.load_layout(name)) is None
    fore = api.load_layout("fore-cell")
    opts = s.options(fore)
    assert fore.cells.deal and opts is not None and opts[2:] == [peers.SEED]
    assert json.loads(s.board(fore, api.make_deal(fore, 4), 4)) == {peers.SEED: 4}
    with pytest.raises(UnsupportedError, match="only as its own seed"):
        s.board(fore, api.make_deal(fore, 4), 5)
    # whole columns home: Solvitaire 0.10.1 would be told a rule it does not read (cards go home singly)
    spider = api.load_layout("spider")
    assert spider.foundations.takes == "column" and s.options(spider) is None
    singly = api.load_layout("spider", settings=["foundations.takes=card"])
    opts = s.options(singly)
    assert opts is not None and "only complete pile moves" not in json.loads(opts[1])["foundations"]


def _solvitaire_stand_in(tmp_path, checks: str, before_output: str = ""):
    """A stand-in for Solvitaire: prints its version, exits 9 unless ``checks`` (a shell test of
    its arguments after ``--custom-rules RULES --classify --timeout 5000``) holds, then runs
    ``before_output`` and prints a stored sample (unsolvable)."""
    fake = tmp_path / "solvitaire-stand-in"
    fake.write_text("#!/bin/sh\n"
                    'if [ "$1" = --version ]; then echo "[info] (Solvitaire version: 9.9.9)" >&2; exit 0; fi\n'
                    '[ "$1" = --custom-rules ] && [ -s "$2" ] && [ "$3" = --classify ] && [ "$4" = --timeout ] '
                    f'&& [ "$5" = 5000 ] && {checks} || exit 9\n'
                    f'{before_output}'
                    f'cat "{DATA / "solvitaire-unsolvable.txt"}"\n')
    fake.chmod(0o755)
    return fake


def test_solvitaire_end_to_end_with_a_stand_in_and_peer_path(tmp_path):
    """The Solvitaire path (rules and deal files, process, parser, rows) with a stand-in given by
    --peer-path that checks its arguments and prints a stored sample; the runners interleave."""
    fake = _solvitaire_stand_in(tmp_path, '[ -s "$6" ]')
    targets = [Target("canfield")]
    config = Config(targets=targets, seeds=seed_plan(["1-3"], targets), engines=["dfs"], peers=True,
                    limits=Limits(timeout=5.0), peer_paths={"solvitaire": str(fake)}, command="test")
    out = session.run(config, tmp_path / "run", progress=False, plots=False)
    g = {x["runner"]: x for x in out.report["groups"]}["solvitaire"]
    assert (g["version"], g["deals"], g["lost"], g["median_nodes"]) == ("9.9.9", 3, 3, 12176)
    summary = (tmp_path / "run" / "bench.md").read_text().split("## Summary", 1)[1].split("## Results")[0]
    assert "| canfield | 3 |" in summary and "solvitaire 0/3/0" in summary
    ran = [(r["runner"], r["seed"]) for r in deals_of(tmp_path / "run")]
    assert ran == [(runner, seed) for seed in (1, 2, 3) for runner in ("dfs", "solvitaire")]  # interleaved


def test_solvitaire_deals_its_own_seed_where_cells_are_dealt(tmp_path):
    """fore-cell (cards dealt into cells, which its deal file cannot hold): the stand-in is given
    the rules file and ``--random SEED`` in place of a deal file, the seed of each deal."""
    fake = _solvitaire_stand_in(tmp_path, '[ "$6" = --random ] && [ "$#" = 7 ]',
                                f'echo "$7" >> "{tmp_path / "seeds.txt"}"\n')
    targets = [Target("fore-cell")]
    config = Config(targets=targets, seeds=seed_plan(["2-3"], targets), engines=["dfs"], peers=True,
                    limits=Limits(timeout=5.0), peer_paths={"solvitaire": str(fake)}, command="test")
    out = session.run(config, tmp_path / "run", progress=False, plots=False)
    g = {x["runner"]: x for x in out.report["groups"]}["solvitaire"]
    assert (g["deals"], g["lost"], g["errors"]) == (2, 2, 0)
    assert (tmp_path / "seeds.txt").read_text().split() == ["2", "3"]


def test_peer_path_must_name_a_peer_and_a_program(tmp_path):
    targets = [Target("freecell")]
    for paths, message in (({"nobody": "/bin/sh"}, "expected a peer named"),
                           ({"solvitaire": str(tmp_path / "missing")}, "not an executable file")):
        config = Config(targets=targets, seeds=seed_plan(["1"], targets), peers=True, peer_paths=paths)
        with pytest.raises(InputError, match=message):
            session.check(config)


def test_solvitaires_printed_solution_replays_through_our_referee():
    """The positions Solvitaire printed for its win of its own '-test-free-cell' deal 2 (its
    random 2, our solvitaire generator's seed 2), read as moves, replay to a win."""
    from solver import solvitaire
    from solver.bench.disagree import replay_steps

    rules = {"tableau piles": {"count": 4, "build policy": "red-black"}, "cells": {"count": 1}, "max rank": 4}
    lay = solvitaire.rules_to_layout(rules, "t.json", "t")
    lay = replace(lay, deal=replace(lay.deal, generator="solvitaire"))
    deal = shuffles.solvitaire_deal(lay, 2)
    steps = peers.solvitaire_steps(peers.solvitaire_states((DATA / "solvitaire-solved.txt").read_text()))
    assert steps is not None and len(steps) == 21
    assert replay_steps(lay, deal, steps) is None
    assert replay_steps(lay, deal, steps[:-1]) is not None  # one move short is no win


def test_a_disagreement_is_replayed_and_the_bad_move_named(tmp_path):
    """A stand-in black-hole-solver that claims Golf deal 1 (which our complete search proves
    lost) with a first move our referee refuses: the report names that move."""
    fake = tmp_path / "bhs-stand-in"
    fake.write_text("#!/bin/sh\n"
                    'if [ "$1" = --version ]; then echo "black-hole-solver version 0.0.1"; exit 0; fi\n'
                    "printf 'Solved!\\nMove a card from stack 0 to the foundations\\n\\nInfo: Card moved is KC\\n'\n"
                    "printf '\\n--------------------\\nTotal number of states checked is 7.\\n'\n")
    fake.chmod(0o755)
    targets = [Target("golf")]
    config = Config(targets=targets, seeds=seed_plan(["1"], targets), engines=["dfs"], peers=True,
                    peer_paths={"black-hole-solver": str(fake)}, command="test")
    out = session.run(config, tmp_path / "run", progress=False, plots=False)
    [d] = out.report["disagreements"]
    assert (d["seed"], d["ours"], d["theirs"], d["against"]) == (1, "lost", "won", "black-hole-solver")
    assert d["referee"].startswith("the peer's solution goes wrong: peer move 1:")
    assert "## Disagreements" in (tmp_path / "run" / "bench.md").read_text()


def test_the_rows_are_kept_once_gzipped_and_read_back(tmp_path: Path):
    """A finished run keeps its deals file gzipped, the one copy of the rows: ``bench.json`` holds
    the summaries, and ``report.load`` reads the rows back as ``build`` made them; the next run
    unpacks the deals and goes on without solving a deal twice."""
    targets = [Target("black-hole")]
    config = Config(targets=targets, seeds=seed_plan(["1-3"], targets), command="test")
    out = tmp_path / "run"
    built = session.run(config, out, progress=False, plots=False).report
    assert not (out / store.DEALS).exists() and (out / "deals.jsonl.gz").exists()
    lean = json.loads((out / "bench.json").read_text())
    assert "rows" not in lean["groups"][0] and lean["groups"][0]["deals"] == 3
    assert report.load(out) == json.loads(json.dumps(built))  # the rows back, in the plan's order
    records, _ = store.read_records(out / store.DEALS)
    assert sum(r["kind"] == "deal" for r in records) == 3
    config = Config(targets=targets, seeds=seed_plan(["1-4"], targets), command="test")
    rep = session.run(config, out, progress=False, plots=False).report
    assert rep["groups"][0]["deals"] == 4
    records, _ = store.read_records(out / store.DEALS)
    assert sorted(r["seed"] for r in records if r["kind"] == "deal") == [1, 2, 3, 4]
    assert [r["seed"] for r in report.load(out)["groups"][0]["rows"]] == [1, 2, 3, 4]
    with pytest.raises(InputError, match="without its deals.jsonl"):
        (out / "deals.jsonl.gz").rename(tmp_path / "elsewhere.gz")
        report.prepare_out(out)


def test_seed_ranges_read_back():
    for seeds in ([1, 2, 3, 7, 9, 10], [5], [None], list(range(1, 1001)) + [11982]):
        assert seeds_of(ranges(seeds)) == seeds


def test_two_checkouts_compared_deal_by_deal(tmp_path):
    """``benchmarks.commits`` with this checkout on both sides: the same node counts on every deal,
    a positive speed ratio, the table and summary written."""
    from benchmarks import commits
    from solver.engines.core import compiled_available

    root = Path(__file__).resolve().parents[1]
    if not compiled_available():
        pytest.skip("the compiled core is not built")
    out = tmp_path / "cmp"
    assert commits.main([str(root), str(root), "black-hole=4,5", "--out", str(out), "--repeats", "1",
                         "--max-nodes", "5000"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [(d["game"], d["seed"], d["same_nodes"]) for d in summary["deals"]] == [
        ("black-hole", 4, True), ("black-hole", 5, True)]
    assert all(d["ratio"] > 0 for d in summary["deals"]) and set(summary["families"]) == {"hole"}
    assert "| black-hole | 4 |" in (out / "table.md").read_text()
