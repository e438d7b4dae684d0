"""`gm solitaire solve` at the table: the search in a worker thread, its progress on stderr."""

from __future__ import annotations

import sys
import threading
from typing import Callable

from scorer.solitaire.deal import Deal
from scorer.solitaire.solver import Solution, searched, solve

LONG_ROWS = 8  # from this many rows a search may take minutes: say so before it starts


def solve_reporting(deal: Deal, max_states: int | None, report: Callable[[int, bool], None],
                    every: float = 1.0) -> Solution:
    """`solve(deal, max_states)` in a worker thread; `report(states, done)` every `every` seconds
    while it runs, and once more when it is done (then with the final count). Ctrl-C stops the
    wait at once (the worker is a daemon thread)."""
    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["solution"] = solve(deal, max_states)
        except BaseException as error:  # handed to the waiting thread, which raises it
            outcome["error"] = error

    worker = threading.Thread(target=work, name="solver", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(every)
        if worker.is_alive():
            report(searched(), False)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    solution: Solution = outcome["solution"]  # type: ignore[assignment]
    report(solution.nodes, True)
    return solution


class ProgressLine:
    """Progress on stderr: a live line on a terminal (a bar when the search is capped), else a
    plain line now and then."""

    def __init__(self, max_states: int | None, every_plain: int = 30) -> None:
        self.max_states = max_states
        self.every_plain = every_plain
        self.reports = 0
        self.progress = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            columns = [TextColumn("solving"), *([BarColumn()] if max_states else []),
                       TextColumn("{task.completed:,} states"), TimeElapsedColumn()]
            self.progress = Progress(*columns, console=Console(stderr=True), transient=True)
            self.task = self.progress.add_task("solve", total=max_states)
            self.progress.start()

    def __call__(self, states: int, done: bool) -> None:
        self.reports += 1
        if self.progress is not None:
            self.progress.update(self.task, completed=states)
            if done:
                self.progress.stop()
        elif not done and states and self.reports % self.every_plain == 0:
            cap = f" of at most {self.max_states:,}" if self.max_states else ""
            print(f"gm: still solving: {states:,} states searched{cap}", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
