"""`gm werewolf evening` on big groups: seconds per run and per 10k nights, which stay flat when the
reading is linear (it was quadratic: 10k nights 2 s, 40k 34 s, 200k never ended).

run: .venv/bin/python bench/evening_bench.py [--nights 10000 40000 200000] [--runs 3]

Each size is a group file of that many nights (6 players, every side kept), and an evening file
of earlier versions (one JSON object) with as many; a run is the whole command in one process,
`gm werewolf evening --file F --json`, and the median of the runs is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Aki", "Ken", "Mio", "Sora", "Yui", "Rin"]


def nights_of(count: int) -> list[dict[str, object]]:
    """`count` nights, 5 to an evening, as `gm werewolf play` keeps them."""
    nights = []
    for n in range(count):
        wolf = PLAYERS[n % 6]
        sides = {p: ("werewolves" if p == wolf else "villagers") for p in PLAYERS}
        winners = [p for p in PLAYERS if p != wolf] if n % 3 else [wolf]
        nights.append({"group": "Friday", "at": "2026-12-01T20:00:00+0000", "winning_side": sides[winners[0]],
                       "winners": winners, "players": PLAYERS, "sides": sides, "evening": f"e{n // 5}"})
    return nights


def group_file(path: Path, nights: int) -> None:
    """A group's file: one JSON line per night."""
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(json.dumps(night) + "\n" for night in nights_of(nights))


def evening_file(path: Path, nights: int) -> None:
    """An evening file of earlier versions: one JSON object with every night (the winners only)."""
    kept = [{"winning_side": n["winning_side"], "winners": n["winners"]} for n in nights_of(nights)]
    path.write_text(json.dumps({"players": PLAYERS, "nights": kept}), encoding="utf-8")


def run(path: Path) -> float:
    env = {**os.environ, "XDG_DATA_HOME": str(path.parent)}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gm", "werewolf", "evening", "--file", str(path), "--json"],
                   cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, nargs="+", default=[10_000, 40_000, 200_000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'file':<8} {'nights':>8} {'MB':>6} {'median s':>9} {'s per 10k':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for kind, write, suffix in (("group", group_file, ".jsonl"), ("evening", evening_file, ".json")):
            for nights in args.nights:
                path = Path(folder) / f"{kind}{nights}{suffix}"
                write(path, nights)
                seconds = statistics.median(run(path) for _ in range(args.runs))
                size = path.stat().st_size / 1e6
                print(f"{kind:<8} {nights:>8} {size:>6.1f} {seconds:>9.2f} {seconds / nights * 10_000:>10.3f}")


if __name__ == "__main__":
    main()
