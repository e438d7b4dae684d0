"""How the smart player's games end on the 7-row pyramid: the README's odds table.

Produced by `gm solitaire simulate --deals 10000 --seed 0 --policy smart --workers 2 --json`.
"""

SMART_ROWS = 7
SMART_DISTRIBUTION: dict[int, int] = {0: 4016, 1: 1456, 2: 952, 3: 838, 4: 729, 5: 553, 6: 456, 7: 314, 8: 251, 9: 167, 10: 111, 11: 54, 12: 40, 13: 33, 14: 17, 15: 7, 16: 2, 17: 2, 18: 1, 19: 1}
