"""Peg solitaire boards, served through the same game interface and engines as the patiences.

A board layout (``layouts/english-33.toml`` and friends) holds the board's
shape as a text picture, the start (which holes are empty) and the goal (how
many pegs remain, optionally in which hole).  Holes are named by coordinates:
columns ``a``, ``b``, ... from the left, rows ``1``, ``2``, ... from the top,
so the English centre is ``d4`` and the opening jumps of the central game are
``d2-d4``, ``b4-d4``, ``f4-d4`` and ``d6-d4``.

- ``geometry``: the board: holes, names, jumps, symmetries, pictures.
- ``board``: the layout file reader and ``PegLayout``, the object the rest of
  the program sees (describe, deals, start position, verification, CP-SAT).
- ``position``: the depth-first search's position: bitboards, a transposition
  key with the symmetries folded in, pagoda-function pruning.
- ``pagoda``: pagoda functions and position classes, the sound bounds.
- ``referee``: an independent replay of a solution.
- ``cpsat``: the CP-SAT step model of Jefferson, Miguel, Miguel and Tarim.
"""
