"""Half Werewolf rules (pure): cards, decks, sides, the vote tally, the verdict and the questions
that decide it, the night's script, the teaching, and evenings' wins."""
