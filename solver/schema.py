"""Reading a TOML table key by key, for layout files: every value checked, every error one line.

``Table`` wraps one TOML table with the key path it was read from; each getter
checks a value's type and range and raises a ``LayoutError`` naming the file,
the key and what was expected.  ``done`` refuses keys nobody asked for, with the
nearest allowed key as a hint.
"""

from __future__ import annotations

import builtins
import difflib
import tomllib
from collections.abc import Callable
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from .errors import LayoutError


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
        got = self.data.get(k)
        return LayoutError(f"{self.where}: {self.key(k)}: expected {expected}, got {got!r}")

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


def decode(text: str, where: str) -> dict[str, Any]:
    """Parsed TOML, or a ``LayoutError`` naming the file."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LayoutError(f"{where}: malformed TOML: {e}") from None
    except RecursionError:
        raise LayoutError(f"{where}: malformed TOML: nested too deeply") from None


def builtin_dir() -> Traversable:
    """The built-in layouts: the top-level ``layouts/`` folder, installed as ``solver.layouts``."""
    try:
        return resources.files("solver.layouts")
    except ModuleNotFoundError:  # running from a source checkout without installing
        return Path(__file__).resolve().parent.parent / "layouts"


def builtin_names() -> list[str]:
    return sorted(p.name[:-5] for p in builtin_dir().iterdir() if p.name.endswith(".toml"))


def read_layout_file(name_or_path: str) -> tuple[dict[str, Any], str, str]:
    """A built-in layout by name, or the user's own layout file by path: its parsed TOML,
    how messages name it, and the name it goes by (the file's stem)."""
    p = Path(name_or_path)
    if name_or_path.endswith(".toml") or p.is_file():
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise LayoutError(f"{name_or_path}: cannot read layout file: {e.strerror}") from None
        except UnicodeDecodeError:
            raise LayoutError(f"{name_or_path}: expected a UTF-8 text file (TOML)") from None
        return decode(text, name_or_path), name_or_path, p.stem
    res = builtin_dir() / f"{name_or_path}.toml"
    if not res.is_file():
        near = difflib.get_close_matches(name_or_path, builtin_names(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(near)}?" if near else "; `patience layouts` lists them"
        raise LayoutError(f"unknown layout {name_or_path!r}{hint}")
    where = f"layouts/{name_or_path}.toml"
    return decode(res.read_text(encoding="utf-8"), where), where, name_or_path
