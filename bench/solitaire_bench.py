"""Speed and memory of 7th Sense Training's players and solver (prints medians).

    .venv/bin/python bench/solitaire_bench.py [--runs 3] [--solve-deals 1000] [--play-deals 1000]

- omniscient: exact solves per second on one core, 7 rows, over seeds 0..N-1 (median of
  --runs runs), counting only the search (`least_left`, what `simulate` runs) and also with
  the moves rebuilt through the engine (`solve`); per-deal times (median, 90th and 99th
  percentile, max) and the slowest deals;
- greedy, smart: deals played per second on one core (median of --runs runs);
- the hardest deal (most time) of the first run: the peak resident memory of a fresh process
  solving only it, less that of a fresh process solving only an easy deal.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time

from gm.solitaire.compiled import compiled_search
from scorer.solitaire import solver
from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.policies import greedy, play_out, smart

# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child would report this
# process's own peak.
PEAK = """
import re, sys
from gm.solitaire.compiled import compiled_search
from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.solver import least_left
least_left(deal_from_seed(int(sys.argv[1])), search=compiled_search())
print(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1))
"""


def timed(job, seeds: range) -> list[float]:
    times = []
    for seed in seeds:
        start = time.perf_counter()
        job(seed)
        times.append(time.perf_counter() - start)
    return times


def peak_kib(seed: int) -> int:
    """Peak resident memory (KiB) of a fresh process that solves only `seed`."""
    out = subprocess.run([sys.executable, "-c", PEAK, str(seed)], check=True, capture_output=True, text=True)
    return int(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--solve-deals", type=int, default=1000)
    parser.add_argument("--play-deals", type=int, default=1000)
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, Python {platform.python_version()}, one core, 7 rows")

    deals = {seed: deal_from_seed(seed) for seed in range(max(args.solve_deals, args.play_deals))}
    search = compiled_search()  # loads the compiled search
    solver.least_left(deals[0], search=search)
    seeds = range(args.solve_deals)
    runs = [timed(lambda s: solver.least_left(deals[s], search=search), seeds) for _ in range(args.runs)]
    rates = [len(seeds) / sum(run) for run in runs]
    print(f"omniscient: {statistics.median(rates):8.1f} solves/s  "
          f"(median of {args.runs} runs of {len(seeds)} deals; runs: "
          + ", ".join(f"{r:.1f}" for r in rates) + ")")
    with_moves = len(seeds) / sum(timed(lambda s: solver.solve(deals[s], search=search), seeds))
    print(f"            {with_moves:8.1f} solves/s with the moves rebuilt through the engine (one run)")
    per_deal = [statistics.median(times) for times in zip(*runs)]
    ordered = sorted(per_deal)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    print(f"per deal: median {pick(0.5) * 1000:.2f} ms, 90th percentile {pick(0.9) * 1000:.1f} ms, "
          f"99th {pick(0.99) * 1000:.0f} ms, max {ordered[-1]:.2f} s")
    slowest = sorted(seeds, key=lambda s: per_deal[s], reverse=True)[:5]
    others_rate = (len(seeds) - 5) / (sum(per_deal) - sum(per_deal[s] for s in slowest))
    print("slowest: " + ", ".join(f"seed {s} {per_deal[s]:.2f} s" for s in slowest)
          + f"; the other {len(seeds) - 5} deals: {others_rate:.1f} solves/s")

    for name, policy in (("greedy", greedy), ("smart", smart)):
        def play(seed: int, policy=policy) -> None:
            play_out(deals[seed], policy)
        rates = [args.play_deals / sum(timed(play, range(args.play_deals))) for _ in range(args.runs)]
        print(f"{name:>10}: {statistics.median(rates):8.1f} deals/s   "
              f"(median of {args.runs} runs of {args.play_deals} deals)")

    hardest = slowest[0]
    easy = min(seeds, key=lambda s: per_deal[s])
    print(f"memory: the hardest deal (seed {hardest}) peaks at {(peak_kib(hardest) - peak_kib(easy)) / 1024:.1f} MiB "
          f"resident above an easy deal (seed {easy}) in a fresh process")


if __name__ == "__main__":
    main()
