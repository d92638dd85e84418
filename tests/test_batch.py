"""``patience batch`` and ``patience report``: seeds, statistics, the store, resuming, Dask."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import batch
from solver.cli import main
from solver.errors import InputError
from solver.families import load_layout

ROOT = Path(__file__).resolve().parents[1]
# Black Hole cut at a node budget: a deterministic mix of won, lost and unknown in milliseconds.
BH = ["black-hole", "--max-nodes", "3000"]


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse errors
        code = e.code if isinstance(e.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def rows(db: Path, strip_times: bool = True) -> list[tuple]:
    """Every stored row; without the timings and timestamps when ``strip_times``."""
    conn = sqlite3.connect(db)
    try:
        out = []
        for row in conn.execute(f"SELECT {', '.join(batch.COLUMNS)} FROM results ORDER BY seed, engine"):
            r = dict(zip(batch.COLUMNS, row, strict=True))
            if strip_times:
                del r["seconds"], r["finished_at"]
                result = json.loads(r["result"])
                del result["stats"]["seconds"]
                r["result"] = result
            out.append(tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in r.items())))
        return out
    finally:
        conn.close()


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# ------------------------------------------------------------------ seeds


def test_parse_seeds_examples() -> None:
    assert batch.parse_seeds("1-5,2000,3000-3002") == [1, 2, 3, 4, 5, 2000, 3000, 3001, 3002]
    assert batch.parse_seeds(" 7 , 3-4,4 ") == [3, 4, 7]  # ascending, each once
    assert batch.parse_seeds("9-9") == [9]


@pytest.mark.parametrize("spec", ["", "1-", "-5", "5-3", "1,,2", "1,", "x", "1-2-3", "1.5", "+3", "٣",
                                  "99999999999999999999", "1-99999999999"])
def test_parse_seeds_refuses(spec: str) -> None:
    with pytest.raises(InputError, match="--seeds"):
        batch.parse_seeds(spec)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789-, x", max_size=16))
def test_parse_seeds_is_a_list_or_a_clear_error(spec: str) -> None:
    try:
        seeds = batch.parse_seeds(spec, limit=10_000)
    except InputError as e:
        assert str(e).startswith("--seeds") and "\n" not in str(e)
    else:
        assert seeds and seeds == sorted(set(seeds)) and all(isinstance(s, int) and s >= 0 for s in seeds)


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 20)), min_size=1, max_size=6))
def test_parse_seeds_is_the_union_of_the_ranges(items: list[tuple[int, int]]) -> None:
    spec = ",".join(f"{lo}-{lo + n}" if n else str(lo) for lo, n in items)
    assert batch.parse_seeds(spec) == sorted({s for lo, n in items for s in range(lo, lo + n + 1)})


def test_sample_is_reproducible_and_distinct() -> None:
    a = batch.sample_seeds(50, 7, None, 1, 10**20 - 1)
    assert a == batch.sample_seeds(50, 7, None, 1, 10**20 - 1) and len(set(a)) == 50 and a == sorted(a)
    assert a != batch.sample_seeds(50, 8, None, 1, 10**20 - 1)
    assert set(batch.sample_seeds(5, 1, list(range(100, 110)), 1, 10)) <= set(range(100, 110))
    with pytest.raises(InputError, match="--sample"):
        batch.sample_seeds(11, 1, list(range(10)), 1, 10**6)


# ------------------------------------------------------------- statistics


@pytest.mark.parametrize("x, n, low, high", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
    # Stat. Med. 17:857-872, Table I, method 3 (score interval without continuity correction).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    # By hand: p = 1/2, z = 1.96, z^2/n = 0.38415: centre 0.5, half-width
    # z/(1 + z^2/n) * sqrt(p(1-p)/n + z^2/(4n^2)) = 1.41602 * 0.18602 = 0.26341.
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_known_values(x: int, n: int, low: float, high: float) -> None:
    lo, hi = batch.wilson(x, n)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)
    assert (x == 0) == (lo == 0.0) and (x == n) == (hi == 1.0)


def test_summary_counts_unknowns_both_ways() -> None:
    s = batch.summarize([("won", 1.0)] * 3 + [("lost", 2.0)] * 5 + [("unknown", 10.0)] * 2)
    assert (s["deals"], s["won"], s["lost"], s["unknown"]) == (10, 3, 5, 2)
    assert s["win_rate"] == 3 / 8 and s["unknown_share"] == 0.2
    assert s["win_rate_low"] == batch.wilson(3, 10)[0]  # unknowns as lost
    assert s["win_rate_high"] == pytest.approx(0.7634, abs=5e-5)  # unknowns as won: 5 of 10
    assert s["median_seconds"] == 2.0 and s["p90_seconds"] == 10.0


# ---------------------------------------------------------- the command


def test_batch_report_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bh.sqlite"
    code, out, _ = cli(["batch", *BH, "--seeds", "1-12", "--jobs", "2", "--db", str(db), "--json"], capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["deals"] == 12 and summary["won"] + summary["lost"] + summary["unknown"] == 12
    assert summary["won"] and summary["lost"]
    assert summary["run"]["solved"] == 12
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    assert (meta["layout"], meta["rules_version"]) == ("black-hole", str(load_layout("black-hole").rules_version))
    for verdict, length, result in conn.execute("SELECT verdict, solution_length, result FROM results"):
        obj = json.loads(result)
        assert obj["verdict"] == verdict and (verdict == "won") == (length is not None)
        assert length is None or length == len(obj["solution"])
    conn.close()

    code, out, _ = cli(["report", str(db), "--json"], capsys)
    assert code == 0
    [again] = json.loads(out)
    assert again == {k: v for k, v in summary.items() if k != "run"}
    code, out, _ = cli(["report", str(db)], capsys)
    assert code == 0 and "black-hole" in out and "95% interval" in out
    code, out, _ = cli(["report", str(db), "--csv"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("layout,seed,engine,rules_version,verdict") and len(lines) == 13

    # Widening the range solves only the new seeds (on a budget of one node: left unknown).
    code, out, err = cli(["batch", "black-hole", "--max-nodes", "1", "--seeds", "1-15", "--db", str(db),
                          "--json"], capsys)
    assert code == 0 and json.loads(out)["run"]["solved"] == 3 and "12 of 15 seeds already in" in err
    assert json.loads(out)["unknown"] >= 3
    # --retry-unknown solves the unknowns again (here with a bigger budget); decided rows stay.
    query = "SELECT seed, verdict, finished_at, limits FROM results"
    before = {r[0]: r for r in sqlite3.connect(db).execute(query)}
    code, out, _ = cli(["batch", "black-hole", "--max-nodes", "6000", "--timeout", "0", "--seeds", "1-15",
                        "--db", str(db), "--retry-unknown", "--json"], capsys)
    again = json.loads(out)
    assert code == 0 and again["run"]["solved"] == sum(r[1] == "unknown" for r in before.values())
    after = {r[0]: r for r in sqlite3.connect(db).execute(query)}
    assert len(after) == 15 and again["unknown"] == sum(r[1] == "unknown" for r in after.values())
    for seed, row in before.items():
        if row[1] == "unknown":
            assert json.loads(after[seed][3]) == {"max_nodes": 6000}  # solved again, row replaced
        else:
            assert after[seed] == row  # a decided row is final


def test_debutante_1_is_almost_all_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "d1.sqlite"
    code, out, _ = cli(["batch", "debutante-1", "--sample", "40", "--sample-seed", "3", "--db", str(db),
                        "--json"], capsys)
    s = json.loads(out)
    assert code == 0 and s["deals"] == 40 and s["lost"] >= 38 and s["win_rate_low"] == 0.0
    assert s["win_rate_high"] == pytest.approx(batch.wilson(s["won"] + s["unknown"], 40)[1])


def test_refuses_another_rules_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "d1.sqlite"
    assert cli(["batch", "debutante-1", "--seeds", "1-4", "--jobs", "1", "--db", str(db)], capsys)[0] == 0
    newer = tmp_path / "rules2"
    newer.mkdir()
    text = (ROOT / "layouts" / "debutante-1.toml").read_text()
    assert "rules_version = 1" in text
    (newer / "debutante-1.toml").write_text(text.replace("rules_version = 1", "rules_version = 2"))
    before = listing(tmp_path)
    newer_layout = str(newer / "debutante-1.toml")
    code, out, err = cli(["batch", newer_layout, "--seeds", "1-8", "--db", str(db)], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "rules version 1" in err and "rules version 2" in err
    assert listing(tmp_path) == before


@pytest.mark.parametrize("argv, message", [
    (["--seeds", "1-"], "--seeds"),
    (["--seeds", "5-3"], "backwards"),
    (["--seeds", "1,,3"], "empty item"),
    (["--seeds", "0-3"], "--seeds: seed 0: expected an integer 1.."),  # Black Hole's seeds start at 1
    (["--seeds", "1-3", "--jobs", "0"], "--jobs"),
    (["--seeds", "1-3", "--jobs", "-2"], "--jobs"),
    (["--seeds", "1-3", "--engine", "nope"], "--engine"),
    (["--seeds", "1-3", "--db", "/nonexistent-folder/x.sqlite"], "does not exist"),
    (["--seeds", "1-3", "--db", "{tmp}/not-a-folder/x.sqlite"], "does not exist"),
    (["--seeds", "1-3", "--db", "{tmp}/not-a-folder"], "not a database"),
    (["--seeds", "1-3", "--db", "{tmp}/debutante.sqlite"], "holds layout 'debutante-1'"),
    (["--sample", "0"], "--sample"),
    ([], "--seeds"),
])
def test_bad_input_exits_2_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                              message: str) -> None:
    monkeypatch.chdir(tmp_path)  # where the default database would go
    (tmp_path / "not-a-folder").write_text("a plain file, not SQLite\n")
    conn = sqlite3.connect(tmp_path / "debutante.sqlite")  # a batch database of another layout
    conn.executescript(batch.SCHEMA)
    conn.executemany("INSERT INTO meta VALUES (?, ?)",
                     batch.layout_meta(batch_layout("debutante-1")).items())
    conn.commit()
    conn.close()
    before = listing(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = cli(["batch", "black-hole", *argv], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err
    assert listing(tmp_path) == before


def batch_layout(name: str):
    from solver import api

    return api.load_layout(name)


def test_report_of_a_missing_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(["report", str(tmp_path / "none.sqlite")], capsys)
    assert code == 2 and "no such batch database" in err and not list(tmp_path.iterdir())


# --------------------------------------------------- killed, then resumed


def test_killed_batch_resumes_to_the_same_rows(tmp_path: Path) -> None:
    """SIGKILL the batch mid-run: the file is sound, and rerunning the same command
    gives exactly the rows of an uninterrupted batch, no deal stored twice."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    n = 150

    def command(db: Path) -> list[str]:
        return [sys.executable, "-m", "solver", "batch", *BH, "--seeds", f"1-{n}", "--jobs", "2",
                "--db", str(db)]

    killed = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(command(killed), env=env, cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        stored = 0  # no deadline: however slow the machine, the batch stores its rows or ends
        while stored < 20 and proc.poll() is None:
            time.sleep(0.05)
            if killed.exists():
                try:
                    with sqlite3.connect(killed) as conn:
                        stored = conn.execute("SELECT count(*) FROM results").fetchone()[0]
                except sqlite3.OperationalError:  # tables not made yet
                    pass
        assert proc.poll() is None, "the batch finished before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # its workers too, if they outlived it
        except ProcessLookupError:
            pass
        proc.wait()
    conn = sqlite3.connect(killed)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    at_kill = rows(killed, strip_times=False)
    assert 20 <= len(at_kill) < n

    resumed = subprocess.run(command(killed), env=env, cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(at_kill)} of {n} seeds already in" in resumed.stderr
    whole = tmp_path / "whole.sqlite"
    done = subprocess.run(command(whole), env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

    assert rows(killed) == rows(whole)
    assert len(rows(whole)) == n
    assert set(at_kill) <= set(rows(killed, strip_times=False))  # stored deals were not solved again


# ------------------------------------------------------------------- Dask


def test_dask_cluster_gives_the_same_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed", reason="dask[distributed] (the 'dist' extra) is not installed")
    from dask.distributed import LocalCluster

    seeds = ["--seeds", "1-16"]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                      dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        code, out, err = cli(["batch", *BH, *seeds, "--db", str(tmp_path / "dask.sqlite"),
                              "--scheduler", cluster.scheduler_address, "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["run"]["executor"] == "dask"
    code, out, err = cli(["batch", *BH, *seeds, "--jobs", "2", "--db", str(tmp_path / "pool.sqlite"),
                          "--json"], capsys)
    assert code == 0 and json.loads(out)["run"]["executor"] == "processes"
    assert rows(tmp_path / "dask.sqlite") == rows(tmp_path / "pool.sqlite")
    assert len(rows(tmp_path / "dask.sqlite")) == 16


def test_retried_unknowns_keep_their_own_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from solver import api

    db = tmp_path / "bh.sqlite"
    assert cli(["batch", "black-hole", "--max-nodes", "150", "--timeout", "0", "--seeds", "1-12", "--jobs", "1",
                "--db", str(db)],
               capsys)[0] == 0
    store = batch.Store(db, api.load_layout("black-hole"))
    unknown = sum(v == "unknown" for v in store.stored("dfs").values())
    store.close()
    assert cli(["batch", "black-hole", "--max-nodes", "100000", "--timeout", "0", "--seeds", "1-12", "--jobs", "1",
                "--db", str(db),
                "--retry-unknown"], capsys)[0] in (0, 3)
    store = batch.Store(db, api.load_layout("black-hole"))
    used = store.limits_used("dfs")
    store.close()
    assert 0 < unknown < 12  # a mix, so that both limits show
    assert used == {'{"max_nodes": 150}': 12 - unknown, '{"max_nodes": 100000}': unknown}


def test_a_database_from_before_fingerprints_is_reported_but_not_added_to(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Schema 1 stored no rules fingerprint: `patience report` still reads it (fingerprint '-'),
    `patience batch` refuses to add rows it could not tell apart from other rules."""
    db = tmp_path / "old.sqlite"
    old_schema = batch.SCHEMA.replace("    fingerprint TEXT NOT NULL,\n", "")
    assert old_schema != batch.SCHEMA
    conn = sqlite3.connect(db)
    conn.executescript(old_schema)
    meta = {**batch.layout_meta(batch_layout("black-hole")), "schema": "1"}
    del meta["fingerprint"]
    conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    conn.execute("INSERT INTO results VALUES ('black-hole', 1, 'dfs', 1, 'won', NULL, 10, 0.1, 51, '{}', "
                 "'2026-01-01T00:00:00', '{}')")
    conn.commit()
    conn.close()
    code, out, _ = cli(["report", str(db), "--json"], capsys)
    assert code == 0 and json.loads(out)[0]["fingerprint"] is None and json.loads(out)[0]["won"] == 1
    code, out, _ = cli(["report", str(db)], capsys)
    assert code == 0 and out.splitlines()[1].split()[:4] == ["black-hole", "1", "-", "dfs"]
    code, out, _ = cli(["report", str(db), "--csv"], capsys)
    assert code == 0 and out.splitlines()[1].split(",")[10] == ""
    before = db.read_bytes()
    code, out, err = cli(["batch", *BH, "--seeds", "1-2", "--db", str(db)], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "did not record the rules fingerprint" in err and "give another --db" in err
    assert db.read_bytes() == before
