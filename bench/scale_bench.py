"""Scale as ratios against a small file in the same run: time and peak memory of fresh `gm`
processes on big journals and group files, each divided by the same command on a small one
(run: .venv/bin/python bench/scale_bench.py [--runs 3] [--gm-root /work/main]).

Rows (the median of `--runs` processes each, the small file's figure measured the same way; the
ratio of wall times, then of CPU times, which a busy machine inflates less):
- `score show` cold: 200,000 events in 20,000 matches, no match index beside the journal;
- `score matches`: the same journal, index in place (every call after the first), the default
  listing (the last 50 matches);
- `score flow` (an append): one match of 200,000 events, index in place;
- `werewolf evening`: a group file of 100,000 nights, first with no tally kept beside it (a file
  an older gm wrote, read once; or one whose tally was lost), then with it (a file gm wrote, whose
  tally each appended night keeps current, or any file after its first reading);
and the sizes of the match index and the tally as shares of their files'. Goal: every ratio ≤ 2×.
`--gm-root` runs the gm of another checkout (e.g. main, for the figures before a change).
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
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


Figures = tuple[float, float, int]  # wall seconds, CPU seconds, peak resident bytes


def run(root: Path, args: list[str], env: dict[str, str]) -> Figures:
    """Wall and CPU seconds (the CPU time is what a busy machine cannot inflate) and peak resident
    memory (bytes) of one gm process."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "gm", *args], cwd=root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    assert child.stderr is not None
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"gm {' '.join(args)} failed: {child.stderr.read().decode()[-400:]}")
    child.stderr.close()
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def median_of(runs: int, once: Callable[[], Figures]) -> Figures:
    figures = [once() for _ in range(runs)]
    return (statistics.median(f[0] for f in figures), statistics.median(f[1] for f in figures),
            int(statistics.median(f[2] for f in figures)))


def write_files(folder: Path) -> None:
    """The journals and group files, written by a child process (the bench stays small)."""
    code = f"""
import sys
sys.path[:0] = [{str(ROOT)!r}, {str(HERE)!r}]
from pathlib import Path
from evening_bench import group_file
from gm.score.journal import encode
from scorer.humalien.events import Flow, NewMatch, Redo, Skull, Undo

folder = Path({str(folder)!r})

def write(path, events):
    with open(path, "wb") as out:
        out.writelines(encode(e) for e in events)

def short_match(n):
    yield NewMatch(("Alice", "Bob"), abandon=True)
    for i in range(9):
        yield Flow("Alice" if (n + i) % 2 else "Bob", 0) if i % 3 else Skull("Alice", 1)

def long_match(count):
    yield NewMatch(("Alice", "Bob"), abandon=True)
    for i in range(count - 1):
        yield (Flow("Alice", 0), Flow("Bob", 0), Undo(), Redo(), Skull("Bob", 1))[i % 5] if i % 5 != 4 or i < 10 \
            else Flow("Alice", 0)

write(folder / "small.jsonl", list(short_match(0)))
write(folder / "many.jsonl", (e for n in range(20_000) for e in short_match(n)))
write(folder / "long.jsonl", long_match(200_000))
group_file(folder / "small-group.jsonl", 5)
group_file(folder / "big-group.jsonl", 100_000)
"""
    subprocess.run([sys.executable, "-c", code], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--gm-root", type=Path, default=ROOT, help="the checkout whose gm is measured")
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    root = args.gm_root.resolve()
    env = dict(os.environ, GM_SPEECH="off", PYTHONPATH=str(root))
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        env["XDG_DATA_HOME"] = str(folder / "data")
        write_files(folder)
        load = f"load average {os.getloadavg()[0]:.1f}, " if hasattr(os, "getloadavg") else ""
        print(f"# {load}{platform.platform()}, Python {platform.python_version()}, gm from {root}, "
              f"median of {args.runs} runs")

        def score(command: list[str], journal: str, cold: bool) -> Callable[[], Figures]:
            path = folder / journal

            def once() -> Figures:
                if cold:
                    path.with_name(path.name + ".matches").unlink(missing_ok=True)
                return run(root, ["score", *command, "--file", str(path)], env)

            if not cold:
                run(root, ["score", "show", "--file", str(path)], env)  # the index in place
            return once

        def evening(group: str, cold: bool) -> Callable[[], Figures]:
            path = folder / group

            def once() -> Figures:
                if cold:
                    path.with_name(path.name + ".tally").unlink(missing_ok=True)
                return run(root, ["werewolf", "evening", "--file", str(path)], env)

            if not cold:
                once()  # the tally in place
            return once

        rows = [("score show, cold: 200k events in 20k matches", score(["show"], "small.jsonl", True),
                 score(["show"], "many.jsonl", True)),
                ("score matches: 200k events in 20k matches", score(["matches"], "small.jsonl", False),
                 score(["matches"], "many.jsonl", False)),
                ("score flow (append): one match of 200k events", score(["flow", "Alice", "0"], "small.jsonl", False),
                 score(["flow", "Alice", "0"], "long.jsonl", False)),
                ("werewolf evening, no tally (once): 100k nights", evening("small-group.jsonl", True),
                 evening("big-group.jsonl", True)),
                ("werewolf evening: 100k nights", evening("small-group.jsonl", False),
                 evening("big-group.jsonl", False))]
        print(f"{'':48} {'small s':>8} {'big s':>6} {'time':>6} {'CPU':>6} {'small MB':>9} {'big MB':>7} "
              f"{'memory':>7}")
        for name, small, big in rows:
            small_s, small_cpu, small_m = median_of(args.runs, small)
            big_s, big_cpu, big_m = median_of(args.runs, big)
            print(f"{name:48} {small_s:8.2f} {big_s:6.2f} {big_s / small_s:5.1f}× {big_cpu / small_cpu:5.1f}× "
                  f"{small_m / 1e6:9.1f} {big_m / 1e6:7.1f} {big_m / small_m:6.1f}×")
        for kept, beside, what in ((".matches", "many.jsonl", "match index"), (".state", "long.jsonl", "checkpoint"),
                                   (".tally", "big-group.jsonl", "tally")):
            path = folder / beside
            cache = path.with_name(path.name + kept)
            if cache.exists():
                print(f"{what}: {cache.stat().st_size / 1e6:.2f} MB beside {path.stat().st_size / 1e6:.1f} MB "
                      f"({cache.stat().st_size / path.stat().st_size:.1%})")


if __name__ == "__main__":
    main()
