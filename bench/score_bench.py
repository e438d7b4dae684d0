"""Benchmarks for `gm score` (figures are medians; run: .venv/bin/python bench/score_bench.py).

1. append + fsync per event: Journal.append (lock, load, check, write, fsync) while a match grows;
2. replay of a 10,000-event journal: Journal.load (parse + fold), goal ≤ 150 ms;
3. `gm score show` wall time, as a user runs it (a fresh process), on a typical and a 10,000-event journal.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gm.score.journal import Journal, encode  # noqa: E402
from scorer.humalien.errors import ScoreError  # noqa: E402
from scorer.humalien.events import (  # noqa: E402
    AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)
from scorer.humalien.fold import State, advance  # noqa: E402


def match_events(rng: random.Random) -> list:
    """One plausible match: flows, skulls, the odd special, undo/redo, three finishes (each
    event one real cards can produce: a drawn event the box cannot produce, HU-R6, is left out)."""
    events: list = []
    state = State()

    def take(event) -> bool:
        nonlocal state
        try:
            state = advance(state, event, strict=True)
        except ScoreError:
            return False
        events.append(event)
        return True

    take(NewMatch(("Alice", "Bob"), abandon=True))
    for _game in range(3):
        piles = {"Alice": 0, "Bob": 0}  # empty piles never come back
        for _ in range(rng.randint(15, 30)):
            player = rng.choice(("Alice", "Bob"))
            roll = rng.random()
            more = piles[player] + (rng.random() < 0.2 and piles[player] < 5)
            if roll < 0.6:
                if take(Flow(player, more)):
                    piles[player] = more
            elif roll < 0.8:
                take(Skull(player, rng.randint(1, 6)))
            elif roll < 0.85:
                if take(SixSixSix(player, more)):
                    piles[player] = more
            elif roll < 0.88:
                take(GodIsland(player))
            elif roll < 0.9:
                if take(AngelCut(player)):
                    piles[player] = 5
            else:
                for event in (Flow(player, piles[player]), Undo(), Redo()):
                    take(event)
        ending = Finish if rng.random() < 0.9 else Foul
        first = rng.choice(("Alice", "Bob"))
        left = rng.randint(1, 30)
        for player in (first, "Bob" if first == "Alice" else "Alice"):  # no more than the other can hold
            if any(take(ending(player, n)) for n in range(left, 0, -1)):
                break
    return events


def write_journal(path: Path, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    events: list = []
    while len(events) < count:
        events += match_events(rng)
    with open(path, "wb") as out:
        for event in events[:count]:
            out.write(encode(event))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def bench_append(directory: Path, count: int) -> list[float]:
    journal = Journal(directory / "append.jsonl")
    rng = random.Random(2)
    events: list = []
    while len(events) < count:
        events += match_events(rng)
    times = []
    for event in events[:count]:
        start = time.perf_counter()
        journal.append(lambda _state, event=event: event)
        times.append(time.perf_counter() - start)
    return times


def bench_replay(path: Path, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU times of loading the journal (CPU time is what a busy machine cannot inflate)."""
    journal = Journal(path)
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        journal.load()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def bench_show(path: Path, runs: int) -> list[float]:
    gm = [sys.executable, "-m", "gm", "score", "show", "--file", str(path)]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(gm, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="where to write the journals (default: a temp dir)")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        load = f"load average {os.getloadavg()[0]:.1f}, " if hasattr(os, "getloadavg") else ""
        print(f"# {load}{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, "
              f"journals in {directory}")
        appends = bench_append(directory, 300)
        print(f"append + fsync per event: median {ms(statistics.median(appends))} "
              f"(300 appends, journal growing 0→300 lines; p90 {ms(sorted(appends)[269])})")
        big = directory / "big.jsonl"
        write_journal(big, 10_000)
        wall, cpu = bench_replay(big, args.runs)
        print(f"replay of 10,000 events: median {ms(statistics.median(wall))} wall, "
              f"{ms(statistics.median(cpu))} CPU ({args.runs} runs, {big.stat().st_size // 1024} KiB; goal ≤ 150 ms)")
        typical = directory / "typical.jsonl"
        write_journal(typical, len(match_events(random.Random(3))), seed=3)
        for name, path in (("a typical match", typical), ("10,000 events", big)):
            show = bench_show(path, max(5, args.runs // 2))
            print(f"`gm score show` wall time, {name}: median {ms(statistics.median(show))}")


if __name__ == "__main__":
    main()
