"""Run a benchmark preset: ``python -m benchmarks PRESET [patience bench arguments]``.

``python -m benchmarks`` lists the presets and the command each one runs;
``python -m benchmarks PRESET --dry-run [ARGS]`` prints the command without running it.
Every preset is a ``patience bench`` command (see ``presets.py`` and README.md here):
ARGS replace the preset's own options and layouts.  Run benchmarks alone on the machine.
"""

from __future__ import annotations

import shlex
import sys

from benchmarks.presets import PRESETS, bench_command, describe


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        for preset in PRESETS.values():
            print(describe(preset), end="\n\n")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in PRESETS:
        print(f"benchmarks: unknown preset {name!r}; presets: {', '.join(PRESETS)}", file=sys.stderr)
        return 2
    dry = "--dry-run" in rest
    rest = [a for a in rest if a != "--dry-run"]
    from solver.cli import main as patience
    from solver.errors import PatienceError

    try:
        words = bench_command(PRESETS[name], rest, write=not dry)
    except PatienceError as e:
        print(f"benchmarks: error: {e}", file=sys.stderr)
        return 2
    print(shlex.join(["patience", "bench", *words]), file=sys.stderr if not dry else sys.stdout)
    if dry:
        return 0
    return patience(["bench", *words])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
