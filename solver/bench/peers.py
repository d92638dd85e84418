"""Peers: other solvers, run on the same deals in the same run.

Each peer is a ``Peer`` in ``PEERS``: which layouts it plays (its options are derived
from the layout's data, never from its name), where it is installed, and how it
solves one deal in a worker process.  A peer that is not installed is skipped with a
note saying how to install it, never imitated.

- ``fc-solve``: Freecell Solver's command-line program (Debian/Ubuntu package
  ``freecell-solver-bin``), one process per deal; its seconds are the process's CPU
  time (user + system), its wall seconds include starting the process.
- ``freecell-solver``: the same library through its Python binding from PyPI
  (``pip install freecell-solver``; it loads ``libfreecell-solver.so.0``, Debian
  package ``libfreecell-solver0``), called in the worker process: no process start.

Both play the FreeCell family only.

- ``solvitaire``: Blake and Gent's Solvitaire, built from its public source
  (``benchmarks/peers.md``), one process per deal: it plays every layout whose rules it has
  (the family's ``solvitaire_rules``), given as its rules file (``--custom-rules``) and the deal as
  its deal file; its seconds are the process's CPU time.
- ``black-hole-solver``: Shlomi Fish's solver of Black Hole and Golf (PySolFC's rules), built from
  its public source, one process per deal.

A peer is found on PATH, or where ``patience bench --peer-path NAME=PATH`` says.

fc-solve prints one of three verdict lines (with ``-sel``) and then its counts:

    This game is solveable.          | I could not solve this game.  | Iterations count exceeded.
    Total number of states checked is N.
    This scan generated M states.

"I could not solve this game." (the library's ``FCS_STATE_IS_NOT_SOLVEABLE``) means its
scan covered every state reachable with the move types it was told to use; that is
fc-solve's claim, reported as its ``lost``.  A peer's ``nodes`` are its iterations
(states checked): they count other work than our nodes and are not compared with them.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import json
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from .. import moves, shuffles
from ..errors import UnsupportedError
from ..families import family_of
from ..layout import DEFAULT_SUITS
from ..limits import Limits

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


class Step(NamedTuple):
    """One move of a peer's solution between our stacks (read by ``disagree.replay_steps``)."""

    src: str  # our stack name, or "foundations" for whichever foundation holds the card
    dst: str  # our stack name, or "foundations": the foundation that takes the card; for a row
    #           dealt from the stock (``moves.ROW``), the kind of the stacks dealt onto
    n: int = 1  # how many cards
    card: str | None = None  # the card that moves (needed for waste cards further in)


class Peer(ABC):
    """Another solver: the layouts it plays, where it is installed, how it solves one deal."""

    name: ClassVar[str]
    install: ClassVar[str]  # how a user installs it

    @abstractmethod
    def options(self, layout: Any) -> list[str] | None:
        """The peer's game options for ``layout``, or None when it cannot play it."""

    @abstractmethod
    def locate(self) -> str | None:
        """Where the peer is installed (a path, a module), or None when it is not."""

    @abstractmethod
    def version(self, where: str) -> str | None: ...

    @abstractmethod
    def solve(self, where: str, board: str, options: list[str], limits: Limits) -> dict[str, Any]:
        """Solve one deal (``board``: the deal as ``board`` writes it) in this process or a child
        of it: a row with verdict, reason, seconds (wall), cpu_s, nodes (the peer's iterations),
        moves and peak_mb."""

    def solution(self, where: str, board: str, options: list[str], limits: Limits) -> list[Any] | None:
        """The peer's solution of a deal it wins, as moves between our stacks (``Step``),
        or None when it gives none we can read (used only to replay a disagreement)."""
        return None

    def board(self, layout: Any, deal: Any, seed: int | None = None) -> str:
        """The deal (numbered ``seed``, when it is a seed's) as the peer reads it (by default
        fc-solve's board format)."""
        return family_of(layout).deal_to_board(layout, deal)


