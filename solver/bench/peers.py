"""Peers: other solvers run on the same deals, in the same run.

Only fc-solve (Freecell Solver, Debian package ``freecell-solver-bin``) for now.
Its game options are derived from the layout's data (cells, columns, building
rule, spaces, sequence moves), never from the layout's name, so every layout of
the FreeCell family that fc-solve can express gets it.  A peer that is not
installed is skipped with a note, never imitated.

fc-solve prints one of three verdict lines (with ``-sel``) and then its counts:

    This game is solveable.          | I could not solve this game.  | Iterations count exceeded.
    Total number of states checked is N.
    This scan generated M states.

"I could not solve this game." means its scan covered every state reachable
with the move types it was told to use; that is fc-solve's claim, reported as
its ``lost``.
"""

from __future__ import annotations

import re
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from ..layout import Layout

FC_SOLVE = "fc-solve"
_VERDICTS = {
    "This game is solveable.": "won",
    "I could not solve this game.": "lost",
    "Iterations count exceeded.": "unknown",
}
_CHECKED = re.compile(r"^Total number of states checked is (\d+)\.\s*$", re.M)
_GENERATED = re.compile(r"^This scan generated (\d+) states\.\s*$", re.M)
_MOVE = re.compile(r"^Move ", re.M)
_BUILD = {"alternate": "alternate_color", "suit": "suit", "any": "rank"}
_SPACES = {"any": "all", "kings": "kings", "none": "none"}
_SEQUENCE = {"single": "limited", "supermove": "limited", "sequence": "unlimited"}


def parse_fc_solve(text: str) -> dict[str, Any]:
    """fc-solve's verdict, states checked (its iterations) and states generated, and the
    number of moves of its solution, from its standard output.  A text with no verdict
    line gives verdict None (fc-solve failed or was cut off)."""
    verdict = None
    for line in text.splitlines():
        v = _VERDICTS.get(line.strip())
        if v is not None:
            verdict = v
    checked = _CHECKED.findall(text)
    generated = _GENERATED.findall(text)
    return {
        "verdict": verdict,
        "iterations": int(checked[-1]) if checked else None,
        "generated": int(generated[-1]) if generated else None,
        "moves": len(_MOVE.findall(text)) if verdict == "won" else None,
    }


def fc_solve_options(layout: Any) -> list[str] | None:
    """fc-solve's game options for ``layout``, or None when fc-solve cannot play it:
    the FreeCell family only (tableau columns built down, cells, foundations from the ace up;
    no stock, reserve, hole, face-down cards or preset foundations; a whole deck)."""
    if not isinstance(layout, Layout) or layout.family != "tableau" or layout.reserve.count:
        return None
    tab = layout.tableau
    found = layout.foundations
    if found.preset or [(r.base, r.direction) for r in found.rows] != [(1, 1)] * layout.decks:
        return None
    if layout.stock.turn != "none" or layout.max_rank != 13:
        return None
    if any(tab.face_down) or tab.direction != -1 or not tab.to_foundation:
        return None
    if tab.build not in _BUILD or tab.spaces not in _SPACES or tab.moves not in _SEQUENCE:
        return None
    return ["--freecells-num", str(layout.cells.count), "--stacks-num", str(tab.count),
            "--decks-num", str(layout.decks), "--sequences-are-built-by", _BUILD[tab.build],
            "--empty-stacks-filled-by", _SPACES[tab.spaces], "--sequence-move", _SEQUENCE[tab.moves]]


def fc_solve_path() -> str | None:
    return shutil.which(FC_SOLVE)


def fc_solve_version(path: str) -> str | None:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"version\s+(\S+)", out)
    lines = out.strip().splitlines()
    return found.group(1) if found else (lines[-1] if lines else None)


def run_fc_solve(path: str, options: list[str], board: str, timeout: float | None,
                 max_iters: int | None = None) -> dict[str, Any]:
    """Run fc-solve on one board (fc-solve board format); a row with its verdict,
    seconds (wall clock, process start included), iterations and peak memory."""
    with tempfile.TemporaryDirectory(prefix="patience-peer-") as tmp:
        board_file = Path(tmp) / "board.txt"
        board_file.write_text(board)
        cmd = [path, "-m", "-sel", *options]
        if max_iters is not None:
            cmd += ["--max-iters", str(max_iters)]
        cmd.append(str(board_file))
        t0 = time.perf_counter()
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"verdict": "unknown", "reason": "timeout", "seconds": time.perf_counter() - t0,
                    "iterations": None, "peak_mb": _children_peak_mb()}
        seconds = time.perf_counter() - t0
    parsed = parse_fc_solve(done.stdout)
    row = {"verdict": parsed["verdict"] or "error", "reason": None, "seconds": seconds,
           "iterations": parsed["iterations"], "generated": parsed["generated"], "moves": parsed["moves"],
           "peak_mb": _children_peak_mb()}
    if parsed["verdict"] is None:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or [""]
        row["reason"] = f"exit {done.returncode}: {last[0][:200]}"
    elif parsed["verdict"] == "unknown":
        row["reason"] = "max-iters"
    return row


def _children_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
