"""Batch solving: many seeds of one layout, in parallel, stored as they finish.

The runner hands deals to any ``concurrent.futures.Executor``: a process pool
on one machine, or a Dask cluster's executor (``Client(address).get_executor()``)
for many; everything else is shared.  Only this (parent) process writes the
SQLite file, one transaction per finished deal, so a batch that is interrupted
or killed loses at most the deals in flight, and rerunning it resumes.

One file holds one layout at one rules version (the ``meta`` table says which);
its rows are keyed by (layout, seed, engine, rules_version), so no deal is ever
counted twice.  Every check that can refuse a batch runs before anything is
written, and the file is created only when the first deal finishes.
"""

from __future__ import annotations

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]
import json
import math
import multiprocessing
import os
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .engines.parallel import cores, die_with_parent
from .errors import InputError
from .families import AnyLayout, family_of
from .files import check_writable, shown
from .fingerprint import rules_fingerprint
from .limits import Limits
from .result import loss_argument

MAX_SEEDS = 10_000_000  # one batch; more is a mistyped range
MAX_SEED = 2**63 - 1  # SQLite integers are 64-bit
Z95 = 1.959963984540054  # the 97.5% point of the standard normal
VERDICTS = ("won", "lost", "unknown")

# ------------------------------------------------------------------- seeds


def parse_seeds(spec: str, limit: int = MAX_SEEDS) -> list[int]:
    """The seeds of ``1-1000,2000,3000-3010``: ascending, each once.

    Items are separated by commas; an item is a seed or an inclusive range
    ``LOW-HIGH`` with LOW <= HIGH.  Anything else is an ``InputError``.
    """
    ranges: list[tuple[int, int]] = []
    total = 0
    for raw in spec.split(","):
        item = raw.strip()
        if not item:
            raise InputError(f"--seeds {spec!r}: empty item; expected seeds and ranges such as 1-1000,2000")
        low_text, dash, high_text = item.partition("-")
        low = _seed_number(low_text.strip(), spec)
        high = _seed_number(high_text.strip(), spec) if dash else low
        if high < low:
            raise InputError(f"--seeds {spec!r}: range {item!r} runs backwards; "
                             f"expected LOW-HIGH with LOW <= HIGH")
        total += high - low + 1
        if total > limit:
            raise InputError(f"--seeds {spec!r}: more than {limit:,} seeds in one batch")
        ranges.append((low, high))
    seeds: set[int] = set()
    for low, high in ranges:
        seeds.update(range(low, high + 1))
    return sorted(seeds)


