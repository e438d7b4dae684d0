"""What each listener takes at a count question, from answers and from what answers nothing.

A recipe fixed before the run (RECIPE_SEED) draws, for every utterance, its speaker (flite
voices kal, awb, rms, slt; espeak-ng English variants at a drawn speed and pitch) and its room
(clean, or continuous pink noise at 10 dB SNR). The question is "how many votes for …?" with
counts 0–4 (`gm voice hear --answers 0,1,2,3,4`), as a 4-player night asks it. What is said:

- answers: "zero", "none", "nobody", "no votes", "one", "one vote", "two", "two votes", "three",
  "four"; each is right when the count it says is taken;
- sentences, other words, numbers not asked (five to nine), yes/no words, and names not at the
  table: each kind is accepted when the listener takes any count from it.

Every listener hears the same files through `gm voice hear` (the night's phrasebook and
validation). Prints, per listener: answers right / wrong / not taken, and accepted non-answers
per kind, with the share; then the median seconds per utterance.

Run: .venv/bin/python bench/non_answers_bench.py [--listeners whisper,pocketsphinx] [--seed N]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

RECIPE_SEED = 3707
ANSWERS = {"zero": "0", "none": "0", "nobody": "0", "no votes": "0", "one": "1", "one vote": "1", "two": "2",
           "two votes": "2", "three": "3", "four": "4"}
NON_ANSWERS = {
    "sentences": ["I think it was him", "wait a second", "what did you say", "let me think about it",
                  "hold on, I am counting", "that is not fair"],
    "other words": ["window", "pizza", "table", "coffee", "later", "maybe"],
    "numbers not asked": ["five", "six", "seven", "eight", "nine", "ten"],
    "yes/no": ["yes", "no", "yeah", "nope", "sure", "nah"],
    "names not at the table": ["Mary", "Oliver", "Lucy", "James", "Emma", "Noah"],
}
FLITE = ["kal", "awb", "rms", "slt"]
ESPEAK = ["en-us", "en-gb", "en-us+m3", "en-us+f2", "en+m1", "en-gb+f3"]


def render(text: str, rng: random.Random, path: Path) -> str:
    """`text` said by a drawn speaker into `path` (16 kHz mono), in a drawn room; the speaker."""
    raw = path.with_suffix(".raw.wav")
    if rng.random() < 0.5:
        voice = rng.choice(FLITE)
        subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(raw)], check=True)
        who = f"flite {voice}"
    else:
        voice, speed, pitch = rng.choice(ESPEAK), rng.randint(130, 190), rng.randint(30, 70)
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(raw), text], check=True)
        who = f"espeak-ng {voice} {speed}"
    with wave.open(str(raw)) as wav:
        rate = wav.getframerate()
        samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2").astype(np.float64)
    if rate != 16000:
        samples = np.interp(np.arange(int(len(samples) * 16000 / rate)) * rate / 16000, np.arange(len(samples)),
                            samples)
    samples = np.concatenate([np.zeros(8000), samples, np.zeros(8000)])
    noisy = rng.random() < 0.5
    if noisy:
        white = np.random.default_rng(rng.randrange(1 << 30)).standard_normal(len(samples))
        spectrum = np.fft.rfft(white) / np.sqrt(np.maximum(np.arange(len(white) // 2 + 1), 1))
        pink = np.fft.irfft(spectrum, len(white))
        speech = np.sqrt(np.mean(samples[np.abs(samples) > 0] ** 2))
        samples = samples + pink / np.sqrt(np.mean(pink ** 2)) * speech / 10 ** (10 / 20)
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes(np.clip(samples, -32768, 32767).astype("<i2").tobytes())
    raw.unlink()
    return who + (", pink 10 dB" if noisy else ", clean")


def heard(listener: str, files: list[Path]) -> tuple[list[str | None], float]:
    """The count each file gives through `gm voice hear`, and the seconds per file."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "gm", "voice", "hear", *map(str, files), "--answers", "0,1,2,3,4",
                             "--listener", listener, "--json"], capture_output=True, text=True, check=True)
    seconds = (time.perf_counter() - start) / len(files)
    return [json.loads(line)["answer"] for line in result.stdout.splitlines()], seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listeners", default="whisper,pocketsphinx")
    parser.add_argument("--seed", type=int, default=RECIPE_SEED)
    parser.add_argument("--takes", type=int, default=2, help="renders of each phrase")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    said: list[tuple[str, str, str | None]] = []  # (kind, text, count it says)
    for _ in range(options.takes):
        said += [("answers", text, count) for text, count in ANSWERS.items()]
        said += [(kind, text, None) for kind, texts in NON_ANSWERS.items() for text in texts]
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for index, (_, text, _) in enumerate(said):
            path = Path(tmp) / f"{index:03d}.wav"
            render(text, rng, path)
            files.append(path)
        for listener in options.listeners.split(","):
            got, seconds = heard(listener, files)
            print(f"{listener}: {seconds:.2f} s per utterance (model load included)")
            right = sum(1 for (k, _, c), g in zip(said, got) if k == "answers" and g == c)
            wrong = sum(1 for (k, _, c), g in zip(said, got) if k == "answers" and g is not None and g != c)
            total = sum(1 for k, _, _ in said if k == "answers")
            missed = [f"{t!r} as {g}" for (k, t, c), g in zip(said, got) if k == "answers" and g != c]
            print(f"  answers: {right} right, {wrong} wrong, {total - right - wrong} not taken, of {total}"
                  + (f" (missed: {', '.join(missed)})" if missed else ""))
            for kind in NON_ANSWERS:
                taken = [(t, g) for (k, t, _), g in zip(said, got) if k == kind and g is not None]
                count = sum(1 for k, _, _ in said if k == kind)
                print(f"  {kind}: {len(taken)} of {count} taken ({100 * len(taken) / count:.0f}%)"
                      + (f": {', '.join(f'{t!r} as {g}' for t, g in taken)}" if taken else ""))
    print(f"recipe seed {options.seed}; {len(said)} utterances")


if __name__ == "__main__":
    main()
