# PySolFC's Forty Thieves: deals proved winnable by patience-solver
# (`patience report --winnable --format pysolfc`).
# Layout forty-thieves, rules version 2, rules fingerprint f15ff1078718, engine any.
# Seed N is PySolFC's Forty Thieves game number N.
# Each win was replayed by the solver's referee.
#
# 28 seeds, covering 32000-32999.
# Of the 1000 deals covered: 28 won, 2 lost, 970 unknown (a search limit was hit).

SOLVABLE_SEEDS = (
    32017, 32100, 32165, 32182, 32191, 32230, 32300, 32316,
    32323, 32487, 32569, 32698, 32720, 32743, 32749, 32778,
    32802, 32810, 32826, 32830, 32845, 32901, 32927, 32937,
    32962, 32982, 32986, 32995,
)
