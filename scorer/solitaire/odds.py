"""How the smart player's games end on the 7-row pyramid (see README: the odds table)."""

SMART_ROWS = 7
SMART_DISTRIBUTION: dict[int, int] = {}
