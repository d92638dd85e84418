"""The deals file of a benchmark folder: one JSON record a line, appended as each deal finishes.

``deals.jsonl`` is the run's memory.  Its first line says what it is and the per-deal
limits every deal in it ran under; then come, in the order they happened:

- ``{"kind": "session", ...}``: a run of ``patience bench`` started (the machine, the load);
- ``{"kind": "deal", ...}``: one finished deal, keyed by (layout, rules version, runner, seed);
- ``{"kind": "perft", ...}``: a perft measurement;
- ``{"kind": "end", ...}``: the run ended (the load at the end; how it stopped).

Only the parent process writes, one line per finished deal, flushed at once: a run
that is interrupted, or killed outright, loses at most the deals in flight, and a
line that a kill cut short is dropped when the file is next opened.  Rerunning the
same command skips the deals already here, and a deal already here is never
added again, so none is counted twice.  A lock keeps a second run out of the folder
while one writes to it.  The tables (``bench.json``, ``bench.md``) are always
rebuilt from this file, and it is the one copy of the rows (``bench.json`` holds the
summaries, ``report.load`` reads the rows back from here).  Once a run ends, the deals
file is kept gzipped (``deals.jsonl.gz``); every reader reads either, and the next run
unpacks it to go on.
"""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import shutil
from pathlib import Path
from typing import IO, Any

from ..errors import InputError

DEALS = "deals.jsonl"
FORMAT = "patience-bench-deals"
VERSION = 1

Key = tuple[str, int, str, int | None]  # layout label, rules version, runner label, seed


def deal_key(record: dict[str, Any]) -> Key:
    return record["layout"], record["rules_version"], record["runner"], record["seed"]


def gz(path: Path) -> Path:
    return path.with_name(path.name + ".gz")


def read_bytes(path: Path) -> bytes:
    """The file at ``path``, or its gzipped copy ``path.gz`` read back (a finished run's deals
    file is kept compressed, and so are the recorded reports that hold rows of deals)."""
    if not path.exists() and gz(path).exists():
        return gzip.decompress(gz(path).read_bytes())
    return path.read_bytes()


def compress(path: Path) -> Path:
    """Replace ``path`` by ``path.gz`` (the gzipped copy is written whole under a temporary name
    first); the path that holds it now."""
    if not path.exists():
        return path
    tmp = path.with_name(f".{path.name}.gz.tmp")
    with open(path, "rb") as src, gzip.GzipFile(tmp, "wb", mtime=0) as dst:
        shutil.copyfileobj(src, dst)
    os.replace(tmp, gz(path))
    path.unlink()
    return gz(path)


def read_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The records of a deals file (or of its gzipped copy), and the length in bytes of its
    whole lines (a last line without its newline was cut short by a kill: it is left out)."""
    data = read_bytes(path)
    whole = data.rfind(b"\n") + 1
    records = []
    for number, line in enumerate(data[:whole].decode("utf-8", errors="replace").splitlines(), 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            record = None
        if not isinstance(record, dict) or "kind" not in record:
            raise InputError(f"{path}: line {number}: expected a JSON record of a benchmark run; "
                             f"the file is damaged (move it away, or give another --out)")
        records.append(record)
    return records, whole


class DealStore:
    """The deals file in ``folder``, opened for this run: checked, locked, read."""

    def __init__(self, folder: Path, limits: dict[str, Any]):
        self.path = folder / DEALS
        self.limits = limits
        self.records: list[dict[str, Any]] = []
        self.done: set[Key] = set()
        self._file: IO[str] | None = None

    def open(self) -> None:
        """Open (or create) the file, lock it, read what is there, drop a line cut short.  A
        finished run's gzipped deals file is unpacked first, to go on with it (and packed again
        when this run is refused)."""
        unpacked = not self.path.exists() and gz(self.path).exists()
        if unpacked:
            tmp = self.path.with_name(f".{self.path.name}.tmp")
            tmp.write_bytes(read_bytes(self.path))
            os.replace(tmp, self.path)
            gz(self.path).unlink()
        existed = self.path.exists()
        try:
            f = self.path.open("a+", encoding="utf-8")
        except OSError as e:
            raise InputError(f"{self.path}: cannot open the deals file: {e.strerror}") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise InputError(f"{self.path}: another `patience bench` is writing to this folder; "
                             f"wait for it, or give another --out") from None
        self._file = f
        try:
            if existed:
                self._load()
            if not self.records:
                self.append({"kind": "meta", "format": FORMAT, "version": VERSION, "limits": self.limits})
        except BaseException:
            self.close()
            if unpacked:
                compress(self.path)
            raise

    def _load(self) -> None:
        assert self._file is not None
        records, whole = read_records(self.path)
        if records:
            meta = records[0]
            if meta.get("kind") != "meta" or meta.get("format") != FORMAT:
                raise InputError(f"{self.path}: not the deals file of a benchmark run")
            if meta.get("version") != VERSION:
                raise InputError(f"{self.path}: deals file version {meta.get('version')}, expected {VERSION}")
            if meta.get("limits") != self.limits:
                raise InputError(f"{self.path}: its deals ran under the limits {_limits_text(meta.get('limits'))}, "
                                 f"this run's are {_limits_text(self.limits)}; deals under other limits are "
                                 f"never mixed: give the same limits, or another --out")
        self._file.truncate(whole)  # a line a kill cut short
        self.records = records
        self.done = {deal_key(r) for r in records if r["kind"] == "deal"}

    def append(self, record: dict[str, Any]) -> None:
        """Write one record and flush it to the operating system (it survives this process
        being killed).  A deal already stored is not written again."""
        assert self._file is not None, "the store is not open"
        key = deal_key(record) if record["kind"] == "deal" else None
        if key in self.done:
            return
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()
        self.records.append(record)
        if key is not None:
            self.done.add(key)

    def sessions(self) -> int:
        return sum(r["kind"] == "session" for r in self.records)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()  # closing releases the lock
            self._file = None


def _limits_text(limits: Any) -> str:
    if not isinstance(limits, dict) or not limits:
        return "none"
    return ", ".join(f"--{k.replace('_', '-')} {v:g}" if isinstance(v, float) else f"--{k.replace('_', '-')} {v}"
                     for k, v in sorted(limits.items()))
