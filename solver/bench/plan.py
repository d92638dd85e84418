"""What a benchmark run is to do: the layouts, each one's seeds, and who solves them.

A *target* is a layout at a deck size (``NAME`` or ``NAME@R``, ranks A..R).  A
*runner* is one of our engines on one core (``--cores``), or a peer.  The run
solves every (target, runner, seed) once; its key in the deals file is
(layout, rules version, runner, seed), so a deal is never solved or counted twice.

Seeds are given per layout: ``--seeds 1-200`` for every layout, and
``--seeds freecell=1-1000,11982`` for one (by its label, ``freecell@5``, or by
its name, every deck size of it).  A layout with one start and no shuffle (a peg
board) has one deal, seed ``None``.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..batch import parse_seeds
from ..errors import InputError, SeedError
from ..families import family_of
from ..limits import Limits

DEFAULT_SEEDS = "1-20"


@dataclass(frozen=True)
class Target:
    """A layout at a deck size: ``name`` as the user gave it, ``max_rank`` None for the whole deck."""

    name: str
    max_rank: int | None = None

    @classmethod
    def parse(cls, text: str, max_rank: int | None = None) -> Target:
        """``debutante`` or ``debutante@5`` (ranks A..5); ``max_rank`` applies when the text has none."""
        name, at, rank = text.rpartition("@") if "@" in text else (text, "", "")
        if at:
            if not (rank.isascii() and rank.isdigit()) or not 1 <= int(rank) <= 13 or not name:
                raise InputError(f"layout {text!r}: expected NAME or NAME@R with R a rank 1..13 "
                                 f"(a reduced deck of ranks A..R)")
            return cls(name, int(rank))
        return cls(text, max_rank)

    @property
    def short_name(self) -> str:
        """The layout's name: a built-in name, or the stem of a layout file."""
        return Path(self.name).stem if self.name.endswith(".toml") else self.name

    @property
    def label(self) -> str:
        return self.short_name if self.max_rank is None else f"{self.short_name}@{self.max_rank}"


@functools.lru_cache(maxsize=256)
def load(name: str, max_rank: int | None) -> Any:
    from .. import api

    return api.load_layout(name, max_rank)


@dataclass(frozen=True)
class Runner:
    """Who solves the deals: an engine (on ``core``, None for the engine's default), or a peer
    (with its extra arguments)."""

    name: str
    core: str | None = None
    peer: bool = False
    args: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        if self.peer:
            return " ".join((self.name, *self.args))
        return self.name if self.core is None else f"{self.name}/{self.core}"


@dataclass
class Config:
    targets: list[Target]
    seeds: dict[str, list[int | None]]  # per target label
    engines: list[str] = field(default_factory=lambda: ["dfs"])
    cores: list[str] | None = None  # None: each engine's default core
    limits: Limits = field(default_factory=lambda: Limits(timeout=10.0))
    jobs: int = 1
    peers: bool = False
    fc_solve_args: list[str] = field(default_factory=list)  # extra fc-solve arguments, e.g. ["-l", "lg"]
    peer_paths: dict[str, str] = field(default_factory=dict)  # a peer's program where PATH does not find it
    perft: bool = False
    perft_playouts: int = 100
    notes: list[str] = field(default_factory=list)  # the user's notes for the report (--note)
    command: str = ""

    def engine_runners(self) -> list[Runner]:
        """Each engine on each core of ``--cores`` (an engine whose search runs on no core, once)."""
        from ..engines import USES_CORE

        out = []
        for e in self.engines:
            cores: list[str | None] = list(self.cores) if self.cores and e in USES_CORE else [None]
            out += [Runner(e, core=c) for c in cores]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"targets": [t.label for t in self.targets],
                "seeds": {label: ranges(seeds) for label, seeds in self.seeds.items()},
                "engines": self.engines, "cores": self.cores,
                "limits": limits_json(self.limits), "jobs": self.jobs, "peers": self.peers,
                "fc_solve_args": self.fc_solve_args, "peer_paths": self.peer_paths, "perft": self.perft,
                "perft_playouts": self.perft_playouts,
                "notes": self.notes, "command": self.command}


