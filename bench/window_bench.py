"""Answers said as a listening window closes: heard at once, asked again, lost, or taken wrong.

gm listens LISTEN_SECONDS (8 s) for an answer. Here a table answers a count ("three") at a
moment from 6 to 8 s into the window, said by flite and espeak-ng voices, into a source that
delivers 16 kHz audio 0.1 s at a time as a microphone does, the clock moving with it, with
nothing said after it. Printed: how many were heard at the first window, heard after the
question was asked again, lost (the asker went to the keyboard) or taken as another count.

    .venv/bin/python bench/window_bench.py
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fakes import FakeClock, FakeSpeaker  # noqa: E402
from gm.hearing import sphinx  # noqa: E402
from gm.hearing.keyboard import AnswersExhausted, KeyboardAsker  # noqa: E402
from gm.hearing.recorded import read_wav  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.listening import ListeningAsker  # noqa: E402
from gm.table.questions import Counting, Table  # noqa: E402
from gm.text.lines import Pack  # noqa: E402

RATE = 16000
BLOCK = 0.1
VOICES = [["flite", "-voice", v] for v in ("rms", "slt", "awb", "kal")] + [
    ["espeak-ng", "-v", v] for v in ("en-us", "en-us+f2")]
OFFSETS = [round(6.0 + 0.1 * i, 1) for i in range(21)]
PLAYERS = ("Aki", "Ken", "Mio", "Sora")


class Paced:
    """Audio delivered as a microphone delivers it: a 0.1 s block when its time has come,
    silence after the audio."""

    def __init__(self, audio: bytes, clock: FakeClock) -> None:
        self.rate, self.ended = float(RATE), False
        self.audio, self.clock, self.at = audio, clock, 0
        self.next_at = clock.now() + BLOCK

    def read(self, timeout: float) -> bytes | None:
        wait = self.next_at - self.clock.now()
        if wait > timeout:
            self.clock.sleep(timeout)
            return None
        self.clock.sleep(max(0.0, wait))
        self.next_at += BLOCK
        step = 2 * int(BLOCK * RATE)
        block = self.audio[self.at:self.at + step]
        self.at += step
        return block if len(block) == step else bytes(step)

    def drain(self) -> None:
        """Audio comes in order: nothing to drop."""

    def close(self) -> None:
        """Nothing to release."""


def said(command: list[str], folder: Path) -> np.ndarray:
    path = folder / "said.wav"
    if command[0] == "flite":
        subprocess.run([*command, "-t", "three", "-o", str(path)], check=True, capture_output=True)
    else:
        subprocess.run([*command, "-w", str(path), "three"], check=True, capture_output=True)
    rate, audio = read_wav(path)
    return np.frombuffer(sphinx._at_16k(audio, rate), dtype="<i2")


def outcome(model: sphinx.SphinxModel, answer: np.ndarray, at: float) -> str:
    pack = Pack("en")
    audio = np.zeros(int(30 * RATE), dtype="<i2")
    audio[int(at * RATE):int(at * RATE) + len(answer)] = answer
    clock = FakeClock()
    speaker = FakeSpeaker()
    keyboard = KeyboardAsker(clock, io.StringIO(""), echo=lambda _: None)
    asker = ListeningAsker(Listener(model, Paced(audio.tobytes(), clock)), keyboard, speaker, pack, clock,
                           seats=PLAYERS)
    question = Table(pack, PLAYERS).count(PLAYERS[1:], 4, Counting((*PLAYERS, "graveyard")))
    try:
        value = dict(asker.ask(question).value)
    except AnswersExhausted:
        return "lost"
    if value != {"Ken": 3}:
        return "taken wrong"
    return "heard at once" if not speaker.lines else "asked again"


def main() -> None:
    model = sphinx.load()
    found: Counter[str] = Counter()
    by_offset: dict[float, Counter[str]] = {at: Counter() for at in OFFSETS}
    with tempfile.TemporaryDirectory() as tmp:
        for command in VOICES:
            answer = said(command, Path(tmp))
            for at in OFFSETS:
                kind = outcome(model, answer, at)
                found[kind] += 1
                by_offset[at][kind] += 1
    kinds = ("heard at once", "asked again", "lost", "taken wrong")
    print(f"{sum(found.values())} answers begun 6.0-8.0 s into an 8 s window, {len(VOICES)} voices:")
    print("  " + ", ".join(f"{kind} {found[kind]}" for kind in kinds))
    for at, seen in by_offset.items():
        print(f"  {at:.1f} s: " + ", ".join(f"{kind} {seen[kind]}" for kind in kinds if seen[kind]))


if __name__ == "__main__":
    main()
