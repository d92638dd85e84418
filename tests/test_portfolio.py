"""The ``portfolio`` engine: its parts in separate processes, the first proof decides, no process
outlives it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver import api
from solver.engines import parallel
from solver.engines.parallel import Part, _Portfolio
from solver.engines.portfolio import Disagreement
from solver.errors import UnsupportedError, VerificationFailed
from solver.limits import Limits
from solver.result import EngineRun

ROOT = Path(__file__).resolve().parents[1]
SMALL = api.load_layout("debutante", 4)  # seed 8: CP-SAT (one worker) wins it in 10 conflicts; the DFS needs more nodes


def test_an_easy_deal_is_decided_in_this_process_alone(monkeypatch):
    """A deal the first part proves before ``START_AFTER`` starts no other part, also after its
    proof.  ``START_AFTER`` is set beyond the first part's time on any machine (on the compiled
    core debutante #2 takes 0.02 s, on the Python one about 1 s; the other parts' start after it
    is tested by the test below), so that the test does not depend on the machine's speed."""
    monkeypatch.setattr(parallel, "START_AFTER", 10**9)
    r = api.solve("debutante", seed=2, engine="portfolio", limits=Limits(timeout=None))
    assert r.verdict == "won" and r.engine == "portfolio"
    assert r.stats["part"] == "dfs" and r.stats["decided_by"] == "search"
    assert [p["part"] for p in r.stats["parts"]] == ["dfs"]  # decided before any other part started


def test_a_part_in_another_process_decides_and_is_named():
    """The DFS part stops at its node limit; CP-SAT, in its own process, wins (replayed)."""
    r = api.solve(SMALL, seed=8, engine="portfolio", limits=Limits(max_nodes=10), parts=["dfs", "cpsat"])
    assert r.verdict == "won" and r.stats["part"] == "cpsat" and r.stats["decided_by"] == "cp-sat"
    assert api.verify(r.to_json()) is None
    assert {p["part"]: p["verdict"] for p in r.stats["parts"]} == {"dfs": "unknown", "cpsat": "won"}


def test_jobs_1_is_the_dfs():
    a = api.solve("golf", seed=3, engine="portfolio", limits=Limits(max_nodes=5000), jobs=1)
    b = api.solve("golf", seed=3, engine="dfs", limits=Limits(max_nodes=5000))
    assert (a.verdict, a.reason, a.stats["nodes"]) == (b.verdict, b.reason, b.stats["nodes"])


def test_unknown_when_every_part_stops_and_the_limit_named():
    r = api.solve("golf", seed=8, engine="portfolio", limits=Limits(max_nodes=50), parts=["dfs", "dfs-shaken"])
    assert r.verdict == "unknown" and r.reason == "max-nodes 50"
    assert [p["part"] for p in r.stats["parts"]] == ["dfs", "dfs-shaken"]
    assert r.stats["max_depth"] > 0 and "decided_by" not in r.stats  # the first part's search figures


def test_parts_are_checked():
    for bad in (["cpsat", "dfs"], ["dfs", "dfs"], ["dfs", "nope"]):
        with pytest.raises(UnsupportedError, match="portfolio parts"):
            parallel.parts({"parts": bad})


def test_cp_sat_gets_its_seat_where_its_family_gives_it():
    """On the grid model's layouts the shaken DFS has a share of the time while CP-SAT waits;
    elsewhere (and with the ``parts`` option as given) every part runs until the end."""
    for name in ("debutante", "debutante-fifo", "debutante-unlimited", "colorado"):
        shares = {p.name: p.share for p in parallel.parts({}, api.load_layout(name))}
        assert shares == {"dfs": None, "dfs-shaken": parallel.SHAKEN_SHARE, "cpsat": None}, name
    for name in ("golf", "grandfather"):
        assert all(p.share is None for p in parallel.parts({}, api.load_layout(name))), name
    shares = {p.name: p.share for p in parallel.parts({}, api.load_layout("klondike"))}  # the win finder's seat
    assert shares == {"dfs": None, "finder": parallel.FINDER_SHARE, "dfs-shaken": None, "cpsat": None}


