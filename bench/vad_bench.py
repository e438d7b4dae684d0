"""Utterances found in a room whose noise never stops: the energy cutter against Silero's detector.

A table's answers (counts, names, yes/no, "done", "the graveyard"), said by flite and espeak-ng
voices at speeds drawn by a recipe fixed before the run (RECIPE_SEED), each at its own level
(±4 dB), 2–5 s apart, are laid into one stream over a CONTINUOUS noise bed (the noise runs from
the stream's first second to its last, not only under each answer): clean, pink noise and babble
(six espeak-ng sentences, three talkers at a time) at 15 and 5 dB SNR (of the answers' speech),
at 16 kHz and at 48 kHz. Each cutter is fed the stream 0.1 s at a time, as the microphone
delivers it.

Per answer (its speech: where the rendered answer is within 40 dB of its loudest 20 ms):
  found     one utterance holds >= 80% of its speech and runs <= MORE_S beyond it (both sides together)
  split     two or more utterances hold parts of it
  too long  one utterance holds it, but runs on more than MORE_S beyond it
  missed    no utterance holds 80% of it
and per stream: false cuts (utterances that hold no answer's speech at all), and the median CPU
time of one 0.1 s block fed.

    .venv/bin/python bench/vad_bench.py [--answers 30] [--cutters energy,silero]

Measured (2 cores, shared): of 300 answers (10 streams of 30), the energy cutter found 156 with 32
false cuts (pink 5 dB: 17 and 14 of 30), Silero 180 with none (pink 5 dB: 30 and 30); in babble
neither does (energy 7 of 120, Silero 0: the talk around is speech, and an answer is kept inside
a 12 s utterance of it). With the room's level (`gm.hearing.vad.RoomLevel`) and an utterance 6 s
long taken for the room talking (`ROOM_TALKS_SECONDS`), Silero finds 17 of 120 in babble, with 12
false cuts. A 0.1 s block costs 0.04 ms to cut by loudness, about 5 ms by Silero.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.hearing.utterance import Cutter  # noqa: E402

RECIPE_SEED = 3706
BLOCK = 0.1  # seconds a microphone block holds (gm.hearing.sources.BLOCK_SECONDS)
MORE_S = 1.0  # an utterance may run this much beyond an answer's speech (pads, the detector's lag)
COVER = 0.8  # share of an answer's speech an utterance must hold
LEAD_S = 3.0  # noise alone before the first answer
TAIL_S = 4.0  # and after the last
ANSWERS = (["zero", "one", "two", "three", "four", "five", "six", "none"]
           + ["Alice", "Mike", "Kate", "Tom", "Ben", "Lucy", "Sam", "Emma"]
           + ["yes", "no", "yeah", "done", "the graveyard", "two votes"])
FLITE = ["slt", "rms", "awb", "kal"]
ESPEAK = ["en-us", "en", "en-us+f2", "en-us+m3", "en+f4", "en-us+m5"]
BABBLE = ["The weather was terrible on the way home tonight.",
          "Did you see what she played in the second round?",
          "I think we should order some more food before it closes.",
          "My brother is moving to another city next month.",
          "Pass me the cards, I will shuffle them this time.",
          "Nobody believed him when he said he was the seer."]
CONDITIONS = ["clean", "pink 15 dB", "pink 5 dB", "babble 15 dB", "babble 5 dB"]
RATES = [16000, 48000]


@dataclass
class Answer:
    text: str
    voice: tuple
    gain_db: float
    gap: float


def recipe(count: int, seed: int = RECIPE_SEED) -> list[Answer]:
    """The answers in order, each with its voice (engine, name, speed or stretch, pitch), level and
    the silence before it: drawn before anything is cut."""
    rng = random.Random(seed)
    answers = []
    for _ in range(count):
        if rng.random() < 0.5:
            voice = ("flite", rng.choice(FLITE), round(rng.uniform(0.8, 1.3), 2), 0)
        else:
            voice = ("espeak-ng", rng.choice(ESPEAK), rng.randint(120, 210), rng.randint(30, 70))
        answers.append(Answer(rng.choice(ANSWERS), voice, rng.uniform(-4, 4), rng.uniform(2.0, 5.0)))
    return answers


def render(text: str, voice: tuple, folder: Path) -> tuple[int, np.ndarray]:
    engine, name, speed, pitch = voice
    path = folder / "said.wav"
    if engine == "flite":
        command = ["flite", "-voice", name, "--setf", f"duration_stretch={speed}", "-t", text, "-o", str(path)]
    else:
        command = ["espeak-ng", "-v", name, "-s", str(speed), "-p", str(pitch), "-w", str(path), text]
    subprocess.run(command, check=True, capture_output=True)
    with wave.open(str(path), "rb") as wav:
        rate, audio = wav.getframerate(), wav.readframes(wav.getnframes())
    return rate, np.frombuffer(audio, dtype="<i2").astype(np.float64)


def at_rate(x: np.ndarray, source: int, rate: int) -> np.ndarray:
    """`x` resampled to `rate`: band-limited by FFT (no aliasing going down, no images going up)."""
    if source == rate:
        return x
    n = int(round(len(x) * rate / source))
    spectrum = np.fft.rfft(x)
    keep = min(len(spectrum), n // 2 + 1)
    out = np.zeros(n // 2 + 1, dtype=complex)
    out[:keep] = spectrum[:keep]
    return np.fft.irfft(out, n) * (n / len(x))


def pink(n: int, rng: np.random.Generator) -> np.ndarray:
    spectrum = np.fft.rfft(rng.normal(size=n))
    spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
    noise = np.fft.irfft(spectrum, n)
    return noise / np.sqrt((noise ** 2).mean())


def speech_span(x: np.ndarray, rate: int) -> tuple[int, int]:
    """First and last sample of the 20 ms frames within 40 dB of the loudest."""
    frame = int(0.02 * rate)
    count = len(x) // frame
    levels = np.sqrt((x[: count * frame].reshape(count, frame) ** 2).mean(axis=1))
    loud = np.flatnonzero(levels > levels.max() * 10 ** (-40 / 20))
    return int(loud[0]) * frame, (int(loud[-1]) + 1) * frame


@dataclass
class Stream:
    rate: int
    condition: str
    pcm: bytes
    spans: list[tuple[float, float]]  # each answer's speech, seconds


def build(answers: list[Answer], said: list[tuple[int, np.ndarray]], babble: list[tuple[int, np.ndarray]],
          rate: int, condition: str) -> Stream:
    level = 32768 * 10 ** (-26 / 20)  # the answers' speech, before each one's own gain
    parts, spans, at = [np.zeros(int(LEAD_S * rate))], [], int(LEAD_S * rate)
    speech_power, speech_samples = 0.0, 0
    for answer, (source, x) in zip(answers, said):
        y = at_rate(x, source, rate)
        start, end = speech_span(y, rate)
        y = y[start:end]
        y *= level * 10 ** (answer.gain_db / 20) / np.sqrt((y ** 2).mean())
        gap = np.zeros(int(answer.gap * rate))
        parts += [gap, y]
        at += len(gap)
        spans.append((at / rate, (at + len(y)) / rate))
        at += len(y)
        speech_power += float((y ** 2).sum())
        speech_samples += len(y)
    parts.append(np.zeros(int(TAIL_S * rate)))
    clean = np.concatenate(parts)
    speech_rms = np.sqrt(speech_power / speech_samples)
    rng = np.random.default_rng([RECIPE_SEED, rate, CONDITIONS.index(condition)])
    if condition == "clean":
        noisy = clean
    else:
        kind, snr = condition.split()[0], float(condition.split()[1])
        if kind == "pink":
            bed = pink(len(clean), rng)
        else:
            talkers = [at_rate(x, source, rate) for source, x in babble]
            bed = np.zeros(len(clean))
            for voice in range(3):  # three talkers at a time, each going through the sentences in turn
                order = [talkers[(voice * 2 + k) % len(talkers)] for k in range(len(talkers))]
                line = np.concatenate([np.concatenate([t, np.zeros(int(rng.uniform(0.1, 0.6) * rate))])
                                       for t in order])
                shift = int(rng.uniform(0, len(line)))
                bed += np.resize(np.roll(line, shift), len(clean))
            bed /= np.sqrt((bed ** 2).mean())
        noisy = clean + bed * speech_rms / 10 ** (snr / 20)
    pcm = np.clip(np.round(noisy), -32768, 32767).astype("<i2").tobytes()
    return Stream(rate, condition, pcm, spans)


def cut(stream: Stream, make) -> tuple[list[tuple[float, float]], list[float]]:
    """The utterances a cutter finds in the stream fed as a microphone feeds it (seconds), and the
    CPU seconds of each block."""
    cutter = make(stream.rate)
    step = 2 * int(BLOCK * stream.rate)
    found: list[tuple[float, float]] = []
    costs: list[float] = []

    def place(utterances: list[bytes], fed: int) -> None:
        for utterance in utterances:
            at = stream.pcm.find(utterance, max(0, fed - len(utterance) - 2 * int(5 * stream.rate)))
            assert at >= 0 and at % 2 == 0
            found.append((at / 2 / stream.rate, (at + len(utterance)) / 2 / stream.rate))

    for at in range(0, len(stream.pcm), step):
        block = stream.pcm[at:at + step]
        began = time.process_time()
        done = cutter.feed(block)
        costs.append(time.process_time() - began)
        place(done, at + len(block))
    place(cutter.flush(), len(stream.pcm))
    return found, costs


def score(spans: list[tuple[float, float]], utterances: list[tuple[float, float]]) -> dict[str, int]:
    result = dict.fromkeys(("found", "split", "too long", "missed", "false cuts"), 0)
    for start, end in spans:
        length = end - start
        holding = [(s, e) for s, e in utterances if min(e, end) - max(s, start) > 0.1 * length]
        best = max(holding, key=lambda u: min(u[1], end) - max(u[0], start), default=None)
        if best is not None and (min(best[1], end) - max(best[0], start)) >= COVER * length:
            beyond = max(0.0, start - best[0]) + max(0.0, best[1] - end)
            result["found" if beyond <= MORE_S else "too long"] += 1
        elif len(holding) >= 2:
            result["split"] += 1
        else:
            result["missed"] += 1
    for s, e in utterances:
        if not any(min(e, end) - max(s, start) > 0 for start, end in spans):
            result["false cuts"] += 1
    return result


def cutters(names: list[str]) -> dict[str, object]:
    made = {}
    for name in names:
        if name == "energy":
            made[name] = Cutter
        elif name == "silero":
            from gm.hearing.vad import VadCutter

            made[name] = VadCutter
        else:
            raise SystemExit(f"no cutter {name!r}")
    return made


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=30)
    parser.add_argument("--cutters", default="energy,silero")
    parser.add_argument("--conditions", default=",".join(CONDITIONS))
    parser.add_argument("--rates", default=",".join(map(str, RATES)))
    args = parser.parse_args()
    answers = recipe(args.answers)
    makers = cutters(args.cutters.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        said = [render(a.text, a.voice, Path(tmp)) for a in answers]
        babble = [render(line, ("espeak-ng", ESPEAK[k % len(ESPEAK)], 150 + 10 * k, 40 + 5 * k), Path(tmp))
                  for k, line in enumerate(BABBLE)]
    print(f"{args.answers} answers a stream (recipe seed {RECIPE_SEED}), continuous noise, 0.1 s blocks; "
          f"found = one utterance, >= {COVER:.0%} of the speech, <= {MORE_S:g} s beyond it")
    header = f"{'rate':>6} {'condition':<13} {'cutter':<7} {'found':>5} {'split':>5} {'long':>5} {'missed':>6} " \
             f"{'false':>5} {'block ms':>8}"
    print(header)
    print("-" * len(header))
    totals: dict[str, dict[str, int]] = {}
    costs_all: dict[str, list[float]] = {}
    for rate in map(int, args.rates.split(",")):
        for condition in args.conditions.split(","):
            stream = build(answers, said, babble, rate, condition)
            for name, make in makers.items():
                utterances, costs = cut(stream, make)
                result = score(stream.spans, utterances)
                for key, value in result.items():
                    totals.setdefault(name, {}).setdefault(key, 0)
                    totals[name][key] += value
                costs_all.setdefault(name, []).extend(costs)
                print(f"{rate:>6} {condition:<13} {name:<7} {result['found']:>5} {result['split']:>5} "
                      f"{result['too long']:>5} {result['missed']:>6} {result['false cuts']:>5} "
                      f"{1000 * statistics.median(costs):>8.2f}", flush=True)
    print("-" * len(header))
    for name, total in totals.items():
        print(f"{'all':>6} {'':<13} {name:<7} {total['found']:>5} {total['split']:>5} {total['too long']:>5} "
              f"{total['missed']:>6} {total['false cuts']:>5} {1000 * statistics.median(costs_all[name]):>8.2f}")


if __name__ == "__main__":
    main()
