"""Half Werewolf rules (pure): cards, decks, sides, vote tally, verdict, the night's script."""
