"""7th Sense Training (第７感トレーニング): the pyramid game's rules, players, solver and reading."""
