"""The 7th Sense Training app: play, runs, talk, board."""
