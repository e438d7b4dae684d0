"""The vote by voice when everything is heard: table answers and seconds of gm's speech.

    .venv/bin/python bench/vote_bench.py                 # English, this tree
    .venv/bin/python bench/vote_bench.py --lang ja,ko    # the other packs (Open JTalk, espeak-ng)
    .venv/bin/python bench/vote_bench.py --tree DIR      # another checkout (e.g. main), same figures
    .venv/bin/python bench/vote_bench.py --lines         # also each line said, with its seconds

A table of 4 and of 6 players votes by voice through the real `VoiceAsker` (the recogniser is
a fake that hears exactly what the table says; every word sure). The table answers what gm
asks in the words of gm's own grammar for the question: a count when asked for one, "yes" at a
read-back; with `one_breath`, the whole tally by name at the first count question ("aki three
ken one") where gm hears it there (`gm.table.questions.ONE_BREATH_AT_COUNT`). Every line gm
says from the vote's first line to the execution is rendered to WAV with the language's
default voice (the speaker of `--speech wav:DIR`) and the durations are summed. Two tallies
per table size: the votes on the first candidates, and a vote on the last candidate (the
graveyard) too. Goal: at most 25 s of gm's speech, and table answers at most the candidates (the
players and the graveyard) + 1.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TALLIES = {
    4: [{0: 3, 1: 1}, {0: 2, "graveyard": 1}],
    6: [{0: 3, 1: 2, 2: 1}, {0: 3, 1: 2, "graveyard": 1}],
}
"""Votes by seat (0 is the first player) or the graveyard."""
PLAYERS = {"en": ["Aki", "Ken", "Mio", "Sora", "Yui", "Rin"],
           "ja": ["アキ", "ケン", "ミオ", "ソラ", "ユイ", "リン"],
           "ko": ["민수", "지훈", "서연", "지민", "하은", "도윤"]}


class Clock:
    scale = 1.0

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += max(0.0, seconds)


class Recogniser:
    under_way = False  # an answer comes whole, in one block

    def __init__(self, source: Source) -> None:
        self.source = source

    def accept(self, block: bytes):
        if not block:
            return None
        from gm.hearing.phrases import Heard as GmHeard

        text = block.decode()
        return GmHeard(text, tuple((w, 1.0) for w in text.split()))

    def finish(self):
        from gm.hearing.phrases import Heard as GmHeard

        return GmHeard("")


class Model:
    unk = False

    def __init__(self, source: Source) -> None:
        self.source = source

    def hears(self, word: str) -> bool:
        return True

    def recogniser(self, rate: float, book=None) -> Recogniser:
        return Recogniser(self.source)


class Source:
    """The table's voice: what it says next, once gm has asked; silence otherwise."""

    rate = 16000.0

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.queue: list = []  # what the table says next, made once gm listens
        self.ended = False
        self.answers = 0

    def read(self, timeout: float) -> bytes | None:
        self.clock.sleep(min(timeout, 0.1))
        if self.queue:
            self.answers += 1
            return self.queue.pop(0)().encode()  # said once gm listens: to the question asked
        return b""

    def drain(self) -> None:
        """Nothing is recorded before gm asks."""

    def close(self) -> None:
        """Nothing to release."""


class Table:
    """The speaker gm talks through: each line is rendered to WAV, and the table answers the
    question being asked (`asking`) in the words of its grammar (`book`)."""

    def __init__(self, wav, source: Source, tally: dict[str, int], one_breath: bool) -> None:
        self.wav, self.source, self.tally, self.one_breath = wav, source, tally, one_breath
        self.speaking = False
        self.last_spoken_end = -math.inf
        self.lines: list = []  # (key, text) of each line said
        self.asking = None
        self.book = None

    def say(self, line) -> None:
        self.lines.append((line.key, line.text))
        self.wav.say(line)
        if line.key in ("werewolf.vote.ask_count", "werewolf.vote.ask_next"):
            self.source.queue.append(lambda: self.count(line.key == "werewolf.vote.ask_count"))
        elif line.key.startswith(("listen.confirm", "werewolf.vote.readback")):
            self.source.queue.append(lambda: self.phrase("yes"))

    def count(self, first: bool) -> str:
        """The whole tally by name at the first count, where gm hears it so; else this count."""
        if first and self.one_breath and any("=" in answer for answer in self.book.phrases.values()):
            return " ".join(self.phrase(f"{c}={self.tally[c]}") for c in self.asking.following if self.tally.get(c))
        return self.phrase(str(self.tally.get(self.asking.candidate, 0)))

    def phrase(self, token: str) -> str:
        """The first phrase of the grammar that says `token`."""
        return next(p for p, answer in self.book.phrases.items() if answer == token)

    def flush(self) -> None:
        self.wav.flush()

    def close(self) -> None:
        self.wav.close()


def seconds_of(folder: Path) -> list[float]:
    """Each rendered line's seconds, in the order said."""
    seconds = []
    for path in sorted(folder.glob("*.wav")):
        with wave.open(str(path)) as audio:
            seconds.append(audio.getnframes() / audio.getframerate())
    return seconds


def one_vote(lang: str, size: int, votes: dict[object, int], one_breath: bool,
             per_line: bool = False) -> dict[str, object]:
    from gm.hearing.keyboard import KeyboardAsker
    from gm.hearing.session import Listener
    from gm.hearing.voice import VoiceAsker
    from gm.night.context import NightContext
    from gm.night.vote import run_vote
    from gm.speech.settings import SpeechSettings
    from gm.speech.speakers import open_speaker
    from gm.text.lines import Voice
    from scorer.werewolf.decks import standard_deck
    import io

    players = PLAYERS[lang][:size]
    tally = {who if isinstance(who, str) else players[who]: n for who, n in votes.items()}

    class Asker(VoiceAsker):
        def _book(self, question):
            book = super()._book(question)
            table.asking, table.book = question, book
            return book

    with tempfile.TemporaryDirectory() as folder:
        voice = Voice(lang)
        clock = Clock()
        source = Source(clock)
        wav = open_speaker(SpeechSettings(lang, f"wav:{folder}"), echo=lambda text: None)
        table = Table(wav, source, tally, one_breath)
        keyboard = KeyboardAsker(clock, io.StringIO(), echo=lambda text: None)
        asker = Asker(Listener(Model(source), source), keyboard, table, voice, clock, seats=players)
        ctx = NightContext(players=players, deck=standard_deck(len(players)), voice=voice, speaker=table,
                           asker=asker, clock=clock)
        result = run_vote(ctx)
        table.flush()
        wav.close()
        seconds = seconds_of(Path(folder))
        figures = {"lang": lang, "players": size, "tally": tally, "one_breath": one_breath,
                   "executed": result.executed, "table_answers": source.answers, "lines": len(table.lines),
                   "characters": sum(len(text) for _, text in table.lines),
                   "speech_seconds": round(sum(seconds), 1)}
        if per_line:
            figures["per_line"] = [[key, text, round(s, 2)] for (key, text), s in zip(table.lines, seconds)]
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose gm to measure")
    parser.add_argument("--lang", default="en", help="the packs to measure, comma-separated (en,ja,ko)")
    parser.add_argument("--lines", action="store_true", help="also each line said, with its seconds")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree))
    for lang in args.lang.split(","):
        for size, tallies in TALLIES.items():
            for votes in tallies:
                for one_breath in (False, True):
                    print(json.dumps(one_vote(lang, size, votes, one_breath, args.lines), ensure_ascii=False))


if __name__ == "__main__":
    main()
