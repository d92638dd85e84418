"""Bad input on the command line: one line on stderr naming the file, line or key; exit code 2.

Each bad input runs ``python -m solver ...`` in its own process (the real entry point, the
real stderr); the processes run side by side, so the whole set costs about as much as a few.
The round trips through ``patience deal`` run in-process.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from solver import deal as deals
from solver.cli import main
from solver.families import load_layout
from solver.schema import builtin_names

ROOT = Path(__file__).resolve().parents[1]
FREECELL_TOML = (ROOT / "layouts" / "freecell.toml").read_text()
CARD_NAMES = [n for n in builtin_names() if load_layout(n).family != "peg"]


def _freecell_board() -> list[str]:
    lay = load_layout("freecell")
    return deals.to_board(deals.from_seed(lay, 1), lay).splitlines()


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
    obj = deals.to_json(deals.from_seed(load_layout("freecell"), 1))
    obj["tableau:5"][2] = obj["tableau:1"][0]
    (d / "dup.json").write_text(json.dumps(obj, indent=1))
    (d / "malformed.json").write_text('{"tableau:0": ["JD", "KD"],\n "tableau:1": [2D]}\n')
    bh = deals.to_json(deals.from_seed(load_layout("black-hole"), 1))
    bh["hole"], bh["tableau:0"][0] = bh["tableau:0"][:1], bh["hole"][0]
    (d / "hole.json").write_text(json.dumps(bh))


# case: (arguments, regex the one stderr line must match); {d} is the folder of the bad files
CASES: dict[str, tuple[list[str], str]] = {
    "malformed-toml": (["show", "{d}/malformed.toml"], r"malformed\.toml: malformed TOML: .*line 3"),
    "unknown-key": (["show", "{d}/unknown-key.toml"],
                    r"unknown-key\.toml: tableau\.movs: unknown key \(did you mean 'moves'\?\)"),
    "bad-enum": (["deal", "{d}/bad-enum.toml", "--seed", "1"],
                 r"bad-enum\.toml: tableau\.spaces: expected one of 'any', 'kings', 'none', "
                 r"'reserve-then-any', got 'queens'"),
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
                      r"argument --seed: expected a number >= 0, got -1"),
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
    "no-seed-or-deal": (["deal", "golf"], r"give exactly one of --seed N or --deal FILE"),
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


# ------------------------------------------------------------ round trips through `patience deal`


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


@pytest.mark.parametrize("name", CARD_NAMES)
def test_deal_json_read_back_is_the_same_deal(name: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("1", "1000"):
        printed = _cli(["deal", name, "--seed", seed, "--json"], capsys)
        p = tmp_path / f"{name}-{seed}.json"
        p.write_text(printed)
        assert json.loads(printed) == deals.to_json(deals.from_seed(load_layout(name), int(seed)))
        assert _cli(["deal", name, "--deal", str(p), "--json"], capsys) == printed
        # and the plain listing `patience deal` prints by default reads back too
        listing = _cli(["deal", name, "--seed", seed], capsys)
        p.write_text(listing)
        assert _cli(["deal", name, "--deal", str(p)], capsys) == listing
        assert _cli(["deal", name, "--deal", str(p), "--json"], capsys) == printed


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
