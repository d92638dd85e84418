"""The ``portfolio`` engine: several searches of one deal in separate processes at once; the first
proof decides.

The parts (``parts``), in this order:

1. ``dfs``: the DFS as the ``dfs`` engine runs it (restarts seeded by ``random_seed``, default 0);
2. ``finder``: the win finder (``finder``: a beam search ordered by the family's evaluation),
   which only ever reports wins; by default only where the family gives it a seat
   (``GameFamily.finder_seat``: measured to win deals the DFS leaves open).  While later parts
   wait for a process it has ``FINDER_SHARE`` of the time limit, then gives its process to them;
3. ``dfs-shaken``: the DFS with another restart seed (``random_seed + 1``) and a stronger shake
   of the move order (``SHAKEN_NOISE``): where the first part takes a bad early turn, this one
   likely takes another; and it learns from the start (``plain_nodes=0``, where the family
   learns: ``dfs``, "Learning"), where the first part searches millions of nodes without;
4. ``cpsat``: CP-SAT with one search worker (``workers`` sets more), only where the family's
   model is exact for the layout, so that its ``lost`` is a proof: elsewhere ``cpsat_model``
   refuses, and the part gives its place to the next at once (asked in the part's process:
   the question imports OR-Tools, which takes seconds).

Where the family gives CP-SAT a seat (``cpsat_seat``: the debutante family's layouts that the
grid model plays, whose tight deals it wins in seconds and the DFS leaves open), ``dfs-shaken``
keeps its place before ``cpsat`` but, while ``cpsat`` waits for a process, for ``SHAKEN_SHARE``
of the time limit only: on two cores the shaken DFS decides what it decides at once (a learned
loss, a late win of the first part's order: mostly within a fraction of a second), then gives
its process to CP-SAT.  In the plain order CP-SAT waited for the shaken DFS to end, which under
a time limit never happened.  With a process for every part (``jobs`` 3) the share does not apply.

The ``parts`` option (names of ``PARTS`` and ``MORE_PARTS``) chooses some, in its order.  ``jobs`` (``--jobs``) is
how many parts run at once (default: the machine's cores, at most the number of parts); a part
that ends without a proof (a node limit) gives its process to the next.  The first part runs in
this process; each other one in a fresh interpreter (``_child``: nothing of this process is
copied), started once the first has searched for ``START_AFTER`` seconds without a proof, so that
the many deals decided at once cost no process start.  The first ``won`` or ``lost`` ends the
portfolio: a won is replayed by the referee first (a win that does not replay is a bug,
``VerificationFailed``), and the other processes are stopped.  Proofs that arrive together are
compared: a ``won`` and a ``lost`` raise ``Disagreement`` (exit code 4), as ``both`` does.  With
``jobs=1`` the portfolio is its first part alone: the ``dfs`` engine.

Limits: ``timeout`` is the wall time of the whole portfolio (each part stops by it, and a part
still running a second after it is stopped); ``max_nodes`` holds for each part (for CP-SAT, its
conflicts); ``max_memory`` is split evenly between the parts running at once.

The result is the deciding part's, with its stats and ``part`` (its name); ``parts`` summarizes
every part that ran.  An unknown carries the first part's stats (depth, cuts, slack).  A part that
fails (an exception, or a process that dies) is noted in ``parts``; when no other part proves the
deal, its failure is raised rather than answering unknown.

No process outlives the portfolio: the parts are stopped when it ends, however it ends (Ctrl-C
included: the parts run in sessions of their own and ignore SIGINT, so it reaches this process
alone), and on Linux a part dies with the process that started it (``die_with_parent``), even
when that one is killed outright.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import UnsupportedError, VerificationFailed
from ..families import AnyLayout, family_of
from ..limits import Limits
from ..result import EngineRun
from .cpsat import run_cpsat
from .dfs import run_dfs
from .finder import run_finder
from .portfolio import Disagreement, decided_stats, part_summary

SHAKEN_NOISE = 0.3  # the ``dfs-shaken`` part's restart noise (the ``dfs`` engine's is 0.08)
SHAKEN_SHARE = 0.2  # its share of the time where CP-SAT has a seat and waits (the module text)
FINDER_SHARE = 0.5  # the win finder's share of the time while later parts wait (the module text)
POLL = 0.05  # seconds between two looks of the in-process part at the other parts' news
START_AFTER = 0.1  # seconds of the in-process part before the other parts start (most deals take less)
GRACE = 1.0  # seconds a part may overrun the timeout before it is stopped
LATE = 1.0  # no part starts with less than this many seconds left before the timeout
# A part's process: the package imported from where this process has it (a source checkout is put
# first on the path; an installed package is on it already), then ``_child``.
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
CHILD = ("import sys; root = sys.argv[1]; root in sys.path or sys.path.insert(0, root); "
         "from solver.engines.parallel import _child; _child()")


@dataclass
class Part:
    """One search of the portfolio: a name, an engine and its options."""

    name: str
    engine: str
    options: dict[str, Any] = field(default_factory=dict)
    share: float | None = None  # of the time limit, while later parts wait for a process


ENGINES = {"dfs": run_dfs, "cpsat": run_cpsat, "finder": run_finder}


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def die_with_parent(parent: int) -> None:
    """In a child process: ignore Ctrl-C (the parent handles it and stops the children) and, on
    Linux, die when the parent dies (``PR_SET_PDEATHSIG``), so that killing the parent outright
    leaves no child behind."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() != parent:  # the parent died before prctl
            os._exit(1)


