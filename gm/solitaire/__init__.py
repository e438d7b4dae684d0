"""The 7th Sense Training app: play at the table, the board, talk, runs of many deals, solving
with progress, and the solver's compiled edge (`compiled`: numba; `solver_cache`: its folder)."""