def _seed_number(text: str, spec: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        raise InputError(f"--seeds {spec!r}: {text!r} is not a seed; expected whole numbers "
                         f"0..{MAX_SEED} and ranges such as 1-1000,2000,3000-3010")
    value = int(text)
    if value > MAX_SEED:
        raise InputError(f"--seeds {spec!r}: seed {value} is above {MAX_SEED}, the largest a batch stores")
    return value


def sample_seeds(k: int, sample_seed: int, population: list[int] | None, low: int, high: int) -> list[int]:
    """``k`` distinct seeds drawn reproducibly (by ``sample_seed``) from ``population``,
    or from ``low..high`` when there is none; ascending."""
    if k > MAX_SEEDS:
        raise InputError(f"--sample {k}: more than {MAX_SEEDS:,} seeds in one batch")
    rng = random.Random(sample_seed)
    if population is not None:
        if k > len(population):
            raise InputError(f"--sample {k}: --seeds holds only {len(population)} seeds")
        return sorted(rng.sample(population, k))
    high = min(high, MAX_SEED)
    if k > high - low + 1:
        raise InputError(f"--sample {k}: the layout has only {high - low + 1} seeds")
    if 2 * k > high - low + 1:  # dense: draw from the whole range
        return sorted(rng.sample(range(low, high + 1), k))
    chosen: set[int] = set()
    while len(chosen) < k:
        chosen.add(rng.randint(low, high))
    return sorted(chosen)


# ------------------------------------------------------------- statistics


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # The ends at 0 and n are exactly 0 and 1; float rounding would leave 3e-17.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def won_interval(won: int, unknown: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of the won share of ``n`` deals that holds whatever the
    unknown deals turn out to be: its low end counts every unknown as lost, its high end
    every unknown as won."""
    return wilson(won, n)[0], wilson(won + unknown, n)[1]


def percentile(values: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile (0 < q <= 1), None for no values."""
    if not values:
        return None
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def summarize(rows: Iterable[tuple[str, float | None]]) -> dict[str, Any]:
    """Counts, win rate and time quantiles over (verdict, seconds) rows.

    ``win_rate`` is won / decided.  The interval is the 95% Wilson interval of
    the won share of all deals, its low end counting every unknown as lost and
    its high end counting every unknown as won, so it holds whatever the
    unknown deals turn out to be.
    """
    counts = dict.fromkeys(VERDICTS, 0)
    seconds: list[float] = []
    for verdict, secs in rows:
        counts[verdict] += 1
        if secs is not None:
            seconds.append(secs)
    n = sum(counts.values())
    won, unknown = counts["won"], counts["unknown"]
    decided = n - unknown
    return {
        "deals": n, **counts,
        "unknown_share": unknown / n if n else None,
        "win_rate": won / decided if decided else None,
        "win_rate_low": won_interval(won, unknown, n)[0],
        "win_rate_high": won_interval(won, unknown, n)[1],
        "confidence": 0.95,
        "median_seconds": statistics.median(seconds) if seconds else None,
        "p90_seconds": percentile(seconds, 0.9),
        "total_seconds": round(sum(seconds), 4),
    }


def breakdown(rows: Iterable[tuple[str, str | None, int | None, dict[str, Any]]]) -> dict[str, Any]:
    """What decided the lost deals and how far the searches of the unknown ones got, over
    (verdict, reason, nodes, stats) rows (won rows are skipped):

    - ``lost_by``: lost deals per argument (``solver.result.loss_argument``: ``search``,
      ``cp-sat``, ``bound at the deal (NAME)``, ...), most first;
    - ``unknown_median_depth``, ``unknown_median_nodes``, ``unknown_median_slack``: medians over the
      unknown deals that recorded them (``max_depth``, the nodes, ``slack_at_root``), None when none
      did.  Results recorded before these statistics existed have no depth or slack: they are left
      out of those medians, and their losses are read from their reasons.
    """
    lost_by: dict[str, int] = {}
    depths: list[float] = []
    nodes: list[float] = []
    slacks: list[float] = []
    for verdict, reason, n, stats in rows:
        if verdict == "lost":
            arg = loss_argument(reason, stats)
            lost_by[arg] = lost_by.get(arg, 0) + 1
        elif verdict == "unknown":
            figures: tuple[tuple[list[float], Any], ...] = (
                (depths, stats.get("max_depth")), (nodes, n), (slacks, stats.get("slack_at_root")))
            for values, value in figures:
                if type(value) in (int, float):
                    values.append(value)
    return {"lost_by": dict(sorted(lost_by.items(), key=lambda kv: (-kv[1], kv[0]))),
            "unknown_median_depth": statistics.median(depths) if depths else None,
            "unknown_median_nodes": statistics.median(nodes) if nodes else None,
            "unknown_median_slack": statistics.median(slacks) if slacks else None}


def format_breakdown(s: dict[str, Any]) -> str | None:
    """One line of ``breakdown``'s figures for a summary (None when it has none to show)."""
    parts = []
    if s.get("lost_by"):
        parts.append("lost by " + ", ".join(f"{arg} {n}" for arg, n in s["lost_by"].items()))
    if s.get("unknown"):
        medians = [f"{name} {s[key]:,.0f}" for name, key in (("depth", "unknown_median_depth"),
                                                             ("nodes", "unknown_median_nodes"),
                                                             ("slack at the deal", "unknown_median_slack"))
                   if s.get(key) is not None]
        if medians:
            parts.append("unknown: median " + ", ".join(medians))
    return f"{s['layout']} {s['engine']}: " + "; ".join(parts) if parts else None


def format_table(summaries: list[dict[str, Any]]) -> str:
    """The summaries as an aligned text table, one line per layout and engine."""
    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}%"

    def sec(x: float | None) -> str:
        return "-" if x is None else f"{x:.3g}"

    head = ["layout", "rules", "fingerprint", "engine", "deals", "won", "lost", "unknown", "win rate",
            "95% interval", "median s", "p90 s"]
    lines = [head] + [[
        s["layout"], str(s["rules_version"]), s.get("fingerprint") or "-", s["engine"], str(s["deals"]), str(s["won"]),
        str(s["lost"]), str(s["unknown"]), pct(s["win_rate"]),
        f"{pct(s['win_rate_low'])} - {pct(s['win_rate_high'])}",
        sec(s["median_seconds"]), sec(s["p90_seconds"]),
    ] for s in summaries]
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    text = ["  ".join(c.ljust(w) if i < 4 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths,
                                                                                          strict=True)))
            for row in lines]
    note = ("win rate: won / decided; interval: 95% Wilson, unknowns counted as lost (low end) "
            "and as won (high end); fingerprint: a hash of the layout's rules")
    details = [line for s in summaries if (line := format_breakdown(s)) is not None]
    return "\n".join(text + details) + "\n" + note + "\n"


