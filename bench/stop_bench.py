"""How long gm takes to stop when it is told to (SIGTERM, SIGHUP: the terminal closed) in the middle
of a line, through the loudspeaker and microphone path of bench/virtual_table.py.

    .venv/bin/python bench/stop_bench.py [--lang ja] [--after 25] [--runs 3]

gm starts a night (`--device pulse`, speech on the room's null sink) and is sent the signal
`--after` seconds in: in Japanese, 25 s is inside the deal's line (about 20 s long, said after
the opening line). Prints each run's seconds from the signal to gm's exit and its exit code, then
the median. Needs PulseAudio (`pulseaudio`, `libasound2-plugins`), as the virtual table does.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from virtual_table import Microphone, PulseRoom, english_night, gm_command, gm_env, japanese_night, \
    pulseaudio_missing  # noqa: E402


def stopped_after(lang: str, after: float, sig: signal.Signals, folder: Path) -> tuple[float, int | None]:
    """Seconds from `sig` to gm's exit, and its exit code (None: killed 90 s after the signal)."""
    script = japanese_night() if lang == "ja" else english_night()
    with PulseRoom(folder) as pulse, Microphone(pulse.fifo, snr_db=20, seed=7):
        env = gm_env(pulse.env) | {"PYTHONUNBUFFERED": "1"}
        env.pop("GM_SPEECH", None)
        with (folder / "gm.out").open("wb") as out, (folder / "gm.err").open("wb") as err:
            gm = subprocess.Popen(gm_command(script, folder / "night.jsonl"), env=env, stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=err, cwd=folder)
            time.sleep(after)
            sent = time.monotonic()
            os.kill(gm.pid, sig)
            try:
                code: int | None = gm.wait(90)
            except subprocess.TimeoutExpired:
                gm.kill()
                gm.wait()
                code = None
            return time.monotonic() - sent, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="ja", choices=("en", "ja"))
    parser.add_argument("--after", type=float, default=25.0, help="seconds into the night the signal is sent")
    parser.add_argument("--signal", default="SIGTERM", choices=("SIGTERM", "SIGHUP"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    missing = pulseaudio_missing()
    if missing:
        sys.exit(f"stop_bench: {missing}")
    seconds = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            took, code = stopped_after(args.lang, args.after, getattr(signal, args.signal), Path(folder))
        seconds.append(took)
        print(f"run {run + 1}: stopped {took:.1f} s after {args.signal} (exit {code})", flush=True)
    print(f"median {statistics.median(seconds):.1f} s ({args.lang}, {args.signal} {args.after:g} s in)")


if __name__ == "__main__":
    main()
