"""Speed and memory of 7th Sense Training's players and solver (prints medians).

    .venv/bin/python bench/solitaire_bench.py [--runs 5] [--solve-deals 200] [--play-deals 1000]
        [--hard-of 1000] [--max-states 1000000]

- omniscient: exact solves per second on one core, 7 rows (median of --runs runs over the
  same --solve-deals seeds);
- greedy, smart: deals played per second on one core (median of --runs runs);
- the hardest of --hard-of deals (most states searched, each search capped at
  --max-states): its time and the solver's memory peak (tracemalloc) on it.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
import tracemalloc

from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.policies import greedy, play_out, smart
from scorer.solitaire.solver import SearchLimit, solve


def rate(job, seeds: range) -> float:
    start = time.perf_counter()
    for seed in seeds:
        job(seed)
    return len(seeds) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--solve-deals", type=int, default=200)
    parser.add_argument("--play-deals", type=int, default=1000)
    parser.add_argument("--hard-of", type=int, default=1000)
    parser.add_argument("--max-states", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, one core, 7 rows")

    deals = {seed: deal_from_seed(seed) for seed in range(max(args.solve_deals, args.play_deals))}
    solves = [rate(lambda s: solve(deals[s]), range(args.solve_deals)) for _ in range(args.runs)]
    print(f"omniscient: {statistics.median(solves):8.1f} solves/s  (median of {args.runs} runs of {args.solve_deals} deals; runs: "
          + ", ".join(f"{r:.1f}" for r in solves) + ")")
    for name, policy in (("greedy", greedy), ("smart", smart)):
        rates = [rate(lambda s: play_out(deals[s], policy), range(args.play_deals)) for _ in range(args.runs)]
        print(f"{name:>10}: {statistics.median(rates):8.1f} deals/s   (median of {args.runs} runs of {args.play_deals} deals)")

    times = {}
    for seed in range(args.hard_of):
        start = time.perf_counter()
        times[seed] = (attempt(seed, args.max_states)[0], time.perf_counter() - start)
    hardest = max(times, key=lambda s: times[s][0])
    ordered = sorted(t for _, t in times.values())
    capped = sum(1 for n, _ in times.values() if n > args.max_states)
    print(f"solve times over {args.hard_of} deals: median {statistics.median(ordered) * 1000:.1f} ms, "
          f"90th percentile {ordered[int(0.9 * len(ordered))] * 1000:.1f} ms, max {ordered[-1]:.2f} s; "
          f"{capped} stopped at {args.max_states} states")
    tracemalloc.start()
    start = time.perf_counter()
    states, result = attempt(hardest, args.max_states)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"hardest of {args.hard_of}: seed {hardest}, {states} states searched, {result}, "
          f"memory peak {peak / 2**20:.1f} MiB ({elapsed:.1f} s under tracemalloc)")


def attempt(seed: int, max_states: int) -> tuple[int, str]:
    """States searched and the outcome of one capped solve."""
    try:
        solution = solve(deal_from_seed(seed), max_states)
    except SearchLimit as limit:
        return limit.states, f"stopped: at least {limit.at_least} left"
    return solution.nodes, f"best {solution.best_left} left"


if __name__ == "__main__":
    main()
