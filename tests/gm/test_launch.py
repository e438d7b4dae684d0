"""The `gm` program's start (gm.launch): what it sets before any command runs."""

import os

from gm.launch import one_blas_thread


def test_gm_loads_numpy_with_one_blas_thread_unless_the_user_chose_otherwise(monkeypatch):
    # OpenBLAS's spare threads spin on the cores Whisper decodes with: one thread heard the same
    # answers in 0.24–0.29 s rather than 0.30–0.32 (bench/listener_latency_bench.py, seed 4905)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
