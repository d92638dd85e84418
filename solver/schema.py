"""Reading a TOML table key by key, for layout files: every value checked, every error one line.

``Table`` wraps one TOML table with the key path it was read from; each getter
checks a value's type and range and raises a ``LayoutError`` naming the file,
the key and what was expected.  ``done`` refuses keys nobody asked for, with the
nearest allowed key as a hint.
"""

from __future__ import annotations

import builtins
import difflib
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import LayoutError
from .files import LAYOUT_LIMIT, read_text, shown


class Table:
    """A TOML table with the key path it was read from, for error messages.

    (Its getters are named after the types they read, so below them ``builtins.int`` and
    friends spell the types themselves.)"""

    def __init__(self, where: str, path: str, data: dict[str, Any]):
        self.where, self.path, self.data = where, path, data
        self.used: set[str] = set()

    def key(self, k: str) -> str:
        k = k if k.isprintable() else repr(k)  # a quoted TOML key may hold a newline
        return f"{self.path}.{k}" if self.path else k

    def fail(self, k: str, expected: str) -> LayoutError:
        if k not in self.data:
            return LayoutError(f"{self.where}: {self.key(k)}: expected {expected}; the key is not given")
        return LayoutError(f"{self.where}: {self.key(k)}: expected {expected}, got {toml_text(self.data[k])}")

    def get(self, k: str, default: Any, expected: str, ok: Callable[[Any], bool]) -> Any:
        self.used.add(k)
        if k not in self.data:
            return default
        value = self.data[k]
        try:
            good = ok(value)
        except (TypeError, ValueError):
            good = False
        if not good:
            raise self.fail(k, expected)
        return value

    def int(self, k: builtins.str, default: builtins.int, lo: builtins.int, hi: builtins.int = 10**6) -> builtins.int:
        return self.get(
            k, default, f"an integer {lo}..{hi}",
            lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi,
        )

    def bool(self, k: builtins.str, default: builtins.bool) -> builtins.bool:
        return self.get(k, default, "true or false", lambda v: isinstance(v, bool))

    def str(self, k: builtins.str, default: builtins.str,
            allowed: tuple[builtins.str, ...] | None = None) -> builtins.str:
        if allowed:
            return self.get(k, default, "one of " + ", ".join(repr(a) for a in allowed),
                            lambda v: v in allowed)
        return self.get(k, default, "a string", lambda v: isinstance(v, str))

    def ints(self, k: builtins.str, default: tuple[builtins.int, ...], lo: builtins.int,
             hi: builtins.int) -> tuple[builtins.int, ...]:
        value = self.get(
            k, list(default), f"a list of integers {lo}..{hi}",
            lambda v: isinstance(v, list)
            and all(isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi for x in v),
        )
        return tuple(value)

    def sub(self, k: builtins.str) -> Table | None:
        self.used.add(k)
        if k not in self.data:
            return None
        if not isinstance(self.data[k], dict):
            raise self.fail(k, "a table")
        return Table(self.where, self.key(k), self.data[k])

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            k = unknown[0]
            near = difflib.get_close_matches(k, sorted(self.used), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            allowed = ", ".join(sorted(self.used))
            raise LayoutError(f"{self.where}: {self.key(k)}: unknown key{hint}; allowed: {allowed}")


def toml_text(value: Any, width: int = 60) -> str:
    """A value as the layout file would write it (``true``, ``'first'``, ``[1, 2]``), cut to
    ``width`` characters: messages speak TOML, never Python (``True``, ``None``)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = repr(value)
    elif isinstance(value, list):
        text = "[" + ", ".join(toml_text(v, width) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k if str(k).isprintable() else repr(k)} = {toml_text(v, width)}"
                               for k, v in value.items()) + "}"
    else:
        text = str(value)
    return text if len(text) <= width else text[:width - 3] + "..."


MAX_NAME = 100  # characters of a layout name: it names files (LAYOUT.sqlite) and every message


def layout_name(t: Table, default: str) -> str:
    """The layout's ``name`` key, or ``default`` (the file's stem): a name that can also name a
    file (``patience batch`` writes ``NAME.sqlite``), so printable, without a path separator,
    at most ``MAX_NAME`` characters."""
    name = t.str("name", default)
    if not name or len(name) > MAX_NAME or not name.isprintable() or any(c in name for c in "/\\"):
        what = "the name key" if "name" in t.data else "the file name"
        raise LayoutError(f"{t.where}: name: expected 1..{MAX_NAME} printable characters without '/' "
                          f"(set by {what}), got {shown(name[:MAX_NAME + 1])}"
                          + ("..." if len(name) > MAX_NAME + 1 else ""))
    return name


def decode(text: str, where: str) -> dict[str, Any]:
    """Parsed TOML, or a ``LayoutError`` naming the file."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LayoutError(f"{where}: malformed TOML: {e}") from None
    except RecursionError:
        raise LayoutError(f"{where}: malformed TOML: nested too deeply") from None


