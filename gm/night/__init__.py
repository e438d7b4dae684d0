"""Playing a Half Werewolf night through the ports: the runner, the vote, the reveal, the log."""