# ------------------------------------------------------------------ store

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE results (
    layout TEXT NOT NULL,
    seed INTEGER NOT NULL,
    engine TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('won', 'lost', 'unknown')),
    reason TEXT,
    nodes INTEGER,
    seconds REAL,
    solution_length INTEGER,
    limits TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (layout, seed, engine, rules_version)
) WITHOUT ROWID;
"""
COLUMNS = ("layout", "seed", "engine", "rules_version", "verdict", "reason", "nodes", "seconds",
           "solution_length", "limits", "fingerprint", "finished_at", "result")
# A stored decided row is final; a stored unknown may be replaced by a new run.
INSERT = (f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
          "ON CONFLICT (layout, seed, engine, rules_version) DO UPDATE SET "
          + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[4:])
          + " WHERE results.verdict = 'unknown'")
FORMAT = "patience-batch"
SCHEMA_VERSION = "2"  # 2: the rules fingerprint in the meta table and in every row
READABLE_SCHEMAS = ("1", "2")  # `patience report` reads these; `patience batch` writes only the current one


class StoreError(InputError):
    """The database cannot be written (read-only, a full disk): bad input, exit code 2."""


def layout_meta(layout: AnyLayout) -> dict[str, str]:
    return {"format": FORMAT, "schema": SCHEMA_VERSION, "layout": layout.name,
            "rules_version": str(layout.rules_version), "max_rank": str(family_of(layout).max_rank(layout) or 13),
            "fingerprint": rules_fingerprint(layout)}


def default_db(layout: AnyLayout) -> Path:
    """``<layout>.sqlite`` in the current directory (``<layout>-ranksR`` for a reduced deck)."""
    max_rank = family_of(layout).max_rank(layout)
    return Path(f"{layout.name}.sqlite" if max_rank is None else f"{layout.name}-ranks{max_rank}.sqlite")


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True,
                               isolation_level=None, timeout=30)
        conn.execute("PRAGMA schema_version").fetchone()  # fails here on a file that is not SQLite
        # WAL with synchronous NORMAL: a commit survives the process being killed (it is in the
        # WAL file); a power cut may roll the last few back, never corrupt the file.  FULL would
        # fsync every deal: 4 ms each, a cap of 250 deals/s.
        conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.Error as e:
        raise InputError(f"{path}: cannot open as a batch database: {e}") from None
    return conn


def _read_meta(conn: sqlite3.Connection, path: Path, schemas: tuple[str, ...] = (SCHEMA_VERSION,)) -> dict[str, str]:
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.Error:
        meta = {}
    if meta.get("format") != FORMAT:
        raise InputError(f"{path}: not a patience batch database (no batch meta table)")
    if meta.get("schema") == "1" and "1" not in schemas:
        raise InputError(f"{path}: made by an older patience that did not record the rules fingerprint, so its "
                         "rows cannot be told apart from other rules of the same name; give another --db "
                         "(`patience report` still reads it)")
    if meta.get("schema") not in schemas:
        raise InputError(f"{path}: batch database schema {meta.get('schema')}, expected {SCHEMA_VERSION}")
    return meta


class Store:
    """The SQLite file of one layout: one name, one rules version, one rules fingerprint.

    ``Store(path, layout)`` takes the file's lock (``BatchLock``: one batch writes a
    file at a time; another is refused at once) and checks: an existing file must be
    a batch database of this layout, rules version, deck and rules fingerprint, and
    writable; a new one must be creatable.  The file is created by the first ``add``.
    ``lock=False`` leaves the lock alone (reading only).
    """

    def __init__(self, path: str | Path, layout: AnyLayout, lock: bool = True):
        self.path = Path(path)
        self.meta = layout_meta(layout)
        self.conn: sqlite3.Connection | None = None
        self.lock: BatchLock | None = None
        try:
            exists = self.path.exists()
        except OSError as e:  # a name too long, say
            raise InputError(f"--db {shown(str(self.path))}: {e.strerror or e}") from None
        if exists and self.path.is_dir():
            raise InputError(f"--db {self.path}: is a directory; expected a database file")
        if not exists:
            _check_creatable(self.path)
        if lock:
            self.lock = BatchLock(self.path)
        try:
            if exists:
                self.conn = _connect(self.path, "rw")
                self._check(_read_meta(self.conn, self.path))
                self._check_writable()
        except InputError:
            self.close()
            raise

    def _check(self, meta: dict[str, str]) -> None:
        want = self.meta
        if meta.get("layout") != want["layout"]:
            raise InputError(f"{self.path}: holds layout {meta.get('layout')!r}, not {want['layout']!r}; "
                             f"give another --db")
        if meta.get("rules_version") != want["rules_version"]:
            raise InputError(f"{self.path}: made with {want['layout']} rules version "
                             f"{meta.get('rules_version')}, but the layout is now rules version "
                             f"{want['rules_version']}; results of different rules are never mixed: "
                             f"give another --db")
        if meta.get("max_rank") != want["max_rank"]:
            raise InputError(f"{self.path}: made with ranks A..{meta.get('max_rank')}, "
                             f"not A..{want['max_rank']} (--max-ranks); give another --db")
        if meta.get("fingerprint") != want["fingerprint"]:
            raise InputError(f"{self.path}: holds {want['layout']} results of rules fingerprint "
                             f"{meta.get('fingerprint')}, but this {want['layout']} has rules fingerprint "
                             f"{want['fingerprint']} (an edited copy of the layout?); results of different "
                             "rules are never mixed: give another --db")

    def _check_writable(self) -> None:
        """Write and roll back, so that a read-only file is refused before any deal is solved."""
        assert self.conn is not None
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('write-probe', '')")
            finally:
                self.conn.execute("ROLLBACK")
        except sqlite3.Error as e:
            raise StoreError(f"--db {self.path}: cannot write: {e}") from None

    def stored(self, engine: str) -> dict[int, str]:
        """Seed to verdict of every row already stored for ``engine``."""
        if self.conn is None:
            return {}
        return dict(self.conn.execute(
            "SELECT seed, verdict FROM results WHERE layout = ? AND engine = ? AND rules_version = ?",
            (self.meta["layout"], engine, int(self.meta["rules_version"]))).fetchall())

    def rows(self, engine: str) -> list[tuple[int, str, float | None]]:
        """(seed, verdict, seconds) of every row stored for ``engine``."""
        if self.conn is None:
            return []
        return self.conn.execute(
            "SELECT seed, verdict, seconds FROM results WHERE layout = ? AND engine = ? "
            "AND rules_version = ? ORDER BY seed",
            (self.meta["layout"], engine, int(self.meta["rules_version"]))).fetchall()

    def details(self, engine: str) -> list[tuple[int, str, str | None, int | None, dict[str, Any]]]:
        """(seed, verdict, reason, nodes, stats) of every lost or unknown row stored for ``engine``."""
        if self.conn is None:
            return []
        return _details(self.conn, "layout = ? AND engine = ? AND rules_version = ?",
                        (self.meta["layout"], engine, int(self.meta["rules_version"])))

    def limits_used(self, engine: str) -> dict[str, int]:
        """How many stored rows of ``engine`` ran under each per-deal limits (their JSON text)."""
        if self.conn is None:
            return {}
        return dict(self.conn.execute(
            "SELECT limits, COUNT(*) FROM results WHERE layout = ? AND engine = ? AND rules_version = ? "
            "GROUP BY limits", (self.meta["layout"], engine, int(self.meta["rules_version"]))).fetchall())

    def add(self, row: dict[str, Any]) -> None:
        """Store one finished deal in its own transaction; ``StoreError`` if it cannot be written."""
        if self.conn is None:
            self._create()
        assert self.conn is not None
        try:
            with self.conn:  # BEGIN ... COMMIT, or ROLLBACK on error
                self.conn.execute("BEGIN IMMEDIATE")
                self.conn.execute(INSERT, [row[c] for c in COLUMNS])
        except sqlite3.Error as e:
            raise StoreError(f"--db {self.path}: cannot write: {e}") from None

    def _create(self) -> None:
        conn = _connect(self.path, "rwc")
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                    for stmt in SCHEMA.split(";"):
                        if stmt.strip():
                            conn.execute(stmt)
                    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", self.meta.items())
        except sqlite3.Error as e:
            conn.close()
            raise StoreError(f"--db {self.path}: cannot create the database: {e}") from None
        try:
            self._check(_read_meta(conn, self.path))  # a file another batch created meanwhile
        except InputError:
            conn.close()
            raise
        self.conn = conn

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None


class BatchLock:
    """One writer per database: an exclusive ``flock`` on ``DB.lock`` beside it, holding the pid.

    Taken before any work and released by ``release`` (the lock file is removed) or by the
    process's end, however it ends: a batch killed with SIGKILL leaves the file behind, unlocked,
    and the next batch takes it over.  A second batch on the same database is refused at once
    with the first one's pid, instead of solving every deal again beside it.
    """

    def __init__(self, db: Path):
        self.path = db.with_name(db.name + ".lock")
        self.fd: int | None = None
        if fcntl is None:  # no flock (Windows): one writer is the user's care
            return
        for _ in range(100):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise InputError(f"--db {db}: cannot create its lock file {self.path}: {e.strerror or e}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                pid = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
                os.close(fd)
                raise InputError(f"--db {db}: another batch is writing it (pid {pid}); wait for it to end, "
                                 "or give another --db") from None
            # The holder before us may have removed the file between our open and our lock:
            # then we hold a lock on a file nobody else can see; start again.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode("ascii"))
                self.fd = fd
                return
            os.close(fd)
        raise InputError(f"--db {db}: cannot take its lock file {self.path}")

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            os.unlink(self.path)  # first, while we hold the lock (see __init__ for the race)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


def _check_creatable(path: Path) -> None:
    """Raise InputError unless a file can be created at ``path``, and its lock beside it."""
    check_writable(str(path), "--db", ".lock")


def open_report(path: str | Path) -> tuple[sqlite3.Connection, dict[str, str]]:
    """An existing batch database, opened for reading only (the current schema or an older one)."""
    p = Path(path)
    try:
        is_file = p.is_file()
    except OSError as e:
        raise InputError(f"{shown(str(p))}: {e.strerror or e}") from None
    if not is_file:
        raise InputError(f"{shown(str(p))}: no such batch database")
    mode = "rw" if os.access(p, os.W_OK) and os.access(p.parent, os.W_OK) else "ro"
    conn = _connect(p, mode)
    conn.execute("PRAGMA query_only = 1")
    try:
        return conn, _read_meta(conn, p, READABLE_SCHEMAS)
    except InputError:
        conn.close()
        raise


def _fingerprint_column(conn: sqlite3.Connection) -> str:
    """``fingerprint``, or NULL in a database from before fingerprints (schema 1)."""
    cols = {row[1] for row in conn.execute("PRAGMA table_info(results)")}
    return "fingerprint" if "fingerprint" in cols else "NULL AS fingerprint"


def _details(conn: sqlite3.Connection, where: str,
             args: tuple[Any, ...]) -> list[tuple[int, str, str | None, int | None, dict[str, Any]]]:
    """(seed, verdict, reason, nodes, stats) of the lost and unknown rows that match ``where``; the
    stats read from each row's result JSON ({} where it cannot be read)."""
    out = []
    for seed, verdict, reason, nodes, text in conn.execute(
            f"SELECT seed, verdict, reason, nodes, result FROM results WHERE {where} AND verdict != 'won'", args):
        try:
            stats = json.loads(text).get("stats")
        except (ValueError, TypeError, AttributeError):
            stats = None
        out.append((seed, verdict, reason, nodes, stats if isinstance(stats, dict) else {}))
    return out


