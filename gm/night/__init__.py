"""Playing a Half Werewolf night through the ports: the runner, the timer and the terminal, the
vote, the reveal, the log, and evenings of nights kept per group."""
