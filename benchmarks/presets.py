"""The benchmark presets: each one a ``patience bench`` command, written down.

``python -m benchmarks PRESET [ARGS]`` runs ``patience bench`` with the preset's layouts
and options.  Every ARG is a ``patience bench`` argument and replaces the preset's own
(layouts replace its layouts; ``--seeds`` replaces all its seeds; ``--no-peers`` turns
its peers off), so nothing the user gives is ignored.  The full command is printed
before it runs and recorded in the report.  Results go to
``benchmarks/results/PRESET-YYYY-MM-DD/`` unless ``--out`` says otherwise; rerunning
the same command resumes it.  Run benchmarks alone on the machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.bench.plan import Target
from solver.cli import _Parser
from solver.commands.bench import add_arguments, command_line
from solver.errors import InputError

RESULTS = Path(__file__).resolve().parent / "results"
DEBUTANTE_FAMILY = ["debutante", "debutante-unlimited", "debutante-fifo", "colorado", "grandfather", "double-line",
                    "twenty", "sly-fox"]
TABLEAU = ["freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell", "bakers-dozen", "forty-thieves",
           "klondike", "klondike-draw-1", "canfield"]
# Every built-in layout Solvitaire plays (its rules and its deal file say the game): its presets
# (layouts from solver/solvitaire.py, seeds = Solvitaire's --random N) and our games it shares.
# A game dealing cards into cells goes to it as its own seed (its deal file has no cells): not our
# forecell (PySolFC's numbering); eight-off and seahaven-towers as SOLVITAIRE_WRITTEN says.
SOLVITAIRE = ["accordion", "alina", "alpha-star", "american-canister", "american-toad", "bakers-dozen", "bakers-game",
              "beleaguered-castle", "black-hole", "british-canister", "canfield",
              "canfield-auto-reserve-then-waste", "canfield-partial-piles-restricted", "canfield-strict",
              "castles-of-spain",
              "chameleon", "delta-star", "duchess",
              "east-haven", "eight-off-any-card-spaces", "fan", "flower-garden", "fore-cell", "fore-cell-same-suit",
              "fortunes-favor",
              "forty-thieves",
              "free-cell", "free-cell-0-cell", "free-cell-1-cell", "free-cell-2-cell", "free-cell-3-cell",
              "free-cell-4-pile", "free-cell-5-pile",
              "free-cell-6-pile", "free-cell-7-pile", "freecell", "gaps-basic-variant", "gaps-one-deal", "gargantua",
              "gargantua-redeal", "golf", "king-albert", "klondike", "klondike-deal-1",
              "klondike-deal-1-partial-piles-restricted", "klondike-draw-1", "klondike-partial-piles-restricted",
              "klondike-reserve", "klondike-two-deck-9", "late-binding-solitaire", "limited", "lucas", "maria",
              "northwest-territory",
              "northwest-territory-partial-piles-restricted", "one-cell", "raglan", "rank-and-file",
              "scotch-patience", "siegecraft", "somerset", "spanish-patience", "streets", "streets-and-alleys",
              "stronghold", "thirty", "thirtysix", "trigon", "two-cell", "ultra-klondike-2-deck", "worm-hole"]
# Solvitaire's presets it cannot be given as built in, written as layout files into the run's
# folder: its Spider games as its 0.10.1 binary plays them, cards home one at a time (their files
# say whole columns, a rule it cannot be told: its parser reads another key than its schema
# allows), named NAME-singly; Eight Off and Seahaven Towers on its own deals (ours number
# PySolFC's; it is given a deal with cards in cells only as its own seed), NAME-solvitaire-deals.
SOLVITAIRE_WRITTEN = {"mrs-mop": "singly", "simple-simon": "singly", "spider": "singly", "spiderette": "singly",
                      "will-o-the-wisp": "singly", "eight-off": "solvitaire-deals",
                      "seahaven-towers": "solvitaire-deals"}
PEG_CENTRE = ["english-33", "english-33-any-end", "french-37", "french-37-any-end"]
PEG_BOARDS = ["english-33", "french-37"]
PEG_GOALS = ["vacated", "anywhere"]


@dataclass(frozen=True)
class Preset:
    name: str
    doc: str
    layouts: list[str]
    options: list[str]  # patience bench options, as words
    # Options of the preset itself (parsed before the rest goes to patience bench) and the
    # layouts they add: (add its options to a parser, (parsed options, out folder, write) -> more layouts).
    extra: tuple[Callable[[argparse.ArgumentParser], None],
                 Callable[[argparse.Namespace, Path, bool], list[str]]] | None = field(default=None)


# ---------------------------------------------------------------- peg boards


def _peg_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vacancies", default=",".join(PEG_BOARDS), metavar="BOARDS",
                   help=f"boards whose every single-vacancy start is solved, comma separated, or 'none' "
                        f"(default {','.join(PEG_BOARDS)})")
    p.add_argument("--goals", default=",".join(PEG_GOALS), metavar="GOALS",
                   help="goals of the single-vacancy starts: vacated (one peg left in the hole that was empty, "
                        "the complement problem) and/or anywhere (default vacated,anywhere)")


def peg_variants(args: argparse.Namespace, out: Path, write: bool) -> list[str]:
    """Layout files, in ``out/layouts``, of every single-vacancy start of each board of
    ``--vacancies`` with each goal of ``--goals``: the board's own file with its start and
    goal replaced.  Their names are ``BOARD-HOLE-GOAL``.  Without ``write``, only their paths."""
    from solver import api
    from solver.errors import InputError
    from solver.schema import builtin_dir

    boards = [] if args.vacancies == "none" else [b.strip() for b in args.vacancies.split(",")]
    goals = [g.strip() for g in args.goals.split(",")]
    if bad := [g for g in goals if g not in PEG_GOALS]:
        raise InputError(f"--goals: expected {' and/or '.join(PEG_GOALS)}, got {bad[0]!r}")
    folder = out / "layouts"
    paths = []
    for board in boards:
        layout = api.load_layout(board)
        source = Path(board) if board.endswith(".toml") else builtin_dir() / f"{board}.toml"
        text = source.read_text(encoding="utf-8")
        head = text[:text.index("[start]")]
        for hole in layout.board.names:
            for goal in goals:
                name = f"{board}-{hole}-{goal}"
                title = f"{board}, start with {hole} empty, one peg left " + (
                    f"in {hole}" if goal == "vacated" else "anywhere")
                body = re.sub(r"(?m)^title = .*$", f'title = "{title}"', head)
                body += f'[start]\nempty = ["{hole}"]\n\n[goal]\npegs = 1\n'
                body += f'hole = "{hole}"\n' if goal == "vacated" else ""
                path = folder / f"{name}.toml"
                if write:
                    folder.mkdir(parents=True, exist_ok=True)
                    path.write_text(f"# Written by `python -m benchmarks peg` from {board}.toml.\n" + body)
                paths.append(str(path))
    return paths


# ------------------------------------------------------ Solvitaire's written


def _written_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--written", default=",".join(SOLVITAIRE_WRITTEN), metavar="GAMES",
                   help="Solvitaire's presets written as layout files into the run's folder (the Spider games "
                        "with cards home one at a time, as Solvitaire 0.10.1 plays them: NAME-singly; Eight Off "
                        "and Seahaven Towers on Solvitaire's seeds: NAME-solvitaire-deals), comma separated, "
                        f"or 'none' (default {','.join(SOLVITAIRE_WRITTEN)})")


def _one_line(text: str, pattern: str, new: str, where: str) -> str:
    """``text`` with the one line matching ``pattern`` replaced by ``new`` (else an ``InputError``:
    the built-in file changed, say so rather than write another game)."""
    body, n = re.subn(pattern, new, text, flags=re.M)
    if n != 1:
        raise InputError(f"{where}: expected one line matching {pattern!r}, found {n}")
    return body


def solvitaire_written(args: argparse.Namespace, out: Path, write: bool) -> list[str]:
    """Layout files, in ``out/layouts``, of each game of ``--written``: a Spider game with its
    foundations taking single cards (``takes = "card"``) where the built-in takes whole columns,
    the game Solvitaire 0.10.1 plays for the preset (``NAME-singly``); Eight Off or Seahaven
    Towers dealt by Solvitaire's seeds (``generator = "solvitaire"``, the cells dealt first)
    where the built-in numbers PySolFC's (``NAME-solvitaire-deals``).  Without ``write``, only
    their paths."""
    from solver import api
    from solver.schema import builtin_dir

    games = [] if args.written == "none" else [g.strip() for g in args.written.split(",")]
    paths = []
    for game in games:
        if game not in SOLVITAIRE_WRITTEN:
            raise InputError(f"--written: expected 'none' or some of {', '.join(SOLVITAIRE_WRITTEN)}, got {game!r}")
        kind, where = SOLVITAIRE_WRITTEN[game], f"layouts/{game}.toml"
        text = (builtin_dir() / f"{game}.toml").read_text(encoding="utf-8")
        if kind == "singly":
            body = _one_line(text, r'^takes = "column"$', 'takes = "card"', where)
            title, why = "cards home one at a time", 'its foundations take single cards (takes = "card")'
        else:
            head = text[:text.index("[deal]")]  # (the last section of the file)
            body = head + '[deal]\ngenerator = "solvitaire"\norder = ["cells", "tableau"]\n'
            title, why = "Solvitaire's deals", "its seeds are Solvitaire's --random N (generator solvitaire)"
        body = _one_line(body, r"^title = .*$", f'title = "{api.load_layout(game).title}, {title}"', where)
        path = out / "layouts" / f"{game}-{kind}.toml"
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"# Written by `python -m benchmarks solvitaire` from {game}.toml: {why},\n"
                            f"# as Solvitaire 0.10.1 plays its preset.\n" + body)
        paths.append(str(path))
    return paths


# ------------------------------------------------------------------- presets

PRESETS = {p.name: p for p in [
    Preset("winrates", "Win rates of the debutante family: 1000 seeds of each of its 8 layouts with the "
           "default engine and 60 s per deal, one job; won/lost/unknown, the won share's 95% interval, seconds "
           "and nodes per decided deal.",
           DEBUTANTE_FAMILY, ["--seeds", "1-1000", "--engines", "dfs", "--timeout", "60"]),
    Preset("tableau", "The tableau family: FreeCell (Microsoft deals 1..1000, and 11982, the one deal of "
           "the first 32000 that cannot be won) with fc-solve `-l lg` as a peer, Klondike 1..1000, every other "
           "tableau layout (Canfield, Forty Thieves, ...) 1..200, 10 s per deal.",
           TABLEAU, ["--seeds", "1-200", "--seeds", "freecell=1-1000,11982", "--seeds", "klondike=1-1000",
                     "--engines", "dfs", "--timeout", "10", "--peers", "--fc-solve-args", "-l lg",
                     "--note", "Klondike (draw 3, thoughtful): Blake and Gent publish a winnable share of "
                               "81.945% +- 0.084%."]),
    Preset("hole", "The hole family: Black Hole and Golf, PySol deals 1..1000, with every installed peer "
           "that plays them.", ["black-hole", "golf"],
           ["--seeds", "1-1000", "--engines", "dfs", "--timeout", "60", "--peers",
            "--note", "Reference: Shlomi Fish's black-hole-solver finds 877 of PySol's Black Hole deals 1..1000 "
                      "winnable and 463 of its Golf deals 1..1000 (PySolFC rules)."]),
    Preset("cpsat", "Agreement of the engines: the DFS, CP-SAT and the auto portfolio on the same deals of "
           "the debutante and hole families; every deal both decided with different verdicts is listed.",
           ["debutante", "colorado", "grandfather", "double-line", "black-hole", "golf"],
           ["--seeds", "1-30", "--seeds", "grandfather=1-10", "--seeds", "double-line=1-10",
            "--engines", "dfs,cpsat,auto", "--timeout", "20"]),
    Preset("portfolio", "The portfolio engine (its parts in separate processes, on every core) against the DFS "
           "at 10 s a deal, one deal at a time: debutante and Klondike seeds 1..50, with the debutante deals "
           "the DFS won only after 10 s or left unknown at 60 s, and the Klondike deals it left unknown at 10 s "
           "(winrates-60s-2026-12-01, tableau-2026-12-01).",
           ["debutante", "klondike"],
           ["--seeds", "debutante=1-50,118,345,441,480,573,577,581,674,985,3,55,58,83,131",
            "--seeds", "klondike=1-50,36,54,72,99,101,159", "--engines", "dfs,portfolio", "--timeout", "10",
            "--jobs", "1"]),
    Preset("cpsat-tableau", "The CP-SAT tableau model against the DFS on reduced decks of the FreeCell family "
           "and Baker's Dozen, seeds 1..50 of each.",
           ["freecell@3", "freecell@4", "freecell@5", "bakers-game@4", "bakers-game@5", "bakers-dozen@4",
            "bakers-dozen@5", "eight-off@4", "seahaven-towers@4", "forecell@4"],
           ["--seeds", "1-50", "--engines", "dfs,cpsat", "--timeout", "20"]),
    Preset("peg", "Peg solitaire: the English and French central games (one peg left in the centre, or "
           "anywhere), then every single-vacancy start of both boards with each goal, both engines.",
           PEG_CENTRE, ["--engines", "dfs,cpsat", "--timeout", "60"], extra=(_peg_options, peg_variants)),
    Preset("cores", "The compiled core against the pure-Python core: the DFS on both, on the same deals "
           "with the same node limit (so both search the same positions), with perft; the speed-up is "
           "nodes_per_s_ratio in the comparisons.",
           ["black-hole", "golf", "debutante@9", "debutante", "colorado", "freecell", "klondike", "canfield"],
           ["--seeds", "1-20", "--seeds", "black-hole=1-200", "--seeds", "golf=1-100", "--engines", "dfs",
            "--cores", "python,compiled", "--max-nodes", "200000", "--timeout", "120", "--perft"]),
    Preset("solvitaire", "Every game Solvitaire plays that has a layout here, against every peer in one run: seeds "
           "1..100 of each (FreeCell, Black Hole and Golf 1..1000), 60 s per deal, the DFS on its own core "
           "(compiled; Python for the accordion family, which has no compiled core), "
           "Solvitaire, fc-solve and black-hole-solver interleaved deal by deal, each disagreement replayed "
           "through the referee; its Spider presets as Solvitaire 0.10.1 plays them, cards going home one at "
           "a time (NAME-singly), and Eight Off and Seahaven Towers on its seeds (NAME-solvitaire-deals), "
           "layout files written into the run's folder. Give the peers' paths with --peer-path "
           "NAME=PATH where PATH does not find them (benchmarks/peers.md says how to build them).",
           SOLVITAIRE, ["--seeds", "1-100", "--seeds", "freecell=1-1000", "--seeds", "black-hole=1-1000",
                        "--seeds", "golf=1-1000", "--engines", "dfs", "--timeout", "60",
                        "--peers",
                        "--note", "Klondike (draw 3, thoughtful): Blake and Gent publish a winnable share of "
                                  "81.945% +- 0.084%."], extra=(_written_options, solvitaire_written)),
    Preset("freecell", "FreeCell against fc-solve: Microsoft deals 1..1000 and 11982 at 10 s, the DFS on the "
           "compiled core (the cores preset compares it with the Python one), fc-solve `-l lg` (and the "
           "freecell-solver library, when installed) on the same deals.",
           ["freecell"], ["--seeds", "1-1000,11982", "--engines", "dfs", "--cores", "compiled", "--timeout", "10",
                          "--peers", "--fc-solve-args", "-l lg"]),
]}


# ------------------------------------------------------------------ building


def bench_parser() -> argparse.ArgumentParser:
    """``patience bench``'s own arguments, errors as one line and exit code 2."""
    p = _Parser(prog="patience bench", allow_abbrev=False)
    add_arguments(p)
    return p


