"""A layout's identity by its rules: a short, stable hash of the compiled layout.

A layout's name comes from its file (or its ``name`` key) and its
``rules_version`` is whatever the file says, so neither proves that two runs
played the same game: an edited copy of ``black-hole.toml`` with ``wrap =
false`` is still called ``black-hole``, rules version 1.  The fingerprint is
what tells them apart: the SHA-256 of the layout's rules written as canonical
JSON, cut to 12 hex digits.  ``patience batch`` stores it with every row and
refuses to add rows of other rules under the same name; ``patience verify``
checks it against the result's.

What counts as the rules: every field the layout dataclass is made from
(``init`` fields, nested dataclasses included), except the labels at the top
(``name``, ``title``, ``description``, ``path``, ``rules_version``).  So a
card layout's fingerprint covers its sections and its ``max_rank`` (a reduced
deck is another game); a peg board's covers the board, the start and the goal.

Stability: a field whose value is its default is left out, so a new layout
option added later with a default that keeps the old rules leaves every old
fingerprint unchanged.  Works for any layout dataclass; knows no family.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

LABELS = frozenset({"name", "title", "description", "path", "rules_version"})
DIGITS = 12  # hex digits: 48 bits, plenty to tell a handful of variants of one name apart


def rules_fingerprint(layout: Any) -> str:
    """The fingerprint of ``layout``'s rules (see the module text)."""
    if not dataclasses.is_dataclass(layout) or isinstance(layout, type):
        raise TypeError(f"expected a layout dataclass instance, got {type(layout).__name__}")
    text = json.dumps(_canonical(layout, LABELS), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGITS]


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def _canonical(x: Any, skip: frozenset[str] = frozenset()) -> Any:
    """``x`` as plain JSON values: dataclasses as objects of their non-default init fields,
    tuples as lists, dict keys as strings."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        out = {}
        for f in dataclasses.fields(x):
            if not f.init or f.name in skip:
                continue
            value = getattr(x, f.name)
            if value == _default(f):
                continue
            out[f.name] = _canonical(value)
        return out
    if x is None or isinstance(x, bool | int | str):
        return x
    if isinstance(x, float):
        return repr(x)  # exact, and never NaN's JSON trouble
    if isinstance(x, tuple | list):
        return [_canonical(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _canonical(v) for k, v in x.items()}
    if isinstance(x, frozenset | set):
        return sorted((_canonical(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True))
    raise TypeError(f"rules_fingerprint: cannot hash a {type(x).__name__} in a layout")
