"""Reference deal sets: named lists of seeds whose verdicts are known from outside sources.

A set is one TOML file in the top-level ``seeds/`` folder (``seeds/README.md`` is the
format); ``load_set("freecell-unwinnable")`` reads ``seeds/freecell-unwinnable.toml``,
and a path to any ``.toml`` file in the same format works too.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InputError
from .schema import toml_text

SEEDS_DIR = Path(__file__).resolve().parent.parent / "seeds"
VERDICTS = ("won", "lost")
_TOP_KEYS = ("title", "description", "layout", "source", "deal")
_DEAL_KEYS = ("layout", "seed", "verdict", "source", "measured")


class SeedSetError(InputError):
    """A seed set file that is missing, malformed or breaks the format."""


@dataclass(frozen=True)
class SeedEntry:
    layout: str
    seed: int
    verdict: str  # "won" or "lost"
    source: str


def set_names() -> list[str]:
    """The names of the sets in ``seeds/``."""
    if not SEEDS_DIR.is_dir():
        return []
    return sorted(p.stem for p in SEEDS_DIR.glob("*.toml"))


def set_path(name: str) -> Path:
    """The file of set ``name``, or ``name`` itself when it is a path to a ``.toml`` file."""
    if name.endswith(".toml"):
        return Path(name)
    p = SEEDS_DIR / f"{name}.toml"
    if not p.is_file():
        known = ", ".join(set_names()) or "none"
        raise SeedSetError(f"unknown seed set {name!r}; the sets in {SEEDS_DIR}: {known}")
    return p


def load_set(name: str) -> list[SeedEntry]:
    """Every entry of a seed set, in file order."""
    path = set_path(name)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise SeedSetError(f"{path}: cannot read seed set: {e.strerror}") from None
    except UnicodeDecodeError:
        raise SeedSetError(f"{path}: expected a UTF-8 text file (TOML)") from None
    except tomllib.TOMLDecodeError as e:
        raise SeedSetError(f"{path}: malformed TOML: {e}") from None
    return parse_set(data, str(path))


def parse_set(data: dict[str, Any], where: str) -> list[SeedEntry]:
    """Check a seed set's TOML tables; ``where`` names the file in messages."""
    _known_keys(data, _TOP_KEYS, where, "")
    for k in ("title", "description"):
        if k in data:
            _string(data, k, where, "", default=None)
    layout = _string(data, "layout", where, "", default="") or None
    source = _string(data, "source", where, "", default="") or None
    deals = data.get("deal")
    if not isinstance(deals, list) or not deals or not all(isinstance(d, dict) for d in deals):
        raise SeedSetError(f"{where}: deal: expected one or more [[deal]] tables")
    out: list[SeedEntry] = []
    seen: dict[tuple[str, int], int] = {}
    for i, d in enumerate(deals):
        key = f"deal[{i}]."
        _known_keys(d, _DEAL_KEYS, where, key)
        entry_layout = _string(d, "layout", where, key, default=layout)
        entry_source = _string(d, "source", where, key, default=source)
        if not isinstance(d.get("measured", {}), dict):
            raise SeedSetError(f"{where}: {key}measured: expected a table of measurements")
        seed = d.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 1:
            raise SeedSetError(f"{where}: {key}seed: expected an integer >= 1, got {toml_text(seed)}")
        verdict = d.get("verdict")
        if verdict not in VERDICTS:
            allowed = ", ".join(repr(v) for v in VERDICTS)
            raise SeedSetError(f"{where}: {key}verdict: expected one of {allowed}, got {toml_text(verdict)}")
        if (entry_layout, seed) in seen:
            raise SeedSetError(f"{where}: {key}seed: {entry_layout} seed {seed} is listed twice "
                               f"(also deal[{seen[entry_layout, seed]}])")
        seen[entry_layout, seed] = i
        out.append(SeedEntry(entry_layout, seed, verdict, entry_source))
    return out


def _known_keys(table: dict[str, Any], allowed: tuple[str, ...], where: str, prefix: str) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise SeedSetError(f"{where}: {prefix}{unknown[0]}: unknown key; allowed: {', '.join(allowed)}")


def _string(table: dict[str, Any], key: str, where: str, prefix: str, default: str | None) -> str:
    """``table[key]``, a non-empty string; ``default`` when the key is absent (required if None)."""
    if key not in table:
        if default is not None:
            return default
        raise SeedSetError(f"{where}: {prefix}{key}: missing; give it in each [[deal]] or once at the top")
    value = table[key]
    if not isinstance(value, str) or not value.strip():
        raise SeedSetError(f"{where}: {prefix}{key}: expected a non-empty string, got {toml_text(value)}")
    return value
