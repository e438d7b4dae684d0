"""Peak memory of `gm voice hear FILE.wav` for a small and a large WAV, in one run
(run: PYTHONPATH=. .venv/bin/python bench/hear_memory_bench.py [--mb 300] [--runs 3]).

Each run is a fresh process (`gm voice hear FILE --answers yes,no --json`) whose listener is a
stand-in that hears nothing, so the whole file is read and only gm's reading of it is measured
(a real decoder adds its own model, the same for both files). The files are generated here:
16 kHz mono 16-bit, low noise. Printed: per file, the median peak RSS and wall time of the runs,
and the ratio large / small (memory flat: about 1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

RATE = 16000


def write_wav(path: Path, megabytes: float) -> Path:
    """`megabytes` MB of low noise as a 16 kHz mono WAV, written a second at a time."""
    second = bytes((n * 37 + 11) % 7 for n in range(2 * RATE))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        for _ in range(int(megabytes * 1e6 / len(second)) or 1):
            out.writeframes(second)
    return path


def child(wav: str) -> None:
    """In the measured process: `gm voice hear` with a stand-in listener that hears nothing."""
    from gm.hearing import model_loading
    from gm.hearing.phrases import Heard

    class Deaf:
        under_way = False

        def accept(self, block: bytes) -> None:
            return None

        def finish(self) -> Heard:
            return Heard("")

    class StandIn:
        path, unk = Path("stand-in"), False

        def hears(self, word: str) -> bool:
            return True

        def recogniser(self, rate: float, book: object = None) -> Deaf:
            return Deaf()

    model_loading.load_model = lambda *args, **kwargs: StandIn()
    sys.argv = ["gm", "voice", "hear", wav, "--answers", "yes,no", "--json"]
    from gm.cli import main

    main()


def measure(wav: Path) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one `gm voice hear` of `wav`."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, __file__, "--child", str(wav)], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"gm voice hear {wav} failed")
    return usage.ru_maxrss / 1024, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=300, help="size of the large WAV in MB")
    parser.add_argument("--runs", type=int, default=3, help="runs per file (median)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        files = {"small": write_wav(Path(tmp) / "small.wav", 1), "large": write_wav(Path(tmp) / "large.wav", args.mb)}
        figures: dict[str, list[tuple[float, float]]] = {name: [] for name in files}
        for _ in range(args.runs):
            for name, wav in files.items():
                figures[name].append(measure(wav))
        medians = {name: (statistics.median(r for r, _ in runs), statistics.median(s for _, s in runs))
                   for name, runs in figures.items()}
        for name, (rss, seconds) in medians.items():
            print(f"{name:6} {files[name].stat().st_size / 1e6:8.1f} MB WAV: peak RSS {rss:7.1f} MB, "
                  f"{seconds:6.2f} s (median of {args.runs})")
        print(f"large / small peak RSS: {medians['large'][0] / medians['small'][0]:.2f}x")


if __name__ == "__main__":
    main()