# ------------------------------------------------------------------ fc-solve


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
    no stock, reserve, hole, face-down cards, preset or removable foundations; a whole deck)."""
    if "fc-solve" not in family_of(layout).peers or layout.reserve.count or layout.suits != DEFAULT_SUITS:
        return None
    tab = layout.tableau
    found = layout.foundations
    if found.preset or found.removable or [(r.base, r.direction) for r in found.rows] != [(1, 1)] * layout.decks:
        return None  # (fc-solve's foundations take cards for good: no removable ones)
    if layout.stock.turn != "none" or layout.max_rank != 13:
        return None
    if any(tab.face_down) or tab.direction != -1 or not tab.to_foundation:
        return None
    sequence = moves.rule("tableau.moves", tab.moves).fc_solve  # (the move table's)
    if tab.build not in _BUILD or tab.spaces not in _SPACES or sequence is None or found.takes != "card":
        return None
    return ["--freecells-num", str(layout.cells.count), "--stacks-num", str(tab.count),
            "--decks-num", str(layout.decks), "--sequences-are-built-by", _BUILD[tab.build],
            "--empty-stacks-filled-by", _SPACES[tab.spaces], "--sequence-move", sequence]


# FreeCell's own rules in fc-solve's words: the only game its presets keep.
FREECELL_OPTIONS = ["--freecells-num", "4", "--stacks-num", "8", "--decks-num", "1", "--sequences-are-built-by",
                    "alternate_color", "--empty-stacks-filled-by", "all", "--sequence-move", "limited"]
_PRESET_FLAGS = ("-l", "--load-config")


def extra_args(options: list[str], extra: list[str]) -> tuple[list[str], str | None]:
    """The ``--fc-solve-args`` to give fc-solve for a game of ``options``, and a note when some
    are left out.  A preset (``-l NAME``) replaces the game's rules with FreeCell's whatever the
    order of the arguments (measured: with ``-l lg`` fc-solve "solves" Seahaven Towers deal 91
    by moving a seven into an empty column that takes only kings), so presets go only with
    FreeCell's own rules."""
    if options == FREECELL_OPTIONS:
        return list(extra), None
    kept, dropped, i = [], [], 0
    while i < len(extra):
        if extra[i] in _PRESET_FLAGS:
            dropped += extra[i : i + 2]
            i += 2
        else:
            kept.append(extra[i])
            i += 1
    if not dropped:
        return kept, None
    return kept, (f"fc-solve's preset {' '.join(dropped)} is left out: a preset replaces the game's rules "
                  f"with FreeCell's")