PARTS = ("dfs", "finder", "dfs-shaken", "cpsat")  # the parts by default, in the order they start
# Parts run only where ``parts`` names them: the shaken win finder (``finder``, "Shaken").
MORE_PARTS = ("finder-shaken",)
FINDER_SHAKE = 6  # the ``finder-shaken`` part's score noise


def parts(options: dict[str, Any], layout: AnyLayout | None = None) -> list[Part]:
    """The portfolio's parts, in the order they are started (the module text); the ``parts`` option
    (a list of names of ``PARTS``) chooses some, in its order.  Where ``layout``'s family seats
    CP-SAT, ``dfs-shaken`` has ``SHAKEN_SHARE`` of the time while CP-SAT waits."""
    seed = options.get("random_seed") or 0
    dfs_options = {k: v for k, v in options.items() if k in ("core", "random_seed", "use_forced", "use_bounds")}
    cpsat_options = {"workers": options.get("workers") or 1}
    seated = layout is not None and family_of(layout).cpsat_seat(layout)
    if options.get("random_seed") is not None:
        cpsat_options["random_seed"] = options["random_seed"]
    every = {"dfs": Part("dfs", "dfs", dfs_options),
             "dfs-shaken": Part("dfs-shaken", "dfs",
                                {**dfs_options, "random_seed": seed + 1, "restart_noise": SHAKEN_NOISE,
                                 "plain_nodes": 0}, share=SHAKEN_SHARE if seated else None),
             "finder": Part("finder", "finder", {k: v for k, v in options.items() if k == "core"},
                            share=FINDER_SHARE),
             "finder-shaken": Part("finder-shaken", "finder",
                                   {**{k: v for k, v in options.items() if k == "core"},
                                    "shake": FINDER_SHAKE, "random_seed": seed + 1}, share=FINDER_SHARE),
             "cpsat": Part("cpsat", "cpsat", cpsat_options)}
    names = options.get("parts") or PARTS
    if not names or any(n not in every for n in names) or len(set(names)) < len(names) \
            or every[names[0]].engine != "dfs":
        raise UnsupportedError(f"portfolio parts {', '.join(map(str, names))}: expected distinct names of "
                               f"{', '.join(PARTS + MORE_PARTS)}, the first a dfs (it runs in this process, and "
                               "stops when another part proves the deal)")
    chosen = [every[n] for n in names]
    if layout is not None and not options.get("parts") and not family_of(layout).finder_seat(layout):
        chosen = [p for p in chosen if p.engine != "finder"]  # asked here: the question is cheap
    return chosen


class _Proved(Exception):
    """Raised from the in-process part's progress callback: another part proved the deal."""


@dataclass
class _Child:
    """A part running in a process of its own; its answer arrives on its stdout."""

    part: Part
    process: subprocess.Popen[bytes]
    fd: int  # the read end of its stdout
    data: bytearray = field(default_factory=bytearray)


