"""Random walks over Casino's games, every position hashed (side, key, state, moves in order,
bounds, banked points, final score), to compare two builds:

    python walk.py TREE N

``TREE``'s ``solver`` runs (main's compiled ``_casino.CasinoCore``, or this branch's
``casino.CasinoGame``); N shuffles, both seats, and N random small games of random rules.  Prints
the class's module, the positions walked and the hash."""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

sys.path.insert(0, sys.argv[1])

from solver import api, cards  # noqa: E402
from solver.families import family_of  # noqa: E402
from solver.families.chance.rules import Casino  # noqa: E402

try:
    from solver.families.chance._casino import CasinoCore as Game  # type: ignore[import-not-found]
except ImportError:
    from solver.families.chance.casino import CasinoGame as Game

UNIVERSE = [c for c in range(52) if cards.rank(c) in (1, 2, 3, 4, 5, 10, 11, 13)]


def walk(pos: Any, rng: random.Random, h: Any) -> int:
    n = 0
    while True:
        n += 1
        side = pos.side()
        rec = [side, pos.key(), pos.state()]
        if side == 0:
            rec.append(pos.score())
            h.update(repr(rec).encode())
            return n
        moves = pos.legal_moves()
        rec += [moves, pos.bounds(), pos.banked()]
        h.update(repr(rec).encode())
        pos.push(rng.choice(moves))


def main() -> None:
    h = hashlib.sha256()
    layout = api.load_layout("casino")
    fam = family_of(layout)
    n = 0
    for seed in range(1, int(sys.argv[2]) + 1):
        rng = random.Random(seed)
        deal = fam.deal_from_seed(layout, seed)
        for seat in ("elder", "dealer"):
            n += walk(Game(layout.rules, deal, seat), rng, h)
        hand = rng.choice([1, 2, 3, 4])
        table = rng.randint(0, 4)
        deals = rng.randint(1, max(1, (len(UNIVERSE) - table) // (2 * hand)))
        pack = tuple(rng.sample(UNIVERSE, table + 2 * hand * deals))
        rules = Casino(hand_size=hand, table_cards=table, court_combine=rng.random() < .5, sweeps=rng.random() < .7,
                       last_takes_rest=rng.random() < .7, cards_points=rng.choice([0, 3]),
                       spades_points=rng.choice([0, 1, 2]))
        n += walk(Game(rules, pack, rng.choice(["elder", "dealer"])), rng, h)
    print(Game.__module__, n, h.hexdigest())


if __name__ == "__main__":
    main()
