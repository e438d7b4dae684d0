"""Peak memory and time of `gm score show` and `gm score matches` on a large valid journal
(run: .venv/bin/python bench/journal_memory_bench.py [--mb 60] [--runs 3]).

Each figure is the median of `--runs` fresh processes: "cold" with no match index beside the
journal (the whole journal is folded and the index built), "warm" with the index in place.
Goal: peak memory above gm's own at most twice the journal's size.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EVENT_BYTES = 77  # about what one event of a plausible match takes in the journal


def run(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident memory (bytes) of one gm process (a forked child's peak
    counts what it shared with this process: the bench never holds a journal's bytes)."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "gm", *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=dict(os.environ, GM_SPEECH="off"))
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"gm {' '.join(args)} failed")
    return elapsed, usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=60.0, help="journal size in MB (default 60)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        journal = Path(tmp) / "big.jsonl"
        # written by another process: a child's peak memory counts what it shared with this one
        subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r}); "
                        "from score_bench import write_journal; from pathlib import Path; "
                        f"write_journal(Path({str(journal)!r}), {int(args.mb * 1_000_000 / EVENT_BYTES)})"], check=True)
        with journal.open("rb") as lines:
            events = sum(1 for _ in lines)
        size = journal.stat().st_size
        load = f"load average {os.getloadavg()[0]:.1f}, " if hasattr(os, "getloadavg") else ""
        print(f"# {load}{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs; "
              f"journal {size / 1e6:.1f} MB, {events} events")
        small = Path(tmp) / "small.jsonl"
        with journal.open("rb") as lines:  # the bench itself stays small: see run()
            small.write_bytes(lines.readline())
        _, own = run(["score", "show", "--file", str(small)])
        print(f"gm's own peak (a one-line journal): {own / 1e6:.1f} MB")
        index = journal.with_name(journal.name + ".matches")
        for command in ("show", "matches"):
            for state in ("cold", "warm"):
                figures = []
                for _ in range(args.runs):
                    if state == "cold":
                        index.unlink(missing_ok=True)
                    figures.append(run(["score", command, "--file", str(journal)]))
                seconds = statistics.median(f[0] for f in figures)
                peak = statistics.median(f[1] for f in figures)
                print(f"gm score {command:7} {state}: median {seconds:6.2f} s, peak {peak / 1e6:7.1f} MB, "
                      f"{(peak - own) / size:.2f}× the journal above gm's own ({args.runs} runs)")


if __name__ == "__main__":
    main()
