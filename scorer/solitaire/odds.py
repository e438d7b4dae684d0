"""How the smart player's games end on the 7-row pyramid: the README's odds table.

Produced by `gm solitaire simulate --deals 10000 --seed 0 --policy smart --workers 2 --json`.
"""

SMART_ROWS = 7
SMART_DISTRIBUTION: dict[int, int] = {0: 2925, 1: 1286, 2: 1160, 3: 987, 4: 897, 5: 755, 6: 590, 7: 417, 8: 339, 9: 228, 10: 182, 11: 75, 12: 61, 13: 45, 14: 33, 15: 11, 16: 4, 17: 3, 18: 1, 19: 1}
