"""One benchmark run: layouts x engines x seeds, peers, perft and scaling, into one report dict."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import InputError, PatienceError, UnsupportedError
from ..families import family_of
from ..layout import Layout
from .machine import busy_warning, load_average, machine
from .runner import Target, group, load, peer_deal, solve_deal

FORMAT = "patience-bench"
FORMAT_VERSION = 1
SCALING_RANKS = (5, 7, 9, 13)
SCALING_LAYOUTS = ("debutante", "freecell")


@dataclass
class Config:
    targets: list[Target]
    seeds: list[int]
    engines: list[str] = field(default_factory=lambda: ["dfs", "cpsat"])
    timeout: float | None = 10.0
    jobs: int = 1
    peers: bool = False
    peer_args: list[str] = field(default_factory=list)  # extra fc-solve arguments, e.g. ["-l", "lg"]
    perft: bool = False
    perft_playouts: int = 100
    scaling: bool = False
    scaling_layouts: list[str] = field(default_factory=lambda: list(SCALING_LAYOUTS))
    scaling_ranks: tuple[int, ...] = SCALING_RANKS
    scaling_seeds: list[int] = field(default_factory=lambda: list(range(1, 11)))
    command: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["targets"] = [t.label for t in self.targets]
        out["seeds"] = _ranges(self.seeds)
        out["scaling_seeds"] = _ranges(self.scaling_seeds)
        return out


def _ranges(seeds: list[int]) -> str:
    """``1-50,60``: a sorted seed list written back as ranges."""
    runs: list[list[int]] = []
    for s in seeds:
        if runs and s == runs[-1][1] + 1:
            runs[-1][1] = s
        else:
            runs.append([s, s])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def check(config: Config) -> None:
    """Every check that can refuse the run, before anything runs."""
    from .. import api
    from ..engines import ENGINES

    for e in config.engines:
        if e not in ENGINES:
            raise InputError(f"--engines: expected names from {', '.join(ENGINES)}, got {e!r}")
    if not config.targets:
        raise InputError("give at least one LAYOUT")
    if not config.seeds:
        raise InputError("--seeds: no seeds")
    for t in config.targets:
        lay = load(t.name, t.max_rank)
        if family_of(lay).shuffled:
            for seed in (config.seeds[0], config.seeds[-1]):
                api.make_deal(lay, seed)
    if config.scaling:
        for name in config.scaling_layouts:
            load(name, None)


def _seeds_for(layout: Any, seeds: list[int]) -> list[int | None]:
    return list(seeds) if family_of(layout).shuffled else [None]


def run(config: Config, progress: bool | None = None) -> dict[str, Any]:
    """Run the benchmark; the report as a dict (see ``report.py`` for the files)."""
    check(config)
    if progress is None:
        progress = sys.stderr.isatty()
    warnings = []
    busy = busy_warning(config.jobs)
    if busy:
        print(f"patience bench: warning: {busy}", file=sys.stderr)
        warnings.append(busy)
    report: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION, "machine": machine(),
                              "config": config.to_json(), "warnings": warnings, "notes": [],
                              "results": [], "peers": [], "perft": [], "scaling": []}
    notes: list[str] = report["notes"]
    t0 = time.perf_counter()
    options = {"workers": 1}  # one deal per core: CP-SAT gets one search worker
    total = _count_deals(config)
    from tqdm import tqdm

    with tqdm(total=total, unit="deal", file=sys.stderr, disable=not progress, dynamic_ncols=True) as bar:
        tick: Callable[[], None] = bar.update
        for t in config.targets:
            lay = load(t.name, t.max_rank)
            seeds = _seeds_for(lay, config.seeds)
            for engine in config.engines:
                bar.set_description(f"{t.label} {engine}")
                g = group(solve_deal, [(t.name, t.max_rank, s, engine, config.timeout, options) for s in seeds],
                          config.jobs, tick)
                report["results"].append({"layout": t.label, "engine": engine, **g})
                if "skipped" in g:
                    notes.append(f"{t.label} / {engine}: skipped: {g['skipped']}")
            if config.peers:
                _peer(config, t, lay, seeds, report, bar)
        if config.scaling:
            _scaling(config, report, bar)
    if config.perft:
        for t in config.targets:
            try:
                report["perft"].append({"layout": t.label, **_perft(t, config)})
            except UnsupportedError as e:
                notes.append(f"perft {t.label}: skipped: {e}")
    report["load_at_end"] = load_average()
    report["wall_s"] = round(time.perf_counter() - t0, 2)
    return report


def _count_deals(config: Config) -> int:
    n = 0
    for t in config.targets:
        k = len(_seeds_for(load(t.name, t.max_rank), config.seeds))
        n += k * (len(config.engines) + int(config.peers))
    if config.scaling:
        n += len(config.scaling_layouts) * len(config.scaling_ranks) * len(config.scaling_seeds) * len(config.engines)
    return n


def _peer(config: Config, t: Target, lay: Any, seeds: list[int | None], report: dict[str, Any], bar: Any) -> None:
    from .peers import fc_solve_options, fc_solve_path, fc_solve_version

    notes = report["notes"]
    opts = fc_solve_options(lay)
    if opts is not None:
        opts += config.peer_args
    if opts is None:
        notes.append(f"peers for {t.label}: none; fc-solve plays the FreeCell family only "
                     f"(and whole decks), and no peer adapter covers this family yet")
        bar.update(len(seeds))
        return
    path = fc_solve_path()
    if path is None:
        notes.append(f"peers for {t.label}: fc-solve is not installed (not on PATH): skipped. "
                     f"Install it (Debian/Ubuntu: apt install freecell-solver-bin) to compare with it")
        bar.update(len(seeds))
        return
    bar.set_description(f"{t.label} fc-solve")
    g = group(peer_deal, [(t.name, t.max_rank, s, path, opts, config.timeout) for s in seeds], config.jobs,
              bar.update)
    ours = [r for r in report["results"] if r["layout"] == t.label and "skipped" not in r]
    report["peers"].append({"layout": t.label, "peer": "fc-solve", "version": fc_solve_version(path),
                            "options": opts, **g, "ratios": [ratio(r, g) for r in ours]})


def ratio(ours: dict[str, Any], peer: dict[str, Any]) -> dict[str, Any]:
    """One engine against the peer on the same deals: median seconds and their ratio, and
    the deals where both decided and disagree (which one of the two must get wrong)."""
    theirs = {r["seed"]: r for r in peer["rows"]}
    both = [(r, theirs[r["seed"]]) for r in ours["rows"] if r["seed"] in theirs]
    decided = {"won", "lost"}
    disagree = [a["seed"] for a, b in both if a["verdict"] in decided and b["verdict"] in decided
                and a["verdict"] != b["verdict"]]
    m_ours, m_peer = ours.get("median_s"), peer.get("median_s")
    return {"engine": ours["engine"], "median_s": m_ours, "peer_median_s": m_peer,
            "time_ratio": round(m_ours / m_peer, 2) if m_ours and m_peer else None,
            "won": ours["won"], "peer_won": peer["won"], "disagree": disagree}


def _scaling(config: Config, report: dict[str, Any], bar: Any) -> None:
    notes = report["notes"]
    options = {"workers": 1}
    per_layout = len(config.scaling_seeds) * len(config.engines)
    unsupported: set[tuple[str, str]] = set()
    for name in config.scaling_layouts:
        for rank in config.scaling_ranks:
            try:
                lay = load(name, rank)
            except PatienceError as e:
                notes.append(f"scaling {name}@{rank}: skipped: {e}")
                bar.update(per_layout)
                continue
            cards = len(lay.pack()) if isinstance(lay, Layout) else None
            for engine in config.engines:
                if (name, engine) in unsupported:
                    bar.update(len(config.scaling_seeds))
                    continue
                bar.set_description(f"scaling {name}@{rank} {engine}")
                g = group(solve_deal, [(name, rank, s, engine, config.timeout, options)
                                       for s in config.scaling_seeds], config.jobs, bar.update)
                if "skipped" in g:
                    unsupported.add((name, engine))
                    notes.append(f"scaling {name} / {engine}: skipped: {g['skipped']}")
                    continue
                report["scaling"].append({"layout": name, "max_rank": rank, "cards": cards, "engine": engine, **g})


def _perft(t: Target, config: Config) -> dict[str, Any]:
    from .perft import perft

    return perft(load(t.name, t.max_rank), playouts=config.perft_playouts)