def _child() -> None:
    """A part in its own process (``python -c CHILD ROOT PARENT``, started by ``_Portfolio.fill``):
    read the task from stdin, run it, write back ``("run", EngineRun)``, ``("unsupported", text)`` when its engine does
    not play the layout, or ``("error", text)``, pickled, on stdout (whatever else would be printed
    goes to stderr)."""
    die_with_parent(int(sys.argv[2]))
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    part, layout, deal, limits, deadline = pickle.load(sys.stdin.buffer)
    message: tuple[str, Any]
    try:
        given = limits.timeout
        if deadline is not None:  # the process start counts against the portfolio's time
            limits = replace(limits, timeout=max(0.01, deadline - time.monotonic()))
        t0 = time.perf_counter()
        run = ENGINES[part.engine](layout, deal, limits, **part.options)
        run.stats["seconds"] = round(time.perf_counter() - t0, 4)
        if given is not None and run.reason and run.reason.startswith(f"timeout {limits.timeout:g} "):
            # name the portfolio's limit, not what was left of it here
            run.reason = f"timeout {given:g} " + run.reason.removeprefix(f"timeout {limits.timeout:g} ")
        message = ("run", run)
    except UnsupportedError as e:
        message = ("unsupported", str(e))
    except Exception as e:  # every failure is reported to the parent, which decides
        message = ("error", f"{type(e).__name__}: {e}")
    with out:
        pickle.dump(message, out)


