"""The ``patience`` command line.

Each module in ``solver/commands/`` adds its subcommands through
``register(subparsers)``; a subcommand's handler returns the exit code.
Bad input of any kind is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from . import commands
from .errors import EngineDisagreement, InputError, UnsupportedError
from .result import EXIT_BAD_INPUT, EXIT_DISAGREEMENT


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


class _Version(argparse.Action):
    """``--version``: the package's version and which search core is built."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object):
        super().__init__(option_strings, dest, nargs=0, help="print the version and which search core runs")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from .engines.core import describe

        print(f"patience {version()}\n{describe()}")
        parser.exit(0)


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("patience-solver")
    except PackageNotFoundError:
        return "(not installed: run from a source tree)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="patience", description="Decide whether a deal of a patience can be won.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{info.name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except (InputError, UnsupportedError) as e:
        print(f"patience: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except EngineDisagreement as e:
        print(f"patience: error: {e}", file=sys.stderr)
        return EXIT_DISAGREEMENT
    except KeyboardInterrupt:
        print("patience: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
