"""Running many solitaire deals: worker processes and a progress bar on a terminal."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import partial
from collections.abc import Iterable, Iterator

from scorer.solitaire.simulate import Unresolved, cards_left


@contextmanager
def _lefts(seeds: range, rows: int, policy: str, workers: int,
           max_states: int | None) -> Iterator[Iterable[int | Unresolved]]:
    """The cards left per seed, in order, played in `workers` processes. Where the system can
    fork, workers are forked (they start at once, with everything imported) before any thread
    of the progress bar exists; elsewhere they are spawned."""
    job = partial(cards_left, rows=rows, policy=policy, max_states=max_states)
    if workers <= 1:
        yield map(job, seeds)
        return
    from multiprocessing import get_all_start_methods, get_context

    method = "fork" if "fork" in get_all_start_methods() else "spawn"
    with get_context(method).Pool(workers) as pool:
        yield pool.imap(job, seeds, chunksize=max(1, min(64, len(seeds) // (workers * 8) or 1)))


def run_deals(
    seeds: range, rows: int, policy: str, workers: int = 1, progress: bool | None = None, max_states: int | None = None
) -> list[int | Unresolved]:
    """Cards left for each seed, in order; with `progress` (default: stderr is a terminal) a rich bar."""
    if progress is None:
        progress = sys.stderr.isatty()
    with _lefts(seeds, rows, policy, workers, max_states) as results:
        if not progress:
            return list(results)
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn(f"{policy}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        lefts: list[int | Unresolved] = []
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(policy, total=len(seeds))
            for left in results:
                lefts.append(left)
                bar.advance(task)
        return lefts
