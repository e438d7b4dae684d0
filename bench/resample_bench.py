"""English heard from a 48 kHz microphone: gm's resampling to 16 kHz, low-passed first against not.

    .venv/bin/python bench/resample_bench.py [--seed 3] [--out DIR]

A laptop's microphone records at 48 kHz (gm opens it at the device's rate); pocketsphinx's en-us
model hears 16 kHz. Linear interpolation (gm before) folds what lies above 8 kHz (a room's hiss,
the top of a fricative) into the speech; low-passing it first (`gm.hearing.sphinx._at_16k`)
drops it. Every in-set answer of bench/listen_bench.py's English night, said by each of its
voices, and its non-answers by one voice each (drawn by `--seed`), are brought to 48 kHz
band-limited (as a microphone records them), clean and in pink noise at 20 and 10 dB SNR, and
heard by gm's listener both ways. Printed: right / wrong / rejected by condition, and the
non-answers accepted.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import zlib
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import listen_bench as lb  # noqa: E402

from gm.hearing import sphinx  # noqa: E402
from gm.text.vocabulary import Vocabulary  # noqa: E402
from gm.hearing.listening import phrasebook  # noqa: E402

MIC_RATE = 48000
CONDITIONS = ("clean", "pink 20 dB", "pink 10 dB")


def linear(audio: bytes, rate: float) -> bytes:
    """gm's resampling before: linear interpolation, nothing filtered."""
    import numpy as np

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2").astype(np.float32)
    count = int(len(samples) * sphinx.RATE / rate)
    at = np.arange(count) * (rate / sphinx.RATE)
    return np.interp(at, np.arange(len(samples)), samples).astype("<i2").tobytes()


def at_mic_rate(x, rate: float):
    """Float samples `x` at `rate` as a 48 kHz microphone records them (band-limited)."""
    import numpy as np

    count = int(len(x) * MIC_RATE / rate)
    spectrum = np.fft.rfft(x)
    return np.fft.irfft(np.pad(spectrum, (0, count // 2 + 1 - len(spectrum))), count) * count / len(x)


def main() -> None:
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3, help="draws the noise and the non-answers' voices")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gm_resample_bench")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    night, model = lb.ENGLISH, sphinx.load()
    vocabulary = Vocabulary.from_pack(night.pack)
    questions = night.questions()
    books = {q.key: phrasebook(q, model, vocabulary, night.pack.spoken_word, night.players) for q in questions}
    pick = random.Random(args.seed)
    tries = [(phrase, voice, q.key, answer) for q, answer, phrase in night.in_set for voice in night.voices]
    asked = {"numbers not asked": ("count",), "names not at the table": ("who",), "held-out names": ("who",)}
    tries += [(phrase, pick.choice(night.voices), key, kind) for kind, phrases in night.non_answers.items()
              for phrase in phrases for key in asked.get(kind, [q.key for q in questions])]
    ways = {"linear (before)": linear, "low-passed (gm)": sphinx._at_16k}
    tally: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for phrase, voice, key, expected in tries:
        rate, x = lb.say(phrase, voice, args.out / f"{zlib.crc32(repr((phrase, voice)).encode())}.wav")
        x = at_mic_rate(np.concatenate([np.zeros(int(0.4 * rate)), x, np.zeros(int(0.4 * rate))]), rate)
        for condition in CONDITIONS:
            rng = np.random.default_rng(zlib.crc32(repr((phrase, voice, key, condition, args.seed)).encode()))
            y = x
            if condition != "clean":
                y = x + lb.pink(len(x), rng) * lb.rms(x[np.abs(x) > 100]) / 10 ** (float(condition.split()[1]) / 20)
            pcm = np.clip(np.round(y), -32768, 32767).astype("<i2").tobytes()
            for name, resample in ways.items():
                sphinx._at_16k = resample
                got = lb.gm_answer(model, float(MIC_RATE), pcm, books[key])
                if expected in night.non_answers:
                    tally[(name, "non-answers")]["accepted" if got is not None else "refused"] += 1
                else:
                    verdict = "rejected" if got is None else "right" if got == expected else "wrong"
                    tally[(name, condition)][verdict] += 1
    sphinx._at_16k = ways["low-passed (gm)"]
    print(f"en at {MIC_RATE} Hz: {len(night.in_set) * len(night.voices)} in-set answers and "
          f"{len(tries) - len(night.in_set) * len(night.voices)} non-answer tries a condition, seed {args.seed}")
    for name in ways:
        for condition in CONDITIONS:
            c = tally[(name, condition)]
            n = sum(c.values())
            print(f"  {name:18} {condition:11} right {lb.pct(c['right'], n)} wrong {lb.pct(c['wrong'], n)} "
                  f"rejected {lb.pct(c['rejected'], n)}")
        c = tally[(name, "non-answers")]
        print(f"  {name:18} non-answers accepted {lb.pct(c['accepted'], sum(c.values()))} "
              f"(all conditions, {sum(c.values())} tries)")


if __name__ == "__main__":
    main()
