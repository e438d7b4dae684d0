"""Running many solitaire deals: worker processes and a progress bar on a terminal.

Workers are plain processes, each given its share of the deals up front and sending back the
cards left per block of deals through its own pipe; once every block is in, each worker is
joined, and one that does not end by itself is killed, so a run always ends. Their number is
bounded by the cores gm may use and by the memory free for them.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, cast
from collections.abc import Callable, Iterable, Iterator

from scorer.solitaire.simulate import Unresolved, cards_left

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

WORKER_BYTES = 150 * 1024 * 1024  # what one worker may come to hold (the solver's tables included)
JOIN_SECONDS = 10.0  # how long a worker that sent everything gets to end before it is killed
_BLOCK = 64  # deals per message from a worker, at most

Left = int | Unresolved


class WorkerLost(RuntimeError):
    """A worker process ended (killed, out of memory) before sending its deals."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def free_memory() -> int | None:
    """Bytes of memory available to new processes (Linux: MemAvailable), None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return _sysconf_memory()  # no /proc (or an unreadable one): ask the system
    return _sysconf_memory()


def _sysconf_memory() -> int | None:
    """Bytes of physical memory available, by sysconf, None where the system cannot say."""
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def worker_limit(deals: int) -> int:
    """How many workers a run of `deals` deals can use: no more than the cores, the memory free
    for them (WORKER_BYTES each) and the blocks of deals there are."""
    memory = free_memory()
    room = max(1, memory // WORKER_BYTES) if memory is not None else cores()
    return max(1, min(cores(), room, deals))


def _work(connection: Connection, blocks: list[range], job: Callable[[int], Left]) -> None:
    """A worker: the cards left for each block of seeds, one message per block. Ctrl-C is the
    parent's to answer (it stops the workers), not the worker's."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for block in blocks:
            connection.send((block.start, [job(seed) for seed in block]))
    except BaseException as error:  # noqa: BLE001 - said to the parent, which stops the run
        connection.send((None, f"{type(error).__name__}: {error}"))
    finally:
        connection.close()


def _cards_left(seed: int, rows: int, policy: str, max_states: int | None) -> Left:
    """`cards_left`, the omniscient player searching with the compiled search (compiled or
    loaded once per process)."""
    if policy != "omniscient":
        return cards_left(seed, rows=rows, policy=policy, max_states=max_states)
    from gm.solitaire.compiled import compiled_search

    return cards_left(seed, rows=rows, policy=policy, max_states=max_states, search=compiled_search())


@contextmanager
def _lefts(seeds: range, rows: int, policy: str, workers: int,
           max_states: int | None) -> Iterator[Iterable[Left]]:
    """The cards left per seed, in order, played in `workers` processes (forked where the system
    can, so they start at once with everything imported, before any thread of the progress bar)."""
    job = partial(_cards_left, rows=rows, policy=policy, max_states=max_states)
    if workers <= 1 or len(seeds) <= 1:
        yield map(job, seeds)
        return
    import multiprocessing

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context: Any = multiprocessing.get_context(method)
    size = max(1, min(_BLOCK, len(seeds) // (workers * 8)))
    blocks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
    processes, connections = [], []
    try:
        for n in range(workers):
            receiving, sending = context.Pipe(duplex=False)
            process = context.Process(target=_work, args=(sending, blocks[n::workers], job), daemon=True)
            process.start()
            sending.close()
            processes.append(process)
            connections.append(receiving)
        yield _in_order(blocks, connections)
    except KeyboardInterrupt:  # Ctrl-C: the workers' deals are not waited for
        for process in processes:
            process.kill()
        raise
    finally:
        for connection in connections:
            connection.close()
        for process in processes:
            process.join(JOIN_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()


def _in_order(blocks: list[range], connections: list[Any]) -> Iterator[Left]:
    """The cards left per seed in seed order, as the workers' blocks come in."""
    from multiprocessing.connection import Connection, wait

    waiting: list[Connection] = list(connections)
    ready: dict[int, list[Left]] = {}
    for start in (block.start for block in blocks):
        while start not in ready:
            if not waiting:
                raise WorkerLost("a worker process ended before sending its deals")
            for connection in cast(list[Connection], wait(waiting)):  # only connections are waited on
                try:
                    at, lefts = connection.recv()
                except EOFError:
                    waiting.remove(connection)
                    continue
                if at is None:
                    raise WorkerLost(f"a worker process failed: {lefts}")
                ready[at] = lefts
        yield from ready.pop(start)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: `lefts` are the cards left for the deals played so far, in seed order
    from the first (the workers are stopped)."""

    def __init__(self, lefts: list[Left]) -> None:
        super().__init__(f"interrupted after {len(lefts)} deals")
        self.lefts = lefts


def bar_columns(label: str, time_label: str) -> tuple[Any, ...]:
    """The progress bar's columns: `label`, the bar, deals done of all, and the time left, labelled."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    return (TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn(time_label), TimeRemainingColumn())


def run_deals(
    seeds: range, rows: int, policy: str, workers: int = 1, progress: bool | None = None, max_states: int | None = None,
    time_label: str = "time left",
) -> list[Left]:
    """Cards left for each seed, in order; with `progress` (default: stderr is a terminal) a rich
    bar, its time left labelled `time_label`. Ctrl-C raises `Interrupted` with the deals played."""
    if progress is None:
        progress = sys.stderr.isatty()
    lefts: list[Left] = []
    try:
        with _lefts(seeds, rows, policy, workers, max_states) as results:
            if not progress:
                lefts.extend(results)
                return lefts
            from rich.console import Console
            from rich.progress import Progress

            with Progress(*bar_columns(policy, time_label), console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(policy, total=len(seeds))
                for left in results:
                    lefts.append(left)
                    bar.advance(task)
            return lefts
    except KeyboardInterrupt:
        raise Interrupted(lefts) from None
