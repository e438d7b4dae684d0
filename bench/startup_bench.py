"""Where people wait, each figure against its baseline in one run (medians of interleaved runs).

run: .venv/bin/python bench/startup_bench.py [--runs N] [--only startup,journal,solver,workers,voice,install,setup]
     [--from-source]

1. start-up: every `gm` group's `--help`, `gm --help`, a typical `score show` and `solitaire
   reading`, against a bare one-command Typer app's `--help`;
2. the score journal: `score show` and one `score flow` with 100,000 earlier events, against a
   fresh match;
3. the solver: first use on a machine (empty numba cache) against a warm run;
4. `simulate` 1,000 smart deals with `--workers 2` against `--workers 1`;
5. `gm voice say --to x.wav` against `espeak-ng -w`;
6. install sizes: the base install and each extra (fresh venvs, from the configured index);
7. `./setup.sh` on a fresh clone of this checkout.

Wall time is what a person waits; CPU time (user + system of the child) is shown too, as the
figure a busy machine inflates least.

gm's own modules are byte-compiled first, as `pip install` compiles them (and as the bare app's
Typer is): with PYTHONDONTWRITEBYTECODE set, as on some machines, a checkout would otherwise
compile every module it imports on every run. `--from-source` measures that way instead.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from score_bench import match_events, write_journal  # noqa: E402

PY = sys.executable
BARE_APP = '''
import typer

app = typer.Typer()


@app.command()
def hello(name: str = "world") -> None:
    """Say hello."""
    print(name)


app()
'''


def timed(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `command` (its output discarded; it must succeed)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env={**os.environ, **(env or {})}, cwd=cwd)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"failed ({child.returncode}): {' '.join(command)}")
    return wall, usage.ru_utime + usage.ru_stime


def medians(
    cases: dict[str, list[str]], runs: int, env: dict[str, str] | None = None
) -> dict[str, tuple[float, float]]:
    """Run every case `runs` times, interleaved (a busy moment hits all alike); median wall and CPU."""
    walls: dict[str, list[float]] = {name: [] for name in cases}
    cpus: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, command in cases.items():
            wall, cpu = timed(command, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    return {name: (statistics.median(walls[name]), statistics.median(cpus[name])) for name in cases}


def row(what: str, figure: tuple[float, float], baseline_name: str, baseline: tuple[float, float], goal: str,
        speed_up: bool = False) -> None:
    """One line of a table: the ratio is figure / baseline, or with `speed_up` baseline / figure."""
    ratio = baseline[0] / figure[0] if speed_up else figure[0] / baseline[0]
    cpu_ratio = figure[1] / baseline[1] if baseline[1] else float("nan")
    print(f"| {what} | {figure[0] * 1000:.0f} ms ({figure[1] * 1000:.0f} ms CPU) | {baseline_name} "
          f"{baseline[0] * 1000:.0f} ms ({baseline[1] * 1000:.0f} ms CPU) | {ratio:.2f}×"
          f"{' faster' if speed_up else ''} (CPU {cpu_ratio:.2f}×) | {goal} |")


def header(title: str) -> None:
    print(f"\n{title}\n\n| what | gm | baseline | ratio | goal |\n|---|---|---|---|---|")


def bench_startup(tmp: Path, runs: int) -> None:
    bare = tmp / "bare.py"
    bare.write_text(BARE_APP)
    journal = tmp / "typical.jsonl"
    write_journal(journal, len(match_events(random.Random(3))), seed=3)
    gm = [PY, "-m", "gm"]
    cases = {
        "bare": [PY, str(bare), "--help"],
        "gm --help": [*gm, "--help"],
        **{f"gm {group} --help": [*gm, group, "--help"] for group in ("werewolf", "score", "solitaire", "voice")},
        "gm werewolf play --help": [*gm, "werewolf", "play", "--help"],
        "gm score show (a typical match)": [*gm, "score", "show", "--file", str(journal)],
        "gm solitaire reading 3 --speech off": [*gm, "solitaire", "reading", "3", "--speech", "off"],
    }
    found = medians(cases, runs)
    header(f"Start-up ({runs} interleaved runs each)")
    for name, figure in found.items():
        if name != "bare":
            row(f"`{name}`", figure, "bare Typer app `--help`", found["bare"], "≤ 1.3×")


def bench_journal(tmp: Path, runs: int) -> None:
    from gm.score.journal import Journal
    from scorer.humalien.events import NewMatch

    fresh, big = tmp / "fresh.jsonl", tmp / "big.jsonl"
    write_journal(big, 100_000)
    for path in (fresh, big):  # the current match: a new one, 20 events in
        journal = Journal(path, warn=lambda note: None)
        journal.append(lambda state: NewMatch(("Alice", "Bob"), abandon=True))
        for event in match_events(random.Random(5))[1:21]:
            journal.append(lambda state, event=event: event)
    gm = [PY, "-m", "gm", "score"]
    shows = medians({name: [*gm, "show", "--file", str(path)] for name, path in (("fresh", fresh), ("big", big))}, runs)
    # one flow then its undo, so every run appends to the same match
    flows: dict[str, list[tuple[float, float]]] = {"fresh": [], "big": []}
    for _ in range(runs):
        for name, path in (("fresh", fresh), ("big", big)):
            flows[name].append(timed([*gm, "flow", "Alice", "5", "--file", str(path)]))
            timed([*gm, "undo", "--file", str(path)])
    flow = {name: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for name, v in flows.items()}
    header(f"The score journal ({runs} runs; the current match 21 events in)")
    row("`score show`, 100,000 earlier events", shows["big"], "a fresh match", shows["fresh"], "≤ 1.2×")
    row("one `score flow`, 100,000 earlier events", flow["big"], "a fresh match", flow["fresh"], "≤ 1.2×")


def bench_solver(tmp: Path, runs: int) -> None:
    try:
        import numba  # noqa: F401
    except ImportError:
        print("\nThe solver: numba is not installed (pip install 'gm-card-nights[solver]'); skipped")
        return
    cache = tmp / "numba-cache"
    solve = [PY, "-m", "gm", "solitaire", "solve", "--seed", "0", "--json"]
    cold = timed(solve, {"NUMBA_CACHE_DIR": str(cache)})
    warm = medians({"warm": solve}, max(3, runs // 3), {"NUMBA_CACHE_DIR": str(cache)})["warm"]
    header("The solver (`gm solitaire solve --seed 0`)")
    row("first use on a machine (empty numba cache)", cold, "warm run", warm, "once per machine")
    files = sum(1 for p in cache.rglob("*") if p.is_file())
    print(f"\nnumba cache: {files} files, {sum(p.stat().st_size for p in cache.rglob('*') if p.is_file()) // 1024} KiB")


def bench_workers(tmp: Path, runs: int) -> None:
    simulate = [PY, "-m", "gm", "solitaire", "simulate", "--deals", "1000", "--policy", "smart", "--json"]
    found = medians({w: [*simulate, "--workers", w] for w in ("1", "2")}, max(3, runs // 3))
    header("`simulate` 1,000 smart deals")
    row("`--workers 2`", found["2"], "`--workers 1`", found["1"], "≥ 1.6× faster on 2 idle cores", speed_up=True)
    print(f"\n(load average {os.getloadavg()[0]:.1f} after the runs: with other work on the cores, "
          "two workers cannot show their speed-up)")


def bench_voice(tmp: Path, runs: int) -> None:
    if shutil.which("espeak-ng") is None:
        print("\n`voice say`: espeak-ng is missing; skipped")
        return
    found = medians({
        "espeak": ["espeak-ng", "-w", str(tmp / "e.wav"), "Good evening"],
        "gm": [PY, "-m", "gm", "voice", "say", "Good evening", "--to", str(tmp / "g.wav")],
    }, runs)
    header("Speaking to a file")
    row("`gm voice say … --to x.wav`, whole process", found["gm"], "`espeak-ng -w`", found["espeak"], "≤ 3×")


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def bench_install(tmp: Path) -> None:
    """Each extra in its own fresh venv (a wheel of this checkout, the packages from the configured index)."""
    wheels = tmp / "wheels"
    subprocess.run([PY, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wheel = next(wheels.glob("gm_card_nights-*.whl"))
    print("\nInstall size (site-packages of a fresh venv)\n\n| install | size | more than the base |\n|---|---|---|")
    base = None
    for extra in ("", "solver", "test"):
        venv = tmp / f"venv-{extra or 'base'}"
        subprocess.run([PY, "-m", "venv", str(venv)], check=True)
        spec = f"{wheel}[{extra}]" if extra else str(wheel)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", spec]
        subprocess.run(pip, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        size = du(next((venv / "lib").glob("python3*")) / "site-packages")
        base = size if base is None else base
        name = f"gm-card-nights[{extra}]" if extra else "gm-card-nights"
        print(f"| `pip install {name}` | {size / 2**20:.0f} MiB | {(size - base) / 2**20:+.0f} MiB |")
        shutil.rmtree(venv)


def bench_setup(tmp: Path) -> None:
    clone = tmp / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    for args in ([], ["--test"]):
        start = time.perf_counter()
        subprocess.run(["./setup.sh", *args], cwd=clone, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"\n`{' '.join(['./setup.sh', *args])}` on a fresh clone: {time.perf_counter() - start:.0f} s wall"
              + (" (after the line above: the venv exists)" if args else ""))


PARTS = ("startup", "journal", "solver", "workers", "voice", "install", "setup")


def byte_compiled(compiled: bool) -> None:
    """gm, scorer and voices compiled to their __pycache__, as an installed wheel is; or none of
    them (their __pycache__ folders removed)."""
    for package in ("gm", "scorer", "voices"):
        if compiled:
            compileall.compile_dir(ROOT / package, quiet=1)
        else:
            for cache in (ROOT / package).rglob("__pycache__"):
                shutil.rmtree(cache)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts: {', '.join(PARTS)}")
    parser.add_argument("--from-source", action="store_true",
                        help="do not byte-compile gm first (with PYTHONDONTWRITEBYTECODE, every run compiles it)")
    args = parser.parse_args()
    load = f"load average {os.getloadavg()[0]:.1f}, " if hasattr(os, "getloadavg") else ""
    print(f"# {load}{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    byte_compiled(not args.from_source)
    print("# gm from source: its byte-compiled modules removed" if args.from_source
          else "# gm byte-compiled first, as an install is")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for part in args.only.split(","):
            {"startup": lambda: bench_startup(tmp, args.runs), "journal": lambda: bench_journal(tmp, args.runs),
             "solver": lambda: bench_solver(tmp, args.runs), "workers": lambda: bench_workers(tmp, args.runs),
             "voice": lambda: bench_voice(tmp, args.runs), "install": lambda: bench_install(tmp),
             "setup": lambda: bench_setup(tmp)}[part]()


if __name__ == "__main__":
    main()
