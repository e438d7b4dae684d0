"""`gm score` edges: the crash-safe journal, the printed and spoken sheet, the play loop."""
