"""A live status line on stderr for long commands (the face layer): only on a terminal.

``LiveLine`` is a ``progress`` callback for the DFS (``solver.engines.dfs``) and the
state-graph exploration: each call rewrites one line in place (``\\r``), and
``clear`` wipes it before the result is printed, so that stdout and stderr carry
no trace of it.  When stderr is not a terminal it prints nothing at all: logs
and scripts see only the result.
"""

from __future__ import annotations

import shutil
import sys
from types import TracebackType
from typing import TextIO

# How each statistic is shown, in the order of the line; keys not listed are shown as "key value".
_UNITS = {"seconds": "{:.1f} s", "nodes": "{:,} nodes", "nodes_per_second": "{:,.0f} nodes/s",
          "states": "{:,} states", "expanded": "{:,} expanded", "depth": "depth {:,}", "table": "table {:,}"}


class LiveLine:
    """One line of stderr rewritten in place; a no-op unless the stream is a terminal."""

    def __init__(self, head: str = "", stream: TextIO | None = None, enabled: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.head = head
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.shown = False

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        width = max(20, shutil.get_terminal_size().columns - 1)
        line = f"{self.head}{text}"
        self.stream.write("\r" + line[:width] + "\x1b[K")
        self.stream.flush()
        self.shown = True

    def __call__(self, stats: dict[str, float | int]) -> None:
        self.show("  ".join(format_stat(k, v) for k, v in stats.items()))

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

    def __enter__(self) -> LiveLine:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.clear()


def format_stat(key: str, value: float | int) -> str:
    fmt = _UNITS.get(key)
    return fmt.format(value) if fmt else f"{key} {value:,}"
