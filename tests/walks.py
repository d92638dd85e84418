"""Shared test walks over positions (imported by the tests; pytest puts this folder on sys.path)."""

from __future__ import annotations

from typing import Any


def assert_push_then_pop_restores(pos: Any, picks: list[int]) -> None:
    """Push the moves ``picks`` choose (forced moves included), then pop them all, checking
    that each pop gives back the exact state and key of the position before its push."""
    states, keys = [pos.state()], [pos.key()]
    for p in picks:
        moves = pos.legal_moves()
        forced = pos.forced_move()
        if forced is not None:
            moves.append(forced)
        if not moves:
            break
        pos.push(moves[p % len(moves)])
        states.append(pos.state())
        keys.append(pos.key())
    while len(states) > 1:
        states.pop()
        keys.pop()
        pos.pop()
        assert pos.state() == states[-1]
        assert pos.key() == keys[-1]
