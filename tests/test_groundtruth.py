"""``benchmarks.groundtruth``: the runs of a deal tabulated, a deal counted by its proof."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from benchmarks import groundtruth
from solver import api
from solver.cli import main
from solver.limits import Limits


def test_a_deal_counts_by_its_proof_whichever_run_gave_it(tmp_path: Path) -> None:
    lay = api.load_layout("debutante", 4)
    db = tmp_path / "small.sqlite"
    assert main(["batch", "debutante", "--max-ranks", "4", "--seeds", "1-2", "--max-nodes", "1", "--jobs", "1",
                 "--db", str(db), "--json"]) == 0  # both unknown (a batch that ran exits 0)
    proof = api.solve(lay, seed=1, engine="dfs", limits=Limits())
    assert proof.verdict == "won"
    (tmp_path / "one.json").write_text(json.dumps(proof.to_json()))
    groundtruth.main([str(db), str(tmp_path / "one.json"), "--out", str(tmp_path / "out")])
    with gzip.open(tmp_path / "out" / "rows.jsonl.gz", "rt") as f:
        rows = [json.loads(line) for line in f]
    assert sorted((r["seed"], r["engine"], r["verdict"]) for r in rows) == [
        (1, "dfs", "unknown"), (1, "dfs", "won"), (2, "dfs", "unknown")]
    table = (tmp_path / "out" / "table.md").read_text()
    assert f"| {lay.name} | 1 | 0 | 1 |" in table  # seed 1 won (by the second run), seed 2 unknown
