"""`gm solitaire solve` at the table: the search in a worker thread, its progress on stderr."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from gm.files import to_stderr
from gm.text.lines import Pack
from scorer.solitaire.deal import Deal
from scorer.solitaire.simulate import Unresolved, unresolved
from scorer.solitaire.solver import SearchLimit, Solution, searched, solve

LONG_ROWS = 8  # from this many rows a search may take minutes: say so before it starts


def long_search_note(rows: int, max_states: int | None, pack: Pack) -> str:
    """What to say before a search that may be long (from LONG_ROWS rows), else ""."""
    if rows < LONG_ROWS:
        return ""
    return "gm: " + pack.text("solitaire.solve.long_capped" if max_states else "solitaire.solve.long", rows=rows)


@dataclass(frozen=True)
class Capped:
    """A search stopped by its state budget: the bounds known, and the states it spent (SS-R6)."""

    bounds: Unresolved
    states: int


def solve_with_progress(deal: Deal, seed: int, max_states: int | None, pack: Pack) -> Solution | Capped:
    """The solution, or the bounds known when the search reached `max_states` (SS-R6), with
    progress on stderr while it runs."""
    progress = ProgressLine(max_states, pack)
    try:
        return solve_reporting(deal, max_states, progress)
    except SearchLimit as limit:
        return Capped(unresolved(seed, deal, limit), limit.states)
    finally:
        progress.close()


def solve_json(deal: Deal, seed: int, max_states: int | None, outcome: Solution | Capped) -> dict[str, Any]:
    """`solve --json`: the same keys whether the search finished or was capped."""
    data = {"seed": seed, "rows": deal.rows, "capped": isinstance(outcome, Capped), "max_states": max_states}
    if isinstance(outcome, Capped):
        return {**data, "states": outcome.states, "best_left": None, "at_least": outcome.bounds.at_least,
                "at_most": outcome.bounds.at_most, "moves": []}
    from scorer.solitaire.moves import move_to_json

    best = outcome.best_left
    return {**data, "states": outcome.nodes, "best_left": best, "at_least": best, "at_most": best,
            "moves": [move_to_json(m) for m in outcome.moves]}


def solve_lines(deal: Deal, seed: int, max_states: int | None, outcome: Solution | Capped, pack: Pack) -> list[str]:
    """`solve` in words: the result and the moves, or that the search was capped and its bounds."""
    if isinstance(outcome, Capped):
        return [pack.text("solitaire.solve.capped", seed=seed, rows=deal.rows, limit=max_states,
                           low=outcome.bounds.at_least, high=outcome.bounds.at_most)]
    from gm.solitaire.board import describe_move

    lines = [pack.text("solitaire.solve.best", seed=seed, rows=deal.rows, left=outcome.best_left,
                        moves=len(outcome.moves), states=outcome.nodes)]
    moves = describe_move(deal, outcome.moves, pack)
    return lines + [f"{number:3}. {text}" for number, text in enumerate(moves, 1)]


def solve_reporting(deal: Deal, max_states: int | None, report: Callable[[int, bool], None],
                    every: float = 1.0) -> Solution:
    """`solve(deal, max_states)` in a worker thread; `report(states, done)` every `every` seconds
    while it runs, and once more when it is done (then with the final count). Ctrl-C stops the
    wait at once (the worker is a daemon thread)."""
    solutions: list[Solution] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            from gm.solitaire.compiled import compiled_search

            solutions.append(solve(deal, max_states, search=compiled_search()))
        except BaseException as error:  # handed to the waiting thread, which raises it
            errors.append(error)

    worker = threading.Thread(target=work, name="solver", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(every)
        if worker.is_alive():
            report(searched(), False)
    if errors:
        raise errors[0]
    solution = solutions[0]
    report(solution.nodes, True)
    return solution


class ProgressLine:
    """Progress on stderr: a live line on a terminal (a bar when the search is capped), else a
    plain line now and then."""

    def __init__(self, max_states: int | None, pack: Pack, every_plain: int = 30) -> None:
        self.max_states = max_states
        self.pack = pack
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
            line = self.pack.text("solitaire.solve.still_capped" if self.max_states else "solitaire.solve.still",
                                   states=f"{states:,}", limit=f"{self.max_states or 0:,}")
            to_stderr(line)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