def test_the_shaken_part_gives_its_process_to_cp_sat_after_its_share(monkeypatch):
    """Two processes, three parts, a deal no part decides within the limit: the shaken DFS stops
    at its share, and CP-SAT runs after it (its part is listed)."""
    monkeypatch.setattr(parallel, "SHAKEN_SHARE", 0.25)
    r = api.solve("debutante", seed=58, engine="portfolio", limits=Limits(timeout=4), jobs=2)
    assert r.verdict == "unknown"
    ran = {p["part"]: p for p in r.stats["parts"]}
    assert set(ran) == {"dfs", "dfs-shaken", "cpsat"}
    assert ran["dfs-shaken"]["reason"].startswith("timeout 1 s")


def _answer(runs: dict[str, EngineRun]) -> EngineRun:
    deal = api.make_deal(SMALL, 1)
    p = _Portfolio(SMALL, deal, Limits(), 2, [], {})
    p.runs = runs
    return p.answer(Part("dfs", "dfs"))


def test_a_won_and_a_lost_together_disagree():
    won = api.solve(SMALL, seed=1)
    runs = {"dfs": EngineRun("won", None, won.solution, 10, {}), "cpsat": EngineRun("lost", "cp-sat: x", None, 3, {})}
    with pytest.raises(Disagreement) as e:
        _answer(runs)
    assert set(e.value.runs) == {"dfs", "cpsat"}


def test_a_win_that_does_not_replay_is_a_bug():
    with pytest.raises(VerificationFailed, match="cpsat"):
        _answer({"cpsat": EngineRun("won", None, [], 3, {})})


def test_a_part_that_failed_is_raised_when_no_other_part_decides():
    p = _Portfolio(SMALL, api.make_deal(SMALL, 1), Limits(), 2, [], {})
    p.runs = {"dfs": EngineRun("unknown", "max-nodes 5", None, 6, {})}
    p.failed = {"cpsat": "its process died (exit code -9)"}
    with pytest.raises(RuntimeError, match="cpsat failed"):
        p.answer(Part("dfs", "dfs"))


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux: from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)])
def test_an_interrupted_portfolio_leaves_no_process(sig, code):
    """Ctrl-C: the command stops its parts and exits 130.  SIGTERM kills it outright (no handler),
    and its parts die with it."""
    proc = subprocess.Popen([sys.executable, "-m", "solver", "solve", "debutante", "--seed", "58", "--engine",
                             "portfolio", "--jobs", "2", "--timeout", "60"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        while not (kids := _children(proc.pid)) and proc.poll() is None:  # however slow the machine
            time.sleep(0.05)
        assert kids, "no part was started"
        time.sleep(0.3)
        proc.send_signal(sig)
        assert proc.wait(15) == code
        deadline = time.monotonic() + 5
        while any(_alive(k) for k in kids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(k) for k in kids)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    import json

    from solver.cli import main

    assert main(["solve", "golf", "--seed", "2", "--json"]) == 0  # the default engine of solve
    assert json.loads(capsys.readouterr().out)["engine"] == "portfolio"
    assert main(["solve", "golf", "--seed", "2", "--engine", "dfs", "--jobs", "2"]) == 2
    assert "--jobs: only --engine portfolio" in capsys.readouterr().err
    assert main(["solve", "colorado", "--max-ranks", "4", "--seed", "4", "--shortest", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"] == "bfs"
    db = tmp_path / "g.sqlite"
    assert main(["batch", "golf", "--seeds", "1-3", "--db", str(db), "--portfolio-jobs", "2"]) == 2
    assert "--portfolio-jobs: only for --engine portfolio" in capsys.readouterr().err
    assert main(["batch", "golf", "--seeds", "1-2", "--engine", "portfolio", "--jobs", "1", "--portfolio-jobs", "2",
                 "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 2
