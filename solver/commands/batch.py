"""``patience batch`` (many seeds, in parallel, resumable) and ``patience report``."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from ..errors import InputError, SeedError
from ..families import family_of
from ..options import add_layout, add_settings, layout_arg, nonnegative_int, positive_int, positive_workers, random_seed
from ..result import EXIT_BAD_INPUT, EXIT_INTERNAL
from .solve import add_core, add_limits, engine_options, engines_epilog, limits_from

if TYPE_CHECKING:  # imported where used: `patience solve` loads none of sqlite, multiprocessing, dask
    from concurrent.futures import Executor
    from contextlib import AbstractContextManager

    from .. import batch

JOBS_PER_CORE = 4  # --jobs beyond this many per core is cut down (with a warning)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("batch", help="solve many seeds in parallel into a SQLite file; rerun to resume",
                       description="Solve many seeds of a layout in parallel (--jobs processes, or a Dask cluster), "
                                   "each as `patience solve` would with the same limits, into a SQLite file (--db); "
                                   "print the win rate with a 95%% interval. Rerun the same command to resume: "
                                   "stored seeds are skipped.",
                       epilog=engines_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    add_layout(p)
    p.add_argument("--seeds", metavar="SPEC", help="seeds and inclusive ranges, e.g. 1-1000,2000,3000-3010")
    p.add_argument("--sample", type=positive_int, metavar="K",
                   help="K distinct seeds drawn at random from --seeds, or from all the layout's seeds")
    p.add_argument("--sample-seed", type=nonnegative_int, default=0, metavar="S",
                   help="the random seed of --sample (default 0): the same S draws the same seeds")
    p.add_argument("--jobs", type=positive_int, metavar="N",
                   help="deals solved at once (default: every core; at most 4 per core and one per deal; "
                        "with --scheduler, every worker thread)")
    p.add_argument("--engine", default="dfs", help="the engine (default: dfs; see below)")
    add_limits(p, "each deal's search")
    add_core(p)
    p.add_argument("--workers", type=positive_workers, default=1, metavar="K",
                   help="CP-SAT search workers per deal (default 1: the deals already run in parallel)")
    p.add_argument("--portfolio-jobs", type=positive_workers, default=None, metavar="N",
                   help="--engine portfolio: its parts run at once per deal, each in its own process (default: "
                        "the cores left to each of the --jobs deals, at least 1, which makes it the dfs engine "
                        "when there are as many jobs as cores)")
    p.add_argument("--random-seed", type=random_seed, default=None, metavar="S",
                   help="fix the CP-SAT random seed and run deterministically")
    p.add_argument("--db", metavar="FILE",
                   help="the SQLite file of results (default: LAYOUT.sqlite in the current directory); one "
                        "batch writes it at a time (another is refused), and only results of the same rules "
                        "(the layout's fingerprint)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--retry-unknown", action="store_true",
                   help="solve again the stored seeds whose verdict is unknown (e.g. with more --timeout)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(handler=run_batch)

    p = sub.add_parser("report", help="print the summary of a stored batch, its rows, or its winnable seeds",
                       description="Print the summary of a database written by `patience batch` (per engine and "
                                   "rules: counts, win rate and its interval, times), every row as CSV, or "
                                   "(--winnable) the seeds it proved winnable.")
    p.add_argument("db", metavar="DB", help="a SQLite file written by `patience batch`")
    p.add_argument("--engine", help="only this engine's rows (with --winnable, 'any': every engine's, a seed won "
                                    "by any of them listed)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print the summaries as a JSON list")
    g.add_argument("--csv", action="store_true",
                   help="print every row as CSV (the full result JSON stays in the database)")
    g.add_argument("--winnable", action="store_true",
                   help="print the seeds proved won (one layout and engine: see --layout, --engine), "
                        "in the form --format names")
    p.add_argument("--format", choices=("text", "pysolfc", "json"), default=None,
                   help="with --winnable: text (default; one seed a line), pysolfc (a Python module like "
                        "PySolFC's list of solvable seeds; only where seed N is PySolFC's game number N) or "
                        "json (each seed with its nodes and seconds to the first win and a tier: easy, medium, "
                        "hard by thirds of the nodes)")
    p.add_argument("--layout", metavar="LAYOUT",
                   help="with --winnable: the layout to list, in a database of several; also the layout (a name "
                        "or a .toml file) whose rules the batch played, where --format pysolfc or --verify need "
                        "them and the database's layout name is not a built-in layout's")
    add_settings(p, example="--set deal.generator=pysolfc")
    p.add_argument("--seeds", metavar="SPEC", help="with --winnable: only these seeds and ranges, e.g. 32000-32999")
    p.add_argument("--verify", action="store_true",
                   help="with --winnable: replay every listed seed's stored solution with the referee first "
                        "(the batch already did as it stored it)")
    p.set_defaults(handler=run_report)


def choose_seeds(args: argparse.Namespace, layout: Any) -> list[int]:
    from .. import batch

    seeds = batch.parse_seeds(args.seeds) if args.seeds is not None else None
    span = family_of(layout).seed_range(layout)
    if span is None:
        raise InputError(f"layout {layout.name!r} has one start and no shuffle: there are no seeds to batch; "
                         "use `patience solve`")
    low, high = span
    if args.sample is not None:
        seeds = batch.sample_seeds(args.sample, args.sample_seed, seeds, low, high)
    elif seeds is None:
        raise InputError("give --seeds SPEC (e.g. --seeds 1-1000) or --sample K")
    if seeds[0] < low or seeds[-1] > high:
        bad = seeds[0] if seeds[0] < low else seeds[-1]
        raise SeedError.outside(bad, low, high, layout.name, "--seeds")
    return seeds


def local_jobs(asked: int | None, todo: int) -> int:
    """Worker processes for ``todo`` deals: ``--jobs`` or every core, at most one per deal and at
    most ``JOBS_PER_CORE`` per core (more only share the cores, and each costs a process)."""
    from .. import batch

    cores = batch.default_jobs()
    jobs = asked or cores
    if jobs > JOBS_PER_CORE * cores:
        jobs = JOBS_PER_CORE * cores
        print(f"patience: --jobs {asked}: more than {JOBS_PER_CORE} per core ({cores} cores here) only share "
              f"them; using {jobs}", file=sys.stderr)
    return max(1, min(jobs, todo))


def run_batch(args: argparse.Namespace) -> int:
    from concurrent.futures import BrokenExecutor

    from .. import api, batch, engines

    layout = api.load_layout(layout_arg(args), args.max_ranks, args.settings)
    if set(family_of(layout).verdicts) - set(batch.VERDICTS):
        raise InputError(f"layout {layout.name!r}: its games may also end drawn, which a batch database does "
                         "not store; decide its deals with `patience solve`, or measure them with "
                         "`python -m benchmarks chance`")
    if args.engine not in engines.ENGINES:
        raise InputError(f"--engine: expected one of {', '.join(engines.ENGINES)}, got {args.engine!r}")
    if args.portfolio_jobs is not None and args.engine not in engines.USES_JOBS:
        raise InputError(f"--portfolio-jobs: only for --engine {' or '.join(sorted(engines.USES_JOBS))}, "
                         f"not --engine {args.engine}")
    if args.engine in ("cpsat", "both"):
        family_of(layout).cpsat_model(layout)  # UnsupportedError now, not from the first deal
    if args.db is not None and not args.db.strip():
        raise InputError(f"--db: expected a file name, got {args.db!r}")
    seeds = choose_seeds(args, layout)
    limits = limits_from(args)
    store = batch.Store(args.db or batch.default_db(layout), layout)
    todo, progress = batch.plan(store, seeds, args.engine, args.retry_unknown)
    client = None
    previous = signal.signal(signal.SIGTERM, _terminated) if _main_thread() else None
    try:
        client = batch.dask_client(args.scheduler) if args.scheduler else None
        if len(todo) < len(seeds):
            print(f"patience: {len(seeds) - len(todo)} of {len(seeds)} seeds already in {store.path}; "
                  f"solving the other {len(todo)}", file=sys.stderr)
        t0 = time.perf_counter()
        jobs = 0
        if todo:
            executor: AbstractContextManager[Executor]
            if client is not None:  # the cluster queues a few deals ahead unless --jobs caps them
                jobs = args.jobs or batch.cluster_threads(client)
                window = args.jobs or 2 * jobs
                executor = batch.dask_executor(client)
            else:
                jobs = local_jobs(args.jobs, len(todo))
                window = 2 * jobs
                executor = batch.process_pool(jobs)
            options = engine_options(args)
            if args.engine in engines.USES_JOBS:
                options["jobs"] = args.portfolio_jobs or max(1, batch.default_jobs() // jobs)
            with executor as ex:
                batch.run_batch(ex, window, layout, todo, args.engine, limits, store, progress, options)
        wall = time.perf_counter() - t0
        requested = set(seeds)
        rows = [(v, secs) for seed, v, secs in store.rows(args.engine) if seed in requested]
        details = [d[1:] for d in store.details(args.engine) if d[0] in requested]
    except KeyboardInterrupt:
        print(f"patience: interrupted; {stored_note(progress, store)}", file=sys.stderr)
        return 130
    except Terminated:
        print(f"patience: terminated; {stored_note(progress, store)}", file=sys.stderr)
        return 128 + signal.SIGTERM
    except batch.StoreError as e:
        print(f"patience: error: {e}; {stored_note(progress, store)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenExecutor:
        print("patience: a worker process died (killed, or out of memory? --max-memory bounds the "
              f"search); {stored_note(progress, store)}", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        store.close()
        if client is not None:
            client.close()
    summary = {"layout": layout.name, "rules_version": layout.rules_version,
               "fingerprint": store.meta["fingerprint"], "engine": args.engine,
               **batch.summarize(rows), **batch.breakdown(details),
               "run": {"db": str(store.path), "solved": len(todo), "skipped": len(seeds) - len(todo),
                       "jobs": jobs, "wall_seconds": round(wall, 3),
                       "executor": "dask" if client is not None else "processes"}}
    if args.json:
        print(json.dumps(summary))
    else:
        print(batch.format_table([summary]), end="")
        rate = f" ({len(todo) / wall:.1f} deals/s)" if todo and wall > 0 else ""
        print(f"solved {len(todo)} deals in {wall:.1f} s on {jobs} job{'s' if jobs != 1 else ''}{rate}; "
              f"{len(seeds) - len(todo)} were already stored in {store.path}")
    return 0


class Terminated(BaseException):
    """SIGTERM, turned into an exception so that a batch stops as cleanly as on Ctrl-C: the deals
    in flight are dropped, the stored ones stay, the lock file is removed."""


def _terminated(signum: int, frame: Any) -> None:
    raise Terminated


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def stored_note(progress: batch.Progress, store: batch.Store) -> str:
    return (f"{sum(progress.counts.values())} of {progress.total} deals are stored in {store.path}; "
            f"run the same command again to resume")


def run_report(args: argparse.Namespace) -> int:
    from .. import batch

    if not args.winnable:
        for given, option in ((args.format is not None, "--format"), (args.layout is not None, "--layout"),
                              (args.verify, "--verify"), (bool(args.settings), "--set"),
                              (args.seeds is not None, "--seeds")):
            if given:
                raise InputError(f"{option}: only with --winnable")
    conn, meta = batch.open_report(args.db)
    if args.winnable:
        try:
            return run_winnable(args, conn, meta)
        finally:
            conn.close()
    try:
        if args.csv:
            import csv

            out = csv.writer(sys.stdout, lineterminator="\n")
            out.writerow(batch.COLUMNS[:-1])
            out.writerows(batch.export_rows(conn, args.engine))
            return 0
        summaries = batch.report_summaries(conn, args.engine)
    finally:
        conn.close()
    if args.engine is not None and not summaries:
        raise InputError(f"{args.db}: no deals stored for engine {args.engine!r}")
    if args.json:
        print(json.dumps(summaries))
    elif summaries:
        print(batch.format_table(summaries), end="")
    else:
        print(f"{args.db}: no deals stored yet ({meta['layout']}, rules version {meta['rules_version']}, "
              f"rules fingerprint {meta.get('fingerprint', '-')})")
    return 0


def run_winnable(args: argparse.Namespace, conn: Any, meta: dict[str, str]) -> int:
    """``patience report DB --winnable``: the seeds proved won, as text, a PySolFC module or JSON."""
    from .. import api, batch
    from .. import batch_winnable as winnable
    from ..layout import Layout
    from ..shuffles import words

    fmt = args.format or "text"
    strict = fmt == "pysolfc" or args.verify  # these need to know which deals the seeds are
    name = args.layout
    if name is not None and name not in winnable.layout_names(conn):  # a layout file: its rows go by its name
        try:
            name = api.load_layout(name, None, args.settings).name
        except InputError:
            pass  # read() says that the database holds no such layout
    seeds = batch.parse_seeds(args.seeds) if args.seeds is not None else None
    wl = winnable.read(conn, meta, args.db, name, args.engine, seeds)
    layout = None
    if fmt != "text" or args.verify:  # the layout the rows name (--layout, --set), if it has their rules
        try:
            layout = api.load_layout(args.layout or wl.layout, wl.max_rank if wl.max_rank != 13 else None,
                                     args.settings)
        except InputError as e:
            if strict:
                raise InputError(f"{args.db}: its layout {wl.layout!r} does not load here ({e}): cannot tell "
                                 "which deals its seeds are; give the layout file with --layout") from None
        if layout is not None:
            try:
                winnable.same_rules(wl, layout, args.db)
            except InputError:
                if strict:
                    raise
                layout = None
    numbering = words(layout) if isinstance(layout, Layout) else None
    if fmt == "pysolfc":
        assert layout is not None
        problem = winnable.pysolfc_numbering(layout, wl.covered)
        if problem is not None:
            raise InputError(f"--format pysolfc: {problem}")
    replayed = None
    if args.verify:
        assert layout is not None
        replayed = winnable.verify(conn, wl, layout, api.verify)
    if fmt == "text":
        print(winnable.as_text(wl), end="")
    elif fmt == "pysolfc":
        assert isinstance(layout, Layout) and numbering is not None
        print(winnable.as_pysolfc(wl, f"PySolFC's {layout.deal.pysolfc_game}", numbering[0].upper() + numbering[1:],
                                  args.settings), end="")
    else:
        print(winnable.as_json(wl, numbering, replayed, args.settings if layout is not None else ()), end="")
    if replayed is not None:
        print(f"patience: replayed the stored solutions of {replayed} seeds with the referee: every one wins",
              file=sys.stderr)
    return 0