def given_options(argv: list[str]) -> dict[str, Any]:
    """The ``patience bench`` options (and layouts) that ``argv`` gives, by their dest.

    argparse fills in a default only where the namespace has no value yet, so each dest
    starts as a marker and what is still the marker afterwards was not given (lists start
    as None, which an appending option turns into a list)."""
    unset = object()
    marks = {dest: None if value is None or isinstance(value, list) else unset
             for dest, value in vars(bench_parser().parse_args([])).items()}
    ns = bench_parser().parse_args(argv, namespace=argparse.Namespace(**marks))
    return {dest: value for dest, value in vars(ns).items()
            if value is not marks[dest] and value != [] and not (value is None and marks[dest] is None)}


def default_out(preset: Preset) -> str:
    """``benchmarks/results/PRESET-YYYY-MM-DD``, relative to the current folder when it is inside it."""
    out = RESULTS / f"{preset.name}-{time.strftime('%Y-%m-%d')}"
    rel = os.path.relpath(out)
    return out.as_posix() if rel.startswith("..") else rel


def bench_command(preset: Preset, argv: list[str], write: bool = True) -> list[str]:
    """The ``patience bench`` arguments of ``preset`` run with the user's ``argv``: every
    option the user gives replaces the preset's (its layouts too).  ``write``: write the
    layout files the preset makes (the peg boards' variants)."""
    extra_args = None
    if preset.extra is not None:
        p = _Parser(prog=f"python -m benchmarks {preset.name}", allow_abbrev=False, add_help=False)
        preset.extra[0](p)
        extra_args, argv = p.parse_known_args(argv)
    given = given_options(argv)
    ns = bench_parser().parse_args([*preset.layouts, *preset.options])
    for dest, value in given.items():
        setattr(ns, dest, value)
    if "out" not in given:
        ns.out = default_out(preset)
    if extra_args is not None and preset.extra is not None:
        ns.layouts = [*ns.layouts, *preset.extra[1](extra_args, Path(ns.out), write)]
    if "layouts" in given and "seeds" not in given:  # the preset's seeds for layouts still in the run
        names = {n for t in ns.layouts for n in (Target.parse(t).label, Target.parse(t).short_name)}
        ns.seeds = [s for s in ns.seeds or [] if "=" not in s or s.partition("=")[0] in names]
    return shlex.split(command_line(ns))[2:]


def describe(preset: Preset) -> str:
    words = ["patience", "bench", *preset.layouts, *preset.options]
    return f"{preset.name}: {preset.doc}\n    = {shlex.join(words)} --out {default_out(preset)}"
