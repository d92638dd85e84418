"""Reading the user's text files: bounded in size, UTF-8 with or without a byte-order mark.

Every input file (a layout, a deal, a position, a result to verify, moves) is
read through ``read_text`` (``-``: standard input), which reads at most
``limit + 1`` bytes: a path that names ``/dev/zero``, a symlink to it, or a log
file given by mistake is refused at once instead of filling the memory.  The limits are far above any real file of
its kind (a layout is a few KiB; a deal of two packs a few hundred bytes; a
result with a long solution a few hundred KiB).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .errors import InputError

LAYOUT_LIMIT = 1 << 20  # bytes: 1 MiB
DEAL_LIMIT = 4 << 20  # 4 MiB
RESULT_LIMIT = 64 << 20  # 64 MiB


STDIN = "-"  # the path that names standard input


def shown(path: str) -> str:
    """A path as messages print it: quoted when it holds a newline or another unprintable character,
    so that a message stays one line; standard input as ``<stdin>``."""
    if path == STDIN:
        return "<stdin>"
    return path if path.isprintable() else repr(path)


def size_text(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def parse_json(text: str, where: str, error: type[InputError] = InputError) -> Any:
    """Parsed JSON, or ``error`` naming ``where`` (and the line) when it is malformed."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise error(f"{where}:{e.lineno}: malformed JSON: {e.msg}") from None
    except RecursionError:
        raise error(f"{where}: malformed JSON: nested too deeply") from None


def read_text(path: str, limit: int, what: str, expected: str, error: type[InputError] = InputError) -> str:
    """The text of the file at ``path``, which must hold at most ``limit`` bytes of UTF-8
    (a leading byte-order mark is dropped); ``-`` reads standard input.  Anything else raises
    ``error`` naming the file, ``what`` it is (e.g. "layout file") and what was ``expected`` (e.g. "TOML"),
    an empty file (or one of blanks alone) among them."""
    try:
        if path == STDIN:
            if sys.stdin is None:
                raise error(f"<stdin>: cannot read {what}: standard input is closed")
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as e:
        raise error(f"{shown(path)}: cannot read {what}: {e.strerror or e}") from None
    if len(data) > limit:
        raise error(f"{shown(path)}: {what} larger than {size_text(limit)}; expected {expected}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error(f"{shown(path)}: expected a UTF-8 text file ({expected})") from None
    if not text.strip():
        raise error(f"{shown(path)}: the {what} is empty; expected {expected}")
    return text


def check_writable(path: str, option: str, suffix: str = "") -> None:
    """``InputError`` (naming ``option``) unless a file can be made at ``path`` (and at ``path +
    suffix``, a file written beside it): its folder exists and takes files, its name fits the file
    system, and it is not a folder.  Checked before the work; leaves nothing behind."""
    import os
    import tempfile

    where = shown(path)
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"{option} {where}: is a folder; expected a file name")
    if not os.path.isdir(folder):
        raise InputError(f"{option} {where}: folder {shown(folder)} does not exist")
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if len(os.fsencode(os.path.basename(path) + suffix)) > longest:
        raise InputError(f"{option} {where[:80]}...: the file name is longer than this file system allows "
                         f"({longest} bytes" + (f", with {suffix!r} added" if suffix else "") + ")")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".patience-probe-"):
            pass
    except OSError as e:
        raise InputError(f"{option} {where}: cannot write in {shown(folder)}: {e.strerror or e}") from None


def json_text(value: Any, width: int = 60) -> str:
    """A value read from a JSON file as JSON writes it (``true``, ``null``, ``{"card": "AS"}``), cut
    to ``width`` characters: messages speak the file's language, never Python's (``True``, ``None``)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = str(value)
    return _printable(text if len(text) <= width else text[:width - 3] + "...")


def _printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (``\u2028``): a message stays one line."""
    return text if text.isprintable() else "".join(c if c.isprintable() else c.encode("unicode_escape").decode()
                                                    for c in text)
