"""flite in process (libflite1 through ctypes) against the `flite` program, medians of interleaved runs.

run: .venv/bin/python bench/flite_bench.py [--runs 15]

1. one render of a one-sentence and of a three-sentence line, by the same engine both ways;
2. the whole process `gm voice say "Ken: 5 votes." --to x.wav`, in process and with the program
   (the library hidden, as on a machine without libflite1), against `espeak-ng -w` and `flite -o`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.speech.engines import flite, flite_library  # noqa: E402
from gm.speech.settings import SpeechSettings  # noqa: E402
from gm.text.lines import Pack  # noqa: E402

SHORT = "Ken: 5 votes."
WITHOUT_LIBRARY = ("import sys; from gm.speech.engines import flite_library; flite_library.load = lambda: None; "
                   "sys.argv[0] = 'gm'; from gm.launch import main; main()")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def engines() -> dict[str, flite.Engine]:
    """The default English engine in process, and the same with the library hidden."""
    found = {"in process": flite.Engine(SpeechSettings("en"))}
    with mock.patch.object(flite_library, "load", lambda: None):
        found["program"] = flite.Engine(SpeechSettings("en"))
    return found


def renders(runs: int) -> None:
    lines = {"1 sentence": SHORT, "3 sentences": Pack("en").line("werewolf.regulation_dead").text}
    ways = engines()
    for engine in ways.values():
        engine.render("Warm up.")
    times: dict[tuple[str, str], list[float]] = {(w, k): [] for k in lines for w in ways}
    for _ in range(runs):
        for what, text in lines.items():
            for way, engine in ways.items():
                start = time.perf_counter()
                engine.render(text)
                times[way, what].append(time.perf_counter() - start)
    print(f"1. one render (ms, median of {runs})")
    for (way, what), samples in times.items():
        print(f"   {what:<12} ({len(lines[what]):>3} chars) {way:<11} {median_ms(samples):7.1f}")
    for engine in ways.values():
        engine.close()


def whole_process(runs: int, folder: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")  # compiled once, as in an installed gm
    out = str(folder / "x.wav")
    say = ["voice", "say", SHORT, "--to", out]
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "gm voice say --to, in process": [sys.executable, "-m", "gm", *say],
        "gm voice say --to, program": [sys.executable, "-c", WITHOUT_LIBRARY, *say],
        "espeak-ng -w": ["espeak-ng", "-w", out, SHORT],
        "flite -o": ["flite", "-voice", "slt", "-t", SHORT, "-o", out],
    }
    commands = {k: c for k, c in commands.items() if shutil.which(c[0])}
    times: dict[str, list[float]] = {label: [] for label in commands}
    for command in commands.values():  # warm up (and compile)
        subprocess.run(command, env=env, cwd=folder, capture_output=True, check=True)
    for _ in range(runs):
        for label, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, env=env, cwd=folder, capture_output=True, check=True)
            times[label].append(time.perf_counter() - start)
    print(f"\n2. whole process, {SHORT!r} to a WAV file (ms, median of {runs}, interleaved)")
    for label, samples in times.items():
        print(f"   {label:<32} {median_ms(samples):7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if flite_library.load() is None or shutil.which("flite") is None:
        sys.exit("bench: needs flite's libraries (libflite1) and its program (flite)")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    renders(args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        whole_process(args.runs, Path(tmp))
    print(f"\nload average {os.getloadavg()[0]:.2f} after the runs")


if __name__ == "__main__":
    main()
