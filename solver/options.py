"""Options shared by several subcommands, and their checks."""

from __future__ import annotations

import argparse
import math
from typing import Any

from . import api
from .errors import InputError
from .families import AnyLayout, file_reader, file_suffixes
from .files import check_writable
from .limits import MAX_NODES, MAX_SECONDS


def nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def node_count(text: str) -> int:
    """A node limit: 0..``limits.MAX_NODES`` (more would overflow the compiled cores' counters; no
    search comes near it)."""
    value = nonnegative_int(text)
    if value > MAX_NODES:
        raise argparse.ArgumentTypeError(f"expected a number 0..{MAX_NODES} (10^18), got {text}")
    return value


def whole_number(text: str) -> int:
    """A whole number of any sign: ``--seed``, whose range is the layout's to say (``SeedError.outside``)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def random_seed(text: str) -> int:
    """A random seed for CP-SAT (a 32-bit signed integer there) and the DFS's restarts."""
    value = nonnegative_int(text)
    if value >= 2**31:
        raise argparse.ArgumentTypeError(f"expected a number 0..{2**31 - 1}, got {value}")
    return value


MAX_WORKERS = 512  # CP-SAT search workers: each is a thread with its own copy of the model


def workers(text: str) -> int:
    value = nonnegative_int(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected a number 0..{MAX_WORKERS}, got {value}")
    return value


def positive_workers(text: str) -> int:
    value = workers(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected a number >= 1, got 0")
    return value


def positive_int(text: str) -> int:
    value = nonnegative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected a number >= 1, got 0")
    return value


# The one default time limit of every command that searches or computes without a known end:
# `solve`, `hint`, `analyse` (the whole analysis), `batch` (each deal), `graph` and `odds` stop by
# themselves after a minute, answering unknown (docs/engines-and-proofs.md, "Verdicts, exit codes and
# limits"); `--timeout 0`: no limit.
DEFAULT_TIMEOUT = 60.0


def add_timeout(p: argparse.ArgumentParser, what: str, default: float = DEFAULT_TIMEOUT,
                then: str = "answering unknown") -> None:
    """``--timeout SECONDS``: ``what`` stops after that long (``then``: what becomes of the answer)."""
    p.add_argument("--timeout", type=seconds_or_none, default=default, metavar="SECONDS",
                   help=f"stop {what} after this many seconds, {then} (default {default:g}; 0: no time limit)")


def seconds_or_none(text: str) -> float | None:
    """A time limit: a number of seconds > 0, or 0 (or ``none``) for no limit."""
    if text.strip().lower() in ("0", "none"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds (0: no limit), got {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected a number of seconds 0..{MAX_SECONDS} (0: no limit), got {text}")
    return value or None


MIN_MEMORY = 1 << 20  # below this a table bound is a mistake: a search process alone uses far more
MAX_MEMORY = 1 << 60
_UNITS = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def memory_size(text: str) -> int:
    """Bytes from ``500M``, ``2G``, ``100000K`` or a plain number of bytes, at least 1M."""
    t = text.strip().upper().removesuffix("B")
    mult = _UNITS.get(t[-1:], 1)
    try:
        number = float(t[:-1] if t[-1:] in _UNITS else t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 500M or 2G, got {text!r}") from None
    if not math.isfinite(number) or number * mult > MAX_MEMORY:
        raise argparse.ArgumentTypeError(f"expected a size such as 500M or 2G, got {text!r}")
    value = int(number * mult)
    if value < MIN_MEMORY:
        raise argparse.ArgumentTypeError(f"expected at least 1M (the table needs room for thousands of "
                                         f"positions; the process itself uses more), got {text!r}")
    return value


def physical_memory() -> int | None:
    """This machine's memory in bytes, where the system says."""
    import os

    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def fit_memory(size: int | None) -> int | None:
    """``--max-memory``, at most this machine's memory (a table bound beyond it cannot be allocated:
    Casino's fixed table would fail at once, a growing one only when the machine is out of
    memory); a size cut down is said in one line on stderr, as ``--jobs`` beyond the cores is."""
    import sys

    most = physical_memory()
    if size is None or most is None or size <= most:
        return size
    print(f"patience: --max-memory {size_text(size)}: more than this machine's memory; using "
          f"{size_text(most)}", file=sys.stderr)
    return most


def size_text(n: int) -> str:
    """Bytes as ``--max-memory`` reads them: ``1.5G``, ``500M``."""
    for unit in "TGMK":
        if n >= _UNITS[unit]:
            return f"{n / _UNITS[unit]:.4g}{unit}"
    return str(n)


def add_layout(p: argparse.ArgumentParser) -> None:
    p.add_argument("layout", nargs="?", help="a layout name (see `patience layouts`), a path to a layout .toml "
                                             "file, or a Solvitaire rules .json file")
    p.add_argument("--rules", metavar="FILE.json", help="Solvitaire's game rules (its --custom-rules file) "
                                                        "instead of LAYOUT: mapped onto the layout schema")
    p.add_argument("--max-ranks", type=positive_int, metavar="R",
                   help="a reduced deck: only ranks A..R of each suit (R = 1..13)")
    add_settings(p, rules=True)


def add_settings(p: argparse.ArgumentParser, rules: bool = False, example: str = "--set reserve.capacity=0") -> None:
    """``--set KEY=VALUE``; ``rules``: the command also takes ``--rules`` (say so)."""
    of = "the layout file (or of the layout --rules maps to)" if rules else "the layout file"
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="settings",
                   help=f"change a key of {of}, checked like the file (repeatable), e.g. {example}, --set decks=1")


def recorded_layout(args: argparse.Namespace, name: str, max_rank: int | None) -> str | AnyLayout | None:
    """The layout a recorded result or analysis is checked against: ``--layout`` (default: ``name``,
    the one it records), changed by ``--set`` as when it was made (the settings change the rules, and
    so the fingerprint); None: the one it names, as it is."""
    if not args.settings:
        return args.layout
    return api.load_layout(args.layout or name, max_rank, args.settings)


def add_deal_source(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()  # one is required, unless the layout has no shuffle (api.make_deal)
    g.add_argument("--seed", type=whole_number, metavar="N", help="the deal numbered N (its range: the layout's)")
    g.add_argument("--deal", metavar="FILE",
                   help="read the deal: JSON, the listing `patience deal` prints, or the fc-solve board format "
                        "(-: standard input)")
    g.add_argument("--position", metavar="FILE",
                   help="start from a position part-way through a game: the listing `patience deal --moves` "
                        "prints, or its JSON (-: standard input; docs/positions.md)")


def add_moves(p: argparse.ArgumentParser, required: bool, what: str) -> None:
    p.add_argument("--moves", metavar="FILE", required=required,
                   help=f"{what}: a JSON list of moves in the result contract's shape, or a result JSON "
                        "(its solution) (-: standard input)")


def layout_arg(args: argparse.Namespace) -> str:
    """The layout the command names: LAYOUT, or the file of ``--rules`` (exactly one of them)."""
    rules = getattr(args, "rules", None)
    if (args.layout is None) == (rules is None):
        raise InputError("give a LAYOUT or --rules FILE.json (one of them)")
    if rules is not None:
        if file_reader(rules) is None:
            raise InputError(f"--rules {rules!r}: expected a Solvitaire rules file ending in "
                             + " or ".join(file_suffixes()))
        return str(rules)
    return str(args.layout)


def load(args: argparse.Namespace) -> tuple[AnyLayout, Any]:
    """The layout and the deal (or position) that the layout/deal options name."""
    layout = api.load_layout(layout_arg(args), getattr(args, "max_ranks", None), getattr(args, "settings", ()))
    deal = None
    if hasattr(args, "seed"):
        stdin = [f"--{k}" for k in ("deal", "position", "moves") if getattr(args, k, None) == "-"]
        if len(stdin) > 1:
            raise InputError(f"{' and '.join(stdin)}: standard input can be read once; give files for the others")
        deal = api.make_deal(layout, args.seed, args.deal, args.position)
    return layout, deal


def add_out(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--out", metavar="FILE", help=f"write {what} to FILE instead of printing it")
    p.set_defaults(check_out=True)  # the command line checks that FILE can be written before the work


def check_out(args: argparse.Namespace) -> None:
    """``--out FILE`` of ``add_out``: bad input at once, not after the work, when FILE cannot be written."""
    if getattr(args, "check_out", False) and args.out is not None:
        check_writable(args.out, "--out")


def emit(text: str, out: str | None) -> None:
    """Print ``text``, or write it to ``out`` whole or not at all: a temporary file beside it,
    renamed over it once written, so a failed write never leaves half a file."""
    text = text if text.endswith("\n") else text + "\n"
    if out is None:
        print(text, end="")
        return
    import os
    import tempfile

    folder = os.path.dirname(os.path.abspath(out))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".patience-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, out)
    except OSError as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise InputError(f"{out}: cannot write: {e.strerror}") from None


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask
