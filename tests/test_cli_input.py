"""Bad input on the command line: one line on stderr naming the file, line or key; exit code 2;
and every other failure named by its own code (issue #18), never by a verdict's.

Each bad input of ``CASES`` runs ``python -m solver ...`` in its own process (the real entry
point, the real stderr); the processes run side by side, so the whole set costs about as much as
a few.  The hostile inputs of issue #18 (``HOSTILE``) and the round trips through ``patience
deal`` run in-process, in milliseconds each; what only a real process shows (stdout on a full
disk or closed, a closed pipe, a database on a full disk) runs in its own process below.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from solver import api, cli, shuffles
from solver import deal as deals
from solver.cli import main
from solver.families import load_layout
from solver.layout import Layout
from solver.limits import Limits
from solver.schema import builtin_names

ROOT = Path(__file__).resolve().parents[1]
FREECELL_TOML = (ROOT / "layouts" / "freecell.toml").read_text()
CARD_NAMES = [n for n in builtin_names() if isinstance(load_layout(n), Layout)]


def _freecell_board() -> list[str]:
    lay = load_layout("freecell")
    return deals.to_board(shuffles.from_seed(lay, 1), lay).splitlines()


def _write_inputs(d: Path) -> None:
    """The bad files the cases below name."""
    (d / "malformed.toml").write_text('title = "x"\ndecks = 1\n[tableau\ncount = 3\n')
    (d / "unknown-key.toml").write_text(FREECELL_TOML.replace('moves = "supermove"', 'movs = "supermove"'))
    (d / "bad-enum.toml").write_text(FREECELL_TOML.replace('spaces = "any"', 'spaces = "queens"'))
    (d / "binary.toml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    rows = _freecell_board()
    dup = rows.copy()
    dup[3] = dup[3].replace("JC", "2D", 1)  # 2D is also the first card of line 2
    (d / "dup.board").write_text("\n".join(dup) + "\n")
    missing = rows.copy()
    missing[6] = " ".join(missing[6].split()[:-1])  # one card short
    (d / "missing.board").write_text("\n".join(missing) + "\n")
    unknown = rows.copy()
    unknown[1] = unknown[1].replace("KC", "XZ")
    (d / "unknown.board").write_text("\n".join(unknown) + "\n")
    obj = deals.to_json(shuffles.from_seed(load_layout("freecell"), 1))
    obj["tableau:5"][2] = obj["tableau:1"][0]
    (d / "dup.json").write_text(json.dumps(obj, indent=1))
    (d / "malformed.json").write_text('{"tableau:0": ["JD", "KD"],\n "tableau:1": [2D]}\n')
    bh = deals.to_json(shuffles.from_seed(load_layout("black-hole"), 1))
    bh["hole"], bh["tableau:0"][0] = bh["tableau:0"][:1], bh["hole"][0]
    (d / "hole.json").write_text(json.dumps(bh))


GOLF_TOML = (ROOT / "layouts" / "golf.toml").read_text()
DEBUTANTE_TOML = (ROOT / "layouts" / "debutante.toml").read_text()


def _colorado_7() -> dict:
    """A won result (colorado #7, decided in a fraction of a second), the source of the bad results."""
    return api.solve("colorado", seed=7, limits=Limits(timeout=60)).to_json()


def _write_hostile_inputs(d: Path) -> None:
    """The files of the hostile cases (issue #18)."""
    (d / "pysol.toml").write_text(GOLF_TOML.replace('pysol_game = "golf"', 'pysol_game = "golff"'))
    (d / "longname.toml").write_text(f'name = "{"x" * 300}"\n' + DEBUTANTE_TOML)
    (d / "slash.toml").write_text('name = "../../elsewhere"\n' + DEBUTANTE_TOML)
    if Path("/dev/zero").exists():
        (d / "zero.toml").symlink_to("/dev/zero")
    listing = deals.to_text(shuffles.from_seed(load_layout("freecell"), 1))
    (d / "extra.txt").write_text(listing + "tableau:8:\n")
    obj = deals.to_json(shuffles.from_seed(load_layout("freecell"), 1))
    (d / "extra.json").write_text(json.dumps({**obj, "reserve:0": []}))
    rows = _freecell_board()
    (d / "cells.board").write_text("FC: - - - - -\n" + "\n".join(rows) + "\n")
    won = _colorado_7()
    for name, change in {"as-seed-3": {"seed": 3}, "max-rank-text": {"max_rank": "13"},
                         "other-rules": {"fingerprint": "0123456789ab"},
                         "layout-path": {"layout": "../layouts/colorado"},
                         "bad-move": {"solution": [{"card": "2S", "from": None, "to": "foundation:3"}]}}.items():
        (d / f"c7-{name}.json").write_text(json.dumps({**won, **change}))


# case: (arguments, regex the one stderr line must match); {d} is the folder of the bad files
CASES: dict[str, tuple[list[str], str]] = {
    "malformed-toml": (["show", "{d}/malformed.toml"], r"malformed\.toml: malformed TOML: .*line 3"),
    "unknown-key": (["show", "{d}/unknown-key.toml"],
                    r"unknown-key\.toml: tableau\.movs: unknown key \(did you mean 'moves'\?\)"),
    "bad-enum": (["deal", "{d}/bad-enum.toml", "--seed", "1"],
                 r"bad-enum\.toml: tableau\.spaces: expected one of 'any', 'kings', 'none', "
                 r"'reserve-then-any', 'reserve-then-waste', 'waste-then-stock', got 'queens'"),
    "binary-layout": (["show", "{d}/binary.toml"], r"binary\.toml: expected a UTF-8 text file"),
    "unknown-layout": (["deal", "fre", "--seed", "1"], r"unknown layout 'fre'; did you mean freecell"),
    "duplicated-card-board": (["deal", "freecell", "--deal", "{d}/dup.board"],
                              r"dup\.board:4: card 2D appears more than once"),
    "missing-card-board": (["solve", "freecell", "--deal", "{d}/missing.board"],
                           r"missing\.board:7: tableau:6 holds 5 cards, expected 6"),
    "unknown-card-board": (["deal", "freecell", "--deal", "{d}/unknown.board"],
                           r"unknown\.board:2: expected a card name: .*got 'XZ'"),
    "duplicated-card-json": (["deal", "freecell", "--deal", "{d}/dup.json"],
                             r"dup\.json: tableau:5: card 2D appears more than once"),
    "malformed-json": (["deal", "freecell", "--deal", "{d}/malformed.json"],
                       r"malformed\.json:2: malformed JSON"),
    "wrong-hole-card": (["deal", "black-hole", "--deal", "{d}/hole.json"],
                        r"hole\.json: hole: hole must hold AS, placed there before the deal; got JD"),
    "no-deal-file": (["deal", "freecell", "--deal", "{d}/nope.board"],
                     r"nope\.board: cannot read deal file"),
    "negative-seed": (["deal", "freecell", "--seed", "-1"],
                      r"seed -1: expected an integer 1\.\.8589934591 for layout 'freecell'"),
    "seed-not-a-number": (["solve", "golf", "--seed", "x1"],
                          r"argument --seed: expected a whole number, got 'x1'"),
    "seed-too-large": (["deal", "freecell", "--seed", "8589934592"],
                       r"seed 8589934592: expected an integer 1\.\.8589934591 for layout 'freecell'"),
    "seed-zero": (["solve", "debutante", "--seed", "0"], r"seed 0: expected an integer 1\.\."),
    "unknown-option": (["deal", "freecell", "--seed", "1", "--frobnicate"],
                       r"unrecognized arguments: --frobnicate"),
    "max-ranks-too-small": (["deal", "golf", "--seed", "1", "--max-ranks", "4"],
                            r"--max-ranks 4: golf deals 36 cards at the start "
                            r"but ranks A\.\.4 make only 16"),
    "no-seed-or-deal": (["deal", "golf"], r"give exactly one of --seed N, --deal FILE or --position FILE"),
}

# Issue #18: the inputs a new user and a hostile one tried.  Run in-process (each in milliseconds);
# the failures that only the real process shows (stdout on a full disk, a closed pipe) have tests below.
HOSTILE: dict[str, tuple[list[str], str]] = {
    # issue #18, class 1: what used to crash (exit code 1, read as "lost")
    "max-memory-inf": (["solve", "golf", "--seed", "1", "--max-memory", "inf"],
                       r"argument --max-memory: expected a size such as 500M or 2G, got 'inf'"),
    "max-memory-1e400-batch": (["batch", "golf", "--seeds", "1", "--max-memory", "1e400", "--db", "{d}/m.sqlite"],
                               r"argument --max-memory: expected a size"),
    "unknown-pysol-game": (["deal", "{d}/pysol.toml", "--seed", "1"],
                           r"pysol\.toml: deal\.pysol_game: expected a game pysol-cards deals: .*golf.*"
                           r"got 'golff'"),
    "layout-name-too-long": (["batch", "{d}/longname.toml", "--seeds", "1"],
                             r"longname\.toml: name: expected 1\.\.100 printable characters"),
    "layout-name-a-path": (["batch", "{d}/slash.toml", "--seeds", "1"], r"slash\.toml: name: expected .* without '/'"),
    "db-name-too-long": (["batch", "black-hole", "--seeds", "1", "--db", "{d}/" + "x" * 300 + ".sqlite"],
                         r"File name too long|the file name is longer than this file system allows"),
    "layout-path-too-long": (["show", "{d}/" + "y" * 300 + ".toml"], r"cannot read layout file: File name too long"),
    "verify-max-rank-text": (["verify", "{d}/c7-max-rank-text.json"],
                             r"c7-max-rank-text\.json: max_rank: expected a whole number 1\.\.13"),
    "verify-bad-move": (["verify", "{d}/c7-bad-move.json"], r"solution\[0\]: expected a move"),
    "verify-layout-path": (["verify", "{d}/c7-layout-path.json"], r"layout: expected a layout name"),
    "random-seed-too-big": (["solve", "golf", "--seed", "1", "--engine", "cpsat", "--random-seed", "9" * 23],
                            r"argument --random-seed: expected a number 0\.\.2147483647"),
    "workers-too-many": (["solve", "golf", "--seed", "1", "--engine", "cpsat", "--workers", "100000"],
                         r"argument --workers: expected a number 0\.\.512"),
    # class 4: sizes
    "deal-dev-zero": (["solve", "golf", "--deal", "/dev/zero"], r"/dev/zero: deal file larger than 4 MiB"),
    "layout-symlink-dev-zero": (["show", "{d}/zero.toml"], r"zero\.toml: layout file larger than 1 MiB"),
    "result-dev-zero": (["verify", "/dev/zero"], r"/dev/zero: result file larger than 64 MiB"),
    "deal-is-a-folder": (["solve", "golf", "--deal", "{d}"], r"cannot read deal file: Is a directory"),
    "max-memory-1K": (["solve", "golf", "--seed", "1", "--max-memory", "1K"], r"expected at least 1M"),
    "timeout-negative": (["solve", "golf", "--seed", "1", "--timeout", "-1"], r"argument --timeout: expected"),
    "timeout-nan": (["graph", "golf", "--seed", "1", "--timeout", "nan"], r"argument --timeout: expected"),
    "timeout-inf": (["batch", "golf", "--seeds", "1", "--timeout", "inf"], r"argument --timeout: expected"),
    # class 5: silent acceptance
    "db-empty-name": (["batch", "black-hole", "--seeds", "1", "--db", ""], r"--db: expected a file name, got ''"),
    "db-a-folder": (["batch", "black-hole", "--seeds", "1", "--db", "{d}"], r"is a directory"),
    "db-not-sqlite": (["batch", "black-hole", "--seeds", "1", "--db", "{d}/pysol.toml"],
                      r"cannot open as a batch database|not a patience batch database"),
    "deal-json-and-board": (["deal", "freecell", "--seed", "1", "--json", "--board"],
                            r"give at most one of --json, --board, --svg and --solvitaire"),
    "seed-on-a-board": (["solve", "english-33", "--seed", "5"],
                        r"--seed: layout 'english-33' has one start and no shuffle"),
    "extra-empty-stack-listing": (["deal", "freecell", "--deal", "{d}/extra.txt"],
                                  r"extra\.txt:9: layout 'freecell' has no stack 'tableau:8'"),
    "extra-empty-stack-json": (["solve", "freecell", "--deal", "{d}/extra.json"],
                               r"extra\.json: reserve:0: layout 'freecell' has no stack 'reserve:0'"),
    "too-many-free-cells": (["deal", "freecell", "--deal", "{d}/cells.board"],
                            r"cells\.board:1: 5 free cells, expected at most 4"),
    "cpsat-unsupported-batch": (["batch", "klondike", "--seeds", "1", "--engine", "cpsat", "--db", "{d}/k.sqlite"],
                                r"layout .klondike.: the CP-SAT tableau model does not"),
    # class 6: verify checks the deal and the rules
    "verify-relabelled-seed": (["verify", "{d}/c7-as-seed-3.json"],
                               r"c7-as-seed-3\.json: the result's deal is not deal #3 of 'colorado'"),
    "verify-other-rules": (["verify", "{d}/c7-other-rules.json"],
                           r"the result was made with rules fingerprint 0123456789ab, but layout 'colorado' has "
                           r"rules fingerprint [0-9a-f]{12}"),
    "graph-out-folder-missing": (["graph", "golf", "--seed", "1", "--out", "{d}/nowhere/g.graphml"],
                                 r"--out .*/nowhere/g\.graphml: folder .*nowhere does not exist"),
    # class 9: a picture of a graph too big is refused after 401 states, not after the whole graph
    "graph-picture-too-big": (["graph", "debutante", "--seed", "2", "--max-ranks", "3", "--out", "{d}/g.png"],
                              r"more than 400 states|needs matplotlib"),
}


Run = subprocess.CompletedProcess[str]


def _run(args: list[str]) -> Run:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "solver", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def bad_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    d = tmp_path_factory.mktemp("bad")
    _write_inputs(d)
    argvs = {case: [a.replace("{d}", str(d)) for a in args] for case, (args, _) in CASES.items()}
    with ThreadPoolExecutor(max_workers=4) as pool:
        runs = dict(zip(argvs, pool.map(_run, argvs.values()), strict=True))
    return runs


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_and_exit_code_2(case: str, bad_runs: dict[str, Run]) -> None:
    run = bad_runs[case]
    _, pattern = CASES[case]
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("patience"), lines[0]
    assert re.search(pattern, lines[0]), lines[0]


@pytest.fixture(scope="module")
def hostile_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("hostile")
    _write_hostile_inputs(d)
    return d


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_input_is_one_line_and_exit_code_2(case: str, hostile_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    args, pattern = HOSTILE[case]
    monkeypatch.chdir(hostile_dir)
    try:
        code = main([a.replace("{d}", str(hostile_dir)) for a in args])
    except SystemExit as e:  # argparse's errors end the process: the same one line and code
        code = e.code if isinstance(e.code, int) else -1
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert code == 2, (code, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("patience"), lines[0]
    assert re.search(pattern, lines[0]), lines[0]
    assert not list(hostile_dir.glob("*.sqlite*")), "a refused batch left a file behind"


# ------------------------------------------------------------ round trips through `patience deal`


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


@pytest.fixture(scope="module")
def one_parser() -> Iterator[None]:
    """``main`` builds its parser (every command's options: 6 ms) on each call, most of a ``deal``'s
    time; the read-back tests below call it some 900 times and share one (``parse_args`` leaves a
    parser as it found it).  Every other test of the CLI builds it afresh."""
    parser = cli.build_parser()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cli, "build_parser", lambda: parser)
        yield


@pytest.mark.usefixtures("one_parser")
@pytest.mark.parametrize("name", CARD_NAMES)
def test_deal_json_read_back_is_the_same_deal(name: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("1", "1000"):
        printed = _cli(["deal", name, "--seed", seed, "--json"], capsys)
        p = tmp_path / f"{name}-{seed}.json"
        p.write_text(printed)
        assert json.loads(printed) == deals.to_json(shuffles.from_seed(load_layout(name), int(seed)))
        assert _cli(["deal", name, "--deal", str(p), "--json"], capsys) == printed
        # and the plain listing `patience deal` prints by default reads back too
        listing = _cli(["deal", name, "--seed", seed], capsys)
        p.write_text(listing)
        assert _cli(["deal", name, "--deal", str(p)], capsys) == listing
        assert _cli(["deal", name, "--deal", str(p), "--json"], capsys) == printed


@pytest.mark.usefixtures("one_parser")
@pytest.mark.parametrize("name", ["freecell", "black-hole", "golf"])
def test_deal_board_read_back_is_the_same_deal(name: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("1", "617", "11982"):
        board = _cli(["deal", name, "--seed", seed, "--board"], capsys)
        p = tmp_path / f"{name}-{seed}.board"
        p.write_text(board)
        assert _cli(["deal", name, "--deal", str(p), "--board"], capsys) == board
        assert _cli(["deal", name, "--deal", str(p), "--json"], capsys) == \
            _cli(["deal", name, "--seed", seed, "--json"], capsys)


def test_round_trip_through_the_real_entry_point(tmp_path: Path) -> None:
    printed = _run(["deal", "freecell", "--seed", "11982", "--json"])
    assert printed.returncode == 0 and printed.stderr == ""
    p = tmp_path / "11982.json"
    p.write_text(printed.stdout)
    again = _run(["deal", "freecell", "--deal", str(p), "--json"])
    assert again.returncode == 0 and again.stdout == printed.stdout
    assert json.loads(again.stdout)["tableau:0"] == ["AH", "3D", "KD", "JC", "6C", "JD", "KC"]


# ------------------------------------------------------- issue #18: every failure named, by its code


def test_the_bad_input_table_covers_every_class_of_the_issue() -> None:
    """One case at least for each class of bad input that issue #18 lists (a guard against a table
    that quietly loses a class)."""
    classes = {
        "exit codes": ["max-memory-inf", "unknown-pysol-game", "layout-name-too-long", "db-name-too-long",
                       "verify-max-rank-text"],
        "sizes": ["deal-dev-zero", "layout-symlink-dev-zero", "max-memory-1K"],
        "silent acceptance": ["db-empty-name", "deal-json-and-board", "seed-on-a-board",
                              "extra-empty-stack-listing", "extra-empty-stack-json"],
        "verify": ["verify-relabelled-seed", "verify-other-rules"],
        "graph": ["graph-picture-too-big"],
    }
    for names in classes.values():
        assert set(names) <= set(HOSTILE)


def _one_line(run: Run, code: int, pattern: str) -> None:
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == code, (run.returncode, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert re.search(pattern, lines[0]), lines[0]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_to_a_full_disk_is_bad_input_not_a_verdict() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "solver", "solve", "golf", "--seed", "1", "--json"],
                             cwd=ROOT, env=env, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    _one_line(run, 2, r"^patience: error: cannot write the output: No space left on device$")


def test_closed_stdout_is_bad_input_and_closed_stderr_keeps_the_verdict() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "solver", "solve", "golf", "--seed", "1"]
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                         preexec_fn=lambda: os.close(1))
    _one_line(run, 2, r"^patience: error: cannot write the output: standard output is closed$")
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                         preexec_fn=lambda: os.close(2))
    assert run.returncode == 1 and run.stdout.startswith("golf #1: lost")  # golf #1 is lost


def test_a_closed_pipe_is_141_not_won() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "solver", "layouts"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the first line
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141, (proc.returncode, err)
    assert err == ""


def test_an_internal_error_is_70_with_one_line_and_the_traceback_only_with_debug(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("an engine bug")

    monkeypatch.setattr(api, "solve", broken)
    assert main(["solve", "golf", "--seed", "1"]) == 70
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("patience: internal error: ZeroDivisionError: an engine bug; run again with --debug")
    for argv in (["--debug", "solve", "golf", "--seed", "1"], ["solve", "golf", "--seed", "1", "--debug"]):
        assert main(argv) == 70
        err = capsys.readouterr().err
        assert "Traceback" in err and "ZeroDivisionError: an engine bug" in err


def test_a_win_that_does_not_replay_is_an_internal_error(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from solver.families.reserve import ReserveFamily

    monkeypatch.setattr(ReserveFamily, "replay", lambda self, layout, deal, solution: "move 1: not legal")
    assert main(["solve", "colorado", "--seed", "7", "--engine", "dfs"]) == 70  # colorado #7 is won
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert "internal error: engine dfs claimed a win" in err and "a bug" in err


def test_no_arguments_print_the_usage_and_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: patience")
    for command in ("solve", "verify", "batch", "report", "graph", "deal", "show", "layouts"):
        assert f"    {command}" in err


STOPPING = {"solve": ["golf", "--seed", "1"], "hint": ["golf", "--seed", "1"], "graph": ["golf", "--seed", "1"],
            "analyse": ["golf", "--seed", "1", "--moves", "m.json"], "batch": ["golf", "--seeds", "1"],
            "odds": ["quinze"]}


def test_every_command_stops_by_itself_after_the_same_default_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """One convention (docs/engines-and-proofs.md, "Verdicts, exit codes and limits"): 60 s by
    default, 0 for none, said alike in every help."""
    from solver.cli import build_parser
    from solver.engines import DESCRIPTIONS

    parser = build_parser()
    for command, argv in STOPPING.items():
        assert parser.parse_args([command, *argv]).timeout == 60, command
        assert parser.parse_args([command, *argv, "--timeout", "0"]).timeout is None, command
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "(default 60; 0: no time limit)" in text, command
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = capsys.readouterr().out
    for name, description in DESCRIPTIONS.items():
        assert f"  {name}  " in text and description in text


def test_a_layout_without_limits_stops_at_the_timeout(tmp_path: Path) -> None:
    """The `patience solve my-variant.toml --seed 5` of the README and docs/engines-and-proofs.md
    (debutante with capacity = 0) searched in silence for minutes: with a limit it answers unknown
    and names it.  (Seed 5 is now won at once; seed 31 is debutante-unlimited's #31, which the DFS
    alone leaves open at 60 s.)"""
    variant = tmp_path / "my-variant.toml"
    variant.write_text(DEBUTANTE_TOML.replace("capacity = 2", "capacity = 0"))
    run = _run(["solve", str(variant), "--seed", "31", "--timeout", "2", "--engine", "dfs"])
    assert run.returncode == 3, run.stderr
    assert run.stdout.startswith("my-variant #31: unknown (timeout 2 s)") and run.stderr == ""


def test_the_live_line_is_one_overwritten_line_and_only_on_a_terminal() -> None:
    import io

    from solver.live import LiveLine

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    with LiveLine("golf #1: ", stream=tty) as live:
        live({"seconds": 1.25, "nodes": 12345, "nodes_per_second": 9876.5, "depth": 7, "table": 4321})
    text = tty.getvalue()
    assert text.startswith("\rgolf #1: 1.2 s  12,345 nodes  9,876 nodes/s  depth 7  table 4,321\x1b[K")
    assert text.endswith("\r\x1b[K") and "\n" not in text
    plain = io.StringIO()
    with LiveLine("golf #1: ", stream=plain) as live:
        live({"nodes": 1})
    assert plain.getvalue() == ""


def test_the_dfs_reports_its_progress_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.engines import dfs as dfs_module

    monkeypatch.setattr(dfs_module, "PROGRESS_EVERY", 0.0)
    reports: list[dict[str, float | int]] = []
    run = dfs_module.run_dfs(load_layout("freecell"), shuffles.from_seed(load_layout("freecell"), 11982),
                             Limits(max_nodes=5000), progress=reports.append)
    assert run.verdict == "unknown" and run.reason == "max-nodes 5000"
    assert [r["nodes"] for r in reports] == [1024 * i for i in range(1, 5)]
    assert set(reports[0]) == {"seconds", "nodes", "nodes_per_second", "depth", "table"}
    assert all(r["depth"] >= 0 and r["table"] > 0 for r in reports)


@pytest.mark.parametrize("argv, reason", [
    (["solve", "debutante", "--seed", "5"], "counting bound: the forty-first card rule"),
    (["solve", "golf", "--seed", "1"], "heads bound"),
    (["solve", "french-37"], "position classes"),
])
def test_a_loss_at_the_deal_names_its_bound(argv: list[str], reason: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    assert f": lost ({reason}" in capsys.readouterr().out
    assert main([*argv, "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["verdict"] == "lost" and result["reason"].startswith(reason) and result["stats"]["nodes"] == 0


def test_max_jobs_are_capped_at_the_cores_and_the_deals(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from solver import batch
    from solver.commands.batch import local_jobs

    monkeypatch.setattr(batch, "default_jobs", lambda: 2)
    assert local_jobs(100000, 60) == 8
    assert "--jobs 100000: more than 4 per core (2 cores here) only share them; using 8" in capsys.readouterr().err
    assert local_jobs(None, 60) == 2 and local_jobs(5, 3) == 3 and local_jobs(None, 1) == 1
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------ formats read, and the deal files they hold


def test_fc_solve_board_lines_and_byte_order_marks_are_read(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    want = _cli(["deal", "freecell", "--seed", "1", "--json"], capsys)
    rows = _freecell_board()
    boards = {
        "fc-solve.board": "Foundations: H-0 C-0 D-0 S-0\nFC: - - - -\n" + "".join(f": {r}\n" for r in rows),
        "founds.board": "Founds: H-0 C-0 D-0 S-0\nFreecells:\n" + "\n".join(rows) + "\n",
    }
    for name, text in boards.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "bom.board").write_bytes(b"\xef\xbb\xbf" + "\n".join(rows).encode() + b"\n")
    for name in [*boards, "bom.board"]:
        assert _cli(["deal", "freecell", "--deal", str(tmp_path / name), "--json"], capsys) == want, name
    (tmp_path / "bom.toml").write_bytes(b"\xef\xbb\xbf" + FREECELL_TOML.encode())
    assert _cli(["deal", str(tmp_path / "bom.toml"), "--seed", "1", "--json"], capsys) == want


# ------------------------------------------------------------------ batch databases: rules, locks, disks


BH = ["black-hole", "--max-nodes", "3000"]


def _batch(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_batch_of_other_rules_under_the_same_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """An edited copy of black-hole.toml (wrap = false) is still called black-hole, rules version 1:
    its results must not be merged into the built-in's."""
    from solver.fingerprint import rules_fingerprint

    monkeypatch.chdir(tmp_path)
    code, out, _ = _batch(["batch", *BH, "--seeds", "1-4", "--jobs", "1"], capsys)
    assert code == 0 and Path("black-hole.sqlite").exists()
    edited = tmp_path / "black-hole.toml"
    edited.write_text((ROOT / "layouts" / "black-hole.toml").read_text().replace("wrap = true", "wrap = false"))
    builtin, copy = rules_fingerprint(load_layout("black-hole")), rules_fingerprint(load_layout(str(edited)))
    assert builtin != copy and load_layout(str(edited)).name == "black-hole"
    before = Path("black-hole.sqlite").read_bytes()
    code, out, err = _batch(["batch", str(edited), "--max-nodes", "3000", "--seeds", "1-4"], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert f"rules fingerprint {builtin}, but this black-hole has rules fingerprint {copy}" in err
    assert "give another --db" in err
    assert Path("black-hole.sqlite").read_bytes() == before
    # kept apart, it is its own batch; each database and row carries its fingerprint
    code, out, _ = _batch(["batch", str(edited), "--max-nodes", "3000", "--seeds", "1-4", "--db", "edited.sqlite",
                           "--jobs", "1", "--json"], capsys)
    assert code == 0 and json.loads(out)["fingerprint"] == copy
    for db, fingerprint in (("black-hole.sqlite", builtin), ("edited.sqlite", copy)):
        code, out, _ = _batch(["report", db, "--json"], capsys)
        assert code == 0 and [s["fingerprint"] for s in json.loads(out)] == [fingerprint]
        code, out, _ = _batch(["report", db], capsys)
        assert fingerprint in out.splitlines()[1]
        code, out, _ = _batch(["report", db, "--csv"], capsys)
        rows = list(csv.DictReader(io.StringIO(out)))
        assert rows and all(row["fingerprint"] == fingerprint for row in rows)


def test_a_second_batch_on_one_database_is_refused_at_once(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from solver.batch import BatchLock

    db = tmp_path / "bh.sqlite"
    held = BatchLock(db)  # another batch writing it
    try:
        code, out, err = _batch(["batch", *BH, "--seeds", "1-4", "--db", str(db)], capsys)
    finally:
        held.release()
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert f"--db {db}: another batch is writing it (pid {os.getpid()})" in err
    assert not db.exists()
    code, _, _ = _batch(["batch", *BH, "--seeds", "1-4", "--db", str(db), "--jobs", "1"], capsys)
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["bh.sqlite"]  # the lock file is gone


def test_a_read_only_database_is_refused_before_any_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from solver import batch

    db = tmp_path / "bh.sqlite"
    assert _batch(["batch", *BH, "--seeds", "1-2", "--db", str(db), "--jobs", "1"], capsys)[0] == 0
    connect = batch._connect
    monkeypatch.setattr(batch, "_connect", lambda path, mode: connect(path, "ro" if mode == "rw" else mode))
    monkeypatch.setattr(batch, "run_batch", lambda *a, **k: pytest.fail("a deal was solved"))
    code, out, err = _batch(["batch", *BH, "--seeds", "1-4", "--db", str(db)], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert f"--db {db}: cannot write: attempt to write a readonly database" in err


def test_a_database_on_a_full_disk_stops_the_batch_with_bad_input(tmp_path: Path) -> None:
    """The file size limit stands for a full disk: SQLite's write fails in the middle of the batch."""
    resource = pytest.importorskip("resource")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    db = tmp_path / "bh.sqlite"

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    run = subprocess.run([sys.executable, "-m", "solver", "batch", *BH, "--seeds", "1-400", "--db", str(db),
                          "--jobs", "1"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                         preexec_fn=small_files)
    _one_line(run, 2, r"^patience: error: --db .*bh\.sqlite: cannot write: (database or disk is full|disk I/O error); "
                      r"\d+ of 400 deals are stored in .*; run the same command again to resume$")
