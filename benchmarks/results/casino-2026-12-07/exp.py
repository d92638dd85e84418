"""Casino's sign searches in this process, for node counts and CPU seconds:

    ROOT=TREE MAXN=N python exp.py WINDOW SEED...

``ROOT``: the work tree whose ``solver`` runs (main's has the compiled ``_casino.CasinoCore``, this
branch's the one-source ``casino.CasinoGame``); ``WINDOW`` ``w`` one search of (-1, 1) (main's
sign), ``m`` (-1, 0) then (0, 1) if not lost (this branch's); ``MAXN`` the node limit (60
million).  Each deal: seed, sign (None at the limit), nodes, CPU seconds; then the totals."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

sys.path.insert(0, os.environ.get("ROOT", "/work/wt-casino"))

from solver import api  # noqa: E402
from solver.engines.minimax import Search, _Stop  # noqa: E402
from solver.families import family_of  # noqa: E402
from solver.limits import Limits  # noqa: E402

try:
    from solver.families.chance._casino import CasinoCore as Game  # type: ignore[import-not-found]
except ImportError:
    from solver.families.chance.casino import CasinoGame as Game


def sign(s: Any, window: str) -> int:
    if window == "w":
        v = s.value(-1, 1)
        return (v > 0) - (v < 0)
    if s.value(-1, 0) <= -1:
        return -1
    return 1 if s.value(0, 1) >= 1 else 0


def main() -> None:
    layout = api.load_layout("casino")
    fam = family_of(layout)
    window, seeds = sys.argv[1], [int(x) for x in sys.argv[2:]]
    total_nodes = total_cpu = 0.0
    for seed in seeds:
        pos = Game(layout.rules, fam.deal_from_seed(layout, seed), "elder")
        s = Search(pos, Limits(max_nodes=int(os.environ.get("MAXN", "60000000"))))
        t = time.process_time()
        got: int | None
        try:
            got = sign(s, window)
        except _Stop:
            got = None
        cpu = time.process_time() - t
        total_nodes += s.nodes
        total_cpu += cpu
        print(seed, got, s.nodes, round(cpu, 2), flush=True)
    print("total", window, int(total_nodes), round(total_cpu, 2))


if __name__ == "__main__":
    main()