def report_summaries(conn: sqlite3.Connection, engine: str | None = None) -> list[dict[str, Any]]:
    """One summary per (layout, engine, rules version, rules fingerprint) stored."""
    fp = _fingerprint_column(conn)
    groups = conn.execute(f"SELECT DISTINCT layout, engine, rules_version, {fp} FROM results "
                          "ORDER BY layout, engine, rules_version").fetchall()
    out = []
    for layout, eng, rules, fingerprint in groups:
        if engine is not None and eng != engine:
            continue
        where = "fingerprint IS ?" if fp == "fingerprint" else "? IS NULL"
        match = f"layout = ? AND engine = ? AND rules_version = ? AND {where}"
        rows = conn.execute(f"SELECT verdict, seconds FROM results WHERE {match}",
                            (layout, eng, rules, fingerprint)).fetchall()
        details = _details(conn, match, (layout, eng, rules, fingerprint))
        out.append({"layout": layout, "rules_version": rules, "fingerprint": fingerprint, "engine": eng,
                    **summarize(rows), **breakdown(d[1:] for d in details)})
    return out


def export_rows(conn: sqlite3.Connection, engine: str | None = None) -> Iterator[tuple[Any, ...]]:
    """Every stored row but the full result JSON, ordered by engine and seed."""
    fp = _fingerprint_column(conn)
    cols = ", ".join(fp if c == "fingerprint" else c for c in COLUMNS[:-1])
    where, args = ("WHERE engine = ?", (engine,)) if engine is not None else ("", ())
    yield from conn.execute(f"SELECT {cols} FROM results {where} ORDER BY layout, engine, seed", args)


