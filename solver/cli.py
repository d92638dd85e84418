"""The ``patience`` command line.

Each module in ``solver/commands/`` adds its subcommands through
``register(subparsers)``; a subcommand's handler returns the exit code.

Every way a run can fail has its own exit code, none of them a verdict's
(0 won, 1 lost, 3 unknown, 4 the engines disagree):

- 2, bad input: a layout, deal, option or file the user got wrong, output that
  cannot be written (a full disk, a closed pipe excepted), a database that
  cannot be written.  One line on stderr naming the file, line or key.
- 70, the run failed: a bug (an exception nobody expected, a win that does not
  replay) or a worker process that died.  One line on stderr; the traceback
  only with ``--debug``.
- 130, interrupted (Ctrl-C); 141, stdout was closed early (``| head``), as a
  process killed by SIGPIPE reports it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import traceback
from typing import Any, TextIO

from . import commands
from .errors import EngineDisagreement, InputError, OutputError, UnsupportedError, VerificationFailed
from .options import check_out
from .result import EXIT_BAD_INPUT, EXIT_DISAGREEMENT, EXIT_INTERNAL

EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump, the prefix of every other error
        self.exit(EXIT_BAD_INPUT, f"patience: error: {_one_line(message)}\n")


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
    parser = _Parser(prog="patience", description="Decide whether a deal of a patience can be won.",
                     epilog="`patience COMMAND --help` tells more about each command.")
    parser.add_argument("--debug", action="store_true",
                        help="on an internal error, print the traceback (anywhere on the line)")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{info.name}").register(sub)
    for p in sub.choices.values():  # --debug after the command too; absent there, it keeps the top's value
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


class _CheckedOutput:
    """stdout, with a failed write (a full disk, an I/O error) raised as ``OutputError``:
    bad output is reported like bad input, never as a crash or a verdict."""

    def __init__(self, stream: TextIO | None):
        self._stream = stream  # None: the process was started with stdout closed

    def write(self, text: str) -> int:
        if self._stream is None:
            raise OutputError("cannot write the output: standard output is closed")
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(f"cannot write the output: {e.strerror or e}") from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(f"cannot write the output: {e.strerror or e}") from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_stdout(stream: TextIO | None) -> None:
    """After stdout failed, point it at /dev/null so that the interpreter's last flush of
    what is still buffered cannot fail again (and print a traceback, or change the exit code)."""
    if stream is None:
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return  # not a real file (a test's capture): nothing is flushed at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if sys.stderr is None:  # started with stderr closed: messages go nowhere, the exit code still tells
        sys.stderr = open(os.devnull, "w")  # for the life of the process
    parser = build_parser()
    if not argv:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    args = parser.parse_args(argv)
    real_stdout = sys.stdout
    sys.stdout = _CheckedOutput(real_stdout)
    try:
        check_out(args)
        code: int = args.handler(args)
        sys.stdout.flush()
        return code
    except (InputError, UnsupportedError) as e:
        if isinstance(e, OutputError):
            _drop_stdout(real_stdout)
        return _fail(EXIT_BAD_INPUT, str(e))
    except EngineDisagreement as e:
        return _fail(EXIT_DISAGREEMENT, str(e))
    except KeyboardInterrupt:
        _say("patience: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _drop_stdout(real_stdout)
        return EXIT_BROKEN_PIPE
    except VerificationFailed as e:
        if args.debug:
            traceback.print_exc()
        return _fail(EXIT_INTERNAL, f"internal error: {e} (a bug: please report it)")
    except Exception as e:  # the one place every other failure is named
        if args.debug:
            traceback.print_exc()
        hint = "" if args.debug else "; run again with --debug for the traceback"
        return _fail(EXIT_INTERNAL, f"internal error: {type(e).__name__}: {_one_line(str(e))[:500]}{hint}")
    finally:
        sys.stdout = real_stdout


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())


def _fail(code: int, message: str) -> int:
    _say(f"patience: error: {_one_line(message)}" if code != EXIT_INTERNAL else f"patience: {message}")
    return code


def _say(line: str) -> None:
    """One line on stderr; if even stderr cannot be written, the exit code alone tells."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
