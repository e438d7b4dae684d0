"""What the test suite costs: the quick loop (`-m "not slow"`) and the whole suite, wall time and
CPU time (pytest and every process it waited for), and the tests and files that cost the most.

run: .venv/bin/python bench/suite_cost_bench.py [--only quick,full] [--runs N] [--top N] [--warm] [--rows FILE]

Each run is a fresh `python -m pytest -q` of this checkout. Every test's CPU time (its setup, call
and teardown; its own threads and the subprocesses it waited for) is taken by a small plugin (this
module, loaded with `-p`); what no test spent is collection, imports and the session's start and
end. Processes that outlive their test and are not waited for (the virtual table's PulseAudio
daemon) are not counted.

Where PYTHONDONTWRITEBYTECODE is set, as on some machines and in CI's fresh clone, every run
compiles gm and rewrites every test module's assertions again (about 3 CPU-s of the quick loop);
`--warm` runs as a developer's machine does: the variable unset, after one run that writes the
compiled files (not counted).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROWS_ENV = "GM_SUITE_COST_ROWS"  # where the plugin writes each test's CPU time
_rows: list[tuple[str, float]] = []


def _cpu() -> float:
    own, waited = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """The plugin: one test's CPU time, setup to teardown."""
    before = _cpu()
    yield
    _rows.append((item.nodeid, _cpu() - before))


def pytest_sessionfinish(session):
    path = os.environ.get(ROWS_ENV)
    if path:
        Path(path).write_text(json.dumps(_rows), encoding="utf-8")


def run(marks: str | None, warm: bool) -> dict:
    """One fresh pytest run: wall and CPU seconds, its summary line, each test's CPU time."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "bench")}
    if warm:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "suite_cost_bench"]
    command += ["-m", marks] if marks else []
    with tempfile.TemporaryDirectory() as folder:
        rows = Path(folder) / "rows.json"
        env[ROWS_ENV] = str(rows)
        start = time.monotonic()
        child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
        assert child.stdout is not None
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)  # its CPU and that of every process it waited for
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        tests = json.loads(rows.read_text(encoding="utf-8")) if rows.exists() else []
    cpu = usage.ru_utime + usage.ru_stime
    summary = next((line for line in reversed(out.splitlines()) if " in " in line and "passed" in line), "?")
    return {"wall": wall, "cpu": cpu, "summary": summary.strip("= "), "tests": tests,
            "code": child.returncode}


def report(name: str, runs: list[dict], top: int) -> None:
    walls, cpus = [r["wall"] for r in runs], [r["cpu"] for r in runs]
    last = runs[-1]
    in_tests = sum(cpu for _, cpu in last["tests"])
    print(f"{name}: {last['summary']} (exit {last['code']})")
    print(f"  wall median {statistics.median(walls):.1f} s ({', '.join(f'{w:.1f}' for w in walls)}); "
          f"CPU median {statistics.median(cpus):.1f} s ({', '.join(f'{c:.1f}' for c in cpus)})")
    print(f"  last run: {in_tests:.1f} CPU-s in {len(last['tests'])} tests, {last['cpu'] - in_tests:.1f} outside them")
    print("  costliest tests (CPU-s):")
    for nodeid, cpu in sorted(last["tests"], key=lambda row: -row[1])[:top]:
        print(f"    {cpu:6.2f}  {nodeid}")
    files: Counter[str] = Counter()
    for nodeid, cpu in last["tests"]:
        files[nodeid.split("::")[0]] += cpu
    print("  costliest files (CPU-s):")
    for path, cpu in files.most_common(top):
        print(f"    {cpu:6.2f}  {path}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="quick,full", help="quick (the quick loop), full (the whole suite)")
    parser.add_argument("--runs", type=int, default=3, help="runs of the quick loop (the whole suite runs once)")
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--rows", type=Path, help="write the last whole-suite run's CPU-s of every test here (JSON)")
    parser.add_argument("--warm", action="store_true",
                        help="compiled files written and kept, as on a developer's machine")
    options = parser.parse_args()
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, Python {sys.version.split()[0]}, "
          f"PYTHONDONTWRITEBYTECODE {'unset' if options.warm else os.environ.get('PYTHONDONTWRITEBYTECODE', 'unset')}")
    chosen = options.only.split(",")
    if options.warm:
        run("not slow", warm=True)  # collecting compiles every module the whole suite imports
    if "quick" in chosen:
        report("quick loop", [run("not slow", options.warm) for _ in range(options.runs)], options.top)
    if "full" in chosen:
        whole = run(None, options.warm)
        report("whole suite", [whole], options.top)
        if options.rows:
            options.rows.write_text(json.dumps(whole["tests"], indent=0), encoding="utf-8")


if __name__ == "__main__":
    main()
