"""The vote by voice when everything is heard: table answers and seconds of gm's speech.

    .venv/bin/python bench/vote_bench.py            # this tree
    .venv/bin/python bench/vote_bench.py --tree DIR  # another checkout (e.g. main), same figures

A table of 4 and of 6 players votes by voice through the real `VoiceAsker` (the recogniser is
a fake that hears exactly what the table says; every word sure). The table answers what gm
asks: a count when asked for one, "yes" at a read-back. Every line gm says from the vote's
first line to the execution is rendered to WAV with the default English voice (the speaker
of `--speech wav:DIR`) and the durations are summed. Two tallies per table size: the votes on
the first candidates, and a vote on the last candidate (the graveyard) too.
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
    4: [{"Aki": 3, "Ken": 1}, {"Aki": 2, "graveyard": 1}],
    6: [{"Aki": 3, "Ken": 2, "Mio": 1}, {"Aki": 3, "Ken": 2, "graveyard": 1}],
}
PLAYERS = ["Aki", "Ken", "Mio", "Sora", "Yui", "Rin"]
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six")


class Clock:
    scale = 1.0

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += max(0.0, seconds)


class Recogniser:
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
        self.queue: list[str] = []
        self.ended = False
        self.answers = 0

    def read(self, timeout: float) -> bytes | None:
        self.clock.sleep(min(timeout, 0.1))
        if self.queue:
            self.answers += 1
            return self.queue.pop(0).encode()
        return b""

    def drain(self) -> None:
        """Nothing is recorded before gm asks."""

    def close(self) -> None:
        """Nothing to release."""


class Table:
    """The speaker gm talks through: each line is rendered to WAV, and the table answers it."""

    def __init__(self, wav, source: Source, tally: dict[str, int], players: list[str]) -> None:
        self.wav, self.source, self.tally = wav, source, tally
        self.players = players
        self.speaking = False
        self.last_spoken_end = -math.inf
        self.lines = 0

    def say(self, line) -> None:
        self.lines += 1
        self.wav.say(line)
        fields = line.fields
        if line.key == "werewolf.vote.ask_count":
            who = fields["candidate"]
            who = "graveyard" if who not in self.players else who
            self.source.queue.append(NUMBERS[self.tally.get(who, 0)])
        elif line.key.startswith(("listen.confirm", "werewolf.vote.readback")):
            self.source.queue.append("yes")

    def flush(self) -> None:
        self.wav.flush()

    def close(self) -> None:
        self.wav.close()


def seconds_of(folder: Path) -> float:
    total = 0.0
    for path in sorted(folder.glob("*.wav")):
        with wave.open(str(path)) as audio:
            total += audio.getnframes() / audio.getframerate()
    return total


def one_vote(players: list[str], tally: dict[str, int]) -> dict[str, object]:
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

    with tempfile.TemporaryDirectory() as folder:
        voice = Voice("en")
        clock = Clock()
        source = Source(clock)
        wav = open_speaker(SpeechSettings("en", f"wav:{folder}"), echo=lambda text: None)
        table = Table(wav, source, tally, players)
        keyboard = KeyboardAsker(clock, io.StringIO(), echo=lambda text: None)
        asker = VoiceAsker(Listener(Model(source), source), keyboard, table, voice, clock, seats=players)
        ctx = NightContext(players=players, deck=standard_deck(len(players)), voice=voice, speaker=table,
                           asker=asker, clock=clock)
        result = run_vote(ctx)
        table.flush()
        wav.close()
        return {"players": len(players), "tally": tally, "executed": result.executed,
                "table_answers": source.answers, "lines": table.lines,
                "speech_seconds": round(seconds_of(Path(folder)), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose gm to measure")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree))
    for size, tallies in TALLIES.items():
        for tally in tallies:
            print(json.dumps(one_vote(PLAYERS[:size], tally)))


if __name__ == "__main__":
    main()
