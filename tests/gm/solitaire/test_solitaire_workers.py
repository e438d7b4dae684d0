"""`gm solitaire simulate --workers N`: as many workers as the cores and memory allow, the same
cards left as one process, and a run that always ends (a worker lost ends it with an error).

Runs that once hung run in a subprocess; its `timeout=` is only a safety net.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.solitaire import runs

SAFETY_NET = 300


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=SAFETY_NET)


def _repeated(times: int) -> None:
    done = _python(f"""
from gm.solitaire.runs import run_deals
serial = run_deals(range(5), 7, "smart", 1, progress=False)
for n in range({times}):
    assert run_deals(range(5), 7, "smart", 2, progress=False) == serial, n
print("ended", {times})
""")
    assert done.returncode == 0 and done.stdout.split() == ["ended", str(times)], done.stderr


@pytest.mark.slow
def test_two_workers_end_every_time_with_the_cards_left_of_one_process():
    _repeated(36)


@pytest.mark.stress
def test_two_workers_end_every_time_under_stress():
    _repeated(500)


@pytest.mark.slow
def test_a_worker_lost_ends_the_run_with_an_error_not_a_hang():
    done = _python("""
import os
import gm.solitaire.runs as runs

def dies_on_seed_3(seed, **kwargs):
    if seed == 3:
        os._exit(9)
    return 0

runs.cards_left = dies_on_seed_3
try:
    runs.run_deals(range(8), 7, "smart", 2, progress=False)
except runs.WorkerLost as error:
    print("lost:", error)
""")
    assert done.returncode == 0 and done.stdout.startswith("lost: a worker process ended"), done.stderr


@pytest.mark.slow
def test_a_failing_worker_says_why():
    done = _python("""
import gm.solitaire.runs as runs

def fails(seed, **kwargs):
    raise ValueError(f"seed {seed}")

runs.cards_left = fails
try:
    runs.run_deals(range(8), 7, "smart", 2, progress=False)
except runs.WorkerLost as error:
    print("lost:", error)
""")
    assert done.returncode == 0 and "ValueError: seed" in done.stdout, done.stderr


@pytest.mark.parametrize("free, expected", [(64 << 30, 2), (2 * runs.WORKER_BYTES, 2), (runs.WORKER_BYTES, 1),
                                            (1, 1), (None, 2)])
def test_workers_are_bounded_by_cores_and_free_memory(monkeypatch, free, expected):
    monkeypatch.setattr(runs, "cores", lambda: 2)
    monkeypatch.setattr(runs, "free_memory", lambda: free)
    assert runs.worker_limit(1000) == expected
    assert runs.worker_limit(1) == 1


def test_more_workers_than_cores_are_cut_with_a_note(monkeypatch):
    monkeypatch.setattr(runs, "cores", lambda: 2)
    monkeypatch.setattr(runs, "free_memory", lambda: 64 << 30)
    used = []
    real = runs.run_deals
    monkeypatch.setattr(runs, "run_deals", lambda seeds, rows, policy, workers, **kw: used.append(workers)
                        or real(seeds, rows, policy, 1, **kw))
    result = CliRunner().invoke(app, ["solitaire", "simulate", "--deals", "20", "--workers", "64", "--json"])
    assert result.exit_code == 0, result.stderr
    assert used == [2]
    assert result.stderr.strip() == ("gm: Using 2 worker processes, not 64: this machine has 2 cores "
                                     "and memory free for 436.")