# ----------------------------------------------------------------- running


def solve_one(layout: AnyLayout, seed: int, engine: str, limits: Limits, options: dict[str, Any]) -> dict[str, Any]:
    """Solve one deal (in a worker) and return its result JSON."""
    from . import api

    return api.solve(layout, seed=seed, engine=engine, limits=limits, **options).to_json()


def result_row(layout: AnyLayout, result: dict[str, Any], limits: Limits) -> dict[str, Any]:
    stats = result.get("stats") or {}
    solution = result.get("solution")
    return {
        "layout": layout.name, "seed": result["seed"], "engine": result["engine"],
        "rules_version": layout.rules_version, "verdict": result["verdict"], "reason": result["reason"],
        "nodes": stats.get("nodes"), "seconds": stats.get("seconds"),
        "solution_length": len(solution) if result["verdict"] == "won" and solution is not None else None,
        "limits": json.dumps({k: v for k, v in asdict(limits).items() if v is not None}),
        "fingerprint": rules_fingerprint(layout),
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "result": json.dumps(result, separators=(",", ":")),
    }


@dataclass
class Progress:
    """Running counts over the requested seeds, stored ones included."""

    total: int
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))

    def bar(self, enabled: bool) -> Any:
        from tqdm import tqdm

        done = sum(self.counts.values())
        bar = tqdm(total=self.total, initial=done, unit="deal", file=sys.stderr, dynamic_ncols=True,
                   disable=not enabled, smoothing=0.05, postfix=self.counts)
        return bar


