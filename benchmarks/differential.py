"""Differential testing: the engines against a plain exhaustive search, over random layouts.

A *case* is a small base layout of one family (``BASES``: Debutante, Colorado, Twenty,
FreeCell, Klondike, Canfield, Black Hole, Golf, ... cut down to a few columns) with some of
its rules changed (``changes``: schema keys and values, drawn from the values the layout
parser accepts), on a reduced deck (ranks A..``max_rank``), and a few seeds.  On each deal
the engines (``ENGINES``: the DFS with its dominances and bounds, the same DFS plain, the
CP-SAT model) and the plain exhaustive search over the family's referee
(``solver.families.brute``) must agree: any two verdicts won and lost are a disagreement,
and every win of any of them must replay.  An engine may instead refuse the layout
(``UnsupportedError``): it then plays none of it.

``schema_walk`` applies every value of every rule key (``solver.layout.DEFAULT_RULES``) to
the bases of the families that key belongs to and records, for each engine, whether it
honours the value (agrees with the plain search) or refuses it, and in the second case
whether its ``Reads`` declaration names the key.  ``tests/test_differential.py`` runs both
at a size that fits the test suite; this module's ``run`` is the long run (not a
``patience bench`` preset: it compares engines with each other, not with the clock):

    python -m benchmarks.differential                      # 300 drawn cases per family
    python -m benchmarks.differential --examples 40 --walk # and the schema walk
    python -m benchmarks.differential --family tableau --examples 1000 --seeds 3

It writes ``differential.json`` (every disagreement with its layout TOML and seed) and
``differential.md`` (how many layouts and deals were tried per family, and the walk's
table) into ``--out`` (``benchmarks/results/differential/``).  ``mutant_walk(key, engine,
cfg)`` measures the walk itself: it makes an engine ignore one rule (``forget``) and says
whether the walk then finds a disagreement.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import importlib
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.engines.core import compiled_available
from solver.engines.cpsat import run_cpsat
from solver.engines.dfs import run_dfs
from solver.errors import DealError, InputError, LayoutError, UnsupportedError
from solver.families import brute, family_of, parse_layout
from solver.layout import DEFAULT_RULES, Layout, rule_values
from solver.limits import Limits

# ------------------------------------------------------------------ the bases

FOUNDATIONS_2 = {"rows": [{"base": "A", "build": "up"}, {"base": "K", "build": "down"}]}
FOUNDATIONS_1 = {"rows": [{"base": "A", "build": "up"}]}


@dataclass(frozen=True)
class Base:
    family: str
    data: dict[str, Any]  # the layout file's TOML, as parsed
    max_ranks: tuple[int, ...]  # the reduced decks it is played on


BASES: dict[str, Base] = {
    # the debutante family
    "debutante-mini": Base("reserve", {
        "decks": 2, "foundations": FOUNDATIONS_2,
        "reserve": {"count": 3, "capacity": 2, "deal": 1}, "stock": {"turn": "place"}}, (2,)),
    "colorado-mini": Base("reserve", {
        "decks": 2, "foundations": {**FOUNDATIONS_2, "preset": True},
        "reserve": {"count": 2, "capacity": 0, "deal": 1}, "stock": {"turn": "place"}}, (2, 3)),
    "grandfather-mini": Base("reserve", {
        "decks": 2, "foundations": FOUNDATIONS_2,
        "reserve": {"count": 3, "capacity": 2, "deal": 1}, "stock": {"turn": "waste", "redeals": 1}}, (2,)),
    "twenty-mini": Base("reserve", {
        "decks": 2, "foundations": {**FOUNDATIONS_2, "preset": True},
        "reserve": {"count": 3, "capacity": 0, "deal": 1, "fill": "immediate", "gaps": "any-top"},
        "stock": {"turn": "deal-row"}}, (2, 3)),
    "sly-fox-mini": Base("reserve", {
        "decks": 2, "foundations": {**FOUNDATIONS_2, "preset": True},
        "reserve": {"count": 2, "capacity": 0, "deal": 1},
        "stock": {"turn": "place", "top_playable": True, "batch": 2}}, (2, 3)),
    "one-pack-mini": Base("reserve", {
        "decks": 1, "foundations": FOUNDATIONS_1,
        "reserve": {"count": 3, "capacity": 2, "deal": 1}, "stock": {"turn": "place"}}, (3, 4)),
    # the hole family
    "black-hole-mini": Base("hole", {
        "decks": 1, "hole": {"start": "AS", "wrap": True},
        "tableau": {"count": 5, "deal": [3] * 5, "build": "none", "spaces": "none"},
        "deal": {"order": ["tableau"]}}, (4,)),
    "golf-mini": Base("hole", {
        "decks": 1, "hole": {"start": "stock", "wrap": False},
        "tableau": {"count": 3, "deal": [3] * 3, "build": "none", "spaces": "none"},
        "stock": {"turn": "hole"}, "deal": {"order": ["tableau", "hole"]}}, (4,)),
    # the tableau family
    "freecell-mini": Base("tableau", {
        "decks": 1, "foundations": FOUNDATIONS_1,
        "tableau": {"count": 4, "deal": [13] * 4, "build": "alternate", "spaces": "any", "moves": "supermove"},
        "cells": {"count": 1}, "deal": {"order": ["tableau"]}}, (2, 3)),
    "bakers-dozen-mini": Base("tableau", {
        "decks": 1, "foundations": FOUNDATIONS_1,
        "tableau": {"count": 4, "deal": [13] * 4, "build": "any", "spaces": "none", "moves": "single"},
        "deal": {"order": ["tableau"]}}, (3,)),
    "eight-off-mini": Base("tableau", {
        "decks": 1, "foundations": FOUNDATIONS_1,
        "tableau": {"count": 3, "deal": [17] * 3, "build": "suit", "spaces": "kings", "moves": "supermove"},
        "cells": {"count": 2, "deal": 1}, "deal": {"order": ["tableau", "cells"]}}, (3,)),
    "free-waste-mini": Base("tableau", {
        "decks": 1, "foundations": FOUNDATIONS_1,
        "tableau": {"count": 3, "deal": [2] * 3, "build": "alternate", "spaces": "any", "moves": "single"},
        "cells": {"count": 2, "deal": 1}, "stock": {"turn": "waste", "deal_count": 1, "redeals": 0},
        "deal": {"order": ["tableau", "cells"]}}, (3,)),
    "klondike-mini": Base("tableau", {
        "decks": 1, "foundations": {**FOUNDATIONS_1, "removable": True},
        "tableau": {"count": 3, "deal": [1, 2, 3], "face_down": [0, 1, 2], "build": "alternate",
                    "spaces": "kings", "moves": "sequence"},
        "stock": {"turn": "waste", "deal_count": 1, "redeals": -1}, "deal": {"order": ["tableau"]}}, (3,)),
    "canfield-mini": Base("tableau", {
        "decks": 1, "foundations": {"rows": [{"base": "deal", "build": "up"}], "wrap": True},
        "reserve": {"count": 1, "deal": 3, "accepts": "none"},
        "tableau": {"count": 2, "deal": [1, 1], "build": "alternate", "spaces": "reserve-then-any",
                    "moves": "sequence", "wrap": "from-base"},
        "stock": {"turn": "waste", "deal_count": 2, "redeals": -1},
        "deal": {"order": ["base", "reserve", "tableau"], "reverse": ["tableau"]}}, (3,)),
    "spider-mini": Base("tableau", {
        "decks": 1, "foundations": {**FOUNDATIONS_1, "takes": "column"},
        "tableau": {"count": 3, "deal": [2, 2, 1], "face_down": [1, 1, 0], "build": "any", "spaces": "any",
                    "moves": "suit-sequence"},
        "stock": {"turn": "deal-row"}, "deal": {"order": ["tableau"]}}, (3, 4)),
    "east-haven-mini": Base("tableau", {
        "decks": 1, "foundations": {**FOUNDATIONS_1, "removable": True},
        "tableau": {"count": 3, "deal": [2, 2, 2], "face_down": [1, 1, 1], "build": "alternate", "spaces": "any",
                    "moves": "sequence"},
        "stock": {"turn": "deal-row"}, "deal": {"order": ["tableau"]}}, (3, 4)),
    "forty-thieves-mini": Base("tableau", {
        "decks": 2, "foundations": {"rows": [{"base": "A", "build": "up"}] * 2},
        "tableau": {"count": 4, "deal": [2] * 4, "build": "suit", "spaces": "any", "moves": "single"},
        "stock": {"turn": "waste", "deal_count": 1, "redeals": 0}, "deal": {"order": ["tableau"]}}, (2,)),
}

# The families each section's keys belong to: where the schema walk applies them.
SECTION_FAMILIES = {
    "decks": ("reserve", "hole", "tableau"), "suits": ("reserve", "hole", "tableau"),
    "hole": ("hole", "tableau"), "foundations": ("reserve", "tableau"),
    "reserve": ("reserve", "tableau"), "tableau": ("tableau", "hole"), "cells": ("tableau",),
    "stock": ("reserve", "tableau", "hole"),
}


# The sections a family's own games use (the others mostly make a layout another family's, or
# one its engines refuse): drawn cases change these more often.
HOME_SECTIONS = {
    "reserve": ("decks", "foundations", "reserve", "stock"), "hole": ("decks", "hole", "tableau", "stock"),
    "tableau": ("decks", "foundations", "tableau", "cells", "stock"),
}


def apply(data: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """The layout TOML ``data`` with the rule ``key`` set to ``value`` (TOML form).

    ``hole`` (its presence) takes None (no hole) or a table; ``tableau.count`` keeps the
    column sizes of the base, repeated or cut, so that the file stays readable."""
    out = copy.deepcopy(data)
    if key in ("decks", "suits"):
        out[key] = value
        return out
    if key == "hole":
        if value is None:
            out.pop("hole", None)
        else:
            out["hole"] = {**value, **out.get("hole", {})}
        return out
    section, name = key.split(".")
    part = out.setdefault(section, {})
    part[name] = value
    if key == "tableau.count":
        sizes = list(part.get("deal") or [1]) or [1]
        part["deal"] = [sizes[i % len(sizes)] for i in range(value)]
        down = list(part.get("face_down") or [])
        part["face_down"] = [min(down[i], part["deal"][i]) if i < len(down) else 0 for i in range(value)]
    return out


def toml_text(data: dict[str, Any], name: str = "case") -> str:
    """``data`` as a layout file (the subset of TOML layouts use), to reproduce a case."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, str)):
            return json.dumps(v)
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        return "[" + ", ".join(value(x) for x in v) + "]"

    lines = [f"title = {json.dumps(name)}", "rules_version = 1"]
    lines += [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines += ["", f"[{k}]"] + [f"{kk} = {value(vv)}" for kk, vv in v.items()]
    return "\n".join(lines) + "\n"


def make_layout(data: dict[str, Any], max_rank: int, name: str = "case") -> Layout:
    """The layout ``data`` on ranks A..``max_rank``; ``LayoutError`` if the schema refuses it."""
    lay = parse_layout(copy.deepcopy({"title": name, **data}), f"<{name}>", name)
    if not isinstance(lay, Layout):
        raise LayoutError(f"<{name}>: not a card layout")
    return lay.with_max_rank(max_rank)


# ---------------------------------------------------------- the schema's values


def _probe(data: dict[str, Any], key: str) -> str:
    """What the parser expects of ``key``: its message for a value no key accepts."""
    section, _, name = key.rpartition(".")
    bad = copy.deepcopy(data)
    where = bad
    for part in section.split(".") if section else []:
        where = where.setdefault(part, {})
    where[name] = {"not": "a value"}
    try:
        parse_layout(bad, "<probe>", "probe")
    except LayoutError as e:
        m = re.search(r": expected (.*), got ", str(e))
        if m and key.split(".")[-1] in str(e):
            return m.group(1)
        raise AssertionError(f"the parser's message for {key} names no expected value: {e}") from None
    raise AssertionError(f"the parser accepted a table as {key}")


PROBE_LAYOUT: dict[str, Any] = {"foundations": FOUNDATIONS_1, "reserve": {"count": 1}}


def _values(expected: str) -> list[Any]:
    """A few representative values of what the parser said it expects."""
    if expected == "true or false":
        return [False, True]
    m = re.fullmatch(r"one of (.*)", expected)
    if m:
        return re.findall(r"'([^']*)'", m.group(1))
    m = re.fullmatch(r"an integer (-?\d+)\.\.(-?\d+)", expected)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        return [v for v in range(lo, lo + 4) if v <= hi]
    raise AssertionError(f"no representative values for a key the parser expects as {expected!r}")


def schema_domains() -> dict[str, list[Any]]:
    """Every rule key of ``DEFAULT_RULES`` (and ``hole``, present or not) with the values the
    walk tries, in TOML form, read off the parser's own messages: a value the parser comes to
    accept is walked without a change here.  Integers get a few small values; lists (foundation
    rows, column sizes) a few shapes built from their parts."""
    out: dict[str, list[Any]] = {"hole": [None, {"start": "AS"}]}
    for key in DEFAULT_RULES:
        if key == "foundations.rows":
            base_values = _values(_row_probe("base"))
            builds = _values(_row_probe("build"))
            rows = [{"base": b, "build": d} for b in base_values for d in builds]
            out[key] = [[r] for r in rows] + [[a, b] for i, a in enumerate(rows) for b in rows[i:]
                                              if a["base"] != "deal" and b["base"] != "deal"]
        elif key in ("tableau.deal", "tableau.face_down"):
            out[key] = [[1, 1, 1], [1, 2, 3], [2, 2, 2]] if key == "tableau.deal" else [[0, 0, 0], [0, 1, 2], [1, 1, 1]]
        elif key == "hole.start":
            out[key] = ["stock", "AS", "3H"]
        elif key == "suits":  # a pack of fewer suits (PySolFC's one- and two-suit Spider)
            out[key] = [["C", "D", "H", "S"], ["C", "C", "C", "C"], ["C", "C", "H", "H"]]
        else:
            out[key] = _values(_probe(PROBE_LAYOUT, key))
    return out


def _row_probe(part: str) -> str:
    """What the parser expects of a foundation row's ``part`` (``base`` or ``build``)."""
    data = {**PROBE_LAYOUT, "foundations": {"rows": [{part: {"not": "a value"}}]}}
    try:
        parse_layout(data, "<probe>", "probe")
    except LayoutError as e:
        m = re.search(r": expected (.*), got ", str(e))
        if m:
            return m.group(1)
    raise AssertionError(f"the parser's message for foundations.rows[0].{part} names no expected value")


# ------------------------------------------------------------- one comparison


@dataclass(frozen=True)
class Config:
    """How far each engine may go on one deal; unknown verdicts come only from these."""

    brute_states: int = 20_000
    dfs_nodes: int = 200_000
    cpsat_seconds: float = 20.0  # deterministic seconds (a fixed random seed, one worker)


PROBE = Config(brute_states=1, dfs_nodes=1, cpsat_seconds=0.01)  # enough to see an engine refuse


def _dfs_plain(layout: Any, deal: Any, limits: Limits) -> Any:
    return run_dfs(layout, deal, limits, use_forced=False, use_bounds=False, restarts=False, core="python")


# The engines compared: the DFS over the pure-Python position (the reference), the same with no
# dominance, bound or restart, CP-SAT, and the compiled DFS where it is built (it refuses the
# families that have no compiled position).
ENGINES: dict[str, Callable[[Any, Any, Config], Any]] = {
    "dfs": lambda lay, deal, cfg: run_dfs(lay, deal, Limits(max_nodes=cfg.dfs_nodes), core="python"),
    "dfs-plain": lambda lay, deal, cfg: _dfs_plain(lay, deal, Limits(max_nodes=cfg.dfs_nodes)),
    "cpsat": lambda lay, deal, cfg: run_cpsat(lay, deal, Limits(timeout=cfg.cpsat_seconds), random_seed=0, workers=1),
}
if compiled_available():
    ENGINES["dfs-compiled"] = lambda lay, deal, cfg: run_dfs(lay, deal, Limits(max_nodes=cfg.dfs_nodes),
                                                             core="compiled")
# The module whose ``READS`` each engine checks a layout against.
READS_MODULE = {"dfs": "position", "dfs-plain": "position", "dfs-compiled": "position", "cpsat": "model"}


def reads_problems(engine: str, layout: Any) -> list[str] | None:
    """The rules ``engine``'s ``Reads`` declaration refuses in ``layout``; None without one."""
    try:
        module = importlib.import_module(f"solver.families.{family_of(layout).name}.{READS_MODULE[engine]}")
    except ImportError:
        return None
    reads = getattr(module, "READS", None)
    return None if reads is None else list(reads.problems(layout))


@dataclass
class DealCheck:
    seed: int | None
    brute: str  # the plain search's verdict ("bad deal": its referee refuses the deal)
    states: int
    verdicts: dict[str, str] = field(default_factory=dict)  # engine -> verdict, or "refused"
    refusals: dict[str, str] = field(default_factory=dict)  # engine -> its message
    faults: dict[str, str] = field(default_factory=dict)  # who -> a win that does not replay, an unnamed limit

    def problems_of(self, who: str) -> list[str]:
        """What is wrong with what ``who`` (an engine, or "plain") said on this deal."""
        said = {"plain": self.brute, **self.verdicts}
        out = [self.faults[who]] if who in self.faults else []
        if said[who] in ("won", "lost"):
            out += [f"{who} says {said[who]}, {other} says {v}" for other, v in said.items()
                    if other != who and v in ("won", "lost") and v != said[who]]
        return out

    @property
    def problems(self) -> list[str]:
        out = list(self.faults.values())
        said = {"plain": self.brute, **self.verdicts}
        decided = {who: v for who, v in said.items() if v in ("won", "lost")}
        if len(set(decided.values())) > 1:
            out.append("verdicts differ: " + ", ".join(f"{who} {v}" for who, v in decided.items()))
        return out


def check_deal(layout: Any, seed: int | None, cfg: Config, engines: Iterable[str] = tuple(ENGINES)) -> DealCheck:
    """The plain search and ``engines`` on the deal ``seed`` of ``layout`` (None: a peg board's start)."""
    family = family_of(layout)
    deal = family.deal_from_seed(layout, seed)
    try:
        plain = brute.solve(layout, deal, cfg.brute_states)
        verdict = plain.verdict
    except DealError:  # the referee refuses to start: an engine's win will not replay
        plain, verdict = brute.BruteResult("unknown"), "bad deal"
    except Exception as e:  # a crash is a finding, recorded with its case
        plain, verdict = brute.BruteResult("unknown"), "crashed"
        out = DealCheck(seed, verdict, 0)
        out.faults["plain"] = f"the plain search crashed: {type(e).__name__}: {e}"
        return out
    out = DealCheck(seed, verdict, plain.states)
    if plain.verdict == "won":
        problem = family.replay(layout, deal, plain.moves or [])
        if problem:
            out.faults["plain"] = f"the plain search's win does not replay: {problem}"
    for engine in engines:
        try:
            run = ENGINES[engine](layout, deal, cfg)
        except UnsupportedError as e:
            out.verdicts[engine] = "refused"
            out.refusals[engine] = str(e)
            continue
        except Exception as e:  # a crash is a finding, recorded with its case
            out.verdicts[engine] = "crashed"
            out.faults[engine] = f"{engine} crashed: {type(e).__name__}: {e}"
            continue
        out.verdicts[engine] = run.verdict
        if run.verdict == "won":
            problem = family.replay(layout, deal, run.solution or [])
            if problem:
                out.faults[engine] = f"{engine}'s win does not replay: {problem}"
        elif run.verdict == "unknown" and not run.reason:
            out.faults[engine] = f"{engine} says unknown without naming a limit"
    return out


@dataclass
class Case:
    """A base layout with some rules changed, on a reduced deck, and the seeds to deal."""

    base: str
    changes: tuple[tuple[str, Any], ...]
    max_rank: int
    seeds: tuple[int, ...]

    def data(self) -> dict[str, Any]:
        data = BASES[self.base].data
        for key, value in self.changes:
            data = apply(data, key, value)
        return data

    def layout(self) -> Layout:
        return make_layout(self.data(), self.max_rank, self.base)

    def describe(self) -> str:
        changed = ", ".join(f"{k} = {v!r}" for k, v in self.changes) or "as it is"
        return f"{self.base} (A..{self.max_rank}) with {changed}"


@dataclass
class PegCase:
    """A small peg board (rows of holes), its empty holes at the start and its goal."""

    shape: tuple[str, ...]
    empty: tuple[str, ...]
    goal_pegs: int = 1
    goal_hole: str | None = None
    base: str = "peg-board"
    max_rank: int = 0
    seeds: tuple[int | None, ...] = (None,)

    def data(self) -> dict[str, Any]:
        goal: dict[str, Any] = {"pegs": self.goal_pegs}
        if self.goal_hole is not None:
            goal["hole"] = self.goal_hole
        return {"board": {"shape": list(self.shape)}, "start": {"empty": list(self.empty)}, "goal": goal}

    def layout(self) -> Any:
        return parse_layout(self.data(), "<peg-board>", "peg-board")

    def describe(self) -> str:
        goal = f"{self.goal_pegs} peg(s)" + (f" in {self.goal_hole}" if self.goal_hole else "")
        return f"board {'/'.join(self.shape)!r}, empty {', '.join(self.empty)}, goal {goal}"


@dataclass
class CaseReport:
    case: Case | PegCase
    family: str = ""
    skipped: str | None = None  # the schema (or the reduced deck) refused the layout
    deals: list[DealCheck] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # crashes outside the engines

    @property
    def problems(self) -> list[str]:
        return self.errors + [f"seed {d.seed}: {p}" for d in self.deals for p in d.problems]

    def record(self) -> dict[str, Any]:
        """The case as a JSON record; with its layout file when something is wrong."""
        out: dict[str, Any] = {"case": self.case.describe(), "family": self.family, "skipped": self.skipped,
                               "deals": [{"seed": d.seed, "plain": d.brute, "states": d.states, **d.verdicts}
                                         for d in self.deals]}
        if self.problems:
            out["problems"] = self.problems
            out["layout_toml"] = toml_text(self.case.data(), self.case.base)
            if isinstance(self.case, Case):
                out["max_rank"] = self.case.max_rank
                out["reproduce"] = (f"patience solve LAYOUT.toml --max-ranks {self.case.max_rank} "
                                    f"--seed {self.case.seeds[0]} --engine both")
            else:
                out["reproduce"] = "patience solve LAYOUT.toml --engine both"
        return out


def check_case(case: Case | PegCase, cfg: Config, engines: Iterable[str] = tuple(ENGINES)) -> CaseReport:
    report = CaseReport(case)
    try:
        layout = case.layout()
    except LayoutError as e:
        report.skipped = str(e)
        return report
    report.family = family_of(layout).name
    for seed in case.seeds:
        try:
            report.deals.append(check_deal(layout, seed, cfg, engines))
        except InputError as e:  # a seed the layout's generator does not take
            report.skipped = str(e)
            report.deals.clear()
            return report
        except Exception as e:  # dealing crashed: a finding
            report.errors.append(f"seed {seed}: dealing crashed: {type(e).__name__}: {e}")
    return report


# ------------------------------------------------------------ the schema walk


@dataclass
class WalkRow:
    key: str
    value: Any
    engine: str
    base: str
    outcome: str  # "honoured", "refused", "undecided" (accepted, no deal decided by both), "DISAGREES"
    detail: str = ""


def _shown(value: Any) -> str:
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return "[" + ", ".join(f"{r['base']} {r['build']}" for r in value) + "]"
    return json.dumps(value) if value is not None else "absent"


def walk_one(key: str, value: Any, base: str, cfg: Config, seeds: tuple[int, ...],
             engines: Iterable[str] = ("dfs", "cpsat")) -> list[WalkRow]:
    """The rows of one key and value on one base (none when the schema refuses the variant,
    the variant is the base itself, or its deal cannot be made).

    A refusal is "refused" when the engine's ``Reads`` declaration names the key (or refuses
    the base already, or the change made the layout another family's), "refused by another
    rule" when the change brought in a refusal of another key (``Reads.together``), "refused
    by the deal" when the declaration accepts the layout but the engine refuses the deal,
    naming the rule (cards left in a stock the game never turns), and "REFUSED OUTSIDE READS"
    when it names none."""
    b = BASES[base]
    data = apply(b.data, key, value)
    rows: list[WalkRow] = []
    try:
        layout = make_layout(data, b.max_ranks[0], base)
        original = make_layout(b.data, b.max_ranks[0], base)
    except LayoutError:
        return rows
    if rule_values(layout) == rule_values(original):
        return rows
    same_family = family_of(layout).name == family_of(original).name
    try:
        deal = family_of(layout).deal_from_seed(layout, seeds[0])
    except InputError:
        return rows
    refused: dict[str, str] = {}
    for engine in engines:  # a refusal comes before any search: no need to search with the plain one
        try:
            ENGINES[engine](layout, deal, PROBE)
        except UnsupportedError as e:
            refused[engine] = str(e)
    playing = [e for e in engines if e not in refused]
    report = check_case(Case(base, ((key, value),), b.max_ranks[0], seeds), cfg, playing) if playing else None
    if report is not None and report.skipped is not None:
        return rows
    for engine in engines:
        if engine not in refused and report is not None:
            refusals = [d.refusals[engine] for d in report.deals if engine in d.refusals]
            if refusals:
                refused[engine] = refusals[0]
        if engine in refused:
            message = refused[engine]
            problems = reads_problems(engine, layout)
            before = (reads_problems(engine, original) or []) if same_family else []
            new = [p for p in problems or [] if p not in before]
            if not problems:
                outcome = ("refused by the deal" if any(k in message for k in DEFAULT_RULES)
                           else "REFUSED OUTSIDE READS")
            elif not new or not same_family or any(_names(p, key) for p in new):
                outcome = "refused"
            else:
                outcome = "refused by another rule"
            rows.append(WalkRow(key, value, engine, base, outcome, message))
            continue
        assert report is not None
        problems = [p for d in report.deals for p in d.problems_of(engine)]
        if problems:
            rows.append(WalkRow(key, value, engine, base, "DISAGREES", "; ".join(problems) + "\n"
                                + toml_text(data, base)))
            continue
        checked = [d for d in report.deals if d.brute in ("won", "lost") and d.verdicts[engine] in ("won", "lost")]
        outcome = "honoured" if checked else "undecided"
        rows.append(WalkRow(key, value, engine, base, outcome,
                            ", ".join(f"{d.seed}: {d.verdicts[engine]}" for d in report.deals)))
    return rows


def _names(problem: str, key: str) -> bool:
    """Whether a ``Reads`` problem names ``key`` (``hole``: any key of the section)."""
    return problem.startswith("hole.") if key == "hole" else key in problem


def schema_walk(cfg: Config, seeds: tuple[int, ...] = (1, 2), every_base: bool = False,
                engines: Iterable[str] = ("dfs", "cpsat"),
                progress: Callable[[str], None] | None = None) -> list[WalkRow]:
    """Every key and value of ``schema_domains`` on the bases of the key's families: on each of
    them (``every_base``), or on one: the first, taking the bases in turn from one value to the
    next so that a key meets several, that the variant changes, that the schema accepts and
    that some engine plays (else the first that every engine refuses)."""
    rows: list[WalkRow] = []
    for key, values in schema_domains().items():
        families = SECTION_FAMILIES[key.split(".")[0]]
        bases = [name for name, b in BASES.items() if b.family in families]
        for i, value in enumerate(values):
            all_refused: list[WalkRow] = []
            for base in bases[i:] + bases[:i]:
                found = walk_one(key, value, base, cfg, seeds, engines)
                if every_base:
                    rows += found
                elif any(not r.outcome.lower().startswith("refused") for r in found):
                    rows += found
                    break
                else:
                    all_refused = all_refused or found
            else:
                rows += all_refused
        if progress:
            progress(key)
    return rows


def walk_table(rows: list[WalkRow]) -> list[dict[str, Any]]:
    """One row per (key, value, engine): what happened on each base."""
    table: dict[tuple[str, str, str], Counter[str]] = {}
    for r in rows:
        table.setdefault((r.key, _shown(r.value), r.engine), Counter())[r.outcome] += 1
    return [{"key": k, "value": v, "engine": e, **{o: n for o, n in sorted(c.items())}}
            for (k, v, e), c in table.items()]


# --------------------------------------------------------- the walk's power


def forget(layout: Layout, key: str) -> Layout:
    """``layout`` with the rule ``key`` back at its default: what an engine that never reads
    ``key`` plays (its ``Reads`` sees the default, so it does not refuse)."""
    if key == "decks":
        return dataclasses.replace(layout, decks=1)
    section, name = key.split(".")
    part = getattr(layout, section)
    if part is None:
        return layout
    default = next(f for f in dataclasses.fields(part) if f.name == name)
    value = default.default if default.default is not dataclasses.MISSING else default.default_factory()  # type: ignore[misc]
    return dataclasses.replace(layout, **{section: dataclasses.replace(part, **{name: value})})


def mutant_walk(key: str, engine: str, cfg: Config, seeds: tuple[int, ...] = (1, 2, 3)) -> list[WalkRow]:
    """The walk of ``key`` (every value, every base of its families) against an ``engine``
    that ignores ``key``: a drift the walk must catch (some row ``DISAGREES``) wherever the
    key changes the game on these small deals."""
    real = ENGINES[engine]
    ENGINES[engine] = lambda lay, deal, c: real(forget(lay, key), deal, c)
    try:
        rows: list[WalkRow] = []
        families = SECTION_FAMILIES[key.split(".")[0]]
        bases = [name for name, b in BASES.items() if b.family in families]
        for value in schema_domains()[key]:
            for base in bases:
                rows += walk_one(key, value, base, cfg, seeds, (engine,))
        return rows
    finally:
        ENGINES[engine] = real


# ------------------------------------------------------- the drawn variants


def family_keys(family: str) -> dict[str, list[Any]]:
    """The keys (and their values) drawn for a family's cases: those of its sections."""
    return {k: v for k, v in schema_domains().items()
            if family in SECTION_FAMILIES[k.split(".")[0]] and k not in ("hole",)}


def cases(family: str, seeds: int) -> Any:
    """A hypothesis strategy of ``Case``s of ``family``: a base of the family, up to four rule
    changes drawn from the family's keys, a reduced deck, and ``seeds`` seeds."""
    from hypothesis import strategies as st

    keys = family_keys(family)
    pairs = [(k, v) for k, vs in keys.items() for v in vs]
    home = [(k, v) for k, v in pairs if k.split(".")[0] in HOME_SECTIONS[family]]
    names = [n for n, b in BASES.items() if b.family == family]
    change = st.sampled_from(home) | st.sampled_from(pairs)  # half the changes in the family's own sections

    @st.composite
    def draw(draw: Any) -> Case:
        base = draw(st.sampled_from(names))
        changes = tuple(draw(st.lists(change, max_size=4, unique_by=lambda p: p[0])))
        max_rank = draw(st.sampled_from(BASES[base].max_ranks))
        deal_seeds = tuple(draw(st.lists(st.integers(1, 10**6), min_size=seeds, max_size=seeds)))
        return Case(base, changes, max_rank, deal_seeds)

    return draw()


def peg_cases(max_rows: int = 5, max_cols: int = 5) -> Any:
    """A hypothesis strategy of small peg boards: 2..``max_rows`` rows of 3..``max_cols`` places,
    four in five of them holes (the first of the first and last rows always), one or two empty
    holes, a goal of one peg anywhere or in a given hole, or of two pegs."""
    from hypothesis import strategies as st

    @st.composite
    def draw(draw: Any) -> PegCase:
        rows, cols = draw(st.integers(2, max_rows)), draw(st.integers(3, max_cols))
        grid = [[draw(st.integers(0, 4)) > 0 or (c == 0 and r in (0, rows - 1)) for c in range(cols)]
                for r in range(rows)]
        shape = tuple("".join("o" if h else " " for h in row).rstrip() for row in grid)
        holes = [f"{chr(ord('a') + c)}{r + 1}" for r in range(rows) for c in range(cols) if grid[r][c]]
        empty = tuple(draw(st.lists(st.sampled_from(holes), min_size=1, max_size=2, unique=True)))
        pegs = draw(st.integers(1, 2))
        hole = draw(st.none() | st.sampled_from(holes)) if pegs == 1 else None
        return PegCase(shape, empty, pegs, hole)

    return draw()


def run_drawn(family: str, examples: int, seeds: int, cfg: Config, seed: int = 0,
              on_case: Callable[[CaseReport], None] | None = None) -> list[CaseReport]:
    """Check ``examples`` drawn cases of ``family`` (hypothesis draws them, derandomized by
    ``seed``, without a database); every report, problems or not."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fix_seed

    reports: list[CaseReport] = []

    @fix_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=[p for p in _phases() if p.name != "shrink"])
    @given(peg_cases() if family == "peg" else cases(family, seeds))
    def body(case: Case | PegCase) -> None:
        report = check_case(case, cfg)
        reports.append(report)
        if on_case:
            on_case(report)

    body()
    return reports


def _phases() -> list[Any]:
    from hypothesis import Phase

    return list(Phase)


# ------------------------------------------------------------------ the suite


def run(argv: Any = None) -> int:
    """``python -m benchmarks.differential [--examples N] [--seeds K] [--family F] [--walk] [--out DIR]``;
    exit code 1 when something disagreed."""
    args = _parse(list(argv or []))
    cfg = Config(brute_states=args.states, dfs_nodes=args.nodes, cpsat_seconds=args.cpsat_seconds)
    families = args.family or ["reserve", "hole", "tableau", "peg"]
    summary: list[dict[str, Any]] = []
    disagreements: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for fam in families:
        start = time.perf_counter()
        counts: Counter[str] = Counter()

        def seen(report: CaseReport, counts: Counter[str] = counts) -> None:
            counts["cases"] += 1
            if report.skipped is not None:
                counts["skipped"] += 1
                return
            counts["layouts"] += 1
            for d in report.deals:
                counts["deals"] += 1
                counts[f"plain {d.brute}"] += 1
                for engine, v in d.verdicts.items():
                    counts[f"{engine} {v}"] += 1
                    if v in ("won", "lost") and d.brute in ("won", "lost"):
                        counts[f"{engine} checked"] += 1
            if report.problems:
                counts["cases with problems"] += 1
                disagreements.append(report.record())
                print(f"PROBLEM {report.case.describe()}: {report.problems}", file=sys.stderr)

        run_drawn(fam, args.examples, args.seeds, cfg, seed=args.seed, on_case=seen)
        row = {"family": fam, "cases": counts["cases"], "layouts": counts["layouts"], "deals": counts["deals"],
               "plain won": counts["plain won"], "plain lost": counts["plain lost"],
               "plain unknown": counts["plain unknown"]}
        for engine in ENGINES:
            row[f"{engine} checked"] = counts[f"{engine} checked"]
            row[f"{engine} refused"] = counts[f"{engine} refused"]
        row["problems"] = counts["cases with problems"]
        row["seconds"] = round(time.perf_counter() - start, 1)
        summary.append(row)
        print(json.dumps(row), file=sys.stderr)
    walk: list[dict[str, Any]] = []
    if args.walk:
        rows = schema_walk(cfg, seeds=tuple(range(1, args.seeds + 1)), every_base=args.every_base,
                           progress=lambda key: print(f"walked {key}", file=sys.stderr))
        walk = walk_table(rows)
        bad = [r for r in rows if r.outcome in ("DISAGREES", "REFUSED OUTSIDE READS")]
        disagreements += [{"walk": f"{r.key} = {_shown(r.value)} on {r.base}", "engine": r.engine,
                           "outcome": r.outcome, "detail": r.detail} for r in bad]
    columns = list(summary[0]) if summary else ["family"]
    notes = ((f"{args.note} " if args.note else "")
             + f"Drawn cases per family: {args.examples} (hypothesis, seed {args.seed}), {args.seeds} deals each; "
             f"plain search up to {cfg.brute_states} states, the DFS up to {cfg.dfs_nodes} nodes, CP-SAT "
             f"{cfg.cpsat_seconds:g} deterministic s. 'checked': deals where the engine and the plain search "
             f"both decided (and agreed unless 'problems' says otherwise); 'refused': deals of layouts the "
             f"engine refuses. Problems: {len(disagreements)}; every one is in the JSON with its layout TOML "
             f"and seed. Total {time.perf_counter() - t0:.0f} s.")
    machine = _machine()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "differential.json").write_text(json.dumps(
        {"machine": machine, "command": sys.argv, "config": dataclasses.asdict(cfg), "notes": notes,
         "summary": summary, "problems": disagreements, "walk": walk}, indent=1) + "\n")
    md = ["# Differential testing", "", f"Machine: {machine['cpu']}, {machine['cores']} cores, Python "
          f"{machine['python']}, load {machine['load']} at start, {machine['date']}, commit {machine['commit']}.",
          "", notes, "", _markdown(summary, columns)]
    if disagreements:
        md += ["", "## Problems", ""] + [f"- `{json.dumps(p)[:400]}`" for p in disagreements]
    if walk:
        outcomes = sorted({k for row in walk for k in row} - {"key", "value", "engine"})
        md += ["", "## The schema walk: what each engine does with each rule value (bases counted)", "",
               _markdown(walk, ["key", "value", "engine", *outcomes])]
    (out / "differential.md").write_text("\n".join(md) + "\n")
    print(f"wrote {out / 'differential.md'} and differential.json", file=sys.stderr)
    return 1 if disagreements else 0


def _markdown(rows: list[dict[str, Any]], columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join(lines)


def _machine() -> dict[str, Any]:
    """What the run was made on: enough to read its seconds (verdicts do not depend on it)."""
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "load": round(os.getloadavg()[0], 2), "date": time.strftime("%Y-%m-%d %H:%M:%S"), "commit": commit,
            "compiled core": compiled_available()}


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks.differential", description=__doc__.splitlines()[0])
    p.add_argument("--note", default="", help="a sentence put first in the record's notes")
    p.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "differential"),
                   help="the folder for differential.json and differential.md")
    p.add_argument("--examples", type=int, default=300, help="drawn cases per family (default 300)")
    p.add_argument("--seeds", type=int, default=3, help="deals per case (default 3)")
    p.add_argument("--family", action="append", choices=["reserve", "hole", "tableau", "peg"],
                   help="only this family (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="hypothesis's seed (default 0)")
    p.add_argument("--walk", action="store_true", help="also walk every schema key and value")
    p.add_argument("--every-base", action="store_true", help="walk each value on every base of its families")
    p.add_argument("--states", type=int, default=Config.brute_states, help="the plain search's state limit")
    p.add_argument("--nodes", type=int, default=Config.dfs_nodes, help="the DFS's node limit")
    p.add_argument("--cpsat-seconds", type=float, default=Config.cpsat_seconds,
                   help="CP-SAT's limit in deterministic seconds")
    return p.parse_args(argv)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
