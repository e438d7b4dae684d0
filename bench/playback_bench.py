"""How long gm's loudspeaker takes to play a line, by PortAudio latency, through a real audio path.

A PulseAudio room as bench/virtual_table.py starts it (a null sink is the loudspeaker; PortAudio
reaches it through ALSA's pulse plugin, as on a Linux desktop) and gm's own player
(`gm.speech.player.DevicePlayer`) playing lines of 0.6, 1.5 and 4 s, `--takes` times each, in a
child process for each latency. Printed per latency: the median seconds each length took to play
and the underruns ALSA reported. A line should take about its own length; each underrun is a gap
the table hears.

Run: .venv/bin/python bench/playback_bench.py [--latencies low,high] [--takes 3]
(load the machine as a night does, e.g. with Whisper decoding, to see what a busy laptop does).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from virtual_table import PulseRoom, pulseaudio_missing  # noqa: E402

LENGTHS = (0.6, 1.5, 4.0)
PLAYER = r"""
import json, sys, threading, time
import numpy
from gm.speech import player
from gm.speech.audio import Audio

player.LATENCY = float(sys.argv[1]) if sys.argv[1][0].isdigit() else sys.argv[1]
device = player.DevicePlayer()
took = {}
for _ in range(int(sys.argv[2])):
    for seconds in json.loads(sys.argv[3]):
        audio = Audio(22050, numpy.zeros(int(22050 * seconds), dtype="<i2").tobytes())
        start = time.monotonic()
        device.play(audio, "line", threading.Event())
        took.setdefault(str(seconds), []).append(time.monotonic() - start)
print(json.dumps(took))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latencies", default="low,high")
    parser.add_argument("--takes", type=int, default=3)
    options = parser.parse_args()
    missing = pulseaudio_missing()
    if missing:
        sys.exit(f"no audio room: {missing}")
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp, PulseRoom(Path(tmp)) as pulse:
        for latency in options.latencies.split(","):
            run = subprocess.run([sys.executable, "-c", PLAYER, latency, str(options.takes), json.dumps(LENGTHS)],
                                 env=pulse.env | {"PYTHONPATH": str(root)}, capture_output=True, text=True,
                                 timeout=600, check=True)
            took = json.loads(run.stdout)
            medians = ", ".join(f"{s} s line: {statistics.median(took[str(s)]):.2f} s" for s in LENGTHS)
            print(f"latency {latency}: {medians}; underruns {run.stderr.count('underrun occurred')}")


if __name__ == "__main__":
    main()
