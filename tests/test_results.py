"""The recorded results stay small (issue #32): each deal's row kept once, gzipped, and the tables
rebuilt from the rows.

``benchmarks/results/`` holds run folders of ``patience bench`` (``deals.jsonl.gz``: every row;
``bench.json``: the report without the rows; ``bench.md``: its tables) and older reports (a JSON
of rows, gzipped when large, beside its Markdown).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from solver.bench import report, store
from solver.bench.summary import summarize

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
MAX_FILE = 256 * 1024  # no tracked file larger
MAX_RESULTS = 2 * 1024 * 1024  # the recorded results together


def tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in out.decode().split("\0") if name and (ROOT / name).exists()]


def run_folders() -> list[Path]:
    return sorted({p.parent for p in RESULTS.rglob("deals.jsonl*")})


def test_no_tracked_file_is_large():
    large = [f"{p.relative_to(ROOT)} ({p.stat().st_size:,} bytes)" for p in tracked() if p.stat().st_size > MAX_FILE]
    assert not large, "tracked files over 256 KB: " + ", ".join(large)


def test_the_recorded_results_are_small():
    size = sum(p.stat().st_size for p in tracked() if RESULTS in p.parents)
    assert size <= MAX_RESULTS, f"benchmarks/results/ holds {size:,} bytes, more than 2 MiB"


def test_every_run_keeps_its_rows_once_and_its_tables_rebuild_from_them():
    folders = run_folders()
    assert len(folders) >= 5
    for folder in folders:
        assert (folder / "deals.jsonl.gz").exists() and not (folder / store.DEALS).exists(), folder
        lean = json.loads(store.read_bytes(folder / "bench.json"))
        assert lean["version"] >= 3 and not any("rows" in g for g in lean["groups"]), folder
        rep = report.load(folder)
        for g in rep["groups"]:  # the figures of its tables, from its rows (those its format had then)
            want = summarize(g["rows"])
            assert {k: g[k] for k in want if k in g} == {k: v for k, v in want.items() if k in g}, \
                (folder.name, g["layout"], g["runner"])
            assert g["deals"] == len(g["rows"]) and "median_s" in g
