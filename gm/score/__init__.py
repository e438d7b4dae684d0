"""`gm score` edges: the crash-safe journal and its match index, typed entries read into events,
the printed and spoken sheet, the play loop."""