def limits_json(limits: Limits) -> dict[str, Any]:
    return {k: v for k, v in asdict(limits).items() if v is not None}


def ranges(seeds: list[int | None]) -> str:
    """``1-50,60``: a sorted seed list written back as ranges (``-`` for the one start of a board)."""
    runs: list[list[int]] = []
    for s in seeds:
        if s is None:
            return "-"
        if runs and s == runs[-1][1] + 1:
            runs[-1][1] = s
        else:
            runs.append([s, s])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def seeds_of(text: str) -> list[int | None]:
    """The seeds ``ranges`` wrote: ``1-50,60`` as 1..50 and 60, ``-`` as the one start of a board."""
    if text == "-":
        return [None]
    out: list[int | None] = []
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


# ------------------------------------------------------------------- seeds


def seed_specs(specs: list[str], targets: list[Target]) -> dict[str, str]:
    """Each target's seed spec from the ``--seeds`` values: ``SPEC`` for every layout that
    is not named, ``NAME=SPEC`` for the layout labelled (or named) NAME."""
    default: str | None = None
    named: dict[str, str] = {}
    for spec in specs:
        name, eq, seeds = spec.partition("=")
        if not eq:
            if default is not None:
                raise InputError(f"--seeds {spec!r}: seeds for every layout are given twice "
                                 f"({default!r} too); name a layout as NAME=SPEC to give it its own")
            default = spec
            continue
        if not any(name in (t.label, t.short_name) for t in targets):
            raise InputError(f"--seeds {spec!r}: {name!r} is none of the layouts of this run "
                             f"({', '.join(t.label for t in targets)})")
        if name in named:
            raise InputError(f"--seeds {spec!r}: seeds for {name!r} are given twice")
        named[name] = seeds
    return {t.label: named.get(t.label, named.get(t.short_name, default or DEFAULT_SEEDS)) for t in targets}


def seed_plan(specs: list[str], targets: list[Target]) -> dict[str, list[int | None]]:
    """Each target's seeds, checked against its layout's deal generator."""
    labels = [t.label for t in targets]
    for label in labels:
        if labels.count(label) > 1:
            raise InputError(f"layout {label!r} is given twice")
    chosen = seed_specs(specs, targets)
    named = {spec.partition("=")[0] for spec in specs if "=" in spec}
    out: dict[str, list[int | None]] = {}
    for t in targets:
        layout = load(t.name, t.max_rank)
        span = family_of(layout).seed_range(layout)
        if span is None:
            if t.label in named or t.short_name in named:
                raise InputError(f"--seeds: layout {t.label!r} has one start and no shuffle; it takes no seeds")
            out[t.label] = [None]
            continue
        seeds = parse_seeds(chosen[t.label])
        low, high = span
        if seeds[0] < low or seeds[-1] > high:
            bad = seeds[0] if seeds[0] < low else seeds[-1]
            raise SeedError.outside(bad, low, high, t.label, "--seeds")
        out[t.label] = list(seeds)
    return out


@dataclass
class Group:
    """One (layout, runner) pair of a run, its seeds, and what became of it."""

    target: Target
    runner: Runner
    seeds: list[int | None]
    rules_version: int
    unsupported: str | None = None  # the engine's reason, when it does not play the layout (on that core)
    where: str | None = None  # a peer: where it is installed
    options: list[str] = field(default_factory=list)  # a peer: its game options and extra arguments
    version: str | None = None  # a peer's version

    def key(self, seed: int | None) -> tuple[str, int, str, int | None]:
        """The deal's key in the deals file (``store.Key``)."""
        return self.target.label, self.rules_version, self.runner.label, seed
