"""``patience report DB --winnable``: lists of the seeds a batch proved won (issue #40)."""

from __future__ import annotations

import ast
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from solver import batch_winnable as winnable
from solver.cli import main
from solver.families import load_layout

# Black Hole (PySolFC's numbering) cut at a node budget: won, lost and unknown deals in milliseconds.
BH = ["black-hole", "--max-nodes", "3000", "--jobs", "1"]
SEEDS = "1-12,20-23"


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse errors
        code = e.code if isinstance(e.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("winnable") / "bh.sqlite"
    assert main(["batch", *BH, "--seeds", SEEDS, "--db", str(db), "--json"]) == 0
    return db


@pytest.fixture
def db(made: Path, tmp_path: Path) -> Path:
    """A copy of the module's batch, for a test to change."""
    copy = tmp_path / "bh.sqlite"
    shutil.copy(made, copy)
    return copy


def stored(db: Path, verdict: str | None = None) -> list[tuple[int, int]]:
    """(seed, nodes) of the stored rows, of one verdict or all, by seed."""
    conn = sqlite3.connect(db)
    try:
        where, args = ("WHERE verdict = ?", (verdict,)) if verdict else ("", ())
        return conn.execute(f"SELECT seed, nodes FROM results {where} ORDER BY seed", args).fetchall()
    finally:
        conn.close()


def refused(code: int, out: str, err: str) -> bool:
    return code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("patience: error: ")


def test_the_batch_is_a_mix(made: Path) -> None:
    verdicts = {v for v, in sqlite3.connect(made).execute("SELECT verdict FROM results")}
    assert "won" in verdicts and verdicts - {"won"}, verdicts  # else the lists below prove little


def test_text_is_the_won_seeds_one_a_line(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["--format", "text"]):
        code, out, _ = cli(["report", str(made), "--winnable", *argv], capsys)
        assert code == 0
        assert out.splitlines() == [str(s) for s, _ in stored(made, "won")]


def test_pysolfc_is_a_python_module_with_the_right_header(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(["report", str(made), "--winnable", "--format", "pysolfc"], capsys)
    assert code == 0
    tree = ast.parse(out)  # Python, and nothing in it but the one assignment
    [assign] = tree.body
    assert isinstance(assign, ast.Assign) and [t.id for t in assign.targets if isinstance(t, ast.Name)] == \
        ["SOLVABLE_SEEDS"]
    seeds = ast.literal_eval(assign.value)
    won = [s for s, _ in stored(made, "won")]
    assert isinstance(seeds, tuple) and list(seeds) == won
    m = re.search(r"^# (\d+) seeds, covering (.*)\.$", out, re.MULTILINE)
    assert m is not None and int(m.group(1)) == len(won)
    assert m.group(2) == "1-12, 20-23"  # the seeds the batch covered, as runs
    counts = re.search(r"^# Of the (\d+) deals covered: (\d+) won, (\d+) lost, (\d+) unknown", out, re.MULTILINE)
    assert counts is not None
    every = stored(made)
    assert int(counts.group(1)) == len(every) and int(counts.group(2)) == len(won)
    assert int(counts.group(3)) + int(counts.group(4)) == len(every) - len(won)
    assert "PySolFC's Black Hole game number N" in out
    lines = [line for line in out.splitlines() if line.startswith("    ")]
    assert [len(line.split()) for line in lines[:-1]] == [winnable.PER_LINE] * (len(lines) - 1)
    assert 1 <= len(lines[-1].split()) <= winnable.PER_LINE


def test_json_gives_each_seed_its_cost_and_a_tier_by_thirds(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(["report", str(made), "--winnable", "--format", "json"], capsys)
    assert code == 0
    obj = json.loads(out)
    won = stored(made, "won")
    assert [(s["seed"], s["nodes"]) for s in obj["seeds"]] == won
    assert obj["layout"] == "black-hole" and obj["engine"] == "dfs" and obj["covered"] == [[1, 12], [20, 23]]
    assert obj["won"] == len(won) and obj["deals"] == len(stored(made))
    assert all(isinstance(s["seconds"], float) and s["seconds"] >= 0 for s in obj["seeds"])
    by_tier: dict[str, list[int]] = {t: [] for t in winnable.TIERS}
    for s in obj["seeds"]:
        by_tier[s["tier"]].append(s["nodes"])
    easy, medium, hard = by_tier["easy"], by_tier["medium"], by_tier["hard"]
    assert easy and max(easy) < min(medium + hard, default=max(easy) + 1)
    assert not medium or max(medium) < min(hard, default=max(medium) + 1)
    n = len(won)
    assert len(easy) >= n / 3 and len(easy) + len(medium) >= 2 * n / 3  # ties go down, never up
    assert obj["tiers"] == {"easy_max_nodes": max(easy), "medium_max_nodes": max(easy + medium)}


def test_seeds_narrow_the_list(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(["report", str(made), "--winnable", "--seeds", "5,20-30"], capsys)
    assert code == 0 and out.split() == [str(s) for s, _ in stored(made, "won") if s == 5 or 20 <= s <= 30]
    code, out, _ = cli(["report", str(made), "--winnable", "--seeds", "5,20-30", "--format", "pysolfc"], capsys)
    assert code == 0 and "seeds, covering 5, 20-23." in out
    assert refused(*cli(["report", str(made), "--winnable", "--seeds", "100-200"], capsys))  # none stored there
    assert refused(*cli(["report", str(made), "--winnable", "--seeds", "9-1"], capsys))
    assert refused(*cli(["report", str(made), "--seeds", "1-5"], capsys))  # --seeds without --winnable


@pytest.mark.parametrize(("nodes", "bounds"), [
    ([1, 2, 3, 4, 5, 6, 7, 8, 9], (3, 6)),
    ([9, 8, 7, 6, 5, 4, 3, 2, 1, 10], (4, 7)),
    ([5], (5, 5)),
    ([2, 2, 2, 9], (2, 2)),
    ([], None),
])
def test_tier_bounds(nodes: list[int], bounds: tuple[int, int] | None) -> None:
    assert winnable.tier_bounds(nodes) == bounds


def test_ranges() -> None:
    assert winnable.ranges([1, 2, 3, 5, 7, 8]) == [(1, 3), (5, 5), (7, 8)]
    assert winnable.ranges_text([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert winnable.ranges_text([]) == "none"


def test_verify_replays_every_listed_win(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["report", str(db), "--winnable", "--format", "json", "--verify"], capsys)
    won = stored(db, "won")
    assert code == 0 and json.loads(out)["replayed"] == len(won)
    assert f"replayed the stored solutions of {len(won)} seeds" in err
    conn = sqlite3.connect(db)  # a stored win cut short no longer wins: the replay says so
    seed, text = conn.execute("SELECT seed, result FROM results WHERE verdict = 'won' ORDER BY seed").fetchone()
    result = json.loads(text)
    result["solution"] = result["solution"][:-1]
    conn.execute("UPDATE results SET result = ? WHERE seed = ?", (json.dumps(result), seed))
    conn.commit()
    conn.close()
    code, out, err = cli(["report", str(db), "--winnable", "--verify"], capsys)
    assert code == 70 and out == "" and len(err.splitlines()) == 1 and f"seed {seed}" in err
    code, out, _ = cli(["report", str(db), "--winnable"], capsys)  # without --verify, the stored verdicts
    assert code == 0 and str(seed) in out.split()
    later = [s for s, _ in won if s > seed]  # the bad row left out by --seeds: the others replay
    code, out, err = cli(["report", str(db), "--winnable", "--verify", "--seeds", f"{seed + 1}-100"], capsys)
    assert code == 0 and out.split() == [str(s) for s in later] and f"of {len(later)} seeds" in err


def test_several_layouts_or_engines_need_picking(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    won = [str(s) for s, _ in stored(db, "won")]
    rest = "rules_version, verdict, reason, nodes, seconds, solution_length, limits, fingerprint, finished_at, result"
    conn = sqlite3.connect(db)
    conn.execute(f"INSERT INTO results (layout, seed, engine, {rest}) "
                 f"SELECT 'golf', seed, engine, {rest} FROM results WHERE seed <= 3")
    conn.commit()
    code, out, err = cli(["report", str(db), "--winnable"], capsys)
    assert refused(code, out, err) and "--layout" in err and "black-hole, golf" in err
    code, out, _ = cli(["report", str(db), "--winnable", "--layout", "black-hole"], capsys)
    assert code == 0 and out.split() == won
    assert refused(*cli(["report", str(db), "--winnable", "--layout", "spider"], capsys))
    conn.execute("DELETE FROM results WHERE layout = 'golf'")
    conn.execute(f"INSERT INTO results (layout, seed, engine, {rest}) "
                 f"SELECT layout, seed, 'cpsat', {rest} FROM results WHERE seed <= 3")
    conn.commit()
    conn.close()
    code, out, err = cli(["report", str(db), "--winnable", "--format", "json"], capsys)
    assert refused(code, out, err) and "--engine" in err and "cpsat, dfs" in err
    code, out, _ = cli(["report", str(db), "--winnable", "--engine", "dfs"], capsys)
    assert code == 0 and out.split() == won
    code, out, _ = cli(["report", str(db), "--winnable", "--engine", "cpsat"], capsys)
    assert code == 0 and out.split() == [s for s in won if int(s) <= 3]


def test_refusals_are_one_line_and_exit_2(made: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(*cli(["report", str(tmp_path / "none.sqlite"), "--winnable"], capsys))
    assert refused(*cli(["report", str(made), "--format", "json"], capsys))  # --format without --winnable
    assert refused(*cli(["report", str(made), "--winnable", "--format", "csv"], capsys))
    assert refused(*cli(["report", str(made), "--winnable", "--json"], capsys))
    assert refused(*cli(["report", str(made), "--winnable", "--engine", "cpsat"], capsys))
    # A reduced deck is this project's own numbering, not PySolFC's: no pysolfc list.
    reduced = tmp_path / "reduced.sqlite"
    assert main(["batch", *BH, "--max-ranks", "9", "--seeds", "1-3", "--db", str(reduced)]) == 0
    capsys.readouterr()
    code, out, err = cli(["report", str(reduced), "--winnable", "--format", "pysolfc"], capsys)
    assert refused(code, out, err) and "PySolFC" in err
    assert cli(["report", str(reduced), "--winnable", "--format", "json"], capsys)[0] == 0
    # Rules changed with --set are not the built-in layout's: which deals the seeds are is not known.
    edited = tmp_path / "edited.sqlite"
    assert main(["batch", *BH, "--set", "hole.wrap=false", "--seeds", "1-3", "--db", str(edited)]) == 0
    capsys.readouterr()
    code, out, err = cli(["report", str(edited), "--winnable", "--format", "pysolfc"], capsys)
    assert refused(code, out, err) and "fingerprint" in err
    code, out, _ = cli(["report", str(edited), "--winnable", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["numbering"] is None
    # Told the same settings, the report finds the batch's rules (the fingerprint agrees) and lists.
    code, out, _ = cli(["report", str(edited), "--winnable", "--format", "pysolfc", "--set", "hole.wrap=false",
                        "--verify"], capsys)
    assert code == 0 and "SOLVABLE_SEEDS = (" in out and "\n# The layout changed by: --set hole.wrap=false\n" in out
    code, out, err = cli(["report", str(edited), "--winnable", "--format", "pysolfc", "--set", "hole.wrap=true"],
                         capsys)
    assert refused(code, out, err) and "fingerprint" in err
    assert refused(*cli(["report", str(edited), "--set", "hole.wrap=false"], capsys))  # --set without --winnable


def test_pysolfc_numbering_of_freecell_stops_at_32000() -> None:
    """FreeCell's seeds are Microsoft's deals: PySolFC's FreeCell game numbers below 32000 only."""
    freecell = load_layout("freecell")
    assert winnable.pysolfc_numbering(freecell, [1, 2, 31999]) is None
    why = winnable.pysolfc_numbering(freecell, [31999, 32000, 32001])
    assert why is not None and "seed 32000" in why
    assert winnable.pysolfc_numbering(load_layout("klondike-draw-1"), [1, 32000, 10**6]) is None
    assert winnable.pysolfc_numbering(load_layout("spider"), [1]) is not None  # Solvitaire's numbering


def test_the_comparison_with_a_pysolfc_list(made: Path, tmp_path: Path) -> None:
    """``benchmarks.pysolfc_seeds``: a list that lacks one of our wins and has one deal we did not
    win shows the one as added (its solution replayed) and the other as missing, with our verdict."""
    from benchmarks import pysolfc_seeds

    won = [s for s, _ in stored(made, "won")]
    other = next(s for s, _ in stored(made) if s not in won)
    theirs = sorted([*won[1:], other, 99])  # 99: outside the seeds compared
    listing = tmp_path / "their_seeds.py"
    listing.write_text("# a list\nSOLVABLE_SEEDS = (\n    " + " ".join(f"{s}," for s in theirs) + "\n)\n")
    assert pysolfc_seeds.pysolfc_list(listing) == theirs
    summary, added = pysolfc_seeds.compare(str(made), pysolfc_seeds.pysolfc_list(listing), list(range(1, 24)))
    verdict = dict(sqlite3.connect(made).execute("SELECT seed, verdict FROM results").fetchall())[other]
    assert summary["missing"] == [{"seed": other, "ours": verdict}]
    assert [a["seed"] for a in summary["added"]] == [won[0]] and summary["added_replayed"] == 1
    assert [r["seed"] for r in added] == [won[0]] and added[0]["verdict"] == "won"
    assert summary["pysolfc_listed"] == len(theirs) - 1 and summary["ours_won"] == len(won)
    assert summary["not_run"] == 23 - 16
    out = tmp_path / "out"
    assert pysolfc_seeds.main([str(made), str(listing), "--seeds", "1-23", "--out", str(out)]) == 1  # one missing
    assert json.loads((out / "comparison.json").read_text())["added_replayed"] == 1
    bad = tmp_path / "bad.py"
    bad.write_text("SEEDS = (1, 2)\n")
    assert pysolfc_seeds.main([str(made), str(bad), "--seeds", "1-23"]) == 2


def test_a_batch_of_a_layout_file_lists_with_that_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "my-black-hole.toml"
    mine.write_text((Path(__file__).resolve().parents[1] / "layouts" / "black-hole.toml").read_text())
    db = tmp_path / "mine.sqlite"
    assert main(["batch", str(mine), "--max-nodes", "3000", "--jobs", "1", "--seeds", "1-3", "--db", str(db)]) == 0
    capsys.readouterr()
    won = [str(s) for s, _ in stored(db, "won")]
    assert cli(["report", str(db), "--winnable"], capsys)[1].split() == won  # text needs no rules
    code, out, err = cli(["report", str(db), "--winnable", "--format", "pysolfc"], capsys)
    assert refused(code, out, err) and "--layout" in err  # which deals? a name that is no built-in layout
    code, out, _ = cli(["report", str(db), "--winnable", "--format", "pysolfc", "--layout", str(mine)], capsys)
    assert code == 0 and ast.literal_eval(ast.parse(out).body[0].value) == tuple(int(s) for s in won)  # type: ignore[attr-defined]


def test_any_engine_lists_a_seed_won_by_any_of_them(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--engine any``: a deal unknown to the dfs rows and won by another engine's row is listed
    (its win replayed by ``--verify``), a deal won by both once, a lost one not at all."""
    won = [s for s, _ in stored(db, "won")]
    lost = [s for s, _ in stored(db, "lost")]
    assert len(won) >= 2 and lost
    rest = "rules_version, verdict, reason, nodes, seconds, solution_length, limits, fingerprint, finished_at, result"
    conn = sqlite3.connect(db)
    conn.execute(f"INSERT INTO results (layout, seed, engine, {rest}) "
                 f"SELECT layout, seed, 'portfolio', {rest} FROM results WHERE verdict = 'won'")
    # the first won deal left unknown by the dfs (its limit, say), won by the other engine
    conn.execute("UPDATE results SET verdict = 'unknown', reason = 'max-nodes 10' "
                 "WHERE engine = 'dfs' AND seed = ?", (won[0],))
    conn.commit()
    conn.close()
    code, out, err = cli(["report", str(db), "--winnable"], capsys)
    assert refused(code, out, err) and "--engine" in err
    code, out, _ = cli(["report", str(db), "--winnable", "--engine", "dfs"], capsys)
    assert code == 0 and [int(s) for s in out.split()] == won[1:]
    code, out, _ = cli(["report", str(db), "--winnable", "--engine", "any", "--verify"], capsys)
    listed = [int(s) for s in out.split()]
    assert code == 0 and listed == won
    assert not set(listed) & set(lost)
