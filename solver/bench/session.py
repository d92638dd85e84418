"""One run of ``patience bench`` into a folder: plan, solve what is not stored yet, write the tables.

The run (a *session*) opens the folder's deals file, skips every deal already in it, and
solves the rest group by group (a layout and a runner), storing each deal as it
finishes.  After each group, and however the run ends (done, Ctrl-C, SIGTERM, a worker
that died), the tables are rebuilt from what is stored; only a kill (SIGKILL, power)
skips that, and the next run of the same command rebuilds them.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engines import USES_JOBS
from ..engines.parallel import cores
from ..errors import InputError, UnsupportedError
from .machine import busy_warning, load_average, machine
from .plan import Config, Group, Runner, limits_json, load
from .report import build, prepare_out, write
from .runner import Stream, peer_deal, run_interleaved, solve_deal
from .store import DealStore, compress, read_records

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


def check(config: Config) -> None:
    """Every check that can refuse the run, before anything is written."""
    from ..engines import ENGINES

    if not config.targets:
        raise InputError("give at least one LAYOUT")
    for e in config.engines:
        if e not in ENGINES:
            raise InputError(f"--engines: expected names from {', '.join(ENGINES)}, got {e!r}")
    if not config.engines and not config.peers:
        raise InputError("--engines: no engine, and no --peers: nothing to run")
    from .peers import PEERS

    for name, path in config.peer_paths.items():
        if name not in PEERS:
            raise InputError(f"--peer-path {name}={path}: expected a peer named {', '.join(PEERS)}")
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise InputError(f"--peer-path {name}={path}: not an executable file")
    for c in config.cores or []:
        if not (c.replace("-", "").isascii() and c.replace("-", "").isalnum()):
            raise InputError(f"--cores: expected core names such as python,compiled, got {c!r}")
    for t in config.targets:
        load(t.name, t.max_rank)
        if t.label not in config.seeds:
            raise InputError(f"layout {t.label!r} has no seeds")


def plan_groups(config: Config) -> tuple[list[Group], list[str]]:
    """The groups of the run in order (per layout: each engine on each core, then its peers),
    and notes on the peers that do not run."""
    from .peers import PEERS, extra_args

    groups: list[Group] = []
    notes: list[str] = []
    located: dict[str, tuple[str | None, str | None]] = {}
    for t in config.targets:
        layout = load(t.name, t.max_rank)
        seeds = config.seeds[t.label]
        groups += [Group(t, r, seeds, layout.rules_version) for r in config.engine_runners()]
        if not config.peers:
            continue
        playing = [(p, opts) for p in PEERS.values() if (opts := p.options(layout)) is not None]
        if not playing:
            notes.append(f"peers for {t.label}: no peer plays this layout (peers: {', '.join(PEERS)})")
        for peer, opts in playing:
            if peer.name not in located:
                where = config.peer_paths.get(peer.name) or peer.locate()
                located[peer.name] = (where, peer.version(where) if where else None)
            where, version = located[peer.name]
            if where is None:
                notes.append(f"peers for {t.label}: {peer.name} is not installed here: skipped "
                             f"(to compare with it: {peer.install})")
                continue
            extra, dropped = extra_args(opts, config.fc_solve_args)
            if dropped:
                notes.append(f"peers for {t.label}: {dropped}")
            runner = Runner(peer.name, peer=True, args=tuple(extra))
            groups.append(Group(t, runner, seeds, layout.rules_version, where=where,
                                options=opts + extra, version=version))
    return groups, notes


def _tasks(config: Config, g: Group, seeds: list[int | None]) -> tuple[Callable[..., dict[str, Any]],
                                                                        list[tuple[Any, ...]]]:
    t = g.target
    if g.runner.peer:
        assert g.where is not None
        return peer_deal, [(t.name, t.max_rank, s, g.runner.name, g.where, g.options, config.limits)
                           for s in seeds]
    options: dict[str, Any] = {"workers": 1}  # one deal per core: CP-SAT gets one search worker
    if g.runner.core is not None:
        options["core"] = g.runner.core
    if g.runner.name in USES_JOBS:  # a portfolio takes the cores left to each of the deals at once
        options["jobs"] = max(1, cores() // config.jobs)
    return solve_deal, [(t.name, t.max_rank, s, g.runner.name, config.limits, options) for s in seeds]


@contextmanager
def _sigterm_interrupts(stopped: dict[str, str]) -> Iterator[None]:
    """SIGTERM stops the run as Ctrl-C does (the tables are still written).  Only the main
    thread can take signals; elsewhere SIGTERM keeps its own handling."""
    def handler(signum: int, frame: Any) -> None:
        stopped["by"] = "SIGTERM"
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@dataclass
class Outcome:
    report: dict[str, Any]
    files: list[Path]
    stopped: str  # "complete", "interrupted", "SIGTERM", or what went wrong
    exit_code: int


def run(config: Config, out: Path, progress: bool | None = None, plots: bool = True) -> Outcome:
    """Run the benchmark into ``out``; the report, the files written and how the run ended."""
    check(config)
    out = prepare_out(out)
    groups, notes = plan_groups(config)
    if progress is None:
        progress = sys.stderr.isatty()
    store = DealStore(out, limits_json(config.limits))
    store.open()
    busy = busy_warning(config.jobs)
    if busy:
        print(f"patience bench: warning: {busy}", file=sys.stderr)
    session = store.sessions() + 1
    store.append({"kind": "session", "session": session, "command": config.command, "jobs": config.jobs,
                  "machine": machine()})
    t0 = time.perf_counter()
    stopped = {"by": "complete"}
    error: BaseException | None = None
    try:
        with _sigterm_interrupts(stopped):
            try:
                _solve(config, groups, store, session, out, progress, notes)
                if config.perft:
                    _perft(config, store, session, notes)
            except KeyboardInterrupt:
                if stopped["by"] != "SIGTERM":
                    stopped["by"] = "interrupted"
            except BrokenExecutor:
                stopped["by"] = "a worker process died (killed, or out of memory?)"
    except Exception as e:  # a bug in a worker (e.g. a win the referee rejects): record, then raise
        stopped["by"], error = f"error: {type(e).__name__}: {e}", e
    store.append({"kind": "end", "session": session, "load_at_end": load_average(),
                  "wall_s": round(time.perf_counter() - t0, 2), "stopped": stopped["by"]})
    store.close()
    # from the file, the run's memory (a signal between a deal's line and its record in memory
    # must not leave the tables one deal short)
    report = build(config, groups, read_records(store.path)[0], notes)
    compress(store.path)  # the rows kept gzipped (read back by every reader)
    files = write(report, out, plots=plots)
    if error is not None:
        raise error
    code = {"complete": 0, "interrupted": EXIT_INTERRUPTED, "SIGTERM": EXIT_TERMINATED}.get(stopped["by"], 1)
    return Outcome(report, files, stopped["by"], code)


def _solve(config: Config, groups: list[Group], store: DealStore, session: int, out: Path, progress: bool,
           notes: list[str]) -> None:
    """Every layout's groups interleaved deal by deal (``run_interleaved``), the tables written
    after each layout."""
    from tqdm import tqdm

    todo = {id(g): [s for s in g.seeds if g.key(s) not in store.done] for g in groups}
    with tqdm(total=sum(map(len, todo.values())), unit="deal", file=sys.stderr, disable=not progress,
              dynamic_ncols=True) as bar:
        for label in dict.fromkeys(g.target.label for g in groups):
            mine = [g for g in groups if g.target.label == label and todo[id(g)]]
            if not mine:
                continue
            bar.set_description(label)
            streams: list[Stream] = []
            for g in mine:
                finished = [0]

                def on_row(row: dict[str, Any], g: Group = g, finished: list[int] = finished) -> bool:
                    if "unsupported" in row:
                        g.unsupported = row["unsupported"]
                        bar.total -= len(todo[id(g)]) - finished[0]
                        bar.refresh()
                        return False
                    store.append({"kind": "deal", "session": session, "layout": g.target.label,
                                  "rules_version": g.rules_version, "runner": g.runner.label, **row})
                    finished[0] += 1
                    bar.update()
                    return True

                fn, tasks = _tasks(config, g, todo[id(g)])
                streams.append((fn, tasks, on_row))
            run_interleaved(streams, config.jobs)
            _disagreements(config, mine, store, session)
            write(build(config, groups, store.records, notes), out, plots=False)  # the tables so far


def _disagreements(config: Config, groups: list[Group], store: DealStore, session: int) -> None:
    """Each deal one of our engines and a peer decided differently, replayed through our referee
    (``disagree.check``) and stored, once."""
    from .disagree import check

    rows = {}
    for r in store.records:
        if r["kind"] == "deal":
            rows[(r["layout"], r["runner"], r["seed"])] = r
    seen = {(r["layout"], r["runner"], r["against"], r["seed"]) for r in store.records
            if r["kind"] == "disagreement"}
    ours = [g for g in groups if not g.runner.peer]
    for p in [g for g in groups if g.runner.peer and g.where is not None]:
        for g in ours:
            for seed in p.seeds:
                a = rows.get((g.target.label, g.runner.label, seed))
                b = rows.get((p.target.label, p.runner.label, seed))
                decided = a is not None and b is not None and {a["verdict"], b["verdict"]} == {"won", "lost"}
                if not decided or (g.target.label, g.runner.label, p.runner.label, seed) in seen:
                    continue
                assert a is not None and b is not None and p.where is not None
                record = check(g.target.label, g.target.name, g.target.max_rank, seed,
                               {**a, "runner": g.runner.label}, b, p.runner.name, p.where, p.options, config.limits)
                store.append({**record, "against": p.runner.label, "session": session})


def _perft(config: Config, store: DealStore, session: int, notes: list[str]) -> None:
    from .perft import perft

    for t in config.targets:
        try:
            result = perft(load(t.name, t.max_rank), playouts=config.perft_playouts)
        except UnsupportedError as e:
            notes.append(f"perft {t.label}: skipped: {e}")
            continue
        store.append({"kind": "perft", "session": session, "layout": t.label, **result})