def _child_setup() -> None:
    """In the peer's process: out of the terminal's process group (Ctrl-C stops the run,
    not a deal, which would then be stored as failed), and killed with its worker (Linux)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _children_peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)


def run_process(cmd: list[str], timeout: float | None) -> tuple[subprocess.CompletedProcess[str] | None, float, float]:
    """Run a peer's process: its output (None when it was killed at ``timeout``), its wall
    seconds (process start included) and CPU seconds.  The worker runs one process at a time,
    so the change in its children's CPU time is this process's."""
    c0, t0 = _children_cpu(), time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, start_new_session=True,
                              preexec_fn=_child_setup)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0, _children_cpu() - c0
    return done, time.perf_counter() - t0, _children_cpu() - c0


def process_row(done: subprocess.CompletedProcess[str] | None, parsed: dict[str, Any] | None, seconds: float,
                cpu: float, unknown_reason: str) -> dict[str, Any]:
    """A peer process's row: killed at the time limit (``done`` None), failed (no verdict in its
    output: the exit code and its last line), or its verdict, iterations and moves."""
    if done is None or parsed is None:
        return {"verdict": "unknown", "reason": "timeout", "seconds": seconds, "cpu_s": cpu, "nodes": None,
                "moves": None, "peak_mb": _children_peak_mb()}
    row = {"verdict": parsed["verdict"] or "error", "reason": None, "seconds": seconds, "cpu_s": cpu,
           "nodes": parsed["iterations"], "moves": parsed["moves"], "peak_mb": _children_peak_mb()}
    if parsed["verdict"] is None:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or [""]
        row["reason"] = f"exit {done.returncode}: {parsed.get('kind') or last[0][:200]}"
    elif parsed["verdict"] == "unknown":
        row["reason"] = unknown_reason
    return row


def program_version(where: str, pattern: str = r"version:?\s+([\w.]+)") -> str | None:
    """A peer program's version, from what ``PROGRAM --version`` prints (either stream)."""
    try:
        done = subprocess.run([where, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(pattern, done.stdout + done.stderr)
    return found.group(1) if found else None


def run_fc_solve(path: str, options: list[str], board: str, timeout: float | None,
                 max_iters: int | None = None) -> dict[str, Any]:
    """Run fc-solve on one board; a row with its verdict, wall seconds (process start
    included), CPU seconds of the process, iterations and peak memory."""
    with tempfile.TemporaryDirectory(prefix="patience-peer-") as tmp:
        board_file = Path(tmp) / "board.txt"
        board_file.write_text(board)
        cmd = [path, "-m", "-sel", *options]
        if max_iters is not None:
            cmd += ["--max-iters", str(max_iters)]
        cmd.append(str(board_file))
        done, seconds, cpu = run_process(cmd, timeout)
    return process_row(done, None if done is None else parse_fc_solve(done.stdout), seconds, cpu, "max-iters")


_FC_MOVE = re.compile(r"^Move (a card|(\d+) cards) from (stack|freecell) (\d+) to "
                      r"(the foundations|stack (\d+)|freecell (\d+))\s*$")


def fc_solve_steps(text: str) -> list[Any]:
    """fc-solve's moves (``-m``) as steps between our stacks (stack i is tableau:i, freecell i cell:i)."""
    steps = []
    for line in text.splitlines():
        m = _FC_MOVE.match(line.strip())
        if m is None:
            continue
        n = int(m.group(2) or 1)
        src = f"{'tableau' if m.group(3) == 'stack' else 'cell'}:{m.group(4)}"
        dst = ("foundations" if m.group(6) is None and m.group(7) is None else
               f"tableau:{m.group(6)}" if m.group(6) is not None else f"cell:{m.group(7)}")
        steps.append(Step(src, dst, n))
    return steps


class FcSolve(Peer):
    name = "fc-solve"
    install = "Debian/Ubuntu: apt install freecell-solver-bin"

    def options(self, layout: Any) -> list[str] | None:
        return fc_solve_options(layout)

    def locate(self) -> str | None:
        return shutil.which("fc-solve")

    def version(self, where: str) -> str | None:
        return program_version(where, r"version\s+(\S+)")

    def solve(self, where: str, board: str, options: list[str], limits: Limits) -> dict[str, Any]:
        return run_fc_solve(where, options, board, limits.timeout, limits.max_nodes)

    def solution(self, where: str, board: str, options: list[str], limits: Limits) -> list[Any] | None:
        with tempfile.TemporaryDirectory(prefix="patience-peer-") as tmp:
            (Path(tmp) / "board.txt").write_text(board)
            done, _, _ = run_process([where, "-m", "-sel", *options, str(Path(tmp) / "board.txt")], limits.timeout)
        if done is None or parse_fc_solve(done.stdout)["verdict"] != "won":
            return None
        return fc_solve_steps(done.stdout)


# ------------------------------------------------------- freecell-solver (PyPI)

FCS_WAS_SOLVED, FCS_IS_NOT_SOLVEABLE, FCS_SUSPEND = 0, 1, 5  # the library's fcs_enums.h
FCS_STEP = 10_000  # iterations between two looks at the clock


class FreecellSolverLib(Peer):
    """The Freecell Solver library in the worker process, through PyPI's ``freecell_solver``.
    The library has no clock: it runs ``FCS_STEP`` iterations at a time and the worker looks
    at the clock between steps (so a deal may overrun the timeout by one step)."""

    name = "freecell-solver"
    install = ("pip install freecell-solver (a binding: it needs libfreecell-solver.so.0, "
               "Debian/Ubuntu: apt install libfreecell-solver0)")

    def options(self, layout: Any) -> list[str] | None:
        return fc_solve_options(layout)

    def locate(self) -> str | None:
        if importlib.util.find_spec("freecell_solver") is None:
            return None
        try:
            self._instance()
        except (OSError, ImportError):  # the binding is there, the library it loads is not
            return None
        return "freecell_solver"

    def version(self, where: str) -> str | None:
        from importlib import metadata

        try:
            return metadata.version("freecell-solver")
        except metadata.PackageNotFoundError:
            return None

    @staticmethod
    def _instance() -> Any:
        return importlib.import_module("freecell_solver").FreecellSolver()  # optional: not a dependency

    def solve(self, where: str, board: str, options: list[str], limits: Limits) -> dict[str, Any]:
        solver = self._instance()
        solver.input_cmd_line(options)
        t0, c0 = time.perf_counter(), time.process_time()
        cap = limits.max_nodes
        step = FCS_STEP if cap is None else min(FCS_STEP, cap)
        solver.limit_iterations(step)
        ret = solver.solve_board(board)
        reason = None
        while ret == FCS_SUSPEND:
            iters = solver.get_num_times()
            if cap is not None and iters >= cap:
                reason = "max-iters"
                break
            if limits.timeout is not None and time.perf_counter() - t0 >= limits.timeout:
                reason = "timeout"
                break
            solver.limit_iterations(iters + step if cap is None else min(iters + step, cap))
            ret = solver.resume_solution()
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        verdict = {FCS_WAS_SOLVED: "won", FCS_IS_NOT_SOLVEABLE: "lost", FCS_SUSPEND: "unknown"}.get(ret, "error")
        moves = None
        if verdict == "won":
            moves = 0
            while solver.get_next_move() is not None:
                moves += 1
        return {"verdict": verdict, "reason": reason if verdict == "unknown" else
                (f"library state {ret}" if verdict == "error" else None),
                "seconds": seconds, "cpu_s": cpu, "nodes": solver.get_num_times(), "moves": moves,
                "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


# ---------------------------------------------------------------- Solvitaire

_SOLUTION_TYPE = re.compile(r"^Solution Type: (\S+)\s*$", re.M)
_STATES = re.compile(r"^States Searched: (\d+)\s*$", re.M)
_SOLVITAIRE_VERDICTS = {"solved": "won", "unsolvable": "lost", "timed-out": "unknown",
                        "memory-limit-reached": "unknown"}
_STATE_END = "==================================="
TIMEOUT_GRACE = 5.0  # seconds a peer with its own clock gets past the limit before it is killed
SEED = "--random"  # (in Solvitaire's options: it deals the seed itself, ``Solvitaire.options``)
SOLUTION_LIMIT = 64 << 20  # bytes of Solvitaire's printed solution read back to replay a disagreement


_CSV = re.compile(r"^\d*, (solved|unsolvable|timed-out|memory-limit-reached|terminated), (\d+), (\d+)"
                  r"(?:, \d+){6}, (\d+), (\d+), \S+\s*$", re.M)


def parse_solvitaire(text: str) -> dict[str, Any]:
    """Solvitaire's verdict, states searched (its iterations) and the number of moves of its
    solution, from its standard output: its one line with ``--classify`` (the moves are its
    final search depth, the length of the path it found), or its full output (the positions it
    prints, less the deal)."""
    csv = _CSV.findall(text)
    if csv:
        kind, _, states_searched, _, depth = csv[-1]
        verdict = _SOLVITAIRE_VERDICTS.get(kind)
        return {"verdict": verdict, "kind": kind, "iterations": int(states_searched),
                "moves": int(depth) if verdict == "won" else None}
    kind = _SOLUTION_TYPE.findall(text)
    states = _STATES.findall(text)
    verdict = _SOLVITAIRE_VERDICTS.get(kind[-1]) if kind else None
    return {"verdict": verdict, "kind": kind[-1] if kind else None,
            "iterations": int(states[-1]) if states else None,
            "moves": text.count(_STATE_END) - 1 if verdict == "won" else None}


def solvitaire_states(text: str) -> list[dict[str, list[list[str]]]]:
    """The positions Solvitaire prints for a solution: per section (Foundations, Cells, Tableau
    Piles, Reserve, Stock | Waste, Hole Card) its piles, bottom card first, in our card names
    ("##": face down; a foundation or the hole: its top card only)."""
    start = text.find("Solution:")
    if start < 0:
        return []
    states = []
    for block in text[start + len("Solution:"):].split(_STATE_END)[:-1]:
        state: dict[str, list[list[str]]] = {}
        section = None
        rows: list[list[str]] = []
        for line in [*block.strip("\n").splitlines(), "--- end"]:
            if line.startswith("--- "):
                if section is not None:
                    width = max(map(len, rows), default=0)
                    state[section] = [[r[i] for r in rows if i < len(r) and r[i] not in ("", "[]")]
                                      for i in range(width)]
                section = line.strip("- ").strip()
                rows = []
            elif section is not None:
                rows.append(["T" + c[2:] if c.startswith("10") else c for c in line.split("\t")])  # our names
        states.append(state)
    return states


_SOLVITAIRE_STACKS = {"Tableau Piles": "tableau", "Cells": "cell", "Reserve": "reserve", "Reserve (Stacked)": "reserve"}


def solvitaire_steps(states: list[dict[str, list[list[str]]]]) -> list[Any] | None:
    """Steps between our stacks from Solvitaire's positions, one move per pair of positions: the
    pile that lost cards and the pile, foundation or hole that gained them; or the stock dealing
    one card onto each of several piles (a row, ``moves.ROW``).  None when a change reads
    otherwise."""
    def piles(state: dict[str, list[list[str]]]) -> dict[str, list[str]]:
        out = {}
        for section, kind in _SOLVITAIRE_STACKS.items():
            for i, pile in enumerate(state.get(section, [])):
                out[f"{kind}:{i}"] = pile
        if "Stock | Waste" in state:
            sw = state["Stock | Waste"] + [[], []]
            out["stock"], out["waste"] = sw[0], sw[1]
        elif "Stock" in state:  # a stock turned onto the hole (Golf)
            out["stock"] = (state["Stock"] + [[]])[0]
        return out

    def tops(state: dict[str, list[list[str]]], section: str) -> list[str]:
        return [p[-1] if p else "" for p in state.get(section, [])]

    steps = []
    for a, b in zip(states, states[1:]):
        pa, pb = piles(a), piles(b)
        lost = [(k, len(pa[k]) - len(pb.get(k, []))) for k in pa if len(pb.get(k, [])) < len(pa[k])]
        gained = [(k, len(pb[k]) - len(pa.get(k, []))) for k in pb if len(pb[k]) > len(pa.get(k, []))]
        fa, fb = tops(a, "Foundations"), tops(b, "Foundations")
        hole_a, hole_b = tops(a, "Hole Card"), tops(b, "Hole Card")
        def up(old: str, new: str) -> bool:  # a foundation's top card went up (a card arrived)
            return "A23456789TJQK".index(new[0]) > "A23456789TJQK".index(old[0]) if new and old else bool(new)

        to_found = [fb[i] for i in range(len(fb)) if fb[i] != fa[i] and up(fa[i], fb[i])]
        gained = [(k, n) for k, n in gained if k not in ("stock", "waste")]
        src_names = [k for k, _ in lost if k not in ("stock", "waste")]
        # a card from the stock or the waste (Solvitaire turns and turns back within one move)
        from_stock = (len(pb.get("stock", [])) + len(pb.get("waste", []))
                      < len(pa.get("stock", [])) + len(pa.get("waste", [])))
        if to_found or hole_b != hole_a:
            card = to_found[0] if to_found else hole_b[0]
            dst = "foundations" if to_found else "hole"
            if from_stock:
                steps.append(Step("waste" if "waste" in pa else "stock", dst, 1, card))
            elif len(src_names) == 1:
                steps.append(Step(src_names[0], dst, 1))
            else:
                return None
        elif from_stock and len(gained) > 1 and all(n == 1 for _, n in gained) and not src_names:
            row = {k.split(":")[0] for k, _ in gained}  # a row: one card onto each of the first piles
            if len(row) != 1 or sorted(k for k, _ in gained) != sorted(f"{next(iter(row))}:{i}"
                                                                      for i in range(len(gained))):
                return None
            steps.append(Step("stock", row.pop(), len(gained)))
        elif len(gained) == 1:
            dst, n = gained[0]
            card = pb[dst][len(pb[dst]) - n]
            if from_stock:
                steps.append(Step("waste", dst, 1, card))
            elif len(src_names) == 1:
                steps.append(Step(src_names[0], dst, n))
            elif len(src_names) == 0 and any(fa[i] != fb[i] for i in range(len(fa))):
                steps.append(Step("foundations", dst, 1, card))
            else:
                return None
        elif a != b:
            return None
    return steps


class Solvitaire(Peer):
    name = "solvitaire"
    install = "build it from its public source (benchmarks/peers.md), then put it on PATH or give --peer-path"

    def options(self, layout: Any) -> list[str] | None:
        rules = family_of(layout).solvitaire_rules(layout)
        if rules is None:
            return None
        if rules.get("foundations", {}).get("only complete pile moves"):
            # Solvitaire 0.10.1's schema takes this key, but its parser reads the rule under
            # another ("complete piles", which the schema refuses): it would send the cards home
            # one at a time, another game (the Spider family; ``foundations.takes = "card"`` is its)
            return None
        options = ["--custom-rules", json.dumps(rules, separators=(",", ":"))]
        cells = getattr(layout, "cells", None)  # (Accordion and Gaps have none)
        if cells is not None and cells.deal:
            # Its deal file has no cells (its schema refuses the key its reader would read), so it
            # deals the seed itself (--random N): only where our seed N is its deal of these rules.
            if shuffles.generator(layout) != "solvitaire" or layout.deal.reverse:
                return None  # (another numbering; or a diagonal deal, which the rules file does not say)
            options.append(SEED)
        return options

    def board(self, layout: Any, deal: Any, seed: int | None = None) -> str:
        cells = getattr(layout, "cells", None)
        if cells is not None and cells.deal:  # (``options`` gave SEED: it deals the seed itself)
            if seed is None or deal != shuffles.from_seed(layout, seed):
                raise UnsupportedError(f"layout {layout.name!r}: Solvitaire is given a deal with cards in cells "
                                       f"only as its own seed")
            return json.dumps({SEED: seed})
        return json.dumps(family_of(layout).solvitaire_deal(layout, deal))

    @staticmethod
    def _command(where: str, tmp: str, board: str, options: list[str],
                 more: tuple[str, ...] = ()) -> list[str]:
        """Its command line: the rules file, ``more`` options, and the deal file or the seed
        (SEED in ``options``), the rules and the deal written into ``tmp``."""
        rules = options[options.index("--custom-rules") + 1]
        (Path(tmp) / "rules.json").write_text(rules)
        cmd = [where, "--custom-rules", str(Path(tmp) / "rules.json"), *more]
        if SEED in options:
            return [*cmd, SEED, str(json.loads(board)[SEED])]
        (Path(tmp) / "deal.json").write_text(board)
        return [*cmd, str(Path(tmp) / "deal.json")]

    def locate(self) -> str | None:
        return shutil.which("solvitaire")

    def version(self, where: str) -> str | None:
        return program_version(where)

    def solve(self, where: str, board: str, options: list[str], limits: Limits) -> dict[str, Any]:
        extra = [o for i, o in enumerate(options)
                 if o not in ("--custom-rules", SEED) and options[i - 1:i] != ["--custom-rules"]]
        with tempfile.TemporaryDirectory(prefix="patience-peer-") as tmp:
            # --classify: one line (its solution, printed position by position, can run to gigabytes:
            # FreeCell deal 1 as a path of 2.5 million moves)
            more = ["--classify", *extra]
            if limits.timeout is not None:
                more += ["--timeout", str(max(1, round(limits.timeout * 1000)))]
            cmd = self._command(where, tmp, board, options, tuple(more))
            done, seconds, cpu = run_process(cmd, None if limits.timeout is None else limits.timeout + TIMEOUT_GRACE)
        parsed = None if done is None else parse_solvitaire(done.stdout)
        reason = "timeout" if parsed is None or parsed["kind"] == "timed-out" else "memory"
        return process_row(done, parsed, seconds, cpu, reason)

    def solution(self, where: str, board: str, options: list[str], limits: Limits) -> list[Any] | None:
        with tempfile.TemporaryDirectory(prefix="patience-peer-") as tmp:
            cmd = self._command(where, tmp, board, options)
            with open(Path(tmp) / "out.txt", "w") as out:
                try:
                    done = subprocess.run(cmd, stdout=out, stderr=subprocess.DEVNULL, timeout=limits.timeout,
                                          start_new_session=True, preexec_fn=_child_setup)
                except subprocess.TimeoutExpired:
                    return None
            size = (Path(tmp) / "out.txt").stat().st_size
            if done.returncode or size > SOLUTION_LIMIT:
                return None  # its path is too long to read (it prints every position)
            text = (Path(tmp) / "out.txt").read_text()
        if parse_solvitaire(text)["verdict"] != "won":
            return None
        return solvitaire_steps(solvitaire_states(text))


# --------------------------------------------------------- black-hole-solver

_BHS_VERDICTS = {"Solved!": "won", "Unsolved!": "lost", "Intractable!": "unknown"}
_BHS_MOVE = re.compile(r"^(Move a card from stack \d+ to the foundations|Deal talon)\s*$", re.M)


def parse_black_hole_solver(text: str) -> dict[str, Any]:
    """black-hole-solver's verdict line (Solved! / Unsolved!, its complete scan / Intractable!,
    its iteration limit), the states it checked and the moves of its solution (cards to the
    foundation and talon deals)."""
    verdict = next((_BHS_VERDICTS[line.strip()] for line in text.splitlines() if line.strip() in _BHS_VERDICTS),
                   None)
    checked = _CHECKED.findall(text)
    return {"verdict": verdict, "iterations": int(checked[-1]) if checked else None,
            "moves": len(_BHS_MOVE.findall(text)) if verdict == "won" else None}


def black_hole_solver_options(layout: Any) -> list[str] | None:
    """``--game black_hole`` or ``--game golf`` when ``layout`` is that game as the solver has it
    (PySolFC's rules, one whole pack): Black Hole's ace of spades in the hole, 17 fans of three,
    ranks wrapping; Golf's 7 columns of five, the stock turned onto the hole, no wrapping, a queen
    going on a king (without ``--queens-on-kings`` the solver refuses that move, and "loses" about
    half the deals our search wins: measured on seeds 1..200, 49 disagreements)."""
    if ("black-hole-solver" not in family_of(layout).peers or layout.max_rank != 13 or layout.decks != 1
            or layout.suits != DEFAULT_SUITS):
        return None
    hole, t, turn = layout.hole, layout.tableau, layout.stock.turn
    assert hole is not None
    if hole.start == "AS" and hole.wrap and t.deal == (3,) * 17 and turn == "none" and layout.cells.count == 0:
        return ["--game", "black_hole"]
    if hole.start == "stock" and not hole.wrap and t.deal == (5,) * 7 and turn == "hole":
        return ["--game", "golf", "--queens-on-kings"]  # our Golf (PySolFC's) puts a queen on a king
    return None


class BlackHoleSolver(Peer):
    name = "black-hole-solver"
    install = ("build it from its public source (benchmarks/peers.md), then put black-hole-solve on PATH "
               "or give --peer-path black-hole-solver=PATH")

    def options(self, layout: Any) -> list[str] | None:
        return black_hole_solver_options(layout)

    def locate(self) -> str | None:
        return shutil.which("black-hole-solve")

    def version(self, where: str) -> str | None:
        return program_version(where, r"version\s+(\S+)")

    def solve(self, where: str, board: str, options: list[str], limits: Limits) -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="patience-peer-") as tmp:
            (Path(tmp) / "board.txt").write_text(board)
            cmd = [where, *options]
            if limits.max_nodes is not None:
                cmd += ["--max-iters", str(limits.max_nodes)]
            done, seconds, cpu = run_process([*cmd, str(Path(tmp) / "board.txt")], limits.timeout)
        parsed = None if done is None else parse_black_hole_solver(done.stdout)
        return process_row(done, parsed, seconds, cpu, "max-iters")

    def solution(self, where: str, board: str, options: list[str], limits: Limits) -> list[Any] | None:
        with tempfile.TemporaryDirectory(prefix="patience-peer-") as tmp:
            (Path(tmp) / "board.txt").write_text(board)
            done, _, _ = run_process([where, *options, str(Path(tmp) / "board.txt")], limits.timeout)
        if done is None or parse_black_hole_solver(done.stdout)["verdict"] != "won":
            return None
        steps = [Step("stock" if m.startswith("Deal") else f"tableau:{m.split()[5]}", "hole")
                 for m in _BHS_MOVE.findall(done.stdout)]
        # It stops once the columns are empty; the talon left may always be turned onto the hole.
        talon = next((len(line.split()) - 1 for line in board.splitlines() if line.startswith("Talon:")), 0)
        return steps + [Step("stock", "hole")] * (talon - sum(st.src == "stock" for st in steps))


PEERS: dict[str, Peer] = {p.name: p for p in (FcSolve(), FreecellSolverLib(), Solvitaire(), BlackHoleSolver())}
