"""What a benchmark ran on: the processor, the load, the versions of everything that times depend on."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("patience-solver", "ortools", "networkx", "pysol-cards", "matplotlib")


def load_average() -> float | None:
    """The 1-minute load average, or None where the system has none."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def cpu_name() -> str:
    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return name


def versions() -> dict[str, str | None]:
    """Installed versions of the packages whose speed the numbers measure."""
    out: dict[str, str | None] = {"python": sys.version.split()[0]}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def git_commit() -> str | None:
    """The commit of the source tree this package runs from, when it is a git checkout."""
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True, timeout=10, cwd=Path(__file__).parent).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def git_dirty() -> bool | None:
    """True when the source tree has changes not committed (the numbers are then of more than the commit)."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--", "."],
                             capture_output=True, text=True, check=True, timeout=10,
                             cwd=Path(__file__).resolve().parents[1]).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(out.strip())


def machine() -> dict[str, Any]:
    """The machine and software the numbers were measured on."""
    return {
        "cpu": cpu_name(), "cores": os.cpu_count(), "platform": platform.platform(),
        "load_at_start": load_average(), "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "commit": git_commit(), "uncommitted_changes": git_dirty(), "versions": versions(),
    }


BUSY_LOAD = 0.5  # a 1-minute load average above this (besides the run's own jobs) means other work


def busy_notes(load_at_start: float | None, load_at_end: float | None, jobs: int,
               cores: int | None) -> list[str]:
    """What says that other work held the cores a run needed, else nothing.

    Any load above half a core counts: a second busy core slows a deal several-fold
    (shared caches and memory bandwidth), even when a core seems free.  At the end the
    run's own ``jobs`` workers count in the load average, so only what is above them does."""
    notes = []
    if load_at_start is not None and load_at_start > BUSY_LOAD:
        notes.append(f"the 1-minute load average was {load_at_start} on {cores} cores when the run started")
    if load_at_end is not None and load_at_end > jobs + BUSY_LOAD:
        notes.append(f"the 1-minute load average was {load_at_end} at the end, more than the run's own "
                     f"{jobs} job{'s' if jobs != 1 else ''} account for")
    if cores is not None and jobs > cores:
        notes.append(f"--jobs {jobs} is more than the {cores} cores")
    return notes


def busy_warning(jobs: int) -> str | None:
    """A warning, before a run starts, when other work holds the cores it needs, else None."""
    notes = busy_notes(load_average(), None, jobs, os.cpu_count())
    if not notes:
        return None
    return "machine busy: " + "; ".join(notes) + ": timings will be inflated (node counts and verdicts are not)"