class _Portfolio:
    """One run: the children, what they said, and the decision."""

    def __init__(self, layout: AnyLayout, deal: Any, limits: Limits, jobs: int, todo: list[Part],
                 options: dict[str, Any]):
        self.layout, self.deal, self.limits = layout, deal, limits
        self.jobs = jobs
        self.todo = todo  # parts not started yet
        self.children: list[_Child] = []
        self.runs: dict[str, EngineRun] = {}  # finished parts
        self.failed: dict[str, str] = {}
        self.skipped: dict[str, str] = {}  # parts whose engine does not play the layout
        self.stopped: list[str] = []  # parts stopped while running (a proof came, or the time is up)
        self.start = time.monotonic()
        self.deadline = None if limits.timeout is None else self.start + limits.timeout
        self.progress = options.get("progress")
        self.next_report = 0.0

    # -- the children

    def fill(self) -> None:
        """Start parts while fewer than ``jobs - 1`` children run (this process runs one part), until
        a proof.  A child is a fresh interpreter (nothing of this process is copied: no lock, no
        thread, no half-written buffer) that imports the package from where this one did."""
        late = self.deadline is not None and time.monotonic() > self.deadline - LATE
        while self.todo and len(self.children) < self.jobs - 1 and not self.proved() and not late:
            part = self.todo.pop(0)
            limits, deadline = self.limits, self.deadline
            waiting = len(self.todo) > self.jobs - 2 - len(self.children)  # a later part finds no process
            if part.share is not None and waiting and limits.timeout is not None and deadline is not None:
                seconds = part.share * limits.timeout
                limits, deadline = replace(limits, timeout=seconds), min(deadline, time.monotonic() + seconds)
            # A session of its own: Ctrl-C at the terminal reaches this process alone, which stops
            # the children (a child still starting would print a traceback).
            process = subprocess.Popen([sys.executable, "-c", CHILD, PACKAGE_ROOT, str(os.getpid())],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
            assert process.stdin is not None and process.stdout is not None
            try:  # the task is small (a layout and a deal): it fits the pipe, no wait for the child
                process.stdin.write(pickle.dumps((part, self.layout, self.deal, limits, deadline)))
                process.stdin.close()
            except OSError:  # it died at once; its end is seen below
                pass
            os.set_blocking(process.stdout.fileno(), False)
            self.children.append(_Child(part, process, process.stdout.fileno()))

    def collect(self, timeout: float) -> None:
        """Take in what the children said (waiting up to ``timeout`` seconds for a word); a child
        that ended gives its place to the next part."""
        ready, _, _ = select.select([c.fd for c in self.children], [], [], timeout)
        for child in [c for c in self.children if c.fd in ready]:
            try:
                chunk = os.read(child.fd, 1 << 16)
            except BlockingIOError:
                continue
            if chunk:
                child.data += chunk
                continue
            self._end(child)  # the end of its output: it has finished, or died
            try:
                message = pickle.loads(child.data)
            except Exception:  # nothing whole: it died before answering
                self.failed[child.part.name] = f"its process died (exit code {child.process.returncode})"
                continue
            kind, what = message
            if kind == "run":
                self.runs[child.part.name] = what
            elif kind == "unsupported":
                self.skipped[child.part.name] = what
            else:
                self.failed[child.part.name] = what
        self.fill()

    def _end(self, child: _Child) -> None:
        self.children.remove(child)
        try:
            child.process.wait(GRACE)
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()
        assert child.process.stdout is not None
        child.process.stdout.close()

    def stop(self) -> None:
        """Stop every child still running: SIGTERM, then SIGKILL after ``GRACE`` seconds."""
        for child in self.children:
            if child.process.poll() is None:
                child.process.terminate()
            self.stopped.append(child.part.name)
        for child in list(self.children):
            self._end(child)
        self.todo.clear()

    def proved(self) -> bool:
        return any(run.verdict != "unknown" for run in self.runs.values())

    # -- the part in this process

    def poll(self, stats: dict[str, float | int]) -> None:
        """The in-process part's progress callback: pass reports on, look at the children's news."""
        if self.progress is not None and stats["seconds"] >= self.next_report:
            self.next_report = stats["seconds"] + 0.5
            self.progress(stats)
        if stats["seconds"] >= START_AFTER:
            self.fill()
        if self.children:
            self.collect(0)
            if self.proved():
                raise _Proved

    def run_first(self, part: Part) -> None:
        t0 = time.perf_counter()
        try:
            run = ENGINES[part.engine](self.layout, self.deal, self.limits, **part.options,
                                       progress=self.poll, progress_every=POLL)
        except _Proved:
            self.stopped.append(part.name)
            return
        run.stats["seconds"] = round(time.perf_counter() - t0, 4)
        self.runs[part.name] = run

    def wait_children(self) -> None:
        """Until a proof, the last child's end, or the deadline and its grace."""
        while self.children and not self.proved():
            left = None if self.deadline is None else self.deadline + GRACE - time.monotonic()
            if left is not None and left <= 0:
                return
            self.collect(left if left is not None else 3600)

    # -- the answer

    def answer(self, first: Part) -> EngineRun:
        for name, run in self.runs.items():
            if run.verdict == "won":
                problem = family_of(self.layout).replay(self.layout, self.deal, run.solution or [])
                if problem is not None:
                    raise VerificationFailed(f"portfolio part {name} claimed a win on {self.layout.name} but the "
                                             f"verifier says: {problem}")
        proofs = {name: run for name, run in self.runs.items() if run.verdict != "unknown"}
        if len({run.verdict for run in proofs.values()}) > 1:
            raise Disagreement(proofs)
        summaries = [{"part": name, **part_summary(run)} for name, run in self.runs.items()]
        summaries += [{"part": name, "failed": why} for name, why in self.failed.items()]
        summaries += [{"part": name, "skipped": why} for name, why in self.skipped.items()]
        summaries += [{"part": name, "stopped": "while running"} for name in self.stopped]
        for name, run in proofs.items():
            return EngineRun(run.verdict, run.reason, run.solution, run.nodes,
                             {**_own(run.stats), **decided_stats(run, name), "parts": summaries})
        if self.failed:
            name, why = next(iter(self.failed.items()))
            raise RuntimeError(f"portfolio part {name} failed and no other part proved the deal: {why}")
        main = self.runs.get(first.name)
        reasons = {run.reason for run in self.runs.values()}
        reason: str | None
        if self.deadline is not None and time.monotonic() >= self.deadline:
            reason = f"timeout {self.limits.timeout:g} s"  # the portfolio's, not what was left of it in a part
        elif len(reasons) == 1:
            reason = reasons.pop()
        else:
            reason = "; ".join(f"{name}: {run.reason}" for name, run in self.runs.items())
        stats = _own(main.stats) if main is not None else {}
        return EngineRun("unknown", reason, None, main.nodes if main is not None else 0,
                         {**stats, "parts": summaries})


def _own(stats: dict[str, Any]) -> dict[str, Any]:
    """A part's stats but its seconds (the portfolio's are the caller's; the part's are in ``parts``)."""
    return {k: v for k, v in stats.items() if k != "seconds"}


def run_portfolio(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """The ``portfolio`` engine (the module text); ``jobs`` is how many parts run at once."""
    todo = parts(options, layout)
    jobs = max(1, min(options.get("jobs") or cores(), len(todo)))
    first = todo.pop(0)
    if jobs == 1:
        run = ENGINES[first.engine](layout, deal, limits, **first.options, progress=options.get("progress"))
        if run.verdict != "unknown":
            run.stats.update(decided_stats(run, first.name))
        run.stats["parts"] = [{"part": first.name, **part_summary(run)}]
        return run
    if limits.max_memory is not None:
        limits = replace(limits, max_memory=max(1 << 20, limits.max_memory // jobs))
    portfolio = _Portfolio(layout, deal, limits, jobs, todo, options)
    try:
        portfolio.run_first(first)  # starts the others after START_AFTER seconds
        portfolio.fill()  # or now, if it ended sooner without a proof
        portfolio.wait_children()
        if portfolio.children:
            portfolio.collect(0)  # proofs that arrived together with the first are compared with it
    finally:
        portfolio.stop()
    return portfolio.answer(first)
