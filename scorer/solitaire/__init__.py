"""7th Sense Training (第７感トレーニング): the pyramid game's rules, players, solver (its search
marked for compiling, compiled by gm/solitaire/compiled.py), odds, statistics and reading."""
