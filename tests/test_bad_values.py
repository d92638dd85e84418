"""Every numeric, size and seed option of every command, fed values a user might mistype (huge,
negative, not a number, infinite, empty): the command either runs or refuses in one line on stderr
(``patience: error: ...``, exit 2), never a traceback or an internal error (exit 70).

The options are read from the parser, so an option added later is covered.  Each command runs on
a deal decided at once (golf #1, lost by a bound at the deal) or with small limits, so that any
value it accepts costs little; ``bench`` and ``play`` are only parsed (a run writes a folder of
tables; serves a page until Ctrl-C).  ``batch`` solves its deals on threads of this process here,
not on spawned worker processes (a spawn starts Python and imports the solver for each accepted
value: 7.6 s -> 5.5 s for this test; the pool of processes has its own tests in
``tests/test_batch.py``)."""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import batch
from solver.cli import build_parser, main

# The start of each command's line, with limits that keep any accepted value cheap (an option
# given again later on the line overrides these).
BASE = {
    "solve": ["solve", "golf", "--seed", "1", "--engine", "dfs", "--max-nodes", "2000", "--timeout", "1"],
    "hint": ["hint", "golf", "--seed", "1", "--max-nodes", "2000", "--timeout", "1"],
    "analyse": ["analyse", "golf", "--seed", "1", "--moves", "{moves}", "--max-nodes", "2000", "--timeout", "1"],
    "batch": ["batch", "golf", "--seeds", "1-2", "--jobs", "1", "--max-nodes", "2000", "--timeout", "1",
              "--db", "{db}"],
    "graph": ["graph", "golf", "--seed", "1", "--max-nodes", "50", "--timeout", "1"],
    "deal": ["deal", "golf", "--seed", "1"],
    "show": ["show", "golf"],
    "odds": ["odds", "lansquenet", "--timeout", "1"],
    "bench": ["bench", "golf@9", "--seeds", "1", "--engines", "dfs", "--no-plots", "--out", "{dir}"],
    "play": ["play", "golf", "--seed", "1", "--no-browser"],
}
PARSED_ONLY = {"bench", "play"}  # a run writes a folder of tables; a run serves a page until Ctrl-C


def _options() -> list[tuple[str, str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(command, a.option_strings[0]) for command, p in sub.choices.items() for a in p._actions
            if a.option_strings and a.type not in (None, str)]


OPTIONS = _options()
VALUES = st.one_of(
    st.sampled_from(["", " ", "x", "-1", "-0", "0", "1", "2", "1.5", "-1.5", "1e999", "-1e999", "nan", "inf", "-inf",
                     "99999999999999999999999999", "-99999999999999999999999999", "0x10", "1_000", "１",
                     "100G", "1T", "1e3G", "0.5K", "5M", "2**31", "2147483648", "9223372036854775808", "none",
                     "1,5", "--1"]),
    st.integers(-10**30, 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr))
_names = itertools.count()


@contextmanager
def _threads(jobs: int) -> Iterator[ThreadPoolExecutor]:
    """``batch.process_pool``'s stand-in: the same number of workers, as threads."""
    with ThreadPoolExecutor(jobs) as pool:
        yield pool


@pytest.fixture(scope="module", autouse=True)
def _batch_on_threads() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "process_pool", _threads)
        yield


def test_every_command_with_such_options_is_covered():
    assert {command for command, _ in OPTIONS} <= set(BASE)
    assert ("solve", "--max-nodes") in OPTIONS and ("odds", "--sim-seed") in OPTIONS


# capsys is read (and emptied) in every example
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(OPTIONS), VALUES)
def test_a_bad_value_is_one_line_and_exit_2(tmp_path_factory, capsys, option, value):
    command, flag = option
    where = tmp_path_factory.mktemp("bad")
    (where / "moves.json").write_text("[]")
    argv = [a.format(moves=where / "moves.json", db=where / f"{next(_names)}.sqlite", dir=where / "run")
            for a in BASE[command]] + [f"{flag}={value}"]  # FLAG=VALUE: a value may start with '-'
    if command in PARSED_ONLY:
        try:
            build_parser().parse_args(argv)
            return
        except SystemExit as e:
            code = e.code
    else:
        try:
            code = main(argv)
        except SystemExit as e:  # argparse refused it
            code = e.code
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert code in (0, 1, 2, 3, 5), (argv, code, err)
    if code == 2:
        lines = err.splitlines()
        assert lines and lines[-1].startswith("patience: error: "), (argv, err)
        assert len(lines) == 1 or all(line.startswith("patience: --") for line in lines[:-1]), (argv, err)


@pytest.mark.parametrize("argv, words", [
    (["solve", "golf", "--seed", "1", "--max-nodes", "99999999999999999999999999"], "expected a number 0..10"),
    (["hint", "golf", "--seed", "1", "--max-nodes", "99999999999999999999999999"], "expected a number 0..10"),
    (["deal", "golf", "--seed", "-1"], "seed -1: expected an integer 1..99999999999999999999 for layout 'golf'"),
    (["deal", "golf", "--seed", "0"], "seed 0: expected an integer 1..99999999999999999999 for layout 'golf'"),
    (["odds", "quinze", "--seed", "3"], "--sim-seed"),
])
def test_the_inputs_of_the_issue_are_one_line(argv, words, capsys):
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err and err.startswith("patience: error: "), err