# ------------------------------------------------------------ --set KEY=VALUE

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def setting_value(text: str) -> Any:
    """The value of ``--set KEY=VALUE``: a TOML value (``2``, ``false``, ``"first"``, ``[1, 2]``), or
    else the text itself as a string, so that ``--set access=first`` needs no quotes."""
    try:
        data = tomllib.loads(f"v = {text}")
    except (tomllib.TOMLDecodeError, RecursionError):
        return text
    return data["v"] if set(data) == {"v"} else text


def parse_setting(text: str) -> tuple[tuple[str, ...], Any]:
    """``KEY=VALUE`` as (the key's path, the value); ``LayoutError`` naming the setting if it is not one.
    The key is a dotted path of bare TOML keys (``reserve.capacity``, ``decks``)."""
    key, eq, value = text.partition("=")
    path = tuple(key.strip().split("."))
    if not eq or not all(_BARE_KEY.fullmatch(k) for k in path):
        raise LayoutError(f"--set {text!r}: expected KEY=VALUE with KEY a dotted path of layout keys, "
                          "e.g. --set reserve.capacity=0 or --set decks=1")
    return path, setting_value(value.strip())


def apply_settings(data: dict[str, Any], where: str, settings: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    """A layout file's parsed TOML with ``--set KEY=VALUE`` settings written over it, as if the file
    said so (a missing table is made), and how messages name the result: the file and the settings.
    Every value is then checked by the layout's reader like any other key of the file."""
    if not settings:
        return data, where
    import copy

    out = copy.deepcopy(data)
    for text in settings:
        path, value = parse_setting(text)
        table = out
        for i, k in enumerate(path[:-1]):
            sub = table.setdefault(k, {})
            if not isinstance(sub, dict):
                raise LayoutError(f"--set {text}: {where}: {'.'.join(path[:i + 1])} is not a table "
                                  f"(it is {toml_text(sub, 40)}), so it has no key {path[i + 1]!r}")
            table = sub
        table[path[-1]] = value
    return out, f"{where} with --set {' '.join(settings)}"


def builtin_dir() -> Path:
    """The built-in layouts: the top-level ``layouts/`` folder, installed as ``solver/layouts``.
    (A plain path rather than ``importlib.resources``, whose import alone costs more than a
    whole solve of an easy deal.)"""
    installed = Path(__file__).resolve().parent / "layouts"
    return installed if installed.is_dir() else installed.parent.parent / "layouts"


def builtin_names() -> list[str]:
    return sorted(p.name[:-5] for p in builtin_dir().iterdir() if p.name.endswith(".toml"))


def read_layout_file(name_or_path: str) -> tuple[dict[str, Any], str, str]:
    """A built-in layout by name, or the user's own layout file by path: its parsed TOML,
    how messages name it, and the name it goes by (the file's stem)."""
    p = Path(name_or_path)
    try:
        is_file = p.is_file()
    except OSError as e:  # a name too long for the file system, say
        raise LayoutError(f"{shown(name_or_path)}: cannot read layout file: {e.strerror or e}") from None
    if name_or_path.endswith(".toml") or is_file or "/" in name_or_path:
        text = read_text(name_or_path, LAYOUT_LIMIT, "layout file", "TOML", LayoutError)
        return decode(text, shown(name_or_path)), shown(name_or_path), p.stem
    res = builtin_dir() / f"{name_or_path}.toml"
    if not res.is_file():
        near = difflib.get_close_matches(name_or_path, builtin_names(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(near)}?" if near else "; `patience layouts` lists them"
        raise LayoutError(f"unknown layout {name_or_path!r}{hint}")
    where = f"layouts/{name_or_path}.toml"
    return decode(res.read_text(encoding="utf-8"), where), where, name_or_path