def plan(store: Store, seeds: list[int], engine: str,
         retry_unknown: bool = False) -> tuple[list[int], Progress]:
    """The seeds still to solve (not stored yet, or stored as unknown when
    ``retry_unknown``), and the progress counts of the others."""
    keep = {"won", "lost"} if retry_unknown else set(VERDICTS)
    stored = {s: v for s, v in store.stored(engine).items() if v in keep}
    progress = Progress(total=len(seeds))
    todo = []
    for s in seeds:
        if s in stored:
            progress.counts[stored[s]] += 1
        else:
            todo.append(s)
    return todo, progress


def run_batch(executor: Executor, window: int, layout: AnyLayout, seeds: Iterable[int], engine: str,
              limits: Limits, store: Store, progress: Progress, options: dict[str, Any] | None = None,
              show_progress: bool | None = None) -> int:
    """Solve ``seeds`` on ``executor``, at most ``window`` deals in flight, storing each
    result as it arrives.  Returns the number of deals stored.  On any exception
    (KeyboardInterrupt included) the deals not yet finished are cancelled and
    the exception propagates; every stored deal stays stored."""
    options = options or {}
    if show_progress is None:
        show_progress = sys.stderr.isatty()
    todo = iter(seeds)
    pending: dict[Future[dict[str, Any]], int] = {}
    stored = 0

    def fill() -> None:
        while len(pending) < window:
            seed = next(todo, None)
            if seed is None:
                return
            pending[executor.submit(solve_one, layout, seed, engine, limits, options)] = seed

    bar = progress.bar(show_progress)
    try:
        fill()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            failed = None
            for fut in done:
                del pending[fut]
                if fut.exception() is not None:
                    failed = failed or fut  # store the deals that did finish first
                    continue
                result = fut.result()
                store.add(result_row(layout, result, limits))
                stored += 1
                progress.counts[result["verdict"]] += 1
                bar.set_postfix(progress.counts, refresh=False)
                bar.update()
            if failed is not None:
                failed.result()  # raises the worker's exception here
            fill()
    finally:
        for fut in pending:
            fut.cancel()
        bar.close()
    return stored


# --------------------------------------------------------------- executors


def default_jobs() -> int:
    return cores()


def _worker_init(parent: int) -> None:
    """Pool workers leave Ctrl-C to the parent, and die with it (Linux), so that
    killing a batch outright leaves no worker behind."""
    die_with_parent(parent)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now, deals in flight included (they are lost, never half-stored)."""
    processes = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes.values():
        proc.terminate()
    for proc in processes.values():
        proc.join(5)


@contextmanager
def process_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` worker processes.  They are spawned, not forked: they
    share no SQLite handle, thread or lock with this process, and they are this
    process's own children, which lets them die with it."""
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)


def dask_client(address: str, timeout: float = 10) -> Any:
    """A Dask distributed client of the scheduler at ``address`` (the ``dist`` extra)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError("--scheduler needs Dask: pip install 'patience-solver[dist]' "
                         "(or pip install 'dask[distributed]')") from None
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError(f"--scheduler {address}: cannot connect: {e}") from None


@contextmanager
def dask_executor(client: Any) -> Iterator[Executor]:
    executor = client.get_executor(pure=False)
    try:
        yield executor
    finally:
        executor.shutdown(wait=False)


def cluster_threads(client: Any) -> int:
    return max(1, sum(client.nthreads().values()))

