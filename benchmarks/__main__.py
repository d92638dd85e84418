"""Run benchmark suites: ``python -m benchmarks SUITE [options]``; ``python -m benchmarks`` lists them.

Each suite is a module here with ``run(argv)``; results go to ``benchmarks/results/``.
Run benchmarks alone on the machine: a second busy core distorts timings up to 3x.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOT_SUITES = {"common", "__main__"}


def suites() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name not in NOT_SUITES)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        print("suites:", ", ".join(suites()))
        return 0
    name, rest = argv[0], argv[1:]
    if name not in suites():
        print(f"benchmarks: unknown suite {name!r}; suites: {', '.join(suites())}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"benchmarks.{name}")
    result = module.run(rest)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
