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


def main() -> None:
    """Run gm's command line on usable standard streams (before Typer or rich touch them), numpy's
    BLAS on one thread (before anything loads numpy)."""
    usable_standard_streams()
    one_blas_thread()
    from gm.cli import main as command_line

    command_line()
