"""The raw speed of the engine core, apart from the search ("perft", as chess engines say).

From the start positions of fixed seeds, a fixed number of random playouts is walked
with a seeded random generator: at each position the legal moves are generated and
the transposition key computed, one move is drawn and pushed, until no move is left,
the game is won or a depth cap is hit; then every move is popped back.  The counts
are the same on every machine (the same positions and moves); only the seconds differ.
Each call is timed on its own (``perf_counter`` around it, about 0.1 microsecond).
"""

from __future__ import annotations

import random
import time
from typing import Any

PERFT_SEEDS = (1, 2, 3)


def perft(layout: Any, seeds: tuple[int, ...] = PERFT_SEEDS, playouts: int = 100,
          max_depth: int = 1000) -> dict[str, Any]:
    """Counts and rates of move generation, push/pop and keys over random playouts."""
    from .. import api
    from ..families import family_of

    clock = time.perf_counter
    family = family_of(layout)
    starts = list(seeds) if family.shuffled else [None]
    gen_calls = generated = pushes = pops = keys = 0
    gen_t = push_t = pop_t = key_t = 0.0
    longest = 0
    for seed in starts:
        pos = family.start_position(layout, api.make_deal(layout, seed))
        rng = random.Random(f"perft:{layout.name}:{family.max_rank(layout) or 13}:{seed}")
        for _ in range(playouts):
            depth = 0
            while True:
                t = clock()
                moves = pos.legal_moves()
                gen_t += clock() - t
                t = clock()
                pos.key()
                key_t += clock() - t
                gen_calls += 1
                keys += 1
                generated += len(moves)
                if not moves or depth >= max_depth or pos.is_won():
                    break
                move = moves[rng.randrange(len(moves))]
                t = clock()
                pos.push(move)
                push_t += clock() - t
                pushes += 1
                depth += 1
            longest = max(longest, depth)
            while depth:
                t = clock()
                pos.pop()
                pop_t += clock() - t
                pops += 1
                depth -= 1

    def rate(count: int, seconds: float) -> float | None:
        return round(count / seconds) if seconds > 0 else None

    return {
        "start_positions": len(starts), "playouts": playouts * len(starts), "positions": gen_calls,
        "moves_generated": generated, "push_pop": pushes + pops,
        "mean_branching": round(generated / gen_calls, 2) if gen_calls else None,
        "mean_playout": round(pushes / (playouts * len(starts)), 1), "longest_playout": longest,
        "positions_per_s": rate(gen_calls, gen_t), "moves_per_s": rate(generated, gen_t),
        "push_pop_per_s": rate(pushes + pops, push_t + pop_t), "keys_per_s": rate(keys, key_t),
        "us_per_position": round(1e6 * (gen_t + key_t + push_t + pop_t) / gen_calls, 2) if gen_calls else None,
        "seconds": round(gen_t + key_t + push_t + pop_t, 4),
    }
